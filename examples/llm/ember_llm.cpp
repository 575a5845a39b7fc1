// Product tool: text generation from an upstream-exported LLM.
// ember_llm: prompt to streamed text for an LLM that upstream's exporter
// wrote (export_llama or export_llm), with upstream's llama_main flags:
//
//   ember_llm --model_path llama.pte --tokenizer_path tokenizer.model \
//       --prompt "Once upon a time" --temperature 0 --max_new_tokens 64
//
// Text goes to stdout as it comes (whole UTF-8 characters), then upstream's
// "PyTorchObserver {...}" line; the human report goes to stderr, with the
// process's peak RSS and its RSS before loading.
// --print_token_ids adds "prompt_ids: ..." and "generated_ids: ..." lines
// (compare ids, not text, with upstream: its SentencePiece decoder prints
// byte pieces as "<0xNN>"). --prompt_cache FILE (llama.cpp's --prompt-cache)
// restores the KV caches from FILE when its tokens start the prompt's, so
// only the rest is prefilled, and saves the state after the prompt to it;
// a FILE that cannot be used is reported on stderr and overwritten.
// --context_keep_first N: a prompt too long for the context (with
// --context_margin positions left for the answer) keeps its first N tokens
// and its last ones, the middle dropped (said on stderr); without it, such
// a prompt is an error, as upstream's.
// --image_path / --audio_path run a multimodal program (token_embedding,
// text_decoder and a vision or audio encoder: Gemma 3, Llava, Voxtral as
// optimum-executorch exports them) with the prompt put together as
// --prompt_format says; such a program without media runs the same way on
// the text alone. docs/multimodal.md.
// Exit status: 0 on success, 1 when loading or
// generation fails (the message says why), 2 for bad flags.
#include <gflags/gflags.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "devtools/etdump/etdump_writer.h"
#include "devtools/event_recorder.h"
#include "examples/executor_runner/runner_memory.h"
#include "examples/llm/ember_llm_multimodal.h"
#include "examples/llm/llm_cli.h"
#include "extension/llm/runner/text_llm_runner.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "extension/runner_util/cpu_level.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"

DEFINE_string(model_path, "llama2.pte", "Program (.pte) to run.");
DEFINE_string(data_paths, "", "External data files (.ptd), comma-separated.");
DEFINE_string(tokenizer_path, "tokenizer.bin",
              "Tokenizer: SentencePiece .model, llama2.c tokenizer.bin, tokenizer.json or "
              "tiktoken (told apart by content).");
DEFINE_string(prompt, "The answer to the ultimate question is", "Prompt.");
DEFINE_string(prompt_file, "", "Read the prompt from this file (overrides --prompt).");
DEFINE_double(temperature, 0.8, "Sampling temperature; 0 is greedy.");
DEFINE_double(topp, 0.9, "Nucleus sampling threshold (0 < topp < 1; else the full distribution).");
DEFINE_uint64(seed, 0, "Sampling seed; 0 seeds from the clock.");
DEFINE_int32(seq_len, -1, "Total tokens (prompt and new); -1: the model's context.");
DEFINE_int32(max_new_tokens, -1, "New tokens at most; -1: what the context allows.");
DEFINE_int32(cpu_threads, -1, "Threads; -1: the library's default.");
DEFINE_string(cpu_features, "", ember::runner::cpu_features_flag_help());
DEFINE_int32(num_bos, 0, "BOS tokens put in front of the prompt.");
DEFINE_int32(num_eos, 0, "EOS tokens put after the prompt.");
DEFINE_bool(warmup, false, "Run one warm-up generation first (not reported).");
DEFINE_bool(ignore_eos, false, "Keep generating past EOS tokens.");
DEFINE_string(etdump_path, "",
              "Write upstream's ETDump (the method's load and every forward call's "
              "operator events) to this file.");
DEFINE_int32(etdump_buffer_mb, 16, "Event buffer for --etdump_path, in MiB.");
DEFINE_string(method_name, "forward", "The program's decoder method.");
DEFINE_string(prompt_cache, "",
              "Prompt cache file: when it holds a session of this program whose tokens start "
              "the prompt's, they are restored and only the rest of the prompt is prefilled; "
              "the state after the prompt is saved to it (a file that cannot be used is "
              "reported and overwritten).");
DEFINE_int32(context_keep_first, -1,
             "A prompt that does not fit the context (with --context_margin positions for "
             "the answer): keep its first N tokens and its most recent ones, drop the middle; "
             "-1: an error, as upstream's.");
