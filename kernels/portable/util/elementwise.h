// Broadcasting elementwise loops.
//
// Prepare: make_elementwise_plan() maps every operand onto the output's
// shape (stride 0 on broadcast dims), orders dims by the output's dim order
// and merges dims that are contiguous for every operand. Any dim order is
// supported; when all operands share one the plan collapses to one run.
//
// Execute: unary/binary/ternary_elementwise<C, R>() walk the plan in runs
// of up to kChunk elements. An operand whose dtype is C is read in place;
// any other dtype is converted into a stack buffer first (one dtype switch
// per chunk). `op` maps C values to an R value, which is written in place
// when `out` has dtype R and converted otherwise. The per-element loops
// have unit or zero strides, so the compiler vectorizes them.
#pragma once

#include <type_traits>

#include <cstddef>
#include <cstdint>
#include <new>

#include "kernels/portable/util/convert.h"
#include "kernels/portable/util/dtype_util.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_args.h"

namespace ember {

constexpr size_t kMaxElementwiseOperands = 4;  // out + up to 3 inputs
constexpr int64_t kChunk = 256;

struct ElementwisePlan {
  size_t num_operands = 0;  // operand 0 is the output
  size_t ndim = 0;          // >= 1; dims outermost first
  int64_t numel = 0;
  int64_t sizes[kMaxTensorDim];
  int64_t strides[kMaxElementwiseOperands][kMaxTensorDim];  // in elements
};

// `out` must already have its final shape; each input must broadcast to it
// (fails with InvalidArgument otherwise).
bool make_elementwise_plan(KernelArgs& args, Tensor out, const Tensor* inputs,
                           size_t num_inputs, ElementwisePlan* plan);

// Lower level: `input_strides[k][d]` is input k's stride (elements; 0 to
// broadcast) along out's dim d. Operand 0 is out with its own strides.
void make_plan_from_strides(Tensor out,
                            const int64_t (*input_strides)[kMaxTensorDim],
                            size_t num_inputs, ElementwisePlan* plan);

// Calls f(offsets, strides, n) for each innermost run: operand k's run
// starts at element offsets[k] and steps by strides[k].
template <typename F>
void for_each_run(const ElementwisePlan& p, F&& f) {
  if (p.numel == 0) {
    return;
  }
  const size_t inner = p.ndim - 1;
  const int64_t n = p.sizes[inner];
  int64_t offsets[kMaxElementwiseOperands] = {};
  int64_t inner_strides[kMaxElementwiseOperands] = {};
  for (size_t k = 0; k < p.num_operands; ++k) {
    inner_strides[k] = p.strides[k][inner];
  }
  int64_t index[kMaxTensorDim] = {};
  const int64_t runs = p.numel / n;
  for (int64_t r = 0; r < runs; ++r) {
    f(static_cast<const int64_t*>(offsets),
      static_cast<const int64_t*>(inner_strides), n);
    for (size_t d = inner; d-- > 0;) {
      for (size_t k = 0; k < p.num_operands; ++k) {
        offsets[k] += p.strides[k][d];
      }
      if (++index[d] < p.sizes[d]) {
        break;
      }
      for (size_t k = 0; k < p.num_operands; ++k) {
        offsets[k] -= p.strides[k][d] * p.sizes[d];
      }
      index[d] = 0;
    }
  }
}

namespace detail {

// Returns `n` values of operand `t` as C starting at element `offset`, read
// in place when possible, else converted into `buf`. *step is the stride to
// use on the returned pointer (0 or 1).
template <typename C>
const C* load_run(Tensor t, int64_t offset, int64_t stride, int64_t n, C* buf,
                  int64_t* step) {
  const ScalarType type = t.scalar_type();
  const char* base =
      static_cast<const char*>(t.const_data_ptr()) + offset * int64_t(t.element_size());
  if constexpr (std::is_same_v<C, bool>) {
    // Bool bytes in planned memory can be anything a (hostile) memory plan
    // aliased there: read them as bytes, never as bool (UB unless 0 or 1).
    // Found by the corruption test under UBSan (issue #6).
    if (type == ScalarType::Bool) {
      const uint8_t* bytes = reinterpret_cast<const uint8_t*>(base);
      const int64_t count = stride == 0 ? 1 : n;
      for (int64_t i = 0; i < count; ++i) buf[i] = bytes[i * stride] != 0;
      *step = stride == 0 ? 0 : 1;
      return buf;
    }
  }
  if (type == scalar_type_of<C>() && (stride == 0 || stride == 1)) {
    *step = stride;
    return reinterpret_cast<const C*>(base);
  }
  const int64_t count = stride == 0 ? 1 : n;
  (void)convert_elements(base, type, stride, buf, scalar_type_of<C>(), 1, count);
  *step = stride == 0 ? 0 : 1;
  return buf;
}

template <typename R>
R* store_target(Tensor out, int64_t offset, int64_t stride, R* buf) {
  if (out.scalar_type() == scalar_type_of<R>() && stride == 1) {
    return out.mutable_data_ptr<R>() + offset;
  }
  return buf;
}

template <typename R>
void store_finish(Tensor out, int64_t offset, int64_t stride, const R* target,
                  const R* buf, int64_t n) {
  if (target != buf) {
    return;
  }
  char* base = static_cast<char*>(out.mutable_data_ptr()) +
               offset * int64_t(out.element_size());
  (void)convert_elements(buf, scalar_type_of<R>(), 1, base, out.scalar_type(),
                         stride, n);
}

}  // namespace detail

template <typename C, typename R, typename Op>
void unary_elementwise(const ElementwisePlan& plan, Tensor in, Tensor out,
                       Op op) {
  alignas(64) C in_buf[kChunk];
  alignas(64) R out_buf[kChunk];
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    for (int64_t s = 0; s < n; s += kChunk) {
      const int64_t len = n - s < kChunk ? n - s : kChunk;
      int64_t sa;
      const C* a = detail::load_run<C>(in, off[1] + s * stride[1], stride[1],
                                       len, in_buf, &sa);
      const int64_t o_off = off[0] + s * stride[0];
      R* o = detail::store_target<R>(out, o_off, stride[0], out_buf);
      if (sa == 1) {
        for (int64_t i = 0; i < len; ++i) {
          o[i] = op(a[i]);
        }
      } else {
        const R v = op(a[0]);
        for (int64_t i = 0; i < len; ++i) {
          o[i] = v;
        }
      }
      detail::store_finish<R>(out, o_off, stride[0], o, out_buf, len);
    }
  });
}

