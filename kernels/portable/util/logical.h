// Shared body of the binary logical kernels:
//   aten::logical_<op>.out(Tensor self, Tensor other, *, Tensor(a!) out)
// Each operand is read as a truth value (non-zero; NaN is true); the 0/1
// result is cast to out's dtype. `Op` maps two bools to a bool.
#pragma once

#include "kernels/portable/util/arithmetic.h"
#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

template <typename Op>
void logical_binary_kernel(KernelContext& ctx, Span<EValue*> args,
                           const char* name) {
  KernelArgs a(ctx, args, name, 4);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ElementwisePlan plan;
  if (!binary_out_prologue(a, self, other, out, ScalarType::Bool, &plan)) {
    return;
  }
  binary_elementwise<bool, bool>(plan, self, other, out,
                                 [](bool x, bool y) { return Op{}(x, y); });
}

}  // namespace ember
