// TextLlmRunner's sessions (prompt_cache.cpp, session_state.cpp) on the two
// tiny Llamas of test/models/llm (export_llama with dynamic shape: prefill
// in chunks of 31; export_llm --config: token by token): a run from a
// restored cache generates exactly the tokens of a run without one and
// prefills only the new suffix (counted in forward calls); save, reset(),
// restore, continue; a session from a new runner; and every kind of bad
// file or prompt refused with its error, the runner unchanged and working.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "extension/llm/runner/session_state.h"
#include "extension/llm/runner/text_llm_runner.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kDir = std::string(EMBER_TOKENIZER_FIXTURES) + "/../llm/";

// A long prompt (40 tokens, past the 31 one call takes) and a longer one
// that starts with it; a short one that starts differently.
const std::string kBase =
    "The quick brown fox jumps over the lazy dog and the little fox met a bear near the river "
    "in the morning, and they liked to run and to play.";
const std::string kLonger = kBase + " The bear said hello";
const std::string kOther = "Once upon a time";

struct Program {
  const char* file;         // in test/models/llm
  int64_t tokens_per_call;  // prefill: what one forward call takes
};

void PrintTo(const Program& p, std::ostream* os) { *os << p.file; }

const Program kLegacy{"tiny_llama_legacy.pte", 31};
const Program kConfig{"tiny_llama_config.pte", 1};

// Counts the forward calls of the method it is attached to.
class CallCounter final : public EventTracer {
 public:
  int64_t calls = 0;
  void create_event_block(const char* name) override {
    if (std::string(name) == "Execute") ++calls;
  }
  EventTracerEntry start_profiling(const char*, int32_t, int32_t) override { return {}; }
  void end_profiling(const EventTracerEntry&) override {}
  EventTracerEntry start_profiling_delegate(const char*, int32_t) override { return {}; }
  void end_profiling_delegate(const EventTracerEntry&, Span<const uint8_t>) override {}
  void log_profiling_delegate(const char*, int32_t, uint64_t, uint64_t,
                              Span<const uint8_t>) override {}
  void log_value(const EValue&, LoggedValueKind) override {}
  void log_delegate_output(const char*, int32_t, const Tensor&) override {}
};

std::unique_ptr<TextLlmRunner> make_runner(const Program& p, EventTracer* tracer = nullptr) {
  auto tokenizer = load_tokenizer(kDir + "tiny_llm_tokenizer.model");
  EXPECT_TRUE(tokenizer.ok()) << last_error_message();
  if (!tokenizer.ok()) return nullptr;
  auto runner = TextLlmRunner::create(kDir + p.file, {}, std::move(*tokenizer));
  EXPECT_TRUE(runner.ok()) << last_error_message();
  if (!runner.ok()) return nullptr;
  if (tracer != nullptr) EXPECT_EQ((*runner)->set_event_tracer(tracer), Error::Ok);
  return std::move(*runner);
}

GenerationConfig config(int32_t max_new, float temperature = 0.0f) {
  GenerationConfig c;
  c.echo = false;
  c.temperature = temperature;
  c.seed = 42;
  c.num_bos = 1;
  c.max_new_tokens = max_new;
  return c;
}