DEFINE_int32(context_margin, -1,
             "With --context_keep_first: positions a trim leaves for the answer; -1: a quarter "
             "of the context, or --max_new_tokens when smaller.");
DEFINE_bool(print_token_ids, false, "Also print the prompt's and the generated token ids.");
DEFINE_string(image_path, "",
              "An image (PNG, JPEG, BMP, or a prepared .npy [3, H, W]): generate with a "
              "multimodal program (token_embedding, vision_encoder, text_decoder).");
DEFINE_string(image_preset, "",
              "How to prepare --image_path: one of upstream's runners' presets (gemma3, "
              "llava, ...); empty: resized to the vision encoder's input, /255 for float.");
DEFINE_string(audio_path, "",
              "Audio (.wav or raw float32 .bin through --processor_path, or features .npy): "
              "generate with a multimodal program that has an audio_encoder.");
DEFINE_string(processor_path, "",
              "The audio preprocessor program (upstream's mel_spectrogram export) for "
              "--audio_path recordings.");
DEFINE_string(prompt_format, "raw",
              "With media: how the prompt and media are put together: raw (media at each "
              "<image>/<audio> in the prompt, else first), gemma3, llava, voxtral (upstream's "
              "runners' chat formats).");
DEFINE_bool(memory_report, false,
            "Print where memory goes (stderr): RSS before and after loading and after "
            "generating, the planned buffers (the KV caches), the XNNPACK delegates' packed "
            "weights and the program constants released once packed.");

namespace {

using ember::llm::cli::fail;
using ember::llm::cli::print_ids;
using ember::llm::cli::print_stats;
using ember::llm::cli::split_commas;

bool read_text(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream all;
  all << in.rdbuf();
  *text = all.str();
  return true;
}

// This process's resident memory now, in KiB; 0 if unknown.
long current_rss_kib() { return ember::runner::status_kib("VmRSS"); }

// Its peak (VmHWM, which exec resets; getrusage's ru_maxrss keeps the
// parent's peak across fork and exec, so a runner started by a large
// process would report that process's size).
long peak_rss_kib() { return ember::runner::status_kib("VmHWM"); }

bool write_etdump(const ember::devtools::EventRecorder& recorder, const std::string& path) {
  auto bytes = ember::devtools::write_etdump(recorder);
  if (!bytes.ok()) {
    std::fprintf(stderr, "error: --etdump_path: %s\n", ember::last_error_message());
    return false;
  }
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes->data()), std::streamsize(bytes->size()));
  if (!out) {
    std::fprintf(stderr, "error: cannot write --etdump_path %s\n", path.c_str());
    return false;
  }
  return true;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Restores --prompt_cache when the file exists, holds a session of this
// program and its tokens start the prompt's; otherwise says why on stderr
// and leaves the runner as it was, empty (the file is overwritten after the
// prompt).
void restore_prompt_cache(ember::llm::TextLlmRunner& runner, const std::string& path,
                          const std::string& prompt, const ember::llm::GenerationConfig& config) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    std::fprintf(stderr, "prompt cache: %s does not exist yet; it will be written\n",
                 path.c_str());
    return;
  }
  // Loaded first, so that the time below is the restore's alone (a load
  // error is generate()'s to report).
  (void)runner.load();
  const auto start = std::chrono::steady_clock::now();
  if (runner.restore_session_for(path, prompt, config) != ember::Error::Ok) {
    std::fprintf(stderr, "warning: --prompt_cache not used: %s; it will be overwritten\n",
                 ember::last_error_message());
    return;
  }
  const std::vector<uint64_t>& cached = runner.cached_ids();
  std::fprintf(stderr, "prompt cache: restored %zu tokens from %s in %.1f ms\n", cached.size(),
               path.c_str(), ms_since(start));
}

