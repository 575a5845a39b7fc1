// The context trim (context_trim.h, GenerationConfig::keep_first_tokens):
// plan_context_trim's rule on its own, then multi-turn chats that outgrow
// the 64-position context of the tiny Llamas of test/models/llm (export_llama
// with dynamic shape, prefill in chunks of 31; export_llm --config, token by
// token) and of the recurrent-state families of test/models/llm_families
// (LFM2's convolutions, Qwen3.5's gated DeltaNet): without the option the
// error of before; with it the chat goes on, keeps its first N tokens, drops
// whole earlier turns, and every turn after a trim generates exactly what a
// fresh runner given the kept tokens as its prompt generates; a keep count
// too large for the context is a clear error, with nothing changed; a
// single prompt longer than the context (generate_from_cache, ember_llm's
// case) and a prompt cache of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "extension/llm/runner/context_trim.h"
#include "extension/llm/runner/text_llm_runner.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kDir = std::string(EMBER_TOKENIZER_FIXTURES) + "/../llm/";

// The system prompt (the first turn's prompt, BOS included: the tokens to
// keep) and the user turns that follow it.
const char* const kSystem = "You are a storyteller who tells short tales about a fox";
const char* const kTurns[] = {
    "Tell me about the fox.",  "What did the bear say?", "Where did they go then?",
    "Who met them there?",     "What happened at night?", "Did the fox sleep well?",
    "And in the morning?",     "How does it end?",        "Tell it once more.",
    "Thank you, good night.",
};

std::unique_ptr<TextLlmRunner> make_runner(const std::string& file) {
  auto tokenizer = load_tokenizer(kDir + "tiny_llm_tokenizer.model");
  EXPECT_TRUE(tokenizer.ok()) << last_error_message();
  if (!tokenizer.ok()) return nullptr;
  auto runner = TextLlmRunner::create(kDir + file, {}, std::move(*tokenizer));
  EXPECT_TRUE(runner.ok()) << last_error_message();
  return runner.ok() ? std::move(*runner) : nullptr;
}

// Every turn generates exactly max_new tokens (EOS ignored), so the chat
// outgrows the context at the same turn on every program.
GenerationConfig chat_config(float temperature) {
  GenerationConfig c;
  c.echo = false;
  c.temperature = temperature;
  c.seed = 42;
  c.num_bos = 1;
  c.max_new_tokens = 8;
  c.ignore_eos = true;
  return c;
}

std::vector<uint64_t> slice(const std::vector<uint64_t>& ids, int64_t begin, int64_t end) {
  return {ids.begin() + begin, ids.begin() + end};
}

