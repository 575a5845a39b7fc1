// 2-D convolution for the native steps (xnn_native_kernels.h).
//
// The output's pixels are rows of a GEMM: row p of A holds the input
// values under the kernel at output pixel p, in (ky, kx, channel) order,
// which is the order of one OHWI weight row, so B is the weights
// transposed to [kernel_h * kernel_w * in_c, out_c] and packed into
// panels once (conv2d_pack_weights). A 1x1 stride-1 unpadded convolution
// reads the NHWC input as A in place; the others copy one block of rows
// of A (im2col, zeros for padding) into the worker's workspace and
// multiply it at once. Bias and clamping are applied to each register
// tile before it is stored (the GEMM's epilogue).
#include <algorithm>
#include <cstring>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "runtime/platform/threadpool.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kMaxBlockRows = 128;
constexpr size_t kBlockFloats = size_t(1) << 18;  // 1 MiB of im2col per worker at most

size_t depth(const Conv2dShape& s) { return s.kernel_h * s.kernel_w * s.in_c; }

bool reads_input_in_place(const Conv2dShape& s) {
  return s.kernel_h == 1 && s.kernel_w == 1 && s.stride_h == 1 && s.stride_w == 1 &&
         s.pad_top == 0 && s.pad_left == 0 && s.in_h == s.out_h && s.in_w == s.out_w;
}

// Pixel blocks: a function of the shape only.
struct Blocking {
  size_t pixels, rows, blocks;
};

Blocking blocking(const Conv2dShape& s) {
  Blocking b;
  b.pixels = s.batch * s.out_h * s.out_w;
  const size_t k = std::max<size_t>(depth(s), 1);
  size_t cap = std::min(kMaxBlockRows, std::max<size_t>(kBlockFloats / k, 16));
  cap = cap / 8 * 8;
  b.blocks = (b.pixels + cap - 1) / cap;
  b.rows = b.blocks ? (b.pixels + b.blocks - 1) / b.blocks : 0;
  b.rows = (b.rows + 7) / 8 * 8;
  b.blocks = b.rows ? (b.pixels + b.rows - 1) / b.rows : 0;
  return b;
}

// Rows [p0, p0 + rows) of A into `a` (rows x depth).
void im2col(const Conv2dShape& s, const float* in, size_t p0, size_t rows, float* a) {
  const size_t plane = s.out_h * s.out_w, c = s.in_c;
  for (size_t r = 0; r < rows; ++r) {
    const size_t p = p0 + r;
    const size_t n = p / plane, oy = (p % plane) / s.out_w, ox = p % s.out_w;
    const float* image = in + n * s.in_h * s.in_w * c;
    float* dst = a + r * depth(s);
    // Without dilation along x, the in-bounds taps of one kernel row are
    // adjacent pixels: [kx_lo, kx_hi) is one run of memory.
    size_t kx_lo = 0, kx_hi = s.kernel_w;
    if (s.dilation_w == 1) {
      const size_t x0 = ox * s.stride_w;  // input x of tap kx is x0 + kx - pad_left
      kx_lo = x0 < s.pad_left ? std::min(s.pad_left - x0, s.kernel_w) : 0;
      const size_t end = s.in_w + s.pad_left;  // taps with x0 + kx < end are inside
      kx_hi = end > x0 ? std::min(end - x0, s.kernel_w) : 0;
      kx_hi = std::max(kx_hi, kx_lo);
    }
    for (size_t ky = 0; ky < s.kernel_h; ++ky, dst += s.kernel_w * c) {
      // Unsigned wrap-around makes the negative (top/left padding) rows
      // compare >= in_h as well.
      const size_t iy = oy * s.stride_h + ky * s.dilation_h - s.pad_top;
      if (iy >= s.in_h) {
        std::memset(dst, 0, s.kernel_w * c * sizeof(float));
        continue;
      }
      if (s.dilation_w == 1) {
        const size_t ix = ox * s.stride_w + kx_lo - s.pad_left;
        std::memset(dst, 0, kx_lo * c * sizeof(float));
        if (kx_hi > kx_lo) {
          std::memcpy(dst + kx_lo * c, image + (iy * s.in_w + ix) * c,
                      (kx_hi - kx_lo) * c * sizeof(float));
        }
        std::memset(dst + kx_hi * c, 0, (s.kernel_w - kx_hi) * c * sizeof(float));
        continue;
      }
      for (size_t kx = 0; kx < s.kernel_w; ++kx) {
        const size_t ix = ox * s.stride_w + kx * s.dilation_w - s.pad_left;
        if (ix < s.in_w) {
          std::memcpy(dst + kx * c, image + (iy * s.in_w + ix) * c, c * sizeof(float));
        } else {
          std::memset(dst + kx * c, 0, c * sizeof(float));
        }
      }
    }
  }
}

}  // namespace

