// KernelArgs: checked access to a boxed kernel's arguments, for every
// kernel library (the portable operators and the prim ops alike).
//
// The runtime checks value indices at load, but not that each argument has
// the type the operator's schema expects (that would need the schema). So a
// kernel unpacks its arguments through KernelArgs, which checks the count
// and each tag and records a precise message ("aten::add.out: argument 2
// should be Tensor, got Int") on the first fault. After a fault every
// accessor returns a harmless default and ok() is false; the kernel checks
// ok() once before computing.
//
//   void add_out_boxed(KernelContext& ctx, Span<EValue*> args) {
//     KernelArgs a(ctx, args, "aten::add.out", 5);
//     Tensor self = a.tensor(0), other = a.tensor(1);
//     Scalar alpha = a.scalar(2);
//     Tensor out = a.tensor(3);
//     if (!a.ok()) return;
//     ...
//   }
//
// One fault, one Error (the kernel fails with it through its KernelContext;
// the message starts with the operator name):
//   - an argument count the operator does not take   -> InvalidProgram
//   - an argument whose tag the operator does not take -> InvalidType
//   - a Tensor argument with elements but no storage   -> InvalidState
//     (tensor(), optional_tensor(), tensor_list(), optional_tensor_list();
//     not tensor_maybe_unbound())
// Kernels report their own faults (values out of range, dtypes, shapes)
// with fail().
//
// KernelArgs borrows the context, the argument span and op_name: all must
// outlive it (op_name is usually a string literal).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_context.h"

namespace ember {

// An ATen Scalar: Int, Double or Bool.
struct Scalar {
  enum class Kind : uint8_t { Int, Double, Bool } kind = Kind::Int;
  int64_t i = 0;
  double d = 0.0;
  bool b = false;

  double to_double() const {
    return kind == Kind::Double ? d : kind == Kind::Int ? double(i) : double(b);
  }
  // A Double converts truncated toward zero, saturating at the int64
  // limits (NaN gives 0): casting an out-of-range double is undefined.
  int64_t to_int() const {
    if (kind == Kind::Int) {
      return i;
    }
    if (kind == Kind::Bool) {
      return int64_t(b);
    }
    return !(d == d) ? 0
           : d <= -9.2233720368547758e18 ? INT64_MIN
           : d >= 9.2233720368547758e18  ? INT64_MAX
                                         : int64_t(d);
  }
  bool is_floating() const { return kind == Kind::Double; }
  bool is_integral() const { return kind == Kind::Int; }
  bool is_bool() const { return kind == Kind::Bool; }
};

class KernelArgs final {
 public:
  // Fails (and records a message) unless args.size() == expected_count.
  KernelArgs(KernelContext& context, Span<EValue*> args, const char* op_name,
             size_t expected_count);

  bool ok() const { return ok_; }
  size_t size() const { return args_.size(); }
  const EValue& value(size_t i) const { return *args_[i]; }

  Tensor tensor(size_t i);
  // A Tensor that may have no storage: for ops that read only its metadata
  // or alias its data (the prim ops sym_size, et_view, ...).
  Tensor tensor_maybe_unbound(size_t i);
  Optional<Tensor> optional_tensor(size_t i);  // Tensor or None
  Scalar scalar(size_t i);                      // Int, Double or Bool
  Optional<Scalar> optional_scalar(size_t i);   // scalar or None
  int64_t int_value(size_t i);
  Optional<int64_t> optional_int(size_t i);
  double double_value(size_t i);
  bool bool_value(size_t i);
  Optional<bool> optional_bool(size_t i);
  Span<int64_t> int_list(size_t i);
  Optional<Span<int64_t>> optional_int_list(size_t i);
  Span<double> double_list(size_t i);
  Span<bool> bool_list(size_t i);
  Span<Tensor> tensor_list(size_t i);
  Span<Optional<Tensor>> optional_tensor_list(size_t i);
  StringView string(size_t i);
  Optional<StringView> optional_string(size_t i);
  // Optional ScalarType/MemoryFormat/Layout enums are serialized as Int or
  // None.
  Optional<int64_t> optional_enum(size_t i) { return optional_int(i); }

  // For arguments no typed accessor covers (an Int or a Double, say), with
  // the accessors' message and Error: check_tag() fails with InvalidType
  // unless argument i has tag `tag` and returns ok(); wrong_type() reports
  // that argument i is not `wanted` ("Int or Double"), fails with
  // InvalidType (unless a fault came first) and returns false.
  bool check_tag(size_t i, Tag tag);
  bool wrong_type(size_t i, const char* wanted);

  // The call's mode (KernelContext::Mode). A kernel registered with
  // EMBER_REGISTER_PREPARED_KERNEL skips its tag, dtype and shape checks
  // and its output sizing when prepared(); when preparing(), it calls
  // prepared_stop() where it would start computing and returns. In Prepare
  // mode tensor() does not require storage (inputs may be bound later); in
  // Prepared mode it checks storage but not the tag.
  bool preparing() const { return context_.mode() == KernelContext::Mode::Prepare; }
  bool prepared() const { return context_.mode() == KernelContext::Mode::Prepared; }
  // Marks the Prepare call complete; returns false, so that a prologue can
  // end with `return args.prepared_stop();` and the kernel returns.
  bool prepared_stop() {
    context_.stop();
    return false;
  }

  // Records "<op>: <formatted detail>" and fails the kernel with `error`.
  // Always returns false so it can end an expression:
  // `return a.fail(Error::InvalidArgument, "...")`.
  bool fail(Error error, const char* fmt, ...) EMBER_PRINTF_LIKE(3, 4);

  // For an `error` returned by a call that recorded its own message
  // (resize_tensor, say): puts "<op>: " in front of that message
  // (prefix_error_message) and fails the kernel. Always returns false.
  bool fail_with_cause(Error error);

 private:
  bool usable(size_t i) const;
  bool expect(size_t i, bool matches, const char* wanted);
  Tensor any_tensor(size_t i, bool needs_storage);
  bool has_storage(size_t i, const Tensor& t);

  KernelContext& context_;
  Span<EValue*> args_;
  const char* op_name_;
  bool ok_ = true;
};

}  // namespace ember
