#include "backends/xnnpack/xnn_compiler.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "backends/xnnpack/xnn_native_ops.h"
#include "runtime/platform/log.h"
#include "runtime/platform/threadpool.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace fb = ::ember_xnn_fb;
using T = fb::XNodeUnion;
namespace {

// Flags this XNNPACK does not know (XNN_FLAG_KEEP_DIMS 0x40, transient
// indirection buffer 0x20) only describe layouts it already assumes.
constexpr uint32_t kKnownNodeFlags = 0x1F;

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
    case xnn_datatype_fp32:
      return xnn_define_tensor_value(sg, v.dtype, v.num_dims, v.dims, v.data, external_id,
                                     flags, id);
    case xnn_datatype_qcint8:
    case xnn_datatype_qcint32:
      return xnn_define_channelwise_quantized_tensor_value(
          sg, v.dtype, v.channel_scales, v.num_dims, v.channel_dim, v.dims, v.data,
          external_id, flags, id);
    default:
      return xnn_define_quantized_tensor_value(sg, v.dtype, v.zero_point, v.scale,
                                               v.num_dims, v.dims, v.data, external_id,
                                               flags, id);
  }
}

// Defines one node; `id[v]` is the subgraph id of value v.
Error define_node(xnn_subgraph_t sg, const Graph& g, const Node& node, const uint32_t* id) {
  const fb::XNode* xn = node.fb;
  const float lo = node.output_min, hi = node.output_max;
  auto in = [&](size_t k) {
    return node.inputs[k] == kInvalidId ? kInvalidId : id[node.inputs[k]];
  };
  const uint32_t out = id[node.output];
  xnn_status s = xnn_status_success;
  const char* call = "";
  switch (node.type) {
    case T::XNNAdd: case T::XNNSubtract: case T::XNNMultiply: case T::XNNDiv:
    case T::XNNMaximum: case T::XNNMinimum: case T::XNNPReLU: {
      const uint32_t f = static_cast<const fb::_XNNNode2x1*>(xn->xnode_union())->flags() &
                         kKnownNodeFlags;
      switch (node.type) {
        case T::XNNAdd: call = "add2"; s = xnn_define_add2(sg, lo, hi, in(0), in(1), out, f); break;
        case T::XNNSubtract: call = "subtract"; s = xnn_define_subtract(sg, lo, hi, in(0), in(1), out, f); break;
        case T::XNNMultiply: call = "multiply2"; s = xnn_define_multiply2(sg, lo, hi, in(0), in(1), out, f); break;
        case T::XNNDiv: call = "divide"; s = xnn_define_divide(sg, lo, hi, in(0), in(1), out, f); break;
        case T::XNNMaximum: call = "maximum2"; s = xnn_define_maximum2(sg, in(0), in(1), out, f); break;
        case T::XNNMinimum: call = "minimum2"; s = xnn_define_minimum2(sg, in(0), in(1), out, f); break;
        default: call = "prelu"; s = xnn_define_prelu(sg, in(0), in(1), out, f); break;
      }
      break;
    }
    case T::XNNFullyConnected: {
      const auto* t = xn->xnode_union_as_XNNFullyConnected();
      call = "fully_connected";
      s = xnn_define_fully_connected(sg, lo, hi, in(0), in(1), in(2), out,
                                     t->flags() & kKnownNodeFlags);
      break;
    }
    case T::XNNConv2d: case T::XNNDepthwiseConv2d: case T::XNNConvTranspose2d: {
      const auto* t = static_cast<const fb::_XNNNodeConv*>(xn->xnode_union());
      const uint32_t f = t->flags() & kKnownNodeFlags;
      if (node.type == T::XNNConv2d) {
        call = "convolution_2d";
        s = xnn_define_convolution_2d(
            sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
            t->kernel_height(), t->kernel_width(), t->subsampling_height(),
            t->subsampling_width(), t->dilation_height(), t->dilation_width(), t->groups(),
            t->group_input_channels(), t->group_output_channels(), lo, hi, in(0), in(1),
            in(2), out, f);
      } else if (node.type == T::XNNDepthwiseConv2d) {
        call = "depthwise_convolution_2d";
        s = xnn_define_depthwise_convolution_2d(
            sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
            t->kernel_height(), t->kernel_width(), t->subsampling_height(),
            t->subsampling_width(), t->dilation_height(), t->dilation_width(),
            t->group_output_channels(), t->groups(), lo, hi, in(0), in(1), in(2), out, f);
      } else {
        call = "deconvolution_2d";
        s = xnn_define_deconvolution_2d(
            sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
            t->adjustment_height(), t->adjustment_width(), t->kernel_height(),
            t->kernel_width(), t->subsampling_height(), t->subsampling_width(),
            t->dilation_height(), t->dilation_width(), t->groups(),
            t->group_input_channels(), t->group_output_channels(), lo, hi, in(0), in(1),
            in(2), out, f);
      }
      break;
    }
    case T::XNNAvgPooling2d: case T::XNNMaxPooling2d: {
      const auto* t = static_cast<const fb::_XNNPooling2D*>(xn->xnode_union());
      const uint32_t f = t->flags() & kKnownNodeFlags;
      if (node.type == T::XNNAvgPooling2d) {
        call = "average_pooling_2d";
        s = xnn_define_average_pooling_2d(
            sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
            t->pooling_height(), t->pooling_width(), t->stride_height(), t->stride_width(), lo,
            hi, in(0), out, f);
      } else {
        call = "max_pooling_2d";
        s = xnn_define_max_pooling_2d(
            sg, t->padding_top(), t->padding_right(), t->padding_bottom(), t->padding_left(),
            t->pooling_height(), t->pooling_width(), t->stride_height(), t->stride_width(),
            t->dilation_height(), t->dilation_width(), lo, hi, in(0), out, f);
      }
      break;
    }
    case T::XNNGlobalAvgPooling2d:
      call = "global_average_pooling_2d";
      s = xnn_define_global_average_pooling_2d(sg, lo, hi, in(0), out, 0);
      break;
    case T::XNNClamp:
      call = "clamp";
      s = xnn_define_clamp(sg, lo, hi, in(0), out, 0);
      break;
    case T::XNNSoftmax: call = "softmax"; s = xnn_define_softmax(sg, in(0), out, 0); break;
    case T::XNNSigmoid: call = "sigmoid"; s = xnn_define_sigmoid(sg, in(0), out, 0); break;
    case T::XNNFloor: call = "floor"; s = xnn_define_floor(sg, in(0), out, 0); break;
    case T::XNNCeiling: call = "ceiling"; s = xnn_define_ceiling(sg, in(0), out, 0); break;
    case T::XNNSquareRoot: call = "square_root"; s = xnn_define_square_root(sg, in(0), out, 0); break;
    case T::XNNSquare: call = "square"; s = xnn_define_square(sg, in(0), out, 0); break;
    case T::XNNHardswish: call = "hardswish"; s = xnn_define_hardswish(sg, in(0), out, 0); break;
    case T::XNNNegate: call = "negate"; s = xnn_define_negate(sg, in(0), out, 0); break;
    case T::XNNAbs: call = "abs"; s = xnn_define_abs(sg, in(0), out, 0); break;
    case T::XNNConvert: call = "convert"; s = xnn_define_convert(sg, in(0), out, 0); break;
    case T::XNNELU:
      call = "elu";
      s = xnn_define_elu(sg, xn->xnode_union_as_XNNELU()->alpha(), in(0), out, 0);
      break;
    case T::XNNLeakyReLU:
      call = "leaky_relu";
      s = xnn_define_leaky_relu(sg, xn->xnode_union_as_XNNLeakyReLU()->negative_slope(), in(0),
                                out, 0);
      break;
    case T::XNNStaticReshape: {
      const Value& o = g.values[node.output];
      call = "static_reshape";
      s = xnn_define_static_reshape(sg, o.num_dims, o.dims, in(0), out, 0);
      break;
    }
    case T::XNNStaticResizeBilinear2D: {
      const auto* t = xn->xnode_union_as_XNNStaticResizeBilinear2D();
      call = "static_resize_bilinear_2d";
      s = xnn_define_static_resize_bilinear_2d(sg, t->new_height(), t->new_width(), in(0), out,
                                               t->flags() & kKnownNodeFlags);
      break;
    }
    case T::XNNStaticConstantPad: {
      const auto* t = xn->xnode_union_as_XNNStaticConstantPad();
      const size_t rank = g.values[node.inputs[0]].num_dims;
      if (t->pre_paddings() == nullptr || t->post_paddings() == nullptr ||
          t->pre_paddings()->size() != rank || t->post_paddings()->size() != rank) {
        set_error_message("XNNPACK node %zu (%s): paddings do not match rank %zu", node.index,
                          node_type_name(node.type), rank);
        return Error::InvalidProgram;
      }
      size_t pre[kMaxDims], post[kMaxDims];
      for (size_t d = 0; d < rank; ++d) {
        pre[d] = t->pre_paddings()->Get(uint32_t(d));
        post[d] = t->post_paddings()->Get(uint32_t(d));
      }
      call = "static_constant_pad";
      s = xnn_define_static_constant_pad(sg, pre, post, t->padding_value(), in(0), out, 0);
      break;
    }
    default:
      set_error_message("XNNPACK node %zu (%s): node type not supported by this delegate",
                        node.index, node_type_name(node.type));
      return Error::NotSupported;
  }
  if (s != xnn_status_success) {
    set_error_message("XNNPACK node %zu (%s): xnn_define_%s failed (%s)", node.index,
                      node_type_name(node.type), call, status_name(s));
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
    s = define_value(sg, g.values[v], ext, flags, &id[v]);
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
    s = xnn_create_runtime_v2(sg, plan->pool, 0, &step->runtime);
    if (s != xnn_status_success) {
      const Node& first = g.nodes[step->first_node];
      set_error_message("XNNPACK nodes %zu..%zu (first %s): xnn_create_runtime_v2 failed (%s)",
                        step->first_node, step->end_node - 1, node_type_name(first.type),
                        status_name(s));
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
      if (value.flags != 0 || (!usage.crosses[v] && !plan->steps[s].native)) continue;
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

}  // namespace

Plan::~Plan() {
  for (Step& s : steps) {
    if (s.runtime != nullptr) xnn_delete_runtime(s.runtime);
  }
  for (void* p : owned) std::free(p);
}

Error compile_plan(Plan* plan) {
  Graph& g = plan->graph;
  plan->pool = shared_pthreadpool();
  // Split the node list into runs.
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const bool native = is_native_node(g, g.nodes[n]);
    if (native) {
      EMBER_RETURN_IF_ERROR(check_native_node(g, g.nodes[n]));
    }
    if (native || plan->steps.empty() || plan->steps.back().native) {
      plan->steps.emplace_back();
      plan->steps.back().native = native;
      plan->steps.back().first_node = n;
    }
    plan->steps.back().end_node = n + 1;
  }
  Usage usage;
  usage.producer.assign(g.values.size(), -1);
  usage.crosses.assign(g.values.size(), 0);
  for (size_t s = 0; s < plan->steps.size(); ++s) {
    for (size_t n = plan->steps[s].first_node; n < plan->steps[s].end_node; ++n) {
      usage.producer[g.nodes[n].output] = int(s);
    }
  }
  for (size_t s = 0; s < plan->steps.size(); ++s) {
    for (size_t n = plan->steps[s].first_node; n < plan->steps[s].end_node; ++n) {
      const Node& node = g.nodes[n];
      for (size_t k = 0; k < node.num_inputs; ++k) {
        const uint32_t v = node.inputs[k];
        if (v != kInvalidId && usage.producer[v] >= 0 && usage.producer[v] != int(s)) {
          usage.crosses[v] = 1;
        }
      }
    }
  }
  // Value pointers: constants in place, buffers for crossing intermediates.
  plan->ptrs.assign(g.values.size(), nullptr);
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (g.values[v].is_constant()) plan->ptrs[v] = const_cast<void*>(g.values[v].data);
  }
  EMBER_RETURN_IF_ERROR(assign_buffers(plan, usage));
  const xnn_status s = xnn_initialize(nullptr);
  EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::NotSupported,
                        "xnn_initialize failed (%s)", status_name(s));
  for (size_t i = 0; i < plan->steps.size(); ++i) {
    Step& step = plan->steps[i];
    if (!step.native) {
      EMBER_RETURN_IF_ERROR(build_runtime(plan, usage, i, &step));
    } else {
      const Node& node = g.nodes[step.first_node];
      const size_t bytes = native_scratch_bytes(g, node);
      if (bytes > 0) {
        step.scratch = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
        EMBER_CHECK_OR_RETURN(step.scratch != nullptr, Error::DelegateMemoryAllocationFailed,
                              "XNNPACK node %zu (%s): cannot allocate %zu bytes of scratch",
                              node.index, node_type_name(node.type), bytes);
        plan->owned.push_back(step.scratch);
        prepare_native_node(g, node, step.scratch);
      }
    }
    EMBER_LOG(Debug, "XNNPACK delegate step %zu: %s, nodes %zu..%zu (%s%s)", i,
              step.native ? "native" : "XNNPACK runtime", step.first_node, step.end_node - 1,
              node_type_name(g.nodes[step.first_node].type),
              step.end_node - step.first_node > 1 ? ", ..." : "");
  }
  return Error::Ok;
}

