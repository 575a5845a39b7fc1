// aten::addmm.out (kernels/portable/op_addmm.cpp): beta, alpha and bias
// broadcasting against a reference loop.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Addmm, BetaAlphaAndBiasBroadcast) {
  const int m = 5, k = 4, n = 6;
  const auto av = pattern(m * k, 9, 1), bv = pattern(k * n, 7, 0.5), biasv = pattern(n, 5, 2);
  auto a = from_doubles(ScalarType::Float, {m, k}, av);
  auto b = from_doubles(ScalarType::Float, {k, n}, bv);
  auto bias = from_doubles(ScalarType::Float, {n}, biasv);
  auto out = empty(ScalarType::Float, {m, n});
  ASSERT_EQ(call_kernel("aten::addmm.out", {*bias, *a, *b, 0.5, 2, *out, *out}), Error::Ok);
  auto want = ref_mm(m, k, n, av, bv);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) want[i * n + j] = 0.5 * biasv[j] + 2 * want[i * n + j];
  expect_near_vec(to_doubles(*out), want, 1e-4);
  // beta = 0 ignores NaN in self.
  auto nan_bias = tensor<float>(ScalarType::Float, {1}, {NAN});
  ASSERT_EQ(call_kernel("aten::addmm.out", {*nan_bias, *a, *b, 0, 1, *out, *out}), Error::Ok);
  expect_near_vec(to_doubles(*out), ref_mm(m, k, n, av, bv), 1e-4);
  auto bad_bias = from_doubles(ScalarType::Float, {4}, {1, 2, 3, 4});
  EXPECT_EQ(call_kernel("aten::addmm.out", {*bad_bias, *a, *b, 1, 1, *out, *out}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call (beta
// and alpha read at every call); a Prepare that fails (self's dtype, a
// bias that does not broadcast) fails the same at run.
TEST(Addmm, PreparedLikeRun) {
  auto bias = from_doubles(ScalarType::Float, {4}, {1, -2, 3, -4});
  auto a = from_doubles(ScalarType::Float, {3, 5}, pattern(15, 11, 0.5));
  auto b = from_doubles(ScalarType::Float, {5, 4}, pattern(20, 13, 0.25));
  auto out = empty(ScalarType::Float, {3, 4});
  EXPECT_TRUE(
      expect_prepared_like_run("aten::addmm.out", {*bias, *a, *b, 1.0, 1.0, *out, *out}).stopped);
  auto dbias = from_doubles(ScalarType::Double, {4}, {1, -2, 3, -4});
  EXPECT_EQ(
      expect_prepared_like_run("aten::addmm.out", {*dbias, *a, *b, 1.0, 1.0, *out, *out}).error,
      Error::InvalidArgument);
  auto bias3 = from_doubles(ScalarType::Float, {3}, {1, 2, 3});
  EXPECT_EQ(
      expect_prepared_like_run("aten::addmm.out", {*bias3, *a, *b, 1.0, 1.0, *out, *out}).error,
      Error::InvalidArgument);
  expect_prepared_on_changed_args("aten::addmm.out", {*bias, *a, *b, 1.0, 1.0, *out, *out},
                                  {*bias, *a, *b, 0.5, 2.0, *out, *out});
}

}  // namespace
}  // namespace ember::testing
