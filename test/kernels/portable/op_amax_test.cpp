// aten::amax.out (kernels/portable/op_amax.cpp): a dim out of range.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Amax, DimOutOfRangeRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto s = empty(ScalarType::Float, {1});
  EXPECT_EQ(call_kernel("aten::amax.out", {*in, Arg::ints({4}), false, *s, *s}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
