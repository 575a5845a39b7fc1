// aten::_adaptive_avg_pool2d.out
// (kernels/portable/op__adaptive_avg_pool2d.cpp): output sizes that do
// not fit are refused.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// An output size past int32.
TEST(AdaptiveAvgPool2d, OutputSizePastInt32Refused) {
  auto in = from_doubles(ScalarType::Float, {1, 1, 4, 4}, wave(16, 1));
  auto out = empty(ScalarType::Float, {1, 1, 2, 2}, ShapeDynamism::DynamicBound);
  EXPECT_EQ(call_kernel("aten::_adaptive_avg_pool2d.out",
                        {*in, Arg::ints({int64_t(1) << 33, 2}), *out, *out}),
            Error::InvalidArgument);
}

// Output sizes whose product with N * C overflows int64: refused.
TEST(AdaptiveAvgPool2d, OutputSizeProductOverflowRefused) {
  auto in = tensor<float>(ScalarType::Float, {3, 1, 1, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3, 1, 1, 1});
  const int64_t big = INT32_MAX;
  EXPECT_EQ(call_kernel("aten::_adaptive_avg_pool2d.out",
                        {*in, Arg::ints({big, big}), *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
