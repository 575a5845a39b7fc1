// aten::max.dim_max and max.unary_out (kernels/portable/op_max.cpp):
// kernel prepare.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// Prepared (kernel prepare at load): the same bytes as a plain call in
// both outputs; dim and keepdim are read at every call, so a dim giving
// another shape fails as a plain call does. A Prepare that fails (indices
// not Long) fails the same at run.
TEST(Max, PreparedLikeRun) {
  const char* op = "aten::max.dim_max";
  auto a = from_doubles(ScalarType::Float, {2, 3, 4}, wave(24, 3));
  auto v = empty(ScalarType::Float, {2, 4});
  auto i = empty(ScalarType::Long, {2, 4});
  EXPECT_TRUE(expect_prepared_like_run(op, {*a, int64_t(1), false, *v, *i, *v, *i}).stopped);
  expect_prepared_on_changed_args(op, {*a, int64_t(1), false, *v, *i, *v, *i},
                                  {*a, int64_t(-2), false, *v, *i, *v, *i});
  expect_prepared_on_changed_args(op, {*a, int64_t(1), false, *v, *i, *v, *i},
                                  {*a, int64_t(2), false, *v, *i, *v, *i});
  auto ii = empty(ScalarType::Int, {2, 4});
  EXPECT_EQ(expect_prepared_like_run(op, {*a, int64_t(1), false, *v, *ii, *v, *ii}).error,
            Error::InvalidArgument);
  auto s = empty(ScalarType::Float, {});
  EXPECT_TRUE(expect_prepared_like_run("aten::max.unary_out", {*a, *s, *s}).stopped);
}

}  // namespace
}  // namespace ember::testing
