// Method execution: inputs, the instruction loop, outputs.
#include "runtime/executor/method.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
#include "runtime/platform/threadpool.h"
#include "schema/program_generated.h"

namespace ember {

Method::Method(Method&& other) noexcept
    : program_(other.program_),
      plan_(other.plan_),
      memory_manager_(other.memory_manager_),
      values_(other.values_),
      num_values_(other.num_values_),
      kernels_(other.kernels_),
      num_operators_(other.num_operators_),
      prepare_stats_(other.prepare_stats_),
      delegates_(other.delegates_),
      num_delegates_(other.num_delegates_),
      num_delegates_initialized_(other.num_delegates_initialized_),
      chains_(other.chains_),
      num_chains_(other.num_chains_),
      input_set_(other.input_set_),
      instruction_limit_(other.instruction_limit_),
      fusions_(other.fusions_),
      num_fusions_(other.num_fusions_),
      fusion_enabled_(other.fusion_enabled_),
      prepared_(other.prepared_),
      num_prepared_(other.num_prepared_),
      prepared_bytes_(other.prepared_bytes_),
      operands_prepared_(other.operands_prepared_),
      event_tracer_(other.event_tracer_),
      external_(other.external_),
      num_external_(other.num_external_) {
  other.external_ = nullptr;
  other.num_external_ = 0;
  other.delegates_ = nullptr;
  other.num_delegates_ = 0;
  other.num_delegates_initialized_ = 0;
  other.values_ = nullptr;
  other.num_values_ = 0;
  other.num_chains_ = 0;
}

Method::~Method() {
  for (size_t i = 0; i < num_delegates_initialized_; ++i) {
    delegates_[i].backend->destroy(delegates_[i].handle);
  }
  for (size_t i = 0; i < num_delegates_; ++i) {
    delegates_[i].~Delegate();
  }
  for (size_t i = 0; i < num_external_; ++i) {
    external_[i].~FreeableBuffer();
  }
}

const char* Method::name() const { return plan_->name()->c_str(); }

size_t Method::inputs_size() const {
  return plan_->inputs() ? plan_->inputs()->size() : 0;
}

size_t Method::outputs_size() const {
  return plan_->outputs() ? plan_->outputs()->size() : 0;
}

const EValue& Method::get_input(size_t index) const {
  return values_[size_t(plan_->inputs()->Get(uint32_t(index)))];
}

const EValue& Method::get_output(size_t index) const {
  return values_[size_t(plan_->outputs()->Get(uint32_t(index)))];
}

Error Method::set_tensor_input(const Tensor& input, size_t index, EValue& slot) {
  Tensor target = slot.to_tensor();
  EMBER_CHECK_OR_RETURN(input.impl() != nullptr, Error::InvalidArgument,
                        "method '%s' input %zu: tensor is null", shown_name().c_str(), index);
  EMBER_CHECK_OR_RETURN(input.scalar_type() == target.scalar_type(),
                        Error::InvalidArgument,
                        "method '%s' input %zu: dtype %s, the method expects %s",
                        shown_name().c_str(), index, scalar_type_name(input.scalar_type()),
                        scalar_type_name(target.scalar_type()));
  EMBER_CHECK_OR_RETURN(input.dim() == target.dim(), Error::InvalidArgument,
                        "method '%s' input %zu: %zu dims, the method expects %zu",
                        shown_name().c_str(), index, input.dim(), target.dim());
  for (size_t d = 0; d < input.dim(); ++d) {
    EMBER_CHECK_OR_RETURN(input.dim_order()[d] == target.dim_order()[d],
                          Error::InvalidArgument,
                          "method '%s' input %zu: dim order differs from the "
                          "method's at position %zu",
                          shown_name().c_str(), index, d);
  }
  Result<TensorInfo> info = method_meta().input_tensor_meta(index);
  if (!info.ok()) {
    return info.error();
  }
  if (!info->is_memory_planned()) {
    // The program leaves this input to the application: bind the caller's
    // data (upstream's rule), which kernels and delegates then read.
    EMBER_CHECK_OR_RETURN(input.const_data_ptr() != nullptr || input.nbytes() == 0,
                          Error::InvalidArgument,
                          "method '%s' input %zu: tensor has no data (the program "
                          "leaves this input's memory to the application)",
                          shown_name().c_str(), index);
    EMBER_CHECK_OR_RETURN(
        reinterpret_cast<uintptr_t>(input.const_data_ptr()) % input.element_size() == 0,
        Error::InvalidArgument,
        "method '%s' input %zu: data is not aligned to its %zu-byte elements",
        shown_name().c_str(), index, input.element_size());
  }
  const Error resized = resize_tensor(target, input.sizes());
  if (resized != Error::Ok) {
    prefix_error_message(error_name(resized), "method '%s' input %zu: shape not accepted",
                         shown_name().c_str(), index);
    return Error::InvalidArgument;
  }
  if (!info->is_memory_planned()) {
    target.impl()->set_data(input.mutable_data_ptr());
  } else if (target.mutable_data_ptr() != input.const_data_ptr() &&
             input.nbytes() != 0) {
    EMBER_CHECK_OR_RETURN(input.const_data_ptr() != nullptr, Error::InvalidArgument,
                          "method '%s' input %zu: tensor has no data", shown_name().c_str(),
                          index);
    std::memmove(target.mutable_data_ptr(), input.const_data_ptr(), input.nbytes());
  }
  return Error::Ok;
}

Error Method::set_input(const EValue& input, size_t index) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(index < inputs_size(), Error::InvalidArgument,
                        "method '%s': input index %zu out of range (%zu inputs)",
                        shown_name().c_str(), index, inputs_size());
  EValue& slot = values_[size_t(plan_->inputs()->Get(uint32_t(index)))];
  EMBER_CHECK_OR_RETURN(input.tag() == slot.tag(), Error::InvalidArgument,
                        "method '%s' input %zu: got %s, the method expects %s",
                        shown_name().c_str(), index, tag_name(input.tag()), tag_name(slot.tag()));
  switch (slot.tag()) {
    case Tag::Tensor:
      EMBER_RETURN_IF_ERROR(set_tensor_input(input.to_tensor(), index, slot));
      break;
    case Tag::Int:
      EMBER_CHECK_OR_RETURN(input.to_int() == slot.to_int(), Error::InvalidArgument,
                            "method '%s' input %zu: the program was exported "
                            "with the int value %" PRId64 " and cannot take %" PRId64,
                            shown_name().c_str(), index, slot.to_int(), input.to_int());
      break;
    case Tag::Double:
      EMBER_CHECK_OR_RETURN(input.to_double() == slot.to_double() ||
                                (input.to_double() != input.to_double() &&
                                 slot.to_double() != slot.to_double()),
                            Error::InvalidArgument,
                            "method '%s' input %zu: the program was exported "
                            "with the float value %g and cannot take %g",
                            shown_name().c_str(), index, slot.to_double(), input.to_double());
      break;
    case Tag::Bool:
      EMBER_CHECK_OR_RETURN(input.to_bool() == slot.to_bool(), Error::InvalidArgument,
                            "method '%s' input %zu: the program was exported "
                            "with the bool value %d and cannot take %d",
                            shown_name().c_str(), index, int(slot.to_bool()),
                            int(input.to_bool()));
      break;
    case Tag::None:
      break;
    default:
      set_error_message("method '%s' input %zu: %s inputs are not supported",
                        shown_name().c_str(), index, tag_name(slot.tag()));
      return Error::NotSupported;
  }
  input_set_[index] = true;
  return Error::Ok;
}

