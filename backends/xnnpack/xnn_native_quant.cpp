#include "backends/xnnpack/xnn_native_quant.h"

#include <cmath>
#include <cstdint>

#include "backends/xnnpack/xnn_native_ops.h"
#include "backends/xnnpack/xnn_node_check.h"
#include "runtime/platform/threadpool.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace fb = ::ember_xnn_fb;
using T = fb::XNodeUnion;

// ------------------------------------------------------------ fully connected

bool is_qc8_fc(const Graph& g, const Node& node) {
  return node.type == T::XNNFullyConnected &&
         g.values[node.inputs[1]].dtype == xnn_datatype_qcint8;
}

namespace {

// The int8 value nearest to `v` in (scale, zp), clamped to [-128, 127];
// `fallback` when v is infinite (an unbounded clamp).
int32_t quantize_bound(float v, float scale, int32_t zp, int32_t fallback) {
  if (!std::isfinite(v)) return fallback;
  const float q = std::nearbyint(v / scale) + float(zp);
  return q < -128.0f ? -128 : q > 127.0f ? 127 : int32_t(q);
}

// An int32 accumulator of (x - zx) * w products to the int8 output, per
// output channel, as upstream's qc8 kernels do: scale in fp32, computed in
// upstream XNNPACK's order (input scale times kernel scale, then over the
// output scale: one ulp off rounds an exact half the other way), rounded to
// nearest even, then offset by the output zero point and clamped to the
// node's output range.
struct Requant {
  float sx = 1.0f, so = 1.0f;
  int32_t zo = 0, qmin = -128, qmax = 127;

  void init(const Value& x, const Value& out, const Node& node) {
    sx = x.scale;
    so = out.scale;
    zo = out.zero_point;
    qmin = quantize_bound(node.output_min, out.scale, out.zero_point, -128);
    qmax = quantize_bound(node.output_max, out.scale, out.zero_point, 127);
  }

  int8_t operator()(int32_t acc, float channel_scale) const {
    const float scaled = float(acc) * (sx * channel_scale / so);
    const int32_t q = int32_t(std::nearbyint(scaled)) + zo;
    return int8_t(q < qmin ? qmin : q > qmax ? qmax : q);
  }
};

// What both per-channel int8 steps read: input, constant weights and their
// scales, int32 bias (or none), output, and the requantization.
struct Qc8Operands {
  const int8_t* x = nullptr;
  const int8_t* w = nullptr;
  const int32_t* bias = nullptr;
  const float* ws = nullptr;
  int32_t zx = 0;
  Requant requant;
  int8_t* out = nullptr;

  void init(const Graph& g, const Node& node, void* const* ptrs) {
    const Value& x_value = g.values[node.inputs[0]];
    const Value& w_value = g.values[node.inputs[1]];
    x = static_cast<const int8_t*>(ptrs[node.inputs[0]]);
    w = static_cast<const int8_t*>(w_value.data);
    bias = node.inputs[2] != kInvalidId
               ? static_cast<const int32_t*>(g.values[node.inputs[2]].data)
               : nullptr;
    ws = w_value.channel_scales;
    zx = x_value.zero_point;
    requant.init(x_value, g.values[node.output], node);
    out = static_cast<int8_t*>(ptrs[node.output]);
  }
};

}  // namespace

// int8 fully connected, per-channel weights: acc = bias[n] + sum_k (x - zx)
// * w[n][k], requantized (Requant).
Error check_fc_qc8(const Graph& g, const Node& node) {
  const Value& x = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  const bool tw = node.fb->xnode_union_as_XNNFullyConnected()->flags() &
                  XNN_FLAG_TRANSPOSE_WEIGHTS;
  EMBER_NODE_CHECK(x.dtype == xnn_datatype_qint8 && out.dtype == xnn_datatype_qint8 &&
                       w.is_constant() && w.num_dims == 2 && w.channel_dim == (tw ? 1u : 0u),
                   "qc8 fully connected needs qint8 input/output and constant 2-D qcint8 "
                   "weights with the output channel as channel_dim");
  const size_t n = tw ? w.dims[1] : w.dims[0], k = tw ? w.dims[0] : w.dims[1];
  EMBER_NODE_CHECK(x.num_dims >= 1 && x.dims[x.num_dims - 1] == k && out.num_dims >= 1 &&
                       out.dims[out.num_dims - 1] == n && x.numel / k == out.numel / n,
                   "shapes do not match [.., %zu] x [%zu, %zu]", k, n, k);
  if (node.inputs[2] != kInvalidId) {
    const Value& b = g.values[node.inputs[2]];
    EMBER_NODE_CHECK(b.is_constant() && b.dtype == xnn_datatype_qcint32 && b.numel == n,
                     "bias must be a constant qcint32 vector of %zu", n);
  }
  return Error::Ok;
}

