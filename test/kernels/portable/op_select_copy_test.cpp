// aten::select_copy.int_out (kernels/portable/op_select_copy.cpp): a
// prepared kernel, called as a method with kernel prepare calls it.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// The same bytes as a plain call; a Prepare that fails (index out of
// range, out dtype) fails the same at run.
TEST(SelectCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, iota(6));
  auto out = empty(ScalarType::Float, {2});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::select_copy.int_out", {*a, 1, -1, *out, *out}).stopped);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{2, 5}));
  EXPECT_EQ(expect_prepared_like_run("aten::select_copy.int_out", {*a, 1, 3, *out, *out}).error,
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2});
  EXPECT_EQ(expect_prepared_like_run("aten::select_copy.int_out", {*a, 1, 0, *iout, *iout}).error,
            Error::InvalidArgument);
}

// The index is a value (a decode step's position, say): checked and
// applied to the current data pointer at every call.
TEST(SelectCopy, PreparedReadsIndexAndDataAtEveryCall) {
  auto a = tensor<float>(ScalarType::Float, {2, 3}, iota(6));
  auto b = tensor<float>(ScalarType::Float, {2, 3}, {9, 8, 7, 6, 5, 4});
  auto out = empty(ScalarType::Float, {2});
  expect_prepared_on_changed_args("aten::select_copy.int_out", {*a, 1, 0, *out, *out},
                                  {*b, 1, 2, *out, *out});
  EXPECT_EQ(out->values<float>(), (std::vector<float>{7, 4}));
  expect_prepared_on_changed_args("aten::select_copy.int_out", {*a, 1, 0, *out, *out},
                                  {*a, 1, 7, *out, *out});
}

}  // namespace
}  // namespace ember::testing
