// aten::scatter_add.out (kernels/portable/op_scatter_add.cpp). Index
// checks shared with gather and scatter are in util/index_util_test.cpp.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// Accumulating into integers wraps like PyTorch's int64 add, never signed
// overflow (found by the bundled-program fuzzer under UBSan).
TEST(ScatterAdd, IntegerSumsWrap) {
  auto self = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MAX, INT64_MIN});
  auto src = tensor<int64_t>(ScalarType::Long, {2}, {1, -1});
  auto index = tensor<int64_t>(ScalarType::Long, {2}, {0, 1});
  auto out = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::scatter_add.out", {*self, 0, *index, *src, *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
  auto small = tensor<int8_t>(ScalarType::Char, {1}, {127});
  auto one = tensor<int8_t>(ScalarType::Char, {1}, {1});
  auto zero = tensor<int64_t>(ScalarType::Long, {1}, {0});
  auto out8 = empty(ScalarType::Char, {1});
  ASSERT_EQ(call_kernel("aten::scatter_add.out", {*small, 0, *zero, *one, *out8, *out8}),
            Error::Ok);
  EXPECT_EQ(out8->values<int8_t>(), (std::vector<int8_t>{-128}));
}

}  // namespace
}  // namespace ember::testing
