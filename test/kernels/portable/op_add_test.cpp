// aten::add.out and aten::add.Scalar_out (kernels/portable/op_add.cpp):
// alpha, integer wrap-around, result dtypes, Bool rules, errors, resizing
// and dim orders. Broadcasting against a reference loop and the dtype
// sweep are in util/elementwise_test.cpp and util/arithmetic_test.cpp.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(Add, FloatSameShape) {
  auto a = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto b = tensor<float>(ScalarType::Float, {2, 2}, {10, 20, 30, 40});
  auto out = empty(ScalarType::Float, {2, 2});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{11, 22, 33, 44}));
}

TEST(Add, Alpha) {
  auto a = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto b = tensor<float>(ScalarType::Float, {3}, {1, 1, 1});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 2.5, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{3.5f, 4.5f, 5.5f}));
}

TEST(Add, IntPlusIntStaysIntAndWraps) {
  auto a = tensor<int8_t>(ScalarType::Char, {2}, {100, -100});
  auto b = tensor<int8_t>(ScalarType::Char, {2}, {100, -100});
  auto out = empty(ScalarType::Char, {2});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int8_t>(), (std::vector<int8_t>{-56, 56}));
  auto big = tensor<int64_t>(ScalarType::Long, {1}, {INT64_MAX});
  auto out64 = empty(ScalarType::Long, {1});
  ASSERT_EQ(call_kernel("aten::add.out", {*big, *big, 1, *out64, *out64}), Error::Ok);
  EXPECT_EQ(out64->values<int64_t>()[0], -2);
}

TEST(Add, IntOutFromLongIsAllowedCast) {
  // Long result written into an Int out (integral narrowing is allowed).
  auto a = tensor<int64_t>(ScalarType::Long, {2}, {1, 2});
  auto b = tensor<int32_t>(ScalarType::Int, {2}, {3, 4});
  auto out = empty(ScalarType::Int, {2});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{4, 6}));
}

TEST(Add, ZeroDimTensorDoesNotPromoteSameCategory) {
  // int32 [3] + int64 0-dim -> int32; float [2] * double 0-dim -> float.
  auto a = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto s = tensor<int64_t>(ScalarType::Long, {}, {5});
  auto out = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *s, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int32_t>(), (std::vector<int32_t>{6, 7, 8}));
  // A 0-dim float with an int tensor still promotes to float.
  auto f = tensor<float>(ScalarType::Float, {}, {0.5f});
  auto fout = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *f, 1, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1.5f, 2.5f, 3.5f}));
}

TEST(Add, BoolRules) {
  auto a = from_doubles(ScalarType::Bool, {4}, {0, 1, 0, 1});
  auto b = from_doubles(ScalarType::Bool, {4}, {0, 0, 1, 1});
  auto out = empty(ScalarType::Bool, {4});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, true, *out, *out}), Error::Ok);
  EXPECT_EQ(to_doubles(*out), (std::vector<double>{0, 1, 1, 1}));
  // Bool alpha with a non-bool result, float alpha with an integral one: error.
  auto i = tensor<int32_t>(ScalarType::Int, {4}, {1, 2, 3, 4});
  auto iout = empty(ScalarType::Int, {4});
  EXPECT_EQ(call_kernel("aten::add.out", {*i, *i, true, *iout, *iout}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::add.out", {*i, *i, 1.5, *iout, *iout}),
            Error::InvalidArgument);
  // Bool + Int promotes to Int.
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *i, 1, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), (std::vector<int32_t>{1, 3, 3, 5}));
}

TEST(Add, ScalarOverload) {
  auto i = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  // int tensor + int scalar -> int
  auto iout = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::add.Scalar_out", {*i, 10, 2, *iout, *iout}), Error::Ok);
  EXPECT_EQ(iout->values<int32_t>(), (std::vector<int32_t>{21, 22, 23}));
  // int tensor + float scalar -> float
  auto fout = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::add.Scalar_out", {*i, 0.5, 1, *fout, *fout}), Error::Ok);
  EXPECT_EQ(fout->values<float>(), (std::vector<float>{1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(call_kernel("aten::add.Scalar_out", {*i, 0.5, 1, *iout, *iout}),
            Error::InvalidArgument);
  // A scalar out of the int8 range is refused rather than wrapped.
  auto c = tensor<int8_t>(ScalarType::Char, {1}, {1});
  auto cout = empty(ScalarType::Char, {1});
  EXPECT_EQ(call_kernel("aten::add.Scalar_out", {*c, 1000, 1, *cout, *cout}),
            Error::InvalidArgument);
}

TEST(Add, ShapeMismatchNamesTheOperator) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, std::vector<float>(6, 1));
  auto b = tensor<float>(ScalarType::Float, {4}, std::vector<float>(4, 1));
  auto out = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}),
            Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("aten::add.out"),
            std::string::npos);
}

TEST(Add, DynamicOutIsResized) {
  auto a = tensor<float>(ScalarType::Float, {2, 1}, {1, 2});
  auto b = tensor<float>(ScalarType::Float, {1, 3}, {10, 20, 30});
  auto out = dynamic_out(ScalarType::Float, {4, 4});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 3}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{11, 21, 31, 12, 22, 32}));
  // Too large for the bound.
  auto big = tensor<float>(ScalarType::Float, {1, 17}, std::vector<float>(17, 0));
  EXPECT_NE(call_kernel("aten::add.out", {*a, *big, 1, *out, *out}), Error::Ok);
}

TEST(Add, ChannelsLastOperands) {
  // [1, 2, 2, 2] in dim order (0, 2, 3, 1) for self, other and out.
  const std::vector<DimOrderType> cl = {0, 2, 3, 1};
  auto a = std::make_unique<OwnedTensor>(ScalarType::Float,
                                         std::vector<SizesType>{1, 2, 2, 2}, cl);
  auto b = std::make_unique<OwnedTensor>(ScalarType::Float,
                                         std::vector<SizesType>{1, 2, 2, 2}, cl);
  auto out = std::make_unique<OwnedTensor>(ScalarType::Float,
                                           std::vector<SizesType>{1, 2, 2, 2}, cl);
  for (int i = 0; i < 8; ++i) {
    a->data<float>()[i] = float(i);
    b->data<float>()[i] = float(10 * i);
  }
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *b, 1, *out, *out}), Error::Ok);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out->data<float>()[i], float(11 * i));
  }
  // Contiguous `other` broadcast against channels-last `self`: logical
  // element (c, h, w) of self sits at memory h*4 + w*2 + c.
  auto bias = tensor<float>(ScalarType::Float, {2, 1, 1}, {100, 200});
  ASSERT_EQ(call_kernel("aten::add.out", {*a, *bias, 1, *out, *out}), Error::Ok);
  for (int i = 0; i < 8; ++i) {
    const int c = i % 2;
    EXPECT_EQ(out->data<float>()[i], float(i) + (c == 0 ? 100 : 200));
  }
}

}  // namespace
}  // namespace ember::testing
