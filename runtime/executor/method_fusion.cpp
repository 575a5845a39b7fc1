// Fused operator sequences (runtime/kernel/fusion_registry.h): found once
// at load, run at execute.
//
// Load: for each kernel call, in chain order, the first registered pattern
// that matches there claims the call and the ones after it: the operators
// match by name, each call's primary output is the next call's first
// argument, that value is read nowhere else in the method, and no jump
// lands inside the sequence. Claimed calls are not matched again.
//
// Execute: the first call of a sequence runs the fused function; when it
// declines, the calls run one by one as written.
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/executor/method.h"
#include "runtime/executor/method_allocation.h"
#include "runtime/executor/operator_name.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

size_t occurrences(const EValue* v, Span<EValue*> args) {
  size_t n = 0;
  for (EValue* a : args) n += a == v ? 1 : 0;
  return n;
}

bool list_holds(const EValue& list, const EValue* v) {
  if (list.is_tensor_list()) {
    const BoxedList<Tensor>& l = list.boxed_tensor_list();
    for (size_t i = 0; i < l.size(); ++i) {
      if (l.boxed()[i] == v) return true;
    }
  } else if (list.is_optional_tensor_list()) {
    const BoxedList<Optional<Tensor>>& l = list.boxed_optional_tensor_list();
    for (size_t i = 0; i < l.size(); ++i) {
      if (l.boxed()[i] == v) return true;
    }
  }
  return false;
}

}  // namespace

bool operator_is(const ember_fb::Operator* op, const char* full) {
  const char* name = op->name()->c_str();
  const size_t n = std::strlen(name);
  if (std::strncmp(full, name, n) != 0) return false;
  const char* overload = op->overload() ? op->overload()->c_str() : "";
  if (overload[0] == '\0') return full[n] == '\0';
  return full[n] == '.' && std::strcmp(full + n + 1, overload) == 0;
}

// Whether any instruction other than `skip_a` and `skip_b`, any list
// other than those in `own_lists`, or the method's inputs or outputs
// refer to value `value`.
bool Method::referenced_elsewhere(size_t value, const Instruction* skip_a,
                                  const Instruction* skip_b, Span<EValue*> own_lists) const {
  const EValue* v = &values_[value];
  for (size_t c = 0; c < num_chains_; ++c) {
    for (size_t i = 0; i < chains_[c].size; ++i) {
      const Instruction& ins = chains_[c].instructions[i];
      if (&ins == skip_a || &ins == skip_b) continue;
      switch (ins.kind) {
        case InstructionKind::Kernel:
        case InstructionKind::Delegate:
          if (occurrences(v, Span<EValue*>(ins.args, ins.num_args)) != 0) return true;
          break;
        case InstructionKind::Move:
          if (size_t(ins.a) == value || size_t(ins.b) == value) return true;
          break;
        case InstructionKind::JumpFalse:
          if (size_t(ins.a) == value) return true;
          break;
        case InstructionKind::Free:
          break;
      }
    }
  }
  for (size_t i = 0; i < num_values_; ++i) {
    if (list_holds(values_[i], v) && occurrences(&values_[i], own_lists) == 0) return true;
  }
  for (size_t i = 0; i < inputs_size(); ++i) {
    if (size_t(plan_->inputs()->Get(uint32_t(i))) == value) return true;
  }
  for (size_t i = 0; i < outputs_size(); ++i) {
    if (size_t(plan_->outputs()->Get(uint32_t(i))) == value) return true;
  }
  return false;
}

