// Load-time check of a windowed XNNPACK node's geometry (pooling and
// convolution): the output extent its padding, window, stride and dilation
// give for its input must be the one the blob declares. XNNPACK computes
// that extent itself when the runtime is reshaped, and builds per-output
// indirection tables from it before Ember could compare shapes, so a
// hostile padding or window would cost unbounded time and memory there.
#pragma once

#include "backends/xnnpack/xnn_graph.h"
#include "runtime/core/error.h"

namespace ember::xnnpack {

// InvalidProgram (with a message naming the node) when the node's
// declared NHWC input and output do not match its window parameters; Ok
// for every other node type. `node` has its operands resolved.
Error check_window_geometry(const Graph& graph, const Node& node);

}  // namespace ember::xnnpack
