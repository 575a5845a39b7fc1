// The next token from a row of logits: argmax at temperature 0; otherwise
// softmax(logits / temperature) sampled with a seeded xorshift generator,
// restricted to the top-p nucleus when 0 < topp < 1. The same rules as
// upstream's sampler (llama2.c's), with a seed the caller chooses so that
// a run repeats.
#pragma once

#include <cstdint>
#include <vector>

namespace ember::llm {

class Sampler {
 public:
  Sampler(int32_t vocab_size, float temperature, float topp, uint64_t seed);

  // `logits` holds vocab_size values; they are overwritten (scaled, then
  // turned into probabilities) unless the sampling is greedy.
  int32_t sample(float* logits);

  // A float in [0, 1) from the generator (24 random bits).
  float next_unit_float();

 private:
  int32_t argmax(const float* values) const;
  int32_t sample_all(const float* probs, float coin) const;
  int32_t sample_top_p(const float* probs, float coin);

  int32_t vocab_size_;
  float inv_temperature_;  // 0: greedy
  float topp_;
  uint64_t state_;
  std::vector<std::pair<float, int32_t>> candidates_;  // top-p scratch
};

}  // namespace ember::llm
