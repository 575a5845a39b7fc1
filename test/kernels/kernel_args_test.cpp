// The argument checks (runtime/kernel/kernel_args.h) as portable
// operators apply them: a wrong tag is InvalidType and a wrong argument
// count InvalidProgram, with a message naming the argument; and
// Scalar::to_int of a Double saturates. The checker's own contract is in
// test/runtime/kernel_args_test.cpp.
#include "runtime/kernel/kernel_args.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(KernelArgs, WrongArgumentTypesAndCounts) {
  auto f = tensor<float>(ScalarType::Float, {2}, {0.5f, -2});
  auto out = empty(ScalarType::Float, {2});
  // A tensor where the Scalar exponent goes.
  EXPECT_EQ(call_kernel("aten::pow.Tensor_Scalar_out", {*f, *f, *out, *out}),
            Error::InvalidType);
  EXPECT_TRUE(message_has("argument 1 should be Scalar")) << last_error_message();
  // An Int where the rounding mode string goes.
  EXPECT_EQ(call_kernel("aten::div.out_mode", {*f, *f, 1, *out, *out}), Error::InvalidType);
  // Missing return value.
  EXPECT_EQ(call_kernel("aten::exp.out", {*f, *out}), Error::InvalidProgram);
  // A Double where the optional max tensor goes: a wrong type too.
  EXPECT_EQ(call_kernel("aten::clamp.out", {*f, *f, 1.0, *out, *out}), Error::InvalidType);
}

// Scalar::to_int of a Double saturates (and gives 0 for NaN) instead of an
// undefined out-of-range cast.
TEST(KernelArgs, ScalarDoubleToIntSaturates) {
  Scalar s;
  s.kind = Scalar::Kind::Double;
  s.d = 1e300;
  EXPECT_EQ(s.to_int(), INT64_MAX);
  s.d = -1e300;
  EXPECT_EQ(s.to_int(), INT64_MIN);
  s.d = std::nan("");
  EXPECT_EQ(s.to_int(), 0);
  s.d = -2.9;
  EXPECT_EQ(s.to_int(), -2);
}

}  // namespace
}  // namespace ember::testing
