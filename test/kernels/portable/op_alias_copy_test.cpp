// aten::alias_copy.out (kernels/portable/op_alias_copy.cpp): what an exported program
// cannot express: a copy into an out of another dim order, and the
// refusals (out dtype differs from self's, a static out of the wrong
// shape). Values and dtypes: the op suite (alias_copy__*).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(AliasCopy, DimOrderAndRefusals) {
  auto self = tensor<float>(ScalarType::Float, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto column_major = empty(ScalarType::Float, {2, 3}, ShapeDynamism::Static, {1, 0});
  ASSERT_EQ(call_kernel("aten::alias_copy.out", {*self, *column_major, *column_major}), Error::Ok);
  EXPECT_EQ(column_major->values<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  auto wide = empty(ScalarType::Double, {2, 3});
  EXPECT_EQ(call_kernel("aten::alias_copy.out", {*self, *wide, *wide}), Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(call_kernel("aten::alias_copy.out", {*self, *wrong, *wrong}), Error::NotSupported);
}

}  // namespace
}  // namespace ember::testing
