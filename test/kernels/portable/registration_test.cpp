// The portable library registers its kernels under upstream's exact names
// and overloads (each kernels/portable/op_*.cpp registers itself; see
// kernels/CMakeLists.txt). Which registered operators have a test at all
// is checked by test/kernels/operator_coverage_test.cpp.
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

// Every overload of the elementwise math ops is present (names as upstream).
TEST(KernelRegistry, ElementwiseUpstreamNames) {
  const char* names[] = {
      "div.out", "div.out_mode", "div.Scalar_out", "div.Scalar_mode_out",
      "rsub.Scalar_out", "pow.Tensor_Tensor_out", "pow.Tensor_Scalar_out",
      "pow.Scalar_out", "remainder.Tensor_out", "remainder.Scalar_out",
      "fmod.Tensor_out", "fmod.Scalar_out", "floor_divide.out", "maximum.out",
      "minimum.out", "clamp.out", "clamp.Tensor_out", "masked_fill.Scalar_out",
      "neg.out", "abs.out", "sign.out", "reciprocal.out", "sqrt.out", "rsqrt.out",
      "exp.out", "expm1.out", "log.out", "log1p.out", "log2.out", "sin.out",
      "cos.out", "tanh.out", "sigmoid.out", "erf.out", "floor.out", "ceil.out",
      "round.out", "trunc.out", "gelu.out", "hardtanh.out", "leaky_relu.out",
      "elu.out", "logit.out", "logical_xor.out", "bitwise_and.Tensor_out",
      "bitwise_and.Scalar_out", "bitwise_or.Tensor_out", "bitwise_or.Scalar_out",
      "bitwise_xor.Tensor_out", "bitwise_xor.Scalar_out", "bitwise_not.out",
      "bitwise_left_shift.Tensor_out", "bitwise_left_shift.Tensor_Scalar_out",
      "bitwise_right_shift.Tensor_out", "bitwise_right_shift.Tensor_Scalar_out",
      "isnan.out", "isinf.out"};
  for (const char* n : names) {
    const std::string s(n);
    const size_t dot = s.find('.');
    EXPECT_NE(find_kernel(("aten::" + s.substr(0, dot)).c_str(), s.substr(dot + 1).c_str()),
              nullptr)
        << n;
  }
}

}  // namespace
}  // namespace ember::testing