std::vector<uint64_t> concat(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The generated ids of a fresh runner of `file` given `prompt_ids` as its
// prompt.
std::vector<uint64_t> fresh_run(const std::string& file, const std::vector<uint64_t>& prompt_ids,
                                const GenerationConfig& c) {
  std::unique_ptr<TextLlmRunner> r = make_runner(file);
  if (r == nullptr) return {};
  GenerationConfig plain = c;
  plain.keep_first_tokens = -1;
  EXPECT_EQ(r->generate_tokens(prompt_ids, plain), Error::Ok) << last_error_message();
  EXPECT_EQ(r->stats().num_dropped_context_tokens, 0);
  return r->last_generated_ids();
}

// --- The rule ---

// plan_context_trim() in a context of 64 with a margin of 8, which must
// succeed.
ContextTrim plan(int64_t total, int64_t keep_first, const std::vector<int64_t>& starts) {
  Result<ContextTrim> t = plan_context_trim(total, 64, keep_first, 8, starts);
  EXPECT_TRUE(t.ok()) << last_error_message();
  return t.ok() ? *t : ContextTrim{-1, -1};
}

TEST(PlanContextTrim, NothingIsDroppedWhileThePromptAndTheMarginFit) {
  EXPECT_EQ(plan(56, 6, {0, 20, 40}).dropped(), 0);
  const ContextTrim t = plan(3, 6, {0});  // shorter than what is kept first
  EXPECT_EQ(t.keep_first, 3);
  EXPECT_EQ(t.dropped(), 0);
}

TEST(PlanContextTrim, DropsWholeEarlierTurns) {
  // 57 + 8 > 64: at most 64 - 8 - 6 = 50 recent tokens, so from 7 on; the
  // earliest turn start from there is 20.
  ContextTrim t = plan(57, 6, {0, 20, 40, 50});
  EXPECT_EQ(t.keep_first, 6);
  EXPECT_EQ(t.resume, 20);
  // From 50 on: starts before it are passed over, 55 is the first.
  EXPECT_EQ(plan(100, 6, {0, 20, 40, 55, 90}).resume, 55);
}

TEST(PlanContextTrim, KeepsTheMostRecentTokensWhenNoTurnFits) {
  // No turns known (a single prompt, a restored session).
  ContextTrim t = plan(100, 6, {});
  EXPECT_EQ(t.keep_first, 6);
  EXPECT_EQ(t.resume, 100 - 50);
  // The new prompt (from 30 on) alone is longer than the 50 recent tokens
  // that fit: cut into it.
  EXPECT_EQ(plan(100, 6, {0, 10, 30}).resume, 50);
  // keep_first 0: only the most recent tokens.
  t = plan(100, 0, {});
  EXPECT_EQ(t.keep_first, 0);
  EXPECT_EQ(t.resume, 100 - 56);
}

TEST(PlanContextTrim, AKeepCountOrMarginTooLargeIsAnError) {
  // 55 + 8 + 1 = 64 fits (one recent token); 56 does not.
  EXPECT_TRUE(plan_context_trim(100, 64, 55, 8, {}).ok());
  Result<ContextTrim> t = plan_context_trim(100, 64, 56, 8, {});
  EXPECT_EQ(t.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message())
                .find("keep_first_tokens 56 is too large for the context: with 8 positions "
                      "left for the answer (context_margin) and one recent token, it needs 65 "
                      "of the 64 positions; keep at most 55 first"),
            std::string::npos)
      << last_error_message();
  // Checked whether or not a trim is needed.
  EXPECT_EQ(plan_context_trim(2, 64, 56, 8, {}).error(), Error::InvalidArgument);
  EXPECT_EQ(plan_context_trim(100, 64, 4, 0, {}).error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("context_margin 0"), std::string::npos);
  EXPECT_EQ(plan_context_trim(100, 64, -2, 8, {}).error(), Error::InvalidArgument);
}

TEST(PlanContextTrim, TheDefaultMarginIsAQuarterOrMaxNewTokens) {
  GenerationConfig c;
  EXPECT_EQ(c.resolve_context_margin(64), 16);
  c.max_new_tokens = 8;
  EXPECT_EQ(c.resolve_context_margin(64), 8);
  c.max_new_tokens = 100;
  EXPECT_EQ(c.resolve_context_margin(64), 16);
  EXPECT_EQ(c.resolve_context_margin(2), 1);
  c.context_margin = 30;
  EXPECT_EQ(c.resolve_context_margin(64), 30);
}

// --- Chats on the programs ---

// generate_tokens(), the fresh runner's entry: the ids as they are, checked.
TEST(GenerateTokens, TakesTheIdsAsTheyAreAndChecksThem) {
  std::unique_ptr<TextLlmRunner> r = make_runner("tiny_llama_legacy.pte");
  ASSERT_NE(r, nullptr);
  GenerationConfig c = chat_config(0.0f);
  Result<std::vector<uint64_t>> ids = r->encode(kSystem, c);
  ASSERT_TRUE(ids.ok());
  c.num_bos = 3;  // not applied
  ASSERT_EQ(r->generate_tokens(*ids, c), Error::Ok) << last_error_message();
  EXPECT_EQ(r->last_prompt_ids(), *ids);
  c.num_bos = 1;
  std::unique_ptr<TextLlmRunner> text = make_runner("tiny_llama_legacy.pte");
  ASSERT_NE(text, nullptr);
  ASSERT_EQ(text->generate(kSystem, c), Error::Ok) << last_error_message();
  EXPECT_EQ(r->last_generated_ids(), text->last_generated_ids());
  EXPECT_EQ(r->generate_tokens({}, c), Error::InvalidArgument);
  EXPECT_EQ(r->generate_tokens({1, 512}, c), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("prompt token 1 is id 512, outside the "
                                                    "vocabulary of 512"),
            std::string::npos)
      << last_error_message();
}

class ContextOverflow : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!std::ifstream(kDir + GetParam())) GTEST_SKIP() << kDir + GetParam() << " is not here";
  }
};

