#include "backends/xnnpack/xnn_compiler.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>

#include "backends/xnnpack/xnn_shared_workspace.h"
#include "runtime/platform/cpu_features.h"
#include "runtime/platform/log.h"
#include "runtime/platform/threadpool.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace fb = ::ember_xnn_fb;
using T = fb::XNodeUnion;
namespace {

// XNNPACK has no kernels for some node on this CPU, or on the level
// EMBER_CPU_FEATURES caps it to: the likeliest cause, and the level.
void append_unsupported_hardware_reason() {
  append_error_message(
      ": XNNPACK has no kernel for these nodes on this CPU at CPU level '%s' (fp16 "
      "programs need AVX2 with F16C on x86-64, fp16 arithmetic on ARM64)%s%s",
      cpu_level_name(), cpu_cap_note()[0] != '\0' ? "; " : "", cpu_cap_note());
}

const char* status_name(xnn_status s) {
  switch (s) {
    case xnn_status_success: return "success";
    case xnn_status_uninitialized: return "uninitialized";
    case xnn_status_invalid_parameter: return "invalid parameter";
    case xnn_status_invalid_state: return "invalid state";
    case xnn_status_unsupported_parameter: return "unsupported parameter";
    case xnn_status_unsupported_hardware: return "unsupported hardware";
    case xnn_status_out_of_memory: return "out of memory";
    default: return "unknown status";
  }
}

xnn_status define_value(xnn_subgraph_t sg, const Value& v, uint32_t external_id,
                        uint32_t flags, uint32_t* id) {
  switch (v.dtype) {
    case xnn_datatype_fp32: case xnn_datatype_fp16: case xnn_datatype_int32:
      return xnn_define_tensor_value(sg, v.dtype, v.num_dims, v.dims, v.data, external_id,
                                     flags, id);
    case xnn_datatype_qcint8: case xnn_datatype_qcint32: case xnn_datatype_qcint4:
      return xnn_define_channelwise_quantized_tensor_value_v2(
          sg, v.dtype, v.zero_point, v.channel_scales, v.num_dims, v.channel_dim, v.dims,
          v.data, external_id, flags, id);
    case xnn_datatype_qbint4:
      return xnn_define_blockwise_quantized_tensor_value(
          sg, v.dtype, v.zero_point, v.block_scales, v.num_dims, v.channel_dim, v.block_size,
          v.dims, v.data, external_id, flags, id);
    case xnn_datatype_qdint8:
      return xnn_define_dynamically_quantized_tensor_value(
          sg, v.dtype, v.num_dims, v.num_nonbatch_dims, v.dims, external_id, flags, id);
    default:
      return xnn_define_quantized_tensor_value(sg, v.dtype, v.zero_point, v.scale,
                                               v.num_dims, v.dims, v.data, external_id,
                                               flags, id);
  }
}

// An older export's dynamically quantized graph input: the fp32 external
// value, then a per-row convert to an internal qdint8 value that the nodes
// read (`*id` becomes the qdint8 one).
xnn_status define_legacy_dq_input(xnn_subgraph_t sg, const Value& v, uint32_t external_id,
                                  uint32_t flags, uint32_t* id) {
  uint32_t fp32_id = kInvalidId;
  xnn_status s = xnn_define_tensor_value(sg, xnn_datatype_fp32, v.num_dims, v.dims, nullptr,
                                         external_id, flags, &fp32_id);
  if (s != xnn_status_success) return s;
  s = xnn_define_dynamically_quantized_tensor_value(sg, xnn_datatype_qdint8, v.num_dims, 1,
                                                    v.dims, kInvalidId, 0, id);
  if (s != xnn_status_success) return s;
  return xnn_define_unary(sg, xnn_unary_convert, nullptr, fp32_id, *id, 0);
}

bool binary_operator(T type, xnn_binary_operator* op) {
  switch (type) {
    case T::XNNAdd: *op = xnn_binary_add; return true;
    case T::XNNSubtract: *op = xnn_binary_subtract; return true;
    case T::XNNMultiply: *op = xnn_binary_multiply; return true;
    case T::XNNDiv: *op = xnn_binary_divide; return true;
    case T::XNNMaximum: *op = xnn_binary_maximum; return true;
    case T::XNNMinimum: *op = xnn_binary_minimum; return true;
    case T::XNNPReLU: *op = xnn_binary_prelu; return true;
    default: return false;
  }
}

bool unary_operator(T type, xnn_unary_operator* op) {
  switch (type) {
    case T::XNNSigmoid: *op = xnn_unary_sigmoid; return true;
    case T::XNNFloor: *op = xnn_unary_floor; return true;
    case T::XNNCeiling: *op = xnn_unary_ceiling; return true;
    case T::XNNSquareRoot: *op = xnn_unary_square_root; return true;
    case T::XNNReciprocalSquareRoot: *op = xnn_unary_reciprocal_square_root; return true;
    case T::XNNSquare: *op = xnn_unary_square; return true;
    case T::XNNHardswish: *op = xnn_unary_hardswish; return true;
    case T::XNNNegate: *op = xnn_unary_negate; return true;
    case T::XNNAbs: *op = xnn_unary_abs; return true;
    case T::XNNGelu: *op = xnn_unary_gelu; return true;
    case T::XNNLog: *op = xnn_unary_log; return true;
    case T::XNNExp: *op = xnn_unary_exp; return true;
    case T::XNNTanh: *op = xnn_unary_tanh; return true;
    case T::XNNSin: *op = xnn_unary_sine; return true;
    case T::XNNCos: *op = xnn_unary_cosine; return true;
    case T::XNNConvert: *op = xnn_unary_convert; return true;
    case T::XNNClamp: *op = xnn_unary_clamp; return true;
    case T::XNNELU: *op = xnn_unary_elu; return true;
    case T::XNNLeakyReLU: *op = xnn_unary_leaky_relu; return true;
    default: return false;
  }
}

// A node's flags as serialized (0 for tables that carry none).
uint32_t node_flags(const fb::XNode* xn, T type) {
  const void* u = xn->xnode_union();
  switch (type) {
    case T::XNNFullyConnected: return static_cast<const fb::XNNFullyConnected*>(u)->flags();
    case T::XNNConv2d: case T::XNNDepthwiseConv2d: case T::XNNConvTranspose2d:
      return static_cast<const fb::_XNNNodeConv*>(u)->flags();
    case T::XNNAvgPooling2d: case T::XNNMaxPooling2d:
      return static_cast<const fb::_XNNPooling2D*>(u)->flags();
    case T::XNNStaticTranspose: return static_cast<const fb::XNNStaticTranspose*>(u)->flags();
    case T::XNNStaticResizeBilinear2D:
      return static_cast<const fb::XNNStaticResizeBilinear2D*>(u)->flags();
    case T::XNNStaticConstantPad:
      return static_cast<const fb::XNNStaticConstantPad*>(u)->flags();
    case T::XNNStaticReshape: return static_cast<const fb::XNNStaticReshape*>(u)->flags();
    case T::XNNStaticSlice: return static_cast<const fb::XNNStaticSlice*>(u)->flags();
    case T::XNNELU: return static_cast<const fb::XNNELU*>(u)->flags();
    case T::XNNLeakyReLU: return static_cast<const fb::XNNLeakyReLU*>(u)->flags();
    case T::XNNConcatenate2: case T::XNNConcatenate3: case T::XNNConcatenate4:
    case T::XNNConcatenate5:
      return static_cast<const fb::_XNNCat*>(u)->flags();
    case T::XNNAdd: case T::XNNSubtract: case T::XNNMultiply: case T::XNNDiv:
    case T::XNNMaximum: case T::XNNMinimum: case T::XNNPReLU: case T::XNNBatchMatrixMultiply:
      return static_cast<const fb::_XNNNode2x1*>(u)->flags();
    default:
      return static_cast<const fb::_XNNNode1x1*>(u)->flags();
  }
}

// Copies a serialized uint list of exactly `rank` entries into `out`.
bool dims_list(const flatbuffers::Vector<uint32_t>* list, size_t rank, size_t* out) {
  if (list == nullptr || list->size() != rank || rank > kMaxDims) return false;
  for (size_t d = 0; d < rank; ++d) out[d] = list->Get(uint32_t(d));
  return true;
}

xnn_status define_conv_like(xnn_subgraph_t sg, T type, const fb::_XNNNodeConv* t, float lo,
                            float hi, uint32_t in, uint32_t filter, uint32_t bias, uint32_t out,
                            uint32_t f, const char** call) {
  if (type == T::XNNConv2d) {
    *call = "convolution_2d";
    return xnn_define_convolution_2d(
        sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
        t->kernel_height(), t->kernel_width(), t->subsampling_height(), t->subsampling_width(),
        t->dilation_height(), t->dilation_width(), t->groups(), t->group_input_channels(),
        t->group_output_channels(), lo, hi, in, filter, bias, out, f);
  }
  if (type == T::XNNDepthwiseConv2d) {
    // Upstream serializes depthwise as groups = input channels and
    // group_output_channels / group_input_channels = the depth multiplier.
    *call = "depthwise_convolution_2d";
    if (t->group_input_channels() == 0) return xnn_status_invalid_parameter;
    return xnn_define_depthwise_convolution_2d(
        sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
        t->kernel_height(), t->kernel_width(), t->subsampling_height(), t->subsampling_width(),
        t->dilation_height(), t->dilation_width(),
        t->group_output_channels() / t->group_input_channels(), t->groups(), lo, hi, in,
        filter, bias, out, f);
  }
  *call = "deconvolution_2d";
  return xnn_define_deconvolution_2d(
      sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
      t->adjustment_height(), t->adjustment_width(), t->kernel_height(), t->kernel_width(),
      t->subsampling_height(), t->subsampling_width(), t->dilation_height(),
      t->dilation_width(), t->groups(), t->group_input_channels(), t->group_output_channels(),
      lo, hi, in, filter, bias, out, f);
}

// What a node's define function gets: the node, its values' subgraph ids
// and the fused clamp.
struct NodeArgs {
  xnn_subgraph_t sg;
  const Graph& g;
  const Node& node;
  const uint32_t* id;  // id[v]: the subgraph id of value v
  float lo, hi;        // output_min, output_max
  uint32_t out;        // the output's subgraph id
  uint32_t flags;
  size_t in_rank;      // rank of input 0

