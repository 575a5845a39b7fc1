// aten::masked_scatter.out(Tensor self, Tensor mask, Tensor source, *,
//                          Tensor(a!) out)
// out = self broadcast with the Bool mask (out has the broadcast shape),
// then the positions where the mask is true, in row-major order, take
// source's elements one after another (source read in its own row-major
// order, whatever its shape). source must have self's dtype and at least
// as many elements as the mask has true entries.
#include "kernels/portable/util/copy_util.h"
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/mask_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void masked_scatter_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::masked_scatter.out", 5);
  const Tensor self = a.tensor(0), mask = a.tensor(1), source = a.tensor(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || !check_same_dtype(a, self, out) || !check_bool_mask(a, mask)) {
    return;
  }
  if (source.scalar_type() != self.scalar_type()) {
    a.fail(Error::InvalidArgument, "source dtype %s differs from self dtype %s",
           scalar_type_name(source.scalar_type()), scalar_type_name(self.scalar_type()));
    return;
  }
  Shape shape;
  int64_t count = 0;
  if (!broadcast_mask(a, self, mask, &shape, &count)) {
    return;
  }
  if (count > source.numel()) {
    a.fail(Error::InvalidArgument,
           "mask has %lld true entries but source has only %lld elements",
           static_cast<long long>(count), static_cast<long long>(source.numel()));
    return;
  }
  if (!resize_out(a, out, shape.span()) || !copy_broadcast(a, self, out)) {
    return;
  }
  int64_t strides[2][kMaxTensorDim];
  strides_of(out, strides[0]);
  broadcast_strides(mask, shape, strides[1]);
  int64_t source_strides[1][kMaxTensorDim];
  strides_of(source, source_strides[0]);
  const uint8_t* m = static_cast<const uint8_t*>(mask.const_data_ptr());
  const int64_t n = shape.numel(), available = source.numel();
  (void)visit_element_width(self.element_size(), [&](auto tag) {
    using W = typename decltype(tag)::type;
    const W* s = static_cast<const W*>(source.const_data_ptr());
    W* o = static_cast<W*>(out.mutable_data_ptr());
    Odometer<2> walk(shape.sizes, shape.dim, strides);
    Odometer<1> next_source(source.sizes().data(), source.dim(), source_strides);
    // k < available: a mask that a hostile memory plan placed under out
    // can change after it was counted; never read past source.
    int64_t k = 0;
    for (int64_t i = 0; i < n && k < available; ++i, walk.next()) {
      if (mask_at(m, walk.offsets()[1])) {
        o[walk.offsets()[0]] = s[next_source.offsets()[0]];
        next_source.next();
        ++k;
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::masked_scatter.out", masked_scatter_out_boxed);

}  // namespace ember
