// aten::masked_scatter.out (kernels/portable/op_masked_scatter.cpp): self
// broadcast by the mask, a source in another dim order (read in logical
// order), and the source size, dtype and mask checks.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::masked_scatter.out";

TEST(MaskedScatter, BroadcastsSelfToTheMask) {
  // torch.masked_scatter(torch.ones(3),
  //     torch.tensor([[True, False, True], [False, False, True]]),
  //     torch.arange(5.)) -> [[0, 1, 1], [1, 1, 2]]
  auto a = tensor<float>(ScalarType::Float, {3}, {1, 1, 1});
  auto m = from_doubles(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1});
  auto src = tensor<float>(ScalarType::Float, {5}, iota(5));
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel(kOp, {*a, *m, *src, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, 1, 1, 1, 1, 2}));
}

TEST(MaskedScatter, SourceInOtherDimOrder) {
  // Source logical [[10, 11], [12, 13]] stored column-major.
  auto src = empty(ScalarType::Int, {2, 2}, ShapeDynamism::Static, {1, 0});
  const int32_t storage[] = {10, 12, 11, 13};
  std::memcpy(src->data<int32_t>(), storage, sizeof(storage));
  auto a = tensor<int32_t>(ScalarType::Int, {4}, {0, 0, 0, 0});
  auto m = from_doubles(ScalarType::Bool, {4}, {0, 1, 1, 1});
  auto out = empty(ScalarType::Int, {4});
  ASSERT_EQ(call_kernel(kOp, {*a, *m, *src, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{0, 10, 11, 12}));
}

TEST(MaskedScatter, RefusesBadArguments) {
  auto a = tensor<float>(ScalarType::Float, {3}, iota(3));
  auto m = from_doubles(ScalarType::Bool, {3}, {1, 1, 1});
  auto src = tensor<float>(ScalarType::Float, {2}, iota(2));
  auto out = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel(kOp, {*a, *m, *src, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("mask has 3 true entries but source has only 2 elements"));
  auto src_long = tensor<int64_t>(ScalarType::Long, {3}, {1, 2, 3});
  EXPECT_EQ(call_kernel(kOp, {*a, *m, *src_long, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("source dtype Long differs from self dtype Float"));
  auto byte_mask = tensor<uint8_t>(ScalarType::Byte, {3}, {1, 1, 1});
  auto src3 = tensor<float>(ScalarType::Float, {3}, iota(3));
  EXPECT_EQ(call_kernel(kOp, {*a, *byte_mask, *src3, *out, *out}), Error::InvalidArgument);
  auto wrong = empty(ScalarType::Double, {3});
  EXPECT_EQ(call_kernel(kOp, {*a, *m, *src3, *wrong, *wrong}), Error::InvalidArgument);
  auto bad_mask = from_doubles(ScalarType::Bool, {2}, {1, 1});
  EXPECT_EQ(call_kernel(kOp, {*a, *bad_mask, *src3, *out, *out}), Error::InvalidArgument);
  // out must take the broadcast shape.
  auto m2 = from_doubles(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1});
  EXPECT_NE(call_kernel(kOp, {*a, *m2, *src3, *out, *out}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
