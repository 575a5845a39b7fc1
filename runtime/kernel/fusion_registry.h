// The fusion registry: short sequences of operator calls that a kernel
// library can run as one.
//
// A pattern names 2 or 3 operators ("aten::convolution.out", then
// "aten::_native_batch_norm_legit_no_training.out", ...) and, for each,
// the argument index of its primary output. When a method loads, it looks
// for consecutive kernel calls in a chain that match a pattern, where each
// call's primary output is the next call's first argument and is read
// nowhere else in the method (no other instruction, list, input or
// output, and no jump lands inside the sequence). At execute, the fused
// function gets every call's arguments; it either runs them as one and
// returns true (setting the context's failure on error, like a kernel),
// or declines and returns false, having written no tensor data, and the
// method runs the calls one by one. It writes only the last call's
// outputs (and may resize the others); the skipped intermediates are
// dead by construction.
//
// Static table, no heap; registration from static initializers
// (EMBER_REGISTER_FUSION), like kernels, with the same thread-safety
// rule: registered before threads start, then read-only.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

constexpr size_t kMaxFusedCalls = 3;

// calls[i] is the i-th call's boxed argument list (as a kernel gets it).
using FusedFunction = bool (*)(KernelContext& context, const Span<EValue*>* calls,
                               size_t count);

struct FusionPattern {
  const char* name;                 // for messages: "conv+batch_norm+relu"
  size_t count;                     // 2 or 3
  const char* ops[kMaxFusedCalls];  // "aten::convolution.out"
  size_t out_index[kMaxFusedCalls]; // argument index of each call's primary output
  FusedFunction fn;
};

constexpr size_t kMaxFusionPatterns = 32;

// Fails with Internal when the table is full or the pattern is malformed.
Error register_fusion(const FusionPattern& pattern);
size_t num_fusion_patterns();
const FusionPattern& fusion_pattern(size_t index);

}  // namespace ember

#define EMBER_REGISTER_FUSION(pattern)                                   \
  static const bool EMBER_CONCAT(ember_fusion_registered_, __LINE__) = \
      (::ember::register_fusion(pattern) == ::ember::Error::Ok)
