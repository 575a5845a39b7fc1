// aten::cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None,
//                  Tensor(a!) out)
// Running sum along `dim`, accumulated in double for a floating out and in
// int64 (wrapping) otherwise. A given dtype must equal out's (PyTorch
// gives Long for integral and Bool self without one). Contiguous tensors.
// The scan runs over [outer, size, inner] with the inner positions in
// stack blocks, so every loop is unit-stride.
//
// A prepared kernel: Prepared calls skip the dtype and contiguity checks
// and the resize (out has self's shape, static and sized at load); dim and
// dtype are values, checked at every call.
#include "kernels/portable/util/arithmetic.h"
#include "kernels/portable/util/reduce_ops.h"
#include "kernels/portable/util/type_promotion.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T, typename Acc>
void scan(const DimSplit& s, const T* in, Tensor out) {
  constexpr ScalarType kAcc = scalar_type_of<Acc>();
  constexpr int64_t kBlock = 256;
  Acc acc[kBlock];
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  const int64_t es = int64_t(out.element_size());
  for (int64_t o = 0; o < s.outer; ++o) {
    const int64_t base = o * s.size * s.inner;
    if (s.inner == 1) {
      Acc running = Acc(0);
      for (int64_t r0 = 0; r0 < s.size; r0 += kBlock) {
        const int64_t m = s.size - r0 < kBlock ? s.size - r0 : kBlock;
        for (int64_t r = 0; r < m; ++r) {
          running = add_values(running, cast_value<Acc>(load_element(in + base + r0 + r)));
          acc[r] = running;
        }
        (void)convert_elements(acc, kAcc, 1, dst + (base + r0) * es,
                               out.scalar_type(), 1, m);
      }
      continue;
    }
    for (int64_t j0 = 0; j0 < s.inner; j0 += kBlock) {
      const int64_t m = s.inner - j0 < kBlock ? s.inner - j0 : kBlock;
      for (int64_t j = 0; j < m; ++j) {
        acc[j] = Acc(0);
      }
      for (int64_t r = 0; r < s.size; ++r) {
        const int64_t off = base + r * s.inner + j0;
        const T* row = in + off;
        for (int64_t j = 0; j < m; ++j) {
          acc[j] = add_values(acc[j], cast_value<Acc>(load_element(row + j)));
        }
        (void)convert_elements(acc, kAcc, 1, dst + off * es, out.scalar_type(),
                               1, m);
      }
    }
  }
}

void cumsum_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::cumsum.out", 5);
  const Tensor self = a.tensor(0);
  const int64_t dim = a.int_value(1);
  const Optional<int64_t> dtype = a.optional_enum(2);
  const Tensor out = a.tensor(3);
  if (!a.ok() || (!a.prepared() && !check_supported_dtype(a, out, "out"))) {
    return;
  }
  if (dtype.has_value() && dtype.value() != int64_t(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "dtype %lld differs from out dtype %s",
           static_cast<long long>(dtype.value()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  if (!a.prepared() && !can_cast(self.scalar_type(), out.scalar_type())) {
    a.fail(Error::InvalidArgument, "cannot sum %s into out dtype %s",
           scalar_type_name(self.scalar_type()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  DimSplit split;
  // cumsum keeps the shape: resize out to self's shape.
  if (!dim_prologue(a, self, Optional<int64_t>(dim), true, nullptr, 0, false,
                    &split) ||
      (!a.prepared() &&
       (!check_contiguous(a, out, "out") || !resize_out(a, out, shape_of(self).span()))) ||
      !checks_done(a)) {
    return;
  }
  const bool floating = is_floating_type(out.scalar_type());
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (floating) {
      scan<T, double>(split, self.const_data_ptr<T>(), out);
    } else {
      scan<T, int64_t>(split, self.const_data_ptr<T>(), out);
    }
  });
}

}  // namespace

EMBER_REGISTER_PREPARED_KERNEL("aten::cumsum.out", cumsum_out_boxed);

}  // namespace ember
