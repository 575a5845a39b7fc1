// aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *,
//                ScalarType? dtype=None, Tensor(a!) out)
// Mean over `dim` (None or [] = all dims), accumulated in double. out must
// be floating (as PyTorch requires) and contiguous; a given dtype must
// equal out's. An empty reduction gives NaN.
#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/reduce_util.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

void mean_out_boxed(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, "aten::mean.out", 6);
  const Tensor self = a.tensor(0);
  const Optional<Span<int64_t>> dims = a.optional_int_list(1);
  const bool keepdim = a.bool_value(2);
  const Optional<int64_t> dtype = a.optional_enum(3);
  const Tensor out = a.tensor(4);
  if (!a.ok() || !check_supported_dtype(a, self, "self") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (!is_floating_type(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "out must be floating, got %s",
           scalar_type_name(out.scalar_type()));
    return;
  }
  if (dtype.has_value() && dtype.value() != int64_t(out.scalar_type())) {
    a.fail(Error::InvalidArgument, "dtype %lld differs from out dtype %s",
           static_cast<long long>(dtype.value()),
           scalar_type_name(out.scalar_type()));
    return;
  }
  ReducePlan plan;
  if (!make_reduce_plan(a, self, dims, keepdim, &plan) ||
      !resize_out(a, out, plan.out_shape.span())) {
    return;
  }
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  const int64_t es = int64_t(out.element_size());
  const double count = double(plan.reduce_count);
  visit_storage_dtype(self.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce_each<T, double>(
        plan, self.const_data_ptr<T>(), 0.0,
        [](double x, double y) { return x + y; },
        [&](int64_t i, double sum) {
          const double v = sum / count;
          (void)convert_elements(&v, ScalarType::Double, 0, dst + i * es,
                                 out.scalar_type(), 1, 1);
        });
  });
}

}  // namespace

EMBER_REGISTER_KERNEL("aten::mean.out", mean_out_boxed);

}  // namespace ember
