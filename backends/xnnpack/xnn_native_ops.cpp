#include "backends/xnnpack/xnn_native_ops.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "backends/xnnpack/xnn_native_quant.h"
#include "backends/xnnpack/xnn_node_check.h"
#include "runtime/platform/threadpool.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace fb = ::ember_xnn_fb;
using T = fb::XNodeUnion;
namespace {

constexpr size_t kChunk = 16384;  // elements per parallel task for elementwise work

// ------------------------------------------------------------ checks

Error check_transpose(const Graph& g, const Node& node) {
  const auto* t = node.fb->xnode_union_as_XNNStaticTranspose();
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(t->perm() != nullptr && t->perm()->size() == in.num_dims &&
                       out.num_dims == in.num_dims,
                   "perm has %u entries for rank %zu", t->perm() ? t->perm()->size() : 0u,
                   in.num_dims);
  bool seen[kMaxDims] = {};
  for (size_t d = 0; d < in.num_dims; ++d) {
    const uint32_t p = t->perm()->Get(uint32_t(d));
    EMBER_NODE_CHECK(p < in.num_dims && !seen[p], "perm is not a permutation");
    seen[p] = true;
    EMBER_NODE_CHECK(out.dims[d] == in.dims[p], "output dim %zu is %zu, expected %zu", d,
                     out.dims[d], in.dims[p]);
  }
  return Error::Ok;
}

Error check_slice(const Graph& g, const Node& node) {
  const auto* t = node.fb->xnode_union_as_XNNStaticSlice();
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(t->offsets() && t->sizes() && t->offsets()->size() == in.num_dims &&
                       t->sizes()->size() == in.num_dims && out.num_dims == in.num_dims,
                   "offsets/sizes do not match rank %zu", in.num_dims);
  for (size_t d = 0; d < in.num_dims; ++d) {
    const size_t o = t->offsets()->Get(uint32_t(d));
    size_t s = t->sizes()->Get(uint32_t(d));
    if (s == 0) s = in.dims[d] - (o < in.dims[d] ? o : in.dims[d]);  // 0: to the end
    EMBER_NODE_CHECK(o <= in.dims[d] && s <= in.dims[d] - o && out.dims[d] == s,
                     "dim %zu: [%zu, +%zu) outside %zu or output %zu", d, o, s, in.dims[d],
                     out.dims[d]);
  }
  return Error::Ok;
}

Error check_concat(const Graph& g, const Node& node) {
  const auto* t = static_cast<const fb::_XNNCat*>(node.fb->xnode_union());
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(t->axis() < out.num_dims, "axis %u outside rank %zu", t->axis(),
                   out.num_dims);
  size_t total = 0;
  for (size_t k = 0; k < node.num_inputs; ++k) {
    const Value& in = g.values[node.inputs[k]];
    EMBER_NODE_CHECK(in.num_dims == out.num_dims && in.element_size == out.element_size,
                     "input %zu rank or dtype differs from the output", k);
    for (size_t d = 0; d < out.num_dims; ++d) {
      EMBER_NODE_CHECK(d == t->axis() || in.dims[d] == out.dims[d],
                       "input %zu dim %zu is %zu, output %zu", k, d, in.dims[d],
                       out.dims[d]);
    }
    total += in.dims[t->axis()];
  }
  EMBER_NODE_CHECK(total == out.dims[t->axis()], "inputs add to %zu along the axis, output %zu",
                   total, out.dims[t->axis()]);
  return Error::Ok;
}

Error check_bmm(const Graph& g, const Node& node) {
  const Value& a = g.values[node.inputs[0]];
  const Value& b = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  const uint32_t flags = static_cast<const fb::_XNNNode2x1*>(node.fb->xnode_union())->flags();
  EMBER_NODE_CHECK(a.dtype == xnn_datatype_fp32 && b.dtype == xnn_datatype_fp32 &&
                       out.dtype == xnn_datatype_fp32, "only fp32 is supported");
  EMBER_NODE_CHECK(a.num_dims >= 2 && a.num_dims == b.num_dims && out.num_dims == a.num_dims,
                   "ranks %zu, %zu, %zu", a.num_dims, b.num_dims, out.num_dims);
  EMBER_NODE_CHECK((flags & ~uint32_t(XNN_FLAG_TRANSPOSE_WEIGHTS)) == 0, "flags 0x%x", flags);
  const size_t r = a.num_dims;
  const bool tb = flags & XNN_FLAG_TRANSPOSE_WEIGHTS;
  const size_t m = a.dims[r - 2], k = a.dims[r - 1];
  const size_t kb = tb ? b.dims[r - 1] : b.dims[r - 2];
  const size_t n = tb ? b.dims[r - 2] : b.dims[r - 1];
  EMBER_NODE_CHECK(k == kb && out.dims[r - 2] == m && out.dims[r - 1] == n,
                   "[%zu x %zu] @ [%zu x %zu] -> [%zu x %zu]", m, k, kb, n, out.dims[r - 2],
                   out.dims[r - 1]);
  for (size_t d = 0; d + 2 < r; ++d) {
    const size_t o = out.dims[d];
    EMBER_NODE_CHECK((a.dims[d] == o || a.dims[d] == 1) && (b.dims[d] == o || b.dims[d] == 1),
                     "batch dim %zu does not broadcast", d);
  }
  return Error::Ok;
}

// ------------------------------------------------------------ kernels

void run_transpose(const Graph& g, const Node& node, void* const* ptrs) {
  const auto* t = node.fb->xnode_union_as_XNNStaticTranspose();
  const Value& in = g.values[node.inputs[0]];
  size_t perm[kMaxDims];
  for (size_t d = 0; d < in.num_dims; ++d) perm[d] = t->perm()->Get(uint32_t(d));
  transpose(in.element_size, in.num_dims, in.dims, perm, ptrs[node.inputs[0]],
            ptrs[node.output]);
}

void run_slice(const Graph& g, const Node& node, void* const* ptrs) {
  const auto* t = node.fb->xnode_union_as_XNNStaticSlice();
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  const size_t r = in.num_dims, es = in.element_size;
  size_t in_strides[kMaxDims];
  size_t s = 1;
  for (size_t d = r; d-- > 0;) {
    in_strides[d] = s;
    s *= in.dims[d];
  }
  size_t base = 0;
  for (size_t d = 0; d < r; ++d) base += t->offsets()->Get(uint32_t(d)) * in_strides[d];
  const size_t inner = r ? out.dims[r - 1] : 1;
  const size_t rows = inner ? out.numel / inner : 0;
  const uint8_t* src = static_cast<const uint8_t*>(ptrs[node.inputs[0]]);
  uint8_t* dst = static_cast<uint8_t*>(ptrs[node.output]);
  for (size_t row = 0; row < rows; ++row) {
    size_t rem = row, off = base;
    for (size_t d = r - 1; d-- > 0;) {
      off += (rem % out.dims[d]) * in_strides[d];
      rem /= out.dims[d];
    }
    std::memcpy(dst + row * inner * es, src + off * es, inner * es);
  }
}

void run_concat(const Graph& g, const Node& node, void* const* ptrs) {
  const auto* t = static_cast<const fb::_XNNCat*>(node.fb->xnode_union());
  const Value& out = g.values[node.output];
  const size_t axis = t->axis(), es = out.element_size;
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= out.dims[d];
  for (size_t d = axis + 1; d < out.num_dims; ++d) inner *= out.dims[d];
  const size_t out_row = out.dims[axis] * inner * es;
  uint8_t* dst = static_cast<uint8_t*>(ptrs[node.output]);
  size_t col = 0;
  for (size_t k = 0; k < node.num_inputs; ++k) {
    const Value& in = g.values[node.inputs[k]];
    const size_t bytes = in.dims[axis] * inner * es;
    const uint8_t* src = static_cast<const uint8_t*>(ptrs[node.inputs[k]]);
    for (size_t o = 0; o < outer; ++o) std::memcpy(dst + o * out_row + col, src + o * bytes, bytes);
    col += bytes;
  }
}

bool bmm_transposes_b(const Node& node) {
  return static_cast<const fb::_XNNNode2x1*>(node.fb->xnode_union())->flags() &
         XNN_FLAG_TRANSPOSE_WEIGHTS;
}

// With XNN_FLAG_TRANSPOSE_WEIGHTS, b holds [.., n, k] matrices; they are
// transposed into the scratch buffer (b.numel floats) first, at init when
// b is a constant.
void transpose_bmm_b(const Value& b, const float* src, float* dst) {
  const size_t r = b.num_dims;
  size_t dims[3] = {1, b.dims[r - 2], b.dims[r - 1]};
  for (size_t d = 0; d + 2 < r; ++d) dims[0] *= b.dims[d];
  const size_t perm[3] = {0, 2, 1};
  transpose(sizeof(float), 3, dims, perm, src, dst);
}

void run_bmm(const Graph& g, const Node& node, void* const* ptrs, void* scratch) {
  const Value& a = g.values[node.inputs[0]];
  const Value& b = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  const size_t r = a.num_dims;
  BmmShape shape;
  shape.batch_rank = r - 2;
  for (size_t d = 0; d + 2 < r; ++d) {
    shape.out_batch[d] = out.dims[d];
    shape.a_batch[d] = a.dims[d];
    shape.b_batch[d] = b.dims[d];
  }
  shape.m = a.dims[r - 2];
  shape.k = a.dims[r - 1];
  shape.n = out.dims[r - 1];
  const float* bdata = static_cast<const float*>(ptrs[node.inputs[1]]);
  if (bmm_transposes_b(node)) {
    if (!b.is_constant()) transpose_bmm_b(b, bdata, static_cast<float*>(scratch));
    bdata = static_cast<const float*>(scratch);
  }
  bmm_f32(shape, static_cast<const float*>(ptrs[node.inputs[0]]), bdata,
          static_cast<float*>(ptrs[node.output]));
}

// fp32 convolution with one group (XNNConv2d): the 2022 XNNPACK's f32
// GEMM and IGEMM tiles (7x16, one vector of B) are narrower than ours
// (xnn_native_conv.cpp), so those deep enough for the GEMM to pay run
// natively unless EMBER_XNNPACK_NATIVE_CONV=0 is set (read once, at the
// first load) to compare with XNNPACK's. Depthwise, grouped, quantized
// and TensorFlow-SAME-padded convolutions stay with XNNPACK.
bool native_conv_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("EMBER_XNNPACK_NATIVE_CONV");
    return v == nullptr || std::strcmp(v, "0") != 0;
  }();
  return enabled;
}

