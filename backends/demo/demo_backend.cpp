#include "backends/demo/demo_backend.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include "backends/demo/demo_blob.h"
#include "kernels/math/gemm.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error_message.h"
#include "runtime/core/tensor.h"
#include "runtime/platform/log.h"

namespace ember::demo {
namespace {

// An operand that is the previous instruction's result, not an argument.
constexpr uint16_t kPrevious = 0xffff;
// Most values one DelegateCall may pass (inputs and the output).
constexpr size_t kMaxArgs = kMaxDemoInstructions + 2;

struct Shape {
  size_t rank = 0;
  SizesType sizes[kMaxTensorDim] = {};

  int64_t numel() const {
    int64_t n = 1;
    for (size_t d = 0; d < rank; ++d) n *= sizes[d];
    return n;
  }
};

// One instruction, ready to run: where its operands and result live.
struct Step {
  DemoOp op;
  uint16_t lhs;          // argument index, or kPrevious
  uint16_t rhs;          // argument index (add, mm); unused for sin
  int32_t debug_handle;  // -1: none
  int64_t numel;         // result elements
  int64_t lhs_numel;     // add: operand elements (a smaller one repeats)
  int64_t rhs_numel;
  size_t m, k, n;        // mm: [m, k] x [k, n]
  Shape shape;           // of the result (traced intermediate outputs)
};

struct Plan {
  Step* steps;
  size_t num_steps;
  size_t num_inputs;
  int64_t* arg_numel;  // inputs then the output, checked at execute
  bool bound;          // false: init saw no call values, execute refuses
  int64_t scratch_numel = 0;   // floats per scratch buffer
  size_t scratch_buffers = 0;  // 0, 1 or 2, from the temp allocator
};

// Inputs the chain of `count` instructions takes (demo_backend.h).
size_t chain_inputs(const DemoInstruction* instructions, size_t count) {
  size_t inputs = instructions[0].op == DemoOp::Sin ? 1 : 2;
  for (size_t i = 1; i < count; ++i) {
    inputs += instructions[i].op == DemoOp::Sin ? 0 : 1;
  }
  return inputs;
}

void format_shape(const Shape& s, char* out, size_t size) {
  size_t used = size_t(std::snprintf(out, size, "["));
  for (size_t d = 0; d < s.rank && used < size; ++d) {
    used += size_t(std::snprintf(out + used, size - used, d == 0 ? "%d" : ", %d",
                                 int(s.sizes[d])));
  }
  if (used < size) std::snprintf(out + used, size - used, "]");
}

// The value of argument `index` as the plan needs it: a static, contiguous
// float32 tensor.
Error arg_shape(const EValue* arg, size_t index, Shape* shape) {
  EMBER_CHECK_OR_RETURN(arg != nullptr && arg->is_tensor(), Error::NotSupported,
                        "BackendWithCompilerDemo: call value %zu is not a tensor", index);
  const Tensor t = arg->to_tensor();
  EMBER_CHECK_OR_RETURN(t.scalar_type() == ScalarType::Float, Error::NotSupported,
                        "BackendWithCompilerDemo: call value %zu has dtype %d; only float32 "
                        "runs", index, int(t.scalar_type()));
  EMBER_CHECK_OR_RETURN(t.shape_dynamism() == ShapeDynamism::Static, Error::NotSupported,
                        "BackendWithCompilerDemo: call value %zu has a dynamic shape; only "
                        "static shapes run", index);
  EMBER_CHECK_OR_RETURN(t.is_contiguous(), Error::NotSupported,
                        "BackendWithCompilerDemo: call value %zu is not contiguous", index);
  shape->rank = t.dim();
  for (size_t d = 0; d < t.dim(); ++d) shape->sizes[d] = t.sizes()[d];
  return Error::Ok;
}

// True when `operand`, leading 1s dropped, equals the trailing dims of
// `result`: then operand element j % numel lines up with result element j.
bool repeats_into(const Shape& operand, const Shape& result) {
  size_t first = 0;
  while (first < operand.rank && operand.sizes[first] == 1) ++first;
  const size_t rank = operand.rank - first;
  if (rank > result.rank) return false;
  for (size_t d = 0; d < rank; ++d) {
    if (operand.sizes[first + d] != result.sizes[result.rank - rank + d]) return false;
  }
  return true;
}

// Result shape of step `i` from its operand shapes; checks what the step
// can run and the element count the blob recorded.
Error infer_step(size_t i, Step* step, const Shape& lhs, const Shape& rhs, Shape* result) {
  const char* name = demo_op_name(step->op);
  char a[128], b[128];
  format_shape(lhs, a, sizeof(a));
  format_shape(rhs, b, sizeof(b));
  switch (step->op) {
    case DemoOp::Sin:
      *result = lhs;
      break;
    case DemoOp::Mm:
      EMBER_CHECK_OR_RETURN(lhs.rank == 2 && rhs.rank == 2 && lhs.sizes[1] == rhs.sizes[0],
                            Error::NotSupported,
                            "BackendWithCompilerDemo: instruction %zu (%s): operands %s and %s "
                            "(wired as a chain, demo_backend.h) cannot be multiplied", i, name,
                            a, b);
      step->m = size_t(lhs.sizes[0]);
      step->k = size_t(lhs.sizes[1]);
      step->n = size_t(rhs.sizes[1]);
      result->rank = 2;
      result->sizes[0] = lhs.sizes[0];
      result->sizes[1] = rhs.sizes[1];
      break;
    case DemoOp::Add: {
      result->rank = lhs.rank > rhs.rank ? lhs.rank : rhs.rank;
      for (size_t d = 0; d < result->rank; ++d) {
        const size_t from_end = result->rank - 1 - d;
        const SizesType x = from_end < lhs.rank ? lhs.sizes[lhs.rank - 1 - from_end] : 1;
        const SizesType y = from_end < rhs.rank ? rhs.sizes[rhs.rank - 1 - from_end] : 1;
        EMBER_CHECK_OR_RETURN(x == y || x == 1 || y == 1, Error::NotSupported,
                              "BackendWithCompilerDemo: instruction %zu (%s): operands %s "
                              "and %s (wired as a chain, demo_backend.h) do not broadcast",
                              i, name, a, b);
        result->sizes[d] = x == 1 ? y : x;
      }
      EMBER_CHECK_OR_RETURN(repeats_into(lhs, *result) && repeats_into(rhs, *result),
                            Error::NotSupported,
                            "BackendWithCompilerDemo: instruction %zu (%s): operands %s and %s "
                            "broadcast along a leading dimension; only same shapes, scalars "
                            "and trailing-dims operands run", i, name, a, b);
      step->lhs_numel = lhs.numel();
      step->rhs_numel = rhs.numel();
      break;
    }
  }
  const int64_t numel = result->numel();
  EMBER_CHECK_OR_RETURN(numel == step->numel, Error::InvalidProgram,
                        "BackendWithCompilerDemo: instruction %zu (%s) records %lld result "
                        "elements; its operands %s%s%s give %lld", i, name,
                        static_cast<long long>(step->numel), a,
                        step->op == DemoOp::Sin ? "" : " and ", step->op == DemoOp::Sin ? "" : b,
                        static_cast<long long>(numel));
  return Error::Ok;
}

// Wires the steps to the call's values (demo_backend.h), checks every
// shape and gives each intermediate result its scratch.
Error bind_plan(Plan* plan, Span<EValue* const> args) {
  const size_t n_in = plan->num_inputs;
  EMBER_CHECK_OR_RETURN(args.size() == n_in + 1, Error::NotSupported,
                        "BackendWithCompilerDemo: a chain of %zu instructions takes %zu inputs "
                        "and gives 1 output (Ember's wiring of the demo blob); the call "
                        "passes %zu values", plan->num_steps, n_in, args.size());
  Shape shapes[kMaxArgs];
  for (size_t i = 0; i < args.size(); ++i) {
    EMBER_RETURN_IF_ERROR(arg_shape(args[i], i, &shapes[i]));
    plan->arg_numel[i] = shapes[i].numel();
  }
  Shape previous;
  int64_t scratch_numel = 0;
  for (size_t i = 0; i < plan->num_steps; ++i) {
    Step* step = &plan->steps[i];
    const Shape& lhs = step->lhs == kPrevious ? previous : shapes[step->lhs];
    const Shape& rhs = step->op == DemoOp::Sin ? lhs : shapes[step->rhs];
    Shape result;
    EMBER_RETURN_IF_ERROR(infer_step(i, step, lhs, rhs, &result));
    step->shape = result;
    if (i + 1 < plan->num_steps && result.numel() > scratch_numel) {
      scratch_numel = result.numel();
    }
    previous = result;
  }
  const Shape& out = shapes[n_in];
  char want[128], got[128];
  format_shape(previous, want, sizeof(want));
  format_shape(out, got, sizeof(got));
  bool same = out.rank == previous.rank;
  for (size_t d = 0; same && d < out.rank; ++d) same = out.sizes[d] == previous.sizes[d];
  EMBER_CHECK_OR_RETURN(same, Error::InvalidProgram,
                        "BackendWithCompilerDemo: the chain's result is %s; the call's output "
                        "is %s", want, got);
  // Intermediate results alternate between two buffers, so an mm never
  // writes the buffer it reads; execute takes them from the temp allocator.
  plan->scratch_buffers = plan->num_steps > 2 ? 2 : plan->num_steps - 1;
  plan->scratch_numel = scratch_numel > 0 ? scratch_numel : 1;
  plan->bound = true;
  return Error::Ok;
}

Error check_compile_specs(Span<const CompileSpec> specs) {
  for (size_t i = 0; i < specs.size(); ++i) {
    const CompileSpec& spec = specs[i];
    if (spec.key == nullptr || std::strcmp(spec.key, "max_value") != 0) {
      if (spec.key != nullptr) {
        EMBER_LOG(Debug, "BackendWithCompilerDemo: compile spec '%s' ignored",
                  PrintableName(spec.key).c_str());
      }
      continue;
    }
    EMBER_CHECK_OR_RETURN(spec.value.size() >= 1 && spec.value.size() <= 8,
                          Error::InvalidProgram,
                          "BackendWithCompilerDemo: compile spec max_value holds %zu bytes; "
                          "1 to 8 (little-endian) are accepted", spec.value.size());
    uint64_t value = 0;
    for (size_t b = 0; b < spec.value.size(); ++b) value |= uint64_t(spec.value[b]) << (8 * b);
    EMBER_CHECK_OR_RETURN(value <= uint64_t(kDemoMaxValue), Error::InvalidArgument,
                          "BackendWithCompilerDemo: compile spec max_value is %llu; this "
                          "backend supports at most %lld",
                          static_cast<unsigned long long>(value),
                          static_cast<long long>(kDemoMaxValue));
  }
  return Error::Ok;
}

// --- execute ----------------------------------------------------------------

void run_add(const Step& s, const float* a, const float* b, float* out) {
  const int64_t n = s.numel;
  if (s.lhs_numel == n && s.rhs_numel == n) {
    for (int64_t j = 0; j < n; ++j) out[j] = a[j] + b[j];
    return;
  }
  for (int64_t j = 0; j < n; ++j) out[j] = a[j % s.lhs_numel] + b[j % s.rhs_numel];
}

void run_mm(const Step& s, const float* a, const float* b, float* out) {
  if (s.m == 0 || s.n == 0) return;
  if (s.k == 0) {
    std::memset(out, 0, s.m * s.n * sizeof(float));
    return;
  }
  math::gemm_f32(s.m, s.n, s.k, a, s.k, b, s.n, out, s.n);
}

void run_sin(const Step& s, const float* a, float* out) {
  for (int64_t j = 0; j < s.numel; ++j) out[j] = std::sin(a[j]);
}

void run_step(const Step& s, const float* lhs, const float* rhs, float* out) {
  switch (s.op) {
    case DemoOp::Add:
      run_add(s, lhs, rhs, out);
      return;
    case DemoOp::Mm:
      run_mm(s, lhs, rhs, out);
      return;
    case DemoOp::Sin:
      run_sin(s, lhs, out);
      return;
  }
}

// A step's result as a tensor, for the tracer.
void log_result(EventTracer& tracer, Step& s, float* data) {
  DimOrderType order[kMaxTensorDim];
  StridesType strides[kMaxTensorDim];
  for (size_t d = 0; d < s.shape.rank; ++d) order[d] = DimOrderType(d);
  TensorImpl impl(ScalarType::Float, s.shape.rank, s.shape.sizes, data, order, strides);
  if (s.debug_handle >= 0) {
    tracer.log_delegate_output(nullptr, s.debug_handle, Tensor(&impl));
  } else {
    tracer.log_delegate_output(demo_op_name(s.op), kUnsetDelegateDebugId, Tensor(&impl));
  }
}

// The call's values: as init saw them (count, kinds, element counts), with
// memory.
Error check_args(const Plan& plan, Span<EValue*> args) {
  EMBER_CHECK_OR_RETURN(plan.bound, Error::InvalidState,
                        "BackendWithCompilerDemo: the delegate was loaded without its call's "
                        "values, so its shapes were never checked");
  EMBER_CHECK_OR_RETURN(args.size() == plan.num_inputs + 1, Error::InvalidArgument,
                        "BackendWithCompilerDemo: the call passes %zu values; the delegate "
                        "takes %zu", args.size(), plan.num_inputs + 1);
  for (size_t i = 0; i < args.size(); ++i) {
    const EValue* arg = args[i];
    EMBER_CHECK_OR_RETURN(arg != nullptr && arg->is_tensor() &&
                              arg->to_tensor().scalar_type() == ScalarType::Float &&
                              arg->to_tensor().numel() == plan.arg_numel[i],
                          Error::InvalidArgument,
                          "BackendWithCompilerDemo: call value %zu is not the float32 tensor "
                          "of %lld elements the delegate was loaded with", i,
                          static_cast<long long>(plan.arg_numel[i]));
    EMBER_CHECK_OR_RETURN(plan.arg_numel[i] == 0 || arg->to_tensor().const_data_ptr() != nullptr,
                          Error::InvalidState,
                          "BackendWithCompilerDemo: call value %zu has no memory", i);
  }
  return Error::Ok;
}

class DemoBackend final : public BackendInterface {
 public:
  bool is_available() const override { return true; }

