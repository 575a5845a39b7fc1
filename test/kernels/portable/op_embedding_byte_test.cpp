// quantized_decomposed::embedding_byte.out / .dtype_out
// (kernels/portable/op_embedding_byte.cpp, shared checks and maths in
// util/quantized_embedding.cpp). Values against PyTorch's reference are
// in test/models/llm_ops; here: a hand-checked lookup and the checks.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOut = "quantized_decomposed::embedding_byte.out";
constexpr const char* kDtypeOut = "quantized_decomposed::embedding_byte.dtype_out";

TEST(EmbeddingByte, GroupsZeroPointsAndIntIndices) {
  // 3 rows of 4 int8 values, two groups of 2 columns per row.
  auto w = tensor<int8_t>(ScalarType::Char, {3, 4}, {1, 2, 3, 4, -1, -2, -3, -4, 10, 20, 30, 40});
  auto s = tensor<float>(ScalarType::Float, {3, 2}, {1, 2, 0.5f, 1, 0.1f, 0.2f});
  auto z = tensor<float>(ScalarType::Float, {3, 2}, {0, 1, 1, 0, 10, 0});
  auto idx = tensor<int32_t>(ScalarType::Int, {2}, {2, 1});
  auto out = empty(ScalarType::Float, {2, 4});
  ASSERT_EQ(call_kernel(kOut, {*w, *s, *z, -128, 127, *idx, *out, *out}), Error::Ok)
      << last_error_message();
  expect_near_vec(out->values<float>(), std::vector<float>{0, 1, 6, 8, -1, -1.5f, -3, -4},
                  1e-6);
  // .dtype_out to Half, no zero points.
  auto half = empty(ScalarType::Half, {2, 4});
  ASSERT_EQ(call_kernel(kDtypeOut, {*w, *s, Arg::none(), -128, 127, *idx,
                                    int64_t(ScalarType::Half), *half, *half}),
            Error::Ok)
      << last_error_message();
  expect_near_vec(to_doubles(*half), std::vector<double>{1, 2, 6, 8, -0.5, -1, -3, -4}, 1e-3);
}

TEST(EmbeddingByte, RefusesBadArguments) {
  auto w = empty(ScalarType::Byte, {3, 4});
  auto s = empty(ScalarType::Float, {3});
  auto idx = tensor<int64_t>(ScalarType::Long, {2}, {0, 3});
  auto out = empty(ScalarType::Float, {2, 4});
  EXPECT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), 0, 255, *idx, *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("index 3 is out of range"));
  auto ok_idx = tensor<int64_t>(ScalarType::Long, {1}, {0});
  auto fidx = tensor<float>(ScalarType::Float, {1}, {0});
  EXPECT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), 0, 255, *fidx, *out, *out}),
            Error::InvalidArgument);
  auto wrong_w = empty(ScalarType::Int, {3, 4});
  EXPECT_EQ(call_kernel(kOut, {*wrong_w, *s, Arg::none(), 0, 255, *ok_idx, *out, *out}),
            Error::InvalidArgument);
  auto flat_w = empty(ScalarType::Byte, {12});
  EXPECT_EQ(call_kernel(kOut, {*flat_w, *s, Arg::none(), 0, 255, *ok_idx, *out, *out}),
            Error::InvalidArgument);
  auto few_s = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel(kOut, {*w, *few_s, Arg::none(), 0, 255, *ok_idx, *out, *out}),
            Error::InvalidArgument);
  auto three_groups = empty(ScalarType::Float, {3, 3});
  EXPECT_EQ(call_kernel(kOut, {*w, *three_groups, Arg::none(), 0, 255, *ok_idx, *out, *out}),
            Error::InvalidArgument);
  EXPECT_TRUE(message_has("groups do not divide"));
  auto z = empty(ScalarType::Float, {3, 1});
  EXPECT_EQ(call_kernel(kOut, {*w, *s, *z, 0, 255, *ok_idx, *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), 255, 0, *ok_idx, *out, *out}),
            Error::InvalidArgument);
  // .out writes the scales' dtype; .dtype_out the dtype asked for.
  auto half = empty(ScalarType::Half, {1, 4});
  EXPECT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), 0, 255, *ok_idx, *half, *half}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kDtypeOut, {*w, *s, Arg::none(), 0, 255, *ok_idx,
                                    int64_t(ScalarType::Float), *half, *half}),
            Error::InvalidArgument);
  auto ints = empty(ScalarType::Int, {1, 4});
  EXPECT_EQ(call_kernel(kDtypeOut, {*w, *s, Arg::none(), 0, 255, *ok_idx, Arg::none(), *ints,
                                    *ints}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel(kOut, {*w, *s, Arg::none(), 0, 255, *ok_idx, *out}),
            Error::InvalidProgram);
}

}  // namespace
}  // namespace ember::testing
