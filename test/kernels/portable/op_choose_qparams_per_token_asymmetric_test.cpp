// quantized_decomposed::choose_qparams_per_token_asymmetric.out
// (kernels/portable/op_choose_qparams_per_token_asymmetric.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "quantized_decomposed::choose_qparams_per_token_asymmetric.out";

TEST(ChooseQparamsPerTokenAsymmetric, OneScaleAndZeroPointPerRow) {
  // Row 0 spans [-1, 1.55]: scale 2.55 / 255 = 0.01, zero point -28.
  // Row 1 is all zero: scale FLT_EPSILON; -128 + 127 is not > 0, so the
  // zero point comes from the max side: 127 (what the reference gives).
  auto x = tensor<float>(ScalarType::Float, {2, 3}, {-1.0f, 0.5f, 1.55f, 0, 0, 0});
  auto s = empty(ScalarType::Double, {2, 1});
  auto z = empty(ScalarType::Long, {2, 1});
  ASSERT_EQ(call_kernel(kOp, {*x, int64_t(ScalarType::Char), *s, *z, Arg::tensors({*s, *z})}),
            Error::Ok)
      << last_error_message();
  const std::vector<double> scales = s->values<double>();
  EXPECT_NEAR(scales[0], 0.01, 1e-8);
  EXPECT_EQ(scales[1], double(FLT_EPSILON));
  EXPECT_EQ(z->values<int64_t>(), (std::vector<int64_t>{-28, 127}));
  // The six-value form (two returned tensors) is accepted too.
  EXPECT_EQ(call_kernel(kOp, {*x, int64_t(ScalarType::Char), *s, *z, *s, *z}), Error::Ok);
}

TEST(ChooseQparamsPerTokenAsymmetric, RefusesBadArguments) {
  auto x = empty(ScalarType::Float, {2, 3});
  auto s = empty(ScalarType::Double, {2, 1});
  auto z = empty(ScalarType::Long, {2, 1});
  auto fs = empty(ScalarType::Float, {2, 1});
  EXPECT_EQ(call_kernel(kOp, {*x, int64_t(ScalarType::Char), *fs, *z, *fs, *z}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("scale_out must be Double"));
  auto ix = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel(kOp, {*ix, int64_t(ScalarType::Char), *s, *z, *s, *z}),
            Error::InvalidArgument);
  auto scalar = empty(ScalarType::Float, {});
  EXPECT_EQ(call_kernel(kOp, {*scalar, int64_t(ScalarType::Char), *s, *z, *s, *z}),
            Error::InvalidArgument);
  // Static outs of the wrong shape cannot be resized.
  auto s3 = empty(ScalarType::Double, {3, 1});
  EXPECT_EQ(call_kernel(kOp, {*x, int64_t(ScalarType::Char), *s3, *z, *s3, *z}),
            Error::NotSupported);
  EXPECT_EQ(call_kernel(kOp, {*x, int64_t(ScalarType::Char), *s, *z}), Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
