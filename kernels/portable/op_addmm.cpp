// aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1,
//                 Scalar alpha=1, Tensor(a!) out)
// out = beta * self + alpha * (mat1 @ mat2), self broadcast to [m, n]. With
// beta == 0 self is ignored (NaN included). Float, Double, Half or
// BFloat16 (float accumulation).
//
// A prepared kernel: Prepared calls skip the dtype, layout and shape checks
// and the resize (every tensor is static, out was sized at load) and only
// compute, from the current data pointers; beta and alpha are read at
// every call.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/matmul_util.h"
#include "kernels/portable/util/prepared_gemm.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The prepare phase: checks the operands and sizes out to [m, n].
bool check_addmm(KernelArgs& a, Tensor self, Tensor mat1, Tensor mat2, Tensor out) {
  const Tensor operands[3] = {mat1, mat2, out};
  const char* const names[3] = {"mat1", "mat2", "out"};
  const Tensor bias[1] = {self};
  const char* const bias_name[1] = {"self"};
  if (!check_matmul_operands(a, operands, names, 3, 2) ||
      !check_matmul_operands(a, bias, bias_name, 1, 0)) {
    return false;
  }
  if (self.scalar_type() != mat1.scalar_type()) {
    return a.fail(Error::InvalidArgument, "self dtype %s differs from mat1 dtype %s",
                  scalar_type_name(self.scalar_type()),
                  scalar_type_name(mat1.scalar_type()));
  }
  const int64_t m = mat1.sizes()[0], k = mat1.sizes()[1], n = mat2.sizes()[1];
  if (mat2.sizes()[0] != k) {
    return a.fail(Error::InvalidArgument,
                  "mat1 [%lld, %lld] and mat2 [%d, %lld] cannot be multiplied",
                  static_cast<long long>(m), static_cast<long long>(k),
                  int(mat2.sizes()[0]), static_cast<long long>(n));
  }
  const SizesType sizes[2] = {SizesType(m), SizesType(n)};
  if (!broadcasts_to(self.sizes(), {sizes, 2})) {
    return a.fail(Error::InvalidArgument,
                  "self (%zu dims) does not broadcast to [%lld, %lld]", self.dim(),
                  static_cast<long long>(m), static_cast<long long>(n));
  }
  return resize_out(a, out, {sizes, 2});
}

void addmm_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::addmm.out", 7);
  const Tensor self = a.tensor(0), mat1 = a.tensor(1), mat2 = a.tensor(2);
  const Scalar beta = a.scalar(3), alpha = a.scalar(4);
  const Tensor out = a.tensor(5);
  if (!a.ok() || (!a.prepared() && !check_addmm(a, self, mat1, mat2, out))) {
    return;
  }
  if (a.preparing()) {
    a.prepared_stop();
    return;
  }
  const int64_t m = mat1.sizes()[0], k = mat1.sizes()[1], n = mat2.sizes()[1];
  const double beta_v = beta.to_double();
  // A linear layer whose weight was prepared: the bias rides in the GEMM.
  if (out.scalar_type() == ScalarType::Float && beta_v == 1.0 && alpha.to_double() == 1.0 &&
      self.dim() >= 1 && self.numel() == n && self.sizes()[self.dim() - 1] == n &&
      prepared_linear_f32(ctx, m, n, k, mat1.const_data_ptr<float>(),
                          self.const_data_ptr<float>(), out.mutable_data_ptr<float>())) {
    return;
  }
  if (beta_v != 0.0 && !copy_broadcast(a, self, out)) {
    return;
  }
  (void)run_matmul(a, ctx, out.scalar_type(), 1, m, n, k, alpha.to_double(),
                   mat1.const_data_ptr(), mat2.const_data_ptr(), beta_v,
                   out.mutable_data_ptr());
}

// mat2 (argument 2), when it is a constant or a constant's transpose,
// is packed for the GEMM once (util/prepared_gemm.h); run_matmul finds it.
size_t mat2_bytes(Span<EValue*> args, const OperandSource& source) {
  return gemm_b_operand_bytes(*args[2], source);
}
void prepare_mat2(Span<EValue*> args, const OperandSource& source, void* out) {
  prepare_gemm_b_operand(*args[2], source, out);
}

}  // namespace

const OperandPreparation kPackedMat2{"gemm_b_f32", "aten::addmm.out", 2, mat2_bytes, prepare_mat2};
EMBER_REGISTER_OPERAND_PREPARATION(kPackedMat2);
EMBER_REGISTER_PREPARED_KERNEL("aten::addmm.out", addmm_out_boxed);

}  // namespace ember
