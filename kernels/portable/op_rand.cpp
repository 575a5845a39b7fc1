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
#include "kernels/portable/util/shape_util.h"
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
  KernelArgs a(ctx, args, "aten::rand.out", 3);
  const Span<int64_t> size = a.int_list(0);
  const Tensor out = a.tensor(1);
  Shape shape;
  if (!a.ok() || !to_shape(a, size, "size", &shape) || !check_contiguous(a, out, "out")) {
    return;
  }
  const ScalarType type = out.scalar_type();
  const bool floating = visit_float_double_half_bfloat16_dtype(type, [](auto) {});
  if (!floating) {
    a.fail(Error::InvalidArgument,
           "out must be Float, Double, Half or BFloat16, got %s", scalar_type_name(type));
    return;
  }
  if (!resize_out(a, out, shape.span())) {
    return;
  }
  const RandomStream stream = next_random_stream();
  visit_float_double_half_bfloat16_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_uniform<T>(stream, out.numel(), out.mutable_data_ptr<T>());
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::rand.out", rand_out_boxed);

}  // namespace ember
