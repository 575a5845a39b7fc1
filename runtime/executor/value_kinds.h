// Every kind of value an execution plan stores (the EValue union of the
// schema: Null, Int, Bool, Double, String, Tensor and the four lists) has
// one row here, and the row is the only place that knows the kind:
//
//   validate  what program validation checks (list items point at values
//             of the right kind, a tensor's fields and data location)
//   bytes     what building the value takes from the method allocator,
//             exactly (Method::allocator_bytes adds these up)
//   build     the EValue made at method load, with its arrays taken from
//             the method allocator by the same counts `bytes` states
//
// Program validation, MethodMeta's memory size and Method's load all walk
// the values through this table, so adding a kind is one row (see
// docs/building.md, "Adding a value kind"). Internal to runtime/executor.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/memory_allocator.h"

namespace ember_fb {
struct EValue;
struct ExecutionPlan;
struct Tensor;
}  // namespace ember_fb

namespace ember {

class Program;

// What validation sees: the program (for constant and segment ranges),
// the plan and the escaped method name for messages.
struct ValueCheck {
  const Program& program;
  const ember_fb::ExecutionPlan* plan;
  const char* method;
  size_t index;
};

// What building sees: the method allocator and the method's value table
// (every slot already a None EValue; lists point into it). Tensors are
// placed by the method (planned memory, constants, external data), through
// `tensor`.
struct ValueBuild {
  MemoryAllocator* allocator;
  EValue* values;
  const char* method;
  size_t index;
  Error (*tensor)(void* owner, size_t index, const ember_fb::Tensor* tensor);
  void* owner;
};

struct ValueKind {
  uint8_t type;  // ember_fb::KernelTypes
  const char* name;
  Error (*validate)(const ValueCheck& check, const ember_fb::EValue& value);
  size_t (*bytes)(const ember_fb::EValue& value);
  Error (*build)(const ValueBuild& build, const ember_fb::EValue& value);
};

// The row of a value's kind; null for NONE and for types this build does
// not know (a newer schema).
const ValueKind* find_value_kind(const ember_fb::EValue* value);

// Checks one value of a structurally verified plan: it has a kind and a
// table, the kind is known, and the kind's own checks pass.
Error validate_plan_value(const ValueCheck& check);

// A tensor's own checks, by where its data lives (program_validation.cpp).
Error validate_tensor_value(const ValueCheck& check, const ember_fb::Tensor* tensor);

// The method allocator's bytes of one value; 0 for an unknown kind.
// Runs on plans not validated yet: an absent field counts as empty.
size_t value_allocation_bytes(const ember_fb::EValue* value);

// Tensors whose bytes come from a .ptd data map: the method keeps one
// buffer handle per such tensor.
size_t count_external_tensors(const ember_fb::ExecutionPlan* plan);

}  // namespace ember
