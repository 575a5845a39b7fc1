// aten::lift_fresh_copy.out (kernels/portable/op_lift_fresh_copy.cpp): what
// an exported program cannot express: a copy into an out of another dim
// order or a bounded-dynamic out, and the refusals (out dtype differs from
// self's, out of another rank). Values and dtypes: the op suite
// (lift_fresh_copy__*, written back from the clone export makes of it).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

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
