// aten::view_copy.out (kernels/portable/op_view_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
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

// Prepared (kernel prepare at load): the same bytes as a plain call, and a
// call whose Prepare fails (out dtype, out shape) fails the same at run.
TEST(ViewCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {2, 6}, iota(12));
  auto out = empty(ScalarType::Float, {3, 4});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::view_copy.out", {*a, Arg::ints({3, -1}), *out, *out})
          .stopped);
  EXPECT_EQ(out->values<float>(), iota(12));
  auto dout = empty(ScalarType::Double, {3, 4});
  EXPECT_EQ(expect_prepared_like_run("aten::view_copy.out", {*a, Arg::ints({3, 4}), *dout, *dout})
                .error,
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {4, 3});
  EXPECT_NE(
      expect_prepared_like_run("aten::view_copy.out", {*a, Arg::ints({3, 4}), *wrong, *wrong})
          .error,
      Error::Ok);
  // The size list is read at every call: one that no longer gives out's
  // shape fails as it would without prepare.
  expect_prepared_on_changed_args("aten::view_copy.out", {*a, Arg::ints({3, 4}), *out, *out},
                                  {*a, Arg::ints({4, 3}), *out, *out});
}

}  // namespace
}  // namespace ember::testing
