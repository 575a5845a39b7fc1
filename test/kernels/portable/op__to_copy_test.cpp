// aten::_to_copy.out (kernels/portable/op__to_copy.cpp): float to int
// truncates, to Half rounds, to Bool is "!= 0".
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"

namespace ember::testing {
namespace {

TEST(ToCopy, DtypeConversions) {
  auto f = tensor<float>(ScalarType::Float, {3}, {1.7f, -2.5f, 3.0f});
  auto i = empty(ScalarType::Int, {3});
  ASSERT_EQ(call_kernel("aten::_to_copy.out", {*f, false, Arg::none(), *i, *i}), Error::Ok);
  EXPECT_EQ(i->values<int32_t>(), (std::vector<int32_t>{1, -2, 3}));
  auto h = empty(ScalarType::Half, {3});
  ASSERT_EQ(call_kernel("aten::_to_copy.out", {*f, false, Arg::none(), *h, *h}), Error::Ok);
  expect_near_vec(to_doubles(*h), {1.7, -2.5, 3.0}, 1e-3);
  auto b = empty(ScalarType::Bool, {3});
  ASSERT_EQ(call_kernel("aten::_to_copy.out", {*f, false, Arg::none(), *b, *b}), Error::Ok);
  EXPECT_EQ(to_doubles(*b), (std::vector<double>{1, 1, 1}));
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (an unsupported dtype, out shape) fails the same.
TEST(ToCopy, PreparedLikeRun) {
  auto f = tensor<float>(ScalarType::Float, {3}, {1.7f, -2.5f, 3.0f});
  auto h = empty(ScalarType::Half, {3});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::_to_copy.out", {*f, false, Arg::none(), *h, *h}).stopped);
  expect_near_vec(to_doubles(*h), {1.7, -2.5, 3.0}, 1e-3);
  auto c = empty(ScalarType::ComplexFloat, {3});
  EXPECT_NE(expect_prepared_like_run("aten::_to_copy.out", {*f, false, Arg::none(), *c, *c}).error,
            Error::Ok);
  auto wrong = empty(ScalarType::Int, {4});
  EXPECT_NE(
      expect_prepared_like_run("aten::_to_copy.out", {*f, false, Arg::none(), *wrong, *wrong})
          .error,
      Error::Ok);
  auto g = tensor<float>(ScalarType::Float, {3}, {4.f, 5.f, 6.f});
  expect_prepared_on_changed_args("aten::_to_copy.out", {*f, false, Arg::none(), *h, *h},
                                  {*g, false, Arg::none(), *h, *h});
}

}  // namespace
}  // namespace ember::testing
