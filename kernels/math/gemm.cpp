// Packed and in-place GEMM (gemm.h).
//
// C = A x B, row-major. The work is blocked three ways: 256 deep (a B
// panel of 256 x NR floats stays in L1 while every MR-row tile of a row
// block reuses it), about 128 rows (that A block stays in L2), and into
// MR x NR register tiles whose inner loop is NV vector loads of one B
// row, MR broadcasts of A and MR * NV multiply-adds. Bottom-edge tiles run
// a shorter tile; right-edge columns are zero in the packing (or, for B
// read in place, copied into a zero-padded panel on the stack).
//
// Packed B is stored in order of use: for each chunk of 256 rows of k,
// the column panels (NR wide) follow one another, each kc rows of NR
// floats, so one pass reads memory front to back. A right-edge panel no
// wider than NV - 1 vectors runs the narrower tile (no multiply-adds on
// the padding), and a shallow B that fits in L1 (k x n <= 8192 floats) is
// swept whole by each row tile so the output is written front to back.
#include "kernels/math/gemm.h"

#include <algorithm>

#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

constexpr size_t kKc = 256;
constexpr size_t kLineFloats = 16;  // 64-byte cache lines
constexpr size_t kMcRows = 128;
// A single-chunk B up to this size (32 KiB: it stays in L1) is swept whole
// by each row tile, so each output row is written front to back. A larger
// one is better read panel by panel, each panel reused by every row tile
// while it is in L1 (measured on MobileNetV2's pointwise shapes).
constexpr size_t kRowMajorFloats = 8192;

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

// Row p of a tile's B: strided (packed panels, or B read in place) or
// through a table of row pointers (convolution rows read from the input).
struct StridedB {
  const float* b;
  size_t ld;
  EMBER_MATH_INLINE const float* operator()(size_t p) const { return b + p * ld; }
};
struct IndirectB {
  const float* const* rows;
  EMBER_MATH_INLINE const float* operator()(size_t p) const { return rows[p]; }
};


template <typename V, int MR, int NV>
EMBER_MATH_INLINE void finish_tile(V (&acc)[MR][NV], float* c, size_t ldc, size_t rows,
                                  size_t cols, bool accumulate, const GemmEpilogue* ep);

// One MR x (NV vectors) tile of c over kc steps of k; `rows` and `cols`
// of it are valid. `accumulate`: add to c instead of overwriting it.
// `ep`: its biases and clamp, after the last chunk of k.
// PF: also prefetch `pf_lines` cache lines (at most 2 kc) from `pf`, one
// or two per step, so that they are in cache when a later tile needs them.
// kAT: A given transposed, element (r, p) at a[p * lda + r]; its tiles
// are then always whole (gemm_rows makes the tile as tall as the rows).
template <typename V, int MR, int NV, bool kAT = false, bool PF = false, typename BR>
EMBER_MATH_INLINE void gemm_tile(size_t kc, const float* a, size_t lda, const BR& br,
                                float* c, size_t ldc, size_t rows, size_t cols,
                                bool accumulate, const GemmEpilogue* ep,
                                const float* pf = nullptr, size_t pf_lines = 0) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  constexpr size_t NR = W * NV;
  const float* ar[MR];
  if constexpr (!kAT) {
    for (int r = 0; r < MR; ++r) ar[r] = a + (size_t(r) < rows ? size_t(r) : rows - 1) * lda;
  }
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
    const float* brow = br(p);
    for (int v = 0; v < NV; ++v) load_vec(bv[v], brow + v * W);
    for (int r = 0; r < MR; ++r) {
      const float av = kAT ? a[p * lda + r] : ar[r][p];
      for (int v = 0; v < NV; ++v) acc[r][v] += bv[v] * av;
    }
  }
  finish_tile<V, MR, NV>(acc, c, ldc, rows, cols, accumulate, ep);
}

