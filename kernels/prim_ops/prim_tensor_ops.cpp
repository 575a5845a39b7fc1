// Prim ops that read a tensor's metadata or its first element:
//
//   aten::sym_size.int(Tensor self, int dim) -> SymInt       [self, dim, out]
//   aten::sym_stride.int(Tensor self, int dim) -> SymInt     [self, dim, out]
//   aten::sym_numel(Tensor self) -> SymInt                   [self, out]
//   aten::_local_scalar_dense(Tensor self) -> Scalar         [self, out]
//
// out is overwritten. `dim` may be negative (counted from the end); a dim
// outside [-rank, rank) fails with InvalidArgument (upstream does not check).
// sym_stride.int is not in upstream's register_prim_ops.cpp; Ember adds it
// because the exporter treats it as a sym op (exir executorch_prim_ops_registry).
// _local_scalar_dense reads element 0: integral dtypes give an Int, Float and
// Double give a Double, Bool a Bool (upstream's REAL_TYPES_AND(Bool)); Ember
// also accepts Half and BFloat16 (as Double). Other dtypes fail with
// InvalidArgument, as does an empty tensor.
#include <cinttypes>
#include <cstdint>

#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/operator_registry.h"

namespace ember {
namespace {

constexpr char kSymSize[] = "aten::sym_size.int";
constexpr char kSymStride[] = "aten::sym_stride.int";
constexpr char kSymNumel[] = "aten::sym_numel";
constexpr char kLocalScalarDense[] = "aten::_local_scalar_dense";

// Reads [Tensor, Int dim, out] and normalizes dim into [0, rank).
bool read_tensor_dim(KernelContext& ctx, Span<EValue*> args, const char* op,
                     Tensor* self, size_t* dim) {
  KernelArgs a(ctx, args, op, 3);
  *self = a.tensor_maybe_unbound(0);
  const int64_t d = a.int_value(1);
  if (!a.ok()) {
    return false;
  }
  const int64_t rank = int64_t(self->dim());
  if (d < -rank || d >= rank) {
    return a.fail(Error::InvalidArgument,
                  "dim %" PRId64 " out of range for a tensor of rank %" PRId64,
                  d, rank);
  }
  *dim = size_t(d < 0 ? d + rank : d);
  return true;
}

void sym_size_int(KernelContext& ctx, Span<EValue*> args) {
  Tensor self;
  size_t dim = 0;
  if (read_tensor_dim(ctx, args, kSymSize, &self, &dim)) {
    *args[2] = EValue(int64_t(self.sizes()[dim]));
  }
}

void sym_stride_int(KernelContext& ctx, Span<EValue*> args) {
  Tensor self;
  size_t dim = 0;
  if (read_tensor_dim(ctx, args, kSymStride, &self, &dim)) {
    *args[2] = EValue(int64_t(self.strides()[dim]));
  }
}

void sym_numel(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kSymNumel, 2);
  const Tensor self = a.tensor_maybe_unbound(0);
  if (a.ok()) {
    *args[1] = EValue(int64_t(self.numel()));
  }
}

template <typename T>
EValue first_as_int(Tensor t) {
  return EValue(int64_t(t.const_data_ptr<T>()[0]));
}

template <typename T>
EValue first_as_double(Tensor t) {
  return EValue(double(t.const_data_ptr<T>()[0]));
}

void local_scalar_dense(KernelContext& ctx, Span<EValue*> args) {
  KernelArgs a(ctx, args, kLocalScalarDense, 2);
  const Tensor self = a.tensor_maybe_unbound(0);
  if (!a.ok()) {
    return;
  }
  if (self.numel() < 1) {
    a.fail(Error::InvalidArgument,
           "expected a tensor with at least 1 element, got %" PRId64,
           self.numel());
    return;
  }
  if (self.const_data_ptr() == nullptr) {
    a.fail(Error::InvalidArgument, "tensor has no data");
    return;
  }
  EValue result;
  switch (self.scalar_type()) {
    case ScalarType::Byte: result = first_as_int<uint8_t>(self); break;
    case ScalarType::Char: result = first_as_int<int8_t>(self); break;
    case ScalarType::Short: result = first_as_int<int16_t>(self); break;
    case ScalarType::Int: result = first_as_int<int32_t>(self); break;
    case ScalarType::Long: result = first_as_int<int64_t>(self); break;
    case ScalarType::Float: result = first_as_double<float>(self); break;
    case ScalarType::Double: result = first_as_double<double>(self); break;
    case ScalarType::Half: result = first_as_double<Half>(self); break;
    case ScalarType::BFloat16: result = first_as_double<BFloat16>(self); break;
    case ScalarType::Bool:
      // Read the byte: a serialized bool other than 0/1 is not a valid bool.
      result = EValue(self.const_data_ptr<uint8_t>()[0] != 0);
      break;
    default:
      a.fail(Error::InvalidArgument, "unsupported dtype %s",
             scalar_type_name(self.scalar_type()));
      return;
  }
  *args[1] = result;
}

}  // namespace

EMBER_REGISTER_KERNEL(kSymSize, sym_size_int);
EMBER_REGISTER_KERNEL(kSymStride, sym_stride_int);
EMBER_REGISTER_KERNEL(kSymNumel, sym_numel);
EMBER_REGISTER_KERNEL(kLocalScalarDense, local_scalar_dense);

}  // namespace ember
