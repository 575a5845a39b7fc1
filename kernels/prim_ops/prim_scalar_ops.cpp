// Scalar arithmetic prim ops: the SymInt/SymFloat math the exporter leaves in
// a program for dynamic shapes (upstream kernels/prim_ops/register_prim_ops.cpp).
//
//   executorch_prim::add.Scalar, sub.Scalar, mul.Scalar      (Scalar, Scalar)
//   executorch_prim::floordiv.Scalar, truediv.Scalar          (Scalar, Scalar)
//   executorch_prim::mod.Scalar, floordiv.int, mod.int        (int, int)
//   executorch_prim::neg.Scalar, sym_float.Scalar             (Scalar)
//   executorch_prim::sym_max.Scalar, sym_min.Scalar           (int, int)
//
// Args are the inputs then the output EValue, which is overwritten.
// Semantics follow Python, as the exporter traced them:
//   - int op int gives int; any Double operand gives double (Bool operands
//     are rejected with InvalidType, as upstream does);
//   - truediv always gives double;
//   - floordiv rounds toward negative infinity, mod takes the sign of the
//     divisor (upstream's C++ uses truncating `/` and `%` for the .int
//     overloads and mod.Scalar; we use Python's rule, which is what the
//     traced program meant and agrees with upstream for non-negative values);
//   - division or modulo by zero (int or double) fails with InvalidArgument,
//     like Python's ZeroDivisionError, instead of upstream's trap (ints) or
//     +-inf (doubles);
//   - int64 overflow (INT64_MIN // -1, add/sub/mul/neg past the range) fails
//     with InvalidArgument instead of being undefined behaviour.
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <limits>

#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

constexpr char kAdd[] = "executorch_prim::add.Scalar";
constexpr char kSub[] = "executorch_prim::sub.Scalar";
constexpr char kMul[] = "executorch_prim::mul.Scalar";
constexpr char kFloorDiv[] = "executorch_prim::floordiv.Scalar";
constexpr char kTrueDiv[] = "executorch_prim::truediv.Scalar";
constexpr char kMod[] = "executorch_prim::mod.Scalar";
constexpr char kFloorDivInt[] = "executorch_prim::floordiv.int";
constexpr char kModInt[] = "executorch_prim::mod.int";
constexpr char kNeg[] = "executorch_prim::neg.Scalar";
constexpr char kSymFloat[] = "executorch_prim::sym_float.Scalar";
constexpr char kSymMax[] = "executorch_prim::sym_max.Scalar";
constexpr char kSymMin[] = "executorch_prim::sym_min.Scalar";

// An Int or Double argument.
struct Number {
  bool is_int = true;
  int64_t i = 0;
  double d = 0.0;
  double as_double() const { return is_int ? double(i) : d; }
};

// Reads argument k, an Int or a Double.
bool read_number(KernelArgs& checked, size_t k, Number* out) {
  if (!checked.ok()) {
    return false;
  }
  const EValue& v = checked.value(k);
  if (v.is_int()) {
    out->is_int = true;
    out->i = v.to_int();
    return true;
  }
  if (v.is_double()) {
    out->is_int = false;
    out->d = v.to_double();
    return true;
  }
  return checked.wrong_type(k, "Int or Double");
}

// Reads the two numeric operands of a binary op ([a, b, out]).
bool read_binary(KernelArgs& checked, Number* a, Number* b) {
  return read_number(checked, 0, a) && read_number(checked, 1, b);
}

// Reads two Int operands (the int-only overloads).
bool read_int_pair(KernelArgs& checked, int64_t* a, int64_t* b) {
  *a = checked.int_value(0);
  *b = checked.int_value(1);
  return checked.ok();
}

bool overflow_error(KernelArgs& checked, const char* what, int64_t a,
                    int64_t b) {
  return checked.fail(Error::InvalidArgument,
                      "int64 overflow in %" PRId64 " %s %" PRId64, a, what, b);
}

bool zero_division_error(KernelArgs& checked) {
  return checked.fail(Error::InvalidArgument, "division by zero");
}

// Python's int floor division; b != 0 and (a, b) != (INT64_MIN, -1).
int64_t floor_div_int(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Python's int modulo (sign of the divisor); b != 0.
int64_t mod_int(int64_t a, int64_t b) {
  if (b == -1) {
    return 0;  // INT64_MIN % -1 overflows in C++; the result is 0.
  }
  const int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// Python's float floor division (CPython float_floor_div); b != 0. Computed
// from the remainder so that a == (a // b) * b + a % b holds despite
// rounding.
double floor_div_double(double a, double b) {
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0) != (mod < 0))) {
    div -= 1.0;
  }
  if (div == 0.0) {
    return std::copysign(0.0, a / b);
  }
  double floordiv = std::floor(div);
  if (div - floordiv > 0.5) {
    floordiv += 1.0;
  }
  return floordiv;
}

// Checks a divisor for the int and double paths.
bool check_divisor(KernelArgs& checked, const Number& a, const Number& b) {
  if (b.as_double() == 0.0) {
    return zero_division_error(checked);
  }
  if (a.is_int && b.is_int && a.i == std::numeric_limits<int64_t>::min() &&
      b.i == -1) {
    return overflow_error(checked, "//", a.i, b.i);
  }
  return true;
}

enum class Arith { Add, Sub, Mul };

