#include "kernels/portable/util/sort_util.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/index_util.h"

namespace ember {

namespace {

template <typename T>
using KeyType = typename std::conditional<is_reduced_float_v<T>, float, T>::type;

template <typename K>
bool is_nan_key(K v) {
  if constexpr (std::is_floating_point<K>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

template <typename T>
void sort_typed(Tensor self, size_t dim, int64_t k, bool descending,
                bool partial, Tensor values, Tensor indices, int64_t* pos) {
  using K = KeyType<T>;
  const size_t nd = self.dim();
  const int64_t n = nd == 0 ? 1 : self.sizes()[dim];
  const int64_t s_step = nd == 0 ? 0 : self.strides()[dim];
  const int64_t v_step = nd == 0 ? 0 : values.strides()[dim];
  const int64_t i_step = nd == 0 ? 0 : indices.strides()[dim];
  // Walk every slice start: dims other than `dim`.
  SizesType sizes[kMaxTensorDim];
  int64_t strides[3][kMaxTensorDim];
  int64_t slices = 1;
  for (size_t d = 0; d < nd; ++d) {
    sizes[d] = d == dim ? 1 : self.sizes()[d];
    slices *= sizes[d];
    strides[0][d] = self.strides()[d];
    strides[1][d] = values.strides()[d];
    strides[2][d] = indices.strides()[d];
  }
  const T* src = self.const_data_ptr<T>();
  T* vout = values.mutable_data_ptr<T>();
  int64_t* iout = indices.mutable_data_ptr<int64_t>();
  Odometer<3> walk(sizes, nd, strides);
  for (int64_t sl = 0; sl < slices; ++sl, walk.next()) {
    const T* base = src + walk.offsets()[0];
    // Bool storage is read as bytes (load_element): any nonzero one is true.
    auto key = [&](int64_t p) { return static_cast<K>(load_element(base + p * s_step)); };
    // Strict weak order: NaN above all numbers, ties by position.
    auto before = [&](int64_t x, int64_t y) {
      const K a = key(x), b = key(y);
      const bool an = is_nan_key(a), bn = is_nan_key(b);
      if (an || bn) {
        if (an && bn) return x < y;
        return descending ? an : bn;
      }
      if (a != b) return descending ? b < a : a < b;
      return x < y;
    };
    for (int64_t p = 0; p < n; ++p) {
      pos[p] = p;
    }
    if (partial) {
      std::partial_sort(pos, pos + k, pos + n, before);
    } else {
      std::sort(pos, pos + n, before);
    }
    T* vo = vout + walk.offsets()[1];
    int64_t* io = iout + walk.offsets()[2];
    for (int64_t p = 0; p < k; ++p) {
      vo[p * v_step] = load_element(base + pos[p] * s_step);
      io[p * i_step] = pos[p];
    }
  }
}

}  // namespace

bool sort_slices(KernelArgs& a, KernelContext& ctx, Tensor self, size_t dim,
                 int64_t k, bool descending, bool partial, Tensor values,
                 Tensor indices) {
  if (self.numel() == 0 || k == 0) {
    return true;
  }
  const int64_t n = self.dim() == 0 ? 1 : self.sizes()[dim];
  int64_t* pos = static_cast<int64_t*>(ctx.allocate_temp(size_t(n) * sizeof(int64_t)));
  if (pos == nullptr) {
    return a.fail(Error::MemoryAllocationFailed,
                  "no temp memory to sort a slice of %lld elements",
                  static_cast<long long>(n));
  }
  const bool known = visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    sort_typed<T>(self, dim, k, descending, partial, values, indices, pos);
  });
  if (!known) {
    return a.fail(Error::InvalidArgument, "unsupported dtype %s",
                  scalar_type_name(self.scalar_type()));
  }
  return true;
}

}  // namespace ember
