#include "runtime/executor/program_validation.h"

#include <cinttypes>

#include "runtime/core/error_message.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"
#include "runtime/executor/program.h"
#include "runtime/executor/program_internal.h"
#include "runtime/executor/tensor_data_kind.h"
#include "runtime/executor/value_kinds.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

using ember_fb::KernelTypes;

// Context for messages: "method 'forward' value 12: ..."
struct Where {
  const char* method;
};

template <typename T>
flatbuffers::uoffset_t count(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

bool index_ok(int64_t index, size_t n) { return index >= 0 && uint64_t(index) < n; }

KernelTypes value_type(const ember_fb::ExecutionPlan* plan, int64_t index) {
  const ember_fb::EValue* v = plan->values()->Get(flatbuffers::uoffset_t(index));
  return v == nullptr ? KernelTypes::NONE : v->val_type();
}

template <typename T>
bool aligned(const flatbuffers::Vector<T>* v) {
  return v == nullptr || reinterpret_cast<uintptr_t>(v->data()) % alignof(T) == 0;
}

// EXTERNAL data: constant bytes kept in a .ptd, found by key when the
// method loads; data_buffer_idx means nothing for it.
Error validate_external(const ember_fb::Tensor* t, const char* method, size_t i) {
  const ember_fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  char key[128];
  printable_name(extra->fully_qualified_name() ? extra->fully_qualified_name()->c_str() : "",
                 key, sizeof(key));
  EMBER_CHECK_OR_RETURN(
      extra->fully_qualified_name() != nullptr && extra->fully_qualified_name()->size() > 0,
      Error::InvalidProgram,
      "method '%s' value %zu: tensor data is external but has no key "
      "(fully_qualified_name)",
      method, i);
  EMBER_CHECK_OR_RETURN(t->allocation_info() == nullptr, Error::NotSupported,
                        "method '%s' value %zu: external tensor '%s' is memory-planned "
                        "(mutable external data); only external constants are supported",
                        method, i, key);
  return Error::Ok;
}

// A planned slot within its buffer, and its initial value (if any) within
// its mutable data segment.
Error validate_planned(const Program& program, const ember_fb::ExecutionPlan* plan,
                       const ember_fb::Tensor* t, size_t nbytes, const char* method, size_t i) {
  const ember_fb::AllocationDetails* alloc = t->allocation_info();
  const auto* sizes = plan->non_const_buffer_sizes();
  const uint32_t id = alloc->memory_id();
  EMBER_CHECK_OR_RETURN(id >= 1 && id < count(sizes), Error::InvalidProgram,
                        "method '%s' value %zu: memory_id %u out of range "
                        "(planned buffer ids are 1..%d)",
                        method, i, unsigned(id), int(count(sizes)) - 1);
  const uint64_t offset =
      uint64_t(alloc->memory_offset_low()) | uint64_t(alloc->memory_offset_high()) << 32;
  const size_t element = element_size(static_cast<ScalarType>(t->scalar_type()));
  EMBER_CHECK_OR_RETURN(offset % element == 0, Error::InvalidProgram,
                        "method '%s' value %zu: planned offset %" PRIu64
                        " is not aligned to its %zu-byte elements",
                        method, i, offset, element);
  const int64_t buffer_size = sizes->Get(id);
  EMBER_CHECK_OR_RETURN(
      buffer_size >= 0 && offset <= uint64_t(buffer_size) &&
          nbytes <= uint64_t(buffer_size) - offset,
      Error::InvalidProgram,
      "method '%s' value %zu: planned slot [%" PRIu64 ", +%zu) overruns "
      "planned buffer %u of %" PRId64 " bytes",
      method, i, offset, nbytes, unsigned(id), buffer_size);
  const uint32_t buffer_index = t->data_buffer_idx();
  if (buffer_index == 0) {
    return Error::Ok;
  }
  const ember_fb::Program* fb = ProgramInternals(program).flatbuffer();
  const ember_fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  const uint64_t seg_list = extra != nullptr ? extra->mutable_data_segments_idx() : 0;
  const auto* mds = fb->mutable_data_segments();
  EMBER_CHECK_OR_RETURN(
      mds != nullptr && seg_list < mds->size() && mds->Get(seg_list) != nullptr,
      Error::InvalidProgram,
      "method '%s' value %zu: initial value in mutable_data_segments[%" PRIu64
      "], which does not exist (%u entries)",
      method, i, seg_list, unsigned(count(mds)));
  const ember_fb::SubsegmentOffsets* sub = mds->Get(flatbuffers::uoffset_t(seg_list));
  EMBER_CHECK_OR_RETURN(
      fb->segments() != nullptr && sub->segment_index() < fb->segments()->size(),
      Error::InvalidProgram,
      "method '%s' value %zu: mutable data segment index %u out of range",
      method, i, unsigned(sub->segment_index()));
  EMBER_CHECK_OR_RETURN(
      buffer_index < count(sub->offsets()), Error::InvalidProgram,
      "method '%s' value %zu: mutable data offset index %u out of range "
      "(%u offsets)",
      method, i, unsigned(buffer_index), unsigned(count(sub->offsets())));
  const uint64_t seg_size = ProgramInternals(program).segment_size(sub->segment_index());
  const uint64_t data_offset = sub->offsets()->Get(buffer_index);
  EMBER_CHECK_OR_RETURN(
      data_offset <= seg_size && nbytes <= seg_size - data_offset,
      Error::InvalidProgram,
      "method '%s' value %zu: initial value [%" PRIu64 ", +%zu) overruns "
      "segment %u of %" PRIu64 " bytes",
      method, i, data_offset, nbytes, unsigned(sub->segment_index()), seg_size);
  return Error::Ok;
}


Error validate_args(const flatbuffers::Vector<int32_t>* args, size_t n,
                    const char* method, size_t chain, size_t pc) {
  for (flatbuffers::uoffset_t j = 0; j < count(args); ++j) {
    EMBER_CHECK_OR_RETURN(index_ok(args->Get(j), n), Error::InvalidProgram,
                          "method '%s' chain %zu instruction %zu: argument %u "
                          "is value %d, out of range (%zu values)",
                          method, chain, pc, unsigned(j), int(args->Get(j)), n);
  }
  return Error::Ok;
}

Error validate_instruction(const ember_fb::ExecutionPlan* plan, const char* method,
                           size_t chain, size_t pc, size_t num_instructions,
                           const ember_fb::Instruction* instruction) {
  const size_t n = count(plan->values());
  EMBER_CHECK_OR_RETURN(
      instruction != nullptr &&
          instruction->instr_args_type() != ember_fb::InstructionArguments::NONE,
      Error::InvalidProgram, "method '%s' chain %zu instruction %zu is empty",
      method, chain, pc);
  EMBER_CHECK_OR_RETURN(instruction->instr_args() != nullptr, Error::InvalidProgram,
                        "method '%s' chain %zu instruction %zu has a kind but no "
                        "arguments table",
                        method, chain, pc);
  switch (instruction->instr_args_type()) {
    case ember_fb::InstructionArguments::KernelCall: {
      const ember_fb::KernelCall* call = instruction->instr_args_as_KernelCall();
      EMBER_CHECK_OR_RETURN(index_ok(call->op_index(), count(plan->operators())),
                            Error::InvalidProgram,
                            "method '%s' chain %zu instruction %zu: operator "
                            "index %d out of range (%u operators)",
                            method, chain, pc, int(call->op_index()),
                            unsigned(count(plan->operators())));
      return validate_args(call->args(), n, method, chain, pc);
    }
    case ember_fb::InstructionArguments::DelegateCall: {
      const ember_fb::DelegateCall* call = instruction->instr_args_as_DelegateCall();
      EMBER_CHECK_OR_RETURN(index_ok(call->delegate_index(), count(plan->delegates())),
                            Error::InvalidProgram,
                            "method '%s' chain %zu instruction %zu: delegate "
                            "index %d out of range (%u delegates)",
                            method, chain, pc, int(call->delegate_index()),
                            unsigned(count(plan->delegates())));
      return validate_args(call->args(), n, method, chain, pc);
    }
    case ember_fb::InstructionArguments::MoveCall: {
      const ember_fb::MoveCall* move = instruction->instr_args_as_MoveCall();
      EMBER_CHECK_OR_RETURN(
          index_ok(move->move_from(), n) && index_ok(move->move_to(), n),
          Error::InvalidProgram,
          "method '%s' chain %zu instruction %zu: move %d -> %d out of range "
          "(%zu values)",
          method, chain, pc, int(move->move_from()), int(move->move_to()), n);
      // Values never change type at run time; a move between types would.
      EMBER_CHECK_OR_RETURN(
          value_type(plan, move->move_from()) == value_type(plan, move->move_to()),
          Error::InvalidProgram,
          "method '%s' chain %zu instruction %zu: move between values of "
          "different types (%d -> %d)",
          method, chain, pc, int(move->move_from()), int(move->move_to()));
      return Error::Ok;
    }
    case ember_fb::InstructionArguments::JumpFalseCall: {
      const ember_fb::JumpFalseCall* jump = instruction->instr_args_as_JumpFalseCall();
      const int32_t cond = jump->cond_value_index();
      EMBER_CHECK_OR_RETURN(
          index_ok(cond, n) && (value_type(plan, cond) == KernelTypes::Bool ||
                                value_type(plan, cond) == KernelTypes::Tensor),
          Error::InvalidProgram,
          "method '%s' chain %zu instruction %zu: jump condition %d is not a "
          "Bool or Tensor value",
          method, chain, pc, int(cond));
      // A jump to one past the last instruction ends the chain (what
      // upstream's emitter writes for torch.cond branches), as upstream's
      // executor runs it.
      EMBER_CHECK_OR_RETURN(index_ok(jump->destination_instruction(), num_instructions + 1),
                            Error::InvalidProgram,
                            "method '%s' chain %zu instruction %zu: jump to "
                            "instruction %d, which does not exist (%zu "
                            "instructions; %zu ends the chain)",
                            method, chain, pc, int(jump->destination_instruction()),
                            num_instructions, num_instructions);
      return Error::Ok;
    }
    case ember_fb::InstructionArguments::FreeCall: {
      const int32_t v = instruction->instr_args_as_FreeCall()->value_index();
      EMBER_CHECK_OR_RETURN(index_ok(v, n) && value_type(plan, v) == KernelTypes::Tensor,
                            Error::InvalidProgram,
                            "method '%s' chain %zu instruction %zu: free of "
                            "value %d, which is not a Tensor",
                            method, chain, pc, int(v));
      return Error::Ok;
    }
    default:
      set_error_message("method '%s' chain %zu instruction %zu has unknown "
                        "kind %d",
                        method, chain, pc, int(instruction->instr_args_type()));
      return Error::InvalidProgram;
  }
}

Error validate_delegates(const Program& program, const ember_fb::ExecutionPlan* plan,
                         const char* method) {
  const ember_fb::Program* fb = ProgramInternals(program).flatbuffer();
  for (flatbuffers::uoffset_t i = 0; i < count(plan->delegates()); ++i) {
    const ember_fb::BackendDelegate* d = plan->delegates()->Get(i);
    EMBER_CHECK_OR_RETURN(d != nullptr && d->id() != nullptr && d->processed() != nullptr,
                          Error::InvalidProgram,
                          "method '%s' delegate %u has no id or no data", method, unsigned(i));
    const ember_fb::BackendDelegateDataReference* ref = d->processed();
    if (ref->location() == ember_fb::DataLocation::INLINE) {
      EMBER_CHECK_OR_RETURN(ref->index() < count(fb->backend_delegate_data()) &&
                                fb->backend_delegate_data()->Get(ref->index()) != nullptr,
                            Error::InvalidProgram,
                            "method '%s' delegate %u (%s): inline data index %u "
                            "out of range (%u entries)",
                            method, unsigned(i), PrintableName(d->id()->c_str()).c_str(),
                            unsigned(ref->index()), unsigned(count(fb->backend_delegate_data())));
    } else if (ref->location() == ember_fb::DataLocation::SEGMENT) {
      EMBER_CHECK_OR_RETURN(ref->index() < count(fb->segments()), Error::InvalidProgram,
                            "method '%s' delegate %u (%s): segment index %u out "
                            "of range (%u segments)",
                            method, unsigned(i), PrintableName(d->id()->c_str()).c_str(),
                            unsigned(ref->index()), unsigned(count(fb->segments())));
    } else {
      set_error_message("method '%s' delegate %u: unknown data location %d", method,
                        unsigned(i), int(ref->location()));
      return Error::InvalidProgram;
    }
    for (flatbuffers::uoffset_t j = 0; j < count(d->compile_specs()); ++j) {
      const ember_fb::CompileSpec* spec = d->compile_specs()->Get(j);
      EMBER_CHECK_OR_RETURN(spec != nullptr && spec->key() != nullptr,
                            Error::InvalidProgram,
                            "method '%s' delegate %u: compile spec %u has no key",
                            method, unsigned(i), unsigned(j));
    }
  }
  return Error::Ok;
}

}  // namespace