  const fb::XNode* xn() const { return node.fb; }
  uint32_t in(size_t k) const {
    return node.inputs[k] == kInvalidId ? kInvalidId : id[node.inputs[k]];
  }
};

// A define function's result: XNNPACK's status and the call it made, or
// an Error of its own (a malformed node) with the message set.
struct Defined {
  xnn_status status = xnn_status_success;
  const char* call = "";
  Error error = Error::Ok;
};

Defined malformed(const NodeArgs& a, const char* what) {
  set_error_message("XNNPACK node %zu (%s): %s do not match input rank %zu", a.node.index,
                    node_type_name(a.node.type), what, a.in_rank);
  return {xnn_status_success, "", Error::InvalidProgram};
}

Defined define_binary_node(const NodeArgs& a) {
  xnn_binary_operator op = xnn_binary_invalid;
  binary_operator(a.node.type, &op);
  xnn_binary_params params{a.lo, a.hi};
  const T t = a.node.type;
  const bool clamps = t != T::XNNMaximum && t != T::XNNMinimum && t != T::XNNPReLU;
  return {xnn_define_binary(a.sg, op, clamps ? &params : nullptr, a.in(0), a.in(1), a.out,
                            a.flags),
          "binary"};
}

Defined define_unary_node(const NodeArgs& a) {
  xnn_unary_operator op = xnn_unary_invalid;
  unary_operator(a.node.type, &op);
  xnn_unary_params params{};
  const T t = a.node.type;
  if (t == T::XNNClamp) {
    params.clamp.min = a.lo;
    params.clamp.max = a.hi;
  } else if (t == T::XNNELU) {
    params.elu.alpha = a.xn()->xnode_union_as_XNNELU()->alpha();
  } else if (t == T::XNNLeakyReLU) {
    params.leaky_relu.negative_slope = a.xn()->xnode_union_as_XNNLeakyReLU()->negative_slope();
  }
  const bool has_params = t == T::XNNClamp || t == T::XNNELU || t == T::XNNLeakyReLU;
  return {xnn_define_unary(a.sg, op, has_params ? &params : nullptr, a.in(0), a.out, a.flags),
          "unary"};
}

// The pinned XNNPACK's x86 4-bit blockwise GEMM kernels below AVX2 (the
// SSE2 4x4c8 family) read out of bounds, and crash, when a weight row
// holds an odd number of blocks (input channels / block size: 3 blocks of
// 32 crash, 2 or 4 run; tried at 96 to 320 input channels, 16 to 96
// output channels). Such a node is refused, naming it, on x86 CPUs (or CPU
// levels) without AVX2, instead of taking the process down.
bool blockwise_odd_blocks_below_avx2(const NodeArgs& a) {
#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64)
  if (a.node.num_inputs < 2 || a.node.inputs[1] == kInvalidId) return false;
  const Value& w = a.g.values[a.node.inputs[1]];
  if (w.dtype != xnn_datatype_qbint4 || w.num_dims != 2 || w.block_size == 0) return false;
  return (w.dims[1] / w.block_size) % 2 == 1 && (cpu_features() & kCpuX86Avx2) == 0;
#else
  (void)a;
  return false;
#endif
}

Defined define_fully_connected_node(const NodeArgs& a) {
  if (blockwise_odd_blocks_below_avx2(a)) {
    const Value& w = a.g.values[a.node.inputs[1]];
    set_error_message(
        "XNNPACK node %zu (%s): 4-bit blockwise weights of %zu input channels in blocks of "
        "%zu (an odd number of blocks) need AVX2 or later: the pinned XNNPACK's kernels for "
        "this CPU level crash on them",
        a.node.index, node_type_name(a.node.type), size_t(w.dims[1]), size_t(w.block_size));
    Defined d;
    d.error = Error::NotSupported;
    return d;
  }
  return {xnn_define_fully_connected(a.sg, a.lo, a.hi, a.in(0), a.in(1), a.in(2), a.out,
                                     a.flags),
          "fully_connected"};
}

Defined define_conv_node(const NodeArgs& a) {
  Defined d;
  d.status = define_conv_like(a.sg, a.node.type,
                              static_cast<const fb::_XNNNodeConv*>(a.xn()->xnode_union()), a.lo,
                              a.hi, a.in(0), a.in(1), a.in(2), a.out, a.flags, &d.call);
  return d;
}

Defined define_pooling_node(const NodeArgs& a) {
  const auto* t = static_cast<const fb::_XNNPooling2D*>(a.xn()->xnode_union());
  if (a.node.type == T::XNNAvgPooling2d) {
    return {xnn_define_average_pooling_2d(
                a.sg, t->padding_top(), t->padding_right(), t->padding_bottom(),
                t->padding_left(), t->pooling_height(), t->pooling_width(), t->stride_height(),
                t->stride_width(), a.lo, a.hi, a.in(0), a.out, a.flags),
            "average_pooling_2d"};
  }
  return {xnn_define_max_pooling_2d(
              a.sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
              t->pooling_height(), t->pooling_width(), t->stride_height(), t->stride_width(),
              t->dilation_height(), t->dilation_width(), a.lo, a.hi, a.in(0), a.out, a.flags),
          "max_pooling_2d"};
}

// Upstream calls this one too (deprecated in favour of
// xnn_define_static_reduce, which has no fused clamp).
Defined define_global_avg_pool_node(const NodeArgs& a) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return {xnn_define_global_average_pooling_2d(a.sg, a.lo, a.hi, a.in(0), a.out, a.flags),
          "global_average_pooling_2d"};
#pragma GCC diagnostic pop
}

