// Batched matrix multiply for the native steps (xnn_native_kernels.h).
//
// GEMM: C = A x B, row-major, B read in place (unit stride along n). The
// work is blocked three ways: 256 deep (a B panel of 256 x NR floats stays
// in L1 while it is reused for every MR-row tile), about 128 rows (that
// A block stays in L2), and into MR x NR register tiles whose inner loop
// is NV vector loads of one B row, MR broadcasts of A and MR * NV
// multiply-adds. Tiles at the right edge copy their B columns into a
// zero-padded panel; tiles at the bottom edge repeat the last row and
// store only the valid ones.
#include <algorithm>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "runtime/platform/threadpool.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kKc = 256;
constexpr size_t kMcRows = 128;

// Rows [0, m) of one product: c[m x n] = a[m x k] * b[k x n].
struct GemmBlock {
  size_t m, n, k;
  const float* a;
  const float* b;
  float* c;
  size_t lda, ldb, ldc;
};

// One MR x (NV vectors) tile of c over kc steps of k; `rows` and `cols`
// of it are valid. `accumulate`: add to c instead of overwriting it.
template <typename V, int MR, int NV>
EMBER_XNN_INLINE void gemm_tile(size_t kc, const float* a, size_t lda, const float* b,
                                size_t ldb, float* c, size_t ldc, size_t rows, size_t cols,
                                bool accumulate) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  constexpr size_t NR = W * NV;
  const float* ar[MR];
  for (int r = 0; r < MR; ++r) ar[r] = a + (size_t(r) < rows ? size_t(r) : rows - 1) * lda;
  V acc[MR][NV];
  for (int r = 0; r < MR; ++r) {
    for (int v = 0; v < NV; ++v) acc[r][v] = V{};
  }
  for (size_t p = 0; p < kc; ++p) {
    V bv[NV];
    for (int v = 0; v < NV; ++v) load_vec(bv[v], b + p * ldb + v * W);
    for (int r = 0; r < MR; ++r) {
      const float av = ar[r][p];
      for (int v = 0; v < NV; ++v) acc[r][v] += bv[v] * av;
    }
  }
  if (rows == size_t(MR) && cols == NR) {
    for (int r = 0; r < MR; ++r) {
      for (int v = 0; v < NV; ++v) {
        float* cp = c + r * ldc + v * W;
        if (accumulate) {
          V old;
          load_vec(old, cp);
          acc[r][v] += old;
        }
        store_vec(cp, acc[r][v]);
      }
    }
    return;
  }
  float tile[MR][NR];
  for (int r = 0; r < MR; ++r) {
    for (int v = 0; v < NV; ++v) store_vec(&tile[r][v * W], acc[r][v]);
  }
  for (size_t r = 0; r < rows; ++r) {
    float* cr = c + r * ldc;
    for (size_t j = 0; j < cols; ++j) cr[j] = accumulate ? cr[j] + tile[r][j] : tile[r][j];
  }
}

template <typename V, int MR, int NV>
EMBER_XNN_INLINE void gemm_block(const GemmBlock& g) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  constexpr size_t kMc = MR * (kMcRows / MR);
  if (g.k == 0) {
    for (size_t i = 0; i < g.m; ++i) std::fill(g.c + i * g.ldc, g.c + i * g.ldc + g.n, 0.0f);
    return;
  }
  alignas(64) float bpad[kKc * NR];
  for (size_t k0 = 0; k0 < g.k; k0 += kKc) {
    const size_t kc = std::min(kKc, g.k - k0);
    for (size_t i0 = 0; i0 < g.m; i0 += kMc) {
      const size_t mc = std::min(kMc, g.m - i0);
      for (size_t j = 0; j < g.n; j += NR) {
        const size_t cols = std::min(NR, g.n - j);
        const float* bp = g.b + k0 * g.ldb + j;
        size_t ldb = g.ldb;
        if (cols < NR) {
          for (size_t p = 0; p < kc; ++p) {
            for (size_t q = 0; q < NR; ++q) bpad[p * NR + q] = q < cols ? bp[p * ldb + q] : 0.0f;
          }
          bp = bpad;
          ldb = NR;
        }
        for (size_t i = i0; i < i0 + mc; i += MR) {
          gemm_tile<V, MR, NV>(kc, g.a + i * g.lda + k0, g.lda, bp, ldb, g.c + i * g.ldc + j,
                               g.ldc, std::min(size_t(MR), i0 + mc - i), cols, k0 > 0);
        }
      }
    }
  }
}

