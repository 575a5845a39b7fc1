#include "backends/xnnpack/xnnpack_backend.h"

#include <cstdio>
#include <new>

#include "backends/xnnpack/xnn_compiler.h"
#include "runtime/backend/backend.h"
#include "runtime/platform/log.h"

namespace ember::xnnpack {
namespace {

Error scalar_type_for(xnn_datatype t, ScalarType* out) {
  switch (t) {
    case xnn_datatype_fp32: *out = ScalarType::Float; return Error::Ok;
    case xnn_datatype_qint8: *out = ScalarType::Char; return Error::Ok;
    case xnn_datatype_quint8: *out = ScalarType::Byte; return Error::Ok;
    case xnn_datatype_qint32: *out = ScalarType::Int; return Error::Ok;
    default: return Error::NotSupported;
  }
}

// Binds argument `arg` to graph value `v`, checking kind, dtype and size.
Error bind(Plan* plan, EValue* arg, uint32_t v, size_t index, const char* what) {
  const Value& value = plan->graph.values[v];
  EMBER_CHECK_OR_RETURN(arg != nullptr && arg->is_tensor(), Error::InvalidArgument,
                        "XNNPACK delegate %s %zu is not a tensor", what, index);
  const Tensor t = arg->to_tensor();
  ScalarType expected = ScalarType::Float;
  EMBER_CHECK_OR_RETURN(scalar_type_for(value.dtype, &expected) == Error::Ok &&
                            t.scalar_type() == expected,
                        Error::InvalidArgument,
                        "XNNPACK delegate %s %zu: tensor dtype %d does not match the "
                        "delegate's", what, index, int(t.scalar_type()));
  EMBER_CHECK_OR_RETURN(size_t(t.numel()) == value.numel, Error::InvalidArgument,
                        "XNNPACK delegate %s %zu has %lld elements; the delegate was built "
                        "for %zu (XNNPACK 2022 runs static shapes only)", what, index,
                        static_cast<long long>(t.numel()), value.numel);
  plan->ptrs[v] = t.mutable_data_ptr();
  return Error::Ok;
}

// Load-time check of the DelegateCall's values (when the runtime gives
// them): the count, and that no tensor has a dynamic shape. This XNNPACK
// (2022) runs static shapes only; a bounded-dynamic input or output is
// refused here, at load, rather than on the first execution with a smaller
// shape.
Error check_call_args(const Plan& plan, Span<EValue* const> args) {
  if (args.size() == 0) {
    return Error::Ok;  // not called, or a runtime that does not say
  }
  const size_t n_in = plan.graph.inputs.size();
  const size_t n_out = plan.graph.outputs.size();
  EMBER_CHECK_OR_RETURN(args.size() == n_in + n_out, Error::InvalidProgram,
                        "XNNPACK delegate takes %zu inputs and %zu outputs; the call "
                        "passes %zu values", n_in, n_out, args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const EValue* arg = args[i];
    if (arg == nullptr || !arg->is_tensor()) {
      continue;  // execute() names it
    }
    const Tensor t = arg->to_tensor();
    if (t.shape_dynamism() == ShapeDynamism::Static) {
      continue;
    }
    char dims[96] = "";
    size_t used = 0;
    for (size_t d = 0; d < t.dim() && used < sizeof(dims); ++d) {
      used += size_t(snprintf(dims + used, sizeof(dims) - used, "%s%d", d ? ", " : "",
                              int(t.sizes()[d])));
    }
    set_error_message("XNNPACK delegate %s %zu has a dynamic shape (upper bound [%s]); "
                      "this XNNPACK (2022) runs static shapes only: export the model "
                      "with static shapes",
                      i < n_in ? "input" : "output", i < n_in ? i : i - n_in, dims);
    return Error::NotSupported;
  }
  return Error::Ok;
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
    Error err = build_graph(payload, context.named_data(), &plan->graph);
    if (err == Error::Ok) err = check_call_args(*plan, context.call_args());
    if (err == Error::Ok) err = compile_plan(plan);
    if (err != Error::Ok) {
      delete plan;
      return err;
    }
    size_t native = 0;
    for (const Step& s : plan->steps) native += s.native ? 1 : 0;
    EMBER_LOG(Debug, "XNNPACK delegate (method '%s'): %zu nodes, %zu values, %zu steps "
              "(%zu native)", context.method_name(), plan->graph.nodes.size(),
              plan->graph.values.size(), plan->steps.size(), native);
    return static_cast<DelegateHandle*>(plan);
  }

  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override {
    Plan* plan = static_cast<Plan*>(handle);
    const size_t n_in = plan->graph.inputs.size();
    const size_t n_out = plan->graph.outputs.size();
    EMBER_CHECK_OR_RETURN(args.size() == n_in + n_out, Error::InvalidProgram,
                          "XNNPACK delegate takes %zu inputs and %zu outputs; the call "
                          "passes %zu values", n_in, n_out, args.size());
    for (size_t i = 0; i < n_in; ++i) {
      EMBER_RETURN_IF_ERROR(bind(plan, args[i], plan->graph.inputs[i], i, "input"));
    }
    for (size_t i = 0; i < n_out; ++i) {
      EMBER_RETURN_IF_ERROR(bind(plan, args[n_in + i], plan->graph.outputs[i], i, "output"));
    }
    return run_plan(plan);
  }

  void destroy(DelegateHandle* handle) const override {
    delete static_cast<Plan*>(handle);
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
}  // namespace ember::xnnpack
