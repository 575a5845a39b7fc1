// aten::index.Tensor_out (kernels/portable/op_index.cpp): negative
// indices and an index out of range.
#include "test/kernels/kernel_test_util.h"
#include "test/kernels/reference_util.h"

namespace ember::testing {
namespace {

TEST(Index, NegativeIndicesAndErrors) {
  auto a = tensor<float>(ScalarType::Float, {3, 2}, iota(6));
  auto idx = tensor<int64_t>(ScalarType::Long, {2}, {-1, 0});
  auto out = empty(ScalarType::Float, {2, 2});
  ASSERT_EQ(call_kernel("aten::index.Tensor_out",
                        {*a, Arg::optional_tensors({*idx}), *out, *out}),
            Error::Ok);
  EXPECT_EQ(out->values<float>(), (std::vector<float>{4, 5, 0, 1}));
  idx->data<int64_t>()[0] = 3;  // out of range
  EXPECT_EQ(call_kernel("aten::index.Tensor_out",
                        {*a, Arg::optional_tensors({*idx}), *out, *out}),
            Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::testing
