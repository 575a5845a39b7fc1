#include "kernels/portable/util/matmul_util.h"

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/matmul.h"
#include "kernels/portable/util/prepared_gemm.h"
#include "kernels/portable/util/shape_util.h"
#include "kernels/math/gemm.h"

namespace ember {
namespace {

// Products with at most this many rows read B in place (a matrix-vector
// product, or nearly): packing B would cost as much as using it.
constexpr int64_t kInPlaceRows = 8;

// c[i] = a[i] @ b[i] in float on the kernel maths library: one product uses
// the B packed at load when the call has one (prepared_gemm.h), else packs
// B into temp memory (in place when rows are few or temp memory is
// short); a batch reads each B in place, spread over batch and rows.
void product_f32(KernelContext& ctx, int64_t batch, int64_t m, int64_t n, int64_t k,
                 const float* a, const float* b, float* c) {
  const math::Isa isa = math::best_isa();
  const float* prepared = batch == 1 ? prepared_gemm_b(ctx, k, n) : nullptr;
  if (prepared != nullptr) {
    math::gemm_f32_packed_parallel(size_t(m), size_t(n), size_t(k), a, size_t(k), prepared, c,
                                  size_t(n), isa);
    return;
  }
  if (batch == 1 && m > kInPlaceRows) {
    const size_t floats = math::gemm_packed_b_floats(size_t(k), size_t(n), isa);
    float* packed = static_cast<float*>(ctx.allocate_temp(floats * sizeof(float), 64));
    if (packed != nullptr) {
      math::pack_gemm_b(size_t(k), size_t(n), b, size_t(n), packed, isa);
      math::gemm_f32_packed_parallel(size_t(m), size_t(n), size_t(k), a, size_t(k), packed, c,
                                    size_t(n), isa);
      return;
    }
  }
  math::bmm_f32(size_t(batch), size_t(m), size_t(n), size_t(k), a, size_t(m * k), b,
               size_t(k * n), c, isa);
}

// c = beta * c + alpha * (a @ b), float. With beta != 0 the product goes
// to temp memory first; false when there is none (the caller then uses
// the reference GEMM).
bool matmul_f32(KernelContext& ctx, int64_t batch, int64_t m, int64_t n, int64_t k,
                float alpha, const float* a, const float* b, float beta, float* c) {
  float* product = c;
  if (beta != 0.0f) {
    product = static_cast<float*>(ctx.allocate_temp(size_t(batch * m * n) * sizeof(float)));
    if (product == nullptr) {
      return false;
    }
  }
  product_f32(ctx, batch, m, n, k, a, b, product);
  const int64_t total = batch * m * n;
  if (beta == 0.0f) {
    if (alpha != 1.0f) {
      for (int64_t i = 0; i < total; ++i) c[i] = alpha * c[i];
    }
    return true;
  }
  for (int64_t i = 0; i < total; ++i) c[i] = beta * c[i] + alpha * product[i];
  return true;
}

}  // namespace

bool check_matmul_operands(KernelArgs& args, const Tensor* tensors,
                           const char* const* names, size_t count,
                           size_t dim) {
  const ScalarType type = tensors[0].scalar_type();
  if (type != ScalarType::Float && type != ScalarType::Double &&
      type != ScalarType::Half && type != ScalarType::BFloat16) {
    return args.fail(Error::NotSupported,
                     "dtype %s is not supported (Float, Double, Half or "
                     "BFloat16)",
                     scalar_type_name(type));
  }
  for (size_t i = 0; i < count; ++i) {
    const Tensor& t = tensors[i];
    if (t.scalar_type() != type) {
      return args.fail(Error::InvalidArgument, "%s has dtype %s, expected %s",
                       names[i], scalar_type_name(t.scalar_type()),
                       scalar_type_name(type));
    }
    if (dim != 0 && t.dim() != dim) {
      return args.fail(Error::InvalidArgument, "%s must have %zu dims, has %zu",
                       names[i], dim, t.dim());
    }
    if (!check_contiguous(args, t, names[i])) {
      return false;
    }
  }
  return true;
}

bool run_matmul(KernelArgs& args, KernelContext& ctx, ScalarType type,
                int64_t batch, int64_t m, int64_t n, int64_t k, double alpha,
                const void* a, const void* b, double beta, void* c) {
  if (type == ScalarType::Float &&
      matmul_f32(ctx, batch, m, n, k, float(alpha), static_cast<const float*>(a),
                 static_cast<const float*>(b), float(beta), static_cast<float*>(c))) {
    return true;
  }
  if (type == ScalarType::Float || type == ScalarType::Double) {
    visit_float_or_double_dtype(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* pa = static_cast<const T*>(a);
      const T* pb = static_cast<const T*>(b);
      T* pc = static_cast<T*>(c);
      for (int64_t i = 0; i < batch; ++i) {
        gemm_parallel<T>(m, n, k, T(alpha), pa + i * m * k, k, pb + i * k * n, n,
                         T(beta), pc + i * m * n, n);
      }
    });
    return true;
  }
  const int64_t count = m * k + k * n + m * n;
  float* fa = static_cast<float*>(ctx.allocate_temp(size_t(count) * sizeof(float)));
  if (fa == nullptr) {
    return args.fail(Error::MemoryAllocationFailed,
                     "needs %lld bytes of temp memory for the float copies",
                     static_cast<long long>(count) * 4);
  }
  float* fb = fa + m * k;
  float* fc = fb + k * n;
  const size_t es = element_size(type);
  for (int64_t i = 0; i < batch; ++i) {
    const char* ai = static_cast<const char*>(a) + size_t(i * m * k) * es;
    const char* bi = static_cast<const char*>(b) + size_t(i * k * n) * es;
    char* ci = static_cast<char*>(c) + size_t(i * m * n) * es;
    (void)convert_elements(ai, type, 1, fa, ScalarType::Float, 1, m * k);
    (void)convert_elements(bi, type, 1, fb, ScalarType::Float, 1, k * n);
    if (beta != 0.0) {
      (void)convert_elements(ci, type, 1, fc, ScalarType::Float, 1, m * n);
    }
    if (!matmul_f32(ctx, 1, m, n, k, float(alpha), fa, fb, float(beta), fc)) {
      gemm_parallel<float>(m, n, k, float(alpha), fa, k, fb, n, float(beta), fc, n);
    }
    (void)convert_elements(fc, ScalarType::Float, 1, ci, type, 1, m * n);
  }
  return true;
}

}  // namespace ember
