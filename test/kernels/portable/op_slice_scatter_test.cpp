// aten::slice_scatter.out (kernels/portable/op_slice_scatter.cpp): src of
// another dtype (converted, as PyTorch's copy_ does), a step too big to
// multiply, and the shape, step and dtype checks. The slice bounds are
// slice_copy's (util/slice_util.h).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::slice_scatter.out";

TEST(SliceScatter, ConvertsSrcDtype) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto src = tensor<int32_t>(ScalarType::Int, {2, 2}, {-1, -2, -3, -4});
  auto out = empty(ScalarType::Float, {2, 5});
  // torch.slice_scatter(torch.arange(10.).reshape(2, 5),
  //                     torch.tensor([[-1, -2], [-3, -4]], dtype=torch.int32),
  //                     -1, -4, None, 2)
  ASSERT_EQ(call_kernel(kOp, {*a, *src, -1, -4, Arg::none(), 2, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, -1, 2, -2, 4, 5, -3, 7, -4, 9}));
}

TEST(SliceScatter, HugeStepWritesOneSlot) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto src = tensor<float>(ScalarType::Float, {2, 1}, {-1, -2});
  auto out = empty(ScalarType::Float, {2, 5});
  ASSERT_EQ(call_kernel(kOp, {*a, *src, 1, 2, Arg::none(), INT64_MAX, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, 1, -1, 3, 4, 5, 6, -2, 8, 9}));
}

TEST(SliceScatter, RefusesBadArguments) {
  auto a = tensor<float>(ScalarType::Float, {4, 2}, iota(8));
  auto src = tensor<float>(ScalarType::Float, {2, 2}, iota(4));
  auto out = empty(ScalarType::Float, {4, 2});
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, 0, 2, 0, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("step must be positive"));
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, 0, 2, -1, *out, *out}), Error::InvalidArgument);
  // src must be the slice's shape exactly: PyTorch does not broadcast it.
  auto row = tensor<float>(ScalarType::Float, {1, 2}, iota(2));
  EXPECT_EQ(call_kernel(kOp, {*a, *row, 0, 0, 2, 1, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("src has shape [1, 2]; expected [2, 2]"));
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, 0, 3, 1, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 2, 0, 2, 1, *out, *out}), Error::InvalidArgument);
  auto wrong = empty(ScalarType::Int, {4, 2});
  EXPECT_EQ(call_kernel(kOp, {*a, *src, 0, 0, 2, 1, *wrong, *wrong}), Error::InvalidArgument);
  auto scalar = tensor<float>(ScalarType::Float, {}, {1});
  EXPECT_EQ(call_kernel(kOp, {*scalar, *scalar, 0, Arg::none(), Arg::none(), 1, *scalar,
                              *scalar}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
