// aten::randn.out (kernels/portable/op_randn.cpp): mean, variance, bound and
// a tail fraction of the samples in every floating dtype, odd sizes,
// refused outs. The op suite runs programs that call randn and check
// range, mean and standard deviation (randn__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Randn, StandardNormalInEveryFloatingDtype) {
  // 2^16 samples: the mean's standard error is 0.004, the variance's 0.0055;
  // the bounds are 5 standard errors or more. P(|z| > 1.96) = 0.05 (error 0.00085).
  for (ScalarType type :
       {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16}) {
    auto out = empty(type, {65536});
    ASSERT_EQ(call_kernel("aten::randn.out", {Arg::ints({65536}), *out, *out}), Error::Ok)
        << last_error_message();
    const std::vector<double> v = to_doubles(*out);
    double mean = 0, var = 0, max_abs = 0, tail = 0;
    for (double x : v) {
      mean += x;
      max_abs = std::max(max_abs, std::abs(x));
      tail += std::abs(x) > 1.96 ? 1 : 0;
    }
    mean /= double(v.size());
    for (double x : v) {
      var += (x - mean) * (x - mean);
    }
    var /= double(v.size());
    EXPECT_NEAR(mean, 0.0, 0.02) << scalar_type_name(type);
    EXPECT_NEAR(var, 1.0, 0.03) << scalar_type_name(type);
    EXPECT_LT(max_abs, 8.6) << scalar_type_name(type);
    EXPECT_GT(max_abs, 3.0) << scalar_type_name(type);
    EXPECT_NEAR(tail / double(v.size()), 0.05, 0.006) << scalar_type_name(type);
  }
}

TEST(Randn, OddSizesAndRefused) {
  auto out = dynamic_out(ScalarType::Float, {3, 3});
  ASSERT_EQ(call_kernel("aten::randn.out", {Arg::ints({1, 3}), *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{1, 3}));
  for (float x : out->values<float>()) {
    EXPECT_TRUE(std::isfinite(x));
  }
  auto l = empty(ScalarType::Long, {2});
  EXPECT_EQ(call_kernel("aten::randn.out", {Arg::ints({2}), *l, *l}), Error::InvalidArgument);
  auto b = empty(ScalarType::Bool, {2});
  EXPECT_EQ(call_kernel("aten::randn.out", {Arg::ints({2}), *b, *b}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
