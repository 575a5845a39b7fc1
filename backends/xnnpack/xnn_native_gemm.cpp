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
//
// With B packed (gemm_f32_packed): a right-edge panel no wider than one
// vector less than NR runs the narrower tile, and a shallow B that fits
// in L1 (k x n <= 8192 floats, the early 1x1 convolutions) is swept whole
// by each row tile so the output is written front to back.
#include <algorithm>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "runtime/platform/threadpool.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kKc = 256;
constexpr size_t kLineFloats = 16;  // 64-byte cache lines
constexpr size_t kMcRows = 128;
constexpr size_t kRowMajorFloats = 8192;  // 32 KiB: a B that stays in L1

// Rows [0, m) of one product: c[m x n] = a[m x k] * b[k x n].
struct GemmBlock {
  size_t m, n, k;
  const float* a;
  const float* b;
  float* c;
  size_t lda, ldb, ldc;
  const GemmEpilogue* epilogue;  // null: none
  size_t col0;                   // packed B: the first column's panel
};

// One MR x (NV vectors) tile of c over kc steps of k; `rows` and `cols`
// of it are valid. `accumulate`: add to c instead of overwriting it.
// `ep`: add its bias (from column 0 of the tile) and clamp, after the
// last chunk of k.
// PF: also prefetch `pf_lines` cache lines (at most 2 kc) from `pf`, one
// or two per step, so that they are in cache when a later tile needs them.
template <typename V, int MR, int NV, bool PF = false>
EMBER_XNN_INLINE void gemm_tile(size_t kc, const float* a, size_t lda, const float* b,
                                size_t ldb, float* c, size_t ldc, size_t rows, size_t cols,
                                bool accumulate, const GemmEpilogue* ep,
                                const float* pf = nullptr, size_t pf_lines = 0) {
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
    if constexpr (PF) {
      if (p < pf_lines) __builtin_prefetch(pf + p * kLineFloats);
      if (p + kc < pf_lines) __builtin_prefetch(pf + (p + kc) * kLineFloats);
    }
    for (int v = 0; v < NV; ++v) load_vec(bv[v], b + p * ldb + v * W);
    for (int r = 0; r < MR; ++r) {
      const float av = ar[r][p];
      for (int v = 0; v < NV; ++v) acc[r][v] += bv[v] * av;
    }
  }
  const bool full = rows == size_t(MR) && cols == NR;
  if (accumulate) {
    // Earlier chunks of k: add their sums in (the edge tile's invalid
    // rows and columns read as zero and are never stored).
    for (int r = 0; r < MR; ++r) {
      for (int v = 0; v < NV; ++v) {
        V old{};
        if (full) {
          load_vec(old, c + r * ldc + v * W);
        } else if (size_t(r) < rows) {
          for (size_t j = v * W; j < cols && j < (v + 1) * W; ++j) old[j - v * W] = c[r * ldc + j];
        }
        acc[r][v] += old;
      }
    }
  }
  if (ep) {
    V bias[NV];
    load_vec(bias[0], ep->bias);
    for (int v = 1; v < NV; ++v) load_vec(bias[v], ep->bias + v * W);
    const V lo = V{} + ep->lo, hi = V{} + ep->hi;
    for (int r = 0; r < MR; ++r) {
      for (int v = 0; v < NV; ++v) {
        V x = acc[r][v] + bias[v];
        x = x < lo ? lo : x;
        acc[r][v] = x > hi ? hi : x;
      }
    }
  }
  if (full) {
    for (int r = 0; r < MR; ++r) {
      for (int v = 0; v < NV; ++v) store_vec(c + r * ldc + v * W, acc[r][v]);
    }
    return;
  }
  // Edge tile: whole vectors where all their columns are valid, the
  // rest through a stack copy.
  for (size_t r = 0; r < rows; ++r) {
    for (int v = 0; v < NV; ++v) {
      const size_t j0 = size_t(v) * W;
      if (j0 + W <= cols) {
        store_vec(c + r * ldc + j0, acc[r][v]);
      } else if (j0 < cols) {
        float part[W];
        store_vec(part, acc[r][v]);
        for (size_t j = j0; j < cols; ++j) c[r * ldc + j] = part[j - j0];
      }
    }
  }
}

