#include "backends/xnnpack/xnn_trace.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/core/tensor.h"
#include "runtime/platform/log.h"

namespace ember::xnnpack {
namespace {

// "native:qs8_global_average_pooling" or "xnn_runtime".
void step_kind(const Step& step, char* out, size_t size) {
  if (step.native == nullptr) {
    std::snprintf(out, size, "xnn_runtime");
    return;
  }
  std::snprintf(out, size, "native:%s", step.native->name);
  for (char* c = out; *c != '\0'; ++c) {
    if (*c == ' ') *c = '_';
  }
}

// The values `step` writes that leave it: a native step's node output; an
// XNNPACK step's external values that one of its nodes writes.
void find_outputs(const Graph& g, Step* step) {
  step->outputs.clear();
  if (step->native != nullptr) {
    step->outputs.push_back(g.nodes[step->first_node].output);
    return;
  }
  for (const uint32_t v : step->external_values) {
    for (size_t n = step->first_node; n < step->end_node; ++n) {
      if (g.nodes[n].output == v) {
        step->outputs.push_back(v);
        break;
      }
    }
  }
}

// Event names of an XNNPACK step's operators, numbered from `*next_index`.
void describe_operators(Step* step, size_t* next_index) {
  step->op_names.clear();
  step->op_times.clear();
  size_t count = 0;
  size_t size = 0;
  xnn_status s = xnn_get_runtime_profiling_info(step->runtime, xnn_profile_info_num_operators,
                                                sizeof(count), &count, &size);
  if (s != xnn_status_success || count == 0) {
    EMBER_LOG(Debug, "XNNPACK delegate %s: no per-operator timing", step->trace_name);
    return;
  }
  // XNNPACK says how many bytes the names take when the buffer is short.
  std::vector<char> names;
  s = xnn_get_runtime_profiling_info(step->runtime, xnn_profile_info_operator_name, 0, nullptr,
                                     &size);
  if (s == xnn_status_out_of_memory) {
    names.resize(size);
    s = xnn_get_runtime_profiling_info(step->runtime, xnn_profile_info_operator_name,
                                       names.size(), names.data(), &size);
  }
  if (s != xnn_status_success) {
    EMBER_LOG(Debug, "XNNPACK delegate %s: no operator names", step->trace_name);
    return;
  }
  // Names past the end of what XNNPACK wrote (never expected) stay empty.
  const char* name = names.data();
  const char* const end = names.data() + names.size();
  for (size_t i = 0; i < count; ++i) {
    const size_t left = size_t(end - name);
    const void* nul = left > 0 ? std::memchr(name, 0, left) : nullptr;
    const size_t len = nul != nullptr ? size_t(static_cast<const char*>(nul) - name) : left;
    char event[160];
    std::snprintf(event, sizeof(event), "%.*s #%zu", int(len), name, *next_index + i);
    step->op_names.insert(step->op_names.end(), event, event + std::strlen(event) + 1);
    name += len < left ? len + 1 : left;
  }
  step->op_times.assign(count, 0);
  *next_index += count;
}

// One event per XNNPACK operator of `step`, laid end to end from `start`
// and clamped to `end` (the invoke's measured window).
void log_operator_times(Step* step, uint64_t start, uint64_t end, EventTracer& tracer) {
  size_t size = 0;
  const xnn_status s = xnn_get_runtime_profiling_info(
      step->runtime, xnn_profile_info_operator_timing, step->op_times.size() * sizeof(uint64_t),
      step->op_times.data(), &size);
  if (s != xnn_status_success) return;  // the operator count changed: no events
  const char* name = step->op_names.data();
  uint64_t at = start;
  for (const uint64_t us : step->op_times) {
    const uint64_t ns = us * 1000;
    const uint64_t finish = ns < end - at ? at + ns : end;
    tracer.log_profiling_delegate(name, kUnsetDelegateDebugId, at, finish);
    at = finish;
    name += std::strlen(name) + 1;
  }
}

// The step's outputs as contiguous tensors; an XNNPACK step's current
// shapes come from its runtime (a dynamic plan reshapes it).
void log_step_outputs(const Plan& plan, const Step& step, EventTracer& tracer) {
  for (const uint32_t v : step.outputs) {
    const Value& value = plan.graph.values[v];
    ScalarType type = ScalarType::Float;
    if (scalar_type_of(value.dtype, &type) != Error::Ok) continue;
    size_t rank = value.num_dims;
    size_t dims[kMaxDims];
    std::copy(value.dims, value.dims + rank, dims);
    if (step.native == nullptr &&
        xnn_get_external_value_shape(step.runtime, external_slot(step, v), &rank, dims) !=
            xnn_status_success) {
      continue;
    }
    SizesType sizes[kMaxDims];
    DimOrderType order[kMaxDims];
    StridesType strides[kMaxDims];
    for (size_t d = 0; d < rank; ++d) {
      sizes[d] = SizesType(dims[d]);
      order[d] = DimOrderType(d);
    }
    TensorImpl impl(type, rank, sizes, plan.ptrs[v], order, strides);
    tracer.log_delegate_output(step.trace_name, kUnsetDelegateDebugId, Tensor(&impl));
  }
}

}  // namespace

void describe_steps(Plan* plan) {
  size_t next_operator = 0;
  for (size_t i = 0; i < plan->steps.size(); ++i) {
    Step& step = plan->steps[i];
    char kind[64];
    step_kind(step, kind, sizeof(kind));
    std::snprintf(step.trace_name, sizeof(step.trace_name), "%s %zu: nodes %zu-%zu", kind, i,
                  step.first_node, step.end_node - 1);
    find_outputs(plan->graph, &step);
    if (plan->profiling && step.native == nullptr) describe_operators(&step, &next_operator);
  }
}

Error run_plan_traced(Plan* plan, EventTracer& tracer) {
  EMBER_RETURN_IF_ERROR(check_plan_pool(*plan));
  const bool profile = tracer.profile_instructions();
  const bool outputs = tracer.debug_level() >= EventTracerDebugLevel::IntermediateOutputs;
  for (Step& step : plan->steps) {
    EventTracerEntry entry;
    if (profile) entry = tracer.start_profiling_delegate(step.trace_name, kUnsetDelegateDebugId);
    Error err = prepare_step(plan, &step);
    const uint64_t start = profile ? event_tracer_ticks() : 0;
    if (err == Error::Ok) err = invoke_step(plan, &step);
    if (profile && err == Error::Ok && !step.op_times.empty()) {
      log_operator_times(&step, start, event_tracer_ticks(), tracer);
    }
    if (profile) tracer.end_profiling_delegate(entry);
    if (err != Error::Ok) return err;
    if (outputs) log_step_outputs(*plan, step, tracer);
  }
  return Error::Ok;
}

}  // namespace ember::xnnpack
