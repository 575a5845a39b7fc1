// gemm.h against a double-precision reference, on every ISA path this CPU
// runs and at 1, 2 and 3 threads (which must give identical bits).
#include "kernels/math/gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

using testing::random_floats;
using testing::supported_isas;
using testing::thread_counts;
using testing::Threads;

struct Shape {
  size_t m, n, k;
};

// Shapes around every tile and block edge: MR (4, 6, 8), NR (8, 16, 32),
// the 256-deep chunk, the 128-row block and the shallow L1 sweep.
const Shape kShapes[] = {{1, 1, 1},    {1, 37, 300},  {3, 5, 7},    {5, 16, 256},
                         {6, 17, 257}, {7, 33, 64},   {8, 64, 513}, {13, 9, 1},
                         {130, 40, 20}, {129, 70, 300}, {64, 512, 16}, {9, 100, 0},
                         // One row: groups of four panels, a partial last group.
                         {1, 512, 128}, {1, 200, 600}, {1, 100, 33}, {1, 129, 257}};

// |got - want| <= tol * (sum |a||b| + |biases|) + 1e-30, the bound of a
// float dot product of this length.
void expect_close(const std::vector<float>& got, const std::vector<double>& want,
                  const std::vector<double>& mag, size_t k, const char* what) {
  const double tol = 2e-7 * double(k + 4);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_LE(std::fabs(double(got[i]) - want[i]), tol * mag[i] + 1e-30)
        << what << " element " << i << ": " << got[i] << " vs " << want[i];
  }
}

// c = a x b (+ biases, clamped), in double, with each element's
// magnitude sum for the tolerance.
void reference(const Shape& s, const std::vector<float>& a, const std::vector<float>& b,
               const GemmEpilogue* ep, std::vector<double>* c, std::vector<double>* mag) {
  c->assign(s.m * s.n, 0.0);
  mag->assign(s.m * s.n, 0.0);
  for (size_t i = 0; i < s.m; ++i) {
    for (size_t j = 0; j < s.n; ++j) {
      double sum = 0, m = 0;
      for (size_t p = 0; p < s.k; ++p) {
        sum += double(a[i * s.k + p]) * b[p * s.n + j];
        m += std::fabs(double(a[i * s.k + p]) * b[p * s.n + j]);
      }
      if (ep) {
        if (ep->col_bias) sum += ep->col_bias[j], m += std::fabs(ep->col_bias[j]);
        if (ep->row_bias) sum += ep->row_bias[i], m += std::fabs(ep->row_bias[i]);
        if (ep->row_scale) {
          sum = sum * ep->row_scale[i] + ep->row_shift[i];
          m = m * std::fabs(ep->row_scale[i]) + std::fabs(ep->row_shift[i]);
        }
        if (ep->col_scale) {
          sum = sum * ep->col_scale[j] + ep->col_shift[j];
          m = m * std::fabs(ep->col_scale[j]) + std::fabs(ep->col_shift[j]);
        }
        sum = std::min(std::max(sum, double(ep->lo)), double(ep->hi));
      }
      (*c)[i * s.n + j] = sum;
      (*mag)[i * s.n + j] = m;
    }
  }
}

