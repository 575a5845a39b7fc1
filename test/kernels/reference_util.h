// Inputs and naive reference loops shared by the kernel tests: ramps and
// deterministic patterns to fill tensors with, a triple-loop matrix
// product, and a runner that computes a result with one and then two
// threads so a test can check that threading does not change it.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstring>
#include <numeric>
#include <utility>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/platform/threadpool.h"

namespace ember::testing {

// 0, 1, 2, ... n - 1.
inline std::vector<float> iota(size_t n) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), 0.0f);
  return v;
}

// Small integers (times `scale`) in a repeating, non-monotonic order.
inline std::vector<double> pattern(size_t n, int mod, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = double(int((i * 7 + 3) % mod) - mod / 2) * scale;
  return v;
}

// A sine wave: values with no exact binary representation.
inline std::vector<double> wave(size_t n, double scale) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) * 0.37 + 0.1) * scale;
  return v;
}

// c[m x n] = a[m x k] * b[k x n], row-major, in double.
inline std::vector<double> ref_mm(int m, int k, int n, const std::vector<double>& a,
                                  const std::vector<double>& b) {
  std::vector<double> c(size_t(m * n), 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      for (int p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

// Runs `fn` with 1 and then 2 threads; returns both outputs.
template <typename F>
std::pair<std::vector<double>, std::vector<double>> one_and_two_threads(F fn) {
  EXPECT_EQ(set_num_threads(1), Error::Ok);
  std::vector<double> one = fn();
  EXPECT_EQ(set_num_threads(2), Error::Ok);
  std::vector<double> two = fn();
  EXPECT_EQ(set_num_threads(1), Error::Ok);
  return {one, two};
}

inline void expect_bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
}

}  // namespace ember::testing
