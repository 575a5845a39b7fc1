// Transpose (transpose.h).
//
// The dims are first normalized (size-1 dims dropped, dims that are
// neighbours in both input and output merged), which turns many layout
// changes into a plain copy or a single 2-D transpose. When the last dim
// stays last, rows are copied. Otherwise the work is a batch of 2-D
// transposes between the input's innermost dim and the output's, in tiles
// of 64 x 64 bytes so that reads and writes stay within a few cache
// lines; 4-byte elements move in 4 x 4 register blocks, and a short output
// row (2 to 4 elements) is written as an interleave of 2 to 4 input rows.
#include <algorithm>

#include "kernels/math/transpose.h"
#include "runtime/platform/threadpool.h"

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define EMBER_MATH_HAVE_SHUFFLE 1
#endif
#endif
#ifndef EMBER_MATH_HAVE_SHUFFLE
#define EMBER_MATH_HAVE_SHUFFLE 0
#endif

namespace ember::math {
namespace {

// Walks the index space of `n` dims (outermost first), keeping the input
// and output element offsets.
struct Odometer {
  size_t n = 0;
  size_t size[kMaxTransposeDims], istride[kMaxTransposeDims], ostride[kMaxTransposeDims], idx[kMaxTransposeDims];
  size_t ioff = 0, ooff = 0;