// A tile's sums into c: added to what earlier chunks of k left there
// (`accumulate`), through the epilogue `ep` when given, stored where valid.
template <typename V, int MR, int NV>
EMBER_MATH_INLINE void finish_tile(V (&acc)[MR][NV], float* c, size_t ldc, size_t rows,
                                  size_t cols, bool accumulate, const GemmEpilogue* ep) {
  constexpr size_t W = sizeof(V) / sizeof(float);
  constexpr size_t NR = W * NV;
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
    const V lo = V{} + ep->lo, hi = V{} + ep->hi;
    for (int v = 0; v < NV; ++v) {
      V bias{}, scale{}, shift{};
      if (ep->col_bias) load_vec(bias, ep->col_bias + v * W);
      if (ep->col_scale) load_vec(scale, ep->col_scale + v * W), load_vec(shift, ep->col_shift + v * W);
      for (int r = 0; r < MR; ++r) {
        V x = acc[r][v] + bias;
        const size_t rr = size_t(r) < rows ? size_t(r) : 0;
        if (ep->row_bias) x += ep->row_bias[rr];
        if (ep->row_scale) x = x * ep->row_scale[rr] + ep->row_shift[rr];
        if (ep->col_scale) x = x * scale + shift;
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
template <typename V, int MR, int NV, bool kAT = false, typename BR>
EMBER_MATH_INLINE void gemm_rows(size_t kc, const float* a, size_t lda, const BR& br, float* c,
                                size_t ldc, size_t rows, size_t cols, bool accumulate,
                                const GemmEpilogue* ep) {
  if constexpr (MR > 1) {
    if (rows < size_t(MR)) {
      if (rows == size_t(MR - 1)) {
        return gemm_tile<V, MR - 1, NV, kAT>(kc, a, lda, br, c, ldc, rows, cols, accumulate, ep);
      }
      return gemm_rows<V, MR - 1, NV, kAT>(kc, a, lda, br, c, ldc, rows, cols, accumulate, ep);
    }
  }
  gemm_tile<V, MR, NV, kAT>(kc, a, lda, br, c, ldc, rows, cols, accumulate, ep);
}

// Where A's element (i, p) is: row-major, or given transposed (kAT).
template <bool kAT>
EMBER_MATH_INLINE const float* a_at(const float* a, size_t lda, size_t i, size_t p) {
  return kAT ? a + p * lda + i : a + i * lda + p;
}

// The k == 0 product: the epilogue applied to zero.
void gemm_empty(const GemmBlock& g) {
  for (size_t i = 0; i < g.m; ++i) {
    for (size_t j = 0; j < g.n; ++j) {
      float v = 0.0f;
      if (g.epilogue) {
        if (g.epilogue->col_bias) v += g.epilogue->col_bias[j];
        if (g.epilogue->row_bias) v += g.epilogue->row_bias[i];
        if (g.epilogue->row_scale) v = v * g.epilogue->row_scale[i] + g.epilogue->row_shift[i];
        if (g.epilogue->col_scale) v = v * g.epilogue->col_scale[j] + g.epilogue->col_shift[j];
        v = v < g.epilogue->lo ? g.epilogue->lo : v;
        v = v > g.epilogue->hi ? g.epilogue->hi : v;
      }
      g.c[i * g.ldc + j] = v;
    }
  }
}

// B read in place (g.ldb its row stride).
template <typename V, int MR, int NV>
EMBER_MATH_INLINE void gemm_block(const GemmBlock& g) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  constexpr size_t kMc = MR * (kMcRows / MR);
  if (g.k == 0) return gemm_empty(g);
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
        const bool last = k0 + kc == g.k;
        for (size_t i = i0; i < i0 + mc; i += MR) {
          GemmEpilogue ep{};
          if (last && g.epilogue) ep = offset_epilogue(*g.epilogue, i, j);
          gemm_rows<V, MR, NV>(kc, g.a + i * g.lda + k0, g.lda, StridedB{bp, ldb}, g.c + i * g.ldc + j,
                               g.ldc, std::min(size_t(MR), i0 + mc - i), cols, k0 > 0,
                               last && g.epilogue ? &ep : nullptr);
        }
      }
    }
  }
}

