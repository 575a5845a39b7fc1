// The multimodal and speech runners on tiny programs that upstream's
// toolchain wrote (optimum-executorch's XNNPACK recipe: Gemma 3, Llava,
// Voxtral, Whisper, and the first three with its custom SDPA and KV-cache
// operators, Gemma 3's ring buffer wrapping; test/models/multimodal,
// examples/export/export_multimodal.py), against upstream's runtime:
//  - every method: the bundled test cases (upstream's outputs) within
//    rtol 1e-4 / atol 3e-5, and every metadata method's value;
//  - the runners' greedy tokens equal upstream's MultimodalRunner's (image
//    and audio prompts, a text-only prompt) and upstream's Seq2SeqRunner
//    loop's (features and a WAV through the preprocessor program), as far
//    as upstream's choice is decided by more than rounding (kMarginBound);
//  - Whisper's decoder fed upstream's tokens picks upstream's next token
//    at every decided step (so near ties early do not hide later steps);
//  - errors a user meets: the wrong program, a medium the program has no
//    encoder for, an image of the wrong dtype, a prompt past the context.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extension/llm/runner/audio_features.h"
#include "extension/llm/runner/decoder_io.h"
#include "extension/llm/runner/image_loader.h"
#include "extension/llm/runner/media_inputs.h"
#include "extension/llm/runner/multimodal_runner.h"
#include "extension/llm/runner/seq2seq_runner.h"
#include "extension/llm/runner/wav_loader.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kDir = std::string(EMBER_TOKENIZER_FIXTURES) + "/../multimodal";
// A choice of upstream's is evidence only where its top logit leads the
// next by more than two correct float kernels can differ
// (text_llm_runner_test.cpp measures this bound).
constexpr double kMarginBound = 0.1;

nlohmann::json reference(const std::string& model) {
  std::ifstream in(kDir + "/" + model + "/reference.json");
  return nlohmann::json::parse(in, nullptr, false);
}

// Steps before upstream's first near tie.
size_t decided_steps(const nlohmann::json& run) {
  const auto& margins = run["logit_margins"];
  for (size_t i = 0; i < margins.size(); ++i) {
    if (margins[i].get<double>() <= kMarginBound) return i;
  }
  return margins.size();
}

std::vector<uint64_t> ids_of(const nlohmann::json& list) {
  std::vector<uint64_t> ids;
  for (const auto& v : list) ids.push_back(v.get<uint64_t>());
  return ids;
}

std::vector<uint64_t> first(const std::vector<uint64_t>& ids, size_t n) {
  return std::vector<uint64_t>(ids.begin(), ids.begin() + std::min(n, ids.size()));
}

// An .npy array as a tensor (images).
TensorPtr npy_tensor(const std::string& path) {
  auto image = load_image(path);
  EXPECT_TRUE(image.ok()) << last_error_message();
  if (!image.ok()) return nullptr;
  const std::vector<SizesType> sizes{image->channels, image->height, image->width};
  auto t = image->is_float() ? make_tensor_ptr(sizes, image->f32)
                             : make_tensor_ptr(sizes, image->u8);
  return t.ok() ? *t : nullptr;
}

TensorPtr npy_features(const std::string& path) {
  auto t = load_features_npy(path);
  EXPECT_TRUE(t.ok()) << last_error_message();
  return t.ok() ? *t : nullptr;
}

// ---- Every method against upstream's runtime ----

// Upstream's own outputs for the same text_decoder input differ by up to
// 2.3e-5 between its default and custom-op exports (llava, voxtral): the
// absolute tolerance sits just above that.
constexpr double kRtol = 1e-4;
constexpr double kAtol = 3e-5;

class EveryMethod : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryMethod, BundledCasesMatchUpstream) {
  const std::string path = kDir + "/" + GetParam();
  auto module = Module::load(path);
  ASSERT_TRUE(module.ok()) << last_error_message();
  const BundledProgram* bundle = (*module)->bundle();
  ASSERT_NE(bundle, nullptr);
  ASSERT_GT(bundle->num_method_suites(), 0u);
  for (size_t s = 0; s < bundle->num_method_suites(); ++s) {
    const std::string method = bundle->suite_method_name(s);
    auto report = (*module)->verify(0, kRtol, kAtol, method);
    ASSERT_TRUE(report.ok()) << method << ": " << last_error_message();
    EXPECT_TRUE(report->passed) << method << ": " << report->message;
  }
}

