// aten::nonzero.out(Tensor self, *, Tensor(a!) out)
// out (Long, [count, self.dim()]) lists the coordinates of self's nonzero
// elements in row-major order. The count is data-dependent: out is a
// bounded-dynamic tensor, resized within its bound (an error if the count
// does not fit). Any dim orders.
#include <type_traits>

#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/index_util.h"
#include "kernels/portable/util/shape_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

template <typename T>
bool is_nonzero(T v) {
  if constexpr (is_reduced_float_v<T>) {
    return float(v) != 0.0f;
  } else {
    return v != T(0);
  }
}

void nonzero_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::nonzero.out", 3);
  const Tensor self = a.tensor(0);
  const Tensor out = a.tensor(1);
  if (!a.ok() || !check_supported_dtype(a, self, "self")) {
    return;
  }
  if (out.scalar_type() != ScalarType::Long || out.dim() != 2) {
    a.fail(Error::InvalidArgument, "out must be a 2-D Long tensor");
    return;
  }
  const size_t nd = self.dim();
  int64_t strides[1][kMaxTensorDim];
  strides_of(self, strides[0]);
  (void)visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* data = self.const_data_ptr<T>();
    const int64_t n = self.numel();
    int64_t count = 0;
    {
      Odometer<1> walk(self.sizes().data(), nd, strides);
      for (int64_t i = 0; i < n; ++i, walk.next()) {
        count += is_nonzero(load_element(data + walk.offsets()[0]));
      }
    }
    if (count > INT32_MAX) {
      a.fail(Error::InvalidArgument, "too many nonzero elements");
      return;
    }
    const SizesType shape[2] = {SizesType(count), SizesType(nd)};
    if (!resize_out(a, out, {shape, 2})) {
      return;
    }
    // out may have either dim order: write through its strides.
    int64_t* o = out.mutable_data_ptr<int64_t>();
    const int64_t row_stride = out.strides()[0], col_stride = out.strides()[1];
    Odometer<1> walk(self.sizes().data(), nd, strides);
    int64_t row = 0;
    for (int64_t i = 0; i < n; ++i, walk.next()) {
      if (is_nonzero(load_element(data + walk.offsets()[0]))) {
        for (size_t d = 0; d < nd; ++d) {
          o[row * row_stride + int64_t(d) * col_stride] = walk.coord()[d];
        }
        ++row;
      }
    }
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::nonzero.out", nonzero_out_boxed);

}  // namespace ember
