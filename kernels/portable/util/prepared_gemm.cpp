#include "kernels/portable/util/prepared_gemm.h"

#include <cstring>

#include "kernels/math/gemm.h"

namespace ember {
namespace {

// Ahead of the panels; 64 bytes so the panels stay 64-byte aligned.
struct PackedHeader {
  uint32_t magic;
  uint32_t isa;
  uint64_t k, n;
  uint8_t pad[40];
};
static_assert(sizeof(PackedHeader) == 64, "panels start 64-byte aligned");
constexpr uint32_t kMagic = 0x42504D47;  // "GMPB"

// The product's k and n if `operand` is a Float [k, n] B that `source`
// can give (its constant is Float, contiguous, [k, n] or its transpose).
bool product_dims(const EValue& operand, const OperandSource& source, size_t* k, size_t* n) {
  if (!operand.is_tensor()) return false;
  const Tensor b = operand.to_tensor();
  const Tensor& c = source.constant;
  if (b.scalar_type() != ScalarType::Float || c.scalar_type() != ScalarType::Float ||
      b.dim() != 2 || c.dim() != 2 || !c.is_contiguous()) {
    return false;
  }
  *k = size_t(b.sizes()[0]), *n = size_t(b.sizes()[1]);
  const size_t rows = source.transposed ? *n : *k, cols = source.transposed ? *k : *n;
  return size_t(c.sizes()[0]) == rows && size_t(c.sizes()[1]) == cols && *k > 0 && *n > 0;
}

}  // namespace

size_t prepared_b_bytes(size_t k, size_t n) {
  return sizeof(PackedHeader) + math::gemm_packed_b_floats(k, n, math::best_isa()) * sizeof(float);
}

float* prepared_b_panels(void* out, size_t k, size_t n) {
  PackedHeader header{};
  header.magic = kMagic, header.isa = uint32_t(math::best_isa()), header.k = k, header.n = n;
  std::memcpy(out, &header, sizeof(header));
  return reinterpret_cast<float*>(static_cast<char*>(out) + sizeof(header));
}

size_t gemm_b_operand_bytes(const EValue& operand, const OperandSource& source) {
  size_t k = 0, n = 0;
  if (!product_dims(operand, source, &k, &n)) return 0;
  return prepared_b_bytes(k, n);
}

void prepare_gemm_b_operand(const EValue& operand, const OperandSource& source, void* out) {
  size_t k = 0, n = 0;
  if (!product_dims(operand, source, &k, &n)) return;
  const math::Isa isa = math::best_isa();
  float* packed = prepared_b_panels(out, k, n);
  const float* c = source.constant.const_data_ptr<float>();
  if (source.transposed) {
    math::pack_gemm_bt(k, n, c, k, packed, isa);  // the constant is [n, k]
  } else {
    math::pack_gemm_b(k, n, c, n, packed, isa);
  }
}

const float* prepared_gemm_b(const KernelContext& ctx, int64_t k, int64_t n) {
  const PreparedOperand* p = ctx.prepared_operand();
  if (p == nullptr || p->bytes < sizeof(PackedHeader)) return nullptr;
  PackedHeader header;
  std::memcpy(&header, p->data, sizeof(header));
  if (header.magic != kMagic || header.isa != uint32_t(math::best_isa()) ||
      header.k != uint64_t(k) || header.n != uint64_t(n)) {
    return nullptr;
  }
  return reinterpret_cast<const float*>(static_cast<const char*>(p->data) + sizeof(header));
}

bool prepared_linear_f32(KernelContext& ctx, int64_t m, int64_t n, int64_t k, const float* a,
                         const float* bias, float* out) {
  const float* packed = prepared_gemm_b(ctx, k, n);
  if (packed == nullptr || (bias < out + m * n && out < bias + n)) return false;
  const math::Isa isa = math::best_isa();
  const size_t padded = math::gemm_packed_b_floats(1, size_t(n), isa);
  float* col_bias = static_cast<float*>(ctx.allocate_temp(padded * sizeof(float), 64));
  if (col_bias == nullptr) return false;
  std::memcpy(col_bias, bias, size_t(n) * sizeof(float));
  std::memset(col_bias + n, 0, (padded - size_t(n)) * sizeof(float));
  math::GemmEpilogue epilogue{};
  epilogue.col_bias = col_bias;
  math::gemm_f32_packed_parallel(size_t(m), size_t(n), size_t(k), a, size_t(k), packed, out,
                                size_t(n), isa, &epilogue);
  return true;
}

}  // namespace ember
