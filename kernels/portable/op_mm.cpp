// aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out)
// out[m, n] = self[m, k] @ mat2[k, n]; Float, Double, Half or BFloat16
// (float accumulation), contiguous. Rows split across the thread pool.
//
// A prepared kernel: Prepared calls skip the dtype, layout and shape checks
// and the resize (every tensor is static, out was sized at load) and only
// multiply, from the current data pointers.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/matmul_util.h"
#include "kernels/portable/util/prepared_gemm.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The prepare phase: checks the operands and sizes out to [m, n].
bool check_mm(KernelArgs& a, Tensor self, Tensor mat2, Tensor out) {
  const Tensor operands[2] = {self, mat2};
  const char* const names[2] = {"self", "mat2"};
  if (!check_matmul_operands(a, operands, names, 2, 2)) {
    return false;
  }
  const Tensor out_only[1] = {out};
  const char* const out_name[1] = {"out"};
  if (!check_matmul_operands(a, out_only, out_name, 1, 2)) {
    return false;
  }
  const int64_t m = self.sizes()[0], k = self.sizes()[1], n = mat2.sizes()[1];
  if (mat2.sizes()[0] != k || out.scalar_type() != self.scalar_type()) {
    return a.fail(Error::InvalidArgument,
                  "shapes [%lld, %lld] and [%d, %lld] cannot be multiplied (or out "
                  "dtype differs)",
                  static_cast<long long>(m), static_cast<long long>(k),
                  int(mat2.sizes()[0]), static_cast<long long>(n));
  }
  const SizesType sizes[2] = {SizesType(m), SizesType(n)};
  return resize_out(a, out, {sizes, 2});
}

void mm_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::mm.out", 4);
  const Tensor self = a.tensor(0), mat2 = a.tensor(1), out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && !check_mm(a, self, mat2, out))) {
    return;
  }
  if (a.preparing()) {
    a.prepared_stop();
    return;
  }
  const int64_t m = self.sizes()[0], k = self.sizes()[1], n = mat2.sizes()[1];
  (void)run_matmul(a, ctx, self.scalar_type(), 1, m, n, k, 1.0,
                   self.const_data_ptr(), mat2.const_data_ptr(), 0.0,
                   out.mutable_data_ptr());
}

// mat2 (argument 1), when it is a constant or a constant's transpose,
// is packed for the GEMM once (util/prepared_gemm.h); run_matmul finds it.
size_t mat2_bytes(Span<EValue*> args, const OperandSource& source) {
  return gemm_b_operand_bytes(*args[1], source);
}
void prepare_mat2(Span<EValue*> args, const OperandSource& source, void* out) {
  prepare_gemm_b_operand(*args[1], source, out);
}

}  // namespace

const OperandPreparation kPackedMat2{"gemm_b_f32", "aten::mm.out", 1, mat2_bytes, prepare_mat2};
EMBER_REGISTER_OPERAND_PREPARATION(kPackedMat2);
EMBER_REGISTER_PREPARED_KERNEL("aten::mm.out", mm_out_boxed);

}  // namespace ember