  void seek(size_t linear) {
    ioff = ooff = 0;
    for (size_t d = n; d-- > 0;) {
      idx[d] = linear % size[d];
      linear /= size[d];
      ioff += idx[d] * istride[d];
      ooff += idx[d] * ostride[d];
    }
  }
  void next() {
    for (size_t d = n; d-- > 0;) {
      ioff += istride[d];
      ooff += ostride[d];
      if (++idx[d] < size[d]) return;
      ioff -= size[d] * istride[d];
      ooff -= size[d] * ostride[d];
      idx[d] = 0;
    }
  }
};

// dst[i * ds + j] = src[i + j * ss] for i < ni, j < nj.
struct Transpose2d {
  size_t ni, nj;
  const void* src;
  size_t ss;
  void* dst;
  size_t ds;
};

// dst is [ni x NJ], contiguous: NJ input rows interleaved.
template <typename E, int NJ>
EMBER_MATH_INLINE void interleave(size_t ni, const E* __restrict src, size_t ss,
                                 E* __restrict dst) {
  for (size_t i = 0; i < ni; ++i) {
    for (int j = 0; j < NJ; ++j) dst[i * NJ + j] = src[j * ss + i];
  }
}

#if EMBER_MATH_HAVE_SHUFFLE
// Four rows of four 4-byte elements, transposed in registers.
EMBER_MATH_INLINE void transpose_4x4(const uint32_t* src, size_t ss, uint32_t* dst, size_t ds) {
  VecI4 r0, r1, r2, r3;
  std::memcpy(&r0, src, 16);
  std::memcpy(&r1, src + ss, 16);
  std::memcpy(&r2, src + 2 * ss, 16);
  std::memcpy(&r3, src + 3 * ss, 16);
  const VecI4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
  const VecI4 t1 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
  const VecI4 t2 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
  const VecI4 t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
  const VecI4 o0 = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  const VecI4 o1 = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  const VecI4 o2 = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  const VecI4 o3 = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
  std::memcpy(dst, &o0, 16);
  std::memcpy(dst + ds, &o1, 16);
  std::memcpy(dst + 2 * ds, &o2, 16);
  std::memcpy(dst + 3 * ds, &o3, 16);
}
#endif

template <typename E>
EMBER_MATH_INLINE void transpose_2d(const Transpose2d& t) {
  const E* src = static_cast<const E*>(t.src);
  E* dst = static_cast<E*>(t.dst);
  if (t.ds == t.nj && t.nj <= 4) {
    switch (t.nj) {
      case 2: interleave<E, 2>(t.ni, src, t.ss, dst); return;
      case 3: interleave<E, 3>(t.ni, src, t.ss, dst); return;
      case 4: interleave<E, 4>(t.ni, src, t.ss, dst); return;
      default: break;
    }
  }
  constexpr size_t T = 64 / sizeof(E) < 4 ? 4 : 64 / sizeof(E);
  for (size_t i0 = 0; i0 < t.ni; i0 += T) {
    const size_t ie = std::min(t.ni, i0 + T);
    for (size_t j0 = 0; j0 < t.nj; j0 += T) {
      const size_t je = std::min(t.nj, j0 + T);
      size_t i = i0;
#if EMBER_MATH_HAVE_SHUFFLE
      if constexpr (sizeof(E) == 4) {
        for (; i + 4 <= ie; i += 4) {
          size_t j = j0;
          for (; j + 4 <= je; j += 4) {
            transpose_4x4(reinterpret_cast<const uint32_t*>(src) + i + j * t.ss, t.ss,
                          reinterpret_cast<uint32_t*>(dst) + i * t.ds + j, t.ds);
          }
          for (size_t r = i; r < i + 4; ++r) {
            for (size_t jj = j; jj < je; ++jj) dst[r * t.ds + jj] = src[r + jj * t.ss];
          }
        }
      }
#endif
      for (; i < ie; ++i) {
        E* d = dst + i * t.ds;
        const E* s = src + i;
        for (size_t j = j0; j < je; ++j) d[j] = s[j * t.ss];
      }
    }
  }
}

using Transpose2dFn = void (*)(const Transpose2d&);

template <typename E>
void transpose_2d_baseline(const Transpose2d& t) {
  transpose_2d<E>(t);
}
#if EMBER_MATH_X86_DISPATCH
template <typename E>
EMBER_MATH_TARGET_AVX2 void transpose_2d_avx2(const Transpose2d& t) {
  transpose_2d<E>(t);
}
template <typename E>
EMBER_MATH_TARGET_AVX512 void transpose_2d_avx512(const Transpose2d& t) {
  transpose_2d<E>(t);
}
#endif

template <typename E>
Transpose2dFn transpose_2d_kernel() {
#if EMBER_MATH_X86_DISPATCH
  switch (best_isa()) {
    case Isa::kAvx512: return transpose_2d_avx512<E>;
    case Isa::kAvx2: return transpose_2d_avx2<E>;
    case Isa::kBaseline:
    case Isa::kNeon: break;
  }
#endif
  return transpose_2d_baseline<E>;
}

// The outer dims in parallel, and each 2-D transpose split into blocks of
// `iblock` rows of i.
template <typename E>
void transpose_batch(const Odometer& outer, size_t ni, size_t nj, size_t ss, size_t ds,
                     const void* in, void* out) {
  struct Ctx {
    const Odometer* outer;
    Transpose2dFn fn;
    size_t ni, nj, ss, ds, iblock, blocks;
    const E* in;
    E* out;
  } c{&outer, transpose_2d_kernel<E>(), ni, nj, ss, ds, 0, 0,
      static_cast<const E*>(in), static_cast<E*>(out)};
  c.iblock = std::max<size_t>(16, 16384 / (nj * sizeof(E)));  // about 16 KiB of output
  c.blocks = (ni + c.iblock - 1) / c.iblock;
  size_t outer_count = 1;
  for (size_t d = 0; d < outer.n; ++d) outer_count *= outer.size[d];
  parallel_for(outer_count * c.blocks, [&c](size_t task) {
    Odometer o = *c.outer;
    o.seek(task / c.blocks);
    const size_t i0 = (task % c.blocks) * c.iblock;
    c.fn(Transpose2d{std::min(c.iblock, c.ni - i0), c.nj, c.in + o.ioff + i0, c.ss,
                     c.out + o.ooff + i0 * c.ds, c.ds});
  });
}

void copy_rows(const Odometer& rows, size_t num_rows, size_t row_bytes, size_t es,
               const uint8_t* src, uint8_t* dst) {
  struct Ctx {
    const Odometer* rows;
    size_t num_rows, row_bytes, es, rows_per_task;
    const uint8_t* src;
    uint8_t* dst;
  } c{&rows, num_rows, row_bytes, es, std::max<size_t>(1, 16384 / row_bytes), src, dst};
  parallel_for((num_rows + c.rows_per_task - 1) / c.rows_per_task, [&c](size_t task) {
    Odometer o = *c.rows;
    const size_t first = task * c.rows_per_task;
    const size_t end = std::min(c.num_rows, first + c.rows_per_task);
    o.seek(first);
    for (size_t row = first; row < end; ++row, o.next()) {
      std::memcpy(c.dst + o.ooff * c.es, c.src + o.ioff * c.es, c.row_bytes);
    }
  });
}

}  // namespace

void transpose(size_t es, size_t rank, const size_t* in_dims, const size_t* perm,
               const void* in, void* out) {
  size_t istride[kMaxTransposeDims];
  size_t total = 1;
  for (size_t d = rank; d-- > 0;) {
    istride[d] = total;
    total *= in_dims[d];
  }
  if (total == 0) return;
  // Output dims (outermost first) with their input strides.
  size_t size[kMaxTransposeDims], stride[kMaxTransposeDims];
  size_t r = 0;
  for (size_t d = 0; d < rank; ++d) {
    const size_t n = in_dims[perm[d]], st = istride[perm[d]];
    if (n == 1) continue;
    if (r > 0 && stride[r - 1] == st * n) {
      size[r - 1] *= n;
      stride[r - 1] = st;
    } else {
      size[r] = n;
      stride[r] = st;
      ++r;
    }
  }
  const uint8_t* src = static_cast<const uint8_t*>(in);
  uint8_t* dst = static_cast<uint8_t*>(out);
  if (r <= 1) {
    std::memcpy(dst, src, total * es);
    return;
  }
  size_t ostride[kMaxTransposeDims];
  size_t s = 1;
  for (size_t d = r; d-- > 0;) {
    ostride[d] = s;
    s *= size[d];
  }
  if (stride[r - 1] == 1) {  // the last dim stays last
    Odometer rows;
    rows.n = r - 1;
    for (size_t d = 0; d + 1 < r; ++d) {
      rows.size[d] = size[d];
      rows.istride[d] = stride[d];
      rows.ostride[d] = ostride[d];
    }
    copy_rows(rows, total / size[r - 1], size[r - 1] * es, es, src, dst);
    return;
  }
  // Output dim q is the input's innermost (stride 1; it exists because
  // size-1 dims are gone); the output's last dim reads with stride
  // stride[r - 1]. Every other dim is an outer loop.
  size_t q = 0;
  while (stride[q] != 1) ++q;
  Odometer outer;
  for (size_t d = 0; d + 1 < r; ++d) {
    if (d == q) continue;
    outer.size[outer.n] = size[d];
    outer.istride[outer.n] = stride[d];
    outer.ostride[outer.n] = ostride[d];
    ++outer.n;
  }
  const size_t ni = size[q], nj = size[r - 1], ss = stride[r - 1], ds = ostride[q];
  switch (es) {
    case 1: transpose_batch<uint8_t>(outer, ni, nj, ss, ds, in, out); return;
    case 2: transpose_batch<uint16_t>(outer, ni, nj, ss, ds, in, out); return;
    case 4: transpose_batch<uint32_t>(outer, ni, nj, ss, ds, in, out); return;
    case 8: transpose_batch<uint64_t>(outer, ni, nj, ss, ds, in, out); return;
    default: break;
  }
  // Other element sizes: one memcpy per element, single-threaded.
  Odometer all = outer;
  all.size[all.n] = ni;
  all.istride[all.n] = 1;
  all.ostride[all.n] = ds;
  all.size[all.n + 1] = nj;
  all.istride[all.n + 1] = ss;
  all.ostride[all.n + 1] = 1;
  all.n += 2;
  all.seek(0);
  for (size_t e = 0; e < total; ++e, all.next()) {
    std::memcpy(dst + all.ooff * es, src + all.ioff * es, es);
  }
}

void transpose_2d_f32(size_t ni, size_t nj, const float* src, size_t ss, float* dst,
                      size_t ds) {
  static const Transpose2dFn fn = transpose_2d_kernel<float>();
  fn(Transpose2d{ni, nj, src, ss, dst, ds});
}

}  // namespace ember::math
