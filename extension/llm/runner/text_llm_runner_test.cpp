// TextLlmRunner on tiny LLMs from upstream's export flows: two Llamas, 8da4w
// (test/models/llm, examples/export/export_tiny_llm.py), and one fp32
// model of every family upstream's export_llama accepts, from its CLI and,
// where upstream's config sets extended_ops, from export_llm
// (test/models/llm_families, examples/export/export_llm_families.py):
// greedy tokens identical to upstream's TextLLMRunner for every prompt (one
// longer than max_seq_len) and a two-turn exchange, as far as upstream's
// choices are decided by more than rounding (see kMarginBound); stop, reset
// and a full context.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "backends/xnnpack/xnnpack_backend.h"
#include "extension/llm/runner/text_llm_runner.h"
#include "runtime/platform/cpu_features.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kModels = std::string(EMBER_TOKENIZER_FIXTURES) + "/..";

// One program and the reference that holds its upstream tokens.
struct Fixture {
  std::string dir;        // under test/models
  std::string reference;  // JSON in `dir`, tiny_llama_reference.json's format
  std::string program;    // in `dir`, a key of the reference's "programs"
};

// How gtest names a failing case's parameter.
void PrintTo(const Fixture& f, std::ostream* os) { *os << f.dir << "/" << f.program; }

std::string dir_of(const Fixture& f) { return kModels + "/" + f.dir; }

nlohmann::json reference(const Fixture& f) {
  std::ifstream in(dir_of(f) + "/" + f.reference);
  return nlohmann::json::parse(in, nullptr, false);
}

bool has_program(const nlohmann::json& ref, const std::string& program) {
  return !ref.is_discarded() && ref.contains("programs") && ref["programs"].is_object() &&
         ref["programs"].contains(program);
}

std::unique_ptr<TextLlmRunner> make_runner(const Fixture& f) {
  const nlohmann::json ref = reference(f);
  auto tokenizer = load_tokenizer(dir_of(f) + "/" + ref["tokenizer"].get<std::string>());
  EXPECT_TRUE(tokenizer.ok()) << last_error_message();
  if (!tokenizer.ok()) return nullptr;
  auto runner = TextLlmRunner::create(dir_of(f) + "/" + f.program, {}, std::move(*tokenizer));
  EXPECT_TRUE(runner.ok()) << last_error_message();
  return runner.ok() ? std::move(*runner) : nullptr;
}

GenerationConfig greedy(int32_t max_new) {
  GenerationConfig config;
  config.echo = false;
  config.temperature = 0.0f;
  config.num_bos = 1;
  config.max_new_tokens = max_new;
  return config;
}

std::vector<uint64_t> ids_of(const nlohmann::json& list) {
  return list.get<std::vector<uint64_t>>();
}

// Upstream's greedy token is evidence of right numerics only where it
// leads the runner-up by more than two correct implementations can differ.
// Measured on these programs (6,900 steps of 65 sequences, teacher-forced):
// two correct paths (upstream's two programs, batched and token-by-token
// prefill, on one CPU; Ember's config program against upstream's) agree
// to ~1e-6 until some dynamically quantized int8 activation rounds one
// step differently (a last-bit difference before it suffices; a third of
// the steps came after one); from then on logits differ by up to 0.12
// (median 0.05) and the top-2 margin by up to 0.087 (99th percentile
// 0.06), and 73 tokens flipped, all at margins of 0.066 or less. A margin
// of at most 0.1 is a near tie: a case's comparison ends at its first.
// The fp32 family programs have no quantized step; the same bound keeps
// them to the steps no rounding can decide.
constexpr double kMarginBound = 0.1;

// How many leading steps of `entry` (a case or a turn) are decided:
// upstream's margin (top-1 minus top-2 logit) above kMarginBound.
size_t decided_steps(const nlohmann::json& entry) {
  const auto margins = entry["margins"].get<std::vector<double>>();
  EXPECT_EQ(margins.size(), entry["generated_ids"].size()) << "one margin per generated token";
  size_t n = 0;
  while (n < margins.size() && margins[n] > kMarginBound) ++n;
  return n;
}

std::vector<uint64_t> first(const std::vector<uint64_t>& ids, size_t n) {
  return {ids.begin(), ids.begin() + std::min(n, ids.size())};
}

// Expects `ours` to be the entry's generated ids over its first `n` steps;
// reports how many were compared.
void expect_prefix(const std::vector<uint64_t>& ours, const nlohmann::json& entry, size_t n) {
  const std::vector<uint64_t> theirs = ids_of(entry["generated_ids"]);
  EXPECT_EQ(first(ours, n), first(theirs, n))
      << n << " of " << theirs.size() << " steps compared (margins above kMarginBound)";
  std::printf("compared %zu of %zu tokens of \"%s\"\n", n, theirs.size(),
              entry["prompt"].get<std::string>().c_str());
}

