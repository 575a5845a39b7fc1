// aten::where.self_out (kernels/portable/op_where.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(Where, BroadcastAndPromote) {
  auto cond = from_doubles(ScalarType::Bool, {2, 1}, {1, 0});
  auto x = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto y = tensor<float>(ScalarType::Float, {2, 3}, {10, 20, 30, 40, 50, 60});
  auto out = empty(ScalarType::Float, {2, 3});
  ASSERT_EQ(call_kernel("aten::where.self_out", {*cond, *x, *y, *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 3, 40, 50, 60}));
  auto fcond = tensor<float>(ScalarType::Float, {2, 1}, {1, 0});
  EXPECT_EQ(call_kernel("aten::where.self_out", {*fcond, *x, *y, *out, *out}),
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(call_kernel("aten::where.self_out", {*cond, *x, *y, *iout, *iout}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call, also
// when the tensors' data change after Prepare; a Prepare that fails (out
// dtype) fails the same at run.
TEST(Where, PreparedLikeRun) {
  const char* op = "aten::where.self_out";
  auto cond = from_doubles(ScalarType::Bool, {2, 1}, {1, 0});
  auto cond2 = from_doubles(ScalarType::Bool, {2, 1}, {0, 1});
  auto x = tensor<int32_t>(ScalarType::Int, {3}, {1, 2, 3});
  auto y = tensor<float>(ScalarType::Float, {2, 3}, {10, 20, 30, 40, 50, 60});
  auto out = empty(ScalarType::Float, {2, 3});
  EXPECT_TRUE(expect_prepared_like_run(op, {*cond, *x, *y, *out, *out}).stopped);
  expect_prepared_on_changed_args(op, {*cond, *x, *y, *out, *out},
                                  {*cond2, *x, *y, *out, *out});
  auto iout = empty(ScalarType::Int, {2, 3});
  EXPECT_EQ(expect_prepared_like_run(op, {*cond, *x, *y, *iout, *iout}).error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