// A file of this test's own in the test's temporary directory.
std::string temp_path(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string file = std::string("prompt_cache_") + test->name() + "_" + name;
  for (char& c : file) {
    if (c == '/') c = '_';
  }
  return ::testing::TempDir() + file;
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The generated ids of `prompt` on a fresh runner, no cache.
std::vector<uint64_t> fresh_run(const Program& p, const std::string& prompt,
                                const GenerationConfig& c) {
  std::unique_ptr<TextLlmRunner> r = make_runner(p);
  if (r == nullptr) return {};
  EXPECT_EQ(r->generate(prompt, c), Error::Ok) << last_error_message();
  return r->last_generated_ids();
}

// Runs `prompt` through generate_from_cache() and saves the state after it
// to `path`, as ember_llm --prompt_cache does.
void run_and_save(TextLlmRunner& r, const std::string& prompt, const GenerationConfig& c,
                  const std::string& path) {
  Error saved = Error::Internal;
  ASSERT_EQ(r.generate_from_cache(prompt, c, {}, {}, [&] { saved = r.save_session(path); }),
            Error::Ok)
      << last_error_message();
  ASSERT_EQ(saved, Error::Ok) << last_error_message();
}

class PromptCache : public ::testing::TestWithParam<Program> {};

TEST_P(PromptCache, StateBuffersAreTheKvCaches) {
  std::unique_ptr<TextLlmRunner> r = make_runner(GetParam());
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->load(), Error::Ok);
  // module() is the runner's read-only view; with the method loaded,
  // method() only looks it up.
  Result<Method*> method = const_cast<Module&>(r->module()).method("forward");
  ASSERT_TRUE(method.ok());
  Result<std::vector<StateBuffer>> state =
      find_state_buffers(const_cast<Module&>(r->module()).program(), **method);
  ASSERT_TRUE(state.ok()) << last_error_message();
  // Two layers, a K and a V cache each: [1, 64 positions, 2 heads, 16] fp32.
  ASSERT_EQ(state->size(), 4u);
  for (const StateBuffer& b : *state) {
    EXPECT_EQ(b.info.dtype, ScalarType::Float);
    EXPECT_EQ(b.info.nbytes, 64u * 2 * 16 * 4);
    EXPECT_GE(b.info.value_index, 5u);
    EXPECT_LE(b.info.value_index, 8u);
  }
}

// (1) The same tokens with the cache as without, greedy and sampled, for a
// prompt that extends the cached one and for the cached prompt itself.
TEST_P(PromptCache, RestoredRunGeneratesTheSameTokens) {
  const Program p = GetParam();
  for (float temperature : {0.0f, 0.8f}) {
    const GenerationConfig c = config(8, temperature);
    const std::string path = temp_path("same");
    std::remove(path.c_str());
    {
      std::unique_ptr<TextLlmRunner> first = make_runner(p);
      ASSERT_NE(first, nullptr);
      run_and_save(*first, kBase, c, path);
      EXPECT_EQ(first->last_generated_ids(), fresh_run(p, kBase, c));
    }
    for (const std::string& prompt : {kLonger, kBase}) {
      std::unique_ptr<TextLlmRunner> second = make_runner(p);
      ASSERT_NE(second, nullptr);
      ASSERT_EQ(second->restore_session(path), Error::Ok) << last_error_message();
      ASSERT_EQ(second->generate_from_cache(prompt, c), Error::Ok) << last_error_message();
      const std::vector<uint64_t> expected = fresh_run(p, prompt, c);
      ASSERT_EQ(expected.size(), 8u);
      EXPECT_EQ(second->last_generated_ids(), expected)
          << "temperature " << temperature << ", prompt " << prompt.size() << " bytes";
    }
  }
}

// (2) The second run prefills only the suffix: stats, position, and the
// forward calls (chunks of 31, or one per token).
TEST_P(PromptCache, SecondRunPrefillsOnlyTheSuffix) {
  const Program p = GetParam();
  const GenerationConfig c = config(1);  // the prefill's token only: no decode call
  const std::string path = temp_path("suffix");
  CallCounter uncached;
  std::unique_ptr<TextLlmRunner> first = make_runner(p, &uncached);
  ASSERT_NE(first, nullptr);
  run_and_save(*first, kBase, c, path);
  const int64_t n_base = int64_t(first->last_prompt_ids().size());
  ASSERT_GT(n_base, 31);
  auto calls = [&](int64_t tokens) {
    return (tokens + p.tokens_per_call - 1) / p.tokens_per_call;
  };
  EXPECT_EQ(uncached.calls, calls(n_base));
  EXPECT_EQ(first->stats().num_cached_prompt_tokens, 0);

  CallCounter cached;
  std::unique_ptr<TextLlmRunner> second = make_runner(p, &cached);
  ASSERT_NE(second, nullptr);
  ASSERT_EQ(second->restore_session_for(path, kLonger, c), Error::Ok) << last_error_message();
  EXPECT_EQ(second->position(), n_base);
  EXPECT_EQ(second->cached_ids(), first->last_prompt_ids());
  ASSERT_EQ(second->generate_from_cache(kLonger, c), Error::Ok) << last_error_message();
  const int64_t n_longer = int64_t(second->last_prompt_ids().size());
  ASSERT_GT(n_longer, n_base);
  EXPECT_EQ(cached.calls, calls(n_longer - n_base));
  EXPECT_EQ(second->stats().num_prompt_tokens, n_longer);
  EXPECT_EQ(second->stats().num_cached_prompt_tokens, n_base);
  EXPECT_EQ(second->position(), n_longer);
  EXPECT_EQ(second->cached_ids(), second->last_prompt_ids());
  EXPECT_NE(stats_report(second->stats()).find("Prompt tokens from the cache:\t40 of"),
            std::string::npos)
      << stats_report(second->stats());

  // The cached prompt again: no forward call at all, the session's logits
  // give the first token.
  CallCounter again;
  std::unique_ptr<TextLlmRunner> third = make_runner(p, &again);
  ASSERT_NE(third, nullptr);
  ASSERT_EQ(third->restore_session(path), Error::Ok);
  ASSERT_EQ(third->generate_from_cache(kBase, c), Error::Ok) << last_error_message();
  EXPECT_EQ(again.calls, 0);
  EXPECT_EQ(third->stats().num_cached_prompt_tokens, n_base);
  EXPECT_EQ(third->last_generated_ids(), first->last_generated_ids());
}