// The loops of a rows product (gemm_rows_block): chunks of k outermost,
// then row tiles of MR, then panels. A panel no wider than NV - 1 vectors
// runs the narrower tile, unless kOneTile (every panel gets MR x NV).
template <typename V, int MR, int NV, bool kOneTile>
EMBER_MATH_INLINE void rows_tiles(const RowsProduct& r) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  for (size_t k0 = 0; k0 < r.k; k0 += kKc) {
    const size_t kc = std::min(kKc, r.k - k0);
    const bool last = k0 + kc == r.k;
    for (size_t i = 0; i < r.m; i += MR) {
      GemmEpilogue ep{};
      if (last && r.epilogue) ep = offset_epilogue(*r.epilogue, i, 0);
      const GemmEpilogue* tile_ep = last && r.epilogue ? &ep : nullptr;
      const size_t rows = std::min(size_t(MR), r.m - i);
      const float* a = r.a + i * r.lda + k0;
      for (size_t j = 0; j < r.panels; ++j) {
        const IndirectB br{r.rows + j * r.k + k0};
        float* c = r.c[j] + i * r.ldc;
        if constexpr (NV > 1 && !kOneTile) {
          if (r.n[j] <= (NV - 1) * (NR / NV)) {
            gemm_rows<V, MR, NV - 1>(kc, a, r.lda, br, c, r.ldc, rows, r.n[j], k0 > 0, tile_ep);
            continue;
          }
        }
        gemm_rows<V, MR, NV>(kc, a, r.lda, br, c, r.ldc, rows, r.n[j], k0 > 0, tile_ep);
      }
    }
  }
}

// Register tiles: 4 x 8 (SSE2: 8 of 16 registers hold sums), 6 x 16
// (AVX2: 12 of 16), 8 x 32 (AVX-512: 16 of 32), 8 x 8 (NEON: 16 of 32).
// Several narrow products sharing A: for panel j, c[j][m x n[j]] = a x B_j
// with row p of B_j at rows[j * k + p], n[j] <= NR. A tile's A rows stay
// in L1 while every panel uses them, and the chunk's B rows of all panels
// stay in L2.
template <typename V, int MR, int NV>
EMBER_MATH_INLINE void gemm_rows_block(const RowsProduct& r) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  if (r.k == 0) {
    for (size_t j = 0; j < r.panels; ++j) {
      gemm_empty(GemmBlock{r.m, r.n[j], 0, r.a, nullptr, r.c[j], r.lda, 0, r.ldc, r.epilogue, 0});
    }
    return;
  }
  if constexpr (NV > 1) {
    // Every panel narrow (output rows of at most NR / 2 pixels, as a 14x14
    // layer's at NR 32): a tile twice as tall keeps as many sums in
    // registers as the full tile, where the narrow one would leave the
    // multiply-adds waiting on each other. Same sums in the same order.
    bool narrow = r.panels > 0;
    for (size_t j = 0; j < r.panels && narrow; ++j) narrow = r.n[j] <= (NV - 1) * (NR / NV);
    if (narrow) return rows_tiles<V, 2 * MR, NV - 1, true>(r);
  }
  rows_tiles<V, MR, NV, false>(r);
}

void gemm_baseline(const GemmBlock& g) { gemm_block<VecF4, 4, 2>(g); }
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void gemm_avx2(const GemmBlock& g) { gemm_block<VecF8, 6, 2>(g); }
EMBER_MATH_TARGET_AVX512 void gemm_avx512(const GemmBlock& g) { gemm_block<VecF16, 8, 2>(g); }
#endif
#if EMBER_MATH_NEON_DISPATCH
void gemm_neon(const GemmBlock& g) { gemm_block<VecF4, 8, 2>(g); }
#endif

// The shallow case: all of B stays in L1, so each MR-row tile sweeps
// every panel and the output is written row block after row block.
template <typename V, int MR, int NV, bool kAT>
EMBER_MATH_INLINE void gemm_packed_shallow(const GemmBlock& g) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  for (size_t i = 0; i < g.m; i += MR) {
    const size_t rows = std::min(size_t(MR), g.m - i);
    for (size_t j = 0; j < g.n; j += NR) {
      const float* bp = g.b + (g.col0 + j) * g.k;
      const size_t cols = std::min(NR, g.n - j);
      GemmEpilogue ep{};
      if (g.epilogue) ep = offset_epilogue(*g.epilogue, i, j);
      const GemmEpilogue* tile_ep = g.epilogue ? &ep : nullptr;
      if constexpr (NV > 1) {
        if (cols <= (NV - 1) * (NR / NV)) {
          gemm_rows<V, MR, NV - 1, kAT>(g.k, a_at<kAT>(g.a, g.lda, i, 0), g.lda, StridedB{bp, NR}, g.c + i * g.ldc + j,
                                   g.ldc, rows, cols, false, tile_ep);
          continue;
        }
      }
      gemm_rows<V, MR, NV, kAT>(g.k, a_at<kAT>(g.a, g.lda, i, 0), g.lda, StridedB{bp, NR}, g.c + i * g.ldc + j, g.ldc, rows,
                           cols, false, tile_ep);
    }
  }
}

