// aten::clone.out (kernels/portable/op_clone.cpp): into a channels-last
// out, and a memory_format it does not support.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Clone, IntoChannelsLastOut) {
  auto a = tensor<float>(ScalarType::Float, {1, 2, 2, 3}, iota(12));
  // clone into a channels-last out: memory order becomes (n, h, w, c).
  auto cl = empty(ScalarType::Float, {1, 2, 2, 3}, ShapeDynamism::Static, {0, 2, 3, 1});
  ASSERT_EQ(call_kernel("aten::clone.out", {*a, Arg::none(), *cl, *cl}), Error::Ok);
  std::vector<float> want;
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 3; ++w)
      for (int c = 0; c < 2; ++c) want.push_back(float(c * 6 + h * 3 + w));
  EXPECT_EQ(cl->values<float>(), want);
  EXPECT_EQ(call_kernel("aten::clone.out", {*a, 2, *cl, *cl}), Error::NotSupported);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (out dtype, out shape) fails the same at run, and
// memory_format is checked at every call.
TEST(Clone, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {1, 2, 2, 3}, iota(12));
  auto cl = empty(ScalarType::Float, {1, 2, 2, 3}, ShapeDynamism::Static, {0, 2, 3, 1});
  EXPECT_TRUE(expect_prepared_like_run("aten::clone.out", {*a, Arg::none(), *cl, *cl}).stopped);
  auto d = empty(ScalarType::Double, {1, 2, 2, 3});
  EXPECT_EQ(expect_prepared_like_run("aten::clone.out", {*a, Arg::none(), *d, *d}).error,
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {2, 2, 3});
  EXPECT_NE(expect_prepared_like_run("aten::clone.out", {*a, Arg::none(), *wrong, *wrong}).error,
            Error::Ok);
  expect_prepared_on_changed_args("aten::clone.out", {*a, Arg::none(), *cl, *cl},
                                  {*a, 2, *cl, *cl});
}

}  // namespace
}  // namespace ember::testing