Defined define_softmax_node(const NodeArgs& a) {
  return {xnn_define_softmax(a.sg, a.in(0), a.out, a.flags), "softmax"};
}

Defined define_copy_node(const NodeArgs& a) {
  return {xnn_define_copy(a.sg, a.in(0), a.out, a.flags), "copy"};
}

Defined define_reshape_node(const NodeArgs& a) {
  const auto* shape = a.xn()->xnode_union_as_XNNStaticReshape()->new_shape();
  const size_t rank = shape ? shape->size() : 0;
  size_t dims[kMaxDims];
  if (!dims_list(shape, rank, dims)) return malformed(a, "new_shape dims");
  return {xnn_define_static_reshape(a.sg, rank, dims, a.in(0), a.out, a.flags),
          "static_reshape"};
}

Defined define_transpose_node(const NodeArgs& a) {
  size_t perm[kMaxDims];
  if (!dims_list(a.xn()->xnode_union_as_XNNStaticTranspose()->perm(), a.in_rank, perm)) {
    return malformed(a, "perm entries");
  }
  return {xnn_define_static_transpose(a.sg, a.in_rank, perm, a.in(0), a.out, a.flags),
          "static_transpose"};
}

Defined define_slice_node(const NodeArgs& a) {
  const auto* t = a.xn()->xnode_union_as_XNNStaticSlice();
  size_t offsets[kMaxDims], sizes[kMaxDims];
  if (!dims_list(t->offsets(), a.in_rank, offsets) || !dims_list(t->sizes(), a.in_rank, sizes)) {
    return malformed(a, "offsets and sizes");
  }
  return {xnn_define_static_slice(a.sg, a.in_rank, offsets, sizes, a.in(0), a.out, a.flags),
          "static_slice"};
}

