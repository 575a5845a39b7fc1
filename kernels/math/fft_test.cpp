// fft.h against a naive O(n^2) DFT in long double, forward and inverse,
// complex and real, in float and double, for lengths that take every
// path: radix 4, 2, 3 and 5
// butterflies, direct DFT steps for primes 7..31, Bluestein for lengths
// with a larger prime factor (prime lengths, 2 * 97, ...), and n = 1.
#include "kernels/math/fft.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace ember::math {
namespace {

// sum_j x[j] * exp(sign * 2*pi*i * j*k / n), with j*k reduced mod n first.
std::vector<long double> naive_dft(const std::vector<long double>& x, size_t n, bool inverse) {
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double sign = inverse ? 1.0L : -1.0L;
  std::vector<long double> cos_table(n), sin_table(n);
  for (size_t r = 0; r < n; ++r) {
    const long double angle = sign * 2 * pi * (long double)r / (long double)n;
    cos_table[r] = std::cos(angle);
    sin_table[r] = std::sin(angle);
  }
  std::vector<long double> out(2 * n, 0.0L);
  for (size_t k = 0; k < n; ++k) {
    long double re = 0, im = 0;
    for (size_t j = 0; j < n; ++j) {
      const size_t r = (j * k) % n;
      const long double c = cos_table[r], s = sin_table[r];
      re += x[2 * j] * c - x[2 * j + 1] * s;
      im += x[2 * j] * s + x[2 * j + 1] * c;
    }
    out[2 * k] = re;
    out[2 * k + 1] = im;
  }
  return out;
}

template <typename T>
struct Planned {
  explicit Planned(size_t n) : memory(fft_plan_bytes<T>(n) / sizeof(T) + 1) {
    ok = fft_plan_init(&plan, n, memory.data(), memory.size() * sizeof(T));
  }
  std::vector<T> memory;
  FftPlan<T> plan;
  bool ok = false;
};

// ||got - want|| / ||want|| (2-norms over all pairs).
template <typename T>
double relative_error(const std::vector<T>& got, const std::vector<long double>& want) {
  long double err = 0, norm = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const long double d = (long double)got[i] - want[i];
    err += d * d;
    norm += want[i] * want[i];
  }
  return norm == 0 ? double(std::sqrt(err)) : double(std::sqrt(err / norm));
}

template <typename T>
void check_length(size_t n, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "n = " << n << ", " << sizeof(T) * 8 << "-bit");
  Planned<T> p(n);
  ASSERT_TRUE(p.ok);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<T> x(2 * n);
  std::vector<long double> xl(2 * n);
  for (size_t i = 0; i < 2 * n; ++i) {
    x[i] = T(dist(gen));
    xl[i] = x[i];
  }
  // Rounding grows like log(n) for a good FFT (a naive DFT's like n): the
  // relative error stays within 2 * eps * (log2(n) + 2), Bluestein's three
  // transforms of length m < 4n included. Seen: at most a tenth of that.
  const double eps = std::numeric_limits<T>::epsilon();
  const double tol = 2 * eps * (std::log2(double(n)) + 2);
  for (bool inverse : {false, true}) {
    std::vector<T> out(2 * n, T(-7));
    fft_execute(p.plan, x.data(), out.data(), inverse);
    EXPECT_LT(relative_error(out, naive_dft(xl, n, inverse)), tol)
        << (inverse ? "inverse" : "forward");
    // The input is left as it was.
    for (size_t i = 0; i < 2 * n; ++i) ASSERT_EQ(x[i], T(xl[i]));
  }
  // inverse(forward(x)) / n == x
  std::vector<T> spectrum(2 * n), back(2 * n);
  fft_execute(p.plan, x.data(), spectrum.data(), false);
  fft_execute(p.plan, spectrum.data(), back.data(), true);
  for (T& v : back) v /= T(n);
  EXPECT_LT(relative_error(back, xl), 2 * tol) << "round trip";
}

const std::vector<size_t> kLengths = {
    1,  2,  3,  4,  5,  6,  7,  8,  9,   11,  12,  13,  15,  16,  25,  27,  30,  31,
    32, 37, 49, 60, 64, 97, 100, 121, 128, 194, 243, 360, 400, 512, 625, 961, 1000, 1009, 1024,
    2310};

TEST(Fft, FloatMatchesNaiveDft) {
  for (size_t n : kLengths) check_length<float>(n, uint32_t(n));
}

TEST(Fft, DoubleMatchesNaiveDft) {
  for (size_t n : kLengths) check_length<double>(n, uint32_t(n) + 1);
}