INSTANTIATE_TEST_SUITE_P(Multimodal, EveryMethod,
                         ::testing::Values("gemma3/model.bpte", "llava/model.bpte",
                                           "voxtral/model.bpte", "voxtral/preprocessor.bpte",
                                           "whisper/model.bpte", "whisper/preprocessor.bpte",
                                           "gemma3_custom/model.bpte", "llava_custom/model.bpte",
                                           "voxtral_custom/model.bpte"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) c = std::isalnum((unsigned char)c) ? c : '_';
                           return name;
                         });

class Metadata : public ::testing::TestWithParam<std::string> {};

TEST_P(Metadata, EveryConstantMethodReturnsUpstreamsValue) {
  const nlohmann::json ref = reference(GetParam());
  ASSERT_FALSE(ref.is_discarded());
  auto module = Module::load(kDir + "/" + GetParam() + "/model.pte");
  ASSERT_TRUE(module.ok()) << last_error_message();
  ASSERT_FALSE(ref["metadata"].empty());
  for (const auto& [name, want] : ref["metadata"].items()) {
    auto out = (*module)->execute(name);
    ASSERT_TRUE(out.ok()) << name << ": " << last_error_message();
    ASSERT_EQ(out->size(), 1u) << name;
    const EValue& v = (*out)[0];
    const std::string type = want["type"];
    if (type == "int") {
      ASSERT_TRUE(v.is_int()) << name;
      EXPECT_EQ(v.to_int(), want["value"].get<int64_t>()) << name;
    } else if (type == "bool") {
      ASSERT_TRUE(v.is_bool()) << name;
      EXPECT_EQ(v.to_bool(), want["value"].get<bool>()) << name;
    } else if (type == "double") {
      ASSERT_TRUE(v.is_double()) << name;
      EXPECT_EQ(v.to_double(), want["value"].get<double>()) << name;
    } else {
      ASSERT_EQ(type, "string") << name;
      ASSERT_TRUE(v.is_string()) << name;
      const StringView s = v.to_string();
      EXPECT_EQ(std::string(s.data, s.size), want["value"].get<std::string>()) << name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Multimodal, Metadata,
                         ::testing::Values("gemma3", "llava", "voxtral", "whisper", "gemma3_custom",
                                           "llava_custom", "voxtral_custom"));

// ---- MultimodalRunner ----

std::unique_ptr<MultimodalRunner> multimodal(const std::string& model) {
  auto tokenizer = load_tokenizer(kDir + "/" + model + "/tokenizer.model");
  EXPECT_TRUE(tokenizer.ok()) << last_error_message();
  if (!tokenizer.ok()) return nullptr;
  auto runner = MultimodalRunner::create(kDir + "/" + model + "/model.pte", {},
                                         std::move(*tokenizer));
  EXPECT_TRUE(runner.ok()) << last_error_message();
  return runner.ok() ? std::move(*runner) : nullptr;
}

// audio.wav through the model's preprocessor.pte, by Ember's WAV reader
// and runtime.
TensorPtr wav_features(const std::string& model) {
  auto processor = Module::load(kDir + "/" + model + "/preprocessor.pte");
  EXPECT_TRUE(processor.ok()) << last_error_message();
  auto audio = load_audio(kDir + "/" + model + "/audio.wav");
  EXPECT_TRUE(audio.ok()) << last_error_message();
  if (!processor.ok() || !audio.ok()) return nullptr;
  auto features = preprocess_audio(**processor, audio->samples);
  EXPECT_TRUE(features.ok()) << last_error_message();
  return features.ok() ? *features : nullptr;
}

// The reference run's pieces: texts as they are, the image or audio from
// the file upstream was given (audio through the preprocessor when
// `from_wav`).
std::vector<MultimodalInput> pieces_of(const std::string& model, const nlohmann::json& run,
                                       bool from_wav) {
  std::vector<MultimodalInput> pieces;
  for (const auto& p : run["pieces"]) {
    if (p.contains("text")) {
      pieces.push_back(MultimodalInput::from_text(p["text"].get<std::string>()));
    } else if (p["method"] == "vision_encoder") {
      pieces.push_back(MultimodalInput::from_image(npy_tensor(kDir + "/" + model + "/image.npy")));
    } else if (from_wav) {
      pieces.push_back(MultimodalInput::from_audio(wav_features(model)));
    } else {
      pieces.push_back(
          MultimodalInput::from_audio(npy_features(kDir + "/" + model + "/audio_features.npy")));
    }
  }
  return pieces;
}

struct GreedyCase {
  std::string model;
  size_t run;     // index in reference.json's "greedy"
  bool from_wav;  // audio from audio.wav through preprocessor.pte
};

void PrintTo(const GreedyCase& c, std::ostream* os) { *os << c.model << "/" << c.run; }

class MultimodalGreedy : public ::testing::TestWithParam<GreedyCase> {};

TEST_P(MultimodalGreedy, TokensMatchUpstreamsRunner) {
  const GreedyCase c = GetParam();
  const nlohmann::json ref = reference(c.model);
  ASSERT_FALSE(ref.is_discarded());
  const nlohmann::json& run = ref["greedy"][c.run];
  auto runner = multimodal(c.model);
  ASSERT_NE(runner, nullptr);
  GenerationConfig config;
  config.temperature = 0;
  config.num_bos = run["num_bos"].get<int32_t>();
  config.max_new_tokens = run["max_new_tokens"].get<int32_t>();
  ASSERT_EQ(runner->generate(pieces_of(c.model, run, c.from_wav), config), Error::Ok)
      << last_error_message();
  EXPECT_EQ(runner->position(), run["prompt_len"].get<int64_t>() +
                                    int64_t(runner->last_generated_ids().size()) - 1);
  std::vector<uint64_t> prompt_ids;
  for (const auto& p : run["pieces"]) {
    if (p.contains("ids")) {
      for (uint64_t id : ids_of(p["ids"])) prompt_ids.push_back(id);
    }
  }
  EXPECT_EQ(runner->last_prompt_ids(), prompt_ids);
  const size_t n = decided_steps(run);
  const std::vector<uint64_t> want = ids_of(run["generated_ids"]);
  EXPECT_EQ(first(runner->last_generated_ids(), n), first(want, n))
      << "compared " << n << " decided steps of " << want.size();
  EXPECT_GE(n, 2u) << "the reference decides too few steps to be evidence";
  if (n == want.size()) {
    EXPECT_EQ(runner->stats().num_generated_tokens,
              run["runner_num_generated_tokens"].get<int64_t>());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Multimodal, MultimodalGreedy,
    ::testing::Values(GreedyCase{"gemma3", 0, false}, GreedyCase{"gemma3", 1, false},
                      GreedyCase{"llava", 0, false}, GreedyCase{"llava", 1, false},
                      GreedyCase{"voxtral", 0, false}, GreedyCase{"voxtral", 0, true},
                      GreedyCase{"voxtral", 1, false}, GreedyCase{"gemma3_custom", 0, false},
                      GreedyCase{"gemma3_custom", 1, false}, GreedyCase{"llava_custom", 0, false},
                      GreedyCase{"llava_custom", 1, false}, GreedyCase{"voxtral_custom", 0, true},
                      GreedyCase{"voxtral_custom", 1, false}),
    [](const auto& info) {
      return info.param.model + "_" + std::to_string(info.param.run) +
             (info.param.from_wav ? "_wav" : "");
    });

// The picture as a PNG, through the presets of Hugging Face's processors,
// is the tensor upstream's runner was given.
TEST(MultimodalRunner, HfPresetsGiveTheProcessorsTensor) {
  for (const char* model : {"gemma3", "llava"}) {
    auto module = Module::load(kDir + "/" + std::string(model) + "/model.pte");
    ASSERT_TRUE(module.ok());
    const std::string preset = std::string("hf_") + model;
    auto got = load_image_tensor(kDir + "/" + model + "/image.png", preset, **module,
                                 MultimodalRunner::kVisionEncoder);
    ASSERT_TRUE(got.ok()) << last_error_message();
    const TensorPtr want = npy_tensor(kDir + "/" + model + "/image.npy");
    ASSERT_NE(want, nullptr);
    ASSERT_EQ((*got)->numel(), want->numel());
    const float* g = (*got)->const_data_ptr<float>();
    const float* w = want->const_data_ptr<float>();
    float worst = 0;
    for (int64_t i = 0; i < want->numel(); ++i) worst = std::max(worst, std::fabs(g[i] - w[i]));
    EXPECT_LT(worst, 1e-6f) << model;
  }
}

TEST(MultimodalRunner, TextProgramIsNotMultimodal) {
  auto tokenizer = load_tokenizer(kDir + "/gemma3/tokenizer.model");
  ASSERT_TRUE(tokenizer.ok());
  auto runner = MultimodalRunner::create(kDir + "/../llm/tiny_llama_config.pte", {},
                                         std::move(*tokenizer));
  EXPECT_EQ(runner.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("'token_embedding'"), std::string::npos);
}

TEST(MultimodalRunner, MediumWithoutEncoderRefusedBeforeRunning) {
  auto runner = multimodal("voxtral");
  ASSERT_NE(runner, nullptr);
  EXPECT_FALSE(runner->has_vision());
  EXPECT_TRUE(runner->has_audio());
  GenerationConfig config;
  config.temperature = 0;
  const std::vector<MultimodalInput> pieces = {
      MultimodalInput::from_text("Look"),
      MultimodalInput::from_image(npy_tensor(kDir + "/gemma3/image.npy"))};
  EXPECT_EQ(runner->generate(pieces, config), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("no 'vision_encoder'"), std::string::npos);
  EXPECT_EQ(runner->position(), 0);
  EXPECT_EQ(runner->generate({}, config), Error::InvalidArgument);
  EXPECT_EQ(runner->generate({MultimodalInput::from_text("")}, config), Error::InvalidArgument);
}

TEST(MultimodalRunner, ByteImageForFloatEncoderRefused) {
  auto runner = multimodal("gemma3");
  ASSERT_NE(runner, nullptr);
  auto bytes = make_tensor_ptr<uint8_t>({3, 32, 32}, std::vector<uint8_t>(3 * 32 * 32, 7));
  ASSERT_TRUE(bytes.ok());
  GenerationConfig config;
  config.temperature = 0;
  EXPECT_EQ(runner->generate({MultimodalInput::from_image(*bytes)}, config),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("normalize"), std::string::npos)
      << last_error_message();
}

TEST(MultimodalRunner, ChatContinuesAndContextEndIsAnError) {
  auto runner = multimodal("gemma3");
  ASSERT_NE(runner, nullptr);
  GenerationConfig config;
  config.temperature = 0;
  config.max_new_tokens = 4;
  ASSERT_EQ(runner->generate({MultimodalInput::from_text("The fox")}, config), Error::Ok)
      << last_error_message();
  const int64_t after_first = runner->position();
  EXPECT_GT(after_first, 0);
  ASSERT_EQ(runner->generate({MultimodalInput::from_text(" and")}, config), Error::Ok);
  EXPECT_GT(runner->position(), after_first);
  // 64 positions in all: a piece that does not fit says so.
  std::vector<uint64_t> many(70, 300);
  EXPECT_EQ(runner->generate({MultimodalInput::from_tokens(many)}, config),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("context"), std::string::npos);
  runner->reset();
  EXPECT_EQ(runner->position(), 0);
  // A prompt longer than one text_decoder call (63 rows) runs in chunks.
  std::vector<uint64_t> long_prompt(63, 300);
  long_prompt.push_back(301);
  EXPECT_EQ(runner->prefill({MultimodalInput::from_tokens(long_prompt)}, config), Error::Ok)
      << last_error_message();
  EXPECT_EQ(runner->position(), 64);
  // A prompt that fills the context leaves no room for an answer.
  runner->reset();
  long_prompt.pop_back();
  EXPECT_EQ(runner->generate({MultimodalInput::from_tokens(long_prompt),
                              MultimodalInput::from_tokens({301})},
                             config),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("no new tokens"), std::string::npos);
  config.max_new_tokens = 0;
  runner->reset();
  EXPECT_EQ(runner->generate({MultimodalInput::from_text("The fox")}, config),
            Error::InvalidArgument);
}

// ---- Seq2SeqRunner ----

std::unique_ptr<Seq2SeqRunner> whisper() {
  auto tokenizer = load_tokenizer(kDir + "/whisper/tokenizer.json");
  EXPECT_TRUE(tokenizer.ok()) << last_error_message();
  if (!tokenizer.ok()) return nullptr;
  auto runner = Seq2SeqRunner::create(kDir + "/whisper/model.pte", {}, std::move(*tokenizer));
  EXPECT_TRUE(runner.ok()) << last_error_message();
  return runner.ok() ? std::move(*runner) : nullptr;
}

class WhisperGreedy : public ::testing::TestWithParam<size_t> {};

TEST_P(WhisperGreedy, TokensMatchUpstreamsLoop) {
  const nlohmann::json ref = reference("whisper");
  ASSERT_FALSE(ref.is_discarded());
  const nlohmann::json& run = ref["greedy"][GetParam()];
  auto runner = whisper();
  ASSERT_NE(runner, nullptr);
  EXPECT_TRUE(runner->has_sampler());
  // The WAV case from the recording itself, through Ember's WAV reader
  // and the preprocessor program.
  const TensorPtr features =
      run.contains("wav") ? wav_features("whisper")
                          : npy_features(kDir + "/whisper/" + run["features"].get<std::string>());
  ASSERT_NE(features, nullptr);
  TranscribeConfig config;  // start token from the program
  config.max_new_tokens = run["max_new_tokens"].get<int32_t>();
  std::string text;
  auto ids = runner->transcribe(features, config, [&](const std::string& s) { text += s; });
  ASSERT_TRUE(ids.ok()) << last_error_message();
  ASSERT_FALSE(ids->empty());
  EXPECT_EQ((*ids)[0], run["start_id"].get<uint64_t>());
  const std::vector<uint64_t> got(ids->begin() + 1, ids->end());
  const size_t n = decided_steps(run);
  EXPECT_EQ(first(got, n), first(ids_of(run["generated_ids"]), n));
  EXPECT_FALSE(text.empty());
}

INSTANTIATE_TEST_SUITE_P(Whisper, WhisperGreedy, ::testing::Values(0u, 1u));

// Fed upstream's tokens one by one, the decoder's top choice is upstream's
// wherever upstream's margin decides it.
TEST(WhisperDecoder, TeacherForcedChoicesMatchUpstream) {
  const nlohmann::json ref = reference("whisper");
  ASSERT_FALSE(ref.is_discarded());
  auto module = Module::load(kDir + "/whisper/model.pte");
  ASSERT_TRUE(module.ok());
  size_t compared = 0;
  for (const auto& run : ref["greedy"]) {
    auto hidden = (*module)->execute(
        "encoder", std::vector<TensorPtr>{
                       npy_features(kDir + "/whisper/" + run["features"].get<std::string>())});
    ASSERT_TRUE(hidden.ok()) << last_error_message();
    const TensorPtr encoded = hidden->tensor(0);
    std::vector<uint64_t> fed{run["start_id"].get<uint64_t>()};
    const std::vector<uint64_t> want = ids_of(run["generated_ids"]);
    fed.insert(fed.end(), want.begin(), want.end());
    for (size_t step = 0; step < want.size(); ++step) {
      auto id = make_tensor_ptr<int64_t>({1, 1}, {int64_t(fed[step])});
      auto pos = make_tensor_ptr<int64_t>({1}, {int64_t(step)});
      auto out = (*module)->execute("text_decoder", std::vector<TensorPtr>{*id, encoded, *pos});
      ASSERT_TRUE(out.ok()) << last_error_message();
      std::vector<float> row;
      ASSERT_EQ(last_logits_row(out->tensor(0), "text_decoder", &row), Error::Ok);
      const size_t best = size_t(std::max_element(row.begin(), row.end()) - row.begin());
      if (run["logit_margins"][step].get<double>() > kMarginBound) {
        EXPECT_EQ(best, want[step]) << "step " << step;
        ++compared;
      }
    }
  }
  EXPECT_GE(compared, 25u);
}

TEST(Seq2SeqRunner, WrongProgramAndBadConfigRefused) {
  auto tokenizer = load_tokenizer(kDir + "/whisper/tokenizer.json");
  ASSERT_TRUE(tokenizer.ok());
  auto wrong = Seq2SeqRunner::create(kDir + "/gemma3/model.pte", {}, std::move(*tokenizer));
  EXPECT_EQ(wrong.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("'encoder'"), std::string::npos);
  auto runner = whisper();
  ASSERT_NE(runner, nullptr);
  TensorPtr features = npy_features(kDir + "/whisper/features.npy");
  TranscribeConfig config;
  config.max_new_tokens = 0;
  EXPECT_EQ(runner->transcribe(features, config).error(), Error::InvalidArgument);
  config.max_new_tokens = 4;
  config.decoder_start_token_id = 50258;  // past this tokenizer's 320 ids
  EXPECT_EQ(runner->transcribe(features, config).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("50258"), std::string::npos);
  config.decoder_start_token_id = -1;
  auto wrong_shape = make_tensor_ptr<float>({1, 80, 7}, std::vector<float>(80 * 7, 0.f));
  EXPECT_NE(runner->transcribe(*wrong_shape, config).error(), Error::Ok);
  EXPECT_EQ(runner->transcribe(features, config).error(), Error::Ok) << last_error_message();
}

}  // namespace
}  // namespace ember::llm
