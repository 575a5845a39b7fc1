#include "examples/executor_runner/runner_program_info.h"

#include <cstring>
#include <vector>

#include "runtime/core/error_message.h"
#include "runtime/executor/program_internal.h"
#include "schema/program_generated.h"

namespace ember::runner {
namespace {

std::string str(const flatbuffers::String* s) { return s != nullptr ? s->str() : std::string(); }

// A frame in PyTorch's own sources (torch/nn/modules/linear.py, say), not
// the model's.
bool in_torch(const std::string& file) {
  return file.find("/torch/") != std::string::npos || file.rfind("torch/", 0) == 0;
}

// The instruction's source frame: the innermost one outside PyTorch's own
// sources (the model's line: "x = self.fc(x)", rather than linear.py's
// F.linear call), or the innermost one when all are PyTorch's.
StackFrame source_frame(const ember_fb::Chain* chain, int64_t instruction) {
  StackFrame frame;
  const auto* traces = chain->stacktrace();
  if (traces == nullptr || instruction >= int64_t(traces->size())) return frame;
  const ember_fb::FrameList* list = traces->Get(flatbuffers::uoffset_t(instruction));
  if (list == nullptr || list->items() == nullptr || list->items()->size() == 0) return frame;
  const ember_fb::Frame* chosen = nullptr;
  for (flatbuffers::uoffset_t i = list->items()->size(); i-- > 0 && chosen == nullptr;) {
    const ember_fb::Frame* f = list->items()->Get(i);
    if (f != nullptr && !in_torch(str(f->filename()))) chosen = f;
  }
  if (chosen == nullptr) chosen = list->items()->Get(list->items()->size() - 1);
  if (chosen == nullptr) return frame;
  frame.present = true;
  frame.file = str(chosen->filename());
  frame.line = chosen->lineno();
  frame.name = str(chosen->name());
  frame.context = str(chosen->context());
  return frame;
}

}  // namespace

InstructionInfo instruction_info(const Program& program, const std::string& method,
                                 int64_t chain_index, int64_t instruction) {
  InstructionInfo info;
  const ember_fb::ExecutionPlan* plan = ProgramInternals(program).find_plan(method.c_str());
  if (plan == nullptr || plan->chains() == nullptr || chain_index < 0 ||
      chain_index >= int64_t(plan->chains()->size()) || instruction < 0) {
    return info;
  }
  const ember_fb::Chain* chain = plan->chains()->Get(flatbuffers::uoffset_t(chain_index));
  if (chain == nullptr || chain->instructions() == nullptr ||
      instruction >= int64_t(chain->instructions()->size())) {
    return info;
  }
  const ember_fb::Instruction* ins =
      chain->instructions()->Get(flatbuffers::uoffset_t(instruction));
  if (ins == nullptr) return info;
  info.found = true;
  info.frame = source_frame(chain, instruction);
  using Kind = ember_fb::InstructionArguments;
  switch (ins->instr_args_type()) {
    case Kind::KernelCall: {
      info.kind = "kernel";
      const ember_fb::KernelCall* call = ins->instr_args_as_KernelCall();
      const auto* ops = plan->operators();
      if (call != nullptr && ops != nullptr && call->op_index() >= 0 &&
          call->op_index() < int32_t(ops->size())) {
        const ember_fb::Operator* op = ops->Get(flatbuffers::uoffset_t(call->op_index()));
        if (op != nullptr) {
          info.op = str(op->name());
          const std::string overload = str(op->overload());
          if (!overload.empty()) info.op += "." + overload;
        }
      }
      break;
    }
    case Kind::DelegateCall: {
      info.kind = "delegate";
      const ember_fb::DelegateCall* call = ins->instr_args_as_DelegateCall();
      const auto* delegates = plan->delegates();
      if (call != nullptr && delegates != nullptr && call->delegate_index() >= 0 &&
          call->delegate_index() < int32_t(delegates->size())) {
        const ember_fb::BackendDelegate* d =
            delegates->Get(flatbuffers::uoffset_t(call->delegate_index()));
        if (d != nullptr) info.op = str(d->id());
      }
      break;
    }
    case Kind::MoveCall: info.kind = "move"; break;
    case Kind::JumpFalseCall: info.kind = "jump_false"; break;
    case Kind::FreeCall: info.kind = "free"; break;
    default: info.kind = "unknown"; break;
  }
  return info;
}

std::string printable(const std::string& raw) {
  std::vector<char> out(raw.size() * 4 + 1);
  printable_bytes(raw.data(), raw.size(), out.data(), out.size());
  return out.data();
}

std::string frame_text(const StackFrame& frame) {
  if (!frame.present) return "";
  std::string text = printable(frame.file) + ":" + std::to_string(frame.line);
  if (!frame.name.empty()) text += " (" + printable(frame.name) + ")";
  if (!frame.context.empty()) text += ": " + printable(frame.context);
  return text;
}

}  // namespace ember::runner
