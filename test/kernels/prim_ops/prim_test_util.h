// Test helpers for boxed prim op calls. Every operator called through
// call() is recorded for the operator coverage test
// (test/kernels/operator_call_log.h).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "runtime/core/error_message.h"
#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operator_registry.h"
#include "test/kernels/operator_call_log.h"

namespace ember::testing {

// Looks up "ns::name.overload" (or "ns::name") the way the runtime does:
// the name and the overload separately.
inline OpFunction lookup(const std::string& full) {
  const size_t ns = full.find("::");
  const size_t dot = full.find('.', ns == std::string::npos ? 0 : ns);
  if (dot == std::string::npos) {
    return find_kernel(full.c_str(), "");
  }
  const std::string name = full.substr(0, dot);
  const std::string overload = full.substr(dot + 1);
  return find_kernel(name.c_str(), overload.c_str());
}

// Owns the EValues of one call; args() is what the kernel receives.
class Stack {
 public:
  Stack(std::initializer_list<EValue> values) : values_(values) {
    for (EValue& v : values_) {
      ptrs_.push_back(&v);
    }
  }
  Span<EValue*> args() { return {ptrs_.data(), ptrs_.size()}; }
  EValue& operator[](size_t i) { return values_[i]; }
  EValue& back() { return values_.back(); }

 private:
  std::vector<EValue> values_;
  std::vector<EValue*> ptrs_;
};

// Calls `op` and returns the context's failure (Error::Ok on success).
inline Error call(const std::string& op, Stack& stack) {
  OpFunction fn = lookup(op);
  EXPECT_NE(fn, nullptr) << op << " is not registered";
  if (fn == nullptr) {
    return Error::OperatorMissing;
  }
  record_operator_call(op);
  clear_error_message();
  KernelContext ctx;
  fn(ctx, stack.args());
  return ctx.failure();
}

inline bool message_has(const char* needle) {
  return std::strstr(last_error_message(), needle) != nullptr;
}

inline EValue I(int64_t v) { return EValue(v); }
inline EValue D(double v) { return EValue(v); }
inline EValue B(bool v) { return EValue(v); }

inline constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
inline constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// The Int result of a binary scalar op.
inline int64_t int_result(const std::string& op, EValue a, EValue b) {
  Stack s{a, b, EValue()};
  EXPECT_EQ(call(op, s), Error::Ok) << op << ": " << last_error_message();
  EXPECT_TRUE(s.back().is_int()) << op;
  return s.back().to_int();
}

// The Double result of a binary scalar op.
inline double double_result(const std::string& op, EValue a, EValue b) {
  Stack s{a, b, EValue()};
  EXPECT_EQ(call(op, s), Error::Ok) << op << ": " << last_error_message();
  EXPECT_TRUE(s.back().is_double()) << op;
  return s.back().to_double();
}

// Expects `op` to fail with `err` and leave the output untouched.
inline void expect_binary_error(const std::string& op, EValue a, EValue b, Error err) {
  Stack s{a, b, I(12345)};
  EXPECT_EQ(call(op, s), err) << op;
  EXPECT_TRUE(s.back().is_int() && s.back().to_int() == 12345) << op;
  EXPECT_TRUE(message_has(op.c_str())) << last_error_message();
}

// A boxed int list as the runtime builds it (each element its own EValue).
class IntList {
 public:
  explicit IntList(std::vector<int64_t> values)
      : items_(values.size()), unboxed_(values.size()) {
    for (size_t i = 0; i < values.size(); ++i) {
      items_[i] = EValue(values[i]);
      ptrs_.push_back(&items_[i]);
    }
  }
  EValue value() {
    return EValue(BoxedList<int64_t>(ptrs_.data(), unboxed_.data(), ptrs_.size()));
  }

 private:
  std::vector<EValue> items_;
  std::vector<EValue*> ptrs_;
  std::vector<int64_t> unboxed_;
};

inline std::vector<SizesType> sizes_of(Tensor t) {
  return std::vector<SizesType>(t.sizes().begin(), t.sizes().end());
}

}  // namespace ember::testing
