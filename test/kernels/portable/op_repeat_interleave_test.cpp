// aten::repeat_interleave.Tensor_out (kernels/portable/op_repeat_interleave.cpp):
// output_size, the bounded-dynamic out, and the repeats checks PyTorch
// makes (1-D, integral, no negative entry).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

constexpr const char* kOp = "aten::repeat_interleave.Tensor_out";

TEST(RepeatInterleave, OutputSizeAndBound) {
  auto r = tensor<int64_t>(ScalarType::Long, {3}, {2, 0, 3});
  auto out = dynamic_out(ScalarType::Long, {8});
  ASSERT_EQ(call_kernel(kOp, {*r, Arg::none(), *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{0, 0, 2, 2, 2}));
  ASSERT_EQ(call_kernel(kOp, {*r, 5, *out, *out}), Error::Ok);
  // PyTorch: "allocated size does not match required size".
  EXPECT_EQ(call_kernel(kOp, {*r, 4, *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("output_size is 4 but the repeats add up to 5"));
  auto small = dynamic_out(ScalarType::Long, {4});
  EXPECT_NE(call_kernel(kOp, {*r, Arg::none(), *small, *small}), Error::Ok);
  auto none = tensor<int32_t>(ScalarType::Int, {0}, {});
  auto out32 = dynamic_out(ScalarType::Int, {4});
  ASSERT_EQ(call_kernel(kOp, {*none, Arg::none(), *out32, *out32}), Error::Ok);
  EXPECT_EQ(sizes_of(*out32), (std::vector<SizesType>{0}));
}

TEST(RepeatInterleave, RefusesBadRepeats) {
  auto out = dynamic_out(ScalarType::Long, {8});
  auto neg = tensor<int64_t>(ScalarType::Long, {2}, {1, -1});
  EXPECT_EQ(call_kernel(kOp, {*neg, Arg::none(), *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("repeats[1] = -1 is negative"));
  auto two_d = tensor<int64_t>(ScalarType::Long, {1, 2}, {1, 1});
  EXPECT_EQ(call_kernel(kOp, {*two_d, Arg::none(), *out, *out}), Error::InvalidArgument);
  auto scalar = tensor<int64_t>(ScalarType::Long, {}, {2});
  EXPECT_EQ(call_kernel(kOp, {*scalar, Arg::none(), *out, *out}), Error::InvalidArgument);
  auto floats = tensor<float>(ScalarType::Float, {2}, {1, 2});
  auto fout = dynamic_out(ScalarType::Float, {8});
  EXPECT_EQ(call_kernel(kOp, {*floats, Arg::none(), *fout, *fout}), Error::InvalidArgument);
  auto r = tensor<int32_t>(ScalarType::Int, {2}, {1, 2});
  EXPECT_EQ(call_kernel(kOp, {*r, Arg::none(), *out, *out}), Error::InvalidArgument);
  EXPECT_TRUE(message_has("out dtype Long differs from repeats dtype Int"));
  // A total past int32 (what a size can hold) is refused before any write.
  auto huge = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MAX, INT64_MAX});
  EXPECT_EQ(call_kernel(kOp, {*huge, Arg::none(), *out, *out}), Error::InvalidArgument);
  auto big = tensor<int32_t>(ScalarType::Int, {2}, {INT32_MAX, 1});
  auto out32 = dynamic_out(ScalarType::Int, {8});
  EXPECT_EQ(call_kernel(kOp, {*big, Arg::none(), *out32, *out32}), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
