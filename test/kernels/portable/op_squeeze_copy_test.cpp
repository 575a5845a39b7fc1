// aten::squeeze_copy.dims_out and squeeze_copy.dim_out
// (kernels/portable/op_squeeze_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/portable/fft_test_util.h"

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

TEST(SqueezeCopy, Dim) {
  auto a = tensor<float>(ScalarType::Float, {2, 1, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*a, -2, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // A dim whose size is not 1 is kept: out keeps self's shape.
  auto same = empty(ScalarType::Float, {2, 1, 3});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*a, 0, *same, *same}), Error::Ok);
  EXPECT_EQ(same->values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  // Into an out of another dim order.
  auto column_major = empty(ScalarType::Float, {2, 3}, ShapeDynamism::Static, {1, 0});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*a, 1, *column_major, *column_major}),
            Error::Ok);
  EXPECT_EQ(column_major->values<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  // A zero-dim self takes dim 0 or -1 and stays zero-dim.
  auto scalar = tensor<float>(ScalarType::Float, {}, {7});
  auto scalar_out = empty(ScalarType::Float, {});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*scalar, -1, *scalar_out, *scalar_out}),
            Error::Ok);
  EXPECT_EQ(scalar_out->values<float>(), (std::vector<float>{7}));
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*scalar, 1, *scalar_out, *scalar_out}),
            Error::InvalidArgument);
  // Refusals: dim out of range, out dtype, a static out of the wrong shape.
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*a, 3, *out, *out}),
            Error::InvalidArgument);
  auto ints = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*a, 1, *ints, *ints}),
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*a, 1, *wrong, *wrong}),
            Error::NotSupported);
}

TEST(SqueezeCopy, ComplexElements) {
  const std::vector<double> values = {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6};
  auto a = fft_tensor(ScalarType::ComplexFloat, {1, 2, 3}, values, {2, 0, 1});
  auto out = fft_out(ScalarType::ComplexFloat, {2, 3});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({0}), *out, *out}),
            Error::Ok)
      << last_error_message();
  EXPECT_EQ(fft_values(*out), values);
  auto d = fft_tensor(ScalarType::ComplexDouble, {2, 1}, {0.5, 1.5, -2.5, 3.5});
  auto d_out = fft_out(ScalarType::ComplexDouble, {2});
  ASSERT_EQ(call_kernel("aten::squeeze_copy.dim_out", {*d, 1, *d_out, *d_out}), Error::Ok);
  EXPECT_EQ(fft_values(*d_out), (std::vector<double>{0.5, 1.5, -2.5, 3.5}));
  auto real = empty(ScalarType::Float, {2, 3});
  EXPECT_EQ(call_kernel("aten::squeeze_copy.dims_out", {*a, Arg::ints({0}), *real, *real}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (dim out of range, out dtype) fails the same at run.
TEST(SqueezeCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {1, 3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {3});
  EXPECT_TRUE(expect_prepared_like_run("aten::squeeze_copy.dims_out",
                                       {*a, Arg::ints({0, -1}), *out, *out})
                  .stopped);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3}));
  auto keep = empty(ScalarType::Float, {3, 1});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::squeeze_copy.dim_out", {*a, 0, *keep, *keep}).stopped);
  EXPECT_EQ(keep->values<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(expect_prepared_like_run("aten::squeeze_copy.dims_out",
                                     {*a, Arg::ints({3}), *keep, *keep})
                .error,
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {3});
  EXPECT_EQ(expect_prepared_like_run("aten::squeeze_copy.dim_out", {*a, 0, *iout, *iout}).error,
            Error::InvalidArgument);
  // dim is read at every call: another dim that gives another shape fails
  // as it would without prepare.
  expect_prepared_on_changed_args("aten::squeeze_copy.dim_out", {*a, 0, *keep, *keep},
                                  {*a, 2, *keep, *keep});
}

}  // namespace
}  // namespace ember::testing
