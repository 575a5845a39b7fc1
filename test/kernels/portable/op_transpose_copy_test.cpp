// aten::transpose_copy.int_out (kernels/portable/op_transpose_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(TransposeCopy, TwoDAndDimOutOfRange) {
  auto a = tensor<int64_t>(ScalarType::Long, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out2 = empty(ScalarType::Long, {3, 2});
  ASSERT_EQ(call_kernel("aten::transpose_copy.int_out", {*a, -1, 0, *out2, *out2}), Error::Ok);
  EXPECT_EQ(out2->values<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(call_kernel("aten::transpose_copy.int_out", {*a, 2, 0, *out2, *out2}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (dim out of range, out dtype) fails the same at run.
TEST(TransposeCopy, PreparedLikeRun) {
  auto a = tensor<int64_t>(ScalarType::Long, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = empty(ScalarType::Long, {3, 2});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::transpose_copy.int_out", {*a, -1, 0, *out, *out}).stopped);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(expect_prepared_like_run("aten::transpose_copy.int_out", {*a, 2, 0, *out, *out}).error,
            Error::InvalidArgument);
  auto fout = empty(ScalarType::Float, {3, 2});
  EXPECT_EQ(
      expect_prepared_like_run("aten::transpose_copy.int_out", {*a, 1, 0, *fout, *fout}).error,
      Error::InvalidArgument);
  expect_prepared_on_changed_args("aten::transpose_copy.int_out", {*a, 1, 0, *out, *out},
                                  {*a, 0, 0, *out, *out});
}

}  // namespace
}  // namespace ember::testing
