// What a traced Method logs besides its profiling events: the names of
// kernel events, kernel results, program outputs (runtime/core/
// event_tracer.h). Only used while a tracer is attached; the traced
// instruction itself runs in method.cpp, beside the untraced loop.
#include <cstdio>
#include <cstring>

#include "runtime/executor/method.h"
#include "schema/program_generated.h"
#include "runtime/platform/format.h"

namespace ember {
namespace {

// Which arguments of a kernel call are its results, [*begin, *end). The
// boxed convention puts the return values last:
//  - an out-variant returns its out arguments again (the same values), so
//    the longest repeated tail is the return list;
//  - one returning several tensors (native_layer_norm.out, batch norm,
//    max_pool2d_with_indices.out) returns them as a tensor list whose
//    elements are the out arguments just before it: those are logged one
//    by one, as upstream's generated wrappers log each return;
//  - otherwise the last argument is the (single) result.
void kernel_results(EValue* const* args, size_t n, size_t* begin, size_t* end) {
  *end = n;
  for (size_t k = n / 2; k >= 1; --k) {
    bool repeated = true;
    for (size_t i = 0; i < k && repeated; ++i) {
      repeated = args[n - k + i] == args[n - 2 * k + i];
    }
    if (repeated) {
      *begin = n - k;
      return;
    }
  }
  *begin = n > 0 ? n - 1 : 0;
  if (n == 0 || !args[n - 1]->is_tensor_list()) {
    return;
  }
  const BoxedList<Tensor>& list = args[n - 1]->boxed_tensor_list();
  const size_t m = list.size();
  if (m == 0 || m > n - 1) {
    return;
  }
  for (size_t i = 0; i < m; ++i) {
    if (list.boxed()[i] != args[n - 1 - m + i]) {
      return;
    }
  }
  *begin = n - 1 - m;
  *end = n - 1;
}

}  // namespace

// "native_call_convolution.out" (aten's namespace dropped, as upstream's
// generated kernel wrappers name the event), or "fused:<pattern>".
void Method::operator_event_name(const Instruction& ins, bool fused, char* out,
                                 size_t size) const {
  if (fused) {
    format_text(out, size, "fused:%s", fusions_[ins.fusion - 1].pattern->name);
    return;
  }
  const ember_fb::Operator* op = plan_->operators()->Get(ins.index);
  const char* name = op->name()->c_str();
  if (std::strncmp(name, "aten::", 6) == 0) {
    name += 6;
  }
  const char* overload = op->overload() != nullptr ? op->overload()->c_str() : "";
  format_text(out, size, "native_call_%s%s%s", name, overload[0] ? "." : "", overload);
}

void Method::log_kernel_outputs(const Instruction& ins) const {
  size_t begin = 0;
  size_t end = 0;
  kernel_results(ins.args, ins.num_args, &begin, &end);
  for (size_t i = begin; i < end; ++i) {
    event_tracer_->log_value(*ins.args[i], LoggedValueKind::IntermediateOutput);
  }
}

void Method::log_program_outputs() const {
  if (event_tracer_->debug_level() < EventTracerDebugLevel::ProgramOutputs) {
    return;
  }
  for (size_t i = 0; i < outputs_size(); ++i) {
    event_tracer_->log_value(get_output(i), LoggedValueKind::ProgramOutput);
  }
}

}  // namespace ember
