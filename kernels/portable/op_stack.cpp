// aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out)
// Stacks equally shaped tensors along a new dim (in [-(ndim+1), ndim]).
// Inputs are converted to out's dtype; any dim orders.
#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void stack_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::stack.out", 4);
  const Span<Tensor> tensors = a.tensor_list(0);
  const int64_t dim = a.int_value(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_supported_dtype(a, out, "out")) {
    return;
  }
  if (tensors.size() == 0) {
    a.fail(Error::InvalidArgument, "stack expects a non-empty list of tensors");
    return;
  }
  const Tensor& ref = tensors[0];
  if (ref.dim() + 1 > kMaxTensorDim) {
    a.fail(Error::InvalidArgument, "stacking %zu-dim tensors exceeds %zu dims",
           ref.dim(), kMaxTensorDim);
    return;
  }
  size_t d;
  if (!normalize_dim(a, dim, ref.dim() + 1, "dim", &d)) {
    return;
  }
  ScalarType promoted = ref.scalar_type();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (!check_supported_dtype(a, t, "tensors entry") ||
        !promote_types(promoted, t.scalar_type(), &promoted)) {
      return;
    }
    bool same = t.dim() == ref.dim();
    for (size_t k = 0; same && k < t.dim(); ++k) {
      same = t.sizes()[k] == ref.sizes()[k];
    }
    if (!same) {
      a.fail(Error::InvalidArgument,
             "stack expects each tensor to be equal size; tensors[%zu] differs "
             "from tensors[0]", i);
      return;
    }
  }
  if (!can_cast(promoted, out.scalar_type())) {
    a.fail(Error::InvalidArgument, "inputs' type %s cannot be cast to out dtype %s",
           scalar_type_name(promoted), scalar_type_name(out.scalar_type()));
    return;
  }
  if (int64_t(tensors.size()) > INT32_MAX) {
    a.fail(Error::InvalidArgument, "too many tensors");
    return;
  }
  Shape shape;
  shape.dim = ref.dim() + 1;
  for (size_t k = 0, j = 0; k < shape.dim; ++k) {
    shape.sizes[k] = k == d ? SizesType(tensors.size()) : ref.sizes()[j++];
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  // Execute: input i fills out[..., i, ...] (out's strides without dim d),
  // one innermost row at a time.
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (t.numel() == 0) {
      continue;
    }
    int64_t out_strides[kMaxTensorDim];
    for (size_t k = 0, j = 0; k < shape.dim; ++k) {
      if (k != d) {
        out_strides[j++] = out.strides()[k];
      }
    }
    const int64_t oes = int64_t(out.element_size());
    const int64_t ies = int64_t(t.element_size());
    char* obase = static_cast<char*>(out.mutable_data_ptr()) +
                  int64_t(i) * out.strides()[d] * oes;
    const char* ibase = static_cast<const char*>(t.const_data_ptr());
    int64_t coord[kMaxTensorDim] = {};
    const int64_t n = t.numel();
    const size_t nd = t.dim();
    const int64_t inner = nd == 0 ? 1 : t.sizes()[nd - 1];
    const int64_t is_inner = nd == 0 ? 1 : t.strides()[nd - 1];
    const int64_t os_inner = nd == 0 ? 1 : out_strides[nd - 1];
    for (int64_t done = 0; done < n; done += inner) {
      int64_t ioff = 0, ooff = 0;
      for (size_t k = 0; k + 1 < nd; ++k) {
        ioff += coord[k] * t.strides()[k];
        ooff += coord[k] * out_strides[k];
      }
      (void)convert_elements(ibase + ioff * ies, t.scalar_type(), is_inner,
                             obase + ooff * oes, out.scalar_type(), os_inner,
                             inner);
      for (size_t k = nd == 0 ? 0 : nd - 1; k-- > 0;) {
        if (++coord[k] < t.sizes()[k]) {
          break;
        }
        coord[k] = 0;
      }
    }
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::stack.out", stack_out_boxed);

}  // namespace ember