Defined define_pad_node(const NodeArgs& a) {
  const auto* t = a.xn()->xnode_union_as_XNNStaticConstantPad();
  size_t pre[kMaxDims], post[kMaxDims];
  if (!dims_list(t->pre_paddings(), a.in_rank, pre) ||
      !dims_list(t->post_paddings(), a.in_rank, post)) {
    return malformed(a, "paddings");
  }
  return {xnn_define_static_constant_pad(a.sg, pre, post, t->padding_value(), a.in(0), a.out,
                                         a.flags),
          "static_constant_pad"};
}

Defined define_resize_node(const NodeArgs& a) {
  const auto* t = a.xn()->xnode_union_as_XNNStaticResizeBilinear2D();
  return {xnn_define_static_resize_bilinear_2d(a.sg, t->new_height(), t->new_width(), a.in(0),
                                               a.out, a.flags),
          "static_resize_bilinear_2d"};
}

Defined define_bmm_node(const NodeArgs& a) {
  return {xnn_define_batch_matrix_multiply(a.sg, a.in(0), a.in(1), a.out, a.flags),
          "batch_matrix_multiply"};
}

Defined define_concat_node(const NodeArgs& a) {
  const size_t axis = static_cast<const fb::_XNNCat*>(a.xn()->xnode_union())->axis();
  const uint32_t f = a.flags, o = a.out;
  xnn_status s;
  switch (a.node.num_inputs) {
    case 2: s = xnn_define_concatenate2(a.sg, axis, a.in(0), a.in(1), o, f); break;
    case 3: s = xnn_define_concatenate3(a.sg, axis, a.in(0), a.in(1), a.in(2), o, f); break;
    case 4:
      s = xnn_define_concatenate4(a.sg, axis, a.in(0), a.in(1), a.in(2), a.in(3), o, f);
      break;
    default:
      s = xnn_define_concatenate5(a.sg, axis, a.in(0), a.in(1), a.in(2), a.in(3), a.in(4), o, f);
  }
  return {s, "concatenate"};
}

using DefineFn = Defined (*)(const NodeArgs&);

// The define function of each node type this delegate runs (null: none),
// as upstream's compiler maps them: one xnn_define_* call per node.
DefineFn define_function(T type) {
  xnn_binary_operator bop;
  xnn_unary_operator uop;
  if (binary_operator(type, &bop)) return define_binary_node;
  if (unary_operator(type, &uop)) return define_unary_node;
  switch (type) {
    case T::XNNFullyConnected: return define_fully_connected_node;
    case T::XNNConv2d: case T::XNNDepthwiseConv2d: case T::XNNConvTranspose2d:
      return define_conv_node;
    case T::XNNAvgPooling2d: case T::XNNMaxPooling2d: return define_pooling_node;
    case T::XNNGlobalAvgPooling2d: return define_global_avg_pool_node;
    case T::XNNSoftmax: return define_softmax_node;
    case T::XNNCopy: return define_copy_node;
    case T::XNNStaticReshape: return define_reshape_node;
    case T::XNNStaticTranspose: return define_transpose_node;
    case T::XNNStaticSlice: return define_slice_node;
    case T::XNNStaticConstantPad: return define_pad_node;
    case T::XNNStaticResizeBilinear2D: return define_resize_node;
    case T::XNNBatchMatrixMultiply: return define_bmm_node;
    case T::XNNConcatenate2: case T::XNNConcatenate3: case T::XNNConcatenate4:
    case T::XNNConcatenate5:
      return define_concat_node;
    default: return nullptr;
  }
}

// Defines one node; `id[v]` is the subgraph id of value v.
Error define_node(xnn_subgraph_t sg, const Graph& g, const Node& node, const uint32_t* id) {
  const DefineFn define = define_function(node.type);
  if (define == nullptr) {
    set_error_message("XNNPACK node %zu (%s): node type not supported by this delegate",
                      node.index, node_type_name(node.type));
    return Error::NotSupported;
  }
  const NodeArgs args{sg, g, node, id, node.output_min, node.output_max, id[node.output],
                      node_flags(node.fb, node.type), g.values[node.inputs[0]].num_dims};
  const Defined d = define(args);
  if (d.error != Error::Ok) return d.error;
  if (d.status != xnn_status_success) {
    set_error_message("XNNPACK node %zu (%s): xnn_define_%s failed (%s)", node.index,
                      node_type_name(node.type), d.call, status_name(d.status));
    return Error::NotSupported;
  }
  return Error::Ok;
}

// Per value: the step that writes it (-1 for graph inputs and constants)
// and whether a step other than its producer reads it.
struct Usage {
  std::vector<int> producer;
  std::vector<uint8_t> crosses;
};

