#include "backends/xnnpack/xnn_step_depthwise_conv_f32.h"

#include "backends/xnnpack/xnn_node_check.h"
#include "kernels/math/conv.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace {

// The pinned XNNPACK's widest f32 depthwise kernel (unipass; its multipass
// kernels are compiled out by XNN_ENABLE_DWCONV_MULTIPASS's default).
constexpr size_t kLargestXnnpackTaps = 25;

const ember_xnn_fb::_XNNNodeConv* conv_of(const Node& node) {
  if (node.fb == nullptr) return nullptr;
  return static_cast<const ember_xnn_fb::_XNNNodeConv*>(node.fb->xnode_union());
}

math::Conv2dShape shape_of(const Graph& g, const Node& node) {
  const auto* t = conv_of(node);
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  math::Conv2dShape s;
  s.batch = in.dims[0], s.in_h = in.dims[1], s.in_w = in.dims[2];
  s.in_c = s.out_c = s.groups = in.dims[3];
  s.out_h = out.dims[1], s.out_w = out.dims[2];
  s.kernel_h = t->kernel_height(), s.kernel_w = t->kernel_width();
  s.stride_h = t->subsampling_height(), s.stride_w = t->subsampling_width();
  s.pad_h = t->padding_top(), s.pad_w = t->padding_left();
  s.dilation_h = t->dilation_height(), s.dilation_w = t->dilation_width();
  return s;
}

}  // namespace

bool depthwise_conv_f32_wide(const Graph& g, const Node& node) {
  const auto* t = conv_of(node);
  if (t == nullptr || size_t(t->kernel_height()) * t->kernel_width() <= kLargestXnnpackTaps ||
      t->group_input_channels() != 1 || t->group_output_channels() != 1 ||
      (t->flags() & XNN_FLAG_TENSORFLOW_SAME_PADDING) != 0) {
    return false;
  }
  // The layout this step reads; anything else stays with XNNPACK, which
  // then accepts or rejects it as before.
  const Value& in = g.values[node.inputs[0]];
  const Value& filter = g.values[node.inputs[1]];
  return in.dtype == xnn_datatype_fp32 && filter.dtype == xnn_datatype_fp32 &&
         in.num_dims == 4 && filter.is_constant() && filter.num_dims == 4 &&
         filter.dims[3] == in.dims[3];
}

Error check_depthwise_conv_f32(const Graph& g, const Node& node) {
  const auto* t = conv_of(node);
  const Value& in = g.values[node.inputs[0]];
  const Value& filter = g.values[node.inputs[1]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(in.num_dims == 4 && out.num_dims == 4, "input and output must be NHWC");
  const size_t c = in.dims[3];
  EMBER_NODE_CHECK(out.dtype == xnn_datatype_fp32 && out.dims[0] == in.dims[0] &&
                       out.dims[3] == c && t->groups() == c,
                   "fp32 output [N, OH, OW, %zu] for %u groups expected", c, t->groups());
  EMBER_NODE_CHECK(filter.is_constant() && filter.num_dims == 4 && filter.dims[0] == 1 &&
                       filter.dims[1] == t->kernel_height() &&
                       filter.dims[2] == t->kernel_width() && filter.dims[3] == c,
                   "filter must be a constant [1, %u, %u, %zu]", t->kernel_height(),
                   t->kernel_width(), c);
  const uint32_t bias = node.inputs[2];
  EMBER_NODE_CHECK(bias == kInvalidId ||
                       (g.values[bias].is_constant() && g.values[bias].dtype == xnn_datatype_fp32 &&
                        g.values[bias].numel == c),
                   "bias must be absent or a constant fp32 [%zu]", c);
  // The output extent (padding, window, stride, dilation against the
  // input) was checked for every convolution node when the graph was
  // built (xnn_window_check.h).
  return Error::Ok;
}

void run_depthwise_conv_f32(const Graph& g, const Node& node, void* const* ptrs) {
  const math::Conv2dShape s = shape_of(g, node);
  math::ConvEpilogue clamp;
  clamp.lo = node.output_min, clamp.hi = node.output_max;
  const uint32_t bias = node.inputs[2];
  math::conv2d_depthwise_nhwc_f32(
      s, static_cast<const float*>(ptrs[node.inputs[0]]),
      static_cast<const float*>(g.values[node.inputs[1]].data),
      bias == kInvalidId ? nullptr : static_cast<const float*>(g.values[bias].data),
      static_cast<float*>(ptrs[node.output]), math::best_isa(), &clamp);
}

}  // namespace ember::xnnpack
