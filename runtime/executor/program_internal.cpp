#include "runtime/executor/program_internal.h"

#include "runtime/core/error_message.h"
#include "runtime/executor/program_validation.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

template <typename T>
size_t count(const flatbuffers::Vector<T>* v) {
  return v == nullptr ? 0 : v->size();
}

// A string of the file as a view; null reads as empty.
Span<const char> view(const flatbuffers::String* s) {
  return s == nullptr ? Span<const char>() : Span<const char>(s->data(), s->size());
}

using MethodTables = ProgramInternals::MethodTables;
using Kind = MethodTables::InstructionKind;

// The instruction kinds validation accepts (validate_instruction), in one
// table; any other kind fails validation before a MethodTables exists.
struct KindRow {
  ember_fb::InstructionArguments serialized;
  Kind kind;
};
constexpr KindRow kKinds[] = {
    {ember_fb::InstructionArguments::KernelCall, Kind::Kernel},
    {ember_fb::InstructionArguments::DelegateCall, Kind::Delegate},
    {ember_fb::InstructionArguments::MoveCall, Kind::Move},
    {ember_fb::InstructionArguments::JumpFalseCall, Kind::JumpFalse},
    {ember_fb::InstructionArguments::FreeCall, Kind::Free},
};

// A call's operator or delegate index (checked by validation), else 0.
uint32_t table_index(const ember_fb::Instruction* ins) {
  if (const ember_fb::KernelCall* call = ins->instr_args_as_KernelCall()) {
    return uint32_t(call->op_index());
  }
  if (const ember_fb::DelegateCall* call = ins->instr_args_as_DelegateCall()) {
    return uint32_t(call->delegate_index());
  }
  return 0;
}

}  // namespace

Result<MethodTables> ProgramInternals::method_tables(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < program_.num_methods(), Error::InvalidArgument,
                        "method index %zu out of range (%zu methods)", index,
                        program_.num_methods());
  const ember_fb::ExecutionPlan* plan =
      program_.flatbuffer()->execution_plan()->Get(flatbuffers::uoffset_t(index));
  if (!program_.methods_validated_) {
    EMBER_RETURN_IF_ERROR(validate_execution_plan(program_, plan));
  }
  return MethodTables(program_, plan);
}

uint64_t ProgramInternals::constant_bytes() const {
  const ember_fb::Program* fb = program_.flatbuffer();
  uint64_t bytes = 0;
  const ember_fb::SubsegmentOffsets* cs = fb->constant_segment();
  if (cs != nullptr && count(cs->offsets()) > 0 && cs->segment_index() < count(fb->segments())) {
    bytes += program_.segment_size(cs->segment_index());
  }
  if (fb->constant_buffer() != nullptr) {
    for (const ember_fb::Buffer* buffer : *fb->constant_buffer()) {
      if (buffer != nullptr) bytes += count(buffer->storage());
    }
  }
  return bytes;
}

size_t MethodTables::num_operators() const { return count(plan_->operators()); }

Result<MethodTables::Operator> MethodTables::op(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_operators(), Error::InvalidArgument,
                        "operator %zu out of range (%zu operators)", index, num_operators());
  // Validation: every entry has a name.
  const ember_fb::Operator* op = plan_->operators()->Get(flatbuffers::uoffset_t(index));
  return Operator{view(op->name()), view(op->overload())};
}

size_t MethodTables::num_chains() const { return count(plan_->chains()); }

size_t MethodTables::num_instructions(size_t chain) const {
  if (chain >= num_chains()) return 0;
  // Validation: no chain is null.
  return count(plan_->chains()->Get(flatbuffers::uoffset_t(chain))->instructions());
}

Result<MethodTables::Instruction> MethodTables::instruction(size_t chain, size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_instructions(chain), Error::InvalidArgument,
                        "chain %zu instruction %zu out of range (%zu chains, %zu instructions)",
                        chain, index, num_chains(), num_instructions(chain));
  // Validation: every instruction has one of kKinds and its arguments, and
  // a call's operator or delegate index is in range.
  const ember_fb::Instruction* ins = plan_->chains()
                                         ->Get(flatbuffers::uoffset_t(chain))
                                         ->instructions()
                                         ->Get(flatbuffers::uoffset_t(index));
  for (const KindRow& row : kKinds) {
    if (row.serialized == ins->instr_args_type()) return Instruction{row.kind, table_index(ins)};
  }
  set_error_message("chain %zu instruction %zu has unknown kind %d", chain, index,
                    int(ins->instr_args_type()));
  return Error::Internal;  // validation rejects unknown kinds
}

size_t MethodTables::num_delegates() const { return count(plan_->delegates()); }

Result<MethodTables::Delegate> MethodTables::delegate(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_delegates(), Error::InvalidArgument,
                        "delegate %zu out of range (%zu delegates)", index, num_delegates());
  // Validation: an id and a data reference, INLINE or SEGMENT, in range.
  const ember_fb::BackendDelegate* d = plan_->delegates()->Get(flatbuffers::uoffset_t(index));
  const ember_fb::BackendDelegateDataReference* ref = d->processed();
  return Delegate{view(d->id()), ref->location() == ember_fb::DataLocation::INLINE,
                  ref->index()};
}

Result<FreeableBuffer> MethodTables::load_delegate_data(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_delegates(), Error::InvalidArgument,
                        "delegate %zu out of range (%zu delegates)", index, num_delegates());
  const ember_fb::BackendDelegate* d = plan_->delegates()->Get(flatbuffers::uoffset_t(index));
  return ProgramInternals(*program_).load_delegate_data(d->processed());
}

}  // namespace ember