// Creates the subgraph and runtime of XNNPACK step `step`.
Error build_runtime(Plan* plan, const Usage& usage, size_t step_index, Step* step) {
  const Graph& g = plan->graph;
  std::vector<uint8_t> used(g.values.size(), 0);
  for (size_t n = step->first_node; n < step->end_node; ++n) {
    const Node& node = g.nodes[n];
    for (size_t k = 0; k < node.num_inputs; ++k) {
      if (node.inputs[k] != kInvalidId) used[node.inputs[k]] = 1;
    }
    used[node.output] = 1;
  }
  // External slots: non-constant values this step reads from outside, or
  // writes for outside (graph outputs, other steps).
  step->external_values.clear();
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (!used[v] || g.values[v].is_constant()) continue;
    const bool mine = usage.producer[v] == int(step_index);
    if (!mine || usage.crosses[v] || (g.values[v].flags & XNN_VALUE_FLAG_EXTERNAL_OUTPUT)) {
      step->external_values.push_back(uint32_t(v));
    }
  }
  xnn_subgraph_t sg = nullptr;
  xnn_status s = xnn_create_subgraph(uint32_t(step->external_values.size()), 0, &sg);
  EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::DelegateMemoryAllocationFailed,
                        "xnn_create_subgraph failed (%s)", status_name(s));
  std::vector<uint32_t> id(g.values.size(), kInvalidId);
  Error err = Error::Ok;
  size_t slot = 0;
  for (size_t v = 0; v < g.values.size() && err == Error::Ok; ++v) {
    if (!used[v]) continue;
    uint32_t ext = kInvalidId, flags = 0;
    if (slot < step->external_values.size() && step->external_values[slot] == v) {
      ext = uint32_t(slot++);
      flags = usage.producer[v] == int(step_index) ? XNN_VALUE_FLAG_EXTERNAL_OUTPUT
                                                   : XNN_VALUE_FLAG_EXTERNAL_INPUT;
    }
    s = g.values[v].legacy_dynamic_quant
            ? define_legacy_dq_input(sg, g.values[v], ext, flags, &id[v])
            : define_value(sg, g.values[v], ext, flags, &id[v]);
    if (s != xnn_status_success) {
      set_error_message("XNNPACK value %zu: xnn_define_tensor_value failed (%s)", v,
                        status_name(s));
      err = Error::NotSupported;
    }
  }
  for (size_t n = step->first_node; n < step->end_node && err == Error::Ok; ++n) {
    err = define_node(sg, g, g.nodes[n], id.data());
  }
  if (err == Error::Ok) {
    s = xnn_create_runtime_v4(sg, plan->weights->provider(), plan->workspace, plan->pool,
                              plan->profiling ? XNN_FLAG_BASIC_PROFILING : 0, &step->runtime);
    if (s != xnn_status_success) {
      const Node& first = g.nodes[step->first_node];
      set_error_message("XNNPACK nodes %zu..%zu (first %s): xnn_create_runtime_v4 failed (%s)",
                        step->first_node, step->end_node - 1, node_type_name(first.type),
                        status_name(s));
      if (s == xnn_status_unsupported_hardware) append_unsupported_hardware_reason();
      err = Error::NotSupported;
    }
  }
  xnn_delete_subgraph(sg);
  if (err != Error::Ok) return err;
  step->externals.resize(step->external_values.size());
  for (size_t i = 0; i < step->externals.size(); ++i) {
    step->externals[i] = xnn_external_value{uint32_t(i), nullptr};
  }
  return Error::Ok;
}

// Whether input `k` of `node` is weights XNNPACK packs when it creates the
// node's operator (filter and bias of convolutions and fully connected
// nodes), after which it reads only the packed copy.
bool packed_operand(const Node& node, size_t k) {
  const bool packs = node.type == T::XNNConv2d || node.type == T::XNNDepthwiseConv2d ||
                     node.type == T::XNNConvTranspose2d || node.type == T::XNNFullyConnected;
  return packs && (k == 1 || k == 2);
}

// Registers with the weights cache the named-data constants whose only
// reader is one packed operand of a node in an XNNPACK runtime: once
// packed, their program bytes are released. Constants that native steps,
// other operands or several nodes read stay.
void plan_weight_release(Plan* plan) {
  Graph& g = plan->graph;
  std::vector<uint32_t> uses(g.values.size(), 0);
  std::vector<uint8_t> packed_once(g.values.size(), 0);
  for (const Step& step : plan->steps) {
    for (size_t n = step.first_node; n < step.end_node; ++n) {
      const Node& node = g.nodes[n];
      for (size_t k = 0; k < node.num_inputs; ++k) {
        const uint32_t v = node.inputs[k];
        if (v == kInvalidId) continue;
        ++uses[v];
        packed_once[v] = step.native == nullptr && packed_operand(node, k);
      }
    }
  }
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (uses[v] != 1 || !packed_once[v] || !g.values[v].is_constant()) continue;
    for (FreeableBuffer& buffer : g.named_buffers) {
      if (buffer.data() == g.values[v].data) {
        plan->weights->release_after_packing(g.values[v].data, &buffer);
      }
    }
  }
}

bool is_concatenate(T type) {
  return type == T::XNNConcatenate2 || type == T::XNNConcatenate3 ||
         type == T::XNNConcatenate4 || type == T::XNNConcatenate5;
}

// A concatenation's declared shapes: same rank everywhere, the axis within
// it, every other dim equal to the output's, the axis dims summing to it.
Error check_concat_shapes(const Graph& g, const Node& node) {
  const size_t axis = static_cast<const fb::_XNNCat*>(node.fb->xnode_union())->axis();
  const Value& out = g.values[node.output];
  bool ok = axis < out.num_dims;
  size_t sum = 0;
  for (size_t k = 0; ok && k < node.num_inputs; ++k) {
    if (node.inputs[k] == kInvalidId) {
      ok = false;
      break;
    }
    const Value& in = g.values[node.inputs[k]];
    ok = in.num_dims == out.num_dims;
    for (size_t d = 0; ok && d < out.num_dims; ++d) ok = d == axis || in.dims[d] == out.dims[d];
    if (ok) sum += in.dims[axis];
  }
  EMBER_CHECK_OR_RETURN(ok && sum == out.dims[axis], Error::InvalidProgram,
                        "XNNPACK node %zu (%s): the inputs' shapes do not concatenate to the "
                        "output's along axis %zu", node.index, node_type_name(node.type), axis);
  return Error::Ok;
}