// One row of A against packed B (a linear layer on one token or one
// time step): kPanels panels at once, so that kPanels * NV independent
// sums hide the multiply-add latency (a one-row tile of one panel keeps
// only NV and waits on each). Each output's sum runs over k in the same
// order as the tile's, so the bits are those of the one-row tile.
template <typename V, int NV, bool kAT>
EMBER_MATH_INLINE void gemv_packed(const GemmBlock& g) {
  constexpr int kPanels = 4;
  constexpr size_t W = sizeof(V) / sizeof(float);
  constexpr size_t NR = W * NV;
  for (size_t k0 = 0; k0 < g.k; k0 += kKc) {
    const size_t kc = std::min(kKc, g.k - k0);
    const bool with_ep = k0 + kc == g.k && g.epilogue;
    for (size_t j = 0; j < g.n; j += kPanels * NR) {
      const size_t panels = std::min(size_t(kPanels), (g.n - j + NR - 1) / NR);
      const float* bp[kPanels];
      for (int q = 0; q < kPanels; ++q) {
        // Past the last panel: read the first again (sums never stored).
        const size_t panel = size_t(q) < panels ? size_t(q) : 0;
        bp[q] = g.b + k0 * g.ldb + (g.col0 + j + panel * NR) * kc;
      }
      V acc[kPanels][1][NV];
      for (int q = 0; q < kPanels; ++q) {
        for (int v = 0; v < NV; ++v) acc[q][0][v] = V{};
      }
      for (size_t p = 0; p < kc; ++p) {
        const float av = *a_at<kAT>(g.a, g.lda, 0, k0 + p);
        for (int q = 0; q < kPanels; ++q) {
          for (int v = 0; v < NV; ++v) {
            V bv;
            load_vec(bv, bp[q] + p * NR + v * W);
            acc[q][0][v] += bv * av;
          }
        }
      }
      for (size_t q = 0; q < panels; ++q) {
        const size_t col = j + q * NR;
        GemmEpilogue ep{};
        if (with_ep) ep = offset_epilogue(*g.epilogue, 0, col);
        finish_tile<V, 1, NV>(acc[q], g.c + col, g.ldc, 1, std::min(NR, g.n - col), k0 > 0,
                              with_ep ? &ep : nullptr);
      }
    }
  }
}