// Register tiles: 4 x 8 (SSE2: 8 of 16 registers hold sums), 6 x 16
// (AVX2: 12 of 16), 8 x 32 (AVX-512: 16 of 32).
void gemm_baseline(const GemmBlock& g) { gemm_block<VecF4, 4, 2>(g); }
#if EMBER_XNN_X86_DISPATCH
EMBER_XNN_TARGET_AVX2 void gemm_avx2(const GemmBlock& g) { gemm_block<VecF8, 6, 2>(g); }
EMBER_XNN_TARGET_AVX512 void gemm_avx512(const GemmBlock& g) { gemm_block<VecF16, 8, 2>(g); }
#endif

// The same tiles over a B packed by pack_gemm_b(): column panel j (NR
// wide, zero-padded at the right edge) holds k rows of NR floats, so the
// 256 x NR slice a tile reuses is contiguous and every tile reads full
// panels.
template <typename V, int MR, int NV>
EMBER_XNN_INLINE void gemm_packed_block(const GemmBlock& g) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  constexpr size_t kMc = MR * (kMcRows / MR);
  if (g.k == 0) {
    for (size_t i = 0; i < g.m; ++i) std::fill(g.c + i * g.ldc, g.c + i * g.ldc + g.n, 0.0f);
    return;
  }
  for (size_t k0 = 0; k0 < g.k; k0 += kKc) {
    const size_t kc = std::min(kKc, g.k - k0);
    for (size_t i0 = 0; i0 < g.m; i0 += kMc) {
      const size_t mc = std::min(kMc, g.m - i0);
      for (size_t j = 0; j < g.n; j += NR) {
        const float* bp = g.b + j * g.k + k0 * NR;
        const size_t cols = std::min(NR, g.n - j);
        for (size_t i = i0; i < i0 + mc; i += MR) {
          gemm_tile<V, MR, NV>(kc, g.a + i * g.lda + k0, g.lda, bp, NR, g.c + i * g.ldc + j,
                               g.ldc, std::min(size_t(MR), i0 + mc - i), cols, k0 > 0);
        }
      }
    }
  }
}

void gemm_packed_baseline(const GemmBlock& g) { gemm_packed_block<VecF4, 4, 2>(g); }
#if EMBER_XNN_X86_DISPATCH
EMBER_XNN_TARGET_AVX2 void gemm_packed_avx2(const GemmBlock& g) {
  gemm_packed_block<VecF8, 6, 2>(g);
}
EMBER_XNN_TARGET_AVX512 void gemm_packed_avx512(const GemmBlock& g) {
  gemm_packed_block<VecF16, 8, 2>(g);
}
#endif

struct GemmKernel {
  void (*fn)(const GemmBlock&);
  size_t mr;
};

GemmKernel gemm_kernel(Isa isa) {
#if EMBER_XNN_X86_DISPATCH
  if (isa == Isa::kAvx512) return {gemm_avx512, 8};
  if (isa == Isa::kAvx2) return {gemm_avx2, 6};
#endif
  (void)isa;
  return {gemm_baseline, 4};
}

}  // namespace

size_t gemm_panel_width(Isa isa) {
#if EMBER_XNN_X86_DISPATCH
  if (isa == Isa::kAvx512) return 32;
  if (isa == Isa::kAvx2) return 16;
#endif
  (void)isa;
  return 8;
}