// Reshapes a new runtime for the blob's shapes and checks that every value
// it writes for outside (a graph output, or a buffer another step reads)
// has the shape the blob declares: XNNPACK infers output shapes from its
// inputs, and a blob whose declared output is smaller than what its node
// computes would have XNNPACK write past the buffer sized from the
// declaration.
Error check_runtime_shapes(const Plan& plan, Step* step) {
  const Graph& g = plan.graph;
  xnn_status s = xnn_reshape_runtime(step->runtime);
  EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::InvalidProgram,
                        "XNNPACK nodes %zu..%zu: xnn_reshape_runtime failed (%s)",
                        step->first_node, step->end_node - 1, status_name(s));
  for (size_t slot = 0; slot < step->external_values.size(); ++slot) {
    const uint32_t v = step->external_values[slot];
    const Value& value = g.values[v];
    size_t rank = 0;
    size_t dims[XNN_MAX_TENSOR_DIMS] = {};
    s = xnn_get_external_value_shape(step->runtime, uint32_t(slot), &rank, dims);
    bool same = s == xnn_status_success && rank == value.num_dims;
    for (size_t d = 0; same && d < rank; ++d) same = dims[d] == value.dims[d];
    if (!same) {
      char declared[96], computed[96];
      format_dims(value.dims, value.num_dims, declared, sizeof(declared));
      format_dims(dims, rank, computed, sizeof(computed));
      set_error_message("XNNPACK value %u: the blob declares shape %s but its nodes (%zu..%zu) "
                        "compute %s", v, declared, step->first_node, step->end_node - 1,
                        s == xnn_status_success ? computed : "no shape");
      return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

// Buffers for the intermediates that cross steps (or come out of a native
// step). A buffer is reused by a later value once the last step that reads
// its current one has run, best fit first: consecutive layers then write
// into memory that is still in cache, and the delegate holds about as much
// as its largest live set, not every intermediate at once.
Error assign_buffers(Plan* plan, const Usage& usage) {
  const Graph& g = plan->graph;
  std::vector<int> last(g.values.size(), -1);  // last step that reads each value
  for (size_t s = 0; s < plan->steps.size(); ++s) {
    for (size_t n = plan->steps[s].first_node; n < plan->steps[s].end_node; ++n) {
      const Node& node = g.nodes[n];
      for (size_t k = 0; k < node.num_inputs; ++k) {
        if (node.inputs[k] != kInvalidId) last[node.inputs[k]] = int(s);
      }
    }
  }
  struct Buffer {
    void* data;
    size_t bytes;
    int busy_until;  // the current owner's last step
  };
  std::vector<Buffer> buffers;
  for (size_t s = 0; s < plan->steps.size(); ++s) {
    for (size_t n = plan->steps[s].first_node; n < plan->steps[s].end_node; ++n) {
      const uint32_t v = g.nodes[n].output;
      const Value& value = g.values[v];
      if (value.flags != 0 || (!usage.crosses[v] && plan->steps[s].native == nullptr)) continue;
      const size_t bytes = (value.nbytes() + XNN_EXTRA_BYTES + 63) / 64 * 64;
      Buffer* best = nullptr;
      for (Buffer& b : buffers) {
        if (b.busy_until < int(s) && b.bytes >= bytes && (!best || b.bytes < best->bytes)) {
          best = &b;
        }
      }
      if (best == nullptr) {
        void* data = std::aligned_alloc(64, bytes);
        EMBER_CHECK_OR_RETURN(data != nullptr, Error::DelegateMemoryAllocationFailed,
                              "XNNPACK value %u: cannot allocate %zu bytes", v, value.nbytes());
        plan->owned.push_back(data);
        buffers.push_back(Buffer{data, bytes, -1});
        best = &buffers.back();
      }
      best->busy_until = std::max(last[v], int(s));
      plan->ptrs[v] = best->data;
    }
  }
  return Error::Ok;
}

// XNNPACK's global initialization, once per process, by whichever thread
// loads the first delegate (methods may load concurrently); the others
// wait for it (a function-local static). The pinned snapshot guards
// xnn_initialize itself (pthread_once, an atomic compare-and-swap), but
// its thread safety is not documented, so Ember does not rely on it.
// Before it, the process-wide CPU feature cap (runtime/platform/
// cpu_features.h) goes to XNNPACK's hardware configuration, so that its
// kernel choice follows the same level as Ember's own kernels.
xnn_status initialize_xnnpack_once() {
  static const xnn_status status = [] {
#if EMBER_XNNPACK_HAS_ISA_CAP
    const xnn_status cap = xnn_ember_cap_isa(cpu_features());
    if (cap != xnn_status_success) return cap;
#endif
    return xnn_initialize(nullptr);
  }();
  return status;
}

}  // namespace

Plan::~Plan() {
  for (Step& s : steps) {
    if (s.runtime != nullptr) xnn_delete_runtime(s.runtime);
  }
  for (void* p : owned) std::free(p);
  if (workspace != nullptr) release_workspace(method_key, workspace);
}

namespace {

// Phase 1: the node list split into steps: runs of XNNPACK nodes, and one
// step per natively routed node (checked here).
Error split_steps(Plan* plan) {
  const Graph& g = plan->graph;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    // A dynamic plan is one XNNPACK runtime, reshaped as a whole.
    const NativeRoute* native = plan->dynamic_shapes ? nullptr : route_node(g, g.nodes[n]);
    if (native != nullptr) {
      EMBER_RETURN_IF_ERROR(native->check(g, g.nodes[n]));
    }
    if (native != nullptr || plan->steps.empty() || plan->steps.back().native != nullptr) {
      plan->steps.emplace_back();
      plan->steps.back().native = native;
      plan->steps.back().first_node = n;
    }
    plan->steps.back().end_node = n + 1;
  }
  return Error::Ok;
}

// Phase 2: which step writes each value, and which values cross from one
// step to another (they get buffers of their own).
Error find_crossings(const Plan& plan, Usage* usage) {
  const Graph& g = plan.graph;
  usage->producer.assign(g.values.size(), -1);
  usage->crosses.assign(g.values.size(), 0);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    for (size_t n = plan.steps[s].first_node; n < plan.steps[s].end_node; ++n) {
      usage->producer[g.nodes[n].output] = int(s);
    }
  }
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    for (size_t n = plan.steps[s].first_node; n < plan.steps[s].end_node; ++n) {
      const Node& node = g.nodes[n];
      for (size_t k = 0; k < node.num_inputs; ++k) {
        const uint32_t v = node.inputs[k];
        if (v != kInvalidId && usage->producer[v] >= 0 && usage->producer[v] != int(s)) {
          usage->crosses[v] = 1;
        }
      }
    }
  }
  // Concatenation inputs written by a node are handed to XNNPACK as
  // external values (with buffers of their declared size), so that
  // check_runtime_shapes() compares the shape XNNPACK computes for them
  // with the one the blob declares: XNNPACK's concatenate trusts its
  // inputs' non-axis dims, and a fuzzed blob whose producer computes a
  // wider input than declared made it copy past the output (SEGV).
  for (const Node& node : g.nodes) {
    if (!is_concatenate(node.type)) continue;
    EMBER_RETURN_IF_ERROR(check_concat_shapes(g, node));
    for (size_t k = 0; k < node.num_inputs; ++k) {
      const uint32_t v = node.inputs[k];
      if (v != kInvalidId && usage->producer[v] >= 0) usage->crosses[v] = 1;
    }
  }
  return Error::Ok;
}