bool is_native_conv(const Graph& g, const Node& node) {
  if (node.type != T::XNNConv2d || !native_conv_enabled()) return false;
  const auto* t = static_cast<const fb::_XNNNodeConv*>(node.fb->xnode_union());
  const Value& w = g.values[node.inputs[1]];
  const bool fp32_bias = node.inputs[2] == kInvalidId ||
                         (g.values[node.inputs[2]].dtype == xnn_datatype_fp32 &&
                          g.values[node.inputs[2]].is_constant());
  // Depth = kernel taps x input channels, the GEMM's k. Shallow ones stay
  // with XNNPACK: a stem like mobilenet_v3_small's 3x3 over 3 channels
  // (depth 27) ran slower here (whole model 3.1 ms vs 2.3 ms, one thread).
  // From depth 128 ours measured faster (resnet18's 7x7 stem over 3
  // channels, depth 147: 2.7 ms vs 3.3 ms with its max pool, one thread).
  // 1x1 convolutions from 16 input channels run natively too (all of
  // mobilenet_v2's and mobilenet_v3_small's expansions and projections):
  // with each thread on a contiguous range of pixels (the one it reads
  // in the next layer) and step buffers reused while still in cache,
  // mobilenet_v2 measured 9-10 % faster than with XNNPACK's 7x16 kernels
  // at one and at two threads, mobilenet_v3_small 2-3 %, resnet18 level.
  const size_t taps = size_t(t->kernel_height()) * t->kernel_width();
  const bool deep = taps > 1 ? taps * t->group_input_channels() >= 128
                             : t->group_input_channels() >= 16;
  return t->groups() == 1 && t->flags() == 0 && deep &&
         g.values[node.inputs[0]].dtype == xnn_datatype_fp32 &&
         g.values[node.output].dtype == xnn_datatype_fp32 && w.dtype == xnn_datatype_fp32 &&
         w.is_constant() && fp32_bias;
}

