// aten::logsumexp.out (kernels/portable/op_logsumexp.cpp; the exporter
// decomposes it, so the generated suite cannot hold it): stability and
// edge values, and a non-innermost reduced dim.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Logsumexp, StableAndEdgeValues) {
  auto in = tensor<float>(ScalarType::Float, {4, 2},
                          {1000.f, 1000.f, -INFINITY, -INFINITY, INFINITY, 1.f, NAN, 2.f});
  auto out = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::logsumexp.out", {*in, Arg::ints({1}), false, *out, *out}),
            Error::Ok)
      << last_error_message();
  const std::vector<double> got = to_doubles(*out);
  EXPECT_NEAR(got[0], 1000.0 + std::log(2.0), 1e-3);
  EXPECT_TRUE(std::isinf(got[1]) && got[1] < 0);
  EXPECT_TRUE(std::isinf(got[2]) && got[2] > 0);
  EXPECT_TRUE(std::isnan(got[3]));
  // Reducing dim 0 (non-innermost: the scratch path) with keepdim.
  auto in2 = from_doubles(ScalarType::Double, {3, 2}, {0, 1, 2, 3, 4, 5});
  auto out2 = empty(ScalarType::Double, {1, 2});
  ASSERT_EQ(call_kernel("aten::logsumexp.out", {*in2, Arg::ints({0}), true, *out2, *out2}),
            Error::Ok);
  expect_near_vec(to_doubles(*out2),
                  {std::log(std::exp(0.0) + std::exp(2.0) + std::exp(4.0)),
                   std::log(std::exp(1.0) + std::exp(3.0) + std::exp(5.0))},
                  1e-12);
}

// Prepared (kernel prepare at load): the same bytes as a plain call; dim
// and keepdim are read at every call.
TEST(Logsumexp, PreparedLikeRun) {
  const char* op = "aten::logsumexp.out";
  auto in = from_doubles(ScalarType::Double, {2, 3, 4}, wave(24, 3));
  auto out = empty(ScalarType::Double, {2, 4});
  EXPECT_TRUE(expect_prepared_like_run(op, {*in, Arg::ints({1}), false, *out, *out}).stopped);
  expect_prepared_on_changed_args(op, {*in, Arg::ints({1}), false, *out, *out},
                                  {*in, Arg::ints({-2}), false, *out, *out});
  expect_prepared_on_changed_args(op, {*in, Arg::ints({1}), false, *out, *out},
                                  {*in, Arg::ints({0, 1}), false, *out, *out});
}

}  // namespace
}  // namespace ember::testing
