// Prepared operands (runtime/kernel/operand_preparation.h): planned at
// load, written when the application gives the memory.
//
// Plan: for each kernel call of a registered preparation's operator (not
// inside a fused sequence), the operand must be a constant, or a
// transpose of a 2-D constant by a permute_copy.out that nothing but this
// call reads. The preparation says how many bytes it wants; slots are
// laid out 64-byte aligned, counted in one pass and recorded in a second
// (method allocator, as for fusions).
//
// Prepare: each slot's bytes are written, then the call is pointed at its
// slot and its transpose, if any, marked to be skipped.
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/executor/method.h"
#include "runtime/executor/method_allocation.h"
#include "runtime/executor/operator_name.h"
#include "runtime/executor/tensor_data_kind.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

constexpr size_t kPreparedAlignment = 64;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// dims of a 2-D permute that swaps the two axes: [1, 0], negatives allowed.
bool swaps_two_axes(const EValue& dims) {
  if (!dims.is_int_list()) return false;
  const Span<int64_t> d = dims.to_int_list();
  if (d.size() != 2) return false;
  const int64_t a = d[0] < 0 ? d[0] + 2 : d[0];
  const int64_t b = d[1] < 0 ? d[1] + 2 : d[1];
  return a == 1 && b == 0;
}

bool same_sizes(const Tensor& a, const Tensor& b) {
  if (a.dim() != b.dim() || a.scalar_type() != b.scalar_type()) return false;
  for (size_t d = 0; d < a.dim(); ++d) {
    if (a.sizes()[d] != b.sizes()[d]) return false;
  }
  return true;
}

}  // namespace

bool Method::is_constant_tensor(const EValue* value) const {
  const size_t index = size_t(value - values_);
  if (index >= num_values_ || !value->is_tensor()) return false;
  const ember_fb::Tensor* t = plan_->values()->Get(uint32_t(index))->val_as_Tensor();
  if (t == nullptr) return false;
  const TensorDataKind kind = tensor_data_kind(t);
  return (kind == TensorDataKind::Constant || kind == TensorDataKind::External) &&
         value->to_tensor().const_data_ptr() != nullptr;
}

bool Method::in_fused_sequence(const Instruction& ins) const {
  for (size_t f = 0; f < num_fusions_; ++f) {
    for (size_t k = 0; k < fusions_[f].pattern->count; ++k) {
      if (fusions_[f].calls[k].data() == ins.args) return true;
    }
  }
  return false;
}

// The operand's source, and the transpose that produces it (null when
// the operand is itself a constant). False when it is neither.
bool Method::find_operand_source(Instruction& consumer, size_t operand, OperandSource* source,
                                 Instruction** producer) {
  EValue* v = consumer.args[operand];
  *producer = nullptr;
  if (is_constant_tensor(v)) {
    source->constant = v->to_tensor();
    source->transposed = false;
    return true;
  }
  size_t uses = 0;
  for (size_t i = 0; i < consumer.num_args; ++i) uses += consumer.args[i] == v ? 1 : 0;
  if (uses != 1) return false;
  for (size_t c = 0; c < num_chains_ && *producer == nullptr; ++c) {
    for (size_t pc = 0; pc < chains_[c].size; ++pc) {
      Instruction& ins = chains_[c].instructions[pc];
      if (ins.kind == InstructionKind::Kernel && ins.num_args >= 3 && ins.args[2] == v &&
          operator_is(plan_->operators()->Get(ins.index), "aten::permute_copy.out")) {
        *producer = &ins;
        break;
      }
    }
  }
  Instruction* p = *producer;
  if (p == nullptr || in_fused_sequence(*p) || !is_constant_tensor(p->args[0]) ||
      p->args[0]->to_tensor().dim() != 2 || !swaps_two_axes(*p->args[1])) {
    *producer = nullptr;
    return false;
  }
  const Span<EValue*> own(p->args, p->num_args);
  if (referenced_elsewhere(size_t(v - values_), p, &consumer, own)) {
    *producer = nullptr;
    return false;
  }
  source->constant = p->args[0]->to_tensor();
  source->transposed = true;
  return true;
}

