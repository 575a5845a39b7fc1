#include "runtime/core/evalue.h"

namespace ember {

const char* tag_name(Tag tag) {
  switch (tag) {
    case Tag::None: return "None";
    case Tag::Int: return "Int";
    case Tag::Double: return "Double";
    case Tag::Bool: return "Bool";
    case Tag::String: return "String";
    case Tag::Tensor: return "Tensor";
    case Tag::ListInt: return "IntList";
    case Tag::ListDouble: return "DoubleList";
    case Tag::ListBool: return "BoolList";
    case Tag::ListTensor: return "TensorList";
    case Tag::ListOptionalTensor: return "OptionalTensorList";
  }
  return "Unknown";
}

}  // namespace ember
