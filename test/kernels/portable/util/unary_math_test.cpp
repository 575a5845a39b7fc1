// Shared bodies of the one-input math kernels
// (kernels/portable/util/unary_math.h), through the operators that use
// them: the dtypes each kind of body refuses.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(UnaryMath, RefusedDtypes) {
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto f = tensor<float>(ScalarType::Float, {2}, {1.5f, -2});
  auto i = tensor<int32_t>(ScalarType::Int, {2}, {3, -4});
  auto out_b = empty(ScalarType::Bool, {2});
  auto out_f = empty(ScalarType::Float, {2});
  auto out_i = empty(ScalarType::Int, {2});
  for (const char* op : {"aten::neg.out", "aten::abs.out", "aten::floor.out",
                         "aten::round.out"}) {
    EXPECT_EQ(call_kernel(op, {*b, *out_b, *out_b}), Error::InvalidArgument) << op;
  }
  EXPECT_EQ(call_kernel("aten::bitwise_not.out", {*f, *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::gelu.out", {*i, Arg::string("none"), *out_f, *out_f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::leaky_relu.out", {*i, 0.1, *out_i, *out_i}),
            Error::InvalidArgument);
  // A float result cannot be written into an integer out tensor.
  EXPECT_EQ(call_kernel("aten::exp.out", {*i, *out_i, *out_i}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
