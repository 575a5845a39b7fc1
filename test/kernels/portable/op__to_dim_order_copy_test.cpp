// dim_order_ops::_to_dim_order_copy.out
// (kernels/portable/op__to_dim_order_copy.cpp): between contiguous and
// channels-last with a dtype change, and a dim_order that disagrees with
// out.
#include <algorithm>

#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(ToDimOrderCopy, ContiguousAndChannelsLast) {
  auto a = tensor<float>(ScalarType::Float, {1, 2, 2, 3}, iota(12));
  // The channels-last layout of `a`: memory order (n, h, w, c).
  std::vector<float> want;
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 3; ++w)
      for (int c = 0; c < 2; ++c) want.push_back(float(c * 6 + h * 3 + w));
  auto cl = empty(ScalarType::Float, {1, 2, 2, 3}, ShapeDynamism::Static, {0, 2, 3, 1});
  std::copy(want.begin(), want.end(), cl->data<float>());

  // Back to contiguous with a dtype change.
  auto back = empty(ScalarType::Double, {1, 2, 2, 3});
  ASSERT_EQ(call_kernel("dim_order_ops::_to_dim_order_copy.out",
                        {*cl, false, Arg::ints({0, 1, 2, 3}), *back, *back}),
            Error::Ok);
  const std::vector<float> seq = iota(12);
  EXPECT_EQ(back->values<double>(), std::vector<double>(seq.begin(), seq.end()));
  // dim_order argument that disagrees with out.
  EXPECT_EQ(call_kernel("dim_order_ops::_to_dim_order_copy.out",
                        {*cl, false, Arg::ints({0, 2, 3, 1}), *back, *back}),
            Error::InvalidArgument);
  // Contiguous into channels-last.
  auto cl2 = empty(ScalarType::Float, {1, 2, 2, 3}, ShapeDynamism::Static, {0, 2, 3, 1});
  ASSERT_EQ(call_kernel("dim_order_ops::_to_dim_order_copy.out",
                        {*a, false, Arg::ints({0, 2, 3, 1}), *cl2, *cl2}),
            Error::Ok);
  EXPECT_EQ(cl2->values<float>(), want);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (dim_order against out, out shape) fails the same,
// and dim_order is checked at every call.
TEST(ToDimOrderCopy, PreparedLikeRun) {
  auto a = tensor<float>(ScalarType::Float, {1, 2, 2, 3}, iota(12));
  auto cl = empty(ScalarType::Double, {1, 2, 2, 3}, ShapeDynamism::Static, {0, 2, 3, 1});
  const char* op = "dim_order_ops::_to_dim_order_copy.out";
  EXPECT_TRUE(
      expect_prepared_like_run(op, {*a, false, Arg::ints({0, 2, 3, 1}), *cl, *cl}).stopped);
  EXPECT_EQ(expect_prepared_like_run(op, {*a, false, Arg::ints({0, 1, 2, 3}), *cl, *cl}).error,
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {1, 2, 3, 2});
  EXPECT_NE(expect_prepared_like_run(op, {*a, false, Arg::none(), *wrong, *wrong}).error,
            Error::Ok);
  expect_prepared_on_changed_args(op, {*a, false, Arg::ints({0, 2, 3, 1}), *cl, *cl},
                                  {*a, false, Arg::ints({0, 1, 2, 3}), *cl, *cl});
}

}  // namespace
}  // namespace ember::testing