Error Method::set_output_data_ptr(void* buffer, size_t size, size_t index) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(index < outputs_size(), Error::InvalidArgument,
                        "method '%s': output index %zu out of range (%zu outputs)",
                        shown_name().c_str(), index, outputs_size());
  const EValue& slot = get_output(index);
  EMBER_CHECK_OR_RETURN(slot.is_tensor(), Error::InvalidArgument,
                        "method '%s' output %zu is %s, not a Tensor: it has no memory "
                        "to set",
                        shown_name().c_str(), index, tag_name(slot.tag()));
  Result<TensorInfo> info = method_meta().output_tensor_meta(index);
  if (!info.ok()) {
    return info.error();
  }
  EMBER_CHECK_OR_RETURN(!info->is_memory_planned(), Error::InvalidState,
                        "method '%s' output %zu has memory from the program (planned or "
                        "constant); its data pointer cannot be replaced",
                        shown_name().c_str(), index);
  const Tensor t = slot.to_tensor();
  const size_t needed = t.impl()->capacity_nbytes();
  EMBER_CHECK_OR_RETURN(size >= needed, Error::InvalidArgument,
                        "method '%s' output %zu: buffer of %zu bytes, the output needs %zu",
                        shown_name().c_str(), index, size, needed);
  EMBER_CHECK_OR_RETURN(buffer != nullptr || needed == 0, Error::InvalidArgument,
                        "method '%s' output %zu: buffer is null", shown_name().c_str(), index);
  EMBER_CHECK_OR_RETURN(
      reinterpret_cast<uintptr_t>(buffer) % t.element_size() == 0, Error::InvalidArgument,
      "method '%s' output %zu: buffer is not aligned to its %zu-byte elements",
      shown_name().c_str(), index, t.element_size());
  t.impl()->set_data(buffer);
  return Error::Ok;
}

