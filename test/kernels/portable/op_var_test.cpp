// aten::var.out (kernels/portable/op_var.cpp; the exporter emits
// var.correction_out, upstream registers var.out too): biased and
// unbiased variance.
#include "test/kernels/kernel_test_util.h"

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

}  // namespace
}  // namespace ember::testing