TEST(Gemm, PackedMatchesReferenceOnEveryIsaAndThreadCount) {
  for (Isa isa : supported_isas()) {
    for (const Shape& s : kShapes) {
      const auto a = random_floats(s.m * s.k, 1);
      const auto b = random_floats(s.k * s.n, 2);
      std::vector<float> bt(s.n * s.k);
      for (size_t p = 0; p < s.k; ++p) {
        for (size_t j = 0; j < s.n; ++j) bt[j * s.k + p] = b[p * s.n + j];
      }
      std::vector<float> col_bias = random_floats(gemm_packed_b_floats(1, s.n, isa), 3);
      std::vector<float> row_bias = random_floats(s.m, 4);
      std::vector<float> row_scale = random_floats(s.m, 12), row_shift = random_floats(s.m, 13);
      const size_t padded_n = gemm_packed_b_floats(1, s.n, isa);
      std::vector<float> col_scale = random_floats(padded_n, 14), col_shift = random_floats(padded_n, 15);
      // A given transposed (gemm_f32_packed_at): k rows of m.
      std::vector<float> at(s.m * s.k);
      for (size_t i = 0; i < s.m; ++i) {
        for (size_t p = 0; p < s.k; ++p) at[p * s.m + i] = a[i * s.k + p];
      }
      for (int variant = 0; variant < 5; ++variant) {
        GemmEpilogue ep;
        const GemmEpilogue* epp = nullptr;
        if (variant == 1) ep.col_bias = col_bias.data(), epp = &ep;
        if (variant == 2) ep.row_bias = row_bias.data(), ep.lo = -0.5f, ep.hi = 0.75f, epp = &ep;
        if (variant == 3) {
          ep.row_bias = row_bias.data(), ep.row_scale = row_scale.data();
          ep.row_shift = row_shift.data(), ep.hi = 0.5f, epp = &ep;
        }
        if (variant == 4) {
          ep.col_bias = col_bias.data(), ep.col_scale = col_scale.data();
          ep.col_shift = col_shift.data(), ep.lo = -0.25f, epp = &ep;
        }
        std::vector<double> want, mag;
        reference(s, a, b, epp, &want, &mag);
        std::vector<float> first;
        for (size_t threads : thread_counts()) {
          Threads pool(threads);
          for (bool transposed : {false, true}) {
            std::vector<float> packed(gemm_packed_b_floats(s.k, s.n, isa) + 1);
            if (transposed) {
              pack_gemm_bt(s.k, s.n, bt.data(), s.k, packed.data(), isa);
            } else {
              pack_gemm_b(s.k, s.n, b.data(), s.n, packed.data(), isa);
            }
            std::vector<float> c(s.m * s.n, NAN);
            gemm_f32_packed_parallel(s.m, s.n, s.k, a.data(), s.k, packed.data(), c.data(), s.n,
                                     isa, epp);
            SCOPED_TRACE(::testing::Message() << isa_name(isa) << " " << s.m << "x" << s.n
                                              << "x" << s.k << " variant " << variant
                                              << " threads " << threads);
            expect_close(c, want, mag, s.k, "packed");
            if (first.empty()) first = c;
            ASSERT_EQ(0, std::memcmp(first.data(), c.data(), c.size() * sizeof(float)))
                << "bits differ between thread counts or packings";
          }
          if (threads == 1) {
            // A read transposed: the same sums in the same order.
            std::vector<float> packed(gemm_packed_b_floats(s.k, s.n, isa) + 1);
            pack_gemm_b(s.k, s.n, b.data(), s.n, packed.data(), isa);
            std::vector<float> c(s.m * s.n, NAN);
            gemm_f32_packed_at(s.m, s.n, s.k, at.data(), s.m, packed.data(), s.n, 0, c.data(),
                               s.n, isa, epp);
            SCOPED_TRACE(::testing::Message() << isa_name(isa) << " " << s.m << "x" << s.n
                                              << "x" << s.k << " variant " << variant << " at");
            expect_close(c, want, mag, s.k, "packed_at");
            ASSERT_EQ(0, std::memcmp(first.data(), c.data(), c.size() * sizeof(float)))
                << "A read transposed gives other bits";
          }
        }
      }
    }
  }
}

// A one-row product (its own path, several panels at once) gives the bits
// of the same row inside a taller product.
TEST(Gemm, OneRowGivesTheBitsOfARowOfATallerProduct) {
  for (Isa isa : supported_isas()) {
    for (const Shape& s : {Shape{1, 512, 128}, Shape{1, 200, 600}, Shape{1, 100, 33},
                           Shape{1, 37, 300}, Shape{1, 1, 1}}) {
      const auto a = random_floats(3 * s.k, 5);
      const auto b = random_floats(s.k * s.n, 6);
      const auto bias = random_floats(gemm_packed_b_floats(1, s.n, isa), 7);
      std::vector<float> packed(gemm_packed_b_floats(s.k, s.n, isa) + 1);
      pack_gemm_b(s.k, s.n, b.data(), s.n, packed.data(), isa);
      GemmEpilogue ep;
      ep.col_bias = bias.data(), ep.lo = -1.0f;
      std::vector<float> one(s.n, NAN), three(3 * s.n, NAN);
      gemm_f32_packed_parallel(1, s.n, s.k, a.data(), s.k, packed.data(), one.data(), s.n, isa,
                               &ep);
      gemm_f32_packed_parallel(3, s.n, s.k, a.data(), s.k, packed.data(), three.data(), s.n, isa,
                               &ep);
      ASSERT_EQ(0, std::memcmp(one.data(), three.data(), s.n * sizeof(float)))
          << isa_name(isa) << " " << s.n << "x" << s.k;
    }
  }
}

// The first n' columns of a B packed with n (packed_n = n): the bits of
// those columns of the whole product, at every thread count. The causal
// attention of a prompt asks for fewer keys per row block than it packed.
TEST(Gemm, FirstColumnsOfAWiderPackedMatrix) {
  for (Isa isa : supported_isas()) {
    for (const Shape& s : {Shape{64, 512, 64}, Shape{23, 300, 300}, Shape{5, 90, 128}}) {
      const auto a = random_floats(s.m * s.k, 11), bt = random_floats(s.n * s.k, 12);
      std::vector<float> packed(gemm_packed_b_floats(s.k, s.n, isa) + 1);
      pack_gemm_bt(s.k, s.n, bt.data(), s.k, packed.data(), isa);
      std::vector<float> whole(s.m * s.n, NAN);
      gemm_f32_packed_parallel(s.m, s.n, s.k, a.data(), s.k, packed.data(), whole.data(), s.n,
                               isa);
      for (size_t cols : {size_t(1), size_t(17), s.n / 2 + 3, s.n - 1}) {
        for (size_t threads : thread_counts()) {
          Threads pool(threads);
          std::vector<float> part(s.m * cols, NAN);
          gemm_f32_packed_parallel(s.m, cols, s.k, a.data(), s.k, packed.data(), part.data(),
                                   cols, isa, nullptr, s.n);
          for (size_t i = 0; i < s.m; ++i) {
            ASSERT_EQ(0, std::memcmp(part.data() + i * cols, whole.data() + i * s.n,
                                     cols * sizeof(float)))
                << isa_name(isa) << " " << s.m << "x" << s.n << "x" << s.k << " first " << cols
                << " columns, row " << i << ", threads " << threads;
          }
        }
      }
    }
  }
}

