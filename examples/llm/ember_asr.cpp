// Product tool: speech to text with an encoder-decoder program (Whisper as
// optimum-executorch exports it), with upstream's whisper runner's flags:
//
//   ember_asr --model_path whisper.pte --tokenizer_path tokenizer.json \
//       --processor_path whisper_preprocess.pte --audio_path clip.wav
//
// --audio_path: a .wav (PCM 8/16/24/32-bit or float, any channel count,
// mixed down) or raw float32 samples (.bin), both through --processor_path
// (upstream's mel_spectrogram export), or features already computed (.npy
// [bins, frames] or [1, bins, frames]). The text goes to stdout as it comes,
// then upstream's "PyTorchObserver {...}" line; the human report goes to
// stderr. --print_token_ids prints the ids (the start token first);
// --timestamps the timed segments of Whisper's time tokens.
// Exit status: 0 on success, 1 when loading or transcribing fails (the
// message says why), 2 for bad flags.
#include <gflags/gflags.h>

#include <cstdio>

#include "examples/llm/llm_cli.h"
#include "extension/llm/runner/media_inputs.h"
#include "extension/llm/runner/seq2seq_runner.h"
#include "extension/llm/runner/timestamps.h"
#include "extension/runner_util/cpu_level.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"

DEFINE_string(model_path, "model.pte", "The speech program (.pte).");
DEFINE_string(data_path, "", "External data files (.ptd), comma-separated.");
DEFINE_string(tokenizer_path, "tokenizer.json", "The tokenizer (tokenizer.json and others).");
DEFINE_string(processor_path, "", "The audio preprocessor program for .wav and .bin audio.");
DEFINE_string(audio_path, "", "Audio: .wav, raw float32 .bin, or features .npy.");
DEFINE_double(temperature, 0.0, "Sampling temperature; 0 is greedy.");
DEFINE_int32(max_new_tokens, 128, "New tokens at most.");
DEFINE_int64(decoder_start_token_id, -1,
             "The decoder's first token; -1: the program's decoder_start_token_id method, "
             "else 50258 (Whisper's <|startoftranscript|>, upstream's choice).");
DEFINE_string(forced_token_ids, "",
              "Token ids fed after the start token, comma-separated (a language and task).");
DEFINE_uint64(seed, 0, "Sampling seed; 0 seeds from the clock.");
DEFINE_int32(cpu_threads, -1, "Threads; -1: the library's default.");
DEFINE_string(cpu_features, "", ember::runner::cpu_features_flag_help());
DEFINE_bool(print_token_ids, false, "Also print the token ids.");
DEFINE_bool(timestamps, false,
            "Also print the transcription's timed segments, \"[start -> end] text\", from "
            "Whisper's time tokens (decode with timestamps on: no <|notimestamps|> in "
            "--forced_token_ids).");

namespace {

using ember::llm::cli::fail;
using ember::llm::cli::split_commas;

bool parse_ids(const std::string& text, std::vector<uint64_t>* ids) {
  for (const std::string& part : split_commas(text)) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(part.c_str(), &end, 10);
    if (end == part.c_str() || *end != '\0') return false;
    ids->push_back(v);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "ember_asr --model_path M.pte --tokenizer_path T --processor_path P.pte --audio_path A.wav");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (FLAGS_audio_path.empty()) {
    std::fprintf(stderr, "error: --audio_path is required\n");
    return 2;
  }
  ember::llm::TranscribeConfig config;
  config.max_new_tokens = FLAGS_max_new_tokens;
  config.temperature = float(FLAGS_temperature);
  config.seed = FLAGS_seed;
  config.decoder_start_token_id = FLAGS_decoder_start_token_id;
  if (!parse_ids(FLAGS_forced_token_ids, &config.forced_ids)) {
    std::fprintf(stderr, "error: --forced_token_ids: not a comma-separated list of ids\n");
    return 2;
  }
  if (const int bad = ember::runner::apply_cpu_features_flag(FLAGS_cpu_features.c_str())) {
    return bad;
  }
  if (FLAGS_cpu_threads > 0 &&
      ember::set_num_threads(size_t(FLAGS_cpu_threads)) != ember::Error::Ok) {
    return fail("--cpu_threads");
  }
  auto tokenizer = ember::llm::load_tokenizer(FLAGS_tokenizer_path);
  if (!tokenizer.ok()) return fail("loading the tokenizer");
  auto runner = ember::llm::Seq2SeqRunner::create(FLAGS_model_path, split_commas(FLAGS_data_path),
                                                  std::move(*tokenizer));
  if (!runner.ok()) return fail("loading the model");
  auto features = ember::llm::load_audio_features(FLAGS_audio_path, FLAGS_processor_path);
  if (!features.ok()) return fail("--audio_path");
  auto ids = (*runner)->transcribe(*features, config, [](const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  });
  std::printf("\n");
  if (!ids.ok()) return fail("transcribing");
  if (FLAGS_print_token_ids) ember::llm::cli::print_ids("token_ids", *ids);
  if (FLAGS_timestamps) {
    for (const auto& segment : ember::llm::timed_segments((*runner)->last_pieces())) {
      std::printf("[%.2f -> %.2f] %s\n", segment.start_s, segment.end_s, segment.text.c_str());
    }
  }
  ember::llm::cli::print_stats((*runner)->stats());
  return 0;
}
