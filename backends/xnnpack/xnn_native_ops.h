// Nodes the distribution's XNNPACK (early 2022) cannot define, run by the
// delegate itself: transpose, slice, concatenate, batch matrix multiply,
// the unary math XNNPACK added later (tanh, gelu, exp, log, sin, cos,
// rsqrt, copy), and three int8 nodes (xnn_native_quant.h: fully connected
// and transposed convolution with per-channel weights, global average
// pooling);
// also fp32 one-group convolutions with a kernel bigger than 1x1 and a
// depth (kernel taps x input channels) of 128 or more, and fp32 fully
// connected layers with constant weights and k >= 128, which our GEMM runs
// faster (EMBER_XNNPACK_NATIVE_CONV=0 leaves both to XNNPACK).
// Data movement works for every element size; the math is fp32 except
// the int8 ones. Work is spread over the shared pthreadpool (parallel_for).
//
// Phases: check_native_node() validates the node's shapes and dtypes at
// init (errors name the node index and type); native_scratch_bytes() and
// prepare_native_node() size and fill its scratch buffer at init;
// run_native_node() executes with value pointers only and cannot fail.
// The loops themselves are in xnn_native_kernels.h.
#pragma once

#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_native_kernels.h"

namespace ember::xnnpack {

// True when XNNPACK 2022 cannot define `node` and the delegate runs it
// natively.
bool is_native_node(const Graph& graph, const Node& node);

// NotSupported / InvalidProgram with a message naming the node.
Error check_native_node(const Graph& graph, const Node& node);

// Bytes of scratch memory the node needs at execute (0 for most nodes):
// the caller allocates them once, at init, 64-byte aligned, and passes the
// same buffer to prepare_native_node() and every run_native_node().
size_t native_scratch_bytes(const Graph& graph, const Node& node);

// Fills `scratch` with what can be computed from constants alone (a
// constant matrix multiply operand, transposed). Called once, at init,
// after check_native_node() succeeded.
void prepare_native_node(const Graph& graph, const Node& node, void* scratch);

// `ptrs[v]` is the data of value v (constants included); `scratch` as
// above (null when native_scratch_bytes() is 0).
void run_native_node(const Graph& graph, const Node& node, void* const* ptrs, void* scratch);

// Shared by the fp32 and int8 convolution steps: the geometry of an
// XNNConv2d or XNNConvTranspose2d node (NHWC input and output dims, kernel,
// stride, dilation, top/left padding, the node's clamp), and the init check
// that its kernel, stride and dilation are each 1 to 1024.
Conv2dShape conv_node_shape(const Graph& graph, const Node& node);
Error check_conv_window(const Node& node);

}  // namespace ember::xnnpack