TEST(Gemm, PackedColumnRangeReadsTheRightPanels) {
  for (Isa isa : supported_isas()) {
    const size_t m = 7, n = 90, k = 300, nr = gemm_panel_width(isa);
    const auto a = random_floats(m * k, 5), b = random_floats(k * n, 6);
    std::vector<float> packed(gemm_packed_b_floats(k, n, isa));
    pack_gemm_b(k, n, b.data(), n, packed.data(), isa);
    std::vector<double> want, mag;
    reference({m, n, k}, a, b, nullptr, &want, &mag);
    const size_t col0 = 2 * nr, cols = n - col0;
    std::vector<float> c(m * cols);
    gemm_f32_packed(m, cols, k, a.data(), k, packed.data(), n, col0, c.data(), cols, isa);
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < cols; ++j) {
        EXPECT_NEAR(c[i * cols + j], want[i * n + col0 + j], 1e-4 * mag[i * n + col0 + j])
            << isa_name(isa);
      }
    }
  }
}

TEST(Gemm, PackedIndexMatchesPacking) {
  for (Isa isa : supported_isas()) {
    const size_t k = 300, n = 37, nr = gemm_panel_width(isa);
    const auto b = random_floats(k * n, 7);
    std::vector<float> packed(gemm_packed_b_floats(k, n, isa));
    pack_gemm_b(k, n, b.data(), n, packed.data(), isa);
    for (size_t p = 0; p < k; ++p) {
      for (size_t q = 0; q < n; ++q) {
        ASSERT_EQ(packed[gemm_packed_index(k, n, p, q, nr)], b[p * n + q]);
      }
    }
  }
}

TEST(Gemm, BatchedWithBroadcastMatchesReference) {
  for (Isa isa : supported_isas()) {
    for (const Shape& s : kShapes) {
      const size_t batch = 3;
      const auto a = random_floats(batch * s.m * s.k, 8);
      const auto b = random_floats(s.k * s.n, 9);  // one B for every item
      std::vector<float> first;
      for (size_t threads : thread_counts()) {
        Threads pool(threads);
        std::vector<float> c(batch * s.m * s.n, NAN);
        bmm_f32(batch, s.m, s.n, s.k, a.data(), s.m * s.k, b.data(), 0, c.data(), isa);
        for (size_t item = 0; item < batch; ++item) {
          std::vector<float> ai(a.begin() + item * s.m * s.k,
                                a.begin() + (item + 1) * s.m * s.k);
          std::vector<double> want, mag;
          reference(s, ai, b, nullptr, &want, &mag);
          std::vector<float> ci(c.begin() + item * s.m * s.n,
                                c.begin() + (item + 1) * s.m * s.n);
          SCOPED_TRACE(::testing::Message() << isa_name(isa) << " " << s.m << "x" << s.n
                                            << "x" << s.k << " item " << item);
          expect_close(ci, want, mag, s.k, "bmm");
        }
        if (first.empty()) first = c;
        ASSERT_EQ(0, std::memcmp(first.data(), c.data(), c.size() * sizeof(float)));
      }
    }
  }
}

TEST(Gemm, NanInAPropagates) {
  for (Isa isa : supported_isas()) {
    const size_t m = 6, n = 16, k = 4;
    auto a = random_floats(m * k, 10);
    a[2 * k + 1] = NAN;
    const auto b = random_floats(k * n, 11);
    std::vector<float> packed(gemm_packed_b_floats(k, n, isa));
    pack_gemm_b(k, n, b.data(), n, packed.data(), isa);
    std::vector<float> c(m * n);
    GemmEpilogue ep;
    ep.lo = 0.0f, ep.hi = 6.0f;  // a clamp must not turn NaN into a number
    gemm_f32_packed(m, n, k, a.data(), k, packed.data(), n, 0, c.data(), n, isa, &ep);
    for (size_t j = 0; j < n; ++j) EXPECT_TRUE(std::isnan(c[2 * n + j])) << isa_name(isa);
    EXPECT_FALSE(std::isnan(c[0]));
  }
}

}  // namespace
}  // namespace ember::math