void run_fc_qc8(const Graph& g, const Node& node, void* const* ptrs) {
  const Value& w = g.values[node.inputs[1]];
  struct Ctx {
    size_t n, k;
    bool tw;
    Qc8Operands q;
  } c;
  c.q.init(g, node, ptrs);
  c.tw = node.fb->xnode_union_as_XNNFullyConnected()->flags() & XNN_FLAG_TRANSPOSE_WEIGHTS;
  c.n = c.tw ? w.dims[1] : w.dims[0];
  c.k = c.tw ? w.dims[0] : w.dims[1];
  parallel_for(g.values[node.inputs[0]].numel / c.k, [&c](size_t m) {
    const Qc8Operands& q = c.q;
    const int8_t* xr = q.x + m * c.k;
    for (size_t j = 0; j < c.n; ++j) {
      int32_t acc = q.bias ? q.bias[j] : 0;
      if (c.tw) {
        for (size_t p = 0; p < c.k; ++p) acc += (int32_t(xr[p]) - q.zx) * q.w[p * c.n + j];
      } else {
        const int8_t* wr = q.w + j * c.k;
        for (size_t p = 0; p < c.k; ++p) acc += (int32_t(xr[p]) - q.zx) * int32_t(wr[p]);
      }
      q.out[m * c.n + j] = q.requant(acc, q.ws[j]);
    }
  });
}

// ------------------------------------------------------------ transposed convolution

// int8 transposed convolution, per-channel weights (the 2022 XNNPACK
// refuses qcint8 filters for deconvolution). NHWC input [N, IH, IW, G*gic],
// filter [G*goc, KH, KW, gic] with the output channel as channel_dim,
// output [N, OH, OW, G*goc] with OH = (IH - 1) * stride + adjustment +
// (KH - 1) * dilation + 1 - pad_top - pad_bottom. Input pixel (iy, ix)
// and tap (ky, kx) land on output (iy * stride + ky * dilation - pad_top,
// ...); each output element gathers the taps that land on it, sums
// (x - zx) * w in int32 from the int32 bias, then requantizes as the fully
// connected layer does.
bool is_qc8_deconv(const Graph& g, const Node& node) {
  return node.type == T::XNNConvTranspose2d &&
         g.values[node.inputs[1]].dtype == xnn_datatype_qcint8;
}

