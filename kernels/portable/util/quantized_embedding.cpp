#include "kernels/portable/util/quantized_embedding.h"

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/dtype_util.h"
#include "kernels/portable/util/quantize_util.h"
#include "kernels/portable/util/shape_util.h"

namespace ember {
namespace {

bool check_params(KernelArgs& a, const QuantizedEmbeddingArgs& e, int bits, int64_t rows,
                  int64_t dim) {
  const Tensor s = e.scales;
  if (!check_floating(a, s, "weight_scales") || !check_contiguous(a, s, "weight_scales")) {
    return false;
  }
  if ((s.dim() != 1 && s.dim() != 2) || s.sizes()[0] != rows) {
    return a.fail(Error::InvalidArgument,
                  "weight_scales must be [%lld] or [%lld, groups], got %zu-D",
                  static_cast<long long>(rows), static_cast<long long>(rows), s.dim());
  }
  const int64_t groups = s.dim() == 2 ? s.sizes()[1] : 1;
  if (groups <= 0 ? rows > 0 : dim % groups != 0) {
    return a.fail(Error::InvalidArgument, "%lld groups do not divide the %d-bit row of %lld",
                  static_cast<long long>(groups), bits, static_cast<long long>(dim));
  }
  if (e.zero_points.has_value()) {
    const Tensor z = e.zero_points.value();
    if (!check_supported_dtype(a, z, "weight_zero_points") ||
        !check_contiguous(a, z, "weight_zero_points")) {
      return false;
    }
    bool same = z.dim() == s.dim();
    for (size_t i = 0; same && i < s.dim(); ++i) {
      same = z.sizes()[i] == s.sizes()[i];
    }
    if (!same) {
      return a.fail(Error::InvalidArgument,
                    "weight_zero_points must have weight_scales' shape");
    }
  }
  if (e.quant_min > e.quant_max) {
    return a.fail(Error::InvalidArgument, "weight_quant_min %lld > weight_quant_max %lld",
                  static_cast<long long>(e.quant_min), static_cast<long long>(e.quant_max));
  }
  return true;
}

bool check_out_dtype(KernelArgs& a, const QuantizedEmbeddingArgs& e) {
  const ScalarType o = e.out.scalar_type();
  if (!check_floating(a, e.out, "out")) {
    return false;
  }
  if (!e.dtype_variant && o != e.scales.scalar_type()) {
    return a.fail(Error::InvalidArgument, "out dtype %s differs from weight_scales dtype %s",
                  scalar_type_name(o), scalar_type_name(e.scales.scalar_type()));
  }
  if (e.dtype_variant && e.dtype.has_value() && int64_t(o) != e.dtype.value()) {
    return a.fail(Error::InvalidArgument, "out dtype %s differs from dtype %lld",
                  scalar_type_name(o), static_cast<long long>(e.dtype.value()));
  }
  return true;
}

// The quantized value c of a weight row.
inline int32_t weight_value(const uint8_t* row, int64_t c, int bits, bool is_signed) {
  if (bits == 4) {
    const uint8_t byte = row[c >> 1];
    return int32_t((c & 1) != 0 ? (byte & 0x0F) : (byte >> 4)) - 8;
  }
  if (bits == 2) {
    return int32_t((row[c >> 2] >> (2 * (c & 3))) & 3) - 2;
  }
  return is_signed ? int32_t(int8_t(row[c])) : int32_t(row[c]);
}

}  // namespace

bool run_quantized_embedding(KernelArgs& a, const QuantizedEmbeddingArgs& e, int bits) {
  const Tensor w = e.weight, idx = e.indices, out = e.out;
  const bool byte_ok = w.scalar_type() == ScalarType::Byte ||
                       (bits == 8 && w.scalar_type() == ScalarType::Char);
  if (!byte_ok) {
    return a.fail(Error::InvalidArgument, "weight must be %s for %d bits, got %s",
                  bits == 8 ? "Byte or Char" : "Byte", bits, scalar_type_name(w.scalar_type()));
  }
  if (w.dim() != 2) {
    return a.fail(Error::InvalidArgument, "weight must be 2-D, got %zu-D", w.dim());
  }
  if (!check_contiguous(a, w, "weight") || !check_contiguous(a, idx, "indices")) {
    return false;
  }
  const int64_t rows = w.sizes()[0];
  const int64_t dim = w.sizes()[1] * (8 / bits);
  if (!check_params(a, e, bits, rows, dim) || !check_out_dtype(a, e)) {
    return false;
  }
  if (idx.scalar_type() != ScalarType::Long && idx.scalar_type() != ScalarType::Int) {
    return a.fail(Error::InvalidArgument, "indices must be Long or Int, got %s",
                  scalar_type_name(idx.scalar_type()));
  }
  if (idx.dim() + 1 > kMaxTensorDim) {
    return a.fail(Error::InvalidArgument, "indices have too many dims (%zu)", idx.dim());
  }
  Shape shape = shape_of(idx);
  shape.sizes[shape.dim++] = SizesType(dim);
  if (!resize_out(a, out, shape.span())) {
    return false;
  }
  const int64_t count = idx.numel();
  for (int64_t i = 0; i < count; ++i) {
    const int64_t r = element_as_int(idx, i);
    if (r < 0 || r >= rows) {
      return a.fail(Error::InvalidArgument, "index %lld is out of range for %lld rows",
                    static_cast<long long>(r), static_cast<long long>(rows));
    }
  }
  const int64_t groups = e.scales.dim() == 2 ? e.scales.sizes()[1] : 1;
  const int64_t group_size = groups > 0 ? dim / groups : dim;
  const uint8_t* wdata = static_cast<const uint8_t*>(w.const_data_ptr());
  const bool is_signed = w.scalar_type() == ScalarType::Char;
  const size_t es = out.element_size();
  char* o = static_cast<char*>(out.mutable_data_ptr());
  constexpr int64_t kChunk = 256;
  float buf[kChunk];
  for (int64_t i = 0; i < count; ++i) {
    const int64_t r = element_as_int(idx, i);
    const uint8_t* row = wdata + r * w.sizes()[1];
    for (int64_t g = 0; g < groups; ++g) {
      const float scale = float(element_as_double(e.scales, r * groups + g));
      const float zp = e.zero_points.has_value()
                           ? float(element_as_double(e.zero_points.value(), r * groups + g))
                           : 0.0f;
      for (int64_t c0 = g * group_size; c0 < (g + 1) * group_size; c0 += kChunk) {
        const int64_t n = (g + 1) * group_size - c0 < kChunk ? (g + 1) * group_size - c0 : kChunk;
        for (int64_t c = 0; c < n; ++c) {
          buf[c] = (float(weight_value(row, c0 + c, bits, is_signed)) - zp) * scale;
        }
        (void)convert_elements(buf, ScalarType::Float, 1, o + size_t(i * dim + c0) * es,
                               out.scalar_type(), 1, n);
      }
    }
  }
  return true;
}

void quantized_embedding_boxed(KernelContext& ctx, Span<EValue*> args, int bits,
                               bool dtype_variant) {
  const char* name = nullptr;
  if (bits == 8) {
    name = dtype_variant ? "quantized_decomposed::embedding_byte.dtype_out"
                         : "quantized_decomposed::embedding_byte.out";
  } else if (bits == 4) {
    name = dtype_variant ? "quantized_decomposed::embedding_4bit.dtype_out"
                         : "quantized_decomposed::embedding_4bit.out";
  } else {
    name = dtype_variant ? "quantized_decomposed::embedding_2bit.dtype_out"
                         : "quantized_decomposed::embedding_2bit.out";
  }
  KernelArgs a(ctx, args, name, dtype_variant ? 9 : 8);
  QuantizedEmbeddingArgs e;
  e.weight = a.tensor(0);
  e.scales = a.tensor(1);
  e.zero_points = a.optional_tensor(2);
  e.quant_min = a.int_value(3);
  e.quant_max = a.int_value(4);
  e.indices = a.tensor(5);
  e.dtype_variant = dtype_variant;
  if (dtype_variant) {
    e.dtype = a.optional_enum(6);
  }
  e.out = a.tensor(dtype_variant ? 7 : 6);
  if (a.ok()) {
    (void)run_quantized_embedding(a, e, bits);
  }
}

}  // namespace ember