template <typename C, typename R, typename Op>
void binary_elementwise(const ElementwisePlan& plan, Tensor a_t, Tensor b_t,
                        Tensor out, Op op) {
  alignas(64) C a_buf[kChunk];
  alignas(64) C b_buf[kChunk];
  alignas(64) R out_buf[kChunk];
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    for (int64_t s = 0; s < n; s += kChunk) {
      const int64_t len = n - s < kChunk ? n - s : kChunk;
      int64_t sa, sb;
      const C* a = detail::load_run<C>(a_t, off[1] + s * stride[1], stride[1],
                                       len, a_buf, &sa);
      const C* b = detail::load_run<C>(b_t, off[2] + s * stride[2], stride[2],
                                       len, b_buf, &sb);
      const int64_t o_off = off[0] + s * stride[0];
      R* o = detail::store_target<R>(out, o_off, stride[0], out_buf);
      if (sa == 1 && sb == 1) {
        for (int64_t i = 0; i < len; ++i) {
          o[i] = op(a[i], b[i]);
        }
      } else if (sa == 1) {
        const C bv = b[0];
        for (int64_t i = 0; i < len; ++i) {
          o[i] = op(a[i], bv);
        }
      } else if (sb == 1) {
        const C av = a[0];
        for (int64_t i = 0; i < len; ++i) {
          o[i] = op(av, b[i]);
        }
      } else {
        const R v = op(a[0], b[0]);
        for (int64_t i = 0; i < len; ++i) {
          o[i] = v;
        }
      }
      detail::store_finish<R>(out, o_off, stride[0], o, out_buf, len);
    }
  });
}

// Three inputs: the first is read as C0 (a condition, say), the other two
// as C.
template <typename C0, typename C, typename R, typename Op>
void ternary_elementwise(const ElementwisePlan& plan, Tensor x_t, Tensor a_t,
                         Tensor b_t, Tensor out, Op op) {
  alignas(64) C0 x_buf[kChunk];
  alignas(64) C a_buf[kChunk];
  alignas(64) C b_buf[kChunk];
  alignas(64) R out_buf[kChunk];
  for_each_run(plan, [&](const int64_t* off, const int64_t* stride, int64_t n) {
    for (int64_t s = 0; s < n; s += kChunk) {
      const int64_t len = n - s < kChunk ? n - s : kChunk;
      int64_t sx, sa, sb;
      const C0* x = detail::load_run<C0>(x_t, off[1] + s * stride[1],
                                         stride[1], len, x_buf, &sx);
      const C* a = detail::load_run<C>(a_t, off[2] + s * stride[2], stride[2],
                                       len, a_buf, &sa);
      const C* b = detail::load_run<C>(b_t, off[3] + s * stride[3], stride[3],
                                       len, b_buf, &sb);
      const int64_t o_off = off[0] + s * stride[0];
      R* o = detail::store_target<R>(out, o_off, stride[0], out_buf);
      for (int64_t i = 0; i < len; ++i) {
        o[i] = op(x[i * sx], a[i * sa], b[i * sb]);
      }
      detail::store_finish<R>(out, o_off, stride[0], o, out_buf, len);
    }
  });
}

// A Scalar as a zero-dim tensor of dtype C, so scalar overloads reuse the
// tensor loops. Not copyable: the tensor points into the object.
class ScalarOperand final {
 public:
  template <typename C>
  static void make(ScalarOperand* s, C value);

  Tensor tensor() { return Tensor(&impl_storage_.impl); }

  ScalarOperand() {}
  ScalarOperand(const ScalarOperand&) = delete;
  ScalarOperand& operator=(const ScalarOperand&) = delete;

 private:
  union Storage {
    Storage() {}
    TensorImpl impl;
  } impl_storage_;
  alignas(8) unsigned char value_[8] = {};
  SizesType sizes_[1] = {1};
  DimOrderType dim_order_[1] = {0};
  StridesType strides_[1] = {1};
};

template <typename C>
void ScalarOperand::make(ScalarOperand* s, C value) {
  static_assert(sizeof(C) <= 8, "scalar too wide");
  *reinterpret_cast<C*>(s->value_) = value;
  new (&s->impl_storage_.impl)
      TensorImpl(scalar_type_of<C>(), 0, s->sizes_, s->value_, s->dim_order_,
                 s->strides_);
}

}  // namespace ember
