// quantized_decomposed::embedding_4bit.out / .dtype_out
// (kernels/portable/op_embedding_4bit.cpp, util/quantized_embedding.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOut = "quantized_decomposed::embedding_4bit.out";
constexpr const char* kDtypeOut = "quantized_decomposed::embedding_4bit.dtype_out";

TEST(Embedding4bit, HighNibbleFirstMinusEight) {
  // Row 1 = bytes 0x0F, 0x8A: values 0-8, 15-8, 8-8, 10-8.
  auto w = tensor<uint8_t>(ScalarType::Byte, {2, 2}, {0x00, 0xFF, 0x0F, 0x8A});
  auto s = tensor<float>(ScalarType::Float, {2}, {1, 0.5f});
  auto z = tensor<float>(ScalarType::Float, {2}, {0, 1});
  auto idx = tensor<int64_t>(ScalarType::Long, {1, 1}, {1});
  auto out = empty(ScalarType::Float, {1, 1, 4});
  ASSERT_EQ(call_kernel(kOut, {*w, *s, *z, -8, 7, *idx, *out, *out}), Error::Ok)
      << last_error_message();
  expect_near_vec(out->values<float>(), std::vector<float>{-4.5f, 3, -0.5f, 0.5f}, 1e-6);
  auto half = empty(ScalarType::Half, {1, 1, 4});
  ASSERT_EQ(call_kernel(kDtypeOut, {*w, *s, Arg::none(), -8, 7, *idx, Arg::none(), *half,
                                    *half}),
            Error::Ok)
      << last_error_message();
  expect_near_vec(to_doubles(*half), std::vector<double>{-4, 3.5, 0, 1}, 1e-3);
}

TEST(Embedding4bit, RefusesBadArguments) {
  // Signed packed weights are not an upstream layout.
  auto w = empty(ScalarType::Char, {2, 2});
  auto s = empty(ScalarType::Float, {2});
  auto idx = tensor<int64_t>(ScalarType::Long, {1}, {0});
  auto out = empty(ScalarType::Float, {1, 4});
  EXPECT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), -8, 7, *idx, *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("weight must be Byte"));
  // Groups count against the unpacked row of 4 (3 does not divide it).
  auto wb = empty(ScalarType::Byte, {2, 2});
  auto s3 = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel(kOut, {*wb, *s3, Arg::none(), -8, 7, *idx, *out, *out}),
            Error::InvalidArgument);
  auto neg = tensor<int64_t>(ScalarType::Long, {1}, {-1});
  EXPECT_EQ(call_kernel(kDtypeOut, {*wb, *s, Arg::none(), -8, 7, *neg, Arg::none(), *out,
                                    *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
