#include "kernels/portable/util/shape_util.h"

#include <cstdio>
#include <cstring>

#include "kernels/portable/util/dtype_util.h"
#include "runtime/platform/format.h"

namespace ember {

int64_t Shape::numel() const {
  // Up to 16 sizes below 2^31 can overflow int64: saturate (a zero size
  // anywhere still gives 0).
  int64_t n = 1;
  bool saturated = false;
  for (size_t i = 0; i < dim; ++i) {
    if (sizes[i] == 0) {
      return 0;
    }
    saturated = saturated || __builtin_mul_overflow(n, int64_t(sizes[i]), &n);
  }
  return saturated ? INT64_MAX : n;
}

bool normalize_dim(KernelArgs& args, int64_t dim, size_t ndim,
                   const char* what, size_t* out) {
  const int64_t n = ndim == 0 ? 1 : int64_t(ndim);
  if (dim < -n || dim >= n) {
    return args.fail(Error::InvalidArgument,
                     "%s %lld out of range for a tensor of %zu dims", what,
                     static_cast<long long>(dim), ndim);
  }
  *out = size_t(dim < 0 ? dim + n : dim);
  return true;
}

Shape shape_of(Tensor t) {
  Shape s;
  s.dim = t.dim();
  for (size_t i = 0; i < s.dim; ++i) {
    s.sizes[i] = t.sizes()[i];
  }
  return s;
}

bool broadcast_shapes(KernelArgs& args, const Tensor* tensors, size_t count,
                      Shape* out) {
  size_t ndim = 0;
  for (size_t i = 0; i < count; ++i) {
    ndim = tensors[i].dim() > ndim ? tensors[i].dim() : ndim;
  }
  out->dim = ndim;
  for (size_t d = 0; d < ndim; ++d) {
    out->sizes[d] = 1;
  }
  for (size_t i = 0; i < count; ++i) {
    const Span<const SizesType> s = tensors[i].sizes();
    const size_t lead = ndim - s.size();
    for (size_t d = 0; d < s.size(); ++d) {
      SizesType& o = out->sizes[lead + d];
      if (s[d] == o || s[d] == 1) {
        continue;
      }
      if (o == 1) {
        o = s[d];
        continue;
      }
      return args.fail(Error::InvalidArgument,
                       "shapes do not broadcast: operand %zu has size %d at "
                       "dim %zu where another operand has %d",
                       i, int(s[d]), d, int(o));
    }
  }
  return true;
}

bool broadcasts_to(Span<const SizesType> in, Span<const SizesType> to) {
  if (in.size() > to.size()) {
    return false;
  }
  const size_t lead = to.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) {
    if (in[d] != 1 && in[d] != to[lead + d]) {
      return false;
    }
  }
  return true;
}

namespace {

// "2, 3, 4" into buf (truncated to its size).
template <size_t N>
void format_sizes(Span<const SizesType> sizes, char (&buf)[N]) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizes.size() && used < N; ++i) {
    used += format_text(buf + used, N - used, "%s%d", i == 0 ? "" : ", ", int(sizes[i]));
  }
}

bool same_sizes(Span<const SizesType> a, Span<const SizesType> b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool resize_out(KernelArgs& args, Tensor out, Span<const SizesType> sizes) {
  const Error err = resize_tensor(out, sizes);
  if (err == Error::Ok) {
    return true;
  }
  char shape[128];
  format_sizes(sizes, shape);
  prefix_error_message(error_name(err), "cannot resize out to [%s]", shape);
  return args.fail_with_cause(err);
}

bool match_out_shape(KernelArgs& args, Tensor out, Span<const SizesType> sizes) {
  if (args.prepared() && same_sizes(out.sizes(), sizes)) {
    return true;
  }
  return resize_out(args, out, sizes);
}

bool out_shape_prologue(KernelArgs& args, Tensor out, Span<const SizesType> sizes) {
  return match_out_shape(args, out, sizes) && checks_done(args);
}

bool check_shape(KernelArgs& args, Tensor t, const Shape& want, const char* what) {
  if (same_sizes(t.sizes(), want.span())) {
    return true;
  }
  char have_s[128], want_s[128];
  format_sizes(t.sizes(), have_s);
  format_sizes(want.span(), want_s);
  return args.fail(Error::InvalidArgument, "%s has shape [%s]; expected [%s]", what,
                   have_s, want_s);
}

bool check_contiguous(KernelArgs& args, Tensor t, const char* what) {
  if (t.is_contiguous()) {
    return true;
  }
  return args.fail(Error::NotSupported,
                   "%s has a non-contiguous dim order; this kernel supports "
                   "only contiguous tensors",
                   what);
}

bool check_supported_dtype(KernelArgs& args, Tensor t, const char* what) {
  if (is_supported_storage_type(t.scalar_type())) {
    return true;
  }
  return args.fail(Error::InvalidArgument, "%s has unsupported dtype %s", what,
                   scalar_type_name(t.scalar_type()));
}

bool check_same_dtype(KernelArgs& args, Tensor self, Tensor out) {
  if (self.scalar_type() == out.scalar_type()) {
    return check_supported_dtype(args, self, "self");
  }
  return args.fail(Error::InvalidArgument,
                   "out dtype %s differs from self dtype %s",
                   scalar_type_name(out.scalar_type()),
                   scalar_type_name(self.scalar_type()));
}

bool check_same_movable_dtype(KernelArgs& args, Tensor self, Tensor out) {
  if (self.scalar_type() == out.scalar_type() && is_complex_type(self.scalar_type())) {
    return true;
  }
  return check_same_dtype(args, self, out);
}

bool to_shape(KernelArgs& args, Span<const int64_t> sizes, const char* what,
              Shape* out) {
  if (sizes.size() > kMaxTensorDim) {
    return args.fail(Error::InvalidArgument, "%s has %zu dims; at most %zu",
                     what, sizes.size(), kMaxTensorDim);
  }
  out->dim = sizes.size();
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 || sizes[i] > INT32_MAX) {
      return args.fail(Error::InvalidArgument, "%s[%zu] = %lld is not a valid size",
                       what, i, static_cast<long long>(sizes[i]));
    }
    out->sizes[i] = SizesType(sizes[i]);
  }
  return true;
}

}  // namespace ember