// The bias follows the weight panels, zero-padded to whole panels (the
// GEMM epilogue reads a panel's worth).
size_t conv2d_packed_floats(const Conv2dShape& s, Isa isa) {
  return gemm_packed_b_floats(depth(s), s.out_c, isa) + gemm_packed_b_floats(1, s.out_c, isa);
}

namespace {

void pack_bias(const Conv2dShape& s, const float* bias, float* packed, Isa isa) {
  float* b = packed + gemm_packed_b_floats(depth(s), s.out_c, isa);
  const size_t padded = gemm_packed_b_floats(1, s.out_c, isa);
  for (size_t o = 0; o < padded; ++o) b[o] = bias && o < s.out_c ? bias[o] : 0.0f;
}

}  // namespace

void conv2d_pack_weights(const Conv2dShape& s, const float* ohwi, const float* bias,
                         float* packed, Isa isa) {
  // OHWI is B transposed: B[p][o] = ohwi[o * k + p].
  const size_t k = depth(s);
  pack_gemm_bt(k, s.out_c, ohwi, k, packed, isa);
  pack_bias(s, bias, packed, isa);
}

void conv2d_pack_weights_io(const Conv2dShape& s, const float* io, const float* bias,
                            float* packed, Isa isa) {
  pack_gemm_b(depth(s), s.out_c, io, s.out_c, packed, isa);
  pack_bias(s, bias, packed, isa);
}

size_t conv2d_workspace_floats(const Conv2dShape& s, size_t slots) {
  if (reads_input_in_place(s)) return 0;
  return slots * blocking(s).rows * depth(s);
}

namespace {

// One call of conv2d_f32, as its tasks see it.
struct ConvRun {
  const Conv2dShape* s;
  Blocking bl;
  size_t k, groups, group_cols, tasks, workers;
  bool in_place;
  Isa isa;
  const float *in, *packed, *bias;
  float *out, *workspace;
};

// Task t: pixel block t / groups, column group t % groups. `a_block` is
// the worker's im2col buffer (null when reading in place); `have` the
// block it holds.
void conv_task(const ConvRun& c, size_t t, float* a_block, size_t* have) {
  const Conv2dShape& s = *c.s;
  const size_t block = t / c.groups, j0 = (t % c.groups) * c.group_cols;
  const size_t p0 = block * c.bl.rows;
  const size_t rows = std::min(c.bl.rows, c.bl.pixels - p0);
  const size_t cols = std::min(c.group_cols, s.out_c - j0);
  const float* a = c.in + p0 * s.in_c;
  if (!c.in_place) {
    if (*have != block) im2col(s, c.in, p0, rows, a_block);
    *have = block;
    a = a_block;
  }
  float* o = c.out + p0 * s.out_c + j0;
  const GemmEpilogue ep{c.bias + j0, s.out_min, s.out_max};
  gemm_f32_packed(rows, cols, c.k, a, c.k, c.packed, s.out_c, j0, o, s.out_c, c.isa, &ep);
}

}  // namespace