// A fixture of near ties would prove nothing: most tokens must be decided.
void expect_most_compared(size_t compared, size_t total) {
  EXPECT_GE(2 * compared, total) << "only " << compared << " of " << total
                                 << " tokens have margins above kMarginBound";
  ::testing::Test::RecordProperty("compared_tokens", int(compared));
  ::testing::Test::RecordProperty("reference_tokens", int(total));
}

class TinyLlm : public ::testing::TestWithParam<Fixture> {
 protected:
  // On x86 CPU levels below AVX2 the XNNPACK delegate refuses 4-bit
  // blockwise weights with an odd number of blocks (the pinned XNNPACK's
  // kernels there crash on them; xnn_compiler.cpp): such a program must
  // fail to load with that message, and its tests are skipped.
  void SetUp() override {
#if defined(__x86_64__) || defined(__i386__)
    if ((cpu_features() & kCpuX86Avx2) != 0) return;
    auto runner = make_runner(GetParam());
    if (runner == nullptr) return;
    const Error err = runner->load();
    if (err == Error::Ok) return;
    const std::string message = last_error_message();
    ASSERT_EQ(err, Error::NotSupported) << message;
    ASSERT_NE(message.find("odd number of blocks) need AVX2"), std::string::npos) << message;
    GTEST_SKIP() << message;
#endif
  }
};

// Each prompt on a fresh runner, as the reference: reset() rewinds the
// position only (as upstream's), and state outside the KV cache (LFM2's
// convolution state) would carry over into the next prompt.
TEST_P(TinyLlm, GreedyTokensAreUpstreams) {
  const nlohmann::json ref = reference(GetParam());
  ASSERT_TRUE(has_program(ref, GetParam().program))
      << GetParam().dir << "/" << GetParam().reference << ": no reference for '"
      << GetParam().program << "'";
  const nlohmann::json& program = ref["programs"][GetParam().program];
  size_t compared = 0, total = 0;
  for (const auto& c : program["cases"]) {
    const std::string prompt = c["prompt"];
    SCOPED_TRACE(prompt);
    auto runner = make_runner(GetParam());
    ASSERT_NE(runner, nullptr);
    EXPECT_EQ(runner->metadata().max_seq_len, ref["max_seq_len"].get<int64_t>());
    EXPECT_EQ(runner->metadata().max_context_len, ref["max_context_len"].get<int64_t>());
    std::string text;
    ASSERT_EQ(runner->generate(prompt, greedy(c["max_new_tokens"]),
                               [&](const std::string& t) { text += t; }),
              Error::Ok)
        << last_error_message();
    EXPECT_EQ(runner->last_prompt_ids(), ids_of(c["prompt_ids"]));
    const size_t n = decided_steps(c);
    expect_prefix(runner->last_generated_ids(), c, n);
    compared += n;
    total += c["generated_ids"].size();
    EXPECT_FALSE(text.empty());
  }
  expect_most_compared(compared, total);
}

TEST_P(TinyLlm, ATwoTurnExchangeReusesTheCache) {
  const nlohmann::json ref = reference(GetParam());
  ASSERT_TRUE(has_program(ref, GetParam().program));
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  int64_t expected_pos = 0;
  size_t compared = 0, total = 0;
  bool decided = true;  // every earlier turn's tokens were: the context is upstream's
  for (const auto& turn : ref["programs"][GetParam().program]["conversation"]) {
    ASSERT_EQ(runner->generate(turn["prompt"], greedy(turn["max_new_tokens"])), Error::Ok)
        << last_error_message();
    const size_t n = decided ? decided_steps(turn) : 0;
    expect_prefix(runner->last_generated_ids(), turn, n);
    decided = decided && n == turn["generated_ids"].size();
    compared += n;
    total += turn["generated_ids"].size();
    // The prompt and every generated token but the last are in the cache.
    expected_pos += int64_t(runner->last_prompt_ids().size() +
                            runner->last_generated_ids().size() - 1);
    EXPECT_EQ(runner->position(), expected_pos);
  }
  expect_most_compared(compared, total);
}

