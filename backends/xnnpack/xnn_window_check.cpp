// Windowed-node geometry at load: see xnn_window_check.h.
#include "backends/xnnpack/xnn_window_check.h"

#include <cstdint>

#include "backends/xnnpack/xnn_node_check.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace {

namespace fb = ember_xnn_fb;

struct Axis {
  uint64_t pad_before, pad_after, window, stride, dilation;
};

// Output extent of one spatial axis, as XNNPACK computes it; 0 when the
// window does not fit the padded input or a parameter is 0.
uint64_t pooled_extent(uint64_t in, const Axis& a, bool same_padding) {
  if (a.window == 0 || a.stride == 0 || a.dilation == 0) return 0;
  if (same_padding) return (in + a.stride - 1) / a.stride;
  const uint64_t padded = in + a.pad_before + a.pad_after;
  const uint64_t span = a.dilation * (a.window - 1) + 1;
  return padded < span ? 0 : (padded - span) / a.stride + 1;
}

Error check_axes(const Node& node, const Value& in, const Value& out, const Axis& h,
                 const Axis& w, bool same_padding) {
  EMBER_NODE_CHECK(in.num_dims == 4 && out.num_dims == 4,
                   "input and output must be 4-D (NHWC), not %zu-D and %zu-D", in.num_dims,
                   out.num_dims);
  // Parameters are 32-bit in the blob: the sums below cannot overflow.
  const uint64_t oh = pooled_extent(in.dims[1], h, same_padding);
  const uint64_t ow = pooled_extent(in.dims[2], w, same_padding);
  EMBER_NODE_CHECK(oh == out.dims[1] && ow == out.dims[2],
                   "its padding, window and stride give a %llux%llu output for a %zux%zu "
                   "input, the blob declares %zux%zu",
                   static_cast<unsigned long long>(oh), static_cast<unsigned long long>(ow),
                   in.dims[1], in.dims[2], out.dims[1], out.dims[2]);
  return Error::Ok;
}

}  // namespace

Error check_window_geometry(const Graph& graph, const Node& node) {
  using T = fb::XNodeUnion;
  const fb::XNode* xn = node.fb;
  const Value& in = graph.values[node.inputs[0]];
  const Value& out = graph.values[node.output];
  switch (node.type) {
    case T::XNNAvgPooling2d: case T::XNNMaxPooling2d: {
      const auto* t = static_cast<const fb::_XNNPooling2D*>(xn->xnode_union());
      const bool max = node.type == T::XNNMaxPooling2d;
      const Axis h{t->padding_top(), t->padding_bottom(), t->pooling_height(),
                   t->stride_height(), max ? t->dilation_height() : 1u};
      const Axis w{t->padding_left(), t->padding_right(), t->pooling_width(),
                   t->stride_width(), max ? t->dilation_width() : 1u};
      return check_axes(node, in, out, h, w,
                        (t->flags() & XNN_FLAG_TENSORFLOW_SAME_PADDING) != 0);
    }
    case T::XNNConv2d: case T::XNNDepthwiseConv2d: {
      const auto* t = static_cast<const fb::_XNNNodeConv*>(xn->xnode_union());
      const Axis h{t->padding_top(), t->padding_bottom(), t->kernel_height(),
                   t->subsampling_height(), t->dilation_height()};
      const Axis w{t->padding_left(), t->padding_right(), t->kernel_width(),
                   t->subsampling_width(), t->dilation_width()};
      return check_axes(node, in, out, h, w,
                        (t->flags() & XNN_FLAG_TENSORFLOW_SAME_PADDING) != 0);
    }
    default:
      return Error::Ok;
  }
}

}  // namespace ember::xnnpack