// fp32 fully connected with constant weights: a 1x1 convolution over
// [1, rows, 1, k] on the same GEMM (native_conv_enabled() covers both),
// under the same depth rule (k >= 128). Weights are [n, k], or [k, n]
// with XNN_FLAG_TRANSPOSE_WEIGHTS.
bool fc_transposes_weights(const Node& node) {
  return node.fb->xnode_union_as_XNNFullyConnected()->flags() & XNN_FLAG_TRANSPOSE_WEIGHTS;
}

bool is_native_fc_f32(const Graph& g, const Node& node) {
  if (node.type != T::XNNFullyConnected || !native_conv_enabled()) return false;
  const Value& x = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const bool fp32_bias = node.inputs[2] == kInvalidId ||
                         (g.values[node.inputs[2]].dtype == xnn_datatype_fp32 &&
                          g.values[node.inputs[2]].is_constant());
  if (x.dtype != xnn_datatype_fp32 || g.values[node.output].dtype != xnn_datatype_fp32 ||
      w.dtype != xnn_datatype_fp32 || !w.is_constant() || w.num_dims != 2 || !fp32_bias) {
    return false;
  }
  return (fc_transposes_weights(node) ? w.dims[0] : w.dims[1]) >= 128;
}

// One row of input against [n, k] weights (a fully connected layer over
// one row, or a 1x1 convolution over one pixel, such as a squeeze-and-
// excitation block's): a matrix-vector product on the weights in place
// (gemv_f32), so nothing is packed at load. Called for nodes that already
// run natively.
bool is_gemv_node(const Graph& g, const Node& node) {
  const Value& x = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  if (node.type == T::XNNFullyConnected) {
    return !is_qc8_fc(g, node) && !fc_transposes_weights(node) && x.numel == w.dims[1];
  }
  if (node.type != T::XNNConv2d) return false;
  // One input and one output pixel; without top/left padding the output
  // pixel reads the input one (with it, padding).
  const auto* t = node.fb->xnode_union_as_XNNConv2d();
  return w.num_dims == 4 && w.dims[1] == 1 && w.dims[2] == 1 && x.numel == w.dims[3] &&
         out.numel == w.dims[0] && t->padding_top() == 0 && t->padding_left() == 0;
}

