// aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out)
// out[b, m, n] = self[b, m, k] @ mat2[b, k, n]; Float, Double, Half or
// BFloat16 (float accumulation), contiguous.
//
// A prepared kernel: Prepared calls skip the dtype, layout and shape checks
// and the resize (every tensor is static, out was sized at load) and only
// multiply, from the current data pointers.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/matmul_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// The prepare phase: checks the operands and sizes out to [batch, m, n].
bool check_bmm(KernelArgs& a, Tensor self, Tensor mat2, Tensor out) {
  const Tensor operands[3] = {self, mat2, out};
  const char* const names[3] = {"self", "mat2", "out"};
  if (!check_matmul_operands(a, operands, names, 3, 3)) {
    return false;
  }
  const int64_t batch = self.sizes()[0], m = self.sizes()[1],
                k = self.sizes()[2], n = mat2.sizes()[2];
  if (mat2.sizes()[0] != batch || mat2.sizes()[1] != k) {
    return a.fail(Error::InvalidArgument,
                  "self [%lld, %lld, %lld] and mat2 [%d, %d, %lld] do not match",
                  static_cast<long long>(batch), static_cast<long long>(m),
                  static_cast<long long>(k), int(mat2.sizes()[0]),
                  int(mat2.sizes()[1]), static_cast<long long>(n));
  }
  const SizesType sizes[3] = {SizesType(batch), SizesType(m), SizesType(n)};
  return resize_out(a, out, {sizes, 3});
}

void bmm_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::bmm.out", 4);
  const Tensor self = a.tensor(0), mat2 = a.tensor(1), out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && !check_bmm(a, self, mat2, out))) {
    return;
  }
  if (a.preparing()) {
    a.prepared_stop();
    return;
  }
  const int64_t batch = self.sizes()[0], m = self.sizes()[1],
                k = self.sizes()[2], n = mat2.sizes()[2];
  (void)run_matmul(a, ctx, self.scalar_type(), batch, m, n, k, 1.0,
                   self.const_data_ptr(), mat2.const_data_ptr(), 0.0,
                   out.mutable_data_ptr());
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::bmm.out", bmm_out_boxed);

}  // namespace ember
