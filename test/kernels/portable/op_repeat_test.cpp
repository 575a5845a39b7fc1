// aten::repeat.out (kernels/portable/op_repeat.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// A repeat count that would overflow int64 when multiplied by the size
// (found by the bundled_program fuzzer in CI): an error, not UB.
TEST(Repeat, HugeRepeatsRefused) {
  auto a = tensor<float>(ScalarType::Float, {2}, {1, 2});
  auto out = empty(ScalarType::Float, {4});
  ASSERT_EQ(call_kernel("aten::repeat.out", {*a, Arg::ints({2}), *out, *out}), Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{1, 2, 1, 2}));
  EXPECT_EQ(call_kernel("aten::repeat.out",
                        {*a, Arg::ints({int64_t(6989586621679009793)}), *out, *out}),
            Error::InvalidArgument);
  EXPECT_EQ(call_kernel("aten::repeat.out",
                        {*a, Arg::ints({int64_t(1) << 31}), *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
