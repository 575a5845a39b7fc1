// aten::logical_not.out (kernels/portable/op_logical_not.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(LogicalNot, TruthValuesAndOutDtypes) {
  auto a = tensor<float>(ScalarType::Float, {4}, {0, 1, 0, NAN});
  auto b = tensor<int32_t>(ScalarType::Int, {4}, {0, 0, 5, 2});
  auto out = empty(ScalarType::Bool, {4});
  ASSERT_EQ(call_kernel("aten::logical_not.out", {*b, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{1, 1, 0, 0}));
  auto fout = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::logical_not.out", {*a, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1, 0, 1, 0}));
  auto wrong = empty(ScalarType::Bool, {5});
  EXPECT_NE(call_kernel("aten::logical_not.out", {*a, *wrong, *wrong}), Error::Ok);
}

}  // namespace
}  // namespace ember::testing
