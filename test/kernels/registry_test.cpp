// Every portable kernel of this issue is registered under its exact
// upstream name.
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

TEST(KernelRegistry, AllPortableKernelsRegistered) {
  const char* names[] = {
      "aten::add.out", "aten::add.Scalar_out", "aten::sub.out",
      "aten::sub.Scalar_out", "aten::mul.out", "aten::mul.Scalar_out",
      "aten::div.out", "aten::relu.out", "aten::clone.out", "aten::full.out",
      "aten::full_like.out", "aten::mm.out", "aten::addmm.out", "aten::bmm.out",
      "aten::view_copy.out", "aten::permute_copy.out", "aten::t_copy.out",
      "aten::transpose_copy.int_out", "aten::expand_copy.out",
      "aten::squeeze_copy.dims_out", "aten::unsqueeze_copy.out",
      "aten::slice_copy.Tensor_out", "aten::cat.out", "aten::_to_copy.out",
      "dim_order_ops::_to_dim_order_copy.out", "aten::copy.out", "aten::copy_",
      "aten::where.self_out", "aten::gt.Tensor_out", "aten::gt.Scalar_out",
      "aten::lt.Tensor_out", "aten::lt.Scalar_out", "aten::eq.Tensor_out",
      "aten::eq.Scalar_out", "aten::ge.Tensor_out", "aten::ge.Scalar_out",
      "aten::le.Tensor_out", "aten::le.Scalar_out", "aten::ne.Tensor_out",
      "aten::ne.Scalar_out", "aten::logical_and.out", "aten::logical_or.out",
      "aten::logical_not.out", "aten::convolution.out",
      "aten::max_pool2d_with_indices.out", "aten::sum.IntList_out",
      "aten::mean.out"};
  for (const char* full : names) {
    bool found = false;
    for (size_t i = 0; i < num_registered_kernels(); ++i) {
      found = found || std::string(registered_kernel(i).name) == full;
    }
    EXPECT_TRUE(found) << full;
  }
}

}  // namespace
}  // namespace ember::testing
