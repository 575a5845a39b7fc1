// Operand preparations: a kernel's constant operand laid out once, when
// the application asks after load, instead of on every execution.
//
// A preparation names an operator ("aten::addmm.out") and the argument
// index of an operand that is often a constant weight (2: mat2). When a
// method plans its prepared operands (Method::prepared_operands_bytes),
// it finds each call of that operator whose operand is
//   - a constant of the program (its bytes are in the program, read-only), or
//   - the output of permute_copy.out with dims [1, 0] (or [-1, -2]) of a
//     2-D constant, read by nothing but that call: the transpose every
//     exported linear layer has; the permute is then skipped at execute,
// asks the preparation how many bytes it wants for that call (0: none, it
// cannot use one) and, given the memory (Method::prepare_operands),
// writes the prepared form there. At execute the kernel finds it through
// KernelContext::prepared_operand() and recognises it by `preparation`.
//
// Static table, no heap, registered from static initializers like
// kernels and fusions (EMBER_REGISTER_OPERAND_PREPARATION); read-only
// once threads start.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {

// Where a prepared operand comes from: the operand equals `constant`, or
// its transpose when `transposed` (constant is then 2-D).
struct OperandSource {
  Tensor constant;
  bool transposed = false;
};

struct OperandPreparation {
  const char* name;  // for messages and logs: "gemm_b_f32"
  const char* op;    // "aten::addmm.out"
  size_t operand;    // argument index of the operand
  // Bytes the prepared form needs for this call (0: not for this call,
  // say a dtype it does not handle). `args` are the call's arguments as
  // loaded: shapes are the serialized ones, non-constant data unset.
  size_t (*bytes)(Span<EValue*> args, const OperandSource& source);
  // Writes the prepared form into `out` (64-byte aligned, `bytes` long).
  void (*prepare)(Span<EValue*> args, const OperandSource& source, void* out);
};

// What a kernel gets at execute (KernelContext::prepared_operand()).
struct PreparedOperand {
  const OperandPreparation* preparation = nullptr;
  const void* data = nullptr;
  size_t bytes = 0;
};

constexpr size_t kMaxOperandPreparations = 16;

// Fails with Internal when the table is full or the entry is malformed.
Error register_operand_preparation(const OperandPreparation& preparation);
size_t num_operand_preparations();
const OperandPreparation& operand_preparation(size_t index);

}  // namespace ember

#define EMBER_REGISTER_OPERAND_PREPARATION(preparation)                     \
  static const bool EMBER_CONCAT(ember_preparation_registered_, __LINE__) = \
      (::ember::register_operand_preparation(preparation) == ::ember::Error::Ok)