void save_prompt_cache(ember::llm::TextLlmRunner& runner, const std::string& path) {
  const auto start = std::chrono::steady_clock::now();
  if (runner.save_session(path) != ember::Error::Ok) {
    std::fprintf(stderr, "warning: --prompt_cache: not saved: %s\n", ember::last_error_message());
    return;
  }
  std::fprintf(stderr, "prompt cache: saved %lld tokens to %s in %.1f ms\n",
               static_cast<long long>(runner.position()), path.c_str(), ms_since(start));
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("ember_llm --model_path M.pte --tokenizer_path T --prompt TEXT");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  std::string prompt = FLAGS_prompt;
  if (!FLAGS_prompt_file.empty() && !read_text(FLAGS_prompt_file, &prompt)) {
    std::fprintf(stderr, "error: cannot read --prompt_file %s\n", FLAGS_prompt_file.c_str());
    return 2;
  }
  if (const int bad = ember::runner::apply_cpu_features_flag(FLAGS_cpu_features.c_str())) {
    return bad;
  }
  if (FLAGS_cpu_threads > 0 &&
      ember::set_num_threads(size_t(FLAGS_cpu_threads)) != ember::Error::Ok) {
    return fail("--cpu_threads");
  }
  ember::llm::GenerationConfig config;
  config.temperature = float(FLAGS_temperature);
  config.topp = float(FLAGS_topp);
  config.seed = FLAGS_seed;
  config.seq_len = FLAGS_seq_len;
  config.max_new_tokens = FLAGS_max_new_tokens;
  config.num_bos = FLAGS_num_bos;
  config.num_eos = FLAGS_num_eos;
  config.ignore_eos = FLAGS_ignore_eos;
  config.keep_first_tokens = FLAGS_context_keep_first;
  config.context_margin = FLAGS_context_margin;
  if (!FLAGS_image_path.empty() || !FLAGS_audio_path.empty() ||
      ember::llm::is_multimodal_program(FLAGS_model_path, FLAGS_method_name)) {
    return ember::llm::run_multimodal(prompt, split_commas(FLAGS_data_paths), config);
  }
  const long rss_before_load = current_rss_kib();
  ember::runner::MemoryReport memory;
  if (FLAGS_memory_report) memory.sample("before load");
  auto tokenizer = ember::llm::load_tokenizer(FLAGS_tokenizer_path);
  if (!tokenizer.ok()) return fail("loading the tokenizer");
  auto runner = ember::llm::TextLlmRunner::create(FLAGS_model_path, split_commas(FLAGS_data_paths),
                                                  std::move(*tokenizer), FLAGS_method_name);
  if (!runner.ok()) return fail("loading the model");
  if (FLAGS_memory_report) memory.sample("tokenizer and model loaded");
  std::vector<uint8_t> events;
  std::unique_ptr<ember::devtools::EventRecorder> recorder;
  if (!FLAGS_etdump_path.empty()) {
    events.resize(size_t(FLAGS_etdump_buffer_mb) << 20);
    recorder = std::make_unique<ember::devtools::EventRecorder>(
        ember::Span<uint8_t>(events.data(), events.size()));
    if ((*runner)->set_event_tracer(recorder.get()) != ember::Error::Ok) {
      return fail("--etdump_path");
    }
  }

  if (FLAGS_warmup && (*runner)->warmup(prompt, config.max_new_tokens) != ember::Error::Ok) {
    return fail("warm-up");
  }
  const auto print = [](const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  };
  ember::Error err = ember::Error::Ok;
  if (FLAGS_prompt_cache.empty()) {
    err = (*runner)->generate(prompt, config, print);
  } else {
    restore_prompt_cache(**runner, FLAGS_prompt_cache, prompt, config);
    err = (*runner)->generate_from_cache(prompt, config, print, {}, [&] {
      save_prompt_cache(**runner, FLAGS_prompt_cache);
    });
  }
  std::printf("\n");
  if (err != ember::Error::Ok) return fail("generating");
  if (const int64_t dropped = (*runner)->stats().num_dropped_context_tokens) {
    std::fprintf(stderr,
                 "context: the prompt did not fit the %lld positions; %lld tokens dropped after "
                 "the first %d, %lld kept\n",
                 static_cast<long long>((*runner)->metadata().max_context_len),
                 static_cast<long long>(dropped), int(config.keep_first_tokens),
                 static_cast<long long>((*runner)->last_prompt_ids().size()));
  }
  if (recorder != nullptr && !write_etdump(*recorder, FLAGS_etdump_path)) return 1;
  if (FLAGS_print_token_ids) {
    print_ids("prompt_ids", (*runner)->last_prompt_ids());
    print_ids("generated_ids", (*runner)->last_generated_ids());
  }
  print_stats((*runner)->stats());
  std::fprintf(stderr, "\tPeak RSS:\t%.1f MiB (%.1f MiB before loading)\n",
               peak_rss_kib() / 1024.0, rss_before_load / 1024.0);
  if (FLAGS_memory_report) {
    memory.sample("generated");
    std::error_code ec;
    const auto file_bytes = std::filesystem::file_size(FLAGS_model_path, ec);
    // The KV caches are the method's mutable buffers: its planned memory.
    memory.print(stderr, (*runner)->module(), {FLAGS_method_name}, ec ? 0 : size_t(file_bytes));
  }
  return 0;
}
