// aten::unfold_copy.out (kernels/portable/op_unfold_copy.cpp): a 0-d self
// (upstream's runtime aborts on it, so the op suite cannot carry it; the
// values below are PyTorch's), a step too big to multiply, and the
// argument checks.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::unfold_copy.out";

TEST(UnfoldCopy, ZeroDimSelf) {
  auto a = tensor<float>(ScalarType::Float, {}, {2.5f});
  // torch.ops.aten.unfold_copy(torch.tensor(2.5), -1, 1, 1) -> tensor([2.5])
  auto out = dynamic_out(ScalarType::Float, {1});
  ASSERT_EQ(call_kernel(kOp, {*a, -1, 1, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{1}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{2.5f}));
  // torch.ops.aten.unfold_copy(torch.tensor(2.5), 0, 0, 1).shape -> [0]
  ASSERT_EQ(call_kernel(kOp, {*a, 0, 0, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{0}));
  EXPECT_EQ(call_kernel(kOp, {*a, 0, 2, 1, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, 1, 1, 1, *out, *out}), Error::InvalidArgument);
}

TEST(UnfoldCopy, HugeStepIsOneWindow) {
  auto a = tensor<float>(ScalarType::Float, {2, 7}, iota(14));
  auto out = empty(ScalarType::Float, {2, 1, 3});
  ASSERT_EQ(call_kernel(kOp, {*a, 1, 3, INT64_MAX, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, 1, 2, 7, 8, 9}));
}

TEST(UnfoldCopy, RefusesBadArguments) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto out = dynamic_out(ScalarType::Float, {3, 4, 4});
  EXPECT_EQ(call_kernel(kOp, {*a, 1, 5, 1, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("size is 5 but must be in [0, 4]"));
  EXPECT_EQ(call_kernel(kOp, {*a, 1, -1, 1, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, 1, 2, 0, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("step is 0"));
  EXPECT_EQ(call_kernel(kOp, {*a, 2, 2, 1, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, -3, 2, 1, *out, *out}), Error::InvalidArgument);
  auto wrong = dynamic_out(ScalarType::Double, {3, 4, 4});
  EXPECT_EQ(call_kernel(kOp, {*a, 1, 2, 1, *wrong, *wrong}), Error::InvalidArgument);
  // A 16-dim self would need a 17-dim out.
  auto deep = empty(ScalarType::Float, std::vector<SizesType>(16, 1));
  auto deep_out = empty(ScalarType::Float, std::vector<SizesType>(16, 1));
  EXPECT_EQ(call_kernel(kOp, {*deep, 0, 1, 1, *deep_out, *deep_out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("more than 16 dims"));
}

}  // namespace
}  // namespace ember::testing
