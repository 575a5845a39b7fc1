// aten::masked_select.out (kernels/portable/op_masked_select.cpp): the
// bounded-dynamic out is resized within its bound and refused past it;
// self broadcast by the mask; another dim order; the mask and out checks.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::masked_select.out";

TEST(MaskedSelect, ResizesWithinBoundAndFailsPastIt) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, iota(6));
  auto m = from_doubles(ScalarType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1});
  auto out = dynamic_out(ScalarType::Float, {6});
  ASSERT_EQ(call_kernel(kOp, {*a, *m, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{3}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, 2, 5}));
  auto small = dynamic_out(ScalarType::Float, {2});
  EXPECT_NE(call_kernel(kOp, {*a, *m, *small, *small}), Error::Ok);
  // An empty self selects nothing.
  auto e = empty(ScalarType::Float, {0, 3});
  ASSERT_EQ(call_kernel(kOp, {*e, *m, *small, *small}), Error::InvalidArgument);  // [0,3] vs [2,3]
  auto row = from_doubles(ScalarType::Bool, {3}, {1, 1, 0});
  ASSERT_EQ(call_kernel(kOp, {*e, *row, *small, *small}), Error::Ok);
  EXPECT_EQ(sizes_of(*small), (std::vector<SizesType>{0}));
}

TEST(MaskedSelect, BroadcastsSelfAndMask) {
  // torch.masked_select(torch.tensor([10, 20, 30]),
  //                     torch.tensor([[True], [False], [True]]))
  //   -> [10, 20, 30, 10, 20, 30]
  auto a = tensor<int64_t>(ScalarType::Long, {3}, {10, 20, 30});
  auto m = from_doubles(ScalarType::Bool, {3, 1}, {1, 0, 1});
  auto out = dynamic_out(ScalarType::Long, {9});
  ASSERT_EQ(call_kernel(kOp, {*a, *m, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{10, 20, 30, 10, 20, 30}));
  // Both 0-d.
  auto s = tensor<int64_t>(ScalarType::Long, {}, {7});
  auto t = from_doubles(ScalarType::Bool, {}, {1});
  ASSERT_EQ(call_kernel(kOp, {*s, *t, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{7}));
  auto bad = from_doubles(ScalarType::Bool, {2}, {1, 1});
  EXPECT_EQ(call_kernel(kOp, {*a, *bad, *out, *out}), Error::InvalidArgument);
}

TEST(MaskedSelect, SelfInOtherDimOrder) {
  // Logical [[0, 1, 2], [3, 4, 5]] stored column-major: the result is in
  // logical row-major order.
  auto a = empty(ScalarType::Short, {2, 3}, ShapeDynamism::Static, {1, 0});
  const int16_t storage[] = {0, 3, 1, 4, 2, 5};
  std::memcpy(a->data<int16_t>(), storage, sizeof(storage));
  auto m = from_doubles(ScalarType::Bool, {3}, {1, 0, 1});
  auto out = dynamic_out(ScalarType::Short, {6});
  ASSERT_EQ(call_kernel(kOp, {*a, *m, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int16_t>(), (std::vector<int16_t>{0, 2, 3, 5}));
}

TEST(MaskedSelect, RefusesBadArguments) {
  auto a = tensor<float>(ScalarType::Float, {3}, iota(3));
  auto out = dynamic_out(ScalarType::Float, {3});
  // PyTorch refuses Byte masks here ("expected BoolTensor for mask").
  auto byte_mask = tensor<uint8_t>(ScalarType::Byte, {3}, {1, 0, 1});
  EXPECT_EQ(call_kernel(kOp, {*a, *byte_mask, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("mask must be Bool, got Byte"));
  auto m = from_doubles(ScalarType::Bool, {3}, {1, 0, 1});
  auto wrong = dynamic_out(ScalarType::Double, {3});
  EXPECT_EQ(call_kernel(kOp, {*a, *m, *wrong, *wrong}), Error::InvalidArgument);
  auto two_d = dynamic_out(ScalarType::Float, {3, 1});
  EXPECT_EQ(call_kernel(kOp, {*a, *m, *two_d, *two_d}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("out must be 1-D"));
}

}  // namespace
}  // namespace ember::testing
