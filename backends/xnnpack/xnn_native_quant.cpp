#include "backends/xnnpack/xnn_native_quant.h"

#include <cmath>
#include <cstdint>

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

// int8 fully connected, per-channel weights: acc = bias[n] + sum_k (x - zx)
// * w[n][k], requantized with scale sx * ws[n] / so, rounded to nearest
// even, offset by zo and clamped.
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

int32_t quantize_bound(float v, float scale, int32_t zp, int32_t fallback) {
  if (!std::isfinite(v)) return fallback;
  const float q = std::nearbyint(v / scale) + float(zp);
  return q < -128.0f ? -128 : q > 127.0f ? 127 : int32_t(q);
}

void run_fc_qc8(const Graph& g, const Node& node, void* const* ptrs) {
  const Value& x = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  struct Ctx {
    size_t n, k;
    bool tw;
    const int8_t *x, *w;
    const int32_t* bias;
    const float* ws;
    float sx_over_so;
    int32_t zx, zo, qmin, qmax;
    int8_t* out;
  } c;
  c.tw = node.fb->xnode_union_as_XNNFullyConnected()->flags() & XNN_FLAG_TRANSPOSE_WEIGHTS;
  c.n = c.tw ? w.dims[1] : w.dims[0];
  c.k = c.tw ? w.dims[0] : w.dims[1];
  c.x = static_cast<const int8_t*>(ptrs[node.inputs[0]]);
  c.w = static_cast<const int8_t*>(w.data);
  c.bias = node.inputs[2] != kInvalidId
               ? static_cast<const int32_t*>(g.values[node.inputs[2]].data)
               : nullptr;
  c.ws = w.channel_scales;
  c.sx_over_so = x.scale / out.scale;
  c.zx = x.zero_point;
  c.zo = out.zero_point;
  c.qmin = quantize_bound(node.output_min, out.scale, out.zero_point, -128);
  c.qmax = quantize_bound(node.output_max, out.scale, out.zero_point, 127);
  c.out = static_cast<int8_t*>(ptrs[node.output]);
  parallel_for(x.numel / c.k, [&c](size_t m) {
    const int8_t* xr = c.x + m * c.k;
    for (size_t j = 0; j < c.n; ++j) {
      int32_t acc = c.bias ? c.bias[j] : 0;
      if (c.tw) {
        for (size_t p = 0; p < c.k; ++p) acc += (int32_t(xr[p]) - c.zx) * c.w[p * c.n + j];
      } else {
        const int8_t* wr = c.w + j * c.k;
        for (size_t p = 0; p < c.k; ++p) acc += (int32_t(xr[p]) - c.zx) * int32_t(wr[p]);
      }
      int32_t q = int32_t(std::nearbyint(float(acc) * (c.sx_over_so * c.ws[j]))) + c.zo;
      q = q < c.qmin ? c.qmin : q > c.qmax ? c.qmax : q;
      c.out[m * c.n + j] = int8_t(q);
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