// Inputs and outputs the program leaves to the application must have been
// given memory; a kernel or a delegate must never see a null pointer.
Error Method::check_io_memory() const {
  for (size_t i = 0; i < inputs_size(); ++i) {
    const EValue& v = get_input(i);
    EMBER_CHECK_OR_RETURN(!v.is_tensor() || v.to_tensor().const_data_ptr() != nullptr ||
                              v.to_tensor().impl()->capacity_nbytes() == 0,
                          Error::InvalidState,
                          "method '%s': input %zu has no memory: the program leaves it "
                          "to the application (not memory-planned); set_input binds the "
                          "caller's tensor data",
                          shown_name().c_str(), i);
  }
  for (size_t i = 0; i < outputs_size(); ++i) {
    const EValue& v = get_output(i);
    EMBER_CHECK_OR_RETURN(!v.is_tensor() || v.to_tensor().const_data_ptr() != nullptr ||
                              v.to_tensor().impl()->capacity_nbytes() == 0,
                          Error::InvalidState,
                          "method '%s': output %zu has no memory: the program leaves it "
                          "to the application (not memory-planned); give it a buffer "
                          "with set_output_data_ptr before execute",
                          shown_name().c_str(), i);
  }
  return Error::Ok;
}

Result<bool> Method::read_condition(int32_t value_index) const {
  const EValue& cond = values_[size_t(value_index)];
  if (cond.is_bool()) {
    return cond.to_bool();
  }
  // A Bool tensor is true when all of its elements are.
  const Tensor t = cond.to_tensor();
  EMBER_CHECK_OR_RETURN(t.scalar_type() == ScalarType::Bool, Error::InvalidProgram,
                        "method '%s': jump condition (value %d) is a %s tensor, "
                        "not Bool",
                        shown_name().c_str(), int(value_index), scalar_type_name(t.scalar_type()));
  const bool* data = t.const_data_ptr<bool>();
  EMBER_CHECK_OR_RETURN(data != nullptr || t.numel() == 0, Error::InvalidState,
                        "method '%s': jump condition (value %d) has no data",
                        shown_name().c_str(), int(value_index));
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (!data[i]) {
      return false;
    }
  }
  return true;
}

Error Method::run_kernel(const Instruction& ins, size_t chain, size_t pc) {
  KernelContext context(memory_manager_->temp_allocator());
  if (ins.checked) {
    context.set_mode(KernelContext::Mode::Prepared);
  }
  if (ins.prepared != 0) {
    context.set_prepared_operand(&prepared_[ins.prepared - 1].operand);
  }
  clear_error_message();
  kernels_[ins.index](context, Span<EValue*>(ins.args, ins.num_args));
  if (context.failure() == Error::Ok) {
    return Error::Ok;
  }
  const ember_fb::Operator* op = plan_->operators()->Get(ins.index);
  const char* overload = op->overload() ? op->overload()->c_str() : "";
  prefix_error_message(error_name(context.failure()),
                       "method '%s' chain %zu instruction %zu (%s%s%s) failed",
                       shown_name().c_str(), chain, pc, PrintableName(op->name()->c_str()).c_str(),
                       overload[0] ? "." : "", PrintableName(overload).c_str());
  return context.failure();
}

Error Method::run_delegate(const Instruction& ins, size_t chain, size_t pc) {
  const Delegate& delegate = delegates_[ins.index];
  BackendExecutionContext context(memory_manager_->temp_allocator(), event_tracer_, name());
  clear_error_message();
  const Error err = delegate.backend->execute(context, delegate.handle,
                                              Span<EValue*>(ins.args, ins.num_args));
  if (err == Error::Ok) {
    return Error::Ok;
  }
  prefix_error_message(error_name(err),
                       "method '%s' chain %zu instruction %zu (delegate %u '%s') failed",
                       shown_name().c_str(), chain, pc, unsigned(ins.index),
                       PrintableName(plan_->delegates()->Get(ins.index)->id()->c_str()).c_str());
  return err;
}