// (3) Save mid-conversation, go on, reset(), restore, go on again: the same
// tokens; and a session saved with fewer tokens than the position.
TEST_P(PromptCache, SaveResetRestoreContinue) {
  const Program p = GetParam();
  const GenerationConfig c = config(5);
  const std::string path = temp_path("turn");
  std::unique_ptr<TextLlmRunner> r = make_runner(p);
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->generate("day the fox", c), Error::Ok) << last_error_message();
  const int64_t saved_at = r->position();
  const std::vector<uint64_t> saved_ids = r->cached_ids();
  ASSERT_EQ(r->save_session(path), Error::Ok) << last_error_message();
  ASSERT_EQ(r->generate(" there was a little", c), Error::Ok) << last_error_message();
  const std::vector<uint64_t> turn2 = r->last_generated_ids();

  r->reset();
  EXPECT_EQ(r->position(), 0);
  ASSERT_EQ(r->restore_session(path), Error::Ok) << last_error_message();
  EXPECT_EQ(r->position(), saved_at);
  EXPECT_EQ(r->cached_ids(), saved_ids);
  ASSERT_EQ(r->generate(" there was a little", c), Error::Ok) << last_error_message();
  EXPECT_EQ(r->last_generated_ids(), turn2);

  // Restoring in the middle of another conversation replaces it.
  ASSERT_EQ(r->restore_session(path), Error::Ok) << last_error_message();
  ASSERT_EQ(r->generate(" there was a little", c), Error::Ok) << last_error_message();
  EXPECT_EQ(r->last_generated_ids(), turn2);

  // Another runner of the same program goes on from the saved session.
  std::unique_ptr<TextLlmRunner> other = make_runner(p);
  ASSERT_NE(other, nullptr);
  ASSERT_EQ(other->restore_session(path), Error::Ok) << last_error_message();
  EXPECT_EQ(other->cached_ids(), saved_ids);
  ASSERT_EQ(other->generate(" there was a little", c), Error::Ok) << last_error_message();
  EXPECT_EQ(other->last_generated_ids(), turn2);
}

// The runner after a refused restore: its conversation is as it was, and
// its next turn gives the tokens it would have given.
void expect_unchanged(TextLlmRunner& r, const std::vector<uint64_t>& ids,
                      const std::vector<uint64_t>& next_turn) {
  EXPECT_EQ(r.cached_ids(), ids);
  ASSERT_EQ(r.generate(" there was a little", config(5)), Error::Ok) << last_error_message();
  EXPECT_EQ(r.last_generated_ids(), next_turn);
}