// Value `value` is written by the call at (chain, pc) and must be read
// only as the first argument of the call at pc + 1. The producer's own
// return list (a tuple of its outputs, as a batch norm returns) may hold
// it, if nothing else reads that list.
bool Method::only_read_by_next(size_t value, size_t chain, size_t pc) const {
  const EValue* v = &values_[value];
  const Instruction& producer = chains_[chain].instructions[pc];
  const Instruction& consumer = chains_[chain].instructions[pc + 1];
  const Span<EValue*> producer_args(producer.args, producer.num_args);
  const Span<EValue*> consumer_args(consumer.args, consumer.num_args);
  if (consumer.num_args == 0 || consumer.args[0] != v || occurrences(v, consumer_args) != 1) {
    return false;
  }
  if (referenced_elsewhere(value, &producer, &consumer, producer_args)) return false;
  for (EValue* arg : producer_args) {
    if (list_holds(*arg, v) &&
        referenced_elsewhere(size_t(arg - values_), &producer, nullptr, Span<EValue*>())) {
      return false;
    }
  }
  return true;
}

bool Method::fusable_at(const FusionPattern& pattern, size_t chain, size_t pc) const {
  const Chain& ch = chains_[chain];
  if (pc + pattern.count > ch.size) return false;
  for (size_t k = 0; k < pattern.count; ++k) {
    const Instruction& ins = ch.instructions[pc + k];
    if (ins.kind != InstructionKind::Kernel || ins.fusion != 0 ||
        !operator_is(plan_->operators()->Get(ins.index), pattern.ops[k]) ||
        pattern.out_index[k] >= ins.num_args) {
      return false;
    }
  }
  for (size_t k = 0; k + 1 < pattern.count; ++k) {
    const Instruction& ins = ch.instructions[pc + k];
    const size_t out = size_t(ins.args[pattern.out_index[k]] - values_);
    if (!only_read_by_next(out, chain, pc + k)) return false;
  }
  // A jump into the sequence would run a later call without its input.
  for (size_t i = 0; i < ch.size; ++i) {
    const Instruction& ins = ch.instructions[i];
    if (ins.kind == InstructionKind::JumpFalse && size_t(ins.b) > pc &&
        size_t(ins.b) < pc + pattern.count) {
      return false;
    }
  }
  return true;
}

Error Method::plan_fusions() {
  const size_t slots = fusion_slots(plan_);
  if (slots == 0) return Error::Ok;
  // As many slots as the operators allow (method_memory.cpp), so that the
  // method allocator's need is known before loading; found <= slots.
  fusions_ = allocate_method_array<FusedSequence>(memory_manager_->method_allocator(), slots,
                                                  name(), "fused sequences");
  if (fusions_ == nullptr) return Error::MemoryAllocationFailed;
  size_t found = 0;
  for (size_t c = 0; c < num_chains_; ++c) {
    Chain& ch = chains_[c];
    for (size_t pc = 0; pc < ch.size; ++pc) {
      for (size_t p = 0; p < num_fusion_patterns(); ++p) {
        const FusionPattern& pattern = fusion_pattern(p);
        if (!fusable_at(pattern, c, pc)) continue;
        FusedSequence& f = fusions_[found];
        f.pattern = &pattern;
        for (size_t k = 0; k < pattern.count; ++k) {
          const Instruction& ins = ch.instructions[pc + k];
          f.calls[k] = Span<EValue*>(ins.args, ins.num_args);
        }
        ch.instructions[pc].fusion = uint32_t(found + 1);
        ++found;
        pc += pattern.count - 1;
        break;
      }
    }
  }
  num_fusions_ = found;
  return Error::Ok;
}

Error Method::run_fused(const Instruction& ins, size_t chain, size_t pc, bool* ran) {
  const FusedSequence& f = fusions_[ins.fusion - 1];
  KernelContext context(memory_manager_->temp_allocator());
  if (ins.prepared != 0) {
    // The first call's prepared operand (say a convolution's packed weight).
    context.set_prepared_operand(&prepared_[ins.prepared - 1].operand);
  }
  clear_error_message();
  *ran = f.pattern->fn(context, f.calls, f.pattern->count);
  if (!*ran || context.failure() == Error::Ok) {
    return Error::Ok;
  }
  prefix_error_message(error_name(context.failure()),
                       "method '%s' chain %zu instructions %zu-%zu (fused %s) failed", name(),
                       chain, pc, pc + f.pattern->count - 1, f.pattern->name);
  return context.failure();
}

}  // namespace ember