void run_gemv_node(const Graph& g, const Node& node, void* const* ptrs) {
  const float* bias = node.inputs[2] != kInvalidId
                          ? static_cast<const float*>(g.values[node.inputs[2]].data)
                          : nullptr;
  gemv_f32(g.values[node.output].numel, g.values[node.inputs[0]].numel,
           static_cast<const float*>(ptrs[node.inputs[0]]),
           static_cast<const float*>(g.values[node.inputs[1]].data), bias, node.output_min,
           node.output_max, static_cast<float*>(ptrs[node.output]));
}

Error check_fc_f32(const Graph& g, const Node& node) {
  const Value& x = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  const bool tw = fc_transposes_weights(node);
  const size_t n = tw ? w.dims[1] : w.dims[0], k = tw ? w.dims[0] : w.dims[1];
  EMBER_NODE_CHECK(x.num_dims >= 1 && x.dims[x.num_dims - 1] == k && out.num_dims >= 1 &&
                       out.dims[out.num_dims - 1] == n && n > 0 && x.numel / k == out.numel / n,
                   "shapes do not match [.., %zu] x [%zu, %zu]", k, n, k);
  if (node.inputs[2] != kInvalidId) {
    EMBER_NODE_CHECK(g.values[node.inputs[2]].numel == n, "bias has %zu elements, not %zu",
                     g.values[node.inputs[2]].numel, n);
  }
  return Error::Ok;
}

}  // namespace