// B packed by pack_gemm_b(); g.ldb is the packed width.
template <typename V, int MR, int NV, bool kAT>
EMBER_MATH_INLINE void gemm_packed_block(const GemmBlock& g) {
  constexpr size_t NR = sizeof(V) / sizeof(float) * NV;
  constexpr size_t kMc = MR * (kMcRows / MR);
  if (g.k == 0) return gemm_empty(g);
  if (g.m == 1) return gemv_packed<V, NV, kAT>(g);
  if (g.k <= kKc && g.k * g.n <= kRowMajorFloats) return gemm_packed_shallow<V, MR, NV, kAT>(g);
  for (size_t k0 = 0; k0 < g.k; k0 += kKc) {
    const size_t kc = std::min(kKc, g.k - k0);
    const bool last = k0 + kc == g.k;
    for (size_t i0 = 0; i0 < g.m; i0 += kMc) {
      const size_t mc = std::min(kMc, g.m - i0);
      for (size_t j = 0; j < g.n; j += NR) {
        const float* bp = g.b + k0 * g.ldb + (g.col0 + j) * kc;
        const size_t cols = std::min(NR, g.n - j);
        const bool with_ep = last && g.epilogue;
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
          if (cols <= (NV - 1) * (NR / NV)) {
            for (size_t i = i0; i < i0 + mc; i += MR) {
              GemmEpilogue ep{};
              if (with_ep) ep = offset_epilogue(*g.epilogue, i, j);
              gemm_rows<V, MR, NV - 1, kAT>(kc, a_at<kAT>(g.a, g.lda, i, k0), g.lda, StridedB{bp, NR},
                                       g.c + i * g.ldc + j, g.ldc,
                                       std::min(size_t(MR), i0 + mc - i), cols, k0 > 0,
                                       with_ep ? &ep : nullptr);
            }
            continue;
          }
        }
        const size_t full_tiles = mc / MR, lines = kc * NR / kLineFloats;
        size_t i = i0;
        if (next && full_tiles > 0) {
          const size_t share = std::min((lines + full_tiles - 1) / full_tiles, 2 * kc);
          for (size_t t = 0; t < full_tiles; ++t, i += MR) {
            GemmEpilogue ep{};
            if (with_ep) ep = offset_epilogue(*g.epilogue, i, j);
            const size_t first = std::min(t * share, lines);
            gemm_tile<V, MR, NV, kAT, true>(kc, a_at<kAT>(g.a, g.lda, i, k0), g.lda, StridedB{bp, NR},
                                       g.c + i * g.ldc + j, g.ldc, MR, cols, k0 > 0,
                                       with_ep ? &ep : nullptr, next + first * kLineFloats,
                                       std::min(share, lines - first));
          }
        }
        for (; i < i0 + mc; i += MR) {
          GemmEpilogue ep{};
          if (with_ep) ep = offset_epilogue(*g.epilogue, i, j);
          gemm_rows<V, MR, NV, kAT>(kc, a_at<kAT>(g.a, g.lda, i, k0), g.lda, StridedB{bp, NR}, g.c + i * g.ldc + j,
                               g.ldc, std::min(size_t(MR), i0 + mc - i), cols, k0 > 0,
                               with_ep ? &ep : nullptr);
        }
      }
    }
  }
}

void gemm_packed_baseline(const GemmBlock& g) { gemm_packed_block<VecF4, 4, 2, false>(g); }
void gemm_packed_at_baseline(const GemmBlock& g) { gemm_packed_block<VecF4, 4, 2, true>(g); }
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void gemm_packed_avx2(const GemmBlock& g) {
  gemm_packed_block<VecF8, 6, 2, false>(g);
}
EMBER_MATH_TARGET_AVX2 void gemm_packed_at_avx2(const GemmBlock& g) {
  gemm_packed_block<VecF8, 6, 2, true>(g);
}
EMBER_MATH_TARGET_AVX512 void gemm_packed_avx512(const GemmBlock& g) {
  gemm_packed_block<VecF16, 8, 2, false>(g);
}
EMBER_MATH_TARGET_AVX512 void gemm_packed_at_avx512(const GemmBlock& g) {
  gemm_packed_block<VecF16, 8, 2, true>(g);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
void gemm_packed_neon(const GemmBlock& g) { gemm_packed_block<VecF4, 8, 2, false>(g); }
void gemm_packed_at_neon(const GemmBlock& g) { gemm_packed_block<VecF4, 8, 2, true>(g); }
#endif

void rows_baseline(const RowsProduct& r) { gemm_rows_block<VecF4, 4, 2>(r); }
#if EMBER_MATH_X86_DISPATCH
EMBER_MATH_TARGET_AVX2 void rows_avx2(const RowsProduct& r) { gemm_rows_block<VecF8, 6, 2>(r); }
EMBER_MATH_TARGET_AVX512 void rows_avx512(const RowsProduct& r) {
  gemm_rows_block<VecF16, 8, 2>(r);
}
#endif
#if EMBER_MATH_NEON_DISPATCH
void rows_neon(const RowsProduct& r) { gemm_rows_block<VecF4, 8, 2>(r); }
#endif

struct GemmKernel {
  void (*fn)(const GemmBlock&);
  size_t mr;
};

GemmKernel gemm_kernel(Isa isa, bool packed) {
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) return {packed ? gemm_packed_avx512 : gemm_avx512, 8};
  if (isa == Isa::kAvx2) return {packed ? gemm_packed_avx2 : gemm_avx2, 6};
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) return {packed ? gemm_packed_neon : gemm_neon, 8};
#endif
  (void)isa;
  return {packed ? gemm_packed_baseline : gemm_baseline, 4};
}

}  // namespace

