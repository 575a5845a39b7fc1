// Helpers of the spectral operators' tests (op__fft_r2c_test.cpp,
// op__fft_c2r_test.cpp, op__fft_c2c_test.cpp): tensors built from a case's
// row-major values in any dim order, results read back in row-major
// order, and the comparison with PyTorch's values.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "test/kernels/kernel_test_util.h"
#include "test/kernels/portable/fft_cases.h"

namespace ember::testing {

// Calls fn(logical, offset) for every element of t: its row-major index and
// its storage offset (in elements).
template <typename Fn>
void for_each_element(Tensor t, Fn fn) {
  const size_t ndim = t.dim();
  std::vector<int64_t> index(ndim, 0);
  for (int64_t logical = 0; logical < t.numel(); ++logical) {
    int64_t offset = 0;
    for (size_t d = 0; d < ndim; ++d) offset += index[d] * t.strides()[d];
    fn(size_t(logical), size_t(offset));
    for (size_t d = ndim; d-- > 0;) {
      if (++index[d] < t.sizes()[d]) break;
      index[d] = 0;
    }
  }
}

inline size_t parts_of(ScalarType t) { return is_complex_type(t) ? 2 : 1; }

inline bool is_double_precision(ScalarType t) {
  return t == ScalarType::Double || t == ScalarType::ComplexDouble;
}

// A Float/Double/ComplexFloat/ComplexDouble tensor whose row-major element
// i is values[i] (real) or (values[2i], values[2i+1]) (complex).
inline std::unique_ptr<OwnedTensor> fft_tensor(ScalarType type, std::vector<SizesType> sizes,
                                               const std::vector<double>& values,
                                               std::vector<DimOrderType> order = {},
                                               ShapeDynamism dyn = ShapeDynamism::Static) {
  auto t = std::make_unique<OwnedTensor>(type, std::move(sizes), std::move(order), dyn);
  const size_t parts = parts_of(type);
  for_each_element(t->tensor(), [&](size_t logical, size_t offset) {
    for (size_t p = 0; p < parts; ++p) {
      const double v = values[logical * parts + p];
      if (is_double_precision(type)) {
        t->data<double>()[offset * parts + p] = v;
      } else {
        t->data<float>()[offset * parts + p] = float(v);
      }
    }
  });
  return t;
}

// An out tensor of `type` and `sizes` filled with a marker value.
inline std::unique_ptr<OwnedTensor> fft_out(ScalarType type, std::vector<SizesType> sizes,
                                            std::vector<DimOrderType> order = {}) {
  size_t numel = 1;
  for (SizesType s : sizes) numel *= size_t(s);
  return fft_tensor(type, std::move(sizes), std::vector<double>(numel * parts_of(type), -99.0),
                    std::move(order));
}

// t's values in row-major order (pairs for complex).
inline std::vector<double> fft_values(const OwnedTensor& t) {
  const Tensor tensor = t.tensor();
  const ScalarType type = tensor.scalar_type();
  const size_t parts = parts_of(type);
  std::vector<double> out(size_t(tensor.numel()) * parts);
  for_each_element(tensor, [&](size_t logical, size_t offset) {
    for (size_t p = 0; p < parts; ++p) {
      out[logical * parts + p] =
          is_double_precision(type)
              ? tensor.const_data_ptr<double>()[offset * parts + p]
              : double(tensor.const_data_ptr<float>()[offset * parts + p]);
    }
  });
  return out;
}

// got within tol * max(1, max |want|) of want, element by element: an FFT's
// rounding error scales with the signal, not with each output. tol: 2e-6
// for float (PyTorch's float results carry their own rounding), 1e-13 for
// double.
inline void expect_fft_near(const std::vector<double>& got, const std::vector<double>& want,
                            bool is_double, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1.0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  const double tol = (is_double ? 1e-13 : 2e-6) * scale;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol) << what << ", value " << i;
  }
}

}  // namespace ember::testing
