// Kernel prepare: at method load, each call of a kernel registered with
// EMBER_REGISTER_PREPARED_KERNEL whose tensors all have static shapes is
// called once in KernelContext::Mode::Prepare. The kernel checks its
// arguments, sizes its outputs and stops before computing; when it stops
// cleanly the call is marked checked and every execution runs it in
// Prepared mode, which skips those checks and the sizing.
//
// Left in Run mode (checked at every call, as without prepare):
//   - calls with a tensor whose shape may change (bounded or unbounded
//     dynamic), directly or in a tensor list;
//   - every call of a method with a move instruction (control flow: a move
//     hands a value another tensor);
//   - calls with a prepared operand or skipped for one (method_prepare.cpp);
//   - calls whose Prepare failed or did not reach its stop: the error, if
//     any, is reported when the call runs, as it would be without prepare
//     (a branch that never runs never fails).
// Nothing is allocated: Prepare mode gets no temp allocator.
#include "runtime/core/error_message.h"
#include "runtime/executor/method.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

bool is_static(const Tensor& t) { return t.shape_dynamism() == ShapeDynamism::Static; }

bool static_value(const EValue* v) {
  if (v == nullptr) return true;
  if (v->is_tensor()) return is_static(v->to_tensor());
  if (v->is_tensor_list()) {
    for (const Tensor& t : v->to_tensor_list()) {
      if (!is_static(t)) return false;
    }
  }
  if (v->is_optional_tensor_list()) {
    for (const Optional<Tensor>& t : v->to_optional_tensor_list()) {
      if (t.has_value() && !is_static(t.value())) return false;
    }
  }
  return true;
}

}  // namespace

bool Method::has_static_shapes(const Instruction& ins) const {
  for (uint32_t i = 0; i < ins.num_args; ++i) {
    if (!static_value(ins.args[i])) return false;
  }
  return true;
}

void Method::prepare_kernels() {
  if (!kernel_prepare_enabled()) return;
  for (size_t c = 0; c < num_chains_; ++c) {
    for (size_t pc = 0; pc < chains_[c].size; ++pc) {
      if (chains_[c].instructions[pc].kind == InstructionKind::Move) return;
    }
  }
  for (size_t o = 0; o < num_operators_; ++o) {
    const ember_fb::Operator* op = plan_->operators()->Get(uint32_t(o));
    if (!kernel_prepares(op->name()->c_str(), op->overload() ? op->overload()->c_str() : "")) {
      continue;
    }
    for (size_t c = 0; c < num_chains_; ++c) {
      for (size_t pc = 0; pc < chains_[c].size; ++pc) {
        Instruction& ins = chains_[c].instructions[pc];
        if (ins.kind != InstructionKind::Kernel || ins.index != o || ins.prepared != 0 ||
            ins.skip || !has_static_shapes(ins)) {
          continue;
        }
        KernelContext context(nullptr);
        context.set_mode(KernelContext::Mode::Prepare);
        kernels_[o](context, Span<EValue*>(ins.args, ins.num_args));
        ins.checked = context.failure() == Error::Ok && context.stopped();
        prepare_stats_.prepared += ins.checked ? 1 : 0;
        prepare_stats_.failed += context.failure() != Error::Ok ? 1 : 0;
        prepare_stats_.unfinished += context.failure() == Error::Ok && !context.stopped() ? 1 : 0;
      }
    }
  }
  clear_error_message();
}

}  // namespace ember