// Phase 3: value pointers (constants in place, buffers for crossing
// intermediates) and the declared input shapes.
Error place_values(Plan* plan, const Usage& usage) {
  const Graph& g = plan->graph;
  plan->ptrs.assign(g.values.size(), nullptr);
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (g.values[v].is_constant()) plan->ptrs[v] = const_cast<void*>(g.values[v].data);
  }
  EMBER_RETURN_IF_ERROR(assign_buffers(plan, usage));
  plan->input_shapes.assign(g.inputs.size(), Shape{});
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const Value& v = g.values[g.inputs[i]];
    Shape& shape = plan->input_shapes[i];
    shape.rank = v.num_dims;
    std::copy(v.dims, v.dims + v.num_dims, shape.dims);
  }
  return Error::Ok;
}

// Phase 4: the weights cache (the method's, shared by its static plans,
// or the plan's own; *packed_before and *released_before are its counts
// before this plan, so that the plan's share is the difference), then the
// workspace the plan's runtimes share.
Error open_weights_and_workspace(Plan* plan, size_t* packed_before, size_t* released_before) {
  const Graph& g = plan->graph;
  const bool shared_weights = plan->method_key != nullptr && !plan->dynamic_shapes;
  plan->weights = shared_weights ? acquire_method_weights(plan->method_key)
                                 : std::make_shared<WeightsCache>();
  plan->weights->reopen();
  *packed_before = plan->weights->packed_bytes();
  *released_before = plan->weights->released_bytes();
  for (size_t i = 0; i < g.named_buffers.size(); ++i) {
    plan->weights->name_source(g.named_buffers[i].data(), g.named_keys[i]);
  }
  plan_weight_release(plan);
  plan->workspace = acquire_workspace(plan->method_key);
  EMBER_CHECK_OR_RETURN(plan->workspace != nullptr, Error::DelegateMemoryAllocationFailed,
                        "xnn_create_workspace failed");
  return Error::Ok;
}

// Phase 5: one XNNPACK runtime per run of XNNPACK nodes, its shapes
// checked against the blob's.
Error build_steps(Plan* plan, const Usage& usage) {
  const Graph& g = plan->graph;
  for (size_t i = 0; i < plan->steps.size(); ++i) {
    Step& step = plan->steps[i];
    if (step.native == nullptr) {
      EMBER_RETURN_IF_ERROR(build_runtime(plan, usage, i, &step));
      EMBER_RETURN_IF_ERROR(check_runtime_shapes(*plan, &step));
    }
    EMBER_LOG(Debug, "XNNPACK delegate step %zu: %s, nodes %zu..%zu (%s%s)", i,
              step.native ? step.native->name : "XNNPACK runtime", step.first_node,
              step.end_node - 1, node_type_name(g.nodes[step.first_node].type),
              step.end_node - step.first_node > 1 ? ", ..." : "");
  }
  return Error::Ok;
}

}  // namespace

