// aten::squeeze_copy.dims_out (kernels/portable/op_squeeze_copy.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(SqueezeCopy, Dims) {
  auto a = tensor<float>(ScalarType::Float, {1, 3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({0, -1}), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3}));
  // A listed non-1 dim is kept.
  auto keep = empty(ScalarType::Float, {3, 1});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({0, 1}), *keep, *keep}),
            Error::Ok);
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({3}), *keep, *keep}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