Error run_plan(Plan* plan) {
  if (plan->pool != shared_pthreadpool()) {
    set_error_message("the thread pool changed after the XNNPACK delegate was loaded; set "
                      "the thread count before loading methods");
    return Error::InvalidState;
  }
  for (Step& step : plan->steps) {
    if (step.native) {
      run_native_node(plan->graph, plan->graph.nodes[step.first_node], plan->ptrs.data(),
                      step.scratch);
      continue;
    }
    bool changed = !step.bound;
    for (size_t i = 0; i < step.externals.size(); ++i) {
      void* p = plan->ptrs[step.external_values[i]];
      if (step.externals[i].data != p) {
        step.externals[i].data = p;
        changed = true;
      }
    }
    if (changed) {
      const xnn_status s = xnn_setup_runtime(step.runtime, step.externals.size(),
                                             step.externals.data());
      EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::Internal,
                            "xnn_setup_runtime failed (%s)", status_name(s));
      step.bound = true;
    }
    const xnn_status s = xnn_invoke_runtime(step.runtime);
    EMBER_CHECK_OR_RETURN(s == xnn_status_success, Error::Internal,
                          "xnn_invoke_runtime failed (%s)", status_name(s));
  }
  return Error::Ok;
}

}  // namespace ember::xnnpack
