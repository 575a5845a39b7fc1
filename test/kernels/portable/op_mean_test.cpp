// aten::mean.out (kernels/portable/op_mean.cpp): a global average pool,
// two leading dims into a Double out, refused dtype and dim.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

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

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (out dtype) fails the same at run. dim, keepdim and
// dtype are read at every call: values giving the same shape compute,
// others fail as a plain call does.
TEST(Mean, PreparedLikeRun) {
  const char* op = "aten::mean.out";
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, wave(24, 3));
  auto m = empty(ScalarType::Float, {2, 4});
  const auto args = [&](std::vector<int64_t> dims, bool keepdim, Arg dtype) {
    return std::vector<Arg>{*a, Arg::ints(dims), keepdim, dtype, *m, *m};
  };
  EXPECT_TRUE(expect_prepared_like_run(op, args({1}, false, Arg::none())).stopped);
  EXPECT_TRUE(
      expect_prepared_like_run(op, args({1}, false, int64_t(ScalarType::Float))).stopped);
  expect_prepared_on_changed_args(op, args({1}, false, Arg::none()),
                                  args({-2}, false, Arg::none()));
  expect_prepared_on_changed_args(op, args({1}, false, Arg::none()),
                                  args({2}, false, Arg::none()));
  expect_prepared_on_changed_args(op, args({1}, false, Arg::none()),
                                  args({1}, true, Arg::none()));
  expect_prepared_on_changed_args(op, args({1}, false, Arg::none()),
                                  args({3}, false, Arg::none()));
  expect_prepared_on_changed_args(op, args({1}, false, int64_t(ScalarType::Float)),
                                  args({1}, false, int64_t(ScalarType::Double)));
  auto all = empty(ScalarType::Double, {});
  EXPECT_TRUE(expect_prepared_like_run("aten::mean.dtype_out", {*a, Arg::none(), *all, *all})
                  .stopped);
  auto mi = empty(ScalarType::Int, {2, 4});
  EXPECT_EQ(expect_prepared_like_run(op, {*a, Arg::ints({1}), false, Arg::none(), *mi, *mi})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
