// quantized_decomposed::embedding_2bit.out / .dtype_out
// (kernels/portable/op_embedding_2bit.cpp, util/quantized_embedding.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOut = "quantized_decomposed::embedding_2bit.out";
constexpr const char* kDtypeOut = "quantized_decomposed::embedding_2bit.dtype_out";

TEST(Embedding2bit, LowestBitsFirstMinusTwo) {
  // Byte 0b11'10'01'00 holds 0, 1, 2, 3 (lowest bits first): -2 .. 1.
  auto w = tensor<uint8_t>(ScalarType::Byte, {2, 1}, {0x00, 0xE4});
  auto s = tensor<float>(ScalarType::Float, {2}, {1, 0.5f});
  auto idx = tensor<int64_t>(ScalarType::Long, {1}, {1});
  auto out = empty(ScalarType::Float, {1, 4});
  ASSERT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), -2, 1, *idx, *out, *out}), Error::Ok)
      << last_error_message();
  EXPECT_EQ(out->values<float>(), (std::vector<float>{-1, -0.5f, 0, 0.5f}));
  auto z = tensor<float>(ScalarType::Float, {2}, {0, 1});
  auto half = empty(ScalarType::Half, {1, 4});
  ASSERT_EQ(call_kernel(kDtypeOut, {*w, *s, *z, -2, 1, *idx, int64_t(ScalarType::Half), *half,
                                    *half}),
            Error::Ok)
      << last_error_message();
  expect_near_vec(to_doubles(*half), std::vector<double>{-1.5, -1, -0.5, 0}, 1e-3);
}

TEST(Embedding2bit, RefusesBadArguments) {
  auto w = empty(ScalarType::Byte, {2, 1});
  auto s3 = empty(ScalarType::Float, {2, 3});  // 3 groups cannot split 4 values
  auto idx = tensor<int64_t>(ScalarType::Long, {1}, {0});
  auto out = empty(ScalarType::Float, {1, 4});
  EXPECT_EQ(call_kernel(kOut, {*w, *s3, Arg::none(), -2, 1, *idx, *out, *out}),
            Error::InvalidArgument);
  auto wc = empty(ScalarType::Char, {2, 1});
  auto s = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel(kOut, {*wc, *s, Arg::none(), -2, 1, *idx, *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
