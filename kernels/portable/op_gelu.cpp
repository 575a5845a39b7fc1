// aten::gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out)
// approximate "none": x/2 * (1 + erf(x / sqrt(2)));
// approximate "tanh": x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))).
// Floating inputs only, like PyTorch.
#include <cmath>
#include <cstring>

#include "kernels/portable/util/unary_math.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

// M_SQRT1_2 and friends are POSIX, not C++17 (newlib hides them).
constexpr double kSqrtHalf = 0.70710678118654752440;          // 1 / sqrt(2)
constexpr double kSqrtTwoOverPi = 0.79788456080286535588;     // sqrt(2 / pi)

bool string_is(StringView s, const char* want) {
  return s.size == std::strlen(want) && std::memcmp(s.data, want, s.size) == 0;
}

void gelu_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::gelu.out", 4);
  const Tensor self = a.tensor(0);
  const StringView approximate = a.string(1);
  const Tensor out = a.tensor(2);
  if (!a.ok()) {
    return;
  }
  if (!is_floating_type(self.scalar_type())) {
    a.fail(Error::InvalidArgument, "gelu needs a floating input, got %s",
           scalar_type_name(self.scalar_type()));
    return;
  }
  if (string_is(approximate, "none")) {
    float_unary_run(a, self, out, [](auto x) {
      using C = decltype(x);
      return C(0.5) * x * (C(1) + std::erf(x * C(kSqrtHalf)));
    }, math::gelu_f32);
  } else if (string_is(approximate, "tanh")) {
    float_unary_run(a, self, out, [](auto x) {
      using C = decltype(x);
      const C kBeta = C(kSqrtTwoOverPi);  // sqrt(2 / pi)
      const C inner = kBeta * (x + C(0.044715) * x * x * x);
      return C(0.5) * x * (C(1) + std::tanh(inner));
    });
  } else {
    a.fail(Error::InvalidArgument,
           "approximate must be 'none' or 'tanh', got '%.*s'",
           int(approximate.size), approximate.data);
  }
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::gelu.out", gelu_out_boxed);

}  // namespace ember