// The tensor's own fields, then its data by the kind parse_tensor will
// place it as (tensor_data_kind(): one classification for both). The
// Tensor row of the value-kind table (value_kinds.cpp) calls this.
Error validate_tensor_value(const ValueCheck& check, const ember_fb::Tensor* t) {
  const Program& program = check.program;
  const ember_fb::ExecutionPlan* plan = check.plan;
  const char* method = check.method;
  const size_t i = check.index;
  Result<size_t> nbytes = serialized_tensor_nbytes(t, method, i);
  if (!nbytes.ok()) {
    return nbytes.error();
  }
  const size_t dim = count(t->sizes());
  if (t->dim_order() != nullptr) {
    EMBER_CHECK_OR_RETURN(
        t->dim_order()->size() == dim &&
            is_valid_dim_order({t->dim_order()->data(), dim}),
        Error::InvalidProgram,
        "method '%s' value %zu: dim_order is not a permutation of its %zu dims",
        method, i, dim);
  }
  EMBER_CHECK_OR_RETURN(t->storage_offset() == 0, Error::NotSupported,
                        "method '%s' value %zu: storage_offset %d is not "
                        "supported (must be 0)",
                        method, i, int(t->storage_offset()));
  const int dynamism = int(t->shape_dynamism());
  EMBER_CHECK_OR_RETURN(dynamism >= 0 && dynamism <= 2, Error::InvalidProgram,
                        "method '%s' value %zu: unknown shape_dynamism %d",
                        method, i, dynamism);
  switch (tensor_data_kind(t)) {
    case TensorDataKind::External:
      return validate_external(t, method, i);
    case TensorDataKind::Planned:
      return validate_planned(program, plan, t, *nbytes, method, i);
    case TensorDataKind::Constant:
      EMBER_CHECK_OR_RETURN(
          ProgramInternals(program).constant_in_range(t->data_buffer_idx(), *nbytes),
          Error::InvalidProgram,
          "method '%s' value %zu: constant buffer %u (%zu "
          "bytes) is missing or outside the constant data",
          method, i, unsigned(t->data_buffer_idx()), *nbytes);
      return Error::Ok;
    case TensorDataKind::Unset:
      return Error::Ok;
  }
  return Error::Ok;
}

