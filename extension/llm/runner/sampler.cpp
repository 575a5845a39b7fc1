#include "extension/llm/runner/sampler.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ember::llm {

Sampler::Sampler(int32_t vocab_size, float temperature, float topp, uint64_t seed)
    : vocab_size_(vocab_size),
      inv_temperature_(temperature != 0.0f ? 1.0f / temperature : 0.0f),
      topp_(topp),
      state_(seed) {
  if (state_ == 0) {  // xorshift never leaves 0
    state_ = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) | 1u;
  }
}

float Sampler::next_unit_float() {
  state_ ^= state_ >> 12;
  state_ ^= state_ << 25;
  state_ ^= state_ >> 27;
  const uint32_t bits = uint32_t((state_ * 0x2545F4914F6CDD1Dull) >> 32);
  return float(bits >> 8) / 16777216.0f;
}

// The first index of the largest value; NaNs are never larger (a NaN
// first value stays the answer, as in a plain "if greater" scan). Two
// passes a compiler vectorizes: the largest value over 16 independent
// lanes, then its first index. A vocabulary row of 32k-150k logits took
// 2 % of a decoding step as one dependent scan.
int32_t Sampler::argmax(const float* values) const {
  if (vocab_size_ <= 1 || std::isnan(values[0])) return 0;
  constexpr int32_t kLanes = 16;
  float lane[kLanes];
  for (float& l : lane) l = values[0];
  int32_t i = 0;
  for (; i + kLanes <= vocab_size_; i += kLanes) {
    for (int32_t j = 0; j < kLanes; ++j) {
      lane[j] = values[i + j] > lane[j] ? values[i + j] : lane[j];
    }
  }
  float best = lane[0];
  for (int32_t j = 1; j < kLanes; ++j) best = lane[j] > best ? lane[j] : best;
  for (; i < vocab_size_; ++i) best = values[i] > best ? values[i] : best;
  for (i = 0; values[i] != best; ++i) {
  }
  return i;
}

int32_t Sampler::sample_all(const float* probs, float coin) const {
  float cdf = 0.0f;
  for (int32_t i = 0; i < vocab_size_; ++i) {
    cdf += probs[i];
    if (coin < cdf) return i;
  }
  return vocab_size_ - 1;  // rounding left the sum below coin
}

// The smallest set of most likely tokens whose probability exceeds topp
// (tokens below (1 - topp) / (n - 1) cannot be in it and are skipped),
// then a draw within it.
int32_t Sampler::sample_top_p(const float* probs, float coin) {
  const float cutoff = (1.0f - topp_) / float(vocab_size_ - 1);
  candidates_.clear();
  for (int32_t i = 0; i < vocab_size_; ++i) {
    if (probs[i] >= cutoff) candidates_.emplace_back(probs[i], i);
  }
  if (candidates_.empty()) return argmax(probs);
  std::sort(candidates_.begin(), candidates_.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  float cumulative = 0.0f;
  size_t last = candidates_.size() - 1;
  for (size_t i = 0; i < candidates_.size(); ++i) {
    cumulative += candidates_[i].first;
    if (cumulative > topp_) {
      last = i;
      break;
    }
  }
  const float r = coin * cumulative;
  float cdf = 0.0f;
  for (size_t i = 0; i <= last; ++i) {
    cdf += candidates_[i].first;
    if (r < cdf) return candidates_[i].second;
  }
  return candidates_[last].second;
}

int32_t Sampler::sample(float* logits) {
  if (inv_temperature_ == 0.0f) return argmax(logits);
  for (int32_t i = 0; i < vocab_size_; ++i) logits[i] *= inv_temperature_;
  const float max_value = *std::max_element(logits, logits + vocab_size_);
  float sum = 0.0f;
  for (int32_t i = 0; i < vocab_size_; ++i) {
    logits[i] = std::exp(logits[i] - max_value);
    sum += logits[i];
  }
  for (int32_t i = 0; i < vocab_size_; ++i) logits[i] /= sum;
  const float coin = next_unit_float();
  if (topp_ <= 0.0f || topp_ >= 1.0f) return sample_all(logits, coin);
  return sample_top_p(logits, coin);
}

}  // namespace ember::llm