// An earlier slot of the first `count` with the same preparation of the
// same constant in the same orientation and size (a recurrent layer's
// weight, read by every time step through its own transpose): its bytes
// serve this call too, so the weight is packed, and held in cache, once.
const Method::PreparedSlot* Method::same_prepared_form(const PreparedSlot& slot,
                                                       size_t count) const {
  for (size_t i = 0; i < count; ++i) {
    const PreparedSlot& other = prepared_[i];
    if (!other.shared && other.preparation == slot.preparation &&
        other.source.transposed == slot.source.transposed && other.bytes == slot.bytes &&
        other.source.constant.const_data_ptr() == slot.source.constant.const_data_ptr() &&
        same_sizes(other.source.constant, slot.source.constant)) {
      return &other;
    }
  }
  return nullptr;
}

Error Method::plan_prepared_operands() {
  const size_t slots = prepared_slots(plan_);
  if (slots == 0) return Error::Ok;
  // As many slots as the operators allow (method_memory.cpp), so that the
  // method allocator's need is known before loading; found <= slots.
  prepared_ = allocate_method_array<PreparedSlot>(memory_manager_->method_allocator(), slots,
                                                  shown_name().c_str(), "prepared operand slots");
  if (prepared_ == nullptr) return Error::MemoryAllocationFailed;
  size_t found = 0, bytes = 0;
  for (size_t c = 0; c < num_chains_; ++c) {
    for (size_t pc = 0; pc < chains_[c].size; ++pc) {
      Instruction& ins = chains_[c].instructions[pc];
      // A fused sequence's first call gets its prepared operand too (the
      // fused kernel reads it); the calls after it do not.
      if (ins.kind != InstructionKind::Kernel || (ins.fusion == 0 && in_fused_sequence(ins))) {
        continue;
      }
      const ember_fb::Operator* op = plan_->operators()->Get(ins.index);
      for (size_t p = 0; p < num_operand_preparations(); ++p) {
        const OperandPreparation& prep = operand_preparation(p);
        if (prep.operand >= ins.num_args || !operator_is(op, prep.op)) continue;
        OperandSource source;
        Instruction* producer = nullptr;
        if (!find_operand_source(ins, prep.operand, &source, &producer)) continue;
        const Span<EValue*> args(ins.args, ins.num_args);
        const size_t want = prep.bytes(args, source);
        if (want == 0) continue;
        prepared_[found] = PreparedSlot{&ins, producer, &prep, source, bytes, want, {}};
        const PreparedSlot* same = same_prepared_form(prepared_[found], found);
        if (same != nullptr) {
          prepared_[found].offset = same->offset;
          prepared_[found].shared = true;
        } else {
          bytes += round_up(want, kPreparedAlignment);
        }
        ++found;
        break;
      }
    }
  }
  num_prepared_ = found;
  prepared_bytes_ = bytes;
  return Error::Ok;
}

Error Method::prepare_operands(Span<uint8_t> memory) {
  EMBER_CHECK_OR_RETURN(!operands_prepared_, Error::InvalidState,
                        "method '%s': operands were already prepared", shown_name().c_str());
  if (num_prepared_ == 0) return Error::Ok;
  EMBER_CHECK_OR_RETURN(memory.size() >= prepared_bytes_, Error::InvalidArgument,
                        "method '%s': prepared operands need %zu bytes, got %zu",
                        shown_name().c_str(), prepared_bytes_, memory.size());
  EMBER_CHECK_OR_RETURN(
      reinterpret_cast<uintptr_t>(memory.data()) % kPreparedAlignment == 0,
      Error::InvalidArgument, "method '%s': prepared operand memory must be %zu-byte aligned",
      shown_name().c_str(), kPreparedAlignment);
  for (size_t i = 0; i < num_prepared_; ++i) {
    PreparedSlot& slot = prepared_[i];
    void* out = memory.data() + slot.offset;
    if (!slot.shared) {
      slot.preparation->prepare(Span<EValue*>(slot.consumer->args, slot.consumer->num_args),
                                slot.source, out);
    }
    slot.operand = PreparedOperand{slot.preparation, out, slot.bytes};
  }
  for (size_t i = 0; i < num_prepared_; ++i) {
    prepared_[i].consumer->prepared = uint32_t(i + 1);
    if (prepared_[i].producer != nullptr) prepared_[i].producer->skip = true;
  }
  operands_prepared_ = true;
  return Error::Ok;
}

}  // namespace ember
