// Rounding prim ops: executorch_prim::{ceil,round,trunc}.Scalar.
//
// Args: [a, out]. As upstream, `a` must be a Double (anything else fails with
// InvalidType) and out is overwritten with an Int. round() rounds half to
// even, like Python's round(), without relying on the floating-point
// environment. A NaN, an infinity or a result outside int64 fails with
// InvalidArgument (upstream's cast would be undefined behaviour).
#include <cmath>
#include <cstdint>

#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

enum class Rounding { Ceil, Round, Trunc };

double round_half_even(double v) {
  const double r = std::round(v);  // halves away from zero
  if (std::fabs(r - v) == 0.5) {
    return 2.0 * std::round(v / 2.0);
  }
  return r;
}

template <Rounding kMode>
void round_op(KernelContext& ctx, Span<EValue*> args, const char* op) {
  KernelArgs a(ctx, args, op, 2);
  if (!a.check_tag(0, Tag::Double)) {
    return;
  }
  const double v = args[0]->to_double();
  double r = 0.0;
  switch (kMode) {
    case Rounding::Ceil: r = std::ceil(v); break;
    case Rounding::Round: r = round_half_even(v); break;
    case Rounding::Trunc: r = std::trunc(v); break;
  }
  // int64 holds exactly [-2^63, 2^63); both bounds are exact doubles.
  constexpr double kLow = -9223372036854775808.0;
  constexpr double kHigh = 9223372036854775808.0;
  if (!(r >= kLow && r < kHigh)) {  // also rejects NaN
    a.fail(Error::InvalidArgument, "%g does not fit in int64", v);
    return;
  }
  *args[1] = EValue(int64_t(r));
}

constexpr char kCeil[] = "executorch_prim::ceil.Scalar";
constexpr char kRound[] = "executorch_prim::round.Scalar";
constexpr char kTrunc[] = "executorch_prim::trunc.Scalar";

void ceil_scalar(KernelContext& c, Span<EValue*> a) {
  round_op<Rounding::Ceil>(c, a, kCeil);
}
void round_scalar(KernelContext& c, Span<EValue*> a) {
  round_op<Rounding::Round>(c, a, kRound);
}
void trunc_scalar(KernelContext& c, Span<EValue*> a) {
  round_op<Rounding::Trunc>(c, a, kTrunc);
}

}  // namespace

EMBER_REGISTER_KERNEL(kCeil, ceil_scalar);
EMBER_REGISTER_KERNEL(kRound, round_scalar);
EMBER_REGISTER_KERNEL(kTrunc, trunc_scalar);

}  // namespace ember
