// aten::expand_copy.out (kernels/portable/op_expand_copy.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(ExpandCopy, Broadcasts) {
  auto a = tensor<float>(ScalarType::Float, {3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {2, 3, 2});
  ASSERT_EQ(call_kernel("aten::expand_copy.out", {*a, Arg::ints({2, -1, 2}), false, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(),
            (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(call_kernel("aten::expand_copy.out", {*a, Arg::ints({2, 4, 2}), false, *out, *out}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (a size that cannot grow, out dtype) fails the same.
TEST(ExpandCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {3, 1}, {1, 2, 3});
  auto out = empty(ScalarType::Float, {2, 3, 2});
  EXPECT_TRUE(expect_prepared_like_run("aten::expand_copy.out",
                                       {*a, Arg::ints({2, -1, 2}), false, *out, *out})
                  .stopped);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(expect_prepared_like_run("aten::expand_copy.out",
                                     {*a, Arg::ints({2, 4, 2}), false, *out, *out})
                .error,
            Error::InvalidArgument);
  auto iout = empty(ScalarType::Int, {2, 3, 2});
  EXPECT_EQ(expect_prepared_like_run("aten::expand_copy.out",
                                     {*a, Arg::ints({2, 3, 2}), false, *iout, *iout})
                .error,
            Error::InvalidArgument);
  expect_prepared_on_changed_args("aten::expand_copy.out",
                                  {*a, Arg::ints({2, 3, 2}), false, *out, *out},
                                  {*a, Arg::ints({2, 3, 4}), false, *out, *out});
}

}  // namespace
}  // namespace ember::testing