template <Arith kOp>
void arith(KernelContext& ctx, Span<EValue*> args, const char* op,
           const char* symbol) {
  KernelArgs checked(ctx, args, op, 3);
  Number a, b;
  if (!read_binary(checked, &a, &b)) {
    return;
  }
  if (a.is_int && b.is_int) {
    int64_t r = 0;
    bool overflow = false;
    switch (kOp) {
      case Arith::Add: overflow = __builtin_add_overflow(a.i, b.i, &r); break;
      case Arith::Sub: overflow = __builtin_sub_overflow(a.i, b.i, &r); break;
      case Arith::Mul: overflow = __builtin_mul_overflow(a.i, b.i, &r); break;
    }
    if (overflow) {
      overflow_error(checked, symbol, a.i, b.i);
      return;
    }
    *args[2] = EValue(r);
    return;
  }
  const double x = a.as_double();
  const double y = b.as_double();
  double r = 0.0;
  switch (kOp) {
    case Arith::Add: r = x + y; break;
    case Arith::Sub: r = x - y; break;
    case Arith::Mul: r = x * y; break;
  }
  *args[2] = EValue(r);
}

void add_scalar(KernelContext& ctx, Span<EValue*> args) {
  arith<Arith::Add>(ctx, args, kAdd, "+");
}
void sub_scalar(KernelContext& ctx, Span<EValue*> args) {
  arith<Arith::Sub>(ctx, args, kSub, "-");
}
void mul_scalar(KernelContext& ctx, Span<EValue*> args) {
  arith<Arith::Mul>(ctx, args, kMul, "*");
}

void floordiv_scalar(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kFloorDiv, 3);
  Number a, b;
  if (!read_binary(checked, &a, &b) || !check_divisor(checked, a, b)) {
    return;
  }
  if (a.is_int && b.is_int) {
    *args[2] = EValue(floor_div_int(a.i, b.i));
  } else {
    *args[2] = EValue(floor_div_double(a.as_double(), b.as_double()));
  }
}

void truediv_scalar(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kTrueDiv, 3);
  Number a, b;
  if (!read_binary(checked, &a, &b)) {
    return;
  }
  if (b.as_double() == 0.0) {
    zero_division_error(checked);
    return;
  }
  *args[2] = EValue(a.as_double() / b.as_double());
}

// mod.Scalar, mod.int and floordiv.int take ints only (upstream rejects
// other tags for mod.Scalar too).
void mod_impl(KernelContext& ctx, Span<EValue*> args, const char* op) {
  KernelArgs checked(ctx, args, op, 3);
  int64_t a = 0, b = 0;
  if (!read_int_pair(checked, &a, &b)) {
    return;
  }
  if (b == 0) {
    zero_division_error(checked);
    return;
  }
  *args[2] = EValue(mod_int(a, b));
}

void mod_scalar(KernelContext& ctx, Span<EValue*> args) {
  mod_impl(ctx, args, kMod);
}
void mod_int_op(KernelContext& ctx, Span<EValue*> args) {
  mod_impl(ctx, args, kModInt);
}

void floordiv_int(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kFloorDivInt, 3);
  int64_t a = 0, b = 0;
  if (!read_int_pair(checked, &a, &b)) {
    return;
  }
  if (b == 0) {
    zero_division_error(checked);
    return;
  }
  if (a == std::numeric_limits<int64_t>::min() && b == -1) {
    overflow_error(checked, "//", a, b);
    return;
  }
  *args[2] = EValue(floor_div_int(a, b));
}

void neg_scalar(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kNeg, 2);
  Number a;
  if (!read_number(checked, 0, &a)) {
    return;
  }
  if (!a.is_int) {
    *args[1] = EValue(-a.d);
    return;
  }
  if (a.i == std::numeric_limits<int64_t>::min()) {
    checked.fail(Error::InvalidArgument, "int64 overflow in -(%" PRId64 ")",
                 a.i);
    return;
  }
  *args[1] = EValue(int64_t(-a.i));
}

void sym_float_scalar(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kSymFloat, 2);
  Number a;
  if (!read_number(checked, 0, &a)) {
    return;
  }
  *args[1] = EValue(a.as_double());
}

void sym_max_scalar(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kSymMax, 3);
  int64_t a = 0, b = 0;
  if (read_int_pair(checked, &a, &b)) {
    *args[2] = EValue(a > b ? a : b);
  }
}

void sym_min_scalar(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs checked(ctx, args, kSymMin, 3);
  int64_t a = 0, b = 0;
  if (read_int_pair(checked, &a, &b)) {
    *args[2] = EValue(a < b ? a : b);
  }
}

}  // namespace

EMBER_REGISTER_KERNEL(kAdd, add_scalar);
EMBER_REGISTER_KERNEL(kSub, sub_scalar);
EMBER_REGISTER_KERNEL(kMul, mul_scalar);
EMBER_REGISTER_KERNEL(kFloorDiv, floordiv_scalar);
EMBER_REGISTER_KERNEL(kTrueDiv, truediv_scalar);
EMBER_REGISTER_KERNEL(kMod, mod_scalar);
EMBER_REGISTER_KERNEL(kFloorDivInt, floordiv_int);
EMBER_REGISTER_KERNEL(kModInt, mod_int_op);
EMBER_REGISTER_KERNEL(kNeg, neg_scalar);
EMBER_REGISTER_KERNEL(kSymFloat, sym_float_scalar);
EMBER_REGISTER_KERNEL(kSymMax, sym_max_scalar);
EMBER_REGISTER_KERNEL(kSymMin, sym_min_scalar);

}  // namespace ember
