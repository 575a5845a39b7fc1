// aten::as_strided_copy.out (kernels/portable/op_as_strided_copy.cpp): the
// bounds a program cannot be allowed to pass (reads past self, negative
// strides and offsets, overflowing extents) and what PyTorch accepts at
// the edges (a 0-d result, an empty result at any offset).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::as_strided_copy.out";

TEST(AsStridedCopy, ReadsStorageThroughSizesAndStrides) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto out = empty(ScalarType::Float, {3, 3});
  // torch.as_strided(torch.arange(12.).reshape(3, 4), (3, 3), (2, 1), 1)
  ASSERT_EQ(call_kernel(kOp, {*a, Arg::ints({3, 3}), Arg::ints({2, 1}), 1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 3, 4, 5, 5, 6, 7}));
  // No storage_offset: element 0. The last element of self is in reach.
  auto col = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel(kOp, {*a, Arg::ints({3}), Arg::ints({5}), Arg::none(), *col, *col}),
            Error::Ok);
  EXPECT_EQ(col->values<float>(), (std::vector<float>{0, 5, 10}));
  // A static out of another shape cannot take the result.
  EXPECT_NE(call_kernel(kOp, {*a, Arg::ints({2}), Arg::ints({8}), 3, *col, *col}), Error::Ok);
  auto two = empty(ScalarType::Float, {2});
  ASSERT_EQ(call_kernel(kOp, {*a, Arg::ints({2}), Arg::ints({8}), 3, *two, *two}), Error::Ok);
  EXPECT_EQ(two->values<float>(), (std::vector<float>{3, 11}));
}

TEST(AsStridedCopy, ZeroDimAndEmptyResults) {
  auto a = tensor<int32_t>(ScalarType::Int, {2, 3}, {0, 1, 2, 3, 4, 5});
  // torch.as_strided(a, (), (), 5) -> tensor(5)
  auto scalar = empty(ScalarType::Int, {});
  ASSERT_EQ(call_kernel(kOp, {*a, Arg::ints({}), Arg::ints({}), 5, *scalar, *scalar}),
            Error::Ok);
  EXPECT_EQ(scalar->values<int32_t>(), (std::vector<int32_t>{5}));
  EXPECT_EQ(call_kernel(kOp, {*a, Arg::ints({}), Arg::ints({}), 6, *scalar, *scalar}),
            Error::InvalidArgument);
  // An empty result reads nothing: PyTorch accepts any offset.
  auto none = empty(ScalarType::Int, {0, 4});
  ASSERT_EQ(call_kernel(kOp, {*a, Arg::ints({0, 4}), Arg::ints({1, INT64_MAX}), 1000, *none,
                              *none}),
            Error::Ok);
  // An empty self allows only empty results.
  auto e = empty(ScalarType::Int, {0});
  auto one = empty(ScalarType::Int, {1});
  EXPECT_EQ(call_kernel(kOp, {*e, Arg::ints({1}), Arg::ints({1}), 0, *one, *one}),
            Error::InvalidArgument);
}

TEST(AsStridedCopy, RefusesReadsOutsideSelf) {
  auto a = tensor<float>(ScalarType::Float, {3, 4}, iota(12));
  auto out = dynamic_out(ScalarType::Float, {16});
  const auto call = [&](std::vector<int64_t> size, std::vector<int64_t> stride, Arg offset) {
    return call_kernel(kOp, {*a, Arg::ints(size), Arg::ints(stride), offset, *out, *out});
  };
  // One past the end, through the stride or through the offset.
  EXPECT_EQ(call({2}, {12}, 0), Error::InvalidArgument);
  EXPECT_TRUE(message_has("reach past self's 12 elements"));
  EXPECT_EQ(call({1}, {1}, 12), Error::InvalidArgument);
  EXPECT_EQ(call({4}, {3}, 3), Error::InvalidArgument);
  EXPECT_EQ(call({4}, {3}, 2), Error::Ok);
  // Extents that overflow int64 are past the end too.
  EXPECT_EQ(call({2}, {INT64_MAX}, 0), Error::InvalidArgument);
  EXPECT_EQ(call({3}, {INT64_MAX / 2 + 1}, 0), Error::InvalidArgument);
  EXPECT_EQ(call({2}, {1}, INT64_MAX), Error::InvalidArgument);
  EXPECT_EQ(call({2, 2}, {INT64_MAX / 2, INT64_MAX / 2}, 2), Error::InvalidArgument);
  // Negative strides, offsets and sizes are refused like in PyTorch.
  EXPECT_EQ(call({2}, {-1}, 3), Error::InvalidArgument);
  EXPECT_TRUE(message_has("stride[0] = -1 is negative"));
  EXPECT_EQ(call({2}, {1}, -1), Error::InvalidArgument);
  EXPECT_TRUE(message_has("storage_offset -1 is negative"));
  EXPECT_EQ(call({-2}, {1}, 0), Error::InvalidArgument);
  EXPECT_EQ(call({int64_t(INT32_MAX) + 1}, {0}, 0), Error::InvalidArgument);
  // size and stride must pair up.
  EXPECT_EQ(call({2, 2}, {1}, 0), Error::InvalidArgument);
  EXPECT_TRUE(message_has("size has 2 entries but stride has 1"));
  // More elements than out's bound.
  EXPECT_NE(call({17}, {0}, 0), Error::Ok);
}

TEST(AsStridedCopy, OutMustMatchSelfDtype) {
  auto a = tensor<float>(ScalarType::Float, {4}, iota(4));
  auto out = empty(ScalarType::Double, {2});
  EXPECT_EQ(call_kernel(kOp, {*a, Arg::ints({2}), Arg::ints({1}), 0, *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
