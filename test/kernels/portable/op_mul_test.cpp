// aten::mul.out and aten::mul.Scalar_out (kernels/portable/op_mul.cpp).
// The promotion table is checked through mul in
// util/type_promotion_test.cpp.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Mul, ScalarOverload) {
  auto i = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto fout = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::mul.Scalar_out", {*i, 1.5, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1.5f, 3, 4.5f}));
  // Half tensor * float scalar stays Half.
  auto h = from_doubles(ScalarType::Half, {2}, {2, 3});
  auto hout = empty(ScalarType::Half, {2});
  ASSERT_EQ(call_kernel("aten::mul.Scalar_out", {*h, 0.5, *hout, *hout}), Error::Ok);
  EXPECT_EQ(to_doubles(*hout), (std::vector<double>{1, 1.5}));
  // Bool tensor * int scalar -> Long.
  auto bt = from_doubles(ScalarType::Bool, {2}, {1, 0});
  auto lout = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::mul.Scalar_out", {*bt, 7, *lout, *lout}), Error::Ok);
  EXPECT_EQ(lout->values<int64_t>(), (std::vector<int64_t>{7, 0}));
}

TEST(Mul, Errors) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, std::vector<float>(6, 1));
  auto out = empty(ScalarType::Float, {2, 3});
  // Static out of the wrong shape cannot be resized.
  auto c = tensor<float>(ScalarType::Float, {2, 3}, std::vector<float>(6, 1));
  auto wrong = empty(ScalarType::Float, {3, 2});
  EXPECT_NE(call_kernel("aten::mul.out", {*a, *c, *wrong, *wrong}), Error::Ok);
  // Wrong argument count and wrong tag.
  EXPECT_EQ(call_kernel("aten::mul.out", {*a, *c, *out}), Error::InvalidProgram);
  EXPECT_EQ(call_kernel("aten::mul.out", {*a, 3, *out, *out}), Error::InvalidType);
}

}  // namespace
}  // namespace ember::testing
