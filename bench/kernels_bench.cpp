// Portable convolution and matrix-product kernels at 1 and 2 threads.
//
//   build/bench/kernels_bench --benchmark_filter=Conv
//
// Arguments: the thread count. Inputs are filled with a fixed pattern.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/core/evalue.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/operator_registry.h"
#include "runtime/platform/threadpool.h"

namespace ember {
namespace {

// A contiguous float tensor that owns its storage.
struct BenchTensor {
  explicit BenchTensor(std::vector<SizesType> shape) : sizes(std::move(shape)) {
    size_t n = 1;
    for (SizesType s : sizes) n *= size_t(s);
    data.resize(n);
    for (size_t i = 0; i < n; ++i) data[i] = std::sin(float(i) * 0.01f);
    order.resize(sizes.size());
    strides.resize(sizes.size());
    int64_t stride = 1;
    for (size_t d = sizes.size(); d-- > 0;) {
      order[d] = DimOrderType(d);
      strides[d] = StridesType(stride);
      stride *= sizes[d];
    }
    impl = std::make_unique<TensorImpl>(ScalarType::Float, sizes.size(), sizes.data(),
                                        data.data(), order.data(), strides.data(),
                                        ShapeDynamism::Static);
  }
  Tensor tensor() { return Tensor(impl.get()); }

  std::vector<SizesType> sizes;
  std::vector<float> data;
  std::vector<DimOrderType> order;
  std::vector<StridesType> strides;
  std::unique_ptr<TensorImpl> impl;
};

// Holds boxed int lists for the duration of a benchmark.
struct IntList {
  explicit IntList(std::vector<int64_t> v) : values(v.begin(), v.end()), scratch(v.size()) {
    for (EValue& e : values) boxed.push_back(&e);
  }
  EValue value() { return EValue(BoxedList<int64_t>(boxed.data(), scratch.data(), values.size())); }
  std::vector<EValue> values;
  std::vector<EValue*> boxed;
  std::vector<int64_t> scratch;
};

void run(benchmark::State& state, const char* name, const char* overload,
         std::vector<EValue>& values, size_t temp_bytes = size_t(16) << 20) {
  if (set_num_threads(size_t(state.range(0))) != Error::Ok) {
    state.SkipWithError("cannot create the thread pool");
    return;
  }
  OpFunction fn = find_kernel(name, overload);
  std::vector<EValue*> ptrs;
  for (EValue& v : values) ptrs.push_back(&v);
  static std::vector<unsigned char> temp(size_t(16) << 20);
  for (auto _ : state) {
    MemoryAllocator temp_allocator(temp.data(), temp_bytes);
    KernelContext ctx(&temp_allocator);
    fn(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
    if (ctx.failure() != Error::Ok) {
      state.SkipWithError("kernel failed");
      break;
    }
  }
  (void)set_num_threads(1);
}

// A ResNet-style 3x3 convolution: 1 x 64 x 56 x 56, 64 output channels.
void BM_Conv2d_3x3_64ch_56(benchmark::State& state) {
  BenchTensor in({1, 64, 56, 56}), w({64, 64, 3, 3}), b({64}), out({1, 64, 56, 56});
  IntList stride({1, 1}), pad({1, 1}), dil({1, 1}), opad({0, 0});
  std::vector<EValue> v = {EValue(in.tensor()), EValue(w.tensor()), EValue(b.tensor()),
                           stride.value(), pad.value(), dil.value(), EValue(false),
                           opad.value(), EValue(int64_t(1)), EValue(out.tensor()),
                           EValue(out.tensor())};
  run(state, "aten::convolution", "out", v);
  state.counters["GFLOPS"] = benchmark::Counter(
      2.0 * 64 * 64 * 9 * 56 * 56, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::kIs1000);
}

// The same convolution without temp memory: the direct per-plane kernel
// (the previous formulation), for comparison with im2col + GEMM.
void BM_Conv2d_3x3_64ch_56_direct(benchmark::State& state) {
  BenchTensor in({1, 64, 56, 56}), w({64, 64, 3, 3}), b({64}), out({1, 64, 56, 56});
  IntList stride({1, 1}), pad({1, 1}), dil({1, 1}), opad({0, 0});
  std::vector<EValue> v = {EValue(in.tensor()), EValue(w.tensor()), EValue(b.tensor()),
                           stride.value(), pad.value(), dil.value(), EValue(false),
                           opad.value(), EValue(int64_t(1)), EValue(out.tensor()),
                           EValue(out.tensor())};
  run(state, "aten::convolution", "out", v, 0);
  state.counters["GFLOPS"] = benchmark::Counter(
      2.0 * 64 * 64 * 9 * 56 * 56, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::kIs1000);
}

// A MobileNet-style depthwise 3x3 convolution: 1 x 96 x 56 x 56.
void BM_Conv2d_depthwise_96ch_56(benchmark::State& state) {
  BenchTensor in({1, 96, 56, 56}), w({96, 1, 3, 3}), out({1, 96, 56, 56});
  IntList stride({1, 1}), pad({1, 1}), dil({1, 1}), opad({0, 0});
  std::vector<EValue> v = {EValue(in.tensor()), EValue(w.tensor()), EValue(),
                           stride.value(), pad.value(), dil.value(), EValue(false),
                           opad.value(), EValue(int64_t(96)), EValue(out.tensor()),
                           EValue(out.tensor())};
  run(state, "aten::convolution", "out", v);
}

// mm 256 x 512 @ 512 x 256.
void BM_Mm_256x512x256(benchmark::State& state) {
  BenchTensor a({256, 512}), b({512, 256}), out({256, 256});
  std::vector<EValue> v = {EValue(a.tensor()), EValue(b.tensor()), EValue(out.tensor()),
                           EValue(out.tensor())};
  run(state, "aten::mm", "out", v);
  state.counters["GFLOPS"] = benchmark::Counter(
      2.0 * 256 * 512 * 256, benchmark::Counter::kIsIterationInvariantRate,
      benchmark::Counter::kIs1000);
}

BENCHMARK(BM_Conv2d_3x3_64ch_56)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Conv2d_3x3_64ch_56_direct)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Conv2d_depthwise_96ch_56)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Mm_256x512x256)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ember

BENCHMARK_MAIN();
