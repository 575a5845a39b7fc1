// aten::repeat_interleave.Tensor_out(Tensor repeats, *,
//     SymInt? output_size=None, Tensor(a!) out)
// out (1-D, repeats' dtype: Long or Int) holds index i repeated
// repeats[i] times, in order: [2, 0, 1] -> [0, 0, 2]. repeats must be 1-D
// with no negative entry; output_size, when given, must equal the total.
// The length is data-dependent: out is a bounded-dynamic tensor resized
// within its bound (an error if the total does not fit).
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
void write_indices(const T* repeats, int64_t n, int64_t total, T* out) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T r = repeats[i];
    // k < total: repeats that a hostile memory plan placed under out can
    // change while out is written; never write past the resized out.
    for (T j = 0; j < r && k < total; ++j) {
      out[k++] = T(i);
    }
  }
}

void repeat_interleave_tensor_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::repeat_interleave.Tensor_out", 4);
  const Tensor repeats = a.tensor(0);
  const Optional<int64_t> output_size = a.optional_int(1);
  const Tensor out = a.tensor(2);
  if (!a.ok() || !check_index_tensor(a, repeats, "repeats")) {
    return;
  }
  if (out.scalar_type() != repeats.scalar_type()) {
    a.fail(Error::InvalidArgument, "out dtype %s differs from repeats dtype %s",
           scalar_type_name(out.scalar_type()), scalar_type_name(repeats.scalar_type()));
    return;
  }
  if (repeats.dim() != 1 || out.dim() != 1) {
    a.fail(Error::InvalidArgument,
           "repeats and out must be 1-D, got %zu and %zu dims", repeats.dim(), out.dim());
    return;
  }
  const int64_t n = repeats.numel();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = index_value(repeats.const_data_ptr(), repeats.scalar_type(), i);
    if (r < 0) {
      a.fail(Error::InvalidArgument, "repeats[%lld] = %lld is negative",
             static_cast<long long>(i), static_cast<long long>(r));
      return;
    }
    if (__builtin_add_overflow(total, r, &total) || total > INT32_MAX) {
      a.fail(Error::InvalidArgument, "the repeats add up to more than %d elements",
             int(INT32_MAX));
      return;
    }
  }
  if (output_size.has_value() && output_size.value() != total) {
    a.fail(Error::InvalidArgument, "output_size is %lld but the repeats add up to %lld",
           static_cast<long long>(output_size.value()), static_cast<long long>(total));
    return;
  }
  const SizesType out_size = SizesType(total);
  if (!resize_out(a, out, {&out_size, 1})) {
    return;
  }
  if (repeats.scalar_type() == ScalarType::Long) {
    write_indices(repeats.const_data_ptr<int64_t>(), n, total, out.mutable_data_ptr<int64_t>());
  } else {
    write_indices(repeats.const_data_ptr<int32_t>(), n, total, out.mutable_data_ptr<int32_t>());
  }
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::repeat_interleave.Tensor_out", repeat_interleave_tensor_out_boxed);

}  // namespace ember