// Without the option: the error of before, at the turn that does not fit,
// with the conversation as it was.
TEST_P(ContextOverflow, WithoutTheOptionAPromptThatDoesNotFitIsAnError) {
  std::unique_ptr<TextLlmRunner> r = make_runner(GetParam());
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->metadata().max_context_len, 64);
  GenerationConfig c = chat_config(0.0f);
  ASSERT_EQ(r->generate(kSystem, c), Error::Ok) << last_error_message();
  c.num_bos = 0;
  bool overflowed = false;
  for (const char* turn : kTurns) {
    const std::vector<uint64_t> before = r->cached_ids();
    const Error err = r->generate(turn, c);
    if (err == Error::Ok) continue;
    EXPECT_EQ(err, Error::InvalidArgument);
    EXPECT_NE(std::string(last_error_message()).find("does not fit"), std::string::npos)
        << last_error_message();
    EXPECT_EQ(r->cached_ids(), before);
    overflowed = true;
    break;
  }
  EXPECT_TRUE(overflowed) << "the chat never outgrew the context";
}

// With it: the chat goes on through several trims; each keeps the system
// prompt and whole recent turns, and the turn generates what a fresh runner
// given exactly the kept tokens generates (greedy and sampled).
TEST_P(ContextOverflow, TrimmedTurnsGenerateWhatAFreshRunnerDoesOnTheKeptTokens) {
  for (float temperature : {0.0f, 0.8f}) {
    SCOPED_TRACE(temperature);
    std::unique_ptr<TextLlmRunner> r = make_runner(GetParam());
    ASSERT_NE(r, nullptr);
    GenerationConfig c = chat_config(temperature);
    Result<std::vector<uint64_t>> system = r->encode(kSystem, c);
    ASSERT_TRUE(system.ok());
    const int64_t keep = int64_t(system->size());
    c.keep_first_tokens = int32_t(keep);
    std::vector<int64_t> starts;  // where each turn began in the cache
    int trims = 0;
    for (size_t k = 0; k <= std::size(kTurns); ++k) {
      SCOPED_TRACE(k);
      const char* turn = k == 0 ? kSystem : kTurns[k - 1];
      c.num_bos = k == 0 ? 1 : 0;
      const std::vector<uint64_t> before = r->cached_ids();
      Result<std::vector<uint64_t>> prompt = r->encode(turn, c);
      ASSERT_TRUE(prompt.ok());
      starts.push_back(int64_t(before.size()));
      ASSERT_EQ(r->generate(turn, c), Error::Ok) << last_error_message();
      const int64_t dropped = r->stats().num_dropped_context_tokens;
      if (dropped == 0) {
        EXPECT_EQ(r->last_prompt_ids(), *prompt);
        continue;
      }
      ++trims;
      // The kept tokens: the first `keep`, whole turns from `resume` on
      // (before the new prompt, which is kept whole), the new prompt.
      const int64_t resume = keep + dropped;
      EXPECT_NE(std::find(starts.begin(), starts.end(), resume), starts.end())
          << "the kept tokens start at " << resume << ", not at a turn";
      const std::vector<uint64_t>& kept = r->last_prompt_ids();
      EXPECT_EQ(kept, concat(concat(slice(before, 0, keep),
                                    slice(before, resume, int64_t(before.size()))),
                             *prompt));
      EXPECT_EQ(slice(r->cached_ids(), 0, keep), *system);
      EXPECT_EQ(r->stats().num_prompt_tokens, int64_t(kept.size()));
      EXPECT_LE(int64_t(kept.size()) + 8, r->metadata().max_context_len);
      EXPECT_EQ(r->last_generated_ids().size(), 8u);
      EXPECT_EQ(r->last_generated_ids(), fresh_run(GetParam(), kept, c));
      // Where the turns are now.
      std::vector<int64_t> moved;
      for (int64_t s : starts) {
        if (s < keep) moved.push_back(s);
        if (s >= resume) moved.push_back(keep + s - resume);
      }
      starts = moved;
    }
    EXPECT_GE(trims, 2) << "the chat should outgrow the context more than once";
  }
}

