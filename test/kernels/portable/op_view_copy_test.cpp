// aten::view_copy.out (kernels/portable/op_view_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(ViewCopy, InferredDimAndErrors) {
  auto a = tensor<float>(ScalarType::Float, {2, 6}, iota(12));
  auto out = empty(ScalarType::Float, {3, 4});
  ASSERT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({3, -1}), *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), iota(12));
  EXPECT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({5, -1}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({4, 4}), *out, *out}),
            Error::InvalidArgument);
  auto dout = empty(ScalarType::Double, {3, 4});
  EXPECT_EQ(call_kernel("aten::view_copy.out", {*a, Arg::ints({3, 4}), *dout, *dout}),
            Error::InvalidArgument);
}

// Sizes whose product overflows int64 are refused, not multiplied.
TEST(ViewCopy, HugeSizesRefused) {
  auto a = tensor<float>(ScalarType::Float, {2, 6}, iota(12));
  auto out = empty(ScalarType::Float, {3, 4});
  const int64_t big = INT32_MAX;
  EXPECT_EQ(call_kernel("aten::view_copy.out",
                        {*a, Arg::ints({big, big, big, 12}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::view_copy.out",
                        {*a, Arg::ints({-1, big, big, big}), *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
