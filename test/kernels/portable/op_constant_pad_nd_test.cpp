// aten::constant_pad_nd.out (kernels/portable/op_constant_pad_nd.cpp):
// kernel prepare.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// Prepared (kernel prepare at load): the same bytes as a plain call,
// cropping and padding. pad and value are read at every call: a pad giving
// the same shape pads as given, one giving another shape fails as a plain
// call does. A Prepare that fails (out dtype, odd pad) fails the same at
// run.
TEST(ConstantPadNd, PreparedLikeRun) {
  const char* op = "aten::constant_pad_nd.out";
  auto a = from_doubles(ScalarType::Float, {2, 3}, wave(6, 2));
  auto out = empty(ScalarType::Float, {2, 6});
  auto crop = empty(ScalarType::Float, {3, 2});
  const auto args = [&](std::vector<int64_t> pad, Arg value) {
    return std::vector<Arg>{*a, Arg::ints(pad), value, *out, *out};
  };
  EXPECT_TRUE(expect_prepared_like_run(op, args({1, 2}, 0.5)).stopped);
  EXPECT_TRUE(
      expect_prepared_like_run(op, {*a, Arg::ints({-1, 0, 0, 1}), int64_t(7), *crop, *crop})
          .stopped);
  expect_prepared_on_changed_args(op, args({1, 2}, 0.5), args({2, 1}, int64_t(-3)));
  expect_prepared_on_changed_args(op, args({1, 2}, 0.5), args({0, 3, 0, 0}, 0.5));
  expect_prepared_on_changed_args(op, args({1, 2}, 0.5), args({1, 1}, 0.5));
  expect_prepared_on_changed_args(op, args({1, 2}, 0.5), args({1, 2, 3}, 0.5));
  auto iout = empty(ScalarType::Int, {2, 6});
  EXPECT_EQ(expect_prepared_like_run(op, {*a, Arg::ints({1, 2}), 0.5, *iout, *iout}).error,
            Error::InvalidArgument);
  EXPECT_EQ(expect_prepared_like_run(op, {*a, Arg::ints({1, 2, 3}), 0.5, *out, *out}).error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
