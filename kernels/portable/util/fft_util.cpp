#include "kernels/portable/util/fft_util.h"

#include <cmath>

namespace ember {

bool parse_fft_dims(KernelArgs& args, Span<const int64_t> dim, size_t ndim, bool allow_empty,
                    FftDims* out) {
  if (ndim == 0) {
    return args.fail(Error::InvalidArgument, "self must have at least one dim, got a 0-dim tensor");
  }
  if (dim.size() == 0 && !allow_empty) {
    return args.fail(Error::InvalidArgument, "dim must name at least one dim");
  }
  if (dim.size() > ndim) {
    return args.fail(Error::InvalidArgument, "dim names %llu dims of a tensor of %llu",
                     static_cast<unsigned long long>(dim.size()),
                     static_cast<unsigned long long>(ndim));
  }
  const int64_t n = int64_t(ndim);
  out->count = 0;
  for (size_t i = 0; i < dim.size(); ++i) {
    const int64_t d = dim[i];
    if (d < -n || d >= n) {
      return args.fail(Error::InvalidArgument, "dim %lld out of range for a tensor of %lld dims",
                       static_cast<long long>(d), static_cast<long long>(n));
    }
    const size_t normalized = size_t(d < 0 ? d + n : d);
    for (size_t j = 0; j < out->count; ++j) {
      if (out->dims[j] == normalized) {
        return args.fail(Error::InvalidArgument, "dim %lld is named twice",
                         static_cast<long long>(normalized));
      }
    }
    out->dims[out->count++] = normalized;
  }
  return true;
}

bool check_fft_lengths(KernelArgs& args, Span<const SizesType> sizes, const FftDims& dims,
                       const char* what) {
  for (size_t i = 0; i < dims.count; ++i) {
    if (sizes[dims.dims[i]] < 1) {
      return args.fail(Error::InvalidArgument,
                       "%s has no elements along transform dim %llu (a signal needs at least one)",
                       what, static_cast<unsigned long long>(dims.dims[i]));
    }
  }
  return true;
}

bool fft_norm_scale(KernelArgs& args, int64_t normalization, double n, double* scale) {
  switch (normalization) {
    case 0: *scale = 1.0; return true;
    case 1: *scale = 1.0 / std::sqrt(n); return true;
    case 2: *scale = 1.0 / n; return true;
    default:
      return args.fail(Error::InvalidArgument,
                       "normalization %lld is not 0 (none), 1 (by 1/sqrt(n)) or 2 (by 1/n)",
                       static_cast<long long>(normalization));
  }
}

bool fft_complex_of(ScalarType real, ScalarType* complex) {
  switch (real) {
    case ScalarType::Float: *complex = ScalarType::ComplexFloat; return true;
    case ScalarType::Double: *complex = ScalarType::ComplexDouble; return true;
    default: return false;
  }
}

bool fft_real_of(ScalarType complex, ScalarType* real) {
  switch (complex) {
    case ScalarType::ComplexFloat: *real = ScalarType::Float; return true;
    case ScalarType::ComplexDouble: *real = ScalarType::Double; return true;
    default: return false;
  }
}

bool check_fft_out_dtype(KernelArgs& args, Tensor self, Tensor out, ScalarType want) {
  if (out.scalar_type() != want) {
    return args.fail(Error::InvalidArgument, "out dtype %s is not %s, the result type for %s self",
                     scalar_type_name(out.scalar_type()), scalar_type_name(want),
                     scalar_type_name(self.scalar_type()));
  }
  return true;
}

template <typename T>
bool alloc_fft_scratch(KernelArgs& args, KernelContext& ctx, const size_t* lengths, size_t count,
                       FftScratch<T>* s) {
  size_t plan_bytes = 0, max_length = 0;
  for (size_t i = 0; i < count; ++i) {
    const size_t bytes = math::fft_plan_bytes<T>(lengths[i]);
    if (bytes == 0) {
      return args.fail(Error::InvalidArgument, "cannot plan a transform of length %llu",
                       static_cast<unsigned long long>(lengths[i]));
    }
    plan_bytes = bytes > plan_bytes ? bytes : plan_bytes;
    max_length = lengths[i] > max_length ? lengths[i] : max_length;
  }
  // Lines: 2 + 4 + 4 values of T per element of the longest signal.
  const size_t line_values = 10 * max_length;
  if (max_length > SIZE_MAX / 10 / sizeof(T) ||
      plan_bytes > SIZE_MAX - line_values * sizeof(T)) {
    return args.fail(Error::InvalidArgument, "transform of length %llu is too long",
                     static_cast<unsigned long long>(max_length));
  }
  const size_t total = plan_bytes + line_values * sizeof(T);
  void* memory = ctx.allocate_temp(total);
  if (memory == nullptr) {
    return args.fail(Error::MemoryAllocationFailed,
                     "needs %llu bytes of temp memory for transforms of length up to %llu",
                     static_cast<unsigned long long>(total),
                     static_cast<unsigned long long>(max_length));
  }
  s->plan_memory = memory;
  s->plan_bytes = plan_bytes;
  s->max_length = max_length;
  T* lines = reinterpret_cast<T*>(static_cast<char*>(memory) + plan_bytes);
  s->line_a = lines;
  s->line_b = lines + 2 * max_length;
  s->work = lines + 6 * max_length;
  return true;
}

namespace {

template <typename T>
bool plan_for(KernelArgs& args, FftScratch<T>& s, size_t n, math::FftPlan<T>* plan) {
  if (n > s.max_length || !math::fft_plan_init(plan, n, s.plan_memory, s.plan_bytes)) {
    return args.fail(Error::Internal, "no scratch planned for a transform of length %llu",
                     static_cast<unsigned long long>(n));
  }
  return true;
}

// Calls fn(in_offset, out_offset) for every line of the pass: every index
// of pass.shape with index[axis] = 0.
template <typename Fn>
void for_each_line(const FftPass& pass, Fn fn) {
  const size_t ndim = pass.shape.size();
  for (size_t d = 0; d < ndim; ++d) {
    if (d != pass.axis && pass.shape[d] == 0) {
      return;
    }
  }
  SizesType index[kMaxTensorDim] = {};
  int64_t in_off = 0, out_off = 0;
  for (;;) {
    fn(in_off, out_off);
    size_t d = ndim;
    for (; d-- > 0;) {
      if (d == pass.axis) {
        continue;
      }
      in_off += pass.in_strides[d];
      out_off += pass.out_strides[d];
      if (++index[d] < pass.shape[d]) {
        break;
      }
      in_off -= int64_t(pass.shape[d]) * pass.in_strides[d];
      out_off -= int64_t(pass.shape[d]) * pass.out_strides[d];
      index[d] = 0;
    }
    if (d == SIZE_MAX) {  // every digit wrapped: done
      return;
    }
  }
}

template <typename T>
void gather_pairs(const T* src, int64_t offset, int64_t stride, size_t count, T* line) {
  for (size_t j = 0; j < count; ++j) {
    const int64_t at = 2 * (offset + int64_t(j) * stride);
    line[2 * j] = src[at];
    line[2 * j + 1] = src[at + 1];
  }
}

template <typename T>
void scatter_pairs(const T* line, size_t count, T scale, T* dst, int64_t offset, int64_t stride) {
  for (size_t j = 0; j < count; ++j) {
    const int64_t at = 2 * (offset + int64_t(j) * stride);
    dst[at] = line[2 * j] * scale;
    dst[at + 1] = line[2 * j + 1] * scale;
  }
}

}  // namespace

template <typename T>
bool run_c2c_pass(KernelArgs& args, FftScratch<T>& s, const FftPass& pass) {
  math::FftPlan<T> plan;
  if (!plan_for(args, s, pass.length, &plan)) {
    return false;
  }
  const T* in = static_cast<const T*>(pass.in);
  T* out = static_cast<T*>(pass.out);
  const int64_t in_step = pass.in_strides[pass.axis], out_step = pass.out_strides[pass.axis];
  const T scale = T(pass.scale);
  for_each_line(pass, [&](int64_t in_off, int64_t out_off) {
    gather_pairs(in, in_off, in_step, pass.length, s.line_a);
    math::fft_execute(plan, s.line_a, s.line_b, pass.inverse);
    scatter_pairs(s.line_b, pass.length, scale, out, out_off, out_step);
  });
  return true;
}

template <typename T>
bool run_r2c_pass(KernelArgs& args, FftScratch<T>& s, const FftPass& pass) {
  math::FftPlan<T> plan;
  if (!plan_for(args, s, pass.length, &plan)) {
    return false;
  }
  const T* in = static_cast<const T*>(pass.in);
  T* out = static_cast<T*>(pass.out);
  const size_t n = pass.length, count = pass.out_count;
  const int64_t in_step = pass.in_strides[pass.axis], out_step = pass.out_strides[pass.axis];
  const T scale = T(pass.scale);
  T* first = s.line_a;
  T* second = s.line_a + n;
  T* first_out = s.line_b;
  T* second_out = s.line_b + 2 * count;
  // A line waits in `first` for a partner; the last one may go alone.
  bool waiting = false;
  int64_t waiting_out = 0;
  for_each_line(pass, [&](int64_t in_off, int64_t out_off) {
    T* line = waiting ? second : first;
    for (size_t j = 0; j < n; ++j) {
      line[j] = in[in_off + int64_t(j) * in_step];
    }
    if (!waiting) {
      waiting = true;
      waiting_out = out_off;
      return;
    }
    math::fft_r2c_pair(plan, first, second, first_out, second_out, count, s.work);
    scatter_pairs(first_out, count, scale, out, waiting_out, out_step);
    scatter_pairs(second_out, count, scale, out, out_off, out_step);
    waiting = false;
  });
  if (waiting) {
    math::fft_r2c(plan, first, first_out, count, s.work);
    scatter_pairs(first_out, count, scale, out, waiting_out, out_step);
  }
  return true;
}

template <typename T>
bool run_c2r_pass(KernelArgs& args, FftScratch<T>& s, const FftPass& pass) {
  math::FftPlan<T> plan;
  if (!plan_for(args, s, pass.length, &plan)) {
    return false;
  }
  const T* in = static_cast<const T*>(pass.in);
  T* out = static_cast<T*>(pass.out);
  const int64_t in_step = pass.in_strides[pass.axis], out_step = pass.out_strides[pass.axis];
  const T scale = T(pass.scale);
  const size_t half = pass.length / 2 + 1;
  for_each_line(pass, [&](int64_t in_off, int64_t out_off) {
    gather_pairs(in, in_off, in_step, half, s.line_a);
    math::fft_c2r(plan, s.line_a, s.line_b, s.work);
    for (size_t j = 0; j < pass.length; ++j) {
      out[out_off + int64_t(j) * out_step] = s.line_b[j] * scale;
    }
  });
  return true;
}

template bool alloc_fft_scratch<float>(KernelArgs&, KernelContext&, const size_t*, size_t,
                                       FftScratch<float>*);
template bool alloc_fft_scratch<double>(KernelArgs&, KernelContext&, const size_t*, size_t,
                                        FftScratch<double>*);
template bool run_c2c_pass<float>(KernelArgs&, FftScratch<float>&, const FftPass&);
template bool run_c2c_pass<double>(KernelArgs&, FftScratch<double>&, const FftPass&);
template bool run_r2c_pass<float>(KernelArgs&, FftScratch<float>&, const FftPass&);
template bool run_r2c_pass<double>(KernelArgs&, FftScratch<double>&, const FftPass&);
template bool run_c2r_pass<float>(KernelArgs&, FftScratch<float>&, const FftPass&);
template bool run_c2r_pass<double>(KernelArgs&, FftScratch<double>&, const FftPass&);

}  // namespace ember