Result<size_t> serialized_tensor_nbytes(const ember_fb::Tensor* t, const char* method,
                                        size_t i) {
  EMBER_CHECK_OR_RETURN(is_valid_scalar_type(int(t->scalar_type())),
                        Error::InvalidProgram,
                        "method '%s' value %zu: unknown scalar type %d", method, i,
                        int(t->scalar_type()));
  const size_t dim = count(t->sizes());
  EMBER_CHECK_OR_RETURN(dim <= kMaxTensorDim, Error::InvalidProgram,
                        "method '%s' value %zu: %zu dims, at most %zu supported",
                        method, i, dim, kMaxTensorDim);
  SizesType sizes[kMaxTensorDim];
  for (size_t d = 0; d < dim; ++d) {
    sizes[d] = t->sizes()->Get(flatbuffers::uoffset_t(d));
    EMBER_CHECK_OR_RETURN(sizes[d] >= 0, Error::InvalidProgram,
                          "method '%s' value %zu: negative size %d at dim %zu",
                          method, i, int(sizes[d]), d);
  }
  size_t nbytes = 0;
  EMBER_CHECK_OR_RETURN(
      checked_nbytes(element_size(static_cast<ScalarType>(t->scalar_type())), {sizes, dim},
                     &nbytes),
      Error::InvalidProgram,
      "method '%s' value %zu: tensor byte size overflows (its sizes multiply to more "
      "than 2^48 bytes)",
      method, i);
  return nbytes;
}

