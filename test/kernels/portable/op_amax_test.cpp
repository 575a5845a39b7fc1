// aten::amax.out (kernels/portable/op_amax.cpp): a dim out of range.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Amax, DimOutOfRangeRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto s = empty(ScalarType::Float, {1});
  EXPECT_EQ(call_kernel("aten::amax.out", {*in, Arg::ints({4}), false, *s, *s}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; dims
// and keepdim are read at every call, and a zero-size reduction they
// select is refused as in a plain call.
TEST(Amax, PreparedLikeRun) {
  const char* op = "aten::amax.out";
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, wave(24, 3));
  auto out = empty(ScalarType::Float, {2, 4});
  EXPECT_TRUE(expect_prepared_like_run(op, {*a, Arg::ints({1}), false, *out, *out}).stopped);
  expect_prepared_on_changed_args(op, {*a, Arg::ints({1}), false, *out, *out},
                                  {*a, Arg::ints({-2}), false, *out, *out});
  expect_prepared_on_changed_args(op, {*a, Arg::ints({1}), false, *out, *out},
                                  {*a, Arg::ints({1}), true, *out, *out});
  auto e = empty(ScalarType::Float, {2, 0, 4});
  auto eo = empty(ScalarType::Float, {0, 4});
  expect_prepared_on_changed_args(op, {*e, Arg::ints({0}), false, *eo, *eo},
                                  {*e, Arg::ints({1}), false, *eo, *eo});
  auto io = empty(ScalarType::Int, {2, 4});
  EXPECT_EQ(expect_prepared_like_run(op, {*a, Arg::ints({1}), false, *io, *io}).error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
