// gemv_rows_f32 (gemm.h) against a double-precision reference, on every
// ISA path this CPU runs, at 1, 2 and 3 threads (identical bits), with a
// row stride wider than the row and lengths around every vector width;
// vecmat_rows_f32 the same way, its rows a page apart as a value cache's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/math/gemm.h"
#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

using testing::random_floats;
using testing::supported_isas;
using testing::thread_counts;
using testing::Threads;

TEST(Gemv, RowsMatchReferenceOnEveryIsaAndThreadCount) {
  struct Shape {
    size_t m, k, lda;
  };
  // Rows: below, at and past the four-row group and the 64-row task;
  // lengths: 0, below and past 4, 8 and 16 lanes; a cache-like stride.
  const Shape shapes[] = {{1, 1, 1},   {3, 5, 5},    {4, 16, 16},  {5, 17, 40},
                          {7, 64, 512}, {65, 63, 64}, {200, 64, 512}, {1030, 128, 130},
                          {9, 0, 3}};
  for (const Shape& s : shapes) {
    const std::vector<float> a = random_floats(s.m * s.lda + 1, 7);
    const std::vector<float> x = random_floats(s.k + 1, 11);
    std::vector<double> want(s.m, 0.0), mag(s.m, 0.0);
    for (size_t i = 0; i < s.m; ++i) {
      for (size_t p = 0; p < s.k; ++p) {
        want[i] += double(a[i * s.lda + p]) * double(x[p]);
        mag[i] += std::fabs(double(a[i * s.lda + p]) * double(x[p]));
      }
    }
    for (Isa isa : supported_isas()) {
      std::vector<float> first;
      for (size_t threads : thread_counts()) {
        Threads pool(threads);
        std::vector<float> y(s.m, NAN);
        gemv_rows_f32(s.m, s.k, a.data(), s.lda, x.data(), y.data(), isa);
        for (size_t i = 0; i < s.m; ++i) {
          ASSERT_LE(std::fabs(double(y[i]) - want[i]), 2e-7 * double(s.k + 4) * mag[i] + 1e-30)
              << isa_name(isa) << " m " << s.m << " k " << s.k << " row " << i;
        }
        if (first.empty()) {
          first = y;
        } else {
          ASSERT_EQ(std::memcmp(first.data(), y.data(), y.size() * sizeof(float)), 0)
              << isa_name(isa) << ": " << threads << " threads changed the bits";
        }
      }
    }
  }
}

TEST(Gemv, VecmatMatchesReferenceOnEveryIsa) {
  struct Shape {
    size_t m, n, lda;
  };
  // Columns: 0, below, at and past one vector of 4, 8 and 16 lanes and the
  // eight-vector block of each (32, 64, 128), a head of 64 and of 128 in
  // a cache row of 1024; rows: 0, 1 and a long cache.
  const Shape shapes[] = {{1, 1, 1},     {3, 5, 5},      {4, 16, 16},     {5, 17, 40},
                          {7, 33, 40},   {9, 65, 70},    {520, 128, 1024}, {300, 64, 1024},
                          {2, 131, 131}, {0, 8, 8},      {6, 0, 3},        {1, 250, 256}};
  for (const Shape& s : shapes) {
    const std::vector<float> a = random_floats(s.m * s.lda + s.n + 1, 5);
    const std::vector<float> x = random_floats(s.m + 1, 13);
    std::vector<double> want(s.n, 0.0), mag(s.n, 0.0);
    for (size_t i = 0; i < s.m; ++i) {
      for (size_t j = 0; j < s.n; ++j) {
        want[j] += double(x[i]) * double(a[i * s.lda + j]);
        mag[j] += std::fabs(double(x[i]) * double(a[i * s.lda + j]));
      }
    }
    for (Isa isa : supported_isas()) {
      std::vector<float> y(s.n + 1, NAN);
      vecmat_rows_f32(s.m, s.n, x.data(), a.data(), s.lda, y.data(), isa);
      for (size_t j = 0; j < s.n; ++j) {
        ASSERT_LE(std::fabs(double(y[j]) - want[j]), 2e-7 * double(s.m + 4) * mag[j] + 1e-30)
            << isa_name(isa) << " m " << s.m << " n " << s.n << " column " << j;
      }
      EXPECT_TRUE(std::isnan(y[s.n])) << isa_name(isa) << ": wrote past column " << s.n;
      // The rows in two blocks, the second accumulated: the same bits.
      std::vector<float> y2(s.n + 1, NAN);
      const size_t half = s.m / 2;
      vecmat_rows_f32(half, s.n, x.data(), a.data(), s.lda, y2.data(), isa);
      vecmat_rows_f32(s.m - half, s.n, x.data() + half, a.data() + half * s.lda, s.lda,
                      y2.data(), isa, /*accumulate=*/true);
      ASSERT_EQ(std::memcmp(y.data(), y2.data(), s.n * sizeof(float)), 0)
          << isa_name(isa) << " m " << s.m << " n " << s.n << ": blocks changed the bits";
    }
  }
}

TEST(Gemv, NanInARowStaysInThatRow) {
  for (Isa isa : supported_isas()) {
    std::vector<float> a(6 * 20, 1.0f), x(20, 1.0f), y(6);
    a[2 * 20 + 19] = NAN;  // the tail of row 2
    a[4 * 20 + 3] = NAN;   // the vector part of row 4
    gemv_rows_f32(6, 20, a.data(), 20, x.data(), y.data(), isa);
    for (size_t i = 0; i < 6; ++i) {
      if (i == 2 || i == 4) {
        EXPECT_TRUE(std::isnan(y[i])) << isa_name(isa) << " row " << i;
      } else {
        EXPECT_EQ(y[i], 20.0f) << isa_name(isa) << " row " << i;
      }
    }
  }
}

}  // namespace
}  // namespace ember::math
