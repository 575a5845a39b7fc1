// aten::randn.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
//
// Resizes out to `size` and fills it with independent standard normal
// values (mean 0, variance 1), by the Box-Muller transform in double:
// elements 2k and 2k + 1 are r cos(t) and r sin(t) with r = sqrt(-2 ln u1)
// and t = 2 pi u2 for u1 in (0, 1] and u2 in [0, 1) from 53 random bits
// each, then rounded to out's dtype. |value| < 8.6 always (u1 >= 2^-53).
// Where the random bits come from (a numbered stream per call, a
// documented default seed, thread safety) is described in
// util/random_util.h. Float, Double, Half, BFloat16; no heap, no temp
// memory.
#include <cmath>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/random_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
void fill_normal(RandomStream s, int64_t n, T* out) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  for (int64_t i = 0; i < n; i += 2) {
    const double u1 = 1.0 - random_unit(random_bits(s, uint64_t(i)), 53);
    const double u2 = random_unit(random_bits(s, uint64_t(i) + 1), 53);
    const double r = std::sqrt(-2.0 * std::log(u1));
    out[i] = cast_value<T>(r * std::cos(kTwoPi * u2));
    if (i + 1 < n) {
      out[i + 1] = cast_value<T>(r * std::sin(kTwoPi * u2));
    }
  }
}

void randn_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  random_out_boxed(ctx, args, "aten::randn.out",
                   [](RandomStream s, int64_t n, auto* out) { fill_normal(s, n, out); });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::randn.out", randn_out_boxed);

}  // namespace ember
