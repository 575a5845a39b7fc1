// aten::slice_copy.Tensor_out (kernels/portable/op_slice_copy.cpp): Python
// slicing semantics and a step near INT64_MAX.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(SliceCopy, PythonSemantics) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto out = dynamic_out(ScalarType::Float, {2, 5});
  // a[:, 1::2]
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out",
                        {*a, 1, 1, Arg::none(), 2, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 2}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 3, 6, 8}));
  // a[:, -3:100]
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, -1, -3, 100, 1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{2, 3, 4, 7, 8, 9}));
  // a[1:0] is empty.
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, 0, 1, 0, 1, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{0, 5}));
  EXPECT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, 0, 0, 2, 0, *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::slice_copy.Tensor_out", {*a, 2, 0, 2, 1, *out, *out}),
            Error::InvalidArgument);
}

// A step near INT64_MAX: one element, not an overflow in the length or
// the stride.
TEST(SliceCopy, HugeStep) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto out = dynamic_out(ScalarType::Float, {2, 5});
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out",
                        {*a, 1, 1, Arg::none(), INT64_MAX, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{2, 1}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 6}));
  ASSERT_EQ(call_kernel("aten::slice_copy.Tensor_out",
                        {*a, 0, Arg::none(), Arg::none(), INT64_MAX, *out, *out}),
            Error::Ok);
  EXPECT_EQ(sizes_of(*out), (std::vector<SizesType>{1, 5}));
  EXPECT_EQ(out->values<float>(), (std::vector<float>{0, 1, 2, 3, 4}));
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (step, out dtype) fails the same at run. The bounds
// and the data pointer are read at every call: a start that moves (a
// decode step's position) or a rebound self gives the plain result.
TEST(SliceCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {2, 5}, iota(10));
  auto out = empty(ScalarType::Float, {2, 2});
  EXPECT_TRUE(expect_prepared_like_run("aten::slice_copy.Tensor_out",
                                       {*a, 1, 1, Arg::none(), 2, *out, *out})
                  .stopped);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 3, 6, 8}));
  EXPECT_EQ(
      expect_prepared_like_run("aten::slice_copy.Tensor_out", {*a, 1, 1, 3, 0, *out, *out}).error,
      Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 2});
  EXPECT_EQ(
      expect_prepared_like_run("aten::slice_copy.Tensor_out", {*a, 1, 1, 3, 1, *iout, *iout})
          .error,
      Error::InvalidArgument);
  auto b = tensor<float>(ScalarType::Float, {2, 5}, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  expect_prepared_on_changed_args("aten::slice_copy.Tensor_out", {*a, 1, 0, 2, 1, *out, *out},
                                  {*b, 1, 3, 5, 1, *out, *out});
  // A start that now clamps to a shorter slice fails as without prepare.
  expect_prepared_on_changed_args("aten::slice_copy.Tensor_out", {*a, 1, 0, 2, 1, *out, *out},
                                  {*a, 1, 4, 6, 1, *out, *out});
}

}  // namespace
}  // namespace ember::testing
