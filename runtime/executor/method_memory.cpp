// The method allocator's bytes a method needs, from its plan alone: the
// same structures, element counts and rule (method_allocation.h) that the
// load phases (method_load.cpp, method_fusion.cpp, method_prepare.cpp)
// allocate by. A test loads every committed fixture with exactly this many
// bytes and with one byte less (test/runtime/method_memory_test.cpp).
#include "runtime/executor/method.h"
#include "runtime/executor/method_allocation.h"
#include "runtime/executor/operator_name.h"
#include "runtime/executor/value_kinds.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

template <typename T>
uint32_t count(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

// These walks also run on plans that have not been validated yet (a
// MethodMeta of a program loaded with Minimal verification): every field
// the flatbuffers verifier allows to be absent is checked, so that a
// malformed plan gives a meaningless size, never a crash; load_method()
// validates before it allocates.

// The argument list of a kernel or delegate call (null for the others).
const flatbuffers::Vector<int32_t>* call_args(const ember_fb::Instruction* in) {
  if (in == nullptr) return nullptr;
  if (const auto* k = in->instr_args_as_KernelCall()) return k->args();
  if (const auto* d = in->instr_args_as_DelegateCall()) return d->args();
  return nullptr;
}

// The operator a kernel call names, with a name (null otherwise).
const ember_fb::Operator* kernel_operator(const ember_fb::ExecutionPlan* plan,
                                          const ember_fb::Instruction* in) {
  const auto* call = in != nullptr ? in->instr_args_as_KernelCall() : nullptr;
  if (call == nullptr) return nullptr;
  const int64_t index = call->op_index();
  const uint32_t n = count(plan->operators());
  const ember_fb::Operator* op =
      index >= 0 && uint64_t(index) < n ? plan->operators()->Get(uint32_t(index)) : nullptr;
  return op != nullptr && op->name() != nullptr ? op : nullptr;
}

const flatbuffers::Vector<flatbuffers::Offset<ember_fb::Instruction>>* chain_instructions(
    const ember_fb::ExecutionPlan* plan, uint32_t c) {
  const ember_fb::Chain* chain = plan->chains()->Get(c);
  return chain != nullptr ? chain->instructions() : nullptr;
}

}  // namespace

size_t Method::fusion_slots(const ember_fb::ExecutionPlan* plan) {
  if (num_fusion_patterns() == 0) return 0;
  size_t slots = 0;
  for (uint32_t c = 0; c < count(plan->chains()); ++c) {
    const auto* instructions = chain_instructions(plan, c);
    const uint32_t n = count(instructions);
    for (uint32_t pc = 0; pc < n; ++pc) {
      for (size_t p = 0; p < num_fusion_patterns(); ++p) {
        const FusionPattern& pattern = fusion_pattern(p);
        bool match = pc + pattern.count <= n;
        for (size_t k = 0; match && k < pattern.count; ++k) {
          const ember_fb::Operator* op = kernel_operator(plan, instructions->Get(pc + uint32_t(k)));
          match = op != nullptr && operator_is(op, pattern.ops[k]);
        }
        if (match) {
          ++slots;
          break;
        }
      }
    }
  }
  return slots;
}

size_t Method::prepared_slots(const ember_fb::ExecutionPlan* plan) {
  if (num_operand_preparations() == 0) return 0;
  size_t slots = 0;
  for (uint32_t c = 0; c < count(plan->chains()); ++c) {
    const auto* instructions = chain_instructions(plan, c);
    for (uint32_t pc = 0; pc < count(instructions); ++pc) {
      const ember_fb::Operator* op = kernel_operator(plan, instructions->Get(pc));
      for (size_t p = 0; op != nullptr && p < num_operand_preparations(); ++p) {
        if (operator_is(op, operand_preparation(p).op)) {
          ++slots;
          break;
        }
      }
    }
  }
  return slots;
}

size_t Method::allocator_bytes(const ember_fb::ExecutionPlan* plan) {
  // parse_values: the value table, each value's own (its kind's row in
  // value_kinds.cpp), EXTERNAL buffers.
  const uint32_t num_values = count(plan->values());
  size_t total = method_allocation_bytes<EValue>(num_values);
  for (uint32_t i = 0; i < num_values; ++i) {
    total = add_bytes(total, value_allocation_bytes(plan->values()->Get(i)));
  }
  const size_t num_external = count_external_tensors(plan);
  if (num_external > 0) {
    total = add_bytes(total, method_allocation_bytes<FreeableBuffer>(num_external));
  }
  // resolve_operators_and_backends, init_delegates (compile specs).
  total = add_bytes(total, method_allocation_bytes<OpFunction>(count(plan->operators())));
  total = add_bytes(total, method_allocation_bytes<Delegate>(count(plan->delegates())));
  for (uint32_t d = 0; d < count(plan->delegates()); ++d) {
    const ember_fb::BackendDelegate* delegate = plan->delegates()->Get(d);
    total = add_bytes(total, method_allocation_bytes<CompileSpec>(
                                 delegate != nullptr ? count(delegate->compile_specs()) : 0));
  }
  // parse_chains: chains, instructions, argument lists.
  total = add_bytes(total, method_allocation_bytes<Chain>(count(plan->chains())));
  for (uint32_t c = 0; c < count(plan->chains()); ++c) {
    const auto* instructions = chain_instructions(plan, c);
    total = add_bytes(total, method_allocation_bytes<Instruction>(count(instructions)));
    for (uint32_t pc = 0; pc < count(instructions); ++pc) {
      const flatbuffers::Vector<int32_t>* args = call_args(instructions->Get(pc));
      if (args != nullptr) total = add_bytes(total, method_allocation_bytes<EValue*>(args->size()));
    }
  }
  // plan_fusions, plan_prepared_operands, the input flags.
  const size_t fusions = fusion_slots(plan);
  if (fusions > 0) total = add_bytes(total, method_allocation_bytes<FusedSequence>(fusions));
  const size_t prepared = prepared_slots(plan);
  if (prepared > 0) total = add_bytes(total, method_allocation_bytes<PreparedSlot>(prepared));
  return add_bytes(total, method_allocation_bytes<bool>(count(plan->inputs())));
}

}  // namespace ember
