// aten::glu.out (kernels/portable/op_glu.cpp): what an exported program
// cannot express: a self in column-major dim order, a Double out for a
// Float self, and the refusals (odd halved dim, zero-dim self, integral
// dtypes, dim out of range, a static out of the wrong shape). Values,
// dtypes and edge cases: the op suite (glu__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Glu, StridedSelfAndWideOut) {
  // Logical [[0.5, -1, 2, 0], [1.5, -0.5, -3, 4]] stored column-major.
  auto self = empty(ScalarType::Float, {2, 4}, ShapeDynamism::Static, {1, 0});
  const std::vector<float> memory = {0.5f, 1.5f, -1.0f, -0.5f, 2.0f, -3.0f, 0.0f, 4.0f};
  for (size_t k = 0; k < memory.size(); ++k) self->data<float>()[k] = memory[k];
  auto out = empty(ScalarType::Double, {2, 2});
  ASSERT_EQ(call_kernel("aten::glu.out", {*self, 1, *out, *out}), Error::Ok);
  // From PyTorch 2.13: torch.ops.aten.glu.out(self, 1, out=float64 out).
  expect_near_vec(out->values<double>(),
                  {0.44039851427078247, -0.5, 0.071138814091682434, -0.49100688099861145},
                  1e-7);
  // dim 0 of a contiguous [4, 3]: rows 0-1 gated by rows 2-3.
  auto rows = tensor<float>(ScalarType::Float, {4, 3}, {1, 2, 3, 4, 5, 6, -1, 0, 1, 2, 2, 2});
  auto half_rows = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::glu.out", {*rows, 0, *half_rows, *half_rows}), Error::Ok);
  // From PyTorch 2.13: torch.nn.functional.glu(rows, 0).
  expect_near_vec(to_doubles(*half_rows),
                  {0.26894143223762512, 1, 2.1931757926940918, 3.5231881141662598,
                   4.4039850234985352, 5.2847824096679688},
                  1e-6);
}

TEST(Glu, Refusals) {
  auto odd = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Float, {2, 1});
  EXPECT_EQ(call_kernel("aten::glu.out", {*odd, -1, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("must be even"));
  auto scalar = tensor<float>(ScalarType::Float, {}, {1});
  auto scalar_out = empty(ScalarType::Float, {});
  EXPECT_EQ(call_kernel("aten::glu.out", {*scalar, 0, *scalar_out, *scalar_out}),
            Error::InvalidArgument);
  auto ints = tensor<int32_t>(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto int_out = empty(ScalarType::Int, {2, 1});
  auto float_out = empty(ScalarType::Float, {2, 1});
  EXPECT_EQ(call_kernel("aten::glu.out", {*ints, 1, *float_out, *float_out}),
            Error::InvalidArgument);
  auto even = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(call_kernel("aten::glu.out", {*even, 1, *int_out, *int_out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::glu.out", {*even, 2, *float_out, *float_out}),
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {1, 2});
  EXPECT_EQ(call_kernel("aten::glu.out", {*even, 1, *wrong, *wrong}), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