size_t gemm_packed_b_floats(size_t k, size_t n, Isa isa) {
  const size_t nr = gemm_panel_width(isa);
  return (n + nr - 1) / nr * nr * k;
}

void pack_gemm_b(size_t k, size_t n, const float* b, size_t ldb, float* packed, Isa isa) {
  const size_t nr = gemm_panel_width(isa);
  for (size_t j = 0; j < n; j += nr) {
    float* panel = packed + j * k;
    for (size_t p = 0; p < k; ++p) {
      for (size_t q = 0; q < nr; ++q) panel[p * nr + q] = j + q < n ? b[p * ldb + j + q] : 0.0f;
    }
  }
}

void gemm_f32_packed(size_t m, size_t n, size_t k, const float* a, size_t lda,
                     const float* packed_b, float* c, size_t ldc, Isa isa) {
  if (m == 0 || n == 0) return;
  const GemmBlock g{m, n, k, a, packed_b, c, lda, 0, ldc};
#if EMBER_XNN_X86_DISPATCH
  if (isa == Isa::kAvx512) return gemm_packed_avx512(g);
  if (isa == Isa::kAvx2) return gemm_packed_avx2(g);
#endif
  (void)isa;
  gemm_packed_baseline(g);
}

void bmm_f32(const BmmShape& s, const float* a, const float* b, float* out, Isa isa) {
  const GemmKernel kernel = gemm_kernel(isa);
  size_t batches = 1;
  for (size_t d = 0; d < s.batch_rank; ++d) batches *= s.out_batch[d];
  if (batches == 0 || s.m == 0 || s.n == 0) return;
  struct Ctx {
    const BmmShape* s;
    GemmKernel kernel;
    size_t astride[kMaxDims], bstride[kMaxDims];  // per batch dim; 0 broadcasts
    size_t rows, blocks;
    const float *a, *b;
    float* out;
  } c;
  c.s = &s;
  c.kernel = kernel;
  size_t as = s.m * s.k, bs = s.k * s.n;
  for (size_t d = s.batch_rank; d-- > 0;) {
    c.astride[d] = s.a_batch[d] == 1 ? 0 : as;
    c.bstride[d] = s.b_batch[d] == 1 ? 0 : bs;
    as *= s.a_batch[d];
    bs *= s.b_batch[d];
  }
  // Split rows so that each thread gets about four tasks, in multiples of
  // the kernel's tile height; small products stay in one task per batch.
  c.blocks = 1;
  const size_t threads = num_threads();
  if (threads > 1 && batches * s.m * s.n * s.k >= (size_t(1) << 15)) {
    const size_t want = (4 * threads + batches - 1) / batches;
    c.blocks = std::min(want, (s.m + kernel.mr - 1) / kernel.mr);
  }
  c.rows = (s.m + c.blocks - 1) / c.blocks;
  c.rows = (c.rows + kernel.mr - 1) / kernel.mr * kernel.mr;
  c.blocks = (s.m + c.rows - 1) / c.rows;
  c.a = a;
  c.b = b;
  c.out = out;
  parallel_for(batches * c.blocks, [&c](size_t task) {
    const BmmShape& s = *c.s;
    const size_t batch = task / c.blocks;
    const size_t r0 = (task % c.blocks) * c.rows;
    size_t rem = batch, aoff = 0, boff = 0;
    for (size_t d = s.batch_rank; d-- > 0;) {
      const size_t idx = rem % s.out_batch[d];
      rem /= s.out_batch[d];
      aoff += idx * c.astride[d];
      boff += idx * c.bstride[d];
    }
    GemmBlock g;
    g.m = std::min(c.rows, s.m - r0);
    g.n = s.n;
    g.k = s.k;
    g.a = c.a + aoff + r0 * s.k;
    g.b = c.b + boff;
    g.c = c.out + batch * s.m * s.n + r0 * s.n;
    g.lda = s.k;
    g.ldb = s.n;
    g.ldc = s.n;
    c.kernel.fn(g);
  });
}

}  // namespace ember::xnnpack
