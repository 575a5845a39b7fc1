// aten::cosh.out (kernels/portable/op_cosh.cpp): what an exported program
// cannot express: a Float self into a Double out (computed in float, then
// widened, as PyTorch does), an integral out, a static out of the wrong
// shape. Values, dtypes and edge cases: the op suite (cosh__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Cosh, OutDtypeAndShape) {
  auto self = tensor<float>(ScalarType::Float, {2}, {0.5f, -3.0f});
  auto wide = empty(ScalarType::Double, {2});
  ASSERT_EQ(call_kernel("aten::cosh.out", {*self, *wide, *wide}), Error::Ok);
  // From PyTorch 2.13: torch.ops.aten.cosh.out(float32 self, out=float64 out).
  expect_near_vec(wide->values<double>(), {1.1276259422302246, 10.067662239074707}, 1e-6);
  auto int_out = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::cosh.out", {*self, *int_out, *int_out}), Error::InvalidArgument);
  auto bad_shape = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::cosh.out", {*self, *bad_shape, *bad_shape}), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
