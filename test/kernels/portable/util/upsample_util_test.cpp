// Output size of the 2-D upsampling kernels
// (kernels/portable/util/upsample_util.h), through nearest, bilinear and
// antialiased bilinear:
// sizes whose product with N * C overflows int64 are refused.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(UpsampleUtil, OutputSizeProductOverflowRefused) {
  auto in = tensor<float>(ScalarType::Float, {3, 1, 1, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3, 1, 1, 1});
  const int64_t big = INT32_MAX;
  EXPECT_EQ(call_kernel("aten::upsample_nearest2d.vec_out",
                        {*in, Arg::ints({big, big}), Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::upsample_bilinear2d.vec_out",
                        {*in, Arg::ints({big, big}), false, Arg::none(), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::_upsample_bilinear2d_aa.out",
                        {*in, Arg::ints({big, big}), false, Arg::none(), Arg::none(), *out,
                         *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