// A keep count too large for the context: a clear error, whether or not the
// turn needs a trim, with the conversation as it was; the largest that
// fits works.
TEST_P(ContextOverflow, AKeepCountTooLargeForTheContextIsAClearError) {
  std::unique_ptr<TextLlmRunner> r = make_runner(GetParam());
  ASSERT_NE(r, nullptr);
  GenerationConfig c = chat_config(0.0f);
  ASSERT_EQ(r->generate(kSystem, c), Error::Ok) << last_error_message();
  const std::vector<uint64_t> before = r->cached_ids();
  c.num_bos = 0;
  c.keep_first_tokens = 64;
  EXPECT_EQ(r->generate(kTurns[0], c), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message())
                .find("keep_first_tokens 64 is too large for the context"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(r->cached_ids(), before);
  c.keep_first_tokens = 56;  // with the margin of 8 and one recent token: 65 of 64
  EXPECT_EQ(r->generate(kTurns[0], c), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("keep at most 55 first"), std::string::npos)
      << last_error_message();
  c.context_margin = 20;
  c.keep_first_tokens = 44;
  EXPECT_EQ(r->generate(kTurns[0], c), Error::InvalidArgument);
  EXPECT_EQ(r->cached_ids(), before);
  // The largest keep count: the chat runs into the context and is trimmed
  // to the conversation's first 43 tokens (the new prompt's first ones among
  // them when the cache holds fewer), its last one (the new prompt's) and
  // room for the 8 new.
  c.keep_first_tokens = 43;
  for (const char* turn : kTurns) {
    Result<std::vector<uint64_t>> prompt = r->encode(turn, c);
    ASSERT_TRUE(prompt.ok());
    const std::vector<uint64_t> all = concat(r->cached_ids(), *prompt);
    ASSERT_EQ(r->generate(turn, c), Error::Ok) << last_error_message();
    if (r->stats().num_dropped_context_tokens > 0) {
      EXPECT_EQ(r->last_prompt_ids(), concat(slice(all, 0, 43), {all.back()}));
      EXPECT_EQ(r->stats().num_dropped_context_tokens, int64_t(all.size()) - 44);
      return;
    }
  }
  ADD_FAILURE() << "no trim";
}

// One prompt longer than the context (ember_llm's case), from position 0:
// its first N tokens and its last ones; a prompt cache saved after it is
// restored for the same prompt and serves all of the kept tokens.
TEST_P(ContextOverflow, AnOverlongPromptKeepsItsFirstAndLastTokens) {
  std::string text = kSystem;
  for (const char* turn : kTurns) text += std::string(" ") + turn;
  std::unique_ptr<TextLlmRunner> r = make_runner(GetParam());
  ASSERT_NE(r, nullptr);
  GenerationConfig c = chat_config(0.0f);
  Result<std::vector<uint64_t>> all = r->encode(text, c);
  ASSERT_TRUE(all.ok());
  ASSERT_GT(all->size(), 64u);
  EXPECT_EQ(r->generate_from_cache(text, c), Error::InvalidArgument);
  c.keep_first_tokens = 5;
  const std::string path = ::testing::TempDir() + "context_overflow_" +
                           std::string(GetParam()).substr(std::string(GetParam()).rfind('/') + 1) +
                           ".session";
  Error saved = Error::Internal;
  ASSERT_EQ(r->generate_from_cache(text, c, {}, {}, [&] { saved = r->save_session(path); }),
            Error::Ok)
      << last_error_message();
  const std::vector<uint64_t> expected_kept =
      concat(slice(*all, 0, 5), slice(*all, int64_t(all->size()) - (64 - 8 - 5),
                                      int64_t(all->size())));
  EXPECT_EQ(r->last_prompt_ids(), expected_kept);
  EXPECT_EQ(r->stats().num_dropped_context_tokens, int64_t(all->size() - expected_kept.size()));
  const std::vector<uint64_t> generated = r->last_generated_ids();
  EXPECT_EQ(generated, fresh_run(GetParam(), expected_kept, c));
  ASSERT_EQ(saved, Error::Ok) << last_error_message();

  std::unique_ptr<TextLlmRunner> second = make_runner(GetParam());
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(second->restore_session_for(path, text, c), Error::Ok) << last_error_message();
  ASSERT_EQ(second->generate_from_cache(text, c), Error::Ok) << last_error_message();
  EXPECT_EQ(second->stats().num_cached_prompt_tokens, int64_t(expected_kept.size()));
  EXPECT_EQ(second->last_generated_ids(), generated);
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Programs, ContextOverflow,
    ::testing::Values("tiny_llama_legacy.pte", "tiny_llama_config.pte",
                      // State not indexed by position: a trim must put it
                      // back as loaded, or the re-prefill starts from the
                      // dropped turns' state.
                      "../llm_families/lfm2_350m.pte", "../llm_families/qwen3_5_0_8b.pte"),
    [](const ::testing::TestParamInfo<const char*>& info) {
      const std::string file = info.param;
      const size_t slash = file.rfind('/');
      std::string name = file.substr(slash == std::string::npos ? 0 : slash + 1);
      name = name.substr(0, name.find('.'));
      return name;
    });

}  // namespace
}  // namespace ember::llm
