// aten::select_scatter.out (kernels/portable/op_select_scatter.cpp): src of
// another dtype (converted, as PyTorch's copy_ does), an out in another
// dim order, and the shape, index and dtype checks.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::select_scatter.out";

TEST(SelectScatter, ConvertsSrcDtype) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto src = tensor<int64_t>(ScalarType::Long, {3}, {-1, -2, -3});
  auto out = empty(ScalarType::Float, {3, 4});
  // torch.select_scatter(torch.arange(12.).reshape(3, 4),
  //                      torch.tensor([-1, -2, -3]), 1, -2)
  ASSERT_EQ(call_kernel(kOp, {*a, *src, 1, -2, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(),
            (std::vector<float>{0, 1, -1, 3, 4, 5, -2, 7, 8, 9, -3, 11}));
}

TEST(SelectScatter, OutInOtherDimOrder) {
  auto a = tensor<int32_t>(ScalarType::Int, {2, 3}, {0, 1, 2, 3, 4, 5});
  auto src = tensor<int32_t>(ScalarType::Int, {3}, {7, 8, 9});
  auto out = empty(ScalarType::Int, {2, 3}, ShapeDynamism::Static, {1, 0});
  ASSERT_EQ(call_kernel(kOp, {*a, *src, 0, 1, *out, *out}), Error::Ok);
  // Logical [[0, 1, 2], [7, 8, 9]], stored column-major.
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{0, 7, 1, 8, 2, 9}));
}

TEST(SelectScatter, ZeroDimSrcOfOneDimSelf) {
  auto a = tensor<double>(ScalarType::Double, {3}, {1, 2, 3});
  auto src = tensor<double>(ScalarType::Double, {}, {9});
  auto out = empty(ScalarType::Double, {3});
  ASSERT_EQ(call_kernel(kOp, {*a, *src, 0, -1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<double>(), (std::vector<double>{1, 2, 9}));
}

TEST(SelectScatter, RefusesBadArguments) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto src = tensor<float>(ScalarType::Float, {4}, iota(4));
  auto out = empty(ScalarType::Float, {3, 4});
  // src must be the slice's shape exactly: PyTorch does not broadcast it.
  auto one = tensor<float>(ScalarType::Float, {1}, {5});
  EXPECT_EQ(call_kernel(kOp, {*a, *one, 0, 0, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("src has shape [1]; expected [4]"));
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 1, 0, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, 3, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("index 3 is out of bounds"));
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, -4, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 2, 0, *out, *out}), Error::InvalidArgument);
  auto wrong = empty(ScalarType::Double, {3, 4});
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, 0, *wrong, *wrong}), Error::InvalidArgument);
  auto scalar = tensor<float>(ScalarType::Float, {}, {1});
  EXPECT_EQ(call_kernel(kOp, {*scalar, *scalar, 0, 0, *scalar, *scalar}),
            Error::InvalidArgument);
  auto small = empty(ScalarType::Float, {2, 4});
  EXPECT_NE(call_kernel(kOp, {*a, *src, 0, 0, *small, *small}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