Error validate_vector_alignment(const ember_fb::Program* fb) {
  if (fb->constant_segment() != nullptr) {
    EMBER_CHECK_OR_RETURN(aligned(fb->constant_segment()->offsets()), Error::InvalidProgram,
                          "constant_segment.offsets is not 8-byte aligned in the file");
  }
  for (flatbuffers::uoffset_t m = 0; m < count(fb->mutable_data_segments()); ++m) {
    const ember_fb::SubsegmentOffsets* sub = fb->mutable_data_segments()->Get(m);
    EMBER_CHECK_OR_RETURN(sub == nullptr || aligned(sub->offsets()), Error::InvalidProgram,
                          "mutable_data_segments[%u].offsets is not 8-byte aligned in the "
                          "file",
                          unsigned(m));
  }
  for (flatbuffers::uoffset_t p = 0; p < count(fb->execution_plan()); ++p) {
    const ember_fb::ExecutionPlan* plan = fb->execution_plan()->Get(p);
    if (plan == nullptr) continue;
    const PrintableName printable(plan->name() != nullptr ? plan->name()->c_str() : "?");
    const char* method = printable.c_str();
    EMBER_CHECK_OR_RETURN(aligned(plan->non_const_buffer_sizes()), Error::InvalidProgram,
                          "method '%s': non_const_buffer_sizes is not 8-byte aligned in "
                          "the file",
                          method);
    for (flatbuffers::uoffset_t i = 0; i < count(plan->values()); ++i) {
      const ember_fb::EValue* v = plan->values()->Get(i);
      if (v == nullptr) continue;
      const ember_fb::IntList* ints = v->val_as_IntList();
      const ember_fb::DoubleList* doubles = v->val_as_DoubleList();
      EMBER_CHECK_OR_RETURN(
          (ints == nullptr || aligned(ints->items())) &&
              (doubles == nullptr || aligned(doubles->items())),
          Error::InvalidProgram,
          "method '%s' value %u: list items are not 8-byte aligned in the file", method,
          unsigned(i));
    }
  }
  return Error::Ok;
}

