// aten::native_dropout.out(Tensor input, float p, bool? train, *,
//     Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))
// Inference: with train False or None (or p == 0) out0 = input and the
// mask out1 is all true. Training-mode dropout needs a random generator
// the runtime does not have: NotSupported. Boxed: 6 values (one returned
// list) or 7.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/fill.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void native_dropout_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  const size_t count = args.size() == 6 ? 6 : 7;
  KernelArgs a(ctx, args, "aten::native_dropout.out", count);
  const Tensor input = a.tensor(0);
  const double p = a.double_value(1);
  const Optional<bool> train = a.optional_bool(2);
  const Tensor out = a.tensor(3);
  const Tensor mask = a.tensor(4);
  if (!a.ok() || !check_same_dtype(a, input, out)) {
    return;
  }
  if (!(p >= 0.0 && p <= 1.0)) {
    a.fail(Error::InvalidArgument, "dropout probability %g is not in [0, 1]", p);
    return;
  }
  if (mask.scalar_type() != ScalarType::Bool) {
    a.fail(Error::InvalidArgument, "mask (out1) must be Bool, got %s",
           scalar_type_name(mask.scalar_type()));
    return;
  }
  if (train.has_value() && train.value() && p > 0.0) {
    a.fail(Error::NotSupported,
           "training-mode dropout (p = %g) needs a random generator; export "
           "the model in eval mode", p);
    return;
  }
  if (!resize_out(a, out, input.sizes()) || !resize_out(a, mask, input.sizes()) ||
      !copy_broadcast(a, input, out)) {
    return;
  }
  Scalar one;
  one.kind = Scalar::Kind::Bool;
  one.b = true;
  (void)fill_with_scalar(a, mask, one);
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::native_dropout.out", native_dropout_out_boxed);

}  // namespace ember
