// aten::native_group_norm.out (kernels/portable/op_native_group_norm.cpp):
// shape arguments that do not describe the input are refused.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
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

// Prepared (kernel prepare at load): the same bytes as a plain call, with
// and without weight and bias. N, C, HxW and group are read at every call:
// values that do not describe the input, or a group count that gives
// another statistics shape, give what a plain call gives.
TEST(NativeGroupNorm, PreparedLikeRun) {
  const char* op = "aten::native_group_norm.out";
  for (ScalarType type : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    auto in = from_doubles(type, {2, 4, 3}, wave(24, 3));
    auto w = from_doubles(type, {4}, wave(4, 1));
    auto b = from_doubles(type, {4}, wave(4, 0.5));
    auto out = empty(type, {2, 4, 3});
    auto m = empty(type, {2, 2}), r = empty(type, {2, 2});
    const auto args = [&](int64_t hw, int64_t group) {
      return std::vector<Arg>{*in, *w, *b, int64_t(2), int64_t(4), hw, group, 1e-5,
                              *out, *m, *r, *out, *m, *r};
    };
    EXPECT_TRUE(expect_prepared_like_run(op, args(3, 2)).stopped);
    EXPECT_TRUE(expect_prepared_like_run(op, {*in, Arg::none(), Arg::none(), int64_t(2),
                                              int64_t(4), int64_t(3), int64_t(2), 1e-5, *out,
                                              *m, *r, *out, *m, *r})
                    .stopped);
    expect_prepared_on_changed_args(op, args(3, 2), args(3, 4));  // stats [2, 4]
    expect_prepared_on_changed_args(op, args(3, 2), args(3, 3));  // 3 does not divide 4
    expect_prepared_on_changed_args(op, args(3, 2), args(5, 2));  // HxW
    EXPECT_EQ(expect_prepared_like_run(op, args(3, 3)).error, Error::InvalidArgument);
  }
}

}  // namespace
}  // namespace ember::testing
