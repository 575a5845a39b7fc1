// aten::native_group_norm.out (kernels/portable/op_native_group_norm.cpp):
// shape arguments that do not describe the input are refused.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// N, C, HxW that do not describe the input.
TEST(NativeGroupNorm, ShapeArgumentsMustDescribeInput) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto out = empty(ScalarType::Float, {1, 1, 2, 2}, ShapeDynamism::DynamicBound);
  auto m = empty(ScalarType::Float, {1, 1});
  EXPECT_EQ(call_kernel("aten::native_group_norm.out",
                        {*in, Arg::none(), Arg::none(), int64_t(1), int64_t(1), int64_t(99),
                         int64_t(1), 1e-5, *out, *m, *m, *out}),
            Error::InvalidArgument);
}

// With C = 0 every group count divides C; a count past int32 used to
// size out1/out2 truncated and then be written past their end.
TEST(NativeGroupNorm, HugeGroupCountRefused) {
  auto in = empty(ScalarType::Float, {1, 0, 2});
  auto out = empty(ScalarType::Float, {1, 0, 2});
  auto stat = empty(ScalarType::Float, {1, 1});
  EXPECT_EQ(call_kernel("aten::native_group_norm.out",
                        {*in, Arg::none(), Arg::none(), int64_t(1), int64_t(0), int64_t(2),
                         (int64_t(1) << 32) + 1, 1e-5, *out, *stat, *stat, *out, *stat,
                         *stat}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
