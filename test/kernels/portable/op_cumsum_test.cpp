// aten::cumsum.out (kernels/portable/op_cumsum.cpp). Bool input read as
// bytes is in util/dtype_util_test.cpp.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// No element, no work: a shape such as [2^31 - 1, 0, 2^31 - 1] (a hostile
// program's; the bundled-program fuzzer found [117440514, 0, 9] taking
// seconds in cumsum) must not walk the outer positions. With the old code
// this test runs for hours.
TEST(Cumsum, EmptyTensorWithHugeDimsDoesNoWork) {
  const SizesType big = 2147483647;
  auto x = empty(ScalarType::Float, {big, 0, big});
  auto y = empty(ScalarType::Float, {big, 0, big});
  ASSERT_EQ(call_kernel("aten::cumsum.out", {*x, int64_t(1), Arg::none(), *y, *y}), Error::Ok)
      << last_error_message();
}

// Prepared (kernel prepare at load): the same bytes as a plain call; dim
// and dtype are read at every call.
TEST(Cumsum, PreparedLikeRun) {
  const char* op = "aten::cumsum.out";
  auto a = from_doubles(ScalarType::Int, {2, 3, 4}, pattern(24, 9, 1));
  auto out = empty(ScalarType::Long, {2, 3, 4});
  for (int64_t dim : {0, 1, 2, -1}) {
    EXPECT_TRUE(expect_prepared_like_run(op, {*a, dim, Arg::none(), *out, *out}).stopped);
  }
  expect_prepared_on_changed_args(op, {*a, int64_t(2), Arg::none(), *out, *out},
                                  {*a, int64_t(0), Arg::none(), *out, *out});
  expect_prepared_on_changed_args(op, {*a, int64_t(2), Arg::none(), *out, *out},
                                  {*a, int64_t(3), Arg::none(), *out, *out});
  expect_prepared_on_changed_args(op, {*a, int64_t(2), int64_t(ScalarType::Long), *out, *out},
                                  {*a, int64_t(2), int64_t(ScalarType::Int), *out, *out});
  auto f = from_doubles(ScalarType::Float, {2, 3, 4}, wave(24, 3));
  EXPECT_EQ(expect_prepared_like_run(op, {*f, int64_t(1), Arg::none(), *out, *out}).error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
