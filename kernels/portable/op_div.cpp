// aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out)
// aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode,
//                    Tensor(a!) out)
// aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
// aten::div.Scalar_mode_out(Tensor self, Scalar other, *,
//                           str? rounding_mode, Tensor(a!) out)
// True division (rounding_mode None): integral and Bool operands divide in
// Float, x / 0 gives inf or NaN. "trunc" and "floor" keep the promoted
// type: integers round toward zero or -inf (division by zero is an error),
// floats follow c10 (trunc(x / y), div_floor_floating). Bool is refused
// with a rounding mode, as in PyTorch.
#include <cmath>
#include <cstring>

#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

enum class Mode { True, Trunc, Floor };

bool parse_mode(KernelArgs& a, size_t index, Mode* mode) {
  const Optional<StringView> s = a.optional_string(index);
  if (!a.ok()) {
    return false;
  }
  if (!s.has_value()) {
    *mode = Mode::True;
    return true;
  }
  const StringView v = s.value();
  if (v.size == 5 && std::memcmp(v.data, "trunc", 5) == 0) {
    *mode = Mode::Trunc;
  } else if (v.size == 5 && std::memcmp(v.data, "floor", 5) == 0) {
    *mode = Mode::Floor;
  } else {
    return a.fail(Error::InvalidArgument,
                  "rounding_mode must be None, 'trunc' or 'floor', got '%.*s'",
                  int(v.size), v.data);
  }
  return true;
}

// True division computes in floating point whatever the operands
// (float_result_type()).
void run_true_div(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                  ScalarType result) {
  run_floating_binary(a, self, other, out, result, [](auto x, auto y) { return x / y; });
}

void run_trunc_div(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                   ScalarType result) {
  run_division_like(
      a, self, other, out, result, [](auto x, auto y) { return int_div_trunc(x, y); },
      [](auto x, auto y) { return std::trunc(x / y); });
}

void run_floor_div(KernelArgs& a, Tensor self, Tensor other, Tensor out,
                   ScalarType result) {
  run_division_like(
      a, self, other, out, result, [](auto x, auto y) { return int_div_floor(x, y); },
      [](auto x, auto y) { return float_div_floor(x, y); });
}

void run_mode(KernelArgs& a, Tensor self, Tensor other, Tensor out,
              ScalarType result, Mode mode) {
  switch (mode) {
    case Mode::True: run_true_div(a, self, other, out, result); return;
    case Mode::Trunc: run_trunc_div(a, self, other, out, result); return;
    case Mode::Floor: run_floor_div(a, self, other, out, result); return;
  }
}

void div_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  binary_tensor_kernel(ctx, args, "aten::div.out",
                       [](KernelArgs& a, Tensor self, Tensor other, Tensor out,
                          ScalarType result) {
                         run_true_div(a, self, other, out, float_result_type(result));
                       });
}

void div_scalar_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::div.Scalar_out", 4);
  const Tensor self = a.tensor(0);
  const Scalar other = a.scalar(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  result = float_result_type(result);
  with_scalar_operand(a, other, result,
                      [&](Tensor o) { run_true_div(a, self, o, out, result); });
}

void div_out_mode_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::div.out_mode", 5);
  const Tensor self = a.tensor(0), other = a.tensor(1);
  Mode mode = Mode::True;
  if (!parse_mode(a, 2, &mode)) {
    return;
  }
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  if (mode == Mode::True) {
    result = float_result_type(result);
  }
  run_mode(a, self, other, out, result, mode);
}

void div_scalar_mode_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::div.Scalar_mode_out", 5);
  const Tensor self = a.tensor(0);
  const Scalar other = a.scalar(1);
  Mode mode = Mode::True;
  if (!parse_mode(a, 2, &mode)) {
    return;
  }
  const Tensor out = a.tensor(3);
  if (!a.ok()) {
    return;
  }
  ScalarType result;
  if (!operand_result_type(a, self, other, &result)) {
    return;
  }
  if (mode == Mode::True) {
    result = float_result_type(result);
  }
  with_scalar_operand(a, other, result, [&](Tensor o) {
    run_mode(a, self, o, out, result, mode);
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::div.out", div_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::div.out_mode", div_out_mode_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::div.Scalar_out", div_scalar_out_boxed);
EMBER_REGISTER_PREPARED_KERNEL("aten::div.Scalar_mode_out", div_scalar_mode_out_boxed);

}  // namespace ember
