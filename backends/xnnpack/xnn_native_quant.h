// int8 nodes the delegate runs itself: the ones the distribution's
// XNNPACK (early 2022) cannot define, and the ones it rounds differently
// from the XNNPACK that upstream's runtime ships, whose outputs are the
// reference for quantized programs.
//
// - Fully connected with per-channel int8 weights (qc8): the 2022 subgraph
//   API has no such node.
// - Transposed convolution with per-channel int8 weights: the 2022
//   XNNPACK refuses a qcint8 filter there.
// - Global average pooling on qint8 (what the partitioner emits for a
//   quantized adaptive_avg_pool2d / mean over H and W): the 2022 operator
//   requantizes in fixed point and rounds ties away from zero before
//   adding the output zero point; upstream's computes in fp32 and rounds
//   ties to even after adding it, so the two differ by one step on ties
//   (a quarter of the outputs of a 2x2 pooling).
//
// Same phases as xnn_native_ops.h: check at init, run with value pointers
// only (cannot fail), no scratch.
#pragma once

#include "backends/xnnpack/xnn_graph.h"

namespace ember::xnnpack {

bool is_qc8_fc(const Graph& graph, const Node& node);
Error check_fc_qc8(const Graph& graph, const Node& node);
void run_fc_qc8(const Graph& graph, const Node& node, void* const* ptrs);

bool is_qc8_deconv(const Graph& graph, const Node& node);
Error check_deconv_qc8(const Graph& graph, const Node& node);
void run_deconv_qc8(const Graph& graph, const Node& node, void* const* ptrs);

bool is_qs8_global_avg_pool(const Graph& graph, const Node& node);
Error check_global_avg_pool_qs8(const Graph& graph, const Node& node);
void run_global_avg_pool_qs8(const Graph& graph, const Node& node, void* const* ptrs);

}  // namespace ember::xnnpack
