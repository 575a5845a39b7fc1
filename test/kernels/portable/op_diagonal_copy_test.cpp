// aten::diagonal_copy.out (kernels/portable/op_diagonal_copy.cpp): offsets
// at and past the plane's edges (any magnitude), dims that name the same
// dim, too few dims, and a self in another dim order.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::diagonal_copy.out";

TEST(DiagonalCopy, OffsetsAndEdges) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto out = dynamic_out(ScalarType::Float, {4});
  // torch.diagonal(torch.arange(12.).reshape(3, 4), offset)
  const std::vector<std::pair<int64_t, std::vector<float>>> cases = {
      {0, {0, 5, 10}}, {1, {1, 6, 11}}, {3, {3}},        {4, {}},
      {-1, {4, 9}},    {-2, {8}},       {-3, {}},        {INT64_MAX, {}},
      {INT64_MIN, {}}, {-100, {}},
  };
  for (const auto& [offset, want] : cases) {
    ASSERT_EQ(call_kernel(kOp, {*a, offset, 0, 1, *out, *out}), Error::Ok) << offset;
    EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{SizesType(want.size())})) << offset;
    EXPECT_EQ(out->values<float>(), want) << offset;
  }
  // Swapped dims read the transposed plane: offset 1 is now below.
  ASSERT_EQ(call_kernel(kOp, {*a, 1, 1, 0, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{4, 9}));
}

TEST(DiagonalCopy, OtherDimOrder) {
  // Logical [[0, 1, 2], [3, 4, 5]] stored column-major.
  auto a = empty(ScalarType::Int, {2, 3}, ShapeDynamism::Static, {1, 0});
  const int32_t storage[] = {0, 3, 1, 4, 2, 5};
  std::memcpy(a->data<int32_t>(), storage, sizeof(storage));
  auto out = dynamic_out(ScalarType::Int, {2});
  ASSERT_EQ(call_kernel(kOp, {*a, 1, -2, -1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{1, 5}));
}

TEST(DiagonalCopy, RefusesBadDims) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto out = dynamic_out(ScalarType::Float, {4});
  EXPECT_EQ(call_kernel(kOp, {*a, 0, 1, -1, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("diagonal dimensions cannot be identical"));
  EXPECT_EQ(call_kernel(kOp, {*a, 0, 0, 2, *out, *out}), Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOp, {*a, 0, -3, 1, *out, *out}), Error::InvalidArgument);
  auto v = tensor<float>(ScalarType::Float, {3}, iota(3));
  EXPECT_EQ(call_kernel(kOp, {*v, 0, 0, -1, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("at least 2 dims"));
  auto wrong = dynamic_out(ScalarType::Int, {4});
  EXPECT_EQ(call_kernel(kOp, {*a, 0, 0, 1, *wrong, *wrong}), Error::InvalidArgument);
  auto small = dynamic_out(ScalarType::Float, {2});
  EXPECT_NE(call_kernel(kOp, {*a, 0, 0, 1, *small, *small}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
