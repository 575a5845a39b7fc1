// aten::rand.out(SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
//
// Resizes out to `size` and fills it with independent values uniform in
// [0, 1): each is a random multiple of 2^-b, b the significand bits of
// out's dtype (24 for Float, 53 Double, 11 Half, 8 BFloat16), so every
// value is exact in that dtype and none rounds up to 1. Where the random
// bits come from (a numbered stream per call, a documented default seed,
// thread safety) is described in util/random_util.h. Float, Double, Half,
// BFloat16; no heap, no temp memory.
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/random_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
void fill_uniform(RandomStream s, int64_t n, T* out) {
  for (int64_t i = 0; i < n; ++i) {
    out[i] = cast_value<T>(random_unit(random_bits(s, uint64_t(i)), significand_bits<T>()));
  }
}

void rand_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  random_out_boxed(ctx, args, "aten::rand.out",
                   [](RandomStream s, int64_t n, auto* out) { fill_uniform(s, n, out); });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::rand.out", rand_out_boxed);

}  // namespace ember