// (4) Bad files and prompts: refused with the error that says why, nothing
// overwritten, the runner still working.
TEST_P(PromptCache, BadFilesAreRefusedAndChangeNothing) {
  const Program p = GetParam();
  const Program other_program = std::string(p.file) == kLegacy.file ? kConfig : kLegacy;
  const std::string good = temp_path("good"), bad = temp_path("bad");
  std::vector<uint64_t> ids, next_turn;
  {
    std::unique_ptr<TextLlmRunner> r = make_runner(p);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->generate(kOther, config(5)), Error::Ok);
    ASSERT_EQ(r->save_session(good), Error::Ok) << last_error_message();
    ids = r->cached_ids();
    ASSERT_EQ(r->generate(" there was a little", config(5)), Error::Ok);
    next_turn = r->last_generated_ids();
  }
  const std::vector<uint8_t> bytes = read_bytes(good);
  ASSERT_GT(bytes.size(), 4u * 8192);

  struct Case {
    std::string what;
    std::vector<uint8_t> file;
    Error code;
    std::string words;
  };
  std::vector<uint8_t> flipped = bytes;
  flipped[bytes.size() - 100] ^= 0x40;  // in the last cache's bytes
  std::vector<uint8_t> version = bytes;
  version[8] = 7;
  std::vector<Case> cases = {
      {"empty", {}, Error::InvalidArgument, "the file is 0 bytes"},
      {"cut in the header", {bytes.begin(), bytes.begin() + 40}, Error::InvalidArgument,
       "shorter than the 64-byte session header"},
      {"cut in the caches", {bytes.begin(), bytes.end() - 1000}, Error::InvalidArgument,
       "cut short or extended"},
      {"a flipped bit", flipped, Error::InvalidArgument, "the file was changed or damaged"},
      {"another version", version, Error::NotSupported, "session format version 7"},
      {"a tokenizer file", read_bytes(kDir + "tiny_llm_tokenizer.model"),
       Error::InvalidArgument, "not a session file"},
  };
  {
    std::unique_ptr<TextLlmRunner> o = make_runner(other_program);
    ASSERT_NE(o, nullptr);
    ASSERT_EQ(o->generate(kOther, config(5)), Error::Ok);
    ASSERT_EQ(o->save_session(bad), Error::Ok) << last_error_message();
    cases.push_back({"the other program's session", read_bytes(bad), Error::InvalidArgument,
                     "the session was saved for another program or method"});
  }
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    std::unique_ptr<TextLlmRunner> r = make_runner(p);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->restore_session(good), Error::Ok) << last_error_message();
    write_bytes(bad, k.file);
    EXPECT_EQ(r->restore_session(bad), k.code);
    const std::string message = last_error_message();
    EXPECT_NE(message.find("session file " + bad + ": "), std::string::npos) << message;
    EXPECT_NE(message.find(k.words), std::string::npos) << message;
    expect_unchanged(*r, ids, next_turn);
  }

  // Not read at all: no file, a directory, a file larger than any session
  // of the program (the program itself).
  std::unique_ptr<TextLlmRunner> r = make_runner(p);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->restore_session(temp_path("missing")), Error::AccessFailed);
  EXPECT_NE(std::string(last_error_message()).find("cannot open"), std::string::npos);
  EXPECT_EQ(r->restore_session(kDir), Error::AccessFailed);
  EXPECT_NE(std::string(last_error_message()).find("not a regular file"), std::string::npos);
  EXPECT_EQ(r->restore_session(kDir + p.file), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("a session of this program takes at most"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(r->position(), 0);
}

TEST_P(PromptCache, PromptThatDoesNotStartWithTheCacheIsRefused) {
  const Program p = GetParam();
  const std::string path = temp_path("prefix");
  const GenerationConfig c = config(5);
  std::vector<uint64_t> ids, next_turn;
  {
    std::unique_ptr<TextLlmRunner> r = make_runner(p);
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->generate(kOther, c), Error::Ok);
    ASSERT_EQ(r->save_session(path), Error::Ok);
    ids = r->cached_ids();
    ASSERT_EQ(r->generate(" there was a little", c), Error::Ok);
    next_turn = r->last_generated_ids();
  }
  std::unique_ptr<TextLlmRunner> r = make_runner(p);
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->restore_session(path), Error::Ok);
  // Differs at token 1 (after BOS).
  EXPECT_EQ(r->generate_from_cache("The fox", c), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("do not start the prompt's 3: token 1 is id"),
            std::string::npos)
      << last_error_message();
  // A prompt shorter than what the cache holds (its prompt and the tokens
  // generated after it).
  EXPECT_EQ(r->generate_from_cache("Once", c), Error::InvalidArgument);
  expect_unchanged(*r, ids, next_turn);

  // After reset() the same prompt runs, as on a fresh runner.
  r->reset();
  ASSERT_EQ(r->generate_from_cache("The fox", c), Error::Ok) << last_error_message();
  EXPECT_EQ(r->last_generated_ids(), fresh_run(p, "The fox", c));

  // restore_session_for() refuses such a session before it changes
  // anything; the runner then runs the prompt from nothing.
  std::unique_ptr<TextLlmRunner> s = make_runner(p);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->restore_session_for(path, "The fox", c), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message())
                .find(": the session's 9 tokens do not start the prompt's 3: token 1 is id"),
            std::string::npos)
      << last_error_message();
  EXPECT_EQ(s->position(), 0);
  ASSERT_EQ(s->generate_from_cache("The fox", c), Error::Ok) << last_error_message();
  EXPECT_EQ(s->last_generated_ids(), fresh_run(p, "The fox", c));
}

