// Shared body of the binary logical kernels
// (kernels/portable/util/logical.h), through logical_and and logical_or:
// operands read as truth values (NaN is true).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Logical, AndOrReadTruthValues) {
  auto a = tensor<float>(ScalarType::Float, {4}, {0, 1, 0, NAN});
  auto b = tensor<int32_t>(ScalarType::Int, {4}, {0, 0, 5, 2});
  auto out = empty(ScalarType::Bool, {4});
  ASSERT_EQ(call_kernel("aten::logical_and.out", {*a, *b, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 0, 0, 1}));
  ASSERT_EQ(call_kernel("aten::logical_or.out", {*a, *b, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 1, 1, 1}));
}

}  // namespace
}  // namespace ember::testing
