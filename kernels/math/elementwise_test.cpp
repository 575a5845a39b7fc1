// elementwise.h against scalar references on every ISA path, with tails
// of every length and NaN.
#include "kernels/math/elementwise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

using testing::random_floats;
using testing::supported_isas;

TEST(Elementwise, ClampMatchesScalarAndKeepsNan) {
  for (Isa isa : supported_isas()) {
    for (size_t n : {1, 7, 16, 33, 40000}) {
      auto x = random_floats(n, 1, -10.0f, 10.0f);
      x[n / 2] = NAN;
      std::vector<float> out(n);
      for (size_t threads : testing::thread_counts()) {
        testing::Threads pool(threads);
        clamp_f32(n, x.data(), out.data(), -1.0f, 6.0f, isa);
        for (size_t i = 0; i < n; ++i) {
          if (std::isnan(x[i])) {
            ASSERT_TRUE(std::isnan(out[i]));
            continue;
          }
          ASSERT_EQ(out[i], std::min(std::max(x[i], -1.0f), 6.0f)) << isa_name(isa) << " " << i;
        }
      }
      clamp_f32(n, x.data(), x.data(), 0.0f, INFINITY, isa);  // ReLU, in place
      for (size_t i = 0; i < n; ++i) {
        if (!std::isnan(x[i])) ASSERT_GE(x[i], 0.0f);
      }
    }
  }
}

TEST(Elementwise, ScaleShiftWithinOneRounding) {
  for (Isa isa : supported_isas()) {
    for (size_t n : {1, 5, 8, 31, 1000}) {
      const auto x = random_floats(n, 2, -100.0f, 100.0f);
      std::vector<float> out(n);
      scale_shift_f32(n, x.data(), out.data(), 0.37f, -2.5f, isa);
      for (size_t i = 0; i < n; ++i) {
        const double want = double(x[i]) * 0.37f + -2.5;
        // Unfused: two roundings; fused: one. Both within 2 ulp of |x*s|+|b|.
        ASSERT_NEAR(out[i], want, 2.5e-7 * (std::fabs(x[i] * 0.37) + 2.5)) << isa_name(isa);
      }
    }
  }
}

}  // namespace
}  // namespace ember::math
