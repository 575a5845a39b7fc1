// aten::var.out (kernels/portable/op_var.cpp; the exporter emits
// var.correction_out, upstream registers var.out too): biased and
// unbiased variance.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Var, OutOverloadBiasedAndUnbiased) {
  auto in = from_doubles(ScalarType::Float, {2, 3}, {1, 2, 4, 0, 0, 6});
  auto v = empty(ScalarType::Float, {2});
  ASSERT_EQ(call_kernel("aten::var.out", {*in, Arg::ints({1}), false, false, *v, *v}),
            Error::Ok);
  expect_near_vec(to_doubles(*v), {14.0 / 9.0, 8.0}, 1e-6);
  ASSERT_EQ(call_kernel("aten::var.out", {*in, Arg::ints({1}), true, false, *v, *v}),
            Error::Ok);
  expect_near_vec(to_doubles(*v), {7.0 / 3.0, 12.0}, 1e-6);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; dim,
// unbiased / correction and keepdim are read at every call.
TEST(Var, PreparedLikeRun) {
  auto in = from_doubles(ScalarType::Float, {2, 3, 4}, wave(24, 3));
  auto v = empty(ScalarType::Float, {2, 4});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::var.out", {*in, Arg::ints({1}), true, false, *v, *v})
          .stopped);
  expect_prepared_on_changed_args("aten::var.out", {*in, Arg::ints({1}), true, false, *v, *v},
                                  {*in, Arg::ints({1}), false, false, *v, *v});
  expect_prepared_on_changed_args("aten::var.correction_out",
                                  {*in, Arg::ints({1}), 1.0, false, *v, *v},
                                  {*in, Arg::ints({2}), 0.5, false, *v, *v});
  auto l = empty(ScalarType::Long, {2, 4});
  EXPECT_EQ(expect_prepared_like_run("aten::var.out", {*in, Arg::ints({1}), true, false, *l, *l})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