Error check_deconv_qc8(const Graph& g, const Node& node) {
  const auto* t = node.fb->xnode_union_as_XNNConvTranspose2d();
  const Value& x = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(x.dtype == xnn_datatype_qint8 && out.dtype == xnn_datatype_qint8 &&
                       w.is_constant() && w.channel_dim == 0,
                   "qc8 transposed convolution needs qint8 input/output and a constant "
                   "qcint8 filter quantized along its output channels");
  EMBER_NODE_CHECK(x.num_dims == 4 && w.num_dims == 4 && out.num_dims == 4,
                   "input, filter and output must be 4-D (ranks %zu, %zu, %zu)", x.num_dims,
                   w.num_dims, out.num_dims);
  EMBER_RETURN_IF_ERROR(check_conv_window(node));
  const size_t kh = t->kernel_height(), kw = t->kernel_width();
  const size_t sh = t->subsampling_height(), sw = t->subsampling_width();
  const size_t dh = t->dilation_height(), dw = t->dilation_width();
  EMBER_NODE_CHECK(t->adjustment_height() < sh && t->adjustment_width() < sw,
                   "adjustment %ux%u for stride %zux%zu", t->adjustment_height(),
                   t->adjustment_width(), sh, sw);
  const size_t groups = t->groups(), gic = t->group_input_channels();
  const size_t goc = t->group_output_channels();
  EMBER_NODE_CHECK(groups >= 1 && gic >= 1 && goc >= 1 && x.dims[3] == groups * gic &&
                       out.dims[3] == groups * goc && out.dims[0] == x.dims[0],
                   "channels: input %zu, output %zu for %zu groups of %zu -> %zu", x.dims[3],
                   out.dims[3], groups, gic, goc);
  EMBER_NODE_CHECK(w.dims[0] == groups * goc && w.dims[1] == kh && w.dims[2] == kw &&
                       w.dims[3] == gic,
                   "filter is [%zu, %zu, %zu, %zu], expected [%zu, %zu, %zu, %zu]", w.dims[0],
                   w.dims[1], w.dims[2], w.dims[3], groups * goc, kh, kw, gic);
  const size_t span_h = (x.dims[1] - 1) * sh + t->adjustment_height() + (kh - 1) * dh + 1;
  const size_t span_w = (x.dims[2] - 1) * sw + t->adjustment_width() + (kw - 1) * dw + 1;
  const size_t pad_h = size_t(t->padding_top()) + t->padding_bottom();
  const size_t pad_w = size_t(t->padding_left()) + t->padding_right();
  EMBER_NODE_CHECK(x.dims[1] >= 1 && x.dims[2] >= 1 && span_h > pad_h && span_w > pad_w &&
                       out.dims[1] == span_h - pad_h && out.dims[2] == span_w - pad_w,
                   "output %zux%zu does not follow from input %zux%zu", out.dims[1],
                   out.dims[2], x.dims[1], x.dims[2]);
  if (node.inputs[2] != kInvalidId) {
    const Value& b = g.values[node.inputs[2]];
    EMBER_NODE_CHECK(b.is_constant() && b.dtype == xnn_datatype_qcint32 &&
                         b.numel == groups * goc,
                     "bias must be a constant qcint32 vector of %zu", groups * goc);
  }
  return Error::Ok;
}

void run_deconv_qc8(const Graph& g, const Node& node, void* const* ptrs) {
  const auto* t = node.fb->xnode_union_as_XNNConvTranspose2d();
  struct Ctx {
    Conv2dShape s;  // in_h/in_w, out_h/out_w, kernel, stride, dilation, top/left padding
    size_t groups, gic, goc;
    Qc8Operands q;
  } c;
  c.s = conv_node_shape(g, node);
  c.groups = t->groups();
  c.gic = t->group_input_channels();
  c.goc = t->group_output_channels();
  c.q.init(g, node, ptrs);
  // One task per output row (batch x OH).
  parallel_for(c.s.batch * c.s.out_h, [&c](size_t row) {
    const Conv2dShape& s = c.s;
    const Qc8Operands& q = c.q;
    const size_t n = row / s.out_h, oy = row % s.out_h;
    const size_t in_c = c.groups * c.gic, out_c = c.groups * c.goc;
    const int8_t* image = q.x + n * s.in_h * s.in_w * in_c;
    int8_t* dst = q.out + row * s.out_w * out_c;
    for (size_t ox = 0; ox < s.out_w; ++ox, dst += out_c) {
      for (size_t oc = 0; oc < out_c; ++oc) {
        const size_t grp = oc / c.goc;
        int32_t acc = q.bias ? q.bias[oc] : 0;
        for (size_t ky = 0; ky < s.kernel_h; ++ky) {
          // oy = iy * stride + ky * dilation - pad_top: the input row is
          // (oy + pad_top - ky * dilation) / stride when that is a whole,
          // non-negative number below in_h.
          const size_t ty = oy + s.pad_top, kdy = ky * s.dilation_h;
          if (ty < kdy || (ty - kdy) % s.stride_h != 0) continue;
          const size_t iy = (ty - kdy) / s.stride_h;
          if (iy >= s.in_h) continue;
          for (size_t kx = 0; kx < s.kernel_w; ++kx) {
            const size_t tx = ox + s.pad_left, kdx = kx * s.dilation_w;
            if (tx < kdx || (tx - kdx) % s.stride_w != 0) continue;
            const size_t ix = (tx - kdx) / s.stride_w;
            if (ix >= s.in_w) continue;
            const int8_t* xp = image + (iy * s.in_w + ix) * in_c + grp * c.gic;
            const int8_t* wp = q.w + ((oc * s.kernel_h + ky) * s.kernel_w + kx) * c.gic;
            for (size_t ic = 0; ic < c.gic; ++ic) acc += (int32_t(xp[ic]) - q.zx) * wp[ic];
          }
        }
        dst[oc] = q.requant(acc, q.ws[oc]);
      }
    }
  });
}

