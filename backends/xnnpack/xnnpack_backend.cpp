#include "backends/xnnpack/xnnpack_backend.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <new>

#include "backends/xnnpack/xnn_compiler.h"
#include "backends/xnnpack/xnn_shared_workspace.h"
#include "backends/xnnpack/xnn_trace.h"
#include "runtime/backend/backend.h"
#include "runtime/platform/log.h"

namespace ember::xnnpack {
namespace {

// Shapes of a dynamic delegate's arguments live on the stack at execute.
constexpr size_t kMaxDynamicArgs = 16;

// The tensor behind argument `arg` for graph value `v`: kind and dtype.
Error arg_tensor(const Plan& plan, EValue* arg, uint32_t v, size_t index, const char* what,
                 Tensor* out) {
  const Value& value = plan.graph.values[v];
  EMBER_CHECK_OR_RETURN(arg != nullptr && arg->is_tensor(), Error::InvalidArgument,
                        "XNNPACK delegate %s %zu is not a tensor", what, index);
  *out = arg->to_tensor();
  ScalarType expected = ScalarType::Float;
  EMBER_CHECK_OR_RETURN(scalar_type_of(value.dtype, &expected) == Error::Ok &&
                            out->scalar_type() == expected,
                        Error::InvalidArgument,
                        "XNNPACK delegate %s %zu: tensor dtype %d does not match the "
                        "delegate's", what, index, int(out->scalar_type()));
  return Error::Ok;
}

// Points value `v` at the tensor's memory, which must exist: a program
// exported without planned graph inputs or outputs
// (MemoryPlanningPass(alloc_graph_input=False, alloc_graph_output=False))
// leaves them to the application, and XNNPACK must never see a null.
Error bind_data(Plan* plan, const Tensor& t, uint32_t v, size_t index, const char* what) {
  EMBER_CHECK_OR_RETURN(t.numel() == 0 || t.mutable_data_ptr() != nullptr,
                        Error::InvalidState,
                        "XNNPACK delegate %s %zu has no memory: the program leaves this "
                        "graph %s to the application (exported without memory planning "
                        "for it); give it a buffer before execute", what, index, what);
  plan->ptrs[v] = t.mutable_data_ptr();
  return Error::Ok;
}

// Static plans: the element count the blob was built for (`shape` unused,
// may be null). Dynamic plans: the tensor's own shape, as upstream passes
// it to XNNPACK: any rank up to XNNPACK's limit (a 0-d tensor for a value
// stored as [1] is common in exported LLMs), every dim at least 1 (XNNPACK
// runs no empty tensor). The stored dims are not a limit: XNNPACK resizes
// its own buffers at reshape, and each output must still fit its tensor.
Error check_input_shape(const Plan& plan, const Tensor& t, uint32_t v, size_t index,
                        Shape* shape) {
  const Value& value = plan.graph.values[v];
  if (!plan.dynamic_shapes) {
    EMBER_CHECK_OR_RETURN(size_t(t.numel()) == value.numel, Error::InvalidArgument,
                          "XNNPACK delegate input %zu has %lld elements; the delegate was "
                          "built for %zu", index, static_cast<long long>(t.numel()),
                          value.numel);
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(t.dim() <= kMaxDims, Error::InvalidArgument,
                        "XNNPACK delegate input %zu has %zu dims; XNNPACK takes at most %zu",
                        index, t.dim(), kMaxDims);
  shape->rank = t.dim();
  for (size_t d = 0; d < shape->rank; ++d) {
    EMBER_CHECK_OR_RETURN(t.sizes()[d] >= 1, Error::InvalidArgument,
                          "XNNPACK delegate input %zu is empty (size %d at dim %zu); "
                          "XNNPACK runs no empty tensor", index, int(t.sizes()[d]), d);
    shape->dims[d] = size_t(t.sizes()[d]);
  }
  return Error::Ok;
}

// Writes XNNPACK's output shape `xnn` as `rank` sizes for the output
// tensor. The ranks may differ only by leading 1s (a 0-d input makes
// XNNPACK drop or add broadcast dims): those are removed or added.
bool fit_output_rank(const Shape& xnn, size_t rank, SizesType* sizes) {
  size_t skip = 0;  // XNNPACK's leading dims dropped
  while (xnn.rank - skip > rank && xnn.dims[skip] == 1) ++skip;
  if (xnn.rank - skip > rank) return false;
  const size_t pad = rank - (xnn.rank - skip);  // leading 1s added
  for (size_t d = 0; d < rank; ++d) {
    sizes[d] = d < pad ? 1 : SizesType(xnn.dims[skip + d - pad]);
  }
  return true;
}

Error resize_output(const Tensor& t, const Shape& xnn, size_t index) {
  SizesType sizes[kMaxDims];
  if (t.dim() > kMaxDims || !fit_output_rank(xnn, t.dim(), sizes)) {
    char got[96];
    format_dims(xnn.dims, xnn.rank, got, sizeof(got));
    set_error_message("XNNPACK delegate output %zu: XNNPACK computed shape %s, which a "
                      "%zu-dim output tensor cannot hold", index, got, t.dim());
    return Error::InvalidArgument;
  }
  const Error err = resize_tensor(t, {sizes, t.dim()});
  if (err != Error::Ok) append_error_message(" (XNNPACK delegate output %zu)", index);
  return err;
}

// The DelegateCall passes the graph's inputs, then its outputs.
Error check_arg_count(const Graph& g, size_t count) {
  EMBER_CHECK_OR_RETURN(count == g.inputs.size() + g.outputs.size(), Error::InvalidProgram,
                        "XNNPACK delegate takes %zu inputs and %zu outputs; the call "
                        "passes %zu values", g.inputs.size(), g.outputs.size(), count);
  return Error::Ok;
}

// Load-time check of the DelegateCall's values (when the runtime gives
// them): the count, and whether any has a bounded-dynamic shape (the plan
// then follows input shapes at execute).
Error check_call_args(Plan* plan, Span<EValue* const> args) {
  if (args.size() == 0) {
    return Error::Ok;  // not called, or a runtime that does not say
  }
  EMBER_RETURN_IF_ERROR(check_arg_count(plan->graph, args.size()));
  const size_t n_in = plan->graph.inputs.size();
  const size_t n_out = plan->graph.outputs.size();
  for (size_t i = 0; i < args.size(); ++i) {
    const EValue* arg = args[i];
    if (arg != nullptr && arg->is_tensor() &&
        arg->to_tensor().shape_dynamism() != ShapeDynamism::Static) {
      plan->dynamic_shapes = true;
    }
  }
  EMBER_CHECK_OR_RETURN(!plan->dynamic_shapes ||
                            (n_in <= kMaxDynamicArgs && n_out <= kMaxDynamicArgs),
                        Error::NotSupported,
                        "XNNPACK delegate with bounded-dynamic shapes takes at most %zu inputs "
                        "and %zu outputs; this one has %zu and %zu", kMaxDynamicArgs,
                        kMaxDynamicArgs, n_in, n_out);
  return Error::Ok;
}

// Binds inputs, reshapes a dynamic plan when an input's shape changed
// (resizing the outputs to what XNNPACK computes), then binds outputs.
Error bind_arguments(Plan* plan, Span<EValue*> args) {
  const Graph& g = plan->graph;
  EMBER_RETURN_IF_ERROR(check_arg_count(g, args.size()));
  const size_t n_in = g.inputs.size();
  const size_t n_out = g.outputs.size();
  Shape in_shapes[kMaxDynamicArgs];
  const bool track = plan->dynamic_shapes;  // check_call_args bounded n_in
  bool changed = false;
  for (size_t i = 0; i < n_in; ++i) {
    Tensor t;
    EMBER_RETURN_IF_ERROR(arg_tensor(*plan, args[i], g.inputs[i], i, "input", &t));
    Shape* shape = track ? &in_shapes[i] : nullptr;
    EMBER_RETURN_IF_ERROR(check_input_shape(*plan, t, g.inputs[i], i, shape));
    changed = changed || (track && *shape != plan->input_shapes[i]);
    EMBER_RETURN_IF_ERROR(bind_data(plan, t, g.inputs[i], i, "input"));
  }
  Shape out_shapes[kMaxDynamicArgs];
  if (changed) EMBER_RETURN_IF_ERROR(reshape_plan(plan, in_shapes, out_shapes));
  for (size_t i = 0; i < n_out; ++i) {
    const uint32_t v = g.outputs[i];
    Tensor t;
    EMBER_RETURN_IF_ERROR(arg_tensor(*plan, args[n_in + i], v, i, "output", &t));
    if (changed) {
      EMBER_RETURN_IF_ERROR(resize_output(t, out_shapes[i], i));
    } else if (!plan->dynamic_shapes) {
      EMBER_CHECK_OR_RETURN(size_t(t.numel()) == g.values[v].numel, Error::InvalidArgument,
                            "XNNPACK delegate output %zu has %lld elements; the delegate "
                            "was built for %zu", i, static_cast<long long>(t.numel()),
                            g.values[v].numel);
    }
    EMBER_RETURN_IF_ERROR(bind_data(plan, t, v, i, "output"));
  }
  return Error::Ok;
}

// memory_stats(): live delegates' totals, updated at init and destroy.
std::atomic<size_t> g_delegates{0};
std::atomic<size_t> g_packed_bytes{0};
std::atomic<size_t> g_released_bytes{0};

void count_plan(const Plan& plan, bool add) {
  const size_t packed = plan.packed_bytes;
  const size_t released = plan.released_bytes;
  if (add) {
    g_delegates += 1;
    g_packed_bytes += packed;
    g_released_bytes += released;
  } else {
    g_delegates -= 1;
    g_packed_bytes -= packed;
    g_released_bytes -= released;
  }
}

class XnnpackBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }

  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override {
    Payload payload;
    EMBER_RETURN_IF_ERROR(parse_payload(processed->data(), processed->size(), &payload));
    Plan* plan = new (std::nothrow) Plan();
    EMBER_CHECK_OR_RETURN(plan != nullptr, Error::DelegateMemoryAllocationFailed,
                          "cannot allocate the XNNPACK delegate state");
    plan->method_key = context.allocator();  // one workspace per method
    Error err = build_graph(payload, context.named_data(), &plan->graph);
    if (err == Error::Ok) err = check_call_args(plan, context.call_args());
    plan->profiling = context.event_tracer() != nullptr;
    if (err == Error::Ok) err = compile_plan(plan);
    if (err != Error::Ok) {
      delete plan;
      return err;
    }
    describe_steps(plan);
    count_plan(*plan, /*add=*/true);
    size_t native = 0;
    for (const Step& s : plan->steps) native += s.native != nullptr ? 1 : 0;
    char method[64];
    printable_name(context.method_name(), method, sizeof(method));
    EMBER_LOG(Debug, "XNNPACK delegate (method '%s'): %zu nodes, %zu values, %zu steps "
              "(%zu native)", method, plan->graph.nodes.size(),
              plan->graph.values.size(), plan->steps.size(), native);
    return static_cast<DelegateHandle*>(plan);
  }

  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override {
    Plan* plan = static_cast<Plan*>(handle);
    EMBER_RETURN_IF_ERROR(bind_arguments(plan, args));
    EventTracer* tracer = context.event_tracer();
    return tracer == nullptr ? run_plan(plan) : run_plan_traced(plan, *tracer);
  }

  void destroy(DelegateHandle* handle) const override {
    Plan* plan = static_cast<Plan*>(handle);
    if (plan != nullptr) count_plan(*plan, /*add=*/false);
    delete plan;
  }
};

const XnnpackBackend kBackend;

const bool kRegistered = [] {
  const Error err = register_backend(kXnnpackBackendId, &kBackend);
  if (err != Error::Ok) {
    EMBER_LOG(Error, "XnnpackBackend not registered: %s", error_name(err));
  }
  return err == Error::Ok;
}();

}  // namespace

MemoryStats memory_stats() {
  MemoryStats stats;
  stats.delegates = g_delegates.load();
  stats.packed_weight_bytes = g_packed_bytes.load();
  stats.released_constant_bytes = g_released_bytes.load();
  stats.workspaces = live_workspaces();
  return stats;
}

}  // namespace ember::xnnpack
