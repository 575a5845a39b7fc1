// norm.h against a double-precision layer norm on every ISA path, with
// row lengths around the vector widths, at 1-3 threads (same bits).
#include "kernels/math/norm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

TEST(LayerNorm, MatchesDoubleReference) {
  for (Isa isa : testing::supported_isas()) {
    for (size_t n : {1, 3, 8, 17, 384, 1000}) {
      const size_t rows = 37;
      // An offset mean: the two-pass variance must not cancel.
      const auto x = testing::random_floats(rows * n, 1, 99.0f, 101.0f);
      const auto w = testing::random_floats(n, 2), b = testing::random_floats(n, 3);
      for (bool affine : {false, true}) {
        std::vector<float> first;
        for (size_t threads : testing::thread_counts()) {
          testing::Threads pool(threads);
          std::vector<float> y(rows * n), mean(rows), rstd(rows);
          layer_norm_f32(rows, n, x.data(), affine ? w.data() : nullptr,
                         affine ? b.data() : nullptr, 1e-5f, y.data(), mean.data(),
                         rstd.data(), isa);
          for (size_t r = 0; r < rows; ++r) {
            double m = 0, v = 0;
            for (size_t i = 0; i < n; ++i) m += x[r * n + i];
            m /= double(n);
            for (size_t i = 0; i < n; ++i) v += (x[r * n + i] - m) * (x[r * n + i] - m);
            const double s = 1.0 / std::sqrt(v / double(n) + 1e-5);
            ASSERT_NEAR(mean[r], m, 1e-5 * std::fabs(m)) << isa_name(isa) << " n " << n;
            ASSERT_NEAR(rstd[r], s, 2e-4 * s) << isa_name(isa) << " n " << n;
            for (size_t i = 0; i < n; ++i) {
              double want = (x[r * n + i] - m) * s;
              if (affine) want = want * w[i] + b[i];
              ASSERT_NEAR(y[r * n + i], want, 2e-4 * (1 + std::fabs(want)))
                  << isa_name(isa) << " n " << n << " row " << r << " i " << i;
            }
          }
          if (first.empty()) first = y;
          ASSERT_EQ(0, std::memcmp(first.data(), y.data(), y.size() * sizeof(float)));
        }
      }
    }
  }
}

}  // namespace
}  // namespace ember::math
