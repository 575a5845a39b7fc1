// aten::argmax.out (kernels/portable/op_argmax.cpp): empty inputs. Bool
// input read as bytes is in util/dtype_util_test.cpp.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// No element, no work: a shape such as [2^31 - 1, 0, 2^31 - 1] (a hostile
// program's; the bundled-program fuzzer found [117440514, 0, 9] taking
// seconds in cumsum) must not walk the outer positions. With the old code
// this test runs for hours.
TEST(Argmax, EmptyTensorWithHugeDimsDoesNoWork) {
  const SizesType big = 2147483647;
  auto x = empty(ScalarType::Float, {big, 0, big});
  auto idx = empty(ScalarType::Long, {big, 0});
  ASSERT_EQ(call_kernel("aten::argmax.out", {*x, int64_t(2), false, *idx, *idx}), Error::Ok)
      << last_error_message();
}

// argmax of an empty tensor has no answer.
TEST(Argmax, EmptyInputRefused) {
  auto e = empty(ScalarType::Float, {0});
  auto idx = empty(ScalarType::Long, {});
  EXPECT_EQ(call_kernel("aten::argmax.out", {*e, Arg::none(), false, *idx, *idx}),
            Error::InvalidArgument);
}

// Prepared (kernel prepare at load): the same bytes as a plain call, with
// a dim and flattened; dim and keepdim are read at every call.
TEST(Argmax, PreparedLikeRun) {
  const char* op = "aten::argmax.out";
  auto a = from_doubles(ScalarType::Double, {2, 3, 4}, wave(24, 3));
  auto idx = empty(ScalarType::Long, {2, 4});
  auto one = empty(ScalarType::Long, {});
  EXPECT_TRUE(expect_prepared_like_run(op, {*a, int64_t(1), false, *idx, *idx}).stopped);
  EXPECT_TRUE(expect_prepared_like_run(op, {*a, Arg::none(), false, *one, *one}).stopped);
  expect_prepared_on_changed_args(op, {*a, int64_t(1), false, *idx, *idx},
                                  {*a, int64_t(-2), false, *idx, *idx});
  expect_prepared_on_changed_args(op, {*a, int64_t(1), false, *idx, *idx},
                                  {*a, int64_t(2), false, *idx, *idx});
  expect_prepared_on_changed_args(op, {*a, int64_t(1), false, *idx, *idx},
                                  {*a, int64_t(3), false, *idx, *idx});
  auto f = empty(ScalarType::Float, {2, 4});
  EXPECT_EQ(expect_prepared_like_run(op, {*a, int64_t(1), false, *f, *f}).error,
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
