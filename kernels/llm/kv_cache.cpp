#include "kernels/llm/kv_cache.h"

#include <cstring>

#include "kernels/portable/util/shape_util.h"

namespace ember {

bool check_cache_layout(KernelArgs& a, Tensor value, Tensor cache, const char* what) {
  if (value.dim() != 4 || cache.dim() != 4) {
    return a.fail(Error::InvalidArgument,
                  "value and %s must be 4-D [batch, seq, heads, head_dim], got %zu-D and "
                  "%zu-D",
                  what, value.dim(), cache.dim());
  }
  if (value.scalar_type() != cache.scalar_type()) {
    return a.fail(Error::InvalidArgument, "value dtype %s differs from %s dtype %s",
                  scalar_type_name(value.scalar_type()), what,
                  scalar_type_name(cache.scalar_type()));
  }
  if (!check_contiguous(a, value, "value") || !check_contiguous(a, cache, what)) {
    return false;
  }
  const Span<const SizesType> v = value.sizes(), c = cache.sizes();
  if (v[0] != c[0] || v[2] != c[2] || v[3] != c[3]) {
    return a.fail(Error::InvalidArgument,
                  "value [%lld, %lld, %lld, %lld] does not fit %s [%lld, %lld, %lld, %lld] "
                  "(batch, heads and head_dim must match)",
                  static_cast<long long>(v[0]), static_cast<long long>(v[1]),
                  static_cast<long long>(v[2]), static_cast<long long>(v[3]), what,
                  static_cast<long long>(c[0]), static_cast<long long>(c[1]),
                  static_cast<long long>(c[2]), static_cast<long long>(c[3]));
  }
  return true;
}

bool check_cache_update(KernelArgs& a, Tensor value, Tensor cache, int64_t start_pos,
                        const char* what) {
  if (!check_cache_layout(a, value, cache, what)) {
    return false;
  }
  const Span<const SizesType> v = value.sizes(), c = cache.sizes();
  if (start_pos < 0 || start_pos > int64_t(c[1]) - int64_t(v[1])) {
    return a.fail(Error::InvalidArgument,
                  "start_pos %lld + seq_len %lld does not fit %s of %lld positions",
                  static_cast<long long>(start_pos), static_cast<long long>(v[1]), what,
                  static_cast<long long>(c[1]));
  }
  return true;
}

void write_cache(Tensor value, Tensor cache, int64_t start_pos) {
  const size_t row = size_t(value.sizes()[2]) * size_t(value.sizes()[3]) * value.element_size();
  const size_t value_batch = size_t(value.sizes()[1]) * row;
  const size_t cache_batch = size_t(cache.sizes()[1]) * row;
  if (value_batch == 0) {
    return;
  }
  const char* src = static_cast<const char*>(value.const_data_ptr());
  char* dst = static_cast<char*>(cache.mutable_data_ptr()) + size_t(start_pos) * row;
  for (int64_t b = 0; b < value.sizes()[0]; ++b) {
    // memmove: a hostile memory plan may overlap the two.
    std::memmove(dst + size_t(b) * cache_batch, src + size_t(b) * value_batch, value_batch);
  }
}

bool check_cache_indices(KernelArgs& a, Tensor value, Tensor cache, Tensor indices,
                         const char* what) {
  if (!check_cache_layout(a, value, cache, what)) {
    return false;
  }
  if (indices.scalar_type() != ScalarType::Long || indices.dim() != 2 ||
      indices.sizes()[0] != value.sizes()[0] || indices.sizes()[1] != value.sizes()[1]) {
    return a.fail(Error::InvalidArgument,
                  "indices must be Long [batch %lld, seq_len %lld], got %s %zu-D",
                  static_cast<long long>(value.sizes()[0]),
                  static_cast<long long>(value.sizes()[1]),
                  scalar_type_name(indices.scalar_type()), indices.dim());
  }
  if (!check_contiguous(a, indices, "indices")) {
    return false;
  }
  const int64_t* idx = indices.const_data_ptr<int64_t>();
  for (int64_t i = 0; i < indices.numel(); ++i) {
    if (idx[i] < 0 || idx[i] >= int64_t(cache.sizes()[1])) {
      return a.fail(Error::InvalidArgument, "index %lld is outside %s of %lld positions",
                    static_cast<long long>(idx[i]), what,
                    static_cast<long long>(cache.sizes()[1]));
    }
  }
  return true;
}

void write_cache_rows(Tensor value, Tensor cache, Tensor indices) {
  const size_t row = size_t(value.sizes()[2]) * size_t(value.sizes()[3]) * value.element_size();
  const int64_t seq = value.sizes()[1];
  const size_t cache_batch = size_t(cache.sizes()[1]) * row;
  const char* src = static_cast<const char*>(value.const_data_ptr());
  char* dst = static_cast<char*>(cache.mutable_data_ptr());
  const int64_t* idx = indices.const_data_ptr<int64_t>();
  if (row == 0) {
    return;
  }
  for (int64_t b = 0; b < value.sizes()[0]; ++b) {
    for (int64_t s = 0; s < seq; ++s) {
      std::memmove(dst + size_t(b) * cache_batch + size_t(idx[b * seq + s]) * row,
                   src + size_t(b * seq + s) * row, row);
    }
  }
}

}  // namespace ember
