// aten::_softmax.out (kernels/portable/op__softmax.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// No element, no work: a shape such as [2^31 - 1, 0, 2^31 - 1] (a hostile
// program's; the bundled-program fuzzer found [117440514, 0, 9] taking
// seconds in cumsum) must not walk the outer positions. With the old code
// this test runs for hours.
TEST(Softmax, EmptyTensorWithHugeDimsDoesNoWork) {
  const SizesType big = 2147483647;
  auto x = empty(ScalarType::Float, {big, 0, big});
  auto y = empty(ScalarType::Float, {big, 0, big});
  ASSERT_EQ(call_kernel("aten::_softmax.out", {*x, int64_t(1), false, *y, *y}), Error::Ok)
      << last_error_message();
}

// Prepared (kernel prepare at load): the same bytes as a plain call, in
// every floating dtype; a Prepare that fails (dim out of range,
// half_to_float, out dtype) fails the same at run. dim is read at every
// call: another dim, in range or not, gives what a plain call gives.
// _log_softmax is the same kernel template: both are checked here.
TEST(Softmax, PreparedLikeRun) {
  for (const char* op : {"aten::_softmax.out", "aten::_log_softmax.out"}) {
    for (ScalarType type : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
      auto x = from_doubles(type, {2, 3, 5}, wave(30, 4));
      auto y = empty(type, {2, 3, 5});
      for (int64_t dim : {0, 1, 2, -1}) {
        EXPECT_TRUE(expect_prepared_like_run(op, {*x, dim, false, *y, *y}).stopped) << dim;
      }
      expect_prepared_on_changed_args(op, {*x, int64_t(2), false, *y, *y},
                                      {*x, int64_t(1), false, *y, *y});
      expect_prepared_on_changed_args(op, {*x, int64_t(2), false, *y, *y},
                                      {*x, int64_t(3), false, *y, *y});
      expect_prepared_on_changed_args(op, {*x, int64_t(2), false, *y, *y},
                                      {*x, int64_t(2), true, *y, *y});
    }
    auto x = from_doubles(ScalarType::Float, {2, 3}, wave(6, 2));
    auto y = empty(ScalarType::Float, {2, 3});
    EXPECT_EQ(expect_prepared_like_run(op, {*x, int64_t(2), false, *y, *y}).error,
              Error::InvalidArgument);
    EXPECT_EQ(expect_prepared_like_run(op, {*x, int64_t(1), true, *y, *y}).error,
              Error::NotSupported);
    auto yd = empty(ScalarType::Double, {2, 3});
    EXPECT_EQ(expect_prepared_like_run(op, {*x, int64_t(1), false, *yd, *yd}).error,
              Error::InvalidArgument);
  }
}

}  // namespace
}  // namespace ember::testing
