#include "kernels/portable/util/triangle_util.h"

#include <cstring>

#include "kernels/portable/util/shape_util.h"

namespace ember {

void triangle_copy(KernelArgs& a, Tensor self, int64_t diagonal, Tensor out,
                   bool upper) {
  if (!check_same_dtype(a, self, out) || !check_contiguous(a, self, "self") ||
      !check_contiguous(a, out, "out")) {
    return;
  }
  if (self.dim() < 2) {
    a.fail(Error::InvalidArgument, "input must have at least 2 dims, got %zu",
           self.dim());
    return;
  }
  if (!resize_out(a, out, self.sizes()) || self.numel() == 0) {
    return;
  }
  const int64_t rows = self.sizes()[self.dim() - 2];
  const int64_t cols = self.sizes()[self.dim() - 1];
  const int64_t batches = self.numel() / (rows * cols);
  const size_t es = self.element_size();
  const char* src = static_cast<const char*>(self.const_data_ptr());
  char* dst = static_cast<char*>(out.mutable_data_ptr());
  // Clamp the diagonal so j = i + diagonal never overflows.
  const int64_t diag = diagonal < -rows ? -rows - 1
                       : diagonal > cols ? cols + 1
                                         : diagonal;
  for (int64_t b = 0; b < batches; ++b) {
    for (int64_t i = 0; i < rows; ++i) {
      const size_t at = size_t((b * rows + i) * cols) * es;
      // Kept columns: upper j >= i + diag; lower j <= i + diag.
      int64_t lo = upper ? i + diag : 0;
      int64_t hi = upper ? cols : i + diag + 1;
      lo = lo < 0 ? 0 : (lo > cols ? cols : lo);
      hi = hi < lo ? lo : (hi > cols ? cols : hi);
      if (dst != src) {
        std::memmove(dst + at + size_t(lo) * es, src + at + size_t(lo) * es,
                    size_t(hi - lo) * es);
      }
      // Zero bits are zero in every storage type.
      std::memset(dst + at, 0, size_t(lo) * es);
      std::memset(dst + at + size_t(hi) * es, 0, size_t(cols - hi) * es);
    }
  }
}

}  // namespace ember