Error validate_execution_plan(const Program& program,
                              const ember_fb::ExecutionPlan* plan) {
  EMBER_CHECK_OR_RETURN(plan != nullptr && plan->name() != nullptr,
                        Error::InvalidProgram, "execution plan without a name");
  // Every message below names the method: escaped once, here.
  const PrintableName printable(plan->name()->c_str());
  const char* method = printable.c_str();
  const size_t n = count(plan->values());

  for (flatbuffers::uoffset_t i = 0; i < count(plan->non_const_buffer_sizes()); ++i) {
    EMBER_CHECK_OR_RETURN(plan->non_const_buffer_sizes()->Get(i) >= 0,
                          Error::InvalidProgram,
                          "method '%s': planned buffer %u has negative size %" PRId64,
                          method, unsigned(i), plan->non_const_buffer_sizes()->Get(i));
  }
  for (size_t i = 0; i < n; ++i) {
    EMBER_RETURN_IF_ERROR(validate_plan_value(ValueCheck{program, plan, method, i}));
  }
  for (flatbuffers::uoffset_t i = 0; i < count(plan->inputs()); ++i) {
    EMBER_CHECK_OR_RETURN(index_ok(plan->inputs()->Get(i), n), Error::InvalidProgram,
                          "method '%s' input %u is value %d, out of range (%zu "
                          "values)",
                          method, unsigned(i), int(plan->inputs()->Get(i)), n);
  }
  for (flatbuffers::uoffset_t i = 0; i < count(plan->outputs()); ++i) {
    EMBER_CHECK_OR_RETURN(index_ok(plan->outputs()->Get(i), n), Error::InvalidProgram,
                          "method '%s' output %u is value %d, out of range (%zu "
                          "values)",
                          method, unsigned(i), int(plan->outputs()->Get(i)), n);
  }
  for (flatbuffers::uoffset_t i = 0; i < count(plan->operators()); ++i) {
    const ember_fb::Operator* op = plan->operators()->Get(i);
    EMBER_CHECK_OR_RETURN(op != nullptr && op->name() != nullptr, Error::InvalidProgram,
                          "method '%s' operator %u has no name", method, unsigned(i));
  }
  EMBER_RETURN_IF_ERROR(validate_delegates(program, plan, method));
  for (flatbuffers::uoffset_t c = 0; c < count(plan->chains()); ++c) {
    const ember_fb::Chain* chain = plan->chains()->Get(c);
    EMBER_CHECK_OR_RETURN(chain != nullptr, Error::InvalidProgram,
                          "method '%s' chain %u is null", method, unsigned(c));
    const size_t num_instructions = count(chain->instructions());
    for (size_t pc = 0; pc < num_instructions; ++pc) {
      EMBER_RETURN_IF_ERROR(validate_instruction(
          plan, method, c, pc, num_instructions,
          chain->instructions()->Get(flatbuffers::uoffset_t(pc))));
    }
  }
  return Error::Ok;
}

}  // namespace ember
