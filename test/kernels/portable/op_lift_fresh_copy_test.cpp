// aten::lift_fresh_copy.out (kernels/portable/op_lift_fresh_copy.cpp).
// Exported programs never contain this operator: to_edge rewrites
// lift_fresh_copy to a clone even when it is listed in preserve_ops, so
// the op suite cannot reach it and its values are checked here. PyTorch's
// lift_fresh_copy returns a copy of self (same dtype, shape and values,
// NaN and -0.0 included), which is the expectation below.
#include <cstring>

#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(LiftFreshCopy, CopiesEveryDtypeBitForBit) {
  const float nan = std::nanf(""), inf = INFINITY;
  auto f = tensor<float>(ScalarType::Float, {2, 3}, {nan, inf, -inf, -0.0f, 1e-38f, 3.5f});
  auto fo = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::lift_fresh_copy.out", {*f, *fo, *fo}), Error::Ok);
  EXPECT_EQ(std::memcmp(f->data<float>(), fo->data<float>(), 6 * sizeof(float)), 0);
  auto l = tensor<int64_t>(ScalarType::Long, {3}, {INT64_MIN, -1, INT64_MAX});
  auto lo = empty(ScalarType::Long, {3});
  ASSERT_EQ(call_kernel("aten::lift_fresh_copy.out", {*l, *lo, *lo}), Error::Ok);
  EXPECT_EQ(lo->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, -1, INT64_MAX}));
  auto b = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto bo = empty(ScalarType::Bool, {2});
  ASSERT_EQ(call_kernel("aten::lift_fresh_copy.out", {*b, *bo, *bo}), Error::Ok);
  EXPECT_EQ(to_doubles(*bo), (std::vector<double>{1, 0}));
  auto h = from_doubles(ScalarType::Half, {2}, {0.5, -65504});
  auto ho = empty(ScalarType::Half, {2});
  ASSERT_EQ(call_kernel("aten::lift_fresh_copy.out", {*h, *ho, *ho}), Error::Ok);
  EXPECT_EQ(to_doubles(*ho), (std::vector<double>{0.5, -65504}));
  // An empty tensor.
  auto e = empty(ScalarType::Float, {0, 4});
  auto eo = empty(ScalarType::Float, {0, 4});
  EXPECT_EQ(call_kernel("aten::lift_fresh_copy.out", {*e, *eo, *eo}), Error::Ok);
}

TEST(LiftFreshCopy, DimOrderAndRefusals) {
  auto self = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto column_major = empty(ScalarType::Float, {2, 3}, ShapeDynamism::Static, {1, 0});
  ASSERT_EQ(call_kernel("aten::lift_fresh_copy.out", {*self, *column_major, *column_major}),
            Error::Ok);
  EXPECT_EQ(column_major->values<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  auto ints = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::lift_fresh_copy.out", {*self, *ints, *ints}),
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {6});
  EXPECT_EQ(call_kernel("aten::lift_fresh_copy.out", {*self, *wrong, *wrong}),
            Error::InvalidArgument);
  auto dynamic = dynamic_out(ScalarType::Float, {4, 4});
  ASSERT_EQ(call_kernel("aten::lift_fresh_copy.out", {*self, *dynamic, *dynamic}), Error::Ok);
  EXPECT_EQ(sizes_of(*dynamic), (std::vector<SizesType>{2, 3}));
}

}  // namespace
}  // namespace ember::testing
