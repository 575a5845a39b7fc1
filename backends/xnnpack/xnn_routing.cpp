#include "backends/xnnpack/xnn_routing.h"

#include "backends/xnnpack/xnn_step_depthwise_conv_f32.h"
#include "backends/xnnpack/xnn_step_global_avg_pool_qs8.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace {
using T = ::ember_xnn_fb::XNodeUnion;

bool qint8_input(const Graph& g, const Node& node) {
  return g.values[node.inputs[0]].dtype == xnn_datatype_qint8;
}

// The table. Measured on 2026-11-24, AMD EPYC (Zen 3, AVX2/FMA3, no
// AVX-512), against the pinned XNNPACK built with clang, whole models at 1
// and 2 threads (README, "XNNPACK delegate"): the earlier native fp32
// convolution and fully connected steps (our own packed GEMM) ran
// ResNet-18 8 % and MobileNetV2 10-14 % slower than XNNPACK, and the
// native batch matmul, transpose, slice, concatenate and vectorized
// unary steps left ViT, a transformer encoder and a Llama-style block
// level or 1-3 % slower: those rows were removed.
constexpr NativeRoute kNativeRoutes[] = {
    // int8 global average pooling (a quantized adaptive_avg_pool2d or mean
    // over H and W): the pinned XNNPACK (2024-11) rounds a quarter of a
    // 2x2 pooling's outputs one step away from upstream's runtime, whose
    // XNNPACK computes the mean in fp32 and rounds ties to even after the
    // zero point. Exact-match fixtures: q_global_avgpool,
    // q_global_avgpool_4x4, q_tiny_cnn (they fail by one step on XNNPACK).
    {"qs8 global average pooling", T::XNNGlobalAvgPooling2d, qint8_input,
     check_global_avg_pool_qs8, run_global_avg_pool_qs8,
     "upstream's rounding (fp32 mean, ties to even after the zero point)"},
    // fp32 depthwise convolution with more than 25 taps (7x7: ConvNeXt).
    // The pinned XNNPACK is built with its default XNN_ENABLE_DWCONV_MULTIPASS
    // off, so its f32 depthwise kernels are unipass, 25 taps at most (the
    // AVX-512 and FMA3 configurations alike), and it runs such a layer as
    // a grouped IGEMM of one channel per group. Measured 2026-11-27 on a
    // 2-core AMD EPYC (Zen 4, AVX-512), ConvNeXt-T at 1 thread
    // (bench/compare_layers.py): its 18 7x7 depthwise layers took 98.9 ms
    // on XNNPACK against 3.0 ms on ONNX Runtime; this step: see
    // docs/performance.md ("Layer by layer against ONNX Runtime").
    {"f32 depthwise convolution wider than 5x5", T::XNNDepthwiseConv2d,
     depthwise_conv_f32_wide, check_depthwise_conv_f32, run_depthwise_conv_f32,
     "no unipass XNNPACK depthwise kernel over 25 taps, multipass off (grouped IGEMM instead)"},
};

}  // namespace

const NativeRoute* route_node(const Graph& graph, const Node& node) {
  for (const NativeRoute& row : kNativeRoutes) {
    if (row.type == node.type && row.applies(graph, node)) return &row;
  }
  return nullptr;
}

const NativeRoute* native_routes_begin() { return kNativeRoutes; }
const NativeRoute* native_routes_end() {
  return kNativeRoutes + sizeof(kNativeRoutes) / sizeof(kNativeRoutes[0]);
}

}  // namespace ember::xnnpack
