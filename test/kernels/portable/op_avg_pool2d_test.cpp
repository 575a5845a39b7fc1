// aten::avg_pool2d.out (kernels/portable/op_avg_pool2d.cpp): hostile
// arguments the generated suite cannot hold.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// Negative and huge kernel sizes, zero divisor.
TEST(AvgPool2d, HostileArgumentsRefused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto out = empty(ScalarType::Float, {1, 1, 2, 2}, ShapeDynamism::DynamicBound);
  EXPECT_EQ(call_kernel("aten::avg_pool2d.out",
                        {*in, Arg::ints({-2, 2}), Arg::ints({}), Arg::ints({0}), false, true,
                         Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::avg_pool2d.out",
                        {*in, Arg::ints({int64_t(1) << 40}), Arg::ints({}), Arg::ints({0}),
                         false, true, Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::avg_pool2d.out",
                        {*in, Arg::ints({2}), Arg::ints({}), Arg::ints({0}), false, true,
                         int64_t(0), *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
