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
// Channel blocks are at least this many rows (several register tiles).
constexpr size_t kMinChannelRows = 32;

size_t depth(const Conv2dShape& s) { return s.in_c / s.groups * s.kernel_h * s.kernel_w; }

bool pointwise(const Conv2dShape& s) {
  return s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 &&
         s.pad_h == 0 && s.pad_w == 0;
}

// How one call is cut into tasks; a function of the shape and thread
// count only, and no element's sum depends on it.
struct Plan {
  size_t k, pixels, block, pixel_blocks, channel_rows, channel_blocks, tasks;
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
  return p;
}

// Columns [q0, q0 + cols) of one image-group's K x pixels matrix, written
// in packed-panel order (gemm_packed_index) for a packing `cols` wide.
void im2col_pack(const Conv2dShape& s, const float* image, size_t k, size_t q0, size_t cols,
                 float* packed, size_t nr) {
  const size_t width = (cols + nr - 1) / nr * nr;
  const size_t plane = s.in_h * s.in_w;
  if (pointwise(s)) {
    for (size_t p = 0; p < k; ++p) {
      const float* src = image + p * plane + q0;
      float* row = packed + gemm_packed_index(k, width, p, 0, nr);
      const size_t kc = std::min<size_t>(256, k - p / 256 * 256);
      for (size_t j0 = 0; j0 < width; j0 += nr) {
        float* dst = row + j0 * kc;
        if (j0 + nr <= cols) {
          std::copy(src + j0, src + j0 + nr, dst);
          continue;
        }
        for (size_t q = 0; q < nr; ++q) dst[q] = j0 + q < cols ? src[j0 + q] : 0.0f;
      }
    }
    return;
  }
  // Top-left input coordinate of each pixel; padding columns of the last
  // panel get a coordinate that is out of range for every tap.
  int64_t iy0[kMaxBlockPixels], ix0[kMaxBlockPixels];
  for (size_t j = 0; j < width; ++j) {
    if (j < cols) {
      const size_t q = q0 + j;
      iy0[j] = int64_t(q / s.out_w * s.stride_h) - int64_t(s.pad_h);
      ix0[j] = int64_t(q % s.out_w * s.stride_w) - int64_t(s.pad_w);
    } else {
      iy0[j] = -(int64_t(1) << 40);
      ix0[j] = 0;
    }
  }
  const size_t taps = s.kernel_h * s.kernel_w;
  const uint64_t h = s.in_h, w = s.in_w;
  for (size_t p = 0; p < k; ++p) {
    const size_t ic = p / taps, ky = p % taps / s.kernel_w, kx = p % s.kernel_w;
    const float* src = image + ic * plane;
    const int64_t dy = int64_t(ky * s.dilation_h), dx = int64_t(kx * s.dilation_w);
    float* row = packed + gemm_packed_index(k, width, p, 0, nr);
    const size_t kc = std::min<size_t>(256, k - p / 256 * 256);
    for (size_t j0 = 0; j0 < width; j0 += nr) {
      float* dst = row + j0 * kc;
      for (size_t q = 0; q < nr; ++q) {
        const int64_t iy = iy0[j0 + q] + dy, ix = ix0[j0 + q] + dx;
        dst[q] = uint64_t(iy) < h && uint64_t(ix) < w ? src[iy * int64_t(w) + ix] : 0.0f;
      }
    }
  }
}

struct ConvRun {
  const Conv2dShape* s;
  Plan p;
  Isa isa;
  size_t nr, workers;
  const float *in, *weight, *bias;
  float *out, *workspace;
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
    if (have != outer) {
      const float* image = c.in + (n * s.in_c + g * icg) * s.in_h * s.in_w;
      im2col_pack(s, image, p.k, q0, cols, packed, c.nr);
      have = outer;
    }
    const size_t oc0 = g * ocg + cb * p.channel_rows;
    const size_t rows = std::min(p.channel_rows, ocg - cb * p.channel_rows);
    GemmEpilogue ep{};
    ep.row_bias = c.bias ? c.bias + oc0 : nullptr;
    gemm_f32_packed(rows, cols, p.k, c.weight + oc0 * p.k, p.k, packed, cols, 0,
                    c.out + (n * s.out_c + oc0) * p.pixels + q0, p.pixels, c.isa,
                    c.bias ? &ep : nullptr);
  }
}

}  // namespace

size_t conv2d_nchw_workspace_floats(const Conv2dShape& s, size_t workers, Isa isa) {
  const Plan p = plan(s, isa);
  return std::max<size_t>(workers, 1) * p.k * p.block;
}

void conv2d_nchw_f32(const Conv2dShape& s, const float* in, const float* weight,
                     const float* bias, float* out, float* workspace, size_t workers, Isa isa) {
  ConvRun c{&s, plan(s, isa), isa, gemm_panel_width(isa), 0, in, weight, bias, out, workspace};
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