Conv2dShape conv_node_shape(const Graph& g, const Node& node) {
  const auto* t = static_cast<const fb::_XNNNodeConv*>(node.fb->xnode_union());
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  Conv2dShape s;
  s.batch = in.dims[0];
  s.in_h = in.dims[1];
  s.in_w = in.dims[2];
  s.in_c = in.dims[3];
  s.out_h = out.dims[1];
  s.out_w = out.dims[2];
  s.out_c = out.dims[3];
  s.kernel_h = t->kernel_height();
  s.kernel_w = t->kernel_width();
  s.stride_h = t->subsampling_height();
  s.stride_w = t->subsampling_width();
  s.dilation_h = t->dilation_height();
  s.dilation_w = t->dilation_width();
  s.pad_top = t->padding_top();
  s.pad_left = t->padding_left();
  s.out_min = node.output_min;
  s.out_max = node.output_max;
  return s;
}

Error check_conv_window(const Node& node) {
  const auto* t = static_cast<const fb::_XNNNodeConv*>(node.fb->xnode_union());
  const size_t kh = t->kernel_height(), kw = t->kernel_width();
  const size_t sh = t->subsampling_height(), sw = t->subsampling_width();
  const size_t dh = t->dilation_height(), dw = t->dilation_width();
  EMBER_NODE_CHECK(kh >= 1 && kw >= 1 && sh >= 1 && sw >= 1 && dh >= 1 && dw >= 1 &&
                       kh <= 1024 && kw <= 1024 && sh <= 1024 && sw <= 1024 && dh <= 1024 &&
                       dw <= 1024,
                   "kernel %zux%zu, stride %zux%zu, dilation %zux%zu", kh, kw, sh, sw, dh, dw);
  return Error::Ok;
}

