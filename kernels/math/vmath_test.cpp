// vmath.h against double-precision std:: functions over dense sweeps of
// the float line, on every ISA path, at the bounds vmath.h states; and
// softmax against a double reference.
#include "kernels/math/vmath.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "kernels/math/test_util.h"

namespace ember::math {
namespace {

using testing::random_floats;
using testing::supported_isas;
using testing::thread_counts;
using testing::Threads;

// Every 97th float bit pattern in [lo, hi] (both signs), plus specials:
// about 400K values per function, each ISA, covering every binade.
std::vector<float> sweep(float lo, float hi) {
  std::vector<float> v;
  for (uint32_t bits = 0; bits < 0x7f800000u; bits += 97) {
    float x;
    std::memcpy(&x, &bits, 4);
    if (x >= lo && x <= hi) v.push_back(x);
    if (-x >= lo && -x <= hi) v.push_back(-x);
  }
  return v;
}

double ulp_of(double y) {
  const float f = float(std::fabs(y));
  if (f < 1.17549435e-38f) return std::ldexp(1.0, -149);  // subnormal spacing
  return double(std::nextafter(f, INFINITY)) - double(f);
}

using VecFn = void (*)(size_t, const float*, float*, Isa);

// max over the sweep of |got - want| / ulp(want) and of |got - want|.
void measure(VecFn fn, const std::function<double(double)>& ref, const std::vector<float>& xs,
             Isa isa, double* max_ulp, double* max_abs) {
  std::vector<float> out(xs.size());
  fn(xs.size(), xs.data(), out.data(), isa);
  *max_ulp = *max_abs = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double want = ref(xs[i]);
    const double err = std::fabs(double(out[i]) - want);
    if (std::isinf(want)) {
      ASSERT_EQ(double(out[i]), want) << "x = " << xs[i];
      continue;
    }
    *max_ulp = std::max(*max_ulp, err / ulp_of(want));
    *max_abs = std::max(*max_abs, err);
  }
}

TEST(Vmath, ExpWithinTwoUlp) {
  for (Isa isa : supported_isas()) {
    double ulp, abs;
    measure(exp_f32, [](double x) { return std::exp(x); }, sweep(-103.0f, 88.7f), isa, &ulp,
            &abs);
    EXPECT_LE(ulp, 2.0) << isa_name(isa);
  }
}

TEST(Vmath, TanhWithinTwoUlp) {
  for (Isa isa : supported_isas()) {
    double ulp, abs;
    measure(tanh_f32, [](double x) { return std::tanh(x); }, sweep(-20.0f, 20.0f), isa, &ulp,
            &abs);
    EXPECT_LE(ulp, 2.0) << isa_name(isa);
  }
}

TEST(Vmath, ErfAbsoluteErrorBelow1em7) {
  for (Isa isa : supported_isas()) {
    double ulp, abs;
    measure(erf_f32, [](double x) { return std::erf(x); }, sweep(-10.0f, 10.0f), isa, &ulp,
            &abs);
    EXPECT_LT(abs, 1e-7) << isa_name(isa);
  }
}

TEST(Vmath, GeluAbsoluteErrorBound) {
  for (Isa isa : supported_isas()) {
    const auto xs = sweep(-12.0f, 12.0f);
    std::vector<float> out(xs.size());
    gelu_f32(xs.size(), xs.data(), out.data(), isa);
    for (size_t i = 0; i < xs.size(); ++i) {
      const double x = xs[i];
      const double want = 0.5 * x * std::erfc(-x / std::sqrt(2.0));
      ASSERT_LE(std::fabs(out[i] - want), 1e-7 * std::max(1.0, std::fabs(x)) + ulp_of(want))
          << isa_name(isa) << " x = " << x;
    }
  }
}

TEST(Vmath, SigmoidRelativeErrorBound) {
  for (Isa isa : supported_isas()) {
    double ulp, abs;
    measure(sigmoid_f32, [](double x) { return 1.0 / (1.0 + std::exp(-x)); },
            sweep(-87.0f, 30.0f), isa, &ulp, &abs);
    EXPECT_LE(ulp, 4.0) << isa_name(isa);
    const float low[] = {-89.5f, -100.0f, -1e30f};
    float out[3];
    sigmoid_f32(3, low, out, isa);
    for (float y : out) EXPECT_EQ(y, 0.0f);
  }
}

TEST(Vmath, SpecialValues) {
  const float in[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
  for (Isa isa : supported_isas()) {
    float out[5];
    exp_f32(5, in, out, isa);
    EXPECT_TRUE(std::isnan(out[0]));
    EXPECT_EQ(out[1], INFINITY);
    EXPECT_EQ(out[2], 0.0f);
    EXPECT_EQ(out[3], 1.0f);
    tanh_f32(5, in, out, isa);
    EXPECT_TRUE(std::isnan(out[0]));
    EXPECT_EQ(out[1], 1.0f);
    EXPECT_EQ(out[2], -1.0f);
    erf_f32(5, in, out, isa);
    EXPECT_TRUE(std::isnan(out[0]));
    EXPECT_EQ(out[1], 1.0f);
    EXPECT_EQ(out[2], -1.0f);
    sigmoid_f32(5, in, out, isa);
    EXPECT_TRUE(std::isnan(out[0]));
    EXPECT_EQ(out[1], 1.0f);
    EXPECT_EQ(out[2], 0.0f);
    EXPECT_EQ(out[3], 0.5f);
    gelu_f32(5, in, out, isa);
    EXPECT_TRUE(std::isnan(out[0]));
  }
}

TEST(Vmath, InPlaceAndThreadCountsGiveTheSameBits) {
  const auto x = random_floats(100003, 1, -8.0f, 8.0f);
  for (Isa isa : supported_isas()) {
    std::vector<float> first;
    for (size_t threads : thread_counts()) {
      Threads pool(threads);
      std::vector<float> y = x;
      gelu_f32(y.size(), y.data(), y.data(), isa);
      if (first.empty()) first = y;
      ASSERT_EQ(0, std::memcmp(first.data(), y.data(), y.size() * sizeof(float)));
    }
  }
}

void softmax_reference(size_t outer, size_t dim, size_t inner, const std::vector<float>& in,
                       bool log, std::vector<double>* out) {
  out->resize(in.size());
  for (size_t o = 0; o < outer; ++o) {
    for (size_t c = 0; c < inner; ++c) {
      double mx = -INFINITY, sum = 0;
      for (size_t d = 0; d < dim; ++d) mx = std::max(mx, double(in[(o * dim + d) * inner + c]));
      for (size_t d = 0; d < dim; ++d) sum += std::exp(in[(o * dim + d) * inner + c] - mx);
      for (size_t d = 0; d < dim; ++d) {
        const double x = in[(o * dim + d) * inner + c];
        (*out)[(o * dim + d) * inner + c] = log ? x - mx - std::log(sum) : std::exp(x - mx) / sum;
      }
    }
  }
}

TEST(Softmax, MatchesReferenceOverEveryLayout) {
  struct Case {
    size_t outer, dim, inner;
  } cases[] = {{1, 1, 1}, {3, 7, 1}, {2, 1000, 1}, {5, 33, 1}, {2, 9, 3},
               {1, 5, 17}, {4, 12, 64}, {300, 64, 1}, {2, 197, 197}};
  for (Isa isa : supported_isas()) {
    for (const Case& c : cases) {
      const auto in = random_floats(c.outer * c.dim * c.inner, 7, -20.0f, 20.0f);
      for (bool log : {false, true}) {
        std::vector<double> want;
        softmax_reference(c.outer, c.dim, c.inner, in, log, &want);
        std::vector<float> first;
        for (size_t threads : thread_counts()) {
          Threads pool(threads);
          std::vector<float> out(in.size(), NAN);
          softmax_f32(c.outer, c.dim, c.inner, in.data(), out.data(), log, isa);
          for (size_t i = 0; i < out.size(); ++i) {
            const double tol = log ? 1e-5 * std::max(1.0, std::fabs(want[i]))
                                   : 1e-6 * want[i] + 1e-6 * double(c.dim) * 1e-7;
            ASSERT_LE(std::fabs(out[i] - want[i]), tol + 1e-38)
                << isa_name(isa) << " " << c.outer << "x" << c.dim << "x" << c.inner
                << " log " << log << " element " << i;
          }
          if (first.empty()) first = out;
          ASSERT_EQ(0, std::memcmp(first.data(), out.data(), out.size() * sizeof(float)));
        }
      }
    }
  }
}

TEST(Softmax, NanRowIsNanAndInPlaceWorks) {
  for (Isa isa : supported_isas()) {
    std::vector<float> x = {1.0f, NAN, 2.0f, 3.0f, 0.5f, -1.0f};
    softmax_f32(2, 3, 1, x.data(), x.data(), false, isa);
    for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(x[i])) << isa_name(isa);
    EXPECT_NEAR(x[3] + x[4] + x[5], 1.0f, 1e-6f);
    EXPECT_NEAR(x[3], std::exp(3.0) / (std::exp(3.0) + std::exp(0.5) + std::exp(-1.0)), 1e-6);
  }
}

// Columns (inner > 1), wider than any vector: a NaN makes its own column
// NaN, in every lane position, and leaves the others alone.
TEST(Softmax, NanColumnIsNanOthersSumToOne) {
  const size_t dim = 3, inner = 37;
  for (Isa isa : supported_isas()) {
    for (size_t bad : {size_t(0), size_t(5), size_t(17), size_t(36)}) {
      for (bool log : {false, true}) {
        std::vector<float> x(dim * inner), out(x.size());
        for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 7) * 0.25f - 0.5f;
        x[1 * inner + bad] = NAN;
        softmax_f32(1, dim, inner, x.data(), out.data(), log, isa);
        for (size_t c = 0; c < inner; ++c) {
          double sum = 0;
          for (size_t d = 0; d < dim; ++d) {
            const float v = out[d * inner + c];
            if (c == bad) EXPECT_TRUE(std::isnan(v)) << isa_name(isa) << " column " << c;
            sum += log ? std::exp(double(v)) : v;
          }
          if (c != bad) EXPECT_NEAR(sum, 1.0, 1e-5) << isa_name(isa) << " column " << c;
        }
      }
    }
  }
}

}  // namespace
}  // namespace ember::math
