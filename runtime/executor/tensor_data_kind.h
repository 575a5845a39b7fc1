// Where a serialized tensor's bytes come from: decided once, here, for
// every load-time reader (validation checks each kind's fields,
// parse_tensor places the data by it, the prepared-operand planner asks
// whether it is a constant). Internal to runtime/executor.
#pragma once

namespace ember_fb {
struct Tensor;
}

namespace ember {

enum class TensorDataKind {
  Planned,   // allocation_info: the caller's planned memory (maybe with initial bytes)
  External,  // EXTERNAL location: a .ptd data map
  Constant,  // data_buffer_idx > 0: the program's constant bytes
  Unset,     // none: an input or output the application gives
};

TensorDataKind tensor_data_kind(const ember_fb::Tensor* t);

}  // namespace ember