// ------------------------------------------------------------ global average pooling

// out[n, 0, 0, c] = round_half_even(float(sum_hw (x - zx)) * s + zo),
// clamped, with s = (sx / so) * (1 / (h * w)) in fp32, in that order:
// the same fp32 operations as upstream's XNNPACK (its mean operator:
// int32 sum, scale folded with 1/count, conversion adding the zero point
// before rounding), so ties round the same way.
bool is_qs8_global_avg_pool(const Graph& g, const Node& node) {
  return node.type == T::XNNGlobalAvgPooling2d &&
         g.values[node.inputs[0]].dtype == xnn_datatype_qint8;
}

Error check_global_avg_pool_qs8(const Graph& g, const Node& node) {
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(out.dtype == xnn_datatype_qint8, "qint8 input needs a qint8 output");
  EMBER_NODE_CHECK(in.num_dims == 4 && out.num_dims == 4 && out.dims[0] == in.dims[0] &&
                       out.dims[1] == 1 && out.dims[2] == 1 && out.dims[3] == in.dims[3],
                   "input must be NHWC and the output [N, 1, 1, C]");
  const size_t count = in.dims[1] * in.dims[2];
  // Each sum stays exact in int32 and in the fp32 it is converted to.
  EMBER_NODE_CHECK(count > 0 && count <= (size_t(1) << 16),
                   "pooling %zu pixels (1 to 65536 supported)", count);
  return Error::Ok;
}

void run_global_avg_pool_qs8(const Graph& g, const Node& node, void* const* ptrs) {
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  constexpr size_t kBlock = 64;  // channels per task, summed in a stack array
  struct Ctx {
    size_t pixels, channels, blocks;
    const int8_t* x;
    int8_t* y;
    int32_t bias;  // -pixels * zx
    float scale, zo;
    int32_t qmin, qmax;
  } c;
  c.pixels = in.dims[1] * in.dims[2];
  c.channels = in.dims[3];
  c.blocks = (c.channels + kBlock - 1) / kBlock;
  c.x = static_cast<const int8_t*>(ptrs[node.inputs[0]]);
  c.y = static_cast<int8_t*>(ptrs[node.output]);
  c.bias = -int32_t(c.pixels) * in.zero_point;
  c.scale = in.scale / out.scale;
  c.scale *= 1.0f / float(c.pixels);
  c.zo = float(out.zero_point);
  c.qmin = quantize_bound(node.output_min, out.scale, out.zero_point, -128);
  c.qmax = quantize_bound(node.output_max, out.scale, out.zero_point, 127);
  parallel_for(in.dims[0] * c.blocks, [&c](size_t task) {
    const size_t n = task / c.blocks, c0 = (task % c.blocks) * kBlock;
    const size_t width = c.channels - c0 < kBlock ? c.channels - c0 : kBlock;
    int32_t acc[kBlock];
    for (size_t j = 0; j < width; ++j) acc[j] = c.bias;
    const int8_t* x = c.x + n * c.pixels * c.channels + c0;
    for (size_t p = 0; p < c.pixels; ++p, x += c.channels) {
      for (size_t j = 0; j < width; ++j) acc[j] += x[j];
    }
    int8_t* y = c.y + n * c.channels + c0;
    for (size_t j = 0; j < width; ++j) {
      const float v = float(acc[j]) * c.scale + c.zo;
      int32_t q = int32_t(std::nearbyint(v));
      y[j] = int8_t(q < c.qmin ? c.qmin : q > c.qmax ? c.qmax : q);
    }
  });
}

}  // namespace ember::xnnpack
