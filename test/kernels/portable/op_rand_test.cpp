// aten::rand.out (kernels/portable/op_rand.cpp): uniform in [0, 1) with the
// expected mean and variance in every floating dtype, out resized to
// `size`, reproducible after reset_random_streams, distinct calls distinct,
// non-floating outs refused. The op suite runs programs that call rand and
// check the range (rand__*).
#include "kernels/portable/util/random_util.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

struct Moments {
  double min, max, mean, var;
};

Moments moments(const std::vector<double>& v) {
  Moments m{v[0], v[0], 0, 0};
  for (double x : v) {
    m.min = std::min(m.min, x);
    m.max = std::max(m.max, x);
    m.mean += x;
  }
  m.mean /= double(v.size());
  for (double x : v) {
    m.var += (x - m.mean) * (x - m.mean);
  }
  m.var /= double(v.size());
  return m;
}

TEST(Rand, UniformInEveryFloatingDtype) {
  // 2^16 samples: the mean's standard error is 0.0011, the variance's 0.0003;
  // the bounds are 10 standard errors or more.
  for (ScalarType type :
       {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16}) {
    auto out = empty(type, {256, 256});
    ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({256, 256}), *out, *out}), Error::Ok)
        << last_error_message();
    const Moments m = moments(to_doubles(*out));
    EXPECT_GE(m.min, 0.0) << scalar_type_name(type);
    EXPECT_LT(m.max, 1.0) << scalar_type_name(type);
    EXPECT_NEAR(m.mean, 0.5, 0.012) << scalar_type_name(type);
    EXPECT_NEAR(m.var, 1.0 / 12.0, 0.004) << scalar_type_name(type);
  }
}

TEST(Rand, ShapesAndStreams) {
  auto out = dynamic_out(ScalarType::Float, {4, 5, 6});
  ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({2, 3, 1}), *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3, 1}));
  ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({0, 5, 6}), *out, *out}), Error::Ok);
  EXPECT_EQ(out->tensor().numel(), 0);
  auto scalar = empty(ScalarType::Double, {});
  ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({}), *scalar, *scalar}), Error::Ok);
  EXPECT_LT(scalar->values<double>()[0], 1.0);

  // Reproducible from a seed; each call a new stream.
  auto a = empty(ScalarType::Float, {64});
  auto b = empty(ScalarType::Float, {64});
  reset_random_streams(1234);
  ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({64}), *a, *a}), Error::Ok);
  ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({64}), *b, *b}), Error::Ok);
  EXPECT_NE(a->values<float>(), b->values<float>());
  const std::vector<float> first = a->values<float>();
  reset_random_streams(1234);
  ASSERT_EQ(call_kernel("aten::rand.out", {Arg::ints({64}), *a, *a}), Error::Ok);
  EXPECT_EQ(a->values<float>(), first);
  reset_random_streams(kDefaultRandomSeed);
}

TEST(Rand, Refused) {
  auto i = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::rand.out", {Arg::ints({2}), *i, *i}), Error::InvalidArgument);
  auto f = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel("aten::rand.out", {Arg::ints({-1}), *f, *f}), Error::InvalidArgument);
  // A static out of another shape cannot be resized.
  EXPECT_NE(call_kernel("aten::rand.out", {Arg::ints({3}), *f, *f}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