namespace {

Conv2dShape conv_shape(const Graph& g, const Node& node) {
  if (node.type == T::XNNFullyConnected) {
    const Value& w = g.values[node.inputs[1]];
    Conv2dShape s;
    s.out_c = fc_transposes_weights(node) ? w.dims[1] : w.dims[0];
    s.in_c = fc_transposes_weights(node) ? w.dims[0] : w.dims[1];
    s.in_h = s.out_h = g.values[node.output].numel / s.out_c;
    s.in_w = s.out_w = 1;
    s.out_min = node.output_min;
    s.out_max = node.output_max;
    return s;
  }
  return conv_node_shape(g, node);
}

Error check_conv(const Graph& g, const Node& node) {
  const auto* t = static_cast<const fb::_XNNNodeConv*>(node.fb->xnode_union());
  const Value& in = g.values[node.inputs[0]];
  const Value& w = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(in.num_dims == 4 && out.num_dims == 4 && w.num_dims == 4,
                   "input, filter and output must be 4-D (ranks %zu, %zu, %zu)", in.num_dims,
                   w.num_dims, out.num_dims);
  EMBER_RETURN_IF_ERROR(check_conv_window(node));
  const size_t kh = t->kernel_height(), kw = t->kernel_width();
  const size_t sh = t->subsampling_height(), sw = t->subsampling_width();
  const size_t dh = t->dilation_height(), dw = t->dilation_width();
  const size_t cin = t->group_input_channels(), cout = t->group_output_channels();
  EMBER_NODE_CHECK(in.dims[3] == cin && out.dims[3] == cout && out.dims[0] == in.dims[0],
                   "channels: input %zu (node says %zu), output %zu (node says %zu)",
                   in.dims[3], cin, out.dims[3], cout);
  EMBER_NODE_CHECK(w.dims[0] == cout && w.dims[1] == kh && w.dims[2] == kw && w.dims[3] == cin,
                   "filter is [%zu, %zu, %zu, %zu], expected [%zu, %zu, %zu, %zu]", w.dims[0],
                   w.dims[1], w.dims[2], w.dims[3], cout, kh, kw, cin);
  if (node.inputs[2] != kInvalidId) {
    EMBER_NODE_CHECK(g.values[node.inputs[2]].numel == cout, "bias has %zu elements, not %zu",
                     g.values[node.inputs[2]].numel, cout);
  }
  const size_t pt = t->padding_top(), pb = t->padding_bottom();
  const size_t pl = t->padding_left(), pr = t->padding_right();
  const size_t span_h = (kh - 1) * dh + 1, span_w = (kw - 1) * dw + 1;
  const size_t ph = in.dims[1] + pt + pb, pw = in.dims[2] + pl + pr;
  EMBER_NODE_CHECK(ph >= span_h && pw >= span_w && out.dims[1] == (ph - span_h) / sh + 1 &&
                       out.dims[2] == (pw - span_w) / sw + 1,
                   "output %zux%zu does not follow from input %zux%zu", out.dims[1],
                   out.dims[2], in.dims[1], in.dims[2]);
  return Error::Ok;
}

// Scratch: the worker count (in the first 64 bytes), the packed weights
// and bias, then one im2col block per worker.
constexpr size_t kConvHeaderFloats = 16;

size_t conv_slots() { return num_threads() > 0 ? num_threads() : 1; }

size_t conv_scratch_bytes(const Graph& g, const Node& node) {
  const Conv2dShape s = conv_shape(g, node);
  return (kConvHeaderFloats + conv2d_packed_floats(s) +
          conv2d_workspace_floats(s, conv_slots())) * sizeof(float);
}

void prepare_conv(const Graph& g, const Node& node, void* scratch) {
  const Conv2dShape s = conv_shape(g, node);
  const size_t slots = conv_slots();
  std::memcpy(scratch, &slots, sizeof(slots));
  const float* bias = node.inputs[2] != kInvalidId
                          ? static_cast<const float*>(g.values[node.inputs[2]].data)
                          : nullptr;
  const float* w = static_cast<const float*>(g.values[node.inputs[1]].data);
  float* packed = static_cast<float*>(scratch) + kConvHeaderFloats;
  if (node.type == T::XNNFullyConnected && fc_transposes_weights(node)) {
    conv2d_pack_weights_io(s, w, bias, packed);
  } else {
    conv2d_pack_weights(s, w, bias, packed);  // OHWI; [n, k] for fully connected
  }
}

void run_conv(const Graph& g, const Node& node, void* const* ptrs, void* scratch) {
  const Conv2dShape s = conv_shape(g, node);
  size_t slots;
  std::memcpy(&slots, scratch, sizeof(slots));
  float* packed = static_cast<float*>(scratch) + kConvHeaderFloats;
  conv2d_f32(s, static_cast<const float*>(ptrs[node.inputs[0]]), packed,
             static_cast<float*>(ptrs[node.output]), packed + conv2d_packed_floats(s), slots);
}

template <typename F>
void unary(size_t n, const float* in, float* out, F f) {
  struct Ctx {
    size_t n;
    const float* in;
    float* out;
    F* f;
  } c{n, in, out, &f};
  parallel_for((n + kChunk - 1) / kChunk, [&c](size_t chunk) {
    const size_t end = chunk * kChunk + kChunk < c.n ? chunk * kChunk + kChunk : c.n;
    for (size_t i = chunk * kChunk; i < end; ++i) c.out[i] = (*c.f)(c.in[i]);
  });
}

}  // namespace

bool is_native_node(const Graph& g, const Node& node) {
  if (node.type == T::XNNConv2d) return false && is_native_conv(g, node);
  if (node.type == T::XNNFullyConnected) return false && is_native_fc_f32(g, node);
  if (node.type == T::XNNGlobalAvgPooling2d) return is_qs8_global_avg_pool(g, node);
  return false;
}

Error check_native_node(const Graph& g, const Node& node) {
  const Value& out = g.values[node.output];
  switch (node.type) {
    case T::XNNStaticTranspose: return check_transpose(g, node);
    case T::XNNStaticSlice: return check_slice(g, node);
    case T::XNNConcatenate2: case T::XNNConcatenate3: case T::XNNConcatenate4:
    case T::XNNConcatenate5:
      return check_concat(g, node);
    case T::XNNBatchMatrixMultiply: return check_bmm(g, node);
    case T::XNNFullyConnected:
      return is_qc8_fc(g, node) ? check_fc_qc8(g, node) : check_fc_f32(g, node);
    case T::XNNConv2d: return check_conv(g, node);
    case T::XNNGlobalAvgPooling2d: return check_global_avg_pool_qs8(g, node);
    case T::XNNConvTranspose2d: return check_deconv_qc8(g, node);
    default: {
      const Value& in = g.values[node.inputs[0]];
      EMBER_NODE_CHECK(in.numel == out.numel && in.element_size == out.element_size,
                       "input has %zu elements, output %zu", in.numel, out.numel);
      EMBER_NODE_CHECK(node.type == T::XNNCopy ||
                           (in.dtype == xnn_datatype_fp32 && out.dtype == xnn_datatype_fp32),
                       "only fp32 is supported");
      EMBER_NODE_CHECK(node.type == T::XNNCopy ||
                           (std::isinf(node.output_min) && std::isinf(node.output_max)),
                       "fused output clamping is not supported");
      return Error::Ok;
    }
  }
}

