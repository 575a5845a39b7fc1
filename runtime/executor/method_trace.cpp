// Method execution with an event tracer attached: the events upstream's
// runtime reports around each instruction (see runtime/core/event_tracer.h).
// Only runs when a tracer is attached; the untraced loop never calls here.
#include <cstdio>
#include <cstring>

#include "runtime/executor/method.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

const char* instruction_event_name(uint8_t kind) {
  static const char* const kNames[] = {"OPERATOR_CALL", "DELEGATE_CALL", "MOVE_CALL",
                                       "JF_CALL", "FREE_CALL"};
  return kind < 5 ? kNames[kind] : "UNKNOWN_CALL";
}

// Which arguments of a kernel call are its results, [*begin, *end). The
// boxed convention puts the return values last:
//  - an out-variant returns its out arguments again (the same values), so
//    the longest repeated tail is the return list;
//  - one returning several tensors (native_layer_norm.out, batch norm,
//    max_pool2d_with_indices.out) returns them as a tensor list whose
//    elements are the out arguments just before it: those are logged one
//    by one, as upstream's generated wrappers log each return;
//  - otherwise the last argument is the (single) result.
void kernel_results(EValue* const* args, size_t n, size_t* begin, size_t* end) {
  *end = n;
  for (size_t k = n / 2; k >= 1; --k) {
    bool repeated = true;
    for (size_t i = 0; i < k && repeated; ++i) {
      repeated = args[n - k + i] == args[n - 2 * k + i];
    }
    if (repeated) {
      *begin = n - k;
      return;
    }
  }
  *begin = n > 0 ? n - 1 : 0;
  if (n == 0 || !args[n - 1]->is_tensor_list()) {
    return;
  }
  const BoxedList<Tensor>& list = args[n - 1]->boxed_tensor_list();
  const size_t m = list.size();
  if (m == 0 || m > n - 1) {
    return;
  }
  for (size_t i = 0; i < m; ++i) {
    if (list.boxed()[i] != args[n - 1 - m + i]) {
      return;
    }
  }
  *begin = n - 1 - m;
  *end = n - 1;
}

}  // namespace

// "native_call_convolution.out" (aten's namespace dropped, as upstream's
// generated kernel wrappers name the event), or "fused:<pattern>".
void Method::operator_event_name(const Instruction& ins, bool fused, char* out,
                                 size_t size) const {
  if (fused) {
    std::snprintf(out, size, "fused:%s", fusions_[ins.fusion - 1].pattern->name);
    return;
  }
  const ember_fb::Operator* op = plan_->operators()->Get(ins.index);
  const char* name = op->name()->c_str();
  if (std::strncmp(name, "aten::", 6) == 0) {
    name += 6;
  }
  const char* overload = op->overload() != nullptr ? op->overload()->c_str() : "";
  std::snprintf(out, size, "native_call_%s%s%s", name, overload[0] ? "." : "", overload);
}

void Method::log_kernel_outputs(const Instruction& ins) const {
  size_t begin = 0;
  size_t end = 0;
  kernel_results(ins.args, ins.num_args, &begin, &end);
  for (size_t i = begin; i < end; ++i) {
    event_tracer_->log_value(*ins.args[i], LoggedValueKind::IntermediateOutput);
  }
}

void Method::log_program_outputs() const {
  if (event_tracer_->debug_level() < EventTracerDebugLevel::ProgramOutputs) {
    return;
  }
  for (size_t i = 0; i < outputs_size(); ++i) {
    event_tracer_->log_value(get_output(i), LoggedValueKind::ProgramOutput);
  }
}

Error Method::run_traced(const Instruction& ins, size_t c, size_t pc, size_t* next) {
  EventTracer& tracer = *event_tracer_;
  tracer.set_chain_instruction(int32_t(c), int32_t(pc));
  const bool profile = tracer.profile_instructions();
  const bool intermediates = tracer.debug_level() >= EventTracerDebugLevel::IntermediateOutputs;
  // Intermediate outputs need every instruction's results in memory.
  const bool allow_fusion = fusion_enabled_ && !intermediates;
  const bool kernel = ins.kind == InstructionKind::Kernel;
  EventTracerEntry outer;
  if (profile) {
    outer = tracer.start_profiling(instruction_event_name(uint8_t(ins.kind)));
  }
  const uint64_t kernel_start = event_tracer_ticks();
  const Error err = run_instruction(ins, c, pc, allow_fusion, next);
  if (profile && kernel) {
    // Named once it ran: a fused sequence may decline and run unfused.
    char name[192];
    operator_event_name(ins, *next > pc + 1, name, sizeof(name));
    EventTracerEntry inner = tracer.start_profiling(name);
    inner.start_ticks = kernel_start;
    tracer.end_profiling(inner);
  }
  if (err == Error::Ok && intermediates) {
    if (kernel) {
      log_kernel_outputs(ins);
    } else if (ins.kind == InstructionKind::Delegate) {
      // Inputs and outputs alike, as upstream logs them: the call's
      // argument list does not say which is which.
      for (size_t i = 0; i < ins.num_args; ++i) {
        tracer.log_value(*ins.args[i], LoggedValueKind::IntermediateOutput);
      }
    }
  }
  if (profile) {
    tracer.end_profiling(outer);
  }
  tracer.set_chain_instruction(kUnsetChainIndex, kUnsetInstructionId);
  return err;
}

}  // namespace ember