  // The plan, its steps and the argument sizes (init), rounded for their
  // alignment: the most any blob makes init take.
  size_t init_allocator_bytes() const override {
    constexpr size_t kAlign = MemoryAllocator::kDefaultAlignment;
    return sizeof(Plan) + kMaxDemoInstructions * sizeof(Step) +
           (kMaxDemoInstructions + 2) * sizeof(int64_t) + 3 * kAlign;
  }

  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override {
    EMBER_RETURN_IF_ERROR(check_compile_specs(compile_specs));
    size_t count = 0;
    MemoryAllocator* allocator = context.allocator();
    DemoInstruction instructions[kMaxDemoInstructions];
    EMBER_RETURN_IF_ERROR(parse_demo_blob(processed->data(), processed->size(), instructions,
                                          kMaxDemoInstructions, &count));
    Plan* plan = allocator->allocate_array<Plan>(1);
    Step* steps = allocator->allocate_array<Step>(count);
    const size_t n_in = chain_inputs(instructions, count);
    int64_t* arg_numel = allocator->allocate_array<int64_t>(n_in + 1);
    EMBER_CHECK_OR_RETURN(plan != nullptr && steps != nullptr && arg_numel != nullptr,
                          Error::MemoryAllocationFailed,
                          "BackendWithCompilerDemo: the method allocator has no room for the "
                          "plan of %zu instructions", count);
    new (plan) Plan{steps, count, n_in, arg_numel, false};
    uint16_t next_input = 0;
    for (size_t i = 0; i < count; ++i) {
      const DemoInstruction& ins = instructions[i];
      Step s{};
      s.op = ins.op;
      s.numel = ins.numel;
      s.debug_handle = ins.debug_handle;
      s.lhs = i == 0 ? next_input++ : kPrevious;
      s.rhs = ins.op == DemoOp::Sin ? kPrevious : next_input++;
      new (&steps[i]) Step(s);
    }
    if (context.call_args().size() != 0) {
      EMBER_RETURN_IF_ERROR(bind_plan(plan, context.call_args()));
    }
    processed->free();
    char method[64];
    printable_name(context.method_name(), method, sizeof(method));
    EMBER_LOG(Debug, "BackendWithCompilerDemo (method '%s'): %zu instructions, %zu inputs",
              method, count, n_in);
    return static_cast<DelegateHandle*>(plan);
  }

  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override {
    Plan* plan = static_cast<Plan*>(handle);
    EMBER_RETURN_IF_ERROR(check_args(*plan, args));
    EventTracer* tracer = context.event_tracer();
    const bool profile = tracer != nullptr && tracer->profile_instructions();
    const bool log = tracer != nullptr &&
                     tracer->debug_level() >= EventTracerDebugLevel::IntermediateOutputs;
    float* output = args[plan->num_inputs]->to_tensor().mutable_data_ptr<float>();
    float* scratch[2] = {nullptr, nullptr};
    for (size_t b = 0; b < plan->scratch_buffers; ++b) {
      scratch[b] = context.temp_allocator() == nullptr
                       ? nullptr
                       : context.temp_allocator()->allocate_array<float>(size_t(plan->scratch_numel));
      EMBER_CHECK_OR_RETURN(scratch[b] != nullptr, Error::MemoryAllocationFailed,
                            "BackendWithCompilerDemo: the temp allocator has no room for %lld "
                            "floats of scratch", static_cast<long long>(plan->scratch_numel));
    }
    const float* previous = nullptr;
    for (size_t i = 0; i < plan->num_steps; ++i) {
      Step& s = plan->steps[i];
      const float* lhs =
          s.lhs == kPrevious ? previous : args[s.lhs]->to_tensor().const_data_ptr<float>();
      const float* rhs =
          s.op == DemoOp::Sin ? nullptr : args[s.rhs]->to_tensor().const_data_ptr<float>();
      float* out = i + 1 < plan->num_steps ? scratch[i % 2] : output;
      EventTracerEntry entry;
      if (profile) {
        entry = s.debug_handle >= 0
                    ? tracer->start_profiling_delegate(nullptr, s.debug_handle)
                    : tracer->start_profiling_delegate(demo_op_name(s.op),
                                                       kUnsetDelegateDebugId);
      }
      run_step(s, lhs, rhs, out);
      if (profile) tracer->end_profiling_delegate(entry);
      if (log) log_result(*tracer, s, out);
      previous = out;
    }
    return Error::Ok;
  }
};

const DemoBackend kBackend;

const bool kRegistered = [] {
  const Error err = register_backend(kDemoBackendId, &kBackend);
  if (err != Error::Ok) {
    EMBER_LOG(Error, "BackendWithCompilerDemo not registered: %s", error_name(err));
  }
  return err == Error::Ok;
}();

}  // namespace
}  // namespace ember::demo