// The tile at rows [i, i + rows): a full MR-row tile, or for the bottom
// edge one just as tall as the rows left (same sums, less work).
template <typename V, int MR, int NV>
EMBER_XNN_INLINE void gemm_rows(size_t kc, const float* a, size_t lda, const float* b, size_t ldb,
                                float* c, size_t ldc, size_t rows, size_t cols, bool accumulate,
                                const GemmEpilogue* ep) {
  if constexpr (MR > 1) {
    if (rows < size_t(MR)) {
      if (rows == size_t(MR - 1)) {
        return gemm_tile<V, MR - 1, NV>(kc, a, lda, b, ldb, c, ldc, rows, cols, accumulate, ep);
      }
      return gemm_rows<V, MR - 1, NV>(kc, a, lda, b, ldb, c, ldc, rows, cols, accumulate, ep);
    }
  }
  gemm_tile<V, MR, NV>(kc, a, lda, b, ldb, c, ldc, rows, cols, accumulate, ep);
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
          gemm_rows<V, MR, NV>(kc, g.a + i * g.lda + k0, g.lda, bp, ldb, g.c + i * g.ldc + j,
                               g.ldc, std::min(size_t(MR), i0 + mc - i), cols, k0 > 0, nullptr);
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

// The same tiles over a B packed by pack_gemm_b(): in order of use, so
// one pass over B reads memory front to back (the deep layers' weights
// come from DRAM, and the prefetchers follow a single stream). For each
// chunk of kKc rows of k, the column panels (NR wide, zero-padded at the
// right edge) follow one another, each kc rows of NR floats: the kc x NR
// slice a tile reuses is contiguous and every tile reads full panels.
// g.ldb is the packed width (n of the whole packing rounded up to NR).
template <typename V, int MR, int NV>
EMBER_XNN_INLINE void gemm_packed_block(const GemmBlock& g) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  constexpr size_t kMc = MR * (kMcRows / MR);
  if (g.k == 0) {
    for (size_t i = 0; i < g.m; ++i) {
      for (size_t j = 0; j < g.n; ++j) {
        float v = 0.0f;
        if (g.epilogue) {
          v = g.epilogue->bias[j];
          v = v < g.epilogue->lo ? g.epilogue->lo : v;
          v = v > g.epilogue->hi ? g.epilogue->hi : v;
        }
        g.c[i * g.ldc + j] = v;
      }
    }
    return;
  }
  if (g.k <= kKc && g.k * g.n <= kRowMajorFloats) {
    // Shallow with few columns (the early 1x1 convolutions): all of B
    // stays in L1, so each MR-row tile sweeps every panel and the output
    // is written row block after row block, front to back.
    for (size_t i = 0; i < g.m; i += MR) {
      const size_t rows = std::min(size_t(MR), g.m - i);
      for (size_t j = 0; j < g.n; j += NR) {
        const float* bp = g.b + (g.col0 + j) * g.k;
        const size_t cols = std::min(NR, g.n - j);
        GemmEpilogue ep{};
        if (g.epilogue) ep = {g.epilogue->bias + j, g.epilogue->lo, g.epilogue->hi};
        const GemmEpilogue* tile_ep = g.epilogue ? &ep : nullptr;
        if constexpr (NV > 1) {
          if (cols <= (NV - 1) * (NR / NV)) {
            gemm_rows<V, MR, NV - 1>(g.k, g.a + i * g.lda, g.lda, bp, NR, g.c + i * g.ldc + j,
                                     g.ldc, rows, cols, false, tile_ep);
            continue;
          }
        }
        gemm_rows<V, MR, NV>(g.k, g.a + i * g.lda, g.lda, bp, NR, g.c + i * g.ldc + j, g.ldc,
                             rows, cols, false, tile_ep);
      }
    }
    return;
  }
  for (size_t k0 = 0; k0 < g.k; k0 += kKc) {
    const size_t kc = std::min(kKc, g.k - k0);
    const bool last = k0 + kc == g.k;
    for (size_t i0 = 0; i0 < g.m; i0 += kMc) {
      const size_t mc = std::min(kMc, g.m - i0);
      for (size_t j = 0; j < g.n; j += NR) {
        const float* bp = g.b + k0 * g.ldb + (g.col0 + j) * kc;
        const size_t cols = std::min(NR, g.n - j);
        GemmEpilogue ep{};
        if (last && g.epilogue) ep = {g.epilogue->bias + j, g.epilogue->lo, g.epilogue->hi};
        const GemmEpilogue* tile_ep = last && g.epilogue ? &ep : nullptr;
        // The full tiles of a panel share the prefetch of the panel this
        // thread uses next (same chunk, next columns; or the next chunk's
        // first), when that is no longer than this one.
        const float* next = nullptr;
        if (j + NR < g.n) {
          next = bp + kc * NR;
        } else if (!last && i0 + mc >= g.m && std::min(kKc, g.k - k0 - kc) == kc) {
          next = g.b + (k0 + kc) * g.ldb + g.col0 * kc;
        }
        if constexpr (NV > 1) {
          // A right-edge panel no wider than NV - 1 vectors (MobileNetV2's
          // 16-channel layers on AVX-512): the narrower tile over the same
          // packed rows, so no multiply-adds go to the zero padding.
          if (cols <= (NV - 1) * (NR / NV)) {
            for (size_t i = i0; i < i0 + mc; i += MR) {
              gemm_rows<V, MR, NV - 1>(kc, g.a + i * g.lda + k0, g.lda, bp, NR,
                                       g.c + i * g.ldc + j, g.ldc,
                                       std::min(size_t(MR), i0 + mc - i), cols, k0 > 0,
                                       tile_ep);
            }
            continue;
          }
        }
        const size_t full_tiles = mc / MR, lines = kc * NR / kLineFloats;
        size_t i = i0;
        if (next && full_tiles > 0) {
          const size_t share = std::min((lines + full_tiles - 1) / full_tiles, 2 * kc);
          for (size_t t = 0; t < full_tiles; ++t, i += MR) {
            const size_t first = std::min(t * share, lines);
            gemm_tile<V, MR, NV, true>(kc, g.a + i * g.lda + k0, g.lda, bp, NR,
                                       g.c + i * g.ldc + j, g.ldc, MR, cols, k0 > 0, tile_ep,
                                       next + first * kLineFloats,
                                       std::min(share, lines - first));
          }
        }
        for (; i < i0 + mc; i += MR) {
          gemm_rows<V, MR, NV>(kc, g.a + i * g.lda + k0, g.lda, bp, NR, g.c + i * g.ldc + j,
                               g.ldc, std::min(size_t(MR), i0 + mc - i), cols, k0 > 0, tile_ep);
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

namespace {

// b(p, q) reads element (p, q) of the k x n matrix B.
template <typename Read>
void pack_panels(size_t k, size_t n, float* packed, Isa isa, Read b) {
  const size_t nr = gemm_panel_width(isa);
  const size_t width = (n + nr - 1) / nr * nr;
  for (size_t k0 = 0; k0 < k; k0 += kKc) {
    const size_t kc = std::min(kKc, k - k0);
    for (size_t j = 0; j < n; j += nr) {
      float* panel = packed + k0 * width + j * kc;
      for (size_t p = 0; p < kc; ++p) {
        for (size_t q = 0; q < nr; ++q) panel[p * nr + q] = j + q < n ? b(k0 + p, j + q) : 0.0f;
      }
    }
  }
}

}  // namespace

void pack_gemm_b(size_t k, size_t n, const float* b, size_t ldb, float* packed, Isa isa) {
  pack_panels(k, n, packed, isa, [&](size_t p, size_t q) { return b[p * ldb + q]; });
}

// B given transposed: each panel is a 2-D transpose of nr rows of bt
// (tiled, in registers), zero columns past n. Panels are packed in
// parallel (this runs at load, on the delegate's pool).
void pack_gemm_bt(size_t k, size_t n, const float* bt, size_t ldbt, float* packed, Isa isa) {
  struct Ctx {
    size_t k, n, ldbt, nr, width, panels;
    const float* bt;
    float* packed;
  } c{k, n, ldbt, gemm_panel_width(isa), 0, 0, bt, packed};
  c.width = (n + c.nr - 1) / c.nr * c.nr;
  c.panels = c.width / c.nr;
  const size_t chunks = (k + kKc - 1) / kKc;
  parallel_for(chunks * c.panels, [&c](size_t task) {
    const size_t k0 = task / c.panels * kKc, j = task % c.panels * c.nr;
    const size_t kc = std::min(kKc, c.k - k0), cols = std::min(c.nr, c.n - j);
    float* panel = c.packed + k0 * c.width + j * kc;
    transpose_2d_f32(kc, cols, c.bt + j * c.ldbt + k0, c.ldbt, panel, c.nr);
    for (size_t p = 0; cols < c.nr && p < kc; ++p) {
      for (size_t q = cols; q < c.nr; ++q) panel[p * c.nr + q] = 0.0f;
    }
  });
}

void gemm_f32_packed(size_t m, size_t n, size_t k, const float* a, size_t lda,
                     const float* packed_b, size_t packed_n, size_t col0, float* c, size_t ldc,
                     Isa isa, const GemmEpilogue* epilogue) {
  if (m == 0 || n == 0) return;
  const size_t nr = gemm_panel_width(isa);
  const size_t width = (packed_n + nr - 1) / nr * nr;
  const GemmBlock g{m, n, k, a, packed_b, c, lda, width, ldc, epilogue, col0};
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
    GemmBlock g{};
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
