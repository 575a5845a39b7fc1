// Helpers for calling boxed kernels from tests: EValue argument lists that
// own their storage (int lists and tensor lists are boxed, as in a loaded
// method), a KernelContext with a temp allocator, and small comparison
// helpers. Every operator called through call_kernel is recorded for the
// operator coverage test (operator_call_log.h).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/error_message.h"
#include "runtime/core/evalue.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operator_registry.h"
#include "test/kernels/operator_call_log.h"
#include "test/utils/tensor_factory.h"

namespace ember::testing {

// One argument of a boxed call.
class Arg {
 public:
  Arg(Tensor t) : value_(t) {}                      // NOLINT
  Arg(const OwnedTensor& t) : value_(t.tensor()) {}  // NOLINT
  Arg(int v) : value_(int64_t(v)) {}                 // NOLINT
  Arg(int64_t v) : value_(v) {}                      // NOLINT
  Arg(double v) : value_(v) {}                       // NOLINT
  Arg(bool v) : value_(v) {}                         // NOLINT
  static Arg none() { return Arg(); }
  // A String argument (gelu's approximate, div's rounding_mode); `s` must
  // outlive the call (a literal).
  static Arg string(const char* s) {
    Arg a;
    a.value_ = EValue(StringView{s, std::strlen(s)});
    return a;
  }
  static Arg ints(const std::vector<int64_t>& values) { return list<int64_t>(values); }
  static Arg tensors(const std::vector<Tensor>& values) { return list<Tensor>(values); }
  // A bool list (convolution_backward's output_mask), owning its items.
  static Arg bools(std::initializer_list<bool> values) {
    std::shared_ptr<bool[]> items(new bool[values.size()]);
    size_t i = 0;
    for (bool v : values) {
      items[i++] = v;
    }
    Arg a;
    a.value_ = EValue(Span<bool>(items.get(), values.size()));
    a.storage_ = items;
    return a;
  }
  // An index list like index_put's: every entry present.
  static Arg optional_tensors(const std::vector<Tensor>& values) {
    return list<Optional<Tensor>>(values);
  }
  const EValue& value() const { return value_; }

 private:
  Arg() = default;
  // A boxed list as a loaded method holds one: the items as EValues, a
  // pointer to each, and the scratch the list unboxes into.
  template <typename T>
  struct ListStorage {
    std::vector<EValue> values;
    std::vector<EValue*> boxed;
    std::vector<T> scratch;
  };
  template <typename T, typename In>
  static Arg list(const std::vector<In>& items) {
    auto storage = std::make_shared<ListStorage<T>>();
    for (const In& v : items) {
      storage->values.emplace_back(v);
    }
    for (EValue& v : storage->values) {
      storage->boxed.push_back(&v);
    }
    storage->scratch.resize(items.size());
    Arg a;
    a.value_ = EValue(BoxedList<T>(storage->boxed.data(), storage->scratch.data(), items.size()));
    a.storage_ = storage;
    return a;
  }
  EValue value_;
  std::shared_ptr<void> storage_;  // keeps a list's items alive
};

// Calls kernel `op` ("aten::add.out") with `args` in `mode` (Prepare gets
// no temp allocator, as at load); returns ctx.failure(), and in *stopped
// (when given) whether the kernel called prepared_stop().
inline Error call_kernel(const std::string& op, const std::vector<Arg>& args,
                         KernelContext::Mode mode, bool* stopped = nullptr) {
  const size_t dot = op.find('.');
  const std::string name = dot == std::string::npos ? op : op.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : op.substr(dot + 1);
  OpFunction fn = find_kernel(name.c_str(), overload.c_str());
  EXPECT_NE(fn, nullptr) << "kernel not registered: " << op;
  if (fn == nullptr) {
    return Error::OperatorMissing;
  }
  record_operator_call(op);
  std::vector<EValue> values;
  for (const Arg& a : args) {
    values.push_back(a.value());
  }
  std::vector<EValue*> ptrs;
  for (EValue& v : values) {
    ptrs.push_back(&v);
  }
  static std::vector<unsigned char> temp(1 << 20);
  MemoryAllocator temp_allocator(temp.data(), temp.size());
  KernelContext ctx(mode == KernelContext::Mode::Prepare ? nullptr : &temp_allocator);
  ctx.set_mode(mode);
  clear_error_message();
  fn(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  if (stopped != nullptr) *stopped = ctx.stopped();
  return ctx.failure();
}

// The same in Run mode (a plain call).
inline Error call_kernel(const std::string& op, const std::vector<Arg>& args) {
  return call_kernel(op, args, KernelContext::Mode::Run);
}

// True when the last recorded error message contains `needle`.
inline bool message_has(const char* needle) {
  return std::strstr(last_error_message(), needle) != nullptr;
}

template <typename T>
std::unique_ptr<OwnedTensor> tensor(ScalarType type, std::vector<SizesType> sizes,
                                    const std::vector<T>& values) {
  return make_tensor<T>(type, std::move(sizes), values);
}

inline std::unique_ptr<OwnedTensor> empty(ScalarType type,
                                          std::vector<SizesType> sizes,
                                          ShapeDynamism dyn = ShapeDynamism::Static,
                                          std::vector<DimOrderType> order = {}) {
  return std::make_unique<OwnedTensor>(type, std::move(sizes), std::move(order), dyn);
}

// A bounded-dynamic out tensor with room for `capacity` elements, shaped
// [capacity] until a kernel resizes it (rank `rank`).
inline std::unique_ptr<OwnedTensor> dynamic_out(ScalarType type,
                                                std::vector<SizesType> max_sizes) {
  return std::make_unique<OwnedTensor>(type, std::move(max_sizes),
                                       std::vector<DimOrderType>{},
                                       ShapeDynamism::DynamicBound);
}

inline std::vector<SizesType> sizes_of(const OwnedTensor& t) {
  Span<const SizesType> s = t.tensor().sizes();
  return std::vector<SizesType>(s.begin(), s.end());
}

template <typename T>
void expect_near_vec(const std::vector<T>& got, const std::vector<T>& want,
                     double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(double(want[i]))) {
      EXPECT_TRUE(std::isnan(double(got[i]))) << "at " << i;
    } else {
      EXPECT_NEAR(double(got[i]), double(want[i]), tol) << "at " << i;
    }
  }
}

}  // namespace ember::testing

