// aten::native_layer_norm.out (kernels/portable/op_native_layer_norm.cpp):
// kernel prepare. The values are compared with double in
// optimized_paths_test.cpp.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// Prepared: the same bytes as a plain call, with and without weight and
// bias; a Prepare that fails (normalized_shape, out dtype) fails the same
// at run. normalized_shape is read at every call: another one gives what
// a plain call gives (weight's element count, the statistics' shape).
TEST(NativeLayerNorm, PreparedLikeRun) {
  const char* op = "aten::native_layer_norm.out";
  for (ScalarType type : {ScalarType::Float, ScalarType::Double, ScalarType::BFloat16}) {
    auto in = from_doubles(type, {2, 3, 4}, wave(24, 3));
    auto w = from_doubles(type, {4}, wave(4, 1));
    auto b = from_doubles(type, {4}, wave(4, 0.5));
    auto out = empty(type, {2, 3, 4});
    auto mean = empty(type, {2, 3, 1}), rstd = empty(type, {2, 3, 1});
    EXPECT_TRUE(expect_prepared_like_run(op, {*in, Arg::ints({4}), *w, *b, 1e-5, *out, *mean,
                                              *rstd, *out, *mean, *rstd})
                    .stopped);
    EXPECT_TRUE(expect_prepared_like_run(op, {*in, Arg::ints({4}), Arg::none(), Arg::none(),
                                              1e-5, *out, *mean, *rstd, *out, *mean, *rstd})
                    .stopped);
    // weight has 4 elements, [3, 4] needs 12.
    expect_prepared_on_changed_args(
        op, {*in, Arg::ints({4}), *w, *b, 1e-5, *out, *mean, *rstd, *out, *mean, *rstd},
        {*in, Arg::ints({3, 4}), *w, *b, 1e-5, *out, *mean, *rstd, *out, *mean, *rstd});
    // Statistics of shape [2, 1, 1] do not fit the static [2, 3, 1].
    expect_prepared_on_changed_args(op,
                                    {*in, Arg::ints({4}), Arg::none(), Arg::none(), 1e-5, *out,
                                     *mean, *rstd, *out, *mean, *rstd},
                                    {*in, Arg::ints({3, 4}), Arg::none(), Arg::none(), 1e-5,
                                     *out, *mean, *rstd, *out, *mean, *rstd});
    expect_prepared_on_changed_args(
        op, {*in, Arg::ints({4}), *w, *b, 1e-5, *out, *mean, *rstd, *out, *mean, *rstd},
        {*in, Arg::ints({5}), *w, *b, 1e-5, *out, *mean, *rstd, *out, *mean, *rstd});
    EXPECT_EQ(expect_prepared_like_run(op, {*in, Arg::ints({3}), *w, *b, 1e-5, *out, *mean,
                                            *rstd, *out, *mean, *rstd})
                  .error,
              Error::InvalidArgument);
  }
  auto in = from_doubles(ScalarType::Float, {2, 4}, wave(8, 1));
  auto out = empty(ScalarType::Double, {2, 4});
  auto stat = empty(ScalarType::Float, {2, 1});
  EXPECT_EQ(expect_prepared_like_run(op, {*in, Arg::ints({4}), Arg::none(), Arg::none(), 1e-5,
                                          *out, *stat, *stat, *out, *stat, *stat})
                .error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
