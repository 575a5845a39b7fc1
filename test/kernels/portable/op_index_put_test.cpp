// aten::index_put.out and aten::index_put_ (kernels/portable/op_index_put.cpp).
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

// Accumulating into integers wraps like PyTorch's int64 add, never signed
// overflow (found by the bundled-program fuzzer under UBSan).
TEST(IndexPut, AccumulatedIntegerSumsWrap) {
  auto self = tensor<int64_t>(ScalarType::Long, {2}, {INT64_MAX, INT64_MIN});
  auto src = tensor<int64_t>(ScalarType::Long, {2}, {1, -1});
  auto index = tensor<int64_t>(ScalarType::Long, {2}, {0, 1});
  auto put = empty(ScalarType::Long, {2});
  ASSERT_EQ(call_kernel("aten::index_put.out",
                        {*self, Arg::optional_tensors({*index}), *src, true, *put, *put}),
            Error::Ok);
  EXPECT_EQ(put->values<int64_t>(), (std::vector<int64_t>{INT64_MIN, INT64_MAX}));
}

}  // namespace
}  // namespace ember::testing
