// aten::copy.out and aten::copy_ (kernels/portable/op_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Copy, OutAndInPlace) {
  auto self = tensor<float>(ScalarType::Float, {2, 3}, iota(6));
  auto src = tensor<int64_t>(ScalarType::Long, {3}, {7, 8, 9});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::copy.out", {*self, *src, false, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{7, 8, 9, 7, 8, 9}));
  ASSERT_EQ(call_kernel("aten::copy_", {*self, *src, false, *self}), Error::Ok);
  EXPECT_EQ(self->values<float>(), (std::vector<float>{7, 8, 9, 7, 8, 9}));
  auto bad = tensor<float>(ScalarType::Float, {2}, {1, 2});
  EXPECT_EQ(call_kernel("aten::copy_", {*self, *bad, false, *self}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
