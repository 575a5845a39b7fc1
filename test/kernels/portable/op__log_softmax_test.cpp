// aten::_log_softmax.out (kernels/portable/op__log_softmax.cpp).
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/prepared_call.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

// No element, no work: a shape such as [2^31 - 1, 0, 2^31 - 1] (a hostile
// program's; the bundled-program fuzzer found [117440514, 0, 9] taking
// seconds in cumsum) must not walk the outer positions. With the old code
// this test runs for hours.
TEST(LogSoftmax, EmptyTensorWithHugeDimsDoesNoWork) {
  const SizesType big = 2147483647;
  auto x = empty(ScalarType::Float, {big, 0, big});
  auto y = empty(ScalarType::Float, {big, 0, big});
  ASSERT_EQ(call_kernel("aten::_log_softmax.out", {*x, int64_t(1), false, *y, *y}), Error::Ok)
      << last_error_message();
}

}  // namespace
}  // namespace ember::testing