void conv2d_f32(const Conv2dShape& s, const float* in, const float* packed, float* out,
                float* workspace, size_t slots, Isa isa) {
  const Blocking bl = blocking(s);
  if (bl.blocks == 0 || s.out_c == 0) return;
  const size_t k = depth(s);
  // Few pixel blocks (the deep layers): also split the columns, in whole
  // panels, so that every thread has work. Only the partition changes.
  const size_t nr = gemm_panel_width(isa);
  const size_t panels = (s.out_c + nr - 1) / nr;
  // A product this small (a squeeze-and-excitation block's) stays on the
  // calling thread: waking the pool would cost more than the work.
  const bool inline_only = bl.pixels * s.out_c * k < kInlineMacs;
  const size_t threads =
      inline_only ? 1 : std::max<size_t>(std::min(num_threads(), slots), 1);
  size_t groups = 1;
  if (threads > 1 && bl.blocks < 2 * threads) {
    groups = std::min(panels, (2 * threads + bl.blocks - 1) / bl.blocks);
  }
  const size_t group_cols = (panels + groups - 1) / groups * nr;
  groups = (s.out_c + group_cols - 1) / group_cols;
  // Still fewer tasks than two per thread (few pixels, few columns): cut
  // the pixel blocks shorter too, in whole tiles of 8 rows.
  // Otherwise prefer a block count that the threads share evenly (up to
  // twice as many, shorter blocks), so that none waits on a last one.
  // Partitions never change a result: each element is one sum in k order.
  Blocking run = bl;
  const auto reblock = [&run, &bl](size_t want) {
    const size_t rows = ((run.pixels + want - 1) / want + 7) / 8 * 8;
    Blocking b = run;
    b.rows = std::min(std::max<size_t>(rows, 8), bl.rows);
    b.blocks = (b.pixels + b.rows - 1) / b.rows;
    return b;
  };
  if (threads > 1 && run.blocks * groups < 2 * threads) {
    run = reblock((2 * threads + groups - 1) / groups);
  } else if (threads > 1 && groups == 1 && run.blocks % threads != 0) {
    for (size_t want = run.blocks + 1; want <= 2 * bl.blocks; ++want) {
      const Blocking b = reblock(want);
      if (b.blocks % threads == 0) {
        run = b;
        break;
      }
    }
  }
  ConvRun c;
  c.s = &s;
  c.bl = run;
  c.k = k;
  c.groups = groups;
  c.group_cols = group_cols;
  c.tasks = run.blocks * groups;
  c.in_place = reads_input_in_place(s);
  c.isa = isa;
  c.in = in;
  c.packed = packed;
  c.bias = packed + gemm_packed_b_floats(k, s.out_c, isa);
  c.out = out;
  c.workspace = workspace;
  // Each worker takes a contiguous run of tasks (block-major: pixels in
  // order), as the thread pool splits XNNPACK's operators: the rows a
  // thread writes here are the ones it reads in the next layer, still in
  // its own core's cache. A 1x1 convolution that reads its input in place
  // needs no per-worker buffer, so its tasks go to the pool one by one
  // (contiguous chunks, idle threads steal from the end); the others run
  // one run of tasks per workspace slot, and a worker that takes the next
  // column range of the block it just copied skips the copy.
  if (inline_only) {
    size_t have = SIZE_MAX;
    for (size_t t = 0; t < c.tasks; ++t) conv_task(c, t, c.in_place ? nullptr : workspace, &have);
    return;
  }
  if (c.in_place) {
    parallel_for(c.tasks, [&c](size_t t) {
      size_t have = SIZE_MAX;
      conv_task(c, t, nullptr, &have);
    });
    return;
  }
  c.workers = std::min(std::max<size_t>(slots, 1), c.tasks);
  parallel_for(c.workers, [&c](size_t slot) {
    float* a_block = c.workspace + slot * c.bl.rows * c.k;
    size_t have = SIZE_MAX;
    const size_t end = (slot + 1) * c.tasks / c.workers;
    for (size_t t = slot * c.tasks / c.workers; t < end; ++t) conv_task(c, t, a_block, &have);
  });
}

}  // namespace ember::xnnpack
