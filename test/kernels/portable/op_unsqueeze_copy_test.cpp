// aten::unsqueeze_copy.out (kernels/portable/op_unsqueeze_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(UnsqueezeCopy, Dims) {
  auto in = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto u = empty(ScalarType::Float, {3, 1});
  ASSERT_EQ(call_kernel("aten::unsqueeze_copy.out", {*in, -1, *u, *u}), Error::Ok);
  EXPECT_EQ(u->values<float>(), (std::vector<float>{1, 2, 3}));
  auto u0 = empty(ScalarType::Float, {1, 3});
  ASSERT_EQ(call_kernel("aten::unsqueeze_copy.out", {*in, 0, *u0, *u0}), Error::Ok);
  EXPECT_EQ(call_kernel("aten::unsqueeze_copy.out", {*in, 2, *u0, *u0}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (dim out of range, out dtype) fails the same at run.
TEST(UnsqueezeCopy, PreparedLikeRun) {
  auto in = tensor<float>(ScalarType::Float, {3}, {1, 2, 3});
  auto u = empty(ScalarType::Float, {3, 1});
  EXPECT_TRUE(expect_prepared_like_run("aten::unsqueeze_copy.out", {*in, -1, *u, *u}).stopped);
  EXPECT_EQ(u->values<float>(), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(expect_prepared_like_run("aten::unsqueeze_copy.out", {*in, 2, *u, *u}).error,
            Error::InvalidArgument);
  auto d = empty(ScalarType::Double, {3, 1});
  EXPECT_EQ(expect_prepared_like_run("aten::unsqueeze_copy.out", {*in, 1, *d, *d}).error,
            Error::InvalidArgument);
  // dim is read at every call.
  expect_prepared_on_changed_args("aten::unsqueeze_copy.out", {*in, 1, *u, *u},
                                  {*in, 0, *u, *u});
  expect_prepared_on_changed_args("aten::unsqueeze_copy.out", {*in, 1, *u, *u},
                                  {*in, 5, *u, *u});
}

}  // namespace
}  // namespace ember::testing
