// aten::var_mean.correction_out (kernels/portable/op_var_mean.cpp): what
// an exported program cannot express: a fractional correction, the refused
// dtypes and a non-contiguous mean out. Values, dims, keepdim and edge
// cases: the op suite (var_mean__*).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(VarMean, FractionalCorrectionAndAllDims) {
  auto self = tensor<float>(ScalarType::Float, {3, 4},
                            {1, 2, 4, 8, 0.5f, 0.5f, -1, 3, 2, 3, 5, 7});
  auto var = empty(ScalarType::Float, {1, 4}), mean = empty(ScalarType::Float, {1, 4});
  ASSERT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self, Arg::ints({0}), 1.5, true, *var, *mean, *var, *mean}),
            Error::Ok);
  // From PyTorch 2.13: torch.var_mean(self, dim=[0], correction=1.5,
  // keepdim=True).
  expect_near_vec(to_doubles(*var),
                  {0.77777779102325439, 2.1111111640930176, 13.777777671813965,
                   9.3333330154418945},
                  1e-5);
  expect_near_vec(to_doubles(*mean), {1.1666666269302368, 1.8333333730697632,
                                      2.6666667461395264, 6},
                  1e-6);
  // dim None, correction None (1): from torch.var_mean(self).
  auto var0 = empty(ScalarType::Float, {}), mean0 = empty(ScalarType::Float, {});
  ASSERT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self, Arg::none(), Arg::none(), false, *var0, *mean0, *var0, *mean0}),
            Error::Ok);
  expect_near_vec(to_doubles(*var0), {7.3106060028076172}, 1e-5);
  expect_near_vec(to_doubles(*mean0), {2.9166667461395264}, 1e-6);
}

TEST(VarMean, Refusals) {
  auto self = tensor<float>(ScalarType::Float, {2, 2}, {1, 2, 3, 4});
  auto f = empty(ScalarType::Float, {2});
  auto d = empty(ScalarType::Double, {2});
  // Both outs must have self's dtype.
  EXPECT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self, Arg::ints({1}), Arg::none(), false, *d, *f, *d, *f}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self, Arg::ints({1}), Arg::none(), false, *f, *d, *f, *d}),
            Error::InvalidArgument);
  auto ints = tensor<int32_t>(ScalarType::Int, {2, 2}, {1, 2, 3, 4});
  auto i = empty(ScalarType::Int, {2});
  EXPECT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*ints, Arg::ints({1}), Arg::none(), false, *i, *i, *i, *i}),
            Error::InvalidArgument);
  auto f2 = empty(ScalarType::Float, {2});
  EXPECT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self, Arg::ints({2}), Arg::none(), false, *f, *f2, *f, *f2}),
            Error::InvalidArgument);
  // A mean out in another dim order is refused, like every reduction out.
  auto self3 = tensor<float>(ScalarType::Float, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto v = empty(ScalarType::Float, {2, 2});
  auto m = empty(ScalarType::Float, {2, 2}, ShapeDynamism::Static, {1, 0});
  EXPECT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self3, Arg::ints({0}), Arg::none(), false, *v, *m, *v, *m}),
            Error::NotSupported);
  // A static mean out of the wrong shape.
  auto m3 = empty(ScalarType::Float, {3});
  EXPECT_EQ(call_kernel("aten::var_mean.correction_out",
                        {*self, Arg::ints({1}), Arg::none(), false, *f, *m3, *f, *m3}),
            Error::NotSupported);
}

// Prepared (kernel prepare at load): the same bytes as a plain call in
// both outputs; dims, correction and keepdim are read at every call.
TEST(VarMean, PreparedLikeRun) {
  const char* op = "aten::var_mean.correction_out";
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, wave(24, 3));
  auto v = empty(ScalarType::Float, {2, 3}), m = empty(ScalarType::Float, {2, 3});
  const auto args = [&](std::vector<int64_t> dims, double correction) {
    return std::vector<Arg>{*a, Arg::ints(dims), correction, false, *v, *m, *v, *m};
  };
  EXPECT_TRUE(expect_prepared_like_run(op, args({2}, 1.0)).stopped);
  expect_prepared_on_changed_args(op, args({2}, 1.0), args({-1}, 0.5));
  expect_prepared_on_changed_args(op, args({2}, 1.0), args({1}, 1.0));
  auto l = empty(ScalarType::Long, {2, 3});
  EXPECT_EQ(expect_prepared_like_run(op, {*a, Arg::ints({2}), 1.0, false, *v, *l, *v, *l})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