namespace ember::testing {

// Tensors of any of the ten storage types built from / read back as
// doubles, for tests that sweep dtypes. Conversion here is the test's own
// (static_cast; Half and BFloat16 through float).
inline std::unique_ptr<OwnedTensor> from_doubles(ScalarType type,
                                                 std::vector<SizesType> sizes,
                                                 const std::vector<double>& v) {
  auto t = std::make_unique<OwnedTensor>(type, std::move(sizes));
  for (size_t i = 0; i < v.size(); ++i) {
    switch (type) {
      case ScalarType::Bool: t->data<bool>()[i] = v[i] != 0; break;
      case ScalarType::Byte: t->data<uint8_t>()[i] = uint8_t(v[i]); break;
      case ScalarType::Char: t->data<int8_t>()[i] = int8_t(v[i]); break;
      case ScalarType::Short: t->data<int16_t>()[i] = int16_t(v[i]); break;
      case ScalarType::Int: t->data<int32_t>()[i] = int32_t(v[i]); break;
      case ScalarType::Long: t->data<int64_t>()[i] = int64_t(v[i]); break;
      case ScalarType::Half: t->data<Half>()[i] = Half(float(v[i])); break;
      case ScalarType::BFloat16: t->data<BFloat16>()[i] = BFloat16(float(v[i])); break;
      case ScalarType::Float: t->data<float>()[i] = float(v[i]); break;
      case ScalarType::Double: t->data<double>()[i] = v[i]; break;
      default: ADD_FAILURE() << "unsupported test dtype"; break;
    }
  }
  return t;
}

inline std::vector<double> to_doubles(OwnedTensor& t) {
  std::vector<double> out(size_t(t.tensor().numel()));
  for (size_t i = 0; i < out.size(); ++i) {
    switch (t.tensor().scalar_type()) {
      case ScalarType::Bool: out[i] = t.data<bool>()[i]; break;
      case ScalarType::Byte: out[i] = t.data<uint8_t>()[i]; break;
      case ScalarType::Char: out[i] = t.data<int8_t>()[i]; break;
      case ScalarType::Short: out[i] = t.data<int16_t>()[i]; break;
      case ScalarType::Int: out[i] = t.data<int32_t>()[i]; break;
      case ScalarType::Long: out[i] = double(t.data<int64_t>()[i]); break;
      case ScalarType::Half: out[i] = float(t.data<Half>()[i]); break;
      case ScalarType::BFloat16: out[i] = float(t.data<BFloat16>()[i]); break;
      case ScalarType::Float: out[i] = t.data<float>()[i]; break;
      case ScalarType::Double: out[i] = t.data<double>()[i]; break;
      default: ADD_FAILURE() << "unsupported test dtype"; break;
    }
  }
  return out;
}

// Reference broadcasting: out[idx] = f(a[idx'], b[idx'']) by explicit index
// arithmetic over row-major shapes.
template <typename F>
std::vector<double> broadcast_ref(const std::vector<SizesType>& as,
                                  const std::vector<double>& a,
                                  const std::vector<SizesType>& bs,
                                  const std::vector<double>& b,
                                  std::vector<SizesType>* out_shape, F f) {
  const size_t nd = std::max(as.size(), bs.size());
  std::vector<SizesType> os(nd, 1), ap(nd, 1), bp(nd, 1);
  for (size_t i = 0; i < as.size(); ++i) ap[nd - as.size() + i] = as[i];
  for (size_t i = 0; i < bs.size(); ++i) bp[nd - bs.size() + i] = bs[i];
  size_t n = 1;
  for (size_t d = 0; d < nd; ++d) {
    os[d] = std::max(ap[d], bp[d]);
    n *= size_t(os[d]);
  }
  std::vector<double> out(n);
  for (size_t flat = 0; flat < n; ++flat) {
    size_t rem = flat, ai = 0, bi = 0, astr = 1, bstr = 1;
    for (size_t d = nd; d-- > 0;) {
      const size_t idx = rem % size_t(os[d]);
      rem /= size_t(os[d]);
      ai += (ap[d] == 1 ? 0 : idx) * astr;
      bi += (bp[d] == 1 ? 0 : idx) * bstr;
      astr *= size_t(ap[d]);
      bstr *= size_t(bp[d]);
    }
    out[flat] = f(a[ai], b[bi]);
  }
  *out_shape = os;
  return out;
}

}  // namespace ember::testing
