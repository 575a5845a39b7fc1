// Test helpers for boxed prim op calls.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operator_registry.h"

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

}  // namespace ember::testing
