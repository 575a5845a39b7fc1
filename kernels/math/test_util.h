// Shared by the kernels/math tests: the ISA paths this CPU runs, the
// thread counts each kernel is checked at, and seeded random data.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "kernels/math/isa.h"
#include "runtime/platform/threadpool.h"

namespace ember::math::testing {

inline std::vector<Isa> supported_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::kBaseline, Isa::kAvx2, Isa::kAvx512, Isa::kNeon}) {
    if (isa_supported(isa)) out.push_back(isa);
  }
  return out;
}

inline const std::vector<size_t>& thread_counts() {
  static const std::vector<size_t> counts = {1, 2, 3};
  return counts;
}

// Sets the shared pool's size for one scope, back to 1 after.
class Threads {
 public:
  explicit Threads(size_t n) { (void)set_num_threads(n); }
  ~Threads() { (void)set_num_threads(1); }
};

inline std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -1.0f,
                                        float hi = 1.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(gen);
  return v;
}

}  // namespace ember::math::testing