size_t gemm_panel_width(Isa isa) {
#if EMBER_MATH_X86_DISPATCH
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
  const size_t panels = (n + nr - 1) / nr, width = panels * nr;
  // One task per chunk of k and panel; each copies kc rows of nr floats.
  const size_t chunks = (k + kKc - 1) / kKc;
  auto task = [&](size_t t) {
    const size_t k0 = t / panels * kKc, j = t % panels * nr;
    const size_t kc = std::min(kKc, k - k0), cols = std::min(nr, n - j);
    float* panel = packed + k0 * width + j * kc;
    for (size_t p = 0; p < kc; ++p) {
      const float* row = b + (k0 + p) * ldb + j;
      for (size_t q = 0; q < cols; ++q) panel[p * nr + q] = row[q];
      for (size_t q = cols; q < nr; ++q) panel[p * nr + q] = 0.0f;
    }
  };
  if (k * n < kInlineMacs) {
    for (size_t t = 0; t < chunks * panels; ++t) task(t);
    return;
  }
  parallel_for(chunks * panels, [&task](size_t t) { task(t); });
}

void pack_gemm_bt(size_t k, size_t n, const float* bt, size_t ldbt, float* packed, Isa isa) {
  const size_t nr = gemm_panel_width(isa);
  const size_t panels = (n + nr - 1) / nr;
  // One task per panel: a column block of B is a row block of bt.
  parallel_for(panels, [&](size_t t) {
    const size_t j = t * nr;
    const size_t cols = std::min(nr, n - j);
    const size_t width = panels * nr;
    for (size_t k0 = 0; k0 < k; k0 += kKc) {
      const size_t kc = std::min(kKc, k - k0);
      float* panel = packed + k0 * width + j * kc;
      for (size_t q = 0; q < nr; ++q) {
        if (q < cols) {
          const float* row = bt + (j + q) * ldbt + k0;
          for (size_t p = 0; p < kc; ++p) panel[p * nr + q] = row[p];
        } else {
          for (size_t p = 0; p < kc; ++p) panel[p * nr + q] = 0.0f;
        }
      }
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
  gemm_kernel(isa, true).fn(g);
}

void gemm_f32_packed_at(size_t m, size_t n, size_t k, const float* at, size_t ldat,
                        const float* packed_b, size_t packed_n, size_t col0, float* c,
                        size_t ldc, Isa isa, const GemmEpilogue* epilogue) {
  if (m == 0 || n == 0) return;
  const size_t nr = gemm_panel_width(isa);
  const size_t width = (packed_n + nr - 1) / nr * nr;
  const GemmBlock g{m, n, k, at, packed_b, c, ldat, width, ldc, epilogue, col0};
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) return gemm_packed_at_avx512(g);
  if (isa == Isa::kAvx2) return gemm_packed_at_avx2(g);
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) return gemm_packed_at_neon(g);
#endif
  gemm_packed_at_baseline(g);
}

// The product [m x n] cut into blocks for the pool: about four per
// thread, row blocks (whole MR tiles) first, then column ranges (whole
// panels) when the rows do not go round. Calls block(r0, rows, c0, cols)
// for each, in parallel; small products in one call on this thread.
// A one-row product reads every byte of B for little arithmetic: below
// this size (B within a core's L2) splitting it costs more in pool wakeups
// and in B moving between the cores' caches than it saves (an LSTM's
// 128 x 512 time steps: 1.7 us on one thread, 5 us split over two).
constexpr size_t kInlineRowMacs = size_t(1) << 20;

template <typename Block>
void split_over_pool(size_t m, size_t n, size_t k, size_t mr, size_t nr, const Block& block) {
  const size_t threads = num_threads();
  if (threads <= 1 || m * n * k < kInlineMacs || (m == 1 && n * k < kInlineRowMacs)) {
    return block(0, m, 0, n);
  }
  const size_t want = 4 * threads;
  const size_t row_tiles = (m + mr - 1) / mr, col_panels = (n + nr - 1) / nr;
  const size_t row_blocks = std::min(want, row_tiles);
  const size_t col_blocks = std::min((want + row_blocks - 1) / row_blocks, col_panels);
  const size_t rows = (row_tiles + row_blocks - 1) / row_blocks * mr;
  const size_t cols = (col_panels + col_blocks - 1) / col_blocks * nr;
  const size_t rb = (m + rows - 1) / rows, cb = (n + cols - 1) / cols;
  parallel_for(rb * cb, [&](size_t t) {
    const size_t r0 = t / cb * rows, c0 = t % cb * cols;
    block(r0, std::min(rows, m - r0), c0, std::min(cols, n - c0));
  });
}

void gemm_f32_packed_parallel(size_t m, size_t n, size_t k, const float* a, size_t lda,
                              const float* packed_b, float* c, size_t ldc, Isa isa,
                              const GemmEpilogue* epilogue, size_t packed_n) {
  if (m == 0 || n == 0) return;
  if (packed_n == 0) packed_n = n;
  split_over_pool(m, n, k, gemm_kernel(isa, true).mr, gemm_panel_width(isa),
                  [&](size_t r0, size_t rows, size_t c0, size_t cols) {
                    GemmEpilogue ep{};
                    if (epilogue) ep = offset_epilogue(*epilogue, r0, c0);
                    gemm_f32_packed(rows, cols, k, a + r0 * lda, lda, packed_b, packed_n, c0,
                                    c + r0 * ldc + c0, ldc, isa, epilogue ? &ep : nullptr);
                  });
}

void gemm_f32_rows(const RowsProduct& r, Isa isa) {
  if (r.m == 0 || r.panels == 0) return;
#if EMBER_MATH_X86_DISPATCH
  if (isa == Isa::kAvx512) return rows_avx512(r);
  if (isa == Isa::kAvx2) return rows_avx2(r);
#endif
#if EMBER_MATH_NEON_DISPATCH
  if (isa == Isa::kNeon) return rows_neon(r);
#endif
  (void)isa;
  rows_baseline(r);
}

void gemm_f32_inplace(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b,
                      size_t ldb, float* c, size_t ldc, Isa isa, const GemmEpilogue* epilogue) {
  if (m == 0 || n == 0) return;
  const GemmBlock g{m, n, k, a, b, c, lda, ldb, ldc, epilogue, 0};
  gemm_kernel(isa, false).fn(g);
}

void gemm_f32(size_t m, size_t n, size_t k, const float* a, size_t lda, const float* b,
              size_t ldb, float* c, size_t ldc, Isa isa) {
  if (m == 0 || n == 0) return;
  const GemmKernel kernel = gemm_kernel(isa, false);
  split_over_pool(m, n, k, kernel.mr, gemm_panel_width(isa),
                  [&](size_t r0, size_t rows, size_t c0, size_t cols) {
                    kernel.fn(GemmBlock{rows, cols, k, a + r0 * lda, b + c0,
                                        c + r0 * ldc + c0, lda, ldb, ldc, nullptr, 0});
                  });
}

void bmm_f32(size_t batch, size_t m, size_t n, size_t k, const float* a, size_t a_stride,
             const float* b, size_t b_stride, float* out, Isa isa) {
  if (batch == 0 || m == 0 || n == 0) return;
  const GemmKernel kernel = gemm_kernel(isa, false);
  // Split rows so that each thread gets about four tasks, in multiples of
  // the tile height; small products stay in one task per batch item.
  size_t blocks = 1;
  const size_t threads = num_threads();
  if (threads > 1 && batch * m * n * k >= kInlineMacs) {
    const size_t want = (4 * threads + batch - 1) / batch;
    blocks = std::min(want, (m + kernel.mr - 1) / kernel.mr);
  }
  size_t rows = (m + blocks - 1) / blocks;
  rows = (rows + kernel.mr - 1) / kernel.mr * kernel.mr;
  blocks = (m + rows - 1) / rows;
  auto task = [&](size_t t) {
    const size_t item = t / blocks, r0 = t % blocks * rows;
    GemmBlock g{};
    g.m = std::min(rows, m - r0);
    g.n = n;
    g.k = k;
    g.a = a + item * a_stride + r0 * k;
    g.b = b + item * b_stride;
    g.c = out + item * m * n + r0 * n;
    g.lda = k;
    g.ldb = n;
    g.ldc = n;
    kernel.fn(g);
  };
  if (threads <= 1 || batch * m * n * k < kInlineMacs) {
    for (size_t t = 0; t < batch * blocks; ++t) task(t);
    return;
  }
  parallel_for(batch * blocks, [&task](size_t t) { task(t); });
}

}  // namespace ember::math