// "The fox" twice, reset(), "The fox". Where the reference has upstream's
// three answers ("reset_exchange"), each is compared with upstream's, and
// the answer after reset() must be the first one wherever upstream's is
// (always, for references without them). Upstream's reset() rewinds the
// position only: a state outside the KV cache that the graph does not
// clear at position 0 (LFM2's convolution state) carries over, so its
// answer after reset() is not its first; Ember's is upstream's.
TEST_P(TinyLlm, ResetStartsOverAsUpstreams) {
  const nlohmann::json ref = reference(GetParam());
  ASSERT_TRUE(has_program(ref, GetParam().program));
  const nlohmann::json& program = ref["programs"][GetParam().program];
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  std::vector<std::vector<uint64_t>> answers;
  for (int k = 0; k < 3; ++k) {
    if (k == 2) {
      runner->reset();
      EXPECT_EQ(runner->position(), 0);
    }
    ASSERT_EQ(runner->generate("The fox", greedy(8)), Error::Ok) << last_error_message();
    answers.push_back(runner->last_generated_ids());
  }
  bool repeats = true;  // upstream's third answer is its first
  if (program.contains("reset_exchange")) {
    const nlohmann::json& theirs = program["reset_exchange"];
    ASSERT_EQ(theirs.size(), 3u);
    bool decided = true;  // every earlier answer was: the state is upstream's
    for (size_t k = 0; k < 3; ++k) {
      SCOPED_TRACE(k);
      ASSERT_EQ(theirs[k]["prompt"], "The fox");
      ASSERT_EQ(theirs[k]["max_new_tokens"], 8);
      const size_t n = decided ? decided_steps(theirs[k]) : 0;
      expect_prefix(answers[k], theirs[k], n);
      decided = decided && n == theirs[k]["generated_ids"].size();
    }
    repeats = theirs[2]["generated_ids"] == theirs[0]["generated_ids"];
  }
  if (repeats) EXPECT_EQ(answers[2], answers[0]);
}

TEST_P(TinyLlm, AFullContextIsAClearError) {
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  GenerationConfig config = greedy(-1);
  config.ignore_eos = true;
  ASSERT_EQ(runner->generate("Once upon a time", config), Error::Ok) << last_error_message();
  EXPECT_EQ(runner->position() + 1, runner->metadata().max_context_len);
  EXPECT_EQ(runner->generate("The fox", config), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("does not fit"), std::string::npos)
      << last_error_message();
}

// A method's XNNPACK delegates take turns in one workspace, the
// bounded-dynamic ones of a whole-prompt prefill too (one workspace each
// cost SmolLM2-135M 72 MiB more peak RSS); the greedy tests above run on it, with
// prompts of several lengths reshaping the delegates in turn.
TEST_P(TinyLlm, TheMethodsDelegatesShareOneWorkspace) {
  const xnnpack::MemoryStats before = xnnpack::memory_stats();
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  ASSERT_EQ(runner->load(), Error::Ok) << last_error_message();
  const xnnpack::MemoryStats loaded = xnnpack::memory_stats();
  if (loaded.delegates == before.delegates) GTEST_SKIP() << "no XNNPACK delegate";
  EXPECT_GT(loaded.delegates - before.delegates, 1u);
  EXPECT_EQ(loaded.workspaces - before.workspaces, 1u);
}

TEST_P(TinyLlm, StopFromAnotherThreadEndsGenerationPromptly) {
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  GenerationConfig config = greedy(-1);
  config.ignore_eos = true;
  // The third piece's callback waits until the other thread has called
  // stop(): generation must then end with the token in flight.
  std::atomic<int> pieces{0};
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    while (pieces.load() < 3) std::this_thread::yield();
    runner->stop();
    stopped.store(true);
  });
  ASSERT_EQ(runner->generate("Once upon a time", config,
                             [&](const std::string&) {
                               if (pieces.fetch_add(1) + 1 == 3) {
                                 while (!stopped.load()) std::this_thread::yield();
                               }
                             }),
            Error::Ok);
  stopper.join();
  // Stopped at the token in flight: far from the 50-odd the context allows.
  EXPECT_LT(runner->last_generated_ids().size(), 8u);
  EXPECT_GE(runner->last_generated_ids().size(), 3u);
}

// Every program of each reference; a reference that does not parse gives
// one fixture with no program, which fails.
std::vector<Fixture> fixtures() {
  std::vector<Fixture> out;
  using Reference = std::pair<std::string, std::string>;  // dir, file
  for (const auto& [dir, file] : {Reference{"llm", "tiny_llama_reference.json"},
                                  Reference{"llm_families", "llm_families_reference.json"}}) {
    const nlohmann::json ref = reference({dir, file, ""});
    if (ref.is_discarded() || !ref.contains("programs") || !ref["programs"].is_object()) {
      out.push_back({dir, file, ""});
      continue;
    }
    for (const auto& item : ref["programs"].items()) out.push_back({dir, file, item.key()});
  }
  return out;
}

// "tiny_llama_legacy.pte" -> "tiny_llama_legacy"
std::string test_name(const ::testing::TestParamInfo<Fixture>& info) {
  const std::string& p = info.param.program;
  if (p.empty()) return "unreadable_" + std::to_string(info.index);
  return p.substr(0, p.find('.'));
}

INSTANTIATE_TEST_SUITE_P(ExportFlowsAndFamilies, TinyLlm, ::testing::ValuesIn(fixtures()),
                         test_name);

}  // namespace
}  // namespace ember::llm
