// aten::mean.out (kernels/portable/op_mean.cpp): a global average pool,
// two leading dims into a Double out, refused dtype and dim.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Mean, DimsAndDtypes) {
  std::vector<double> v(24);
  for (size_t i = 0; i < 24; ++i) v[i] = double(i);
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, v);
  // mean over H, W of an NCHW tensor (global average pool).
  auto m = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({2}), false, Arg::none(), *m, *m}),
            Error::Ok);
  std::vector<double> mw(6, 0);
  for (int i = 0; i < 6; ++i) {
    for (int k = 0; k < 4; ++k) mw[i] += v[i * 4 + k];
    mw[i] /= 4;
  }
  EXPECT_EQ(to_doubles(*m), mw);
  auto m1 = empty(ScalarType::Double, {4});
  ASSERT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({0, 1}), false, Arg::none(), *m1, *m1}),
            Error::Ok);
  std::vector<double> mw1(4, 0);
  for (int i = 0; i < 24; ++i) mw1[i % 4] += v[i] / 6;
  expect_near_vec(to_doubles(*m1), mw1, 1e-12);
  auto mi = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({2}), false, Arg::none(), *mi, *mi}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::mean.out", {*a, Arg::ints({3}), false, Arg::none(), *m, *m}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