// fft_r2c and fft_r2c_pair against the naive DFT of the real signals (both
// output counts the operators use), fft_c2r against the naive inverse DFT of the Hermitian
// completion of a half spectrum whose X[0] and X[n/2] carry imaginary
// parts (which must not count), and c2r(r2c(x)) / n == x.
template <typename T>
void check_real_length(size_t n, uint32_t seed) {
  SCOPED_TRACE(::testing::Message() << "n = " << n << ", " << sizeof(T) * 8 << "-bit");
  Planned<T> p(n);
  ASSERT_TRUE(p.ok);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  const double tol = 2 * std::numeric_limits<T>::epsilon() * (std::log2(double(n)) + 2);
  std::vector<T> work(4 * n), x(n);
  std::vector<long double> xl(2 * n, 0.0L);
  for (size_t j = 0; j < n; ++j) {
    x[j] = T(dist(gen));
    xl[2 * j] = x[j];
  }
  const std::vector<long double> full = naive_dft(xl, n, false);
  for (size_t count : {n / 2 + 1, n}) {
    std::vector<T> out(2 * count);
    fft_r2c(p.plan, x.data(), out.data(), count, work.data());
    EXPECT_LT(relative_error(out, std::vector<long double>(full.begin(), full.begin() + 2 * count)),
              tol)
        << "r2c, " << count << " outputs";
  }
  // Two signals through one complex transform: each as fft_r2c alone.
  std::vector<T> y(n);
  std::vector<long double> yl(2 * n, 0.0L);
  for (size_t j = 0; j < n; ++j) {
    y[j] = T(dist(gen));
    yl[2 * j] = y[j];
  }
  const std::vector<long double> full_y = naive_dft(yl, n, false);
  for (size_t count : {n / 2 + 1, n}) {
    std::vector<T> out_x(2 * count), out_y(2 * count);
    fft_r2c_pair(p.plan, x.data(), y.data(), out_x.data(), out_y.data(), count, work.data());
    EXPECT_LT(
        relative_error(out_x, std::vector<long double>(full.begin(), full.begin() + 2 * count)),
        tol)
        << "r2c pair, first, " << count << " outputs";
    EXPECT_LT(
        relative_error(out_y, std::vector<long double>(full_y.begin(), full_y.begin() + 2 * count)),
        tol)
        << "r2c pair, second, " << count << " outputs";
  }
  const size_t half = n / 2 + 1;
  std::vector<T> spectrum(2 * half);
  for (T& v : spectrum) v = T(dist(gen));
  std::vector<long double> hermitian(2 * n);
  for (size_t k = 0; k < n; ++k) {
    const size_t src = k < half ? k : n - k;
    hermitian[2 * k] = spectrum[2 * src];
    hermitian[2 * k + 1] = (k < half ? 1 : -1) * (long double)spectrum[2 * src + 1];
  }
  hermitian[1] = 0;
  if (n % 2 == 0) hermitian[2 * (n / 2) + 1] = 0;
  const std::vector<long double> signal = naive_dft(hermitian, n, true);
  std::vector<long double> want(n);
  for (size_t j = 0; j < n; ++j) want[j] = signal[2 * j];
  std::vector<T> out(n);
  fft_c2r(p.plan, spectrum.data(), out.data(), work.data());
  EXPECT_LT(relative_error(out, want), tol) << "c2r";
  // The imaginary parts of the real signal's transform vanish: c2r undoes r2c.
  std::vector<T> forward(2 * half), back(n);
  fft_r2c(p.plan, x.data(), forward.data(), half, work.data());
  fft_c2r(p.plan, forward.data(), back.data(), work.data());
  for (T& v : back) v /= T(n);
  std::vector<long double> xr(x.begin(), x.end());
  EXPECT_LT(relative_error(back, xr), 2 * tol) << "round trip";
}

TEST(Fft, RealTransformsMatchNaiveDft) {
  for (size_t n : kLengths) {
    check_real_length<float>(n, uint32_t(n) + 2);
    check_real_length<double>(n, uint32_t(n) + 3);
  }
}

TEST(Fft, PathsByLargestPrimeFactor) {
  for (size_t n : {2 * 31, 7 * 11 * 13, 400, 1024}) {
    Planned<float> p(n);
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.plan.chirp, nullptr) << n;
    EXPECT_EQ(p.plan.core_n, n);
  }
  for (size_t n : {37, 97, 2 * 97, 1009}) {
    Planned<float> p(n);
    ASSERT_TRUE(p.ok);
    EXPECT_NE(p.plan.chirp, nullptr) << n;
    EXPECT_GE(p.plan.core_n, 2 * n - 1);
    EXPECT_EQ(p.plan.core_n & (p.plan.core_n - 1), 0u) << "a power of two";
  }
}

TEST(Fft, ImpulseAndConstant) {
  const size_t n = 12;
  Planned<double> p(n);
  ASSERT_TRUE(p.ok);
  std::vector<double> impulse(2 * n, 0.0), out(2 * n);
  impulse[0] = 1.0;
  fft_execute(p.plan, impulse.data(), out.data(), false);
  for (size_t k = 0; k < n; ++k) {
    EXPECT_DOUBLE_EQ(out[2 * k], 1.0);
    EXPECT_DOUBLE_EQ(out[2 * k + 1], 0.0);
  }
  std::vector<double> ones(2 * n, 0.0);
  for (size_t j = 0; j < n; ++j) ones[2 * j] = 1.0;
  fft_execute(p.plan, ones.data(), out.data(), true);
  EXPECT_NEAR(out[0], double(n), 1e-12);
  for (size_t k = 1; k < n; ++k) {
    EXPECT_NEAR(out[2 * k], 0.0, 1e-12);
    EXPECT_NEAR(out[2 * k + 1], 0.0, 1e-12);
  }
}

TEST(Fft, PlanMemoryChecks) {
  EXPECT_EQ(fft_plan_bytes<float>(0), 0u);
  EXPECT_EQ(fft_plan_bytes<float>(8), 16 * sizeof(float));
  EXPECT_GT(fft_plan_bytes<double>(97), 2 * 97 * sizeof(double));
  std::vector<double> memory(64);
  FftPlan<double> plan;
  EXPECT_FALSE(fft_plan_init(&plan, 0, memory.data(), memory.size() * sizeof(double)));
  EXPECT_FALSE(fft_plan_init(&plan, 97, memory.data(), memory.size() * sizeof(double)));
  EXPECT_FALSE(fft_plan_init(&plan, 8, nullptr, 1024));
  EXPECT_FALSE(fft_plan_init(&plan, 8, reinterpret_cast<char*>(memory.data()) + 1, 256));
  EXPECT_TRUE(fft_plan_init(&plan, 32, memory.data(), memory.size() * sizeof(double)));
  EXPECT_FALSE(fft_plan_init(&plan, 33, memory.data(), memory.size() * sizeof(double)));
}

}  // namespace
}  // namespace ember::math
