// EValue: the tagged value every method slot, kernel argument and method
// input/output is. One tag per member of the schema's KernelTypes union.
//
// EValue never owns memory. Strings point into the program's bytes; lists
// point into arrays from the method allocator. Int lists and tensor lists
// are "boxed": they hold pointers to other EValues of the method, so a size
// computed at run time (or a tensor moved into a list slot) is seen the next
// time the list is read.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace ember {

class EValue;

// A list whose elements live in other EValues. `unboxed` is scratch storage
// of the same length that get() refills on each call.
template <typename T>
class BoxedList final {
 public:
  BoxedList() = default;
  BoxedList(EValue* const* boxed, T* unboxed, size_t size)
      : boxed_(boxed), unboxed_(unboxed), size_(size) {}
  // Reads the current element values. Element types are checked when the
  // method loads, so this cannot fail.
  Span<T> get() const;
  size_t size() const { return size_; }
  EValue* const* boxed() const { return boxed_; }

 private:
  EValue* const* boxed_ = nullptr;
  T* unboxed_ = nullptr;
  size_t size_ = 0;
};

// A view of a serialized string; not necessarily NUL-terminated.
struct StringView {
  const char* data = nullptr;
  size_t size = 0;
};

template <>
Span<int64_t> BoxedList<int64_t>::get() const;
template <>
Span<Tensor> BoxedList<Tensor>::get() const;
template <>
Span<Optional<Tensor>> BoxedList<Optional<Tensor>>::get() const;

enum class Tag : uint8_t {
  None,
  Int,
  Double,
  Bool,
  String,
  Tensor,
  ListInt,
  ListDouble,
  ListBool,
  ListTensor,
  ListOptionalTensor,
};

const char* tag_name(Tag tag);

class EValue final {
 public:
  EValue() : tag_(Tag::None) { payload_.as_int = 0; }
  explicit EValue(int64_t v) : tag_(Tag::Int) { payload_.as_int = v; }
  explicit EValue(double v) : tag_(Tag::Double) { payload_.as_double = v; }
  explicit EValue(bool v) : tag_(Tag::Bool) { payload_.as_bool = v; }
  explicit EValue(Tensor t) : tag_(Tag::Tensor) { payload_.as_tensor = t; }
  explicit EValue(StringView s) : tag_(Tag::String) { payload_.as_string = s; }
  explicit EValue(BoxedList<int64_t> l) : tag_(Tag::ListInt) {
    payload_.as_int_list = l;
  }
  explicit EValue(Span<double> l) : tag_(Tag::ListDouble) {
    payload_.as_double_list = l;
  }
  explicit EValue(Span<bool> l) : tag_(Tag::ListBool) {
    payload_.as_bool_list = l;
  }
  explicit EValue(BoxedList<Tensor> l) : tag_(Tag::ListTensor) {
    payload_.as_tensor_list = l;
  }
  explicit EValue(BoxedList<Optional<Tensor>> l)
      : tag_(Tag::ListOptionalTensor) {
    payload_.as_optional_tensor_list = l;
  }

  Tag tag() const { return tag_; }
  bool is_none() const { return tag_ == Tag::None; }
  bool is_int() const { return tag_ == Tag::Int; }
  bool is_double() const { return tag_ == Tag::Double; }
  bool is_bool() const { return tag_ == Tag::Bool; }
  bool is_string() const { return tag_ == Tag::String; }
  bool is_tensor() const { return tag_ == Tag::Tensor; }
  bool is_int_list() const { return tag_ == Tag::ListInt; }
  bool is_double_list() const { return tag_ == Tag::ListDouble; }
  bool is_bool_list() const { return tag_ == Tag::ListBool; }
  bool is_tensor_list() const { return tag_ == Tag::ListTensor; }
  bool is_optional_tensor_list() const {
    return tag_ == Tag::ListOptionalTensor;
  }
  // Int, Double or Bool: what ATen calls a Scalar.
  bool is_scalar() const { return is_int() || is_double() || is_bool(); }

  // Accessors: the caller checks the tag first (kernels do so through
  // kernels/portable/util/args.h, which reports a type error instead).
  int64_t to_int() const { return payload_.as_int; }
  double to_double() const { return payload_.as_double; }
  bool to_bool() const { return payload_.as_bool; }
  StringView to_string() const { return payload_.as_string; }
  Tensor to_tensor() const { return payload_.as_tensor; }
  Span<int64_t> to_int_list() const { return payload_.as_int_list.get(); }
  Span<double> to_double_list() const { return payload_.as_double_list; }
  Span<bool> to_bool_list() const { return payload_.as_bool_list; }
  Span<Tensor> to_tensor_list() const { return payload_.as_tensor_list.get(); }
  Span<Optional<Tensor>> to_optional_tensor_list() const {
    return payload_.as_optional_tensor_list.get();
  }
  const BoxedList<int64_t>& boxed_int_list() const {
    return payload_.as_int_list;
  }
  const BoxedList<Tensor>& boxed_tensor_list() const {
    return payload_.as_tensor_list;
  }
  const BoxedList<Optional<Tensor>>& boxed_optional_tensor_list() const {
    return payload_.as_optional_tensor_list;
  }
  // Scalar as double (Int, Double or Bool); 0 for other tags.
  double scalar_to_double() const {
    return is_double() ? to_double()
           : is_int()  ? double(to_int())
           : is_bool() ? double(to_bool())
                       : 0.0;
  }

 private:
  union Payload {
    Payload() : as_int(0) {}
    int64_t as_int;
    double as_double;
    bool as_bool;
    StringView as_string;
    Tensor as_tensor;
    BoxedList<int64_t> as_int_list;
    Span<double> as_double_list;
    Span<bool> as_bool_list;
    BoxedList<Tensor> as_tensor_list;
    BoxedList<Optional<Tensor>> as_optional_tensor_list;
  } payload_;
  Tag tag_;
};

template <>
inline Span<int64_t> BoxedList<int64_t>::get() const {
  for (size_t i = 0; i < size_; ++i) {
    unboxed_[i] = boxed_[i]->to_int();
  }
  return {unboxed_, size_};
}

template <>
inline Span<Tensor> BoxedList<Tensor>::get() const {
  for (size_t i = 0; i < size_; ++i) {
    unboxed_[i] = boxed_[i]->to_tensor();
  }
  return {unboxed_, size_};
}

template <>
inline Span<Optional<Tensor>> BoxedList<Optional<Tensor>>::get() const {
  for (size_t i = 0; i < size_; ++i) {
    const EValue* v = boxed_[i];
    unboxed_[i] = (v == nullptr || v->is_none()) ? Optional<Tensor>()
                                                 : Optional<Tensor>(v->to_tensor());
  }
  return {unboxed_, size_};
}

}  // namespace ember
