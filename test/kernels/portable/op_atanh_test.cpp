// aten::atanh.out (kernels/portable/op_atanh.cpp): what an exported program
// cannot express: a Float self into a Double out (computed in float, then
// widened, as PyTorch does), an integral out, a static out of the wrong
// shape. Values, dtypes and edge cases: the op suite (atanh__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Atanh, OutDtypeAndShape) {
  auto self = tensor<float>(ScalarType::Float, {2}, {0.5f, -0.25f});
  auto wide = empty(ScalarType::Double, {2});
  ASSERT_EQ(call_kernel("aten::atanh.out", {*self, *wide, *wide}), Error::Ok);
  // From PyTorch 2.13: torch.ops.aten.atanh.out(float32 self, out=float64 out).
  expect_near_vec(wide->values<double>(), {0.54930615425109863, -0.25541281700134277}, 1e-6);
  auto int_out = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::atanh.out", {*self, *int_out, *int_out}), Error::InvalidArgument);
  auto bad_shape = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::atanh.out", {*self, *bad_shape, *bad_shape}), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