// Inline: a call per instruction showed in the timing of small delegated
// programs. Used by the untraced loop and run_traced, both in this file.
inline Error Method::run_instruction(const Instruction& ins, size_t c, size_t pc,
                                     bool allow_fusion, size_t* next) {
  *next = pc + 1;
  switch (ins.kind) {
    case InstructionKind::Kernel: {
      if (ins.skip && allow_fusion) {
        return Error::Ok;
      }
      bool fused = false;
      if (ins.fusion != 0 && allow_fusion) {
        const Error err = run_fused(ins, c, pc, &fused);
        if (fused) {
          *next = pc + fusions_[ins.fusion - 1].pattern->count;
          return err;
        }
      }
      return run_kernel(ins, c, pc);
    }
    case InstructionKind::Delegate:
      return run_delegate(ins, c, pc);
    case InstructionKind::Move:
      values_[size_t(ins.b)] = values_[size_t(ins.a)];
      return Error::Ok;
    case InstructionKind::JumpFalse: {
      Result<bool> cond = read_condition(ins.a);
      if (!cond.ok()) {
        return cond.error();
      }
      if (!*cond) {
        *next = size_t(ins.b);
      }
      return Error::Ok;
    }
    case InstructionKind::Free:
      // Planned memory belongs to the memory plan; nothing to release.
      return Error::Ok;
  }
  return Error::Internal;
}

namespace {

const char* instruction_event_name(uint8_t kind) {
  static const char* const kNames[] = {"OPERATOR_CALL", "DELEGATE_CALL", "MOVE_CALL",
                                       "JF_CALL", "FREE_CALL"};
  return kind < 5 ? kNames[kind] : "UNKNOWN_CALL";
}

}  // namespace

// One instruction with a tracer attached: upstream's events around it
// (runtime/core/event_tracer.h).
Error Method::run_traced(const Instruction& ins, size_t c, size_t pc, size_t* next) {
  EventTracer& tracer = *event_tracer_;
  tracer.set_chain_instruction(int32_t(c), int32_t(pc));
  const bool profile = tracer.profile_instructions();
  const bool intermediates = tracer.debug_level() >= EventTracerDebugLevel::IntermediateOutputs;
  // Intermediate outputs need every instruction's results in memory.
  const bool allow_fusion = fusion_enabled_ && !intermediates;
  const bool kernel = ins.kind == InstructionKind::Kernel;
  if (kernel && ins.skip && allow_fusion) {
    // A transpose a prepared operand replaced: nothing runs, nothing to report.
    tracer.set_chain_instruction(kUnsetChainIndex, kUnsetInstructionId);
    *next = pc + 1;
    return Error::Ok;
  }
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

Error Method::run_chains() {
  MemoryAllocator* temp = memory_manager_->temp_allocator();
  uint64_t steps = 0;
  for (size_t c = 0; c < num_chains_; ++c) {
    const Chain& chain = chains_[c];
    size_t pc = 0;
    while (pc < chain.size) {
      EMBER_CHECK_OR_RETURN(instruction_limit_ == 0 || ++steps <= instruction_limit_,
                            Error::ExecutionLimit,
                            "method '%s': instruction limit of %" PRIu64
                            " reached at chain %zu instruction %zu (a loop?)",
                            shown_name().c_str(), instruction_limit_, c, pc);
      const Instruction& ins = chain.instructions[pc];
      size_t next = pc + 1;
      const Error err = event_tracer_ == nullptr
                            ? run_instruction(ins, c, pc, fusion_enabled_, &next)
                            : run_traced(ins, c, pc, &next);
      if (temp != nullptr) {
        temp->reset();
      }
      if (err != Error::Ok) {
        return err;
      }
      pc = next;
    }
  }
  return Error::Ok;
}

Error Method::execute() {
  clear_error_message();
  // Concurrent executions share the cores (threadpool.h).
  const ExecutionInFlight in_flight;
  EventTracer* tracer = event_tracer_;
  EventTracerEntry run;
  if (tracer != nullptr) {
    tracer->create_event_block("Execute");
    run = tracer->start_profiling("Method::execute");
  }
  Error err = Error::Ok;
  for (size_t i = 0; i < inputs_size() && err == Error::Ok; ++i) {
    if (!input_set_[i]) {
      set_error_message("method '%s': input %zu was not set", shown_name().c_str(), i);
      err = Error::InvalidState;
    }
  }
  if (err == Error::Ok) {
    err = check_io_memory();
  }
  if (err == Error::Ok) {
    err = run_chains();
  }
  if (tracer != nullptr) {
    if (err == Error::Ok) {
      log_program_outputs();
    }
    tracer->end_profiling(run);
  }
  return err;
}

}  // namespace ember
