// Nodes the distribution's XNNPACK (early 2022) cannot define, run by the
// delegate itself: transpose, slice, concatenate, batch matrix multiply,
// the unary math XNNPACK added later (tanh, gelu, exp, log, sin, cos,
// rsqrt, copy), and int8 fully connected with per-channel (qc8) weights.
// Data movement works for every element size; the math is fp32 except
// the qc8 fully connected. Work is spread over the shared pthreadpool (parallel_for).
//
// Phases: check_native_node() validates the node's shapes and dtypes at
// init (errors name the node index and type); run_native_node() executes
// with value pointers only and cannot fail.
#pragma once

#include "backends/xnnpack/xnn_graph.h"

namespace ember::xnnpack {

// True when XNNPACK 2022 cannot define `node` and the delegate runs it
// natively.
bool is_native_node(const Graph& graph, const Node& node);

// NotSupported / InvalidProgram with a message naming the node.
Error check_native_node(const Graph& graph, const Node& node);

// `ptrs[v]` is the data of value v (constants included).
void run_native_node(const Graph& graph, const Node& node, void* const* ptrs);

}  // namespace ember::xnnpack