Error compile_plan(Plan* plan) {
  plan->pool = shared_pthreadpool();
  Usage usage;
  EMBER_RETURN_IF_ERROR(split_steps(plan));
  EMBER_RETURN_IF_ERROR(find_crossings(*plan, &usage));
  EMBER_RETURN_IF_ERROR(place_values(plan, usage));
  const xnn_status s = initialize_xnnpack_once();
  EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::NotSupported,
                        "xnn_initialize failed (%s)", status_name(s));
  size_t packed_before = 0, released_before = 0;
  EMBER_RETURN_IF_ERROR(open_weights_and_workspace(plan, &packed_before, &released_before));
  EMBER_RETURN_IF_ERROR(build_steps(plan, usage));
  plan->weights->finalize();
  plan->packed_bytes = plan->weights->packed_bytes() - packed_before;
  plan->released_bytes = plan->weights->released_bytes() - released_before;
  EMBER_LOG(Debug, "XNNPACK delegate: %zu bytes of weights packed, %zu bytes of program "
            "constants released after packing (the %s cache holds %zu blocks, %zu bytes)",
            plan->packed_bytes, plan->released_bytes,
            plan->method_key != nullptr && !plan->dynamic_shapes ? "method's" : "plan's",
            plan->weights->entries(), plan->weights->packed_bytes());
  return Error::Ok;
}

// The external slot of value `v` in `step` (the step's externals are in
// value order).
uint32_t external_slot(const Step& step, uint32_t v) {
  const auto it = std::lower_bound(step.external_values.begin(), step.external_values.end(), v);
  return uint32_t(it - step.external_values.begin());
}

Error reshape_plan(Plan* plan, const Shape* in, Shape* out) {
  const Graph& g = plan->graph;
  EMBER_CHECK_OR_RETURN(plan->dynamic_shapes && plan->steps.size() == 1 &&
                            plan->steps[0].native == nullptr,
                        Error::Internal, "XNNPACK delegate: reshape of a static plan");
  Step& step = plan->steps[0];
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const uint32_t v = g.inputs[i];
    const xnn_status s = xnn_reshape_external_value(step.runtime, external_slot(step, v),
                                                    in[i].rank, in[i].dims);
    EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::InvalidArgument,
                          "XNNPACK delegate input %zu: xnn_reshape_external_value failed (%s)",
                          i, status_name(s));
  }
  xnn_status s = xnn_reshape_runtime(step.runtime);
  EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::InvalidArgument,
                        "XNNPACK delegate: xnn_reshape_runtime failed for the new input "
                        "shapes (%s)", status_name(s));
  step.bound = false;  // reshaping may move XNNPACK's own buffers: set up again
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const uint32_t v = g.outputs[i];
    s = xnn_get_external_value_shape(step.runtime, external_slot(step, v), &out[i].rank,
                                     out[i].dims);
    EMBER_CHECK_OR_RETURN(s == xnn_status_success && out[i].rank <= kMaxDims, Error::Internal,
                          "XNNPACK delegate output %zu: xnn_get_external_value_shape failed "
                          "(%s)", i, status_name(s));
  }
  std::copy(in, in + g.inputs.size(), plan->input_shapes.begin());
  return Error::Ok;
}

namespace {

// Points an XNNPACK step's external values at plan->ptrs, setting the
// runtime up again only when a pointer changed or a reshape moved
// XNNPACK's own buffers (compile_plan reshaped every runtime at init).
Error setup_step(Plan* plan, Step* step) {
  bool changed = !step->bound;
  for (size_t i = 0; i < step->externals.size(); ++i) {
    void* p = plan->ptrs[step->external_values[i]];
    if (step->externals[i].data != p) {
      step->externals[i].data = p;
      changed = true;
    }
  }
  if (changed) {
    const xnn_status s =
        xnn_setup_runtime_v2(step->runtime, step->externals.size(), step->externals.data());
    EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::InvalidArgument,
                          "XNNPACK nodes %zu..%zu: xnn_setup_runtime_v2 failed (%s)",
                          step->first_node, step->end_node - 1, status_name(s));
    step->bound = true;
  }
  return Error::Ok;
}

Error check_pool(const Plan& plan) {
  if (plan.pool != shared_pthreadpool()) {
    set_error_message("the thread pool changed after the XNNPACK delegate was loaded; set "
                      "the thread count before loading methods");
    return Error::InvalidState;
  }
  return Error::Ok;
}

// One step after its setup: the native step, or the XNNPACK runtime.
Error run_step(Plan* plan, Step* step) {
  if (step->native != nullptr) {
    step->native->run(plan->graph, plan->graph.nodes[step->first_node], plan->ptrs.data());
    return Error::Ok;
  }
  refresh_pool_sharing();  // the pool's sharing rule (threadpool.h), before XNNPACK uses it
  const xnn_status s = xnn_invoke_runtime(step->runtime);
  EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::Internal,
                        "XNNPACK nodes %zu..%zu: xnn_invoke_runtime failed (%s)",
                        step->first_node, step->end_node - 1, status_name(s));
  return Error::Ok;
}

}  // namespace

Error setup_plan(Plan* plan) {
  EMBER_RETURN_IF_ERROR(check_pool(*plan));
  for (Step& step : plan->steps) {
    if (step.native == nullptr) EMBER_RETURN_IF_ERROR(setup_step(plan, &step));
  }
  return Error::Ok;
}

// The untraced loop uses the file's own functions (inlined here); the
// exported ones below are for the traced run.
Error run_plan(Plan* plan) {
  EMBER_RETURN_IF_ERROR(check_pool(*plan));
  for (Step& step : plan->steps) {
    if (step.native == nullptr) EMBER_RETURN_IF_ERROR(setup_step(plan, &step));
    EMBER_RETURN_IF_ERROR(run_step(plan, &step));
  }
  return Error::Ok;
}

Error check_plan_pool(const Plan& plan) { return check_pool(plan); }

Error prepare_step(Plan* plan, Step* step) {
  return step->native == nullptr ? setup_step(plan, step) : Error::Ok;
}

Error invoke_step(Plan* plan, Step* step) { return run_step(plan, step); }

}  // namespace ember::xnnpack