// Programs whose state is not indexed by position (LFM2's convolution
// state, Qwen3.5's gated-DeltaNet recurrence, beside their KV caches): a
// session must hold exactly the state after its tokens, and nothing may be
// run twice. Fixtures of examples/export/export_llm_families.py; skipped
// where the tree does not have them.
class RecurrentState : public ::testing::TestWithParam<const char*> {};

TEST_P(RecurrentState, RestoredRunGeneratesTheSameTokens) {
  const std::string file = std::string("../llm_families/") + GetParam();
  if (!std::ifstream(kDir + file)) GTEST_SKIP() << kDir + file << " is not in this tree";
  const Program p{file.c_str(), 0};
  const GenerationConfig c = config(6);
  const std::string path = temp_path("recurrent");
  const std::string base = "The quick brown fox jumps over the lazy dog and the little fox";
  const std::string longer = base + " met a bear near the river";
  {
    std::unique_ptr<TextLlmRunner> first = make_runner(p);
    ASSERT_NE(first, nullptr);
    run_and_save(*first, base, c, path);
  }
  for (const std::string& prompt : {longer, base}) {
    std::unique_ptr<TextLlmRunner> second = make_runner(p);
    ASSERT_NE(second, nullptr);
    ASSERT_EQ(second->restore_session(path), Error::Ok) << last_error_message();
    ASSERT_EQ(second->generate_from_cache(prompt, c), Error::Ok) << last_error_message();
    EXPECT_GT(second->stats().num_cached_prompt_tokens, 0);
    EXPECT_EQ(second->last_generated_ids(), fresh_run(p, prompt, c)) << prompt;
  }
  // A session refused for another prompt leaves the state as it was (here
  // as loaded): the prompt then runs as on a fresh runner.
  std::unique_ptr<TextLlmRunner> third = make_runner(p);
  ASSERT_NE(third, nullptr);
  EXPECT_EQ(third->restore_session_for(path, kOther, c), Error::InvalidArgument);
  ASSERT_EQ(third->generate_from_cache(kOther, c), Error::Ok) << last_error_message();
  EXPECT_EQ(third->last_generated_ids(), fresh_run(p, kOther, c));
}

INSTANTIATE_TEST_SUITE_P(Families, RecurrentState,
                         ::testing::Values("lfm2_350m.pte", "qwen3_5_0_8b.pte"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param).substr(0, 4);
                         });

// The session_file fuzz target's seeds (test/models/llm/sessions) are
// sessions of the two programs, which it restores into the legacy one: the
// legacy one's must stay valid, or the fuzzer starts from refusals only.
TEST(PromptCacheSeeds, FuzzSeedsAreSessionsOfTheTinyPrograms) {
  std::unique_ptr<TextLlmRunner> r = make_runner(kLegacy);
  ASSERT_NE(r, nullptr);
  ASSERT_EQ(r->restore_session(kDir + "sessions/tiny_llama_legacy.session"), Error::Ok)
      << last_error_message();
  EXPECT_GT(r->position(), 0);
  EXPECT_EQ(r->restore_session(kDir + "sessions/tiny_llama_config.session"),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("another program"), std::string::npos);
  std::unique_ptr<TextLlmRunner> c = make_runner(kConfig);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->restore_session(kDir + "sessions/tiny_llama_config.session"), Error::Ok)
      << last_error_message();
}

INSTANTIATE_TEST_SUITE_P(TinyLlamas, PromptCache, ::testing::Values(kLegacy, kConfig),
                         [](const ::testing::TestParamInfo<Program>& info) {
                           return std::string(info.param.file) == kLegacy.file ? "legacy"
                                                                               : "config";
                         });

}  // namespace
}  // namespace ember::llm
