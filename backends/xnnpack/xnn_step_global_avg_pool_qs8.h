// Native step: int8 global average pooling (XNNGlobalAvgPooling2d on
// qint8), computed as upstream's runtime does (see the row in
// xnn_routing.cpp for why XNNPACK does not run it):
//
//   out[n, 0, 0, c] = clamp(round_half_even(float(sum_hw(x - zx)) * s + zo))
//   with s = (sx / so) * (1 / (h * w)) in fp32, in that order,
//
// the same fp32 operations as upstream's XNNPACK (int32 sum, scale folded
// with 1 / count, the zero point added before rounding), so ties round
// the same way. NHWC input [N, H, W, C], output [N, 1, 1, C]; the clamp
// is the node's output range quantized to the output's scale.
#pragma once

#include "backends/xnnpack/xnn_graph.h"
#include "runtime/core/error.h"

namespace ember::xnnpack {

// InvalidProgram naming the node unless the output is qint8 [N, 1, 1, C]
// over an [N, H, W, C] input of 1 to 65536 pixels (the int32 sum and its
// fp32 conversion stay exact).
Error check_global_avg_pool_qs8(const Graph& graph, const Node& node);

// Spreads (image, block of 64 channels) tasks over the shared pool.
void run_global_avg_pool_qs8(const Graph& graph, const Node& node, void* const* ptrs);

}  // namespace ember::xnnpack
