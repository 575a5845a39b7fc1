// aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out)
// Concatenates along `dim`; all other dims must match. Inputs may have
// different dtypes (each is converted to out's, which their promoted type
// must cast to). Legacy empty 1-D inputs (shape [0]) are skipped, as in
// PyTorch. Contiguous tensors only.
//
// A prepared kernel: Prepared calls skip the dtype and layout checks
// (check_cat_tensors); dim, an Int, and the shape checks that depend on it
// run in every mode, and out's shape is only compared (out_shape_prologue).
// Every call reads each input at its current data pointer.
#include <cstring>

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

bool is_legacy_empty(Tensor t) { return t.dim() == 1 && t.sizes()[0] == 0; }

// The first input that is not a legacy empty tensor, or null.
const Tensor* first_non_empty(Span<Tensor> tensors) {
  for (const Tensor& t : tensors) {
    if (!is_legacy_empty(t)) {
      return &t;
    }
  }
  return nullptr;
}

// The checks on dtypes and layouts (skipped when prepared): out and every
// input supported and contiguous, the inputs' promoted type castable to
// out's.
bool check_cat_tensors(KernelArgs& a, Span<Tensor> tensors, Tensor out) {
  if (!check_supported_dtype(a, out, "out") || !check_contiguous(a, out, "out")) {
    return false;
  }
  if (tensors.size() == 0) {
    return a.fail(Error::InvalidArgument, "tensors must not be empty");
  }
  ScalarType promoted = tensors[0].scalar_type();
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!check_supported_dtype(a, tensors[i], "tensors entry") ||
        !check_contiguous(a, tensors[i], "tensors entry") ||
        !promote_types(promoted, tensors[i].scalar_type(), &promoted)) {
      return false;
    }
  }
  if (!can_cast(promoted, out.scalar_type())) {
    return a.fail(Error::InvalidArgument, "inputs' type %s cannot be cast to out dtype %s",
                  scalar_type_name(promoted), scalar_type_name(out.scalar_type()));
  }
  return true;
}

// out's shape: ref's, with the inputs' sizes along d summed. Depends on
// dim, an Int, so it runs in every mode.
bool cat_shape(KernelArgs& a, Span<Tensor> tensors, const Tensor& ref, size_t d,
               Shape* shape) {
  *shape = shape_of(ref);
  // Summed in int64: sizes of empty inputs are unbounded by storage, and
  // the int32 sum could overflow.
  int64_t cat_size = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (is_legacy_empty(t)) {
      continue;
    }
    bool match = t.dim() == ref.dim();
    for (size_t k = 0; match && k < t.dim(); ++k) {
      match = k == d || t.sizes()[k] == ref.sizes()[k];
    }
    if (!match) {
      return a.fail(Error::InvalidArgument,
                    "tensors[%zu] does not match tensors' shape outside dim %zu", i, d);
    }
    cat_size += t.sizes()[d];
    if (cat_size > INT32_MAX) {
      return a.fail(Error::InvalidArgument, "concatenated size along dim %zu exceeds %d", d,
                    int(INT32_MAX));
    }
  }
  shape->sizes[d] = SizesType(cat_size);
  return true;
}

// Each input fills a [outer, its_inner] block of out's rows, read from its
// current data pointer.
void cat_copy(Span<Tensor> tensors, size_t d, Tensor out) {
  int64_t outer = 1;
  for (size_t k = 0; k < d; ++k) {
    outer *= out.sizes()[k];
  }
  const int64_t out_row = outer == 0 ? 0 : out.numel() / outer;
  const int64_t oes = int64_t(out.element_size());
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  int64_t col = 0;
  for (const Tensor& t : tensors) {
    if (is_legacy_empty(t) || t.numel() == 0) {
      continue;
    }
    const int64_t row = t.numel() / outer;
    const int64_t ies = int64_t(t.element_size());
    const char* src = static_cast<const char*>(t.const_data_ptr());
    for (int64_t r = 0; r < outer; ++r) {
      char* o = dst + (r * out_row + col) * oes;
      const char* s = src + r * row * ies;
      if (t.scalar_type() == out.scalar_type()) {
        std::memmove(o, s, size_t(row * ies));
      } else {
        (void)convert_elements(s, t.scalar_type(), 1, o, out.scalar_type(), 1, row);
      }
    }
    col += row;
  }
}

void cat_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::cat.out", 4);
  const Span<Tensor> tensors = a.tensor_list(0);
  const int64_t dim = a.int_value(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || (!a.prepared() && !check_cat_tensors(a, tensors, out))) {
    return;
  }
  const Tensor* ref = first_non_empty(tensors);
  if (ref == nullptr) {  // all inputs are legacy empty tensors
    const SizesType zero[1] = {0};
    (void)out_shape_prologue(a, out, {zero, out.dim() == 1 ? size_t(1) : size_t(0)});
    return;
  }
  size_t d;
  if (!normalize_dim(a, dim, ref->dim(), "dim", &d)) {
    return;
  }
  if (ref->dim() == 0) {
    a.fail(Error::InvalidArgument, "zero-dim tensors cannot be concatenated");
    return;
  }
  Shape shape;
  if (!cat_shape(a, tensors, *ref, d, &shape) || !out_shape_prologue(a, out, shape.span())) {
    return;
  }
  cat_copy(tensors, d, out);
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::cat.out", cat_out_boxed);

}  // namespace ember
