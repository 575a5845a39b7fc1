// TextLlmRunner on tiny Llamas from upstream's two export flows
// (test/models/llm, examples/export/export_tiny_llm.py): greedy tokens
// identical to upstream's TextLLMRunner for every prompt (one longer than
// max_seq_len) and a two-turn exchange; stop, reset and a full context.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "extension/llm/runner/text_llm_runner.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

const std::string kDir = std::string(EMBER_TOKENIZER_FIXTURES) + "/../llm";

nlohmann::json reference() {
  std::ifstream in(kDir + "/tiny_llama_reference.json");
  return nlohmann::json::parse(in, nullptr, false);
}

std::unique_ptr<TextLlmRunner> make_runner(const std::string& program) {
  const nlohmann::json ref = reference();
  auto tokenizer = load_tokenizer(kDir + "/" + ref["tokenizer"].get<std::string>());
  EXPECT_TRUE(tokenizer.ok()) << last_error_message();
  if (!tokenizer.ok()) return nullptr;
  auto runner = TextLlmRunner::create(kDir + "/" + program, {}, std::move(*tokenizer));
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

class TinyLlama : public ::testing::TestWithParam<std::string> {};

TEST_P(TinyLlama, GreedyTokensAreUpstreams) {
  const nlohmann::json ref = reference();
  ASSERT_FALSE(ref.is_discarded());
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  EXPECT_EQ(runner->metadata().max_seq_len, ref["max_seq_len"].get<int64_t>());
  EXPECT_EQ(runner->metadata().max_context_len, ref["max_context_len"].get<int64_t>());
  for (const auto& c : ref["programs"][GetParam()]["cases"]) {
    const std::string prompt = c["prompt"];
    SCOPED_TRACE(prompt);
    runner->reset();
    std::string text;
    ASSERT_EQ(runner->generate(prompt, greedy(c["max_new_tokens"]),
                               [&](const std::string& t) { text += t; }),
              Error::Ok)
        << last_error_message();
    EXPECT_EQ(runner->last_prompt_ids(), ids_of(c["prompt_ids"]));
    EXPECT_EQ(runner->last_generated_ids(), ids_of(c["generated_ids"]));
    EXPECT_FALSE(text.empty());
  }
}

TEST_P(TinyLlama, ATwoTurnExchangeReusesTheCache) {
  const nlohmann::json ref = reference();
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  int64_t expected_pos = 0;
  for (const auto& turn : ref["programs"][GetParam()]["conversation"]) {
    ASSERT_EQ(runner->generate(turn["prompt"], greedy(turn["max_new_tokens"])), Error::Ok)
        << last_error_message();
    EXPECT_EQ(runner->last_generated_ids(), ids_of(turn["generated_ids"]));
    // The prompt and every generated token but the last are in the cache.
    expected_pos += int64_t(runner->last_prompt_ids().size() +
                            runner->last_generated_ids().size() - 1);
    EXPECT_EQ(runner->position(), expected_pos);
  }
}

TEST_P(TinyLlama, ResetRepeatsTheFirstAnswer) {
  auto runner = make_runner(GetParam());
  ASSERT_NE(runner, nullptr);
  ASSERT_EQ(runner->generate("The fox", greedy(8)), Error::Ok);
  const std::vector<uint64_t> first = runner->last_generated_ids();
  ASSERT_EQ(runner->generate("The fox", greedy(8)), Error::Ok);  // continues the chat
  runner->reset();
  EXPECT_EQ(runner->position(), 0);
  ASSERT_EQ(runner->generate("The fox", greedy(8)), Error::Ok);
  EXPECT_EQ(runner->last_generated_ids(), first);
}

TEST_P(TinyLlama, AFullContextIsAClearError) {
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

TEST_P(TinyLlama, StopFromAnotherThreadEndsGenerationPromptly) {
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

INSTANTIATE_TEST_SUITE_P(BothExportFlows, TinyLlama,
                         ::testing::Values("tiny_llama_legacy.pte", "tiny_llama_config.pte"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param.substr(11, info.param.size() - 15);
                         });

}  // namespace
}  // namespace ember::llm