size_t native_scratch_bytes(const Graph& g, const Node& node) {
  if ((node.type == T::XNNConv2d ||
       (node.type == T::XNNFullyConnected && !is_qc8_fc(g, node))) &&
      !is_gemv_node(g, node)) {
    return conv_scratch_bytes(g, node);
  }
  if (node.type == T::XNNBatchMatrixMultiply && bmm_transposes_b(node)) {
    return g.values[node.inputs[1]].nbytes();
  }
  return 0;
}

void prepare_native_node(const Graph& g, const Node& node, void* scratch) {
  if ((node.type == T::XNNConv2d ||
       (node.type == T::XNNFullyConnected && !is_qc8_fc(g, node))) &&
      !is_gemv_node(g, node)) {
    return prepare_conv(g, node, scratch);
  }
  if (node.type == T::XNNBatchMatrixMultiply && bmm_transposes_b(node)) {
    const Value& b = g.values[node.inputs[1]];
    if (b.is_constant()) {
      transpose_bmm_b(b, static_cast<const float*>(b.data), static_cast<float*>(scratch));
    }
  }
}

void run_native_node(const Graph& g, const Node& node, void* const* ptrs, void* scratch) {
  const size_t n = g.values[node.output].numel;
  const float* in = static_cast<const float*>(ptrs[node.inputs[0]]);
  float* out = static_cast<float*>(ptrs[node.output]);
  switch (node.type) {
    case T::XNNStaticTranspose: run_transpose(g, node, ptrs); return;
    case T::XNNStaticSlice: run_slice(g, node, ptrs); return;
    case T::XNNConcatenate2: case T::XNNConcatenate3: case T::XNNConcatenate4:
    case T::XNNConcatenate5:
      run_concat(g, node, ptrs);
      return;
    case T::XNNBatchMatrixMultiply: run_bmm(g, node, ptrs, scratch); return;
    case T::XNNFullyConnected:
      if (is_qc8_fc(g, node)) return run_fc_qc8(g, node, ptrs);
      if (is_gemv_node(g, node)) return run_gemv_node(g, node, ptrs);
      return run_conv(g, node, ptrs, scratch);
    case T::XNNConv2d:
      if (is_gemv_node(g, node)) return run_gemv_node(g, node, ptrs);
      return run_conv(g, node, ptrs, scratch);
    case T::XNNGlobalAvgPooling2d: run_global_avg_pool_qs8(g, node, ptrs); return;
    case T::XNNConvTranspose2d: run_deconv_qc8(g, node, ptrs); return;
    case T::XNNCopy:
      std::memcpy(ptrs[node.output], ptrs[node.inputs[0]], g.values[node.output].nbytes());
      return;
    case T::XNNTanh: tanh_f32(n, in, out); return;
    case T::XNNGelu: gelu_f32(n, in, out); return;
    case T::XNNExp: exp_f32(n, in, out); return;
    case T::XNNLog: unary(n, in, out, [](float x) { return std::log(x); }); return;
    case T::XNNSin: unary(n, in, out, [](float x) { return std::sin(x); }); return;
    case T::XNNCos: unary(n, in, out, [](float x) { return std::cos(x); }); return;
    case T::XNNReciprocalSquareRoot:
      unary(n, in, out, [](float x) { return 1.0f / std::sqrt(x); });
      return;
    default:
      return;  // check_native_node admitted only the types above
  }
}

}  // namespace ember::xnnpack
