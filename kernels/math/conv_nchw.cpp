// NCHW convolution as GEMM over im2col packed in place (conv.h).
#include <algorithm>
#include <cstring>

#include "kernels/math/conv.h"
#include "kernels/math/gemm.h"
#include "kernels/math/task_queue.h"
#include "kernels/math/transpose.h"
#include "kernels/math/vec_util.h"
#include "runtime/platform/threadpool.h"

namespace ember::math {
namespace {

// im2col floats per worker at most (with a 128-row A block, about
// 320 KiB of L2 in all), and the widest pixel block.
constexpr size_t kBlockFloats = size_t(48) << 10;
constexpr size_t kMaxBlockPixels = 512;
// The in-place pointwise form: at most this deep, and either at most this
// many output channels or at most this many pixels (see plan()).
constexpr size_t kInPlaceDepth = 256;
constexpr size_t kInPlaceChannels = 256;
constexpr size_t kInPlacePixels = 64;
// Rows mode: panels per task, which share each tile of weights.
constexpr size_t kRowGroup = 8;
// Stride-2 rows mode only this deep: a stem (few input channels, a wide
// window) gains, a deep layer's packed im2col is faster. Measured at 1
// thread, AVX-512 (AMD Zen 5): ResNet's 7x7 stem (K 147) 1.49 -> 1.09 ms,
// MobileNetV2's stem (K 27) level, 3x3 stride-2 layers of 64 and 128
// input channels (K 576, 1152) 12-20 % slower.
constexpr size_t kStridedRowsDepth = 256;
// Channel blocks are at least this many rows (several register tiles).
constexpr size_t kMinChannelRows = 32;

size_t depth(const Conv2dShape& s) { return s.in_c / s.groups * s.kernel_h * s.kernel_w; }

// How one call is cut into tasks; a function of the shape and thread
// count only, and no element's sum depends on it.
struct Plan {
  size_t k, pixels, block, pixel_blocks, channel_rows, channel_blocks, tasks;
  bool in_place;  // pointwise with few channels: the GEMM reads the input as B
  // Rows mode (stride 1 or 2, dilation 1, a window wider than one pixel):
  // each task is one output row's panel of up to NR pixels, whose B rows
  // are rows of a zero-padded copy of the input (no im2col). At stride 2
  // across, each copied row holds its even columns, then its odd ones
  // (from odd_at), so a tap's pixels are again consecutive floats.
  bool rows;
  size_t padded_w, padded_plane, row_panels, row_groups;  // rows mode, per image-group
  size_t odd_at;  // rows mode at stride 2: where a copied row's odd columns start
};

// Channel blocks so that `outer` tasks times them give each thread about
// four; each block a multiple of 8 rows and at least kMinChannelRows.
void split_channels(size_t ocg, size_t outer, Plan* p) {
  const size_t want = 4 * num_threads();
  p->channel_blocks = 1;
  if (outer < want && ocg >= 2 * kMinChannelRows) {
    p->channel_blocks = std::min((want + outer - 1) / outer, ocg / kMinChannelRows);
  }
  p->channel_rows = (ocg + p->channel_blocks - 1) / p->channel_blocks;
  p->channel_rows = (p->channel_rows + 7) / 8 * 8;
  p->channel_blocks = (ocg + p->channel_rows - 1) / p->channel_rows;
}

// Whether an output row of `w` pixels fills its panels well enough for
// rows mode: at least 7/8 of the lanes it computes (a last panel of at most
// half a panel runs the half-width tile).
bool rows_fill_panels(size_t w, size_t nr) {
  const size_t rem = w % nr;
  const size_t lanes = w / nr * nr + (rem == 0 ? 0 : rem <= nr / 2 ? nr / 2 : nr);
  return w * 8 >= lanes * 7;
}

Plan plan(const Conv2dShape& s, Isa isa) {
  Plan p{};
  const size_t nr = gemm_panel_width(isa);
  p.k = std::max<size_t>(depth(s), 1);
  p.pixels = s.out_h * s.out_w;
  size_t block = std::min(kMaxBlockPixels, std::max(kBlockFloats / p.k, nr));
  block = block / nr * nr;
  p.block = std::min(block, (p.pixels + nr - 1) / nr * nr);
  p.pixel_blocks = (p.pixels + p.block - 1) / p.block;
  const size_t ocg = s.out_c / s.groups;
  p.rows = s.stride_h <= 2 && s.stride_w <= 2 && s.dilation_h == 1 && s.dilation_w == 1 &&
           s.kernel_h * s.kernel_w > 1 && rows_fill_panels(s.out_w, nr) &&
           (s.stride_w == 1 || p.k <= kStridedRowsDepth);
  if (p.rows) {
    // Right of each padded row (of each half at stride 2), a panel of
    // slack: the last panel's row reads NR floats from its last pixel's
    // window start.
    const size_t wide = s.in_w + 2 * s.pad_w;
    p.odd_at = s.stride_w == 2 ? (wide + 1) / 2 + nr : 0;
    p.padded_w = s.stride_w == 2 ? p.odd_at + wide / 2 + nr : wide + nr;
    p.padded_plane = (s.in_h + 2 * s.pad_h) * p.padded_w;
    p.row_panels = s.out_h * ((s.out_w + nr - 1) / nr);
    p.row_groups = (p.row_panels + kRowGroup - 1) / kRowGroup;
    split_channels(ocg, p.row_groups, &p);
    p.tasks = p.row_groups * p.channel_blocks;
    p.in_place = false;
    return p;
  }
  const size_t outer = s.batch * s.groups * p.pixel_blocks;
  split_channels(ocg, outer, &p);
  p.tasks = outer * p.channel_blocks;
  // A 1x1 stride-1 unpadded convolution's input is B as it stands: with a
  // shallow K its rows (one input plane each) do not alias in L1, and
  // reading them in place saves the packing copy, which costs most where
  // output channels are few. Measured on MobileNetV2's pointwise shapes
  // (AVX2): in place is 1.4x faster at 24-32 channels, 3-12 % at 96-192
  // and at 960 channels of 7x7 pixels, 16 % slower at 384 channels of
  // 14x14, level at 576.
  p.in_place = s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 &&
               s.pad_h == 0 && s.pad_w == 0 && p.k <= kInPlaceDepth &&
               (ocg <= kInPlaceChannels || p.pixels <= kInPlacePixels);
  return p;
}

// Input columns: for output column ox, tap offset dx reads input column
// ox * stride + dx; [lo, hi) are the ox whose read is inside the row.
void valid_columns(const Conv2dShape& s, int64_t dx, size_t* lo, size_t* hi) {
  const int64_t sw = int64_t(s.stride_w), w = int64_t(s.in_w);
  const int64_t first = dx >= 0 ? 0 : (-dx + sw - 1) / sw;
  const int64_t last = w - 1 - dx;  // ox * sw <= last
  const int64_t end = last < 0 ? 0 : last / sw + 1;
  *lo = size_t(std::min<int64_t>(first, int64_t(s.out_w)));
  *hi = size_t(std::max<int64_t>(std::min<int64_t>(end, int64_t(s.out_w)), int64_t(*lo)));
}

// Columns [q0, q0 + cols) of one image-group's K x pixels matrix, written
// in packed-panel order (gemm_packed_index) for a packing `cols` wide.
// The pixels of each panel fall in a few output-row segments, found once
// per block; then for each row p of K (tap ic, ky, kx: its row offset and
// valid columns computed once) every panel's NR floats are written from
// those segments' input rows, zeros where the tap falls in the padding.
// NR is the panel width, a constant so that the panel arithmetic is shifts.
// A 1x1, stride-1, unpadded convolution's columns are its input rows as
// they stand: each panel row is one copy of NR contiguous floats.
template <size_t NR>
void pointwise_pack(const Conv2dShape& s, const float* image, size_t k, size_t q0, size_t cols,
                    float* packed) {
  const size_t width = (cols + NR - 1) / NR * NR, plane = s.in_h * s.in_w;
  for (size_t p = 0; p < k; ++p) {
    const size_t kc = std::min<size_t>(256, k - p / 256 * 256);
    float* row = packed + gemm_packed_index(k, width, p, 0, NR);
    const float* src = image + p * plane + q0;
    for (size_t j = 0; j < cols; j += NR) {
      float* dst = row + j * kc;
      const size_t n = std::min(NR, cols - j);
      std::memcpy(dst, src + j, n * sizeof(float));
      std::memset(dst + n, 0, (NR - n) * sizeof(float));
    }
  }
}

template <size_t NR>
void im2col_pack(const Conv2dShape& s, const float* image, size_t k, size_t q0, size_t cols,
                 float* packed) {
  if (s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 &&
      s.pad_h == 0 && s.pad_w == 0) {
    return pointwise_pack<NR>(s, image, k, q0, cols, packed);
  }
  struct Segment {
    uint32_t oy, ox, len, at;  // output row, first column, pixels, offset in the block
  };
  const size_t width = (cols + NR - 1) / NR * NR, panels = width / NR;
  Segment seg[kMaxBlockPixels];
  uint16_t first[kMaxBlockPixels / 8 + 1];  // panel t's segments: [first[t], first[t + 1])
  size_t n = 0;
  for (size_t t = 0; t < panels; ++t) {
    first[t] = uint16_t(n);
    const size_t end = std::min((t + 1) * NR, cols);
    for (size_t j = t * NR; j < end;) {
      const size_t q = q0 + j, ox = q % s.out_w;
      const size_t len = std::min(s.out_w - ox, end - j);
      seg[n++] = Segment{uint32_t(q / s.out_w), uint32_t(ox), uint32_t(len), uint32_t(j)};
      j += len;
    }
  }
  first[panels] = uint16_t(n);
  const size_t plane = s.in_h * s.in_w;
  size_t ic = 0, ky = 0, kx = 0;
  for (size_t p = 0; p < k; ++p) {
    const size_t kc = std::min<size_t>(256, k - p / 256 * 256);
    float* row = packed + gemm_packed_index(k, width, p, 0, NR);
    const float* src = image + ic * plane;
    const int64_t dy = int64_t(ky * s.dilation_h) - int64_t(s.pad_h);
    const int64_t dx = int64_t(kx * s.dilation_w) - int64_t(s.pad_w);
    size_t lo, hi;
    valid_columns(s, dx, &lo, &hi);
    for (size_t t = 0; t < panels; ++t) {
      float* dst = row + t * NR * kc;
      // The segments cover the panel's pixels exactly once; each element is
      // written once, as data or as a padding zero.
      for (size_t i = first[t]; i < first[t + 1]; ++i) {
        const Segment& g = seg[i];
        float* d = dst + (g.at - t * NR);
        const int64_t iy = int64_t(g.oy * s.stride_h) + dy;
        if (iy < 0 || iy >= int64_t(s.in_h)) {
          for (size_t x = 0; x < g.len; ++x) d[x] = 0.0f;
          continue;
        }
        // in_row[ox * stride] is output column ox's input (dx applied).
        const float* in_row = src + iy * int64_t(s.in_w) + dx;
        const size_t a = std::min(std::max<size_t>(g.ox, lo), size_t(g.ox + g.len));
        const size_t b = std::max(a, std::min<size_t>(g.ox + g.len, hi));
        size_t x = g.ox;
        for (; x < a; ++x) *d++ = 0.0f;
        if (s.stride_w == 1) {
          std::memcpy(d, in_row + x, (b - x) * sizeof(float));
          d += b - x, x = b;
        } else if (s.stride_w == 2) {
          // Four at a time from eight consecutive floats, stopping while
          // the eighth is still before the segment's last read.
          for (; x + 5 <= b; x += 4, d += 4) {
            VecF4 v;
            load_strided(in_row + 2 * x, 2, v);
            store_vec(d, v);
          }
          for (; x < b; ++x) *d++ = in_row[x * 2];
        } else {
          for (; x < b; ++x) *d++ = in_row[x * s.stride_w];
        }
        for (; x < g.ox + g.len; ++x) *d++ = 0.0f;
      }
    }
    // Columns past the block's pixels (the last panel's padding).
    for (size_t j = cols; j < width; ++j) row[(j / NR) * NR * kc + j % NR] = 0.0f;
    if (++kx == s.kernel_w) {
      kx = 0;
      if (++ky == s.kernel_h) ky = 0, ++ic;
    }
  }
}

void im2col_pack_any(const Conv2dShape& s, const float* image, size_t k, size_t q0, size_t cols,
                     float* packed, size_t nr) {
  switch (nr) {
    case 8: return im2col_pack<8>(s, image, k, q0, cols, packed);
    case 16: return im2col_pack<16>(s, image, k, q0, cols, packed);
    default: return im2col_pack<32>(s, image, k, q0, cols, packed);
  }
}

struct ConvRun {
  const Conv2dShape* s;
  Plan p;
  Isa isa;
  size_t nr, workers;
  const float *in, *weight, *bias;
  float *out, *workspace;
  const ConvEpilogue* epilogue;  // null: none
  TaskQueue* queue;              // the tasks of the current parallel call
};

// The GEMM epilogue for output channels from oc0: bias, then the
// convolution epilogue's scale, shift and clamp.
GemmEpilogue conv_epilogue(const ConvRun& c, size_t oc0) {
  GemmEpilogue ep{};
  ep.row_bias = c.bias ? c.bias + oc0 : nullptr;
  if (c.epilogue) {
    ep.lo = c.epilogue->lo, ep.hi = c.epilogue->hi;
    if (c.epilogue->scale) {
      ep.row_scale = c.epilogue->scale + oc0, ep.row_shift = c.epilogue->shift + oc0;
    }
  }
  return ep;
}

// Worker w's tasks (task_queue.h), in its own part of the workspace;
// channel blocks are innermost, so a worker's next task usually reuses the
// pixel block it has packed.
void run_worker(const ConvRun& c, size_t w) {
  const Conv2dShape& s = *c.s;
  const Plan& p = c.p;
  float* packed = c.workspace + w * p.k * p.block;
  const size_t icg = s.in_c / s.groups, ocg = s.out_c / s.groups;
  size_t have = SIZE_MAX;
  for (size_t t; c.queue->take(w, &t);) {
    const size_t outer = t / p.channel_blocks, cb = t % p.channel_blocks;
    const size_t pb = outer % p.pixel_blocks, ng = outer / p.pixel_blocks;
    const size_t g = ng % s.groups, n = ng / s.groups;
    const size_t q0 = pb * p.block, cols = std::min(p.block, p.pixels - q0);
    const float* image = c.in + (n * s.in_c + g * icg) * s.in_h * s.in_w;
    if (!p.in_place && have != outer) {
      im2col_pack_any(s, image, p.k, q0, cols, packed, c.nr);
      have = outer;
    }
    const size_t oc0 = g * ocg + cb * p.channel_rows;
    const size_t rows = std::min(p.channel_rows, ocg - cb * p.channel_rows);
    const GemmEpilogue ep = conv_epilogue(c, oc0);
    const GemmEpilogue* epp = c.bias || c.epilogue ? &ep : nullptr;
    float* dst = c.out + (n * s.out_c + oc0) * p.pixels + q0;
    if (p.in_place) {
      gemm_f32_inplace(rows, cols, p.k, c.weight + oc0 * p.k, p.k, image + q0, p.pixels, dst,
                       p.pixels, c.isa, epp);
    } else {
      gemm_f32_packed(rows, cols, p.k, c.weight + oc0 * p.k, p.k, packed, cols, 0, dst,
                      p.pixels, c.isa, epp);
    }
  }
}

// Rows mode, image n and group g, input already padded into c.workspace.
void run_rows_worker(const ConvRun& c, size_t n, size_t g, size_t w) {
  const Conv2dShape& s = *c.s;
  const Plan& p = c.p;
  const size_t icg = s.in_c / s.groups, ocg = s.out_c / s.groups;
  const float* padded = c.workspace;
  const size_t padded_floats = (icg * p.padded_plane + 1) / 2 * 2;
  const float** rows =
      reinterpret_cast<const float**>(c.workspace + padded_floats) + w * kRowGroup * p.k;
  const size_t panels_per_row = (s.out_w + c.nr - 1) / c.nr;
  size_t have = SIZE_MAX, panels = 0, cols[kRowGroup];
  size_t offset[kRowGroup];  // each panel's first output pixel
  for (size_t t; c.queue->take(w, &t);) {
    const size_t group = t / p.channel_blocks, cb = t % p.channel_blocks;
    if (have != group) {
      // Row q = (ic, ky, kx) of B for a panel of output row oy from column
      // ox0: padded row oy + ky from column ox0 + kx.
      panels = std::min(kRowGroup, p.row_panels - group * kRowGroup);
      for (size_t j = 0; j < panels; ++j) {
        const size_t rp = group * kRowGroup + j;
        const size_t oy = rp / panels_per_row, ox0 = rp % panels_per_row * c.nr;
        cols[j] = std::min(c.nr, s.out_w - ox0);
        offset[j] = oy * s.out_w + ox0;
        const float** r = rows + j * p.k;
        for (size_t ic = 0; ic < icg; ++ic) {
          for (size_t ky = 0; ky < s.kernel_h; ++ky) {
            const float* line =
                padded + ic * p.padded_plane + (oy * s.stride_h + ky) * p.padded_w + ox0;
            for (size_t kx = 0; kx < s.kernel_w; ++kx) {
              // Padded column ox * stride + kx, in its half at stride 2.
              *r++ = s.stride_w == 1 ? line + kx : line + (kx % 2) * p.odd_at + kx / 2;
            }
          }
        }
      }
      have = group;
    }
    const size_t oc0 = g * ocg + cb * p.channel_rows;
    float* out = c.out + (n * s.out_c + oc0) * p.pixels;
    float* dst[kRowGroup];
    for (size_t j = 0; j < panels; ++j) dst[j] = out + offset[j];
    const GemmEpilogue ep = conv_epilogue(c, oc0);
    RowsProduct r;
    r.m = std::min(p.channel_rows, ocg - cb * p.channel_rows);
    r.k = p.k, r.panels = panels, r.a = c.weight + oc0 * p.k, r.lda = p.k;
    r.rows = rows, r.c = dst, r.n = cols, r.ldc = p.pixels;
    r.epilogue = c.bias || c.epilogue ? &ep : nullptr;
    gemm_f32_rows(r, c.isa);
  }
}

// One input row of `w` floats, `pad` zeros each side, as even padded
// columns from row[0] and odd ones from row[odd_at]; zeros elsewhere up
// to row[width].
void split_row(const float* src, size_t w, size_t pad, size_t odd_at, size_t width,
               float* row) {
  std::fill(row, row + width, 0.0f);
  for (size_t x = 0; x < w; ++x) {
    const size_t c = x + pad;
    row[(c % 2) * odd_at + c / 2] = src[x];
  }
}

// Image group (n, g)'s input planes into the workspace with their zero
// border and slack, a plane per task.
void pad_input(const ConvRun& c, size_t n, size_t g) {
  const Conv2dShape& s = *c.s;
  const Plan& p = c.p;
  const size_t icg = s.in_c / s.groups;
  auto plane = [&](size_t ic) {
    const float* src = c.in + ((n * s.in_c + g * icg + ic) * s.in_h) * s.in_w;
    float* dst = c.workspace + ic * p.padded_plane;
    std::fill(dst, dst + s.pad_h * p.padded_w, 0.0f);
    for (size_t y = 0; y < s.in_h; ++y) {
      float* row = dst + (y + s.pad_h) * p.padded_w;
      if (s.stride_w == 2) {
        split_row(src + y * s.in_w, s.in_w, s.pad_w, p.odd_at, p.padded_w, row);
        continue;
      }
      std::fill(row, row + s.pad_w, 0.0f);
      std::copy(src + y * s.in_w, src + (y + 1) * s.in_w, row + s.pad_w);
      std::fill(row + s.pad_w + s.in_w, row + p.padded_w, 0.0f);
    }
    std::fill(dst + (s.in_h + s.pad_h) * p.padded_w, dst + p.padded_plane, 0.0f);
  };
  if (c.workers == 1) {
    for (size_t ic = 0; ic < icg; ++ic) plane(ic);
    return;
  }
  parallel_for(icg, [&plane](size_t ic) { plane(ic); });
}

void run_rows(const ConvRun& run) {
  const Conv2dShape& s = *run.s;
  for (size_t n = 0; n < s.batch; ++n) {
    for (size_t g = 0; g < s.groups; ++g) {
      TaskQueue queue(run.p.tasks, run.workers);
      ConvRun c = run;
      c.queue = &queue;
      pad_input(c, n, g);
      if (c.workers == 1) {
        run_rows_worker(c, n, g, 0);
        continue;
      }
      parallel_for(c.workers, [&c, n, g](size_t w) { run_rows_worker(c, n, g, w); });
    }
  }
}

// Packed-weights mode (conv.h): the transposed product, a task per
// (image, block of output channels, block of pixels). Channel blocks are
// whole panels, at most kAtBlockColumns wide; pixel blocks whole 8-row
// tiles, split only when the channel blocks alone leave threads idle.
constexpr size_t kAtBlockColumns = 128;

bool takes_packed_weights(const Conv2dShape& s) {
  return s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 &&
         s.pad_h == 0 && s.pad_w == 0 && s.groups == 1 && s.in_c > 0 &&
         s.out_h * s.out_w <= kPackedWeightsPixels;
}

struct AtPlan {
  size_t pixels, padded_c, block_cols, channel_tasks, block_rows, pixel_blocks, tasks;
};

AtPlan at_plan(const Conv2dShape& s, size_t nr, size_t threads) {
  AtPlan p{};
  p.pixels = s.out_h * s.out_w;
  const size_t panels = (s.out_c + nr - 1) / nr;
  p.padded_c = panels * nr;
  const size_t want = 4 * std::max<size_t>(threads, 1);
  const size_t per_task =
      std::min(std::max<size_t>(1, kAtBlockColumns / nr), (panels + want - 1) / want);
  p.block_cols = std::max<size_t>(per_task, 1) * nr;
  p.channel_tasks = (p.padded_c + p.block_cols - 1) / p.block_cols;
  p.pixel_blocks = 1;
  if (threads > 1 && p.channel_tasks < want) {
    p.pixel_blocks = std::min((want + p.channel_tasks - 1) / p.channel_tasks,
                              std::max<size_t>(p.pixels / 8, 1));
  }
  p.block_rows = ((p.pixels + p.pixel_blocks - 1) / p.pixel_blocks + 7) / 8 * 8;
  p.pixel_blocks = (p.pixels + p.block_rows - 1) / p.block_rows;
  p.tasks = s.batch * p.channel_tasks * p.pixel_blocks;
  return p;
}

// The column arrays of the epilogue (bias, scale, shift), each padded with
// zeros to whole panels, at the head of the workspace.
size_t at_head_floats(const AtPlan& p) { return 3 * p.padded_c; }

void at_epilogue(const Conv2dShape& s, const AtPlan& p, const float* bias,
                 const ConvEpilogue* epilogue, float* head, GemmEpilogue* ep) {
  float* columns[3] = {head, head + p.padded_c, head + 2 * p.padded_c};
  const float* from[3] = {bias, epilogue ? epilogue->scale : nullptr,
                          epilogue ? epilogue->shift : nullptr};
  for (size_t i = 0; i < 3; ++i) {
    if (from[i] == nullptr) continue;
    std::copy(from[i], from[i] + s.out_c, columns[i]);
    std::fill(columns[i] + s.out_c, columns[i] + p.padded_c, 0.0f);
  }
  if (bias) ep->col_bias = columns[0];
  if (epilogue && epilogue->scale) ep->col_scale = columns[1], ep->col_shift = columns[2];
  if (epilogue) ep->lo = epilogue->lo, ep->hi = epilogue->hi;
}

void run_at(const Conv2dShape& s, const float* in, const float* packed, const float* bias,
            float* out, float* workspace, size_t workers, Isa isa,
            const ConvEpilogue* epilogue) {
  const AtPlan p = at_plan(s, gemm_panel_width(isa), workers);
  GemmEpilogue ep{};
  at_epilogue(s, p, bias, epilogue, workspace, &ep);
  const bool with_ep = bias || epilogue;
  float* blocks = workspace + at_head_floats(p);
  workers = std::max<size_t>(1, std::min(workers, p.tasks));
  TaskQueue queue(p.tasks, workers);
  auto worker = [&](size_t w) {
    float* block = blocks + w * p.block_rows * p.block_cols;
    for (size_t t; queue.take(w, &t);) {
      const size_t pb = t % p.pixel_blocks, ct = t / p.pixel_blocks % p.channel_tasks;
      const size_t n = t / p.pixel_blocks / p.channel_tasks;
      const size_t r0 = pb * p.block_rows, rows = std::min(p.block_rows, p.pixels - r0);
      const size_t c0 = ct * p.block_cols;  // below out_c: blocks are whole panels
      const size_t cols = std::min(p.block_cols, s.out_c - c0);
      const GemmEpilogue tile = offset_epilogue(ep, 0, c0);
      const float* image = in + n * s.in_c * p.pixels;
      gemm_f32_packed_at(rows, cols, s.in_c, image + r0, p.pixels, packed, s.out_c, c0, block,
                         p.block_cols, isa, with_ep ? &tile : nullptr);
      transpose_2d_f32(cols, rows, block, p.block_cols,
                       out + (n * s.out_c + c0) * p.pixels + r0, p.pixels);
    }
  };
  if (workers == 1) return worker(0);
  parallel_for(workers, [&worker](size_t w) { worker(w); });
}

}  // namespace

size_t conv2d_packed_weights_floats(const Conv2dShape& s, Isa isa) {
  return takes_packed_weights(s) ? gemm_packed_b_floats(s.in_c, s.out_c, isa) : 0;
}

void conv2d_pack_weights(const Conv2dShape& s, const float* weight, float* packed, Isa isa) {
  // weight [out_c, in_c] is B [in_c x out_c] given transposed.
  pack_gemm_bt(s.in_c, s.out_c, weight, s.in_c, packed, isa);
}

size_t conv2d_nchw_workspace_floats(const Conv2dShape& s, size_t workers, Isa isa,
                                    bool packed_weights) {
  workers = std::max<size_t>(workers, 1);
  if (packed_weights && takes_packed_weights(s)) {
    // A small product runs on one worker (conv2d_nchw_f32), whose blocks
    // may be larger than each of several workers'.
    const AtPlan p = at_plan(s, gemm_panel_width(isa), workers);
    const AtPlan one = at_plan(s, gemm_panel_width(isa), 1);
    return at_head_floats(p) + std::max(std::min(workers, p.tasks) * p.block_rows * p.block_cols,
                                        one.block_rows * one.block_cols);
  }
  const Plan p = plan(s, isa);
  if (p.rows) {
    // The padded input group, then each worker's k row pointers (two
    // floats' room each).
    const size_t padded = (s.in_c / s.groups * p.padded_plane + 1) / 2 * 2;
    return padded + workers * kRowGroup * p.k * 2;
  }
  return workers * p.k * p.block;
}

void conv2d_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                     const float* bias, float* out, float* workspace, size_t workers, Isa isa,
                     const ConvEpilogue* epilogue, const float* packed_weights) {
  if (packed_weights && takes_packed_weights(s) && s.batch > 0 && s.out_c > 0 &&
      s.out_h * s.out_w > 0) {
    const size_t macs = s.batch * s.out_c * s.out_h * s.out_w * s.in_c;
    return run_at(s, in, packed_weights, bias, out, workspace,
                  macs < kInlineMacs ? 1 : std::max<size_t>(workers, 1), isa, epilogue);
  }
  ConvRun c{&s,  plan(s, isa), isa, gemm_panel_width(isa), 0, in, weight, bias, out, workspace,
            epilogue, nullptr};
  if (c.p.pixels == 0 || s.out_c == 0 || s.batch == 0) return;
  c.workers = std::max<size_t>(1, std::min(workers, c.p.tasks));
  const size_t macs = s.batch * s.out_c * c.p.pixels * c.p.k;
  if (c.workers == 1 || macs < kInlineMacs) c.workers = 1;
  if (c.p.rows) return run_rows(c);
  TaskQueue queue(c.p.tasks, c.workers);
  c.queue = &queue;
  if (c.workers == 1) return run_worker(c, 0);
  parallel_for(c.workers, [&c](size_t w) { run_worker(c, w); });
}

}  // namespace ember::math
