// Result<T>: a value or an Error, never both.
//
// Usage without statement-expression macros:
//   Result<Program> program = Program::load(&loader);
//   if (!program.ok()) return program.error();
//   program->num_methods();
// Accessing the value of a failed Result is a programming error (asserted).
#pragma once

#include <cassert>
#include <new>
#include <type_traits>
#include <utility>

#include "runtime/core/error.h"

namespace ember {

template <typename T>
class [[nodiscard]] Result final {
 public:
  Result(Error error) : error_(error == Error::Ok ? Error::Internal : error) {}  // NOLINT
  Result(const T& value) : has_value_(true), error_(Error::Ok) {  // NOLINT
    new (&storage_) T(value);
  }
  Result(T&& value) : has_value_(true), error_(Error::Ok) {  // NOLINT
    new (&storage_) T(std::move(value));
  }
  Result(Result&& other) noexcept
      : has_value_(other.has_value_), error_(other.error_) {
    if (has_value_) {
      new (&storage_) T(std::move(*other.ptr()));
    }
  }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;
  ~Result() {
    if (has_value_) {
      ptr()->~T();
    }
  }

  bool ok() const { return has_value_; }
  Error error() const { return error_; }

  T& get() {
    assert(has_value_);
    return *ptr();
  }
  const T& get() const {
    assert(has_value_);
    return *ptr();
  }
  T& operator*() { return get(); }
  const T& operator*() const { return get(); }
  T* operator->() { return &get(); }
  const T* operator->() const { return &get(); }

 private:
  T* ptr() { return reinterpret_cast<T*>(&storage_); }
  const T* ptr() const { return reinterpret_cast<const T*>(&storage_); }

  typename std::aligned_storage<sizeof(T), alignof(T)>::type storage_;
  bool has_value_ = false;
  Error error_;
};

}  // namespace ember
