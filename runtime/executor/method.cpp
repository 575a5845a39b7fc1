// Method execution: inputs, the instruction loop, outputs.
#include "runtime/executor/method.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/executor/program.h"
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
                        "method '%s' input %zu: tensor is null", name(), index);
  EMBER_CHECK_OR_RETURN(input.scalar_type() == target.scalar_type(),
                        Error::InvalidArgument,
                        "method '%s' input %zu: dtype %s, the method expects %s",
                        name(), index, scalar_type_name(input.scalar_type()),
                        scalar_type_name(target.scalar_type()));
  EMBER_CHECK_OR_RETURN(input.dim() == target.dim(), Error::InvalidArgument,
                        "method '%s' input %zu: %zu dims, the method expects %zu",
                        name(), index, input.dim(), target.dim());
  for (size_t d = 0; d < input.dim(); ++d) {
    EMBER_CHECK_OR_RETURN(input.dim_order()[d] == target.dim_order()[d],
                          Error::InvalidArgument,
                          "method '%s' input %zu: dim order differs from the "
                          "method's at position %zu",
                          name(), index, d);
  }
  const Error resized = resize_tensor(target, input.sizes());
  if (resized != Error::Ok) {
    prefix_error_message(error_name(resized), "method '%s' input %zu: shape not accepted",
                         name(), index);
    return Error::InvalidArgument;
  }
  if (target.mutable_data_ptr() == nullptr) {
    // No planned memory for this input: bind the caller's buffer.
    target.impl()->set_data(input.mutable_data_ptr());
  } else if (target.mutable_data_ptr() != input.const_data_ptr() &&
             input.nbytes() != 0) {
    EMBER_CHECK_OR_RETURN(input.const_data_ptr() != nullptr, Error::InvalidArgument,
                          "method '%s' input %zu: tensor has no data", name(), index);
    std::memmove(target.mutable_data_ptr(), input.const_data_ptr(), input.nbytes());
  }
  return Error::Ok;
}

Error Method::set_input(const EValue& input, size_t index) {
  clear_error_message();
  EMBER_CHECK_OR_RETURN(index < inputs_size(), Error::InvalidArgument,
                        "method '%s': input index %zu out of range (%zu inputs)",
                        name(), index, inputs_size());
  EValue& slot = values_[size_t(plan_->inputs()->Get(uint32_t(index)))];
  EMBER_CHECK_OR_RETURN(input.tag() == slot.tag(), Error::InvalidArgument,
                        "method '%s' input %zu: got %s, the method expects %s",
                        name(), index, tag_name(input.tag()), tag_name(slot.tag()));
  switch (slot.tag()) {
    case Tag::Tensor:
      EMBER_RETURN_IF_ERROR(set_tensor_input(input.to_tensor(), index, slot));
      break;
    case Tag::Int:
      EMBER_CHECK_OR_RETURN(input.to_int() == slot.to_int(), Error::InvalidArgument,
                            "method '%s' input %zu: the program was exported "
                            "with the int value %" PRId64 " and cannot take %" PRId64,
                            name(), index, slot.to_int(), input.to_int());
      break;
    case Tag::Double:
      EMBER_CHECK_OR_RETURN(input.to_double() == slot.to_double() ||
                                (input.to_double() != input.to_double() &&
                                 slot.to_double() != slot.to_double()),
                            Error::InvalidArgument,
                            "method '%s' input %zu: the program was exported "
                            "with the float value %g and cannot take %g",
                            name(), index, slot.to_double(), input.to_double());
      break;
    case Tag::Bool:
      EMBER_CHECK_OR_RETURN(input.to_bool() == slot.to_bool(), Error::InvalidArgument,
                            "method '%s' input %zu: the program was exported "
                            "with the bool value %d and cannot take %d",
                            name(), index, int(slot.to_bool()), int(input.to_bool()));
      break;
    case Tag::None:
      break;
    default:
      set_error_message("method '%s' input %zu: %s inputs are not supported", name(),
                        index, tag_name(slot.tag()));
      return Error::NotSupported;
  }
  input_set_[index] = true;
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
                        name(), value_index, scalar_type_name(t.scalar_type()));
  const bool* data = t.const_data_ptr<bool>();
  EMBER_CHECK_OR_RETURN(data != nullptr || t.numel() == 0, Error::InvalidState,
                        "method '%s': jump condition (value %d) has no data",
                        name(), value_index);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (!data[i]) {
      return false;
    }
  }
  return true;
}

Error Method::run_kernel(const Instruction& ins, size_t chain, size_t pc) {
  KernelContext context(memory_manager_->temp_allocator());
  clear_error_message();
  kernels_[ins.index](context, Span<EValue*>(ins.args, ins.num_args));
  if (context.failure() == Error::Ok) {
    return Error::Ok;
  }
  const ember_fb::Operator* op = plan_->operators()->Get(ins.index);
  const char* overload = op->overload() ? op->overload()->c_str() : "";
  prefix_error_message(error_name(context.failure()),
                       "method '%s' chain %zu instruction %zu (%s%s%s) failed", name(),
                       chain, pc, op->name()->c_str(), overload[0] ? "." : "", overload);
  return context.failure();
}

Error Method::run_delegate(const Instruction& ins, size_t chain, size_t pc) {
  const Delegate& delegate = delegates_[ins.index];
  BackendExecutionContext context(memory_manager_->temp_allocator());
  clear_error_message();
  const Error err = delegate.backend->execute(context, delegate.handle,
                                              Span<EValue*>(ins.args, ins.num_args));
  if (err == Error::Ok) {
    return Error::Ok;
  }
  prefix_error_message(error_name(err),
                       "method '%s' chain %zu instruction %zu (delegate %u '%s') failed",
                       name(), chain, pc, ins.index,
                       plan_->delegates()->Get(ins.index)->id()->c_str());
  return err;
}

Error Method::execute() {
  clear_error_message();
  for (size_t i = 0; i < inputs_size(); ++i) {
    EMBER_CHECK_OR_RETURN(input_set_[i], Error::InvalidState,
                          "method '%s': input %zu was not set", name(), i);
  }
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
                            name(), instruction_limit_, c, pc);
      const Instruction& ins = chain.instructions[pc];
      size_t next = pc + 1;
      Error err = Error::Ok;
      switch (ins.kind) {
        case InstructionKind::Kernel: {
          bool fused = false;
          if (ins.fusion != 0 && fusion_enabled_) {
            err = run_fused(ins, c, pc, &fused);
          }
          if (fused) {
            next = pc + fusions_[ins.fusion - 1].pattern->count;
          } else {
            err = run_kernel(ins, c, pc);
          }
          break;
        }
        case InstructionKind::Delegate:
          err = run_delegate(ins, c, pc);
          break;
        case InstructionKind::Move:
          values_[size_t(ins.b)] = values_[size_t(ins.a)];
          break;
        case InstructionKind::JumpFalse: {
          Result<bool> cond = read_condition(ins.a);
          if (!cond.ok()) {
            err = cond.error();
          } else if (!*cond) {
            next = size_t(ins.b);
          }
          break;
        }
        case InstructionKind::Free:
          // Planned memory belongs to the memory plan; nothing to release.
          break;
      }
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

}  // namespace ember
