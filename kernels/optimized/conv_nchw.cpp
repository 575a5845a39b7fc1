// NCHW convolution as GEMM over im2col packed in place (conv.h).
#include <algorithm>

#include "kernels/optimized/conv.h"
#include "kernels/optimized/gemm.h"
#include "runtime/platform/threadpool.h"

namespace ember::opt {
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
// Channel blocks are at least this many rows (several register tiles).
constexpr size_t kMinChannelRows = 32;

size_t depth(const Conv2dShape& s) { return s.in_c / s.groups * s.kernel_h * s.kernel_w; }

// How one call is cut into tasks; a function of the shape and thread
// count only, and no element's sum depends on it.
struct Plan {
  size_t k, pixels, block, pixel_blocks, channel_rows, channel_blocks, tasks;
  bool in_place;  // pointwise with few channels: the GEMM reads the input as B
};

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
  const size_t outer = s.batch * s.groups * p.pixel_blocks;
  const size_t want = 4 * num_threads();
  p.channel_blocks = 1;
  if (outer < want && ocg >= 2 * kMinChannelRows) {
    p.channel_blocks = std::min((want + outer - 1) / outer, ocg / kMinChannelRows);
  }
  p.channel_rows = (ocg + p.channel_blocks - 1) / p.channel_blocks;
  p.channel_rows = (p.channel_rows + 7) / 8 * 8;
  p.channel_blocks = (ocg + p.channel_rows - 1) / p.channel_rows;
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
template <size_t NR>
void im2col_pack(const Conv2dShape& s, const float* image, size_t k, size_t q0, size_t cols,
                 float* packed) {
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
          for (; x < b; ++x) *d++ = in_row[x];
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
};

// Worker w's contiguous range of tasks; channel blocks are innermost, so
// consecutive tasks reuse the pixel block already packed.
void run_worker(const ConvRun& c, size_t w) {
  const Conv2dShape& s = *c.s;
  const Plan& p = c.p;
  const size_t first = p.tasks * w / c.workers, end = p.tasks * (w + 1) / c.workers;
  float* packed = c.workspace + w * p.k * p.block;
  const size_t icg = s.in_c / s.groups, ocg = s.out_c / s.groups;
  size_t have = SIZE_MAX;
  for (size_t t = first; t < end; ++t) {
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
    GemmEpilogue ep{};
    ep.row_bias = c.bias ? c.bias + oc0 : nullptr;
    if (c.epilogue) {
      ep.lo = c.epilogue->lo, ep.hi = c.epilogue->hi;
      if (c.epilogue->scale) {
        ep.row_scale = c.epilogue->scale + oc0, ep.row_shift = c.epilogue->shift + oc0;
      }
    }
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

}  // namespace

size_t conv2d_nchw_workspace_floats(const Conv2dShape& s, size_t workers, Isa isa) {
  const Plan p = plan(s, isa);
  return std::max<size_t>(workers, 1) * p.k * p.block;
}

void conv2d_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                     const float* bias, float* out, float* workspace, size_t workers, Isa isa,
                     const ConvEpilogue* epilogue) {
  ConvRun c{&s,  plan(s, isa), isa, gemm_panel_width(isa), 0, in, weight, bias, out, workspace,
            epilogue};
  if (c.p.pixels == 0 || s.out_c == 0 || s.batch == 0) return;
  c.workers = std::max<size_t>(1, std::min(workers, c.p.tasks));
  const size_t macs = s.batch * s.out_c * c.p.pixels * c.p.k;
  if (c.workers == 1 || macs < kInlineMacs) {
    c.workers = 1;
    return run_worker(c, 0);
  }
  parallel_for(c.workers, [&c](size_t w) { run_worker(c, w); });
}

}  // namespace ember::opt
