#include "runtime/executor/tensor_data_kind.h"

#include "schema/program_generated.h"

namespace ember {

// EXTERNAL first: validation refuses an external tensor that is also
// memory-planned, so the loader never sees one.
TensorDataKind tensor_data_kind(const ember_fb::Tensor* t) {
  const ember_fb::ExtraTensorInfo* extra = t->extra_tensor_info();
  if (extra != nullptr && extra->location() == ember_fb::TensorDataLocation::EXTERNAL) {
    return TensorDataKind::External;
  }
  if (t->allocation_info() != nullptr) return TensorDataKind::Planned;
  return t->data_buffer_idx() > 0 ? TensorDataKind::Constant : TensorDataKind::Unset;
}

}  // namespace ember
