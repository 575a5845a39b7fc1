// Native step: fp32 depthwise convolution with more than 25 taps (a 7x7
// kernel: ConvNeXt, RepLKNet-style blocks), NHWC, channel multiplier 1,
// computed by the kernel library's conv2d_depthwise_nhwc_f32 (see the row
// in xnn_routing.cpp for why XNNPACK does not run it). Bias optional; the
// node's output range is the clamp.
#pragma once

#include "backends/xnnpack/xnn_graph.h"
#include "runtime/core/error.h"

namespace ember::xnnpack {

// Whether the row applies: an fp32 XNNDepthwiseConv2d of multiplier 1
// whose kernel has more taps than the pinned XNNPACK's largest depthwise
// microkernel (25), with explicit padding.
bool depthwise_conv_f32_wide(const Graph& graph, const Node& node);

// InvalidProgram naming the node unless input [N, H, W, C], filter a
// constant [1, KH, KW, C], bias absent or a constant [C], output [N, OH,
// OW, C]. That OH / OW are what the padding, stride and dilation give is
// build_graph's check (check_window_geometry), made before routing.
Error check_depthwise_conv_f32(const Graph& graph, const Node& node);

// Spreads (image, output row) tasks over the shared pool.
void run_depthwise_conv_f32(const Graph& graph, const Node& node, void* const* ptrs);

}  // namespace ember::xnnpack
