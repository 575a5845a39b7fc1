// aten::bmm.out (kernels/portable/op_bmm.cpp) against a reference loop.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Bmm, Batched) {
  const int batch = 3, m = 2, k = 5, n = 3;
  const auto av = pattern(batch * m * k, 9, 1), bv = pattern(batch * k * n, 7, 1);
  auto a = from_doubles(ScalarType::Double, {batch, m, k}, av);
  auto b = from_doubles(ScalarType::Double, {batch, k, n}, bv);
  auto out = empty(ScalarType::Double, {batch, m, n});
  ASSERT_EQ(call_kernel("aten::bmm.out", {*a, *b, *out, *out}), Error::Ok);
  std::vector<double> want;
  for (int i = 0; i < batch; ++i) {
    std::vector<double> ai(av.begin() + i * m * k, av.begin() + (i + 1) * m * k);
    std::vector<double> bi(bv.begin() + i * k * n, bv.begin() + (i + 1) * k * n);
    auto ci = ref_mm(m, k, n, ai, bi);
    want.insert(want.end(), ci.begin(), ci.end());
  }
  expect_near_vec(to_doubles(*out), want, 1e-9);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; a
// Prepare that fails (batch mismatch, out shape) fails the same at run.
TEST(Bmm, PreparedLikeRun) {
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, pattern(24, 11, 0.5));
  auto b = from_doubles(ScalarType::Float, {2, 4, 5}, pattern(40, 13, 0.25));
  auto out = empty(ScalarType::Float, {2, 3, 5});
  EXPECT_TRUE(expect_prepared_like_run("aten::bmm.out", {*a, *b, *out, *out}).stopped);
  auto b3 = from_doubles(ScalarType::Float, {3, 4, 5}, pattern(60, 13, 0.25));
  EXPECT_EQ(expect_prepared_like_run("aten::bmm.out", {*a, *b3, *out, *out}).error,
            Error::InvalidArgument);
  auto wrong = empty(ScalarType::Float, {2, 5, 3});
  EXPECT_NE(expect_prepared_like_run("aten::bmm.out", {*a, *b, *wrong, *wrong}).error, Error::Ok);
  auto b2 = from_doubles(ScalarType::Float, {2, 4, 5}, pattern(40, 7, 1.5));
  expect_prepared_on_changed_args("aten::bmm.out", {*a, *b, *out, *out}, {*a, *b2, *out, *out});
}

}  // namespace
}  // namespace ember::testing
