// The generation loop's parts that need no model: the max_new_tokens rule
// (values read from upstream's GenerationConfig.resolve_max_new_tokens,
// executorch 1.5.1), the sampler, the UTF-8 stream, the stats line.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "extension/llm/runner/generation_config.h"
#include "extension/llm/runner/sampler.h"
#include "extension/llm/runner/stats.h"
#include "extension/llm/runner/utf8_stream.h"

namespace ember::llm {
namespace {

TEST(GenerationConfig, ResolvesMaxNewTokensAsUpstream) {
  struct Case {
    int32_t max_new, seq_len;
    int32_t want[4];  // at (context, occupied) = (128,7) (128,120) (30,7) (16,16)
  } cases[] = {{-1, -1, {121, 8, 23, 0}}, {10, -1, {10, 8, 10, 0}}, {-1, 20, {13, 0, 13, 0}},
               {10, 20, {10, 0, 10, 0}},  {50, 20, {13, 0, 13, 0}}, {5, 100, {5, 0, 5, 0}}};
  const int64_t at[4][2] = {{128, 7}, {128, 120}, {30, 7}, {16, 16}};
  for (const Case& c : cases) {
    GenerationConfig config;
    config.max_new_tokens = c.max_new;
    config.seq_len = c.seq_len;
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(config.resolve_max_new_tokens(at[k][0], at[k][1]), c.want[k])
          << c.max_new << " " << c.seq_len << " at " << at[k][0] << "," << at[k][1];
    }
  }
}

TEST(Sampler, GreedyTakesTheFirstLargest) {
  std::vector<float> logits = {0.5f, 3.0f, -1.0f, 3.0f, 2.0f};
  Sampler s(5, 0.0f, 0.9f, 1);
  EXPECT_EQ(s.sample(logits.data()), 1);
  EXPECT_EQ(logits[2], -1.0f);  // greedy leaves the logits alone
}

TEST(Sampler, GreedyMatchesAPlainScan) {
  // The vectorized argmax against "first index of a larger value" on rows
  // of every length from 1 to 70 (the 16-lane pass and its tail), with
  // ties, infinities and NaNs (never larger; a NaN first stays first).
  uint32_t state = 12345;
  auto next = [&]() { return (state = state * 1664525u + 1013904223u) >> 8; };
  for (int32_t n = 1; n <= 70; ++n) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<float> row(static_cast<size_t>(n));
      for (float& x : row) {
        const uint32_t r = next() % 100;
        x = r < 5 ? NAN : r < 8 ? INFINITY : r < 11 ? -INFINITY : float(next() % 7) - 3.0f;
      }
      int32_t want = 0;
      for (int32_t i = 1; i < n; ++i) {
        if (row[size_t(i)] > row[size_t(want)]) want = i;
      }
      Sampler s(n, 0.0f, 0.9f, 1);
      ASSERT_EQ(s.sample(row.data()), want) << "n " << n << " trial " << trial;
    }
  }
}

TEST(Sampler, TheSameSeedRepeatsAndAnotherDiffers) {
  const std::vector<float> base = {1.0f, 1.2f, 0.8f, 1.1f, 0.9f, 1.05f, 0.95f, 1.15f};
  auto run = [&](uint64_t seed) {
    Sampler s(8, 1.0f, 0.0f, seed);
    std::vector<int32_t> picks;
    for (int i = 0; i < 64; ++i) {
      std::vector<float> l = base;
      picks.push_back(s.sample(l.data()));
    }
    return picks;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

TEST(Sampler, FollowsTheSoftmaxDistribution) {
  // logits log(p) at temperature 1: the draw frequencies approach p.
  const std::vector<double> p = {0.5, 0.3, 0.15, 0.05};
  Sampler s(4, 1.0f, 0.0f, 7);
  std::vector<int> count(4);
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    std::vector<float> l;
    for (double q : p) l.push_back(float(std::log(q)));
    ++count[size_t(s.sample(l.data()))];
  }
  for (size_t k = 0; k < p.size(); ++k) EXPECT_NEAR(double(count[k]) / n, p[k], 0.01) << k;
}

TEST(Sampler, TopPNeverLeavesTheNucleus) {
  // p = 0.6, 0.3, 0.06, 0.04: with topp 0.8 the nucleus is {0, 1}.
  const std::vector<double> p = {0.6, 0.3, 0.06, 0.04};
  Sampler s(4, 1.0f, 0.8f, 11);
  int inside = 0, first = 0;
  for (int i = 0; i < 5000; ++i) {
    std::vector<float> l;
    for (double q : p) l.push_back(float(std::log(q)));
    const int32_t t = s.sample(l.data());
    ASSERT_TRUE(t == 0 || t == 1) << t;
    inside += 1;
    first += t == 0;
  }
  EXPECT_NEAR(double(first) / inside, 0.6 / 0.9, 0.03);
}

TEST(Utf8Stream, HoldsASplitCharacterUntilItIsWhole) {
  Utf8Stream s;
  const std::string euro = "\xE2\x82\xAC";  // U+20AC in three bytes
  EXPECT_EQ(s.push("a\xE2"), "a");
  EXPECT_EQ(s.push("\x82"), "");
  EXPECT_EQ(s.push("\xAC" "b"), euro + "b");
  EXPECT_EQ(s.flush(), "");
  const std::string emoji = "\xF0\x9F\x98\x80";  // U+1F600 byte by byte
  std::string out;
  for (char c : emoji) out += s.push(std::string(1, c));
  EXPECT_EQ(out, emoji);
}

TEST(Utf8Stream, ReplacesBytesThatAreNoCharacter) {
  Utf8Stream s;
  const std::string rep = "\xEF\xBF\xBD";
  EXPECT_EQ(s.push("\xFF" "x"), rep + "x");        // never a lead byte
  EXPECT_EQ(s.push("\xC3" "y"), rep + "y");        // lead without its continuation
  EXPECT_EQ(s.push("\xE0\x80"), rep + rep);        // overlong: lead, then a stray byte
  EXPECT_EQ(s.push("\xE2\x82"), "");
  EXPECT_EQ(s.flush(), rep);                      // unfinished at the end
}

TEST(Stats, JsonLineHasUpstreamsFields) {
  Stats st;
  st.num_prompt_tokens = 5;
  st.num_generated_tokens = 7;
  st.inference_start_ms = 1000;
  st.prompt_eval_end_ms = 1100;
  st.first_token_ms = 1100;
  st.inference_end_ms = 1800;
  const std::string json = stats_to_json_string(st);
  EXPECT_EQ(json.rfind("{\"prompt_tokens\":5,\"generated_tokens\":7,", 0), 0u) << json;
  EXPECT_NE(json.find("\"SCALING_FACTOR_UNITS_PER_SECOND\":1000}"), std::string::npos);
  const std::string report = stats_report(st);
  EXPECT_EQ(report.rfind("PyTorchObserver {", 0), 0u);
  EXPECT_NE(report.find("Generated 7 tokens:\t0.700000 (seconds)\t\t Rate: \t10.000000"),
            std::string::npos)
      << report;
}

}  // namespace
}  // namespace ember::llm
