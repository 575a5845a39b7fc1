// The 1x1 convolutions of MobileNetV2 (224x224 input), each timed in the
// distribution's XNNPACK (one convolution operator, as the delegate's
// runtime runs it) and in the delegate's native convolution
// (xnn_native_conv.cpp), in the same process on the same shared thread
// pool. Prints both times and the ratio native / XNNPACK per layer, and
// the model's total (each layer times its count). Used to decide which
// convolutions the delegate runs natively (is_native_conv()).
//
//   build/bench/pointwise_bench [THREADS]      (default 1)
//
// Inputs and weights are fixed patterns; the outputs of both are compared
// (largest absolute difference printed) so a wrong kernel cannot look fast.
#include <xnnpack.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "backends/xnnpack/xnn_native_kernels.h"
#include "runtime/platform/threadpool.h"

namespace {

using Clock = std::chrono::steady_clock;
using ember::xnnpack::Conv2dShape;

struct Layer {
  size_t hw, in_c, out_c, count;
};

// MobileNetV2's pointwise layers: expansions (x6) and projections.
constexpr Layer kLayers[] = {
    {112, 32, 16, 1},  {112, 16, 96, 1},  {56, 96, 24, 1},   {56, 24, 144, 2},
    {56, 144, 24, 1},  {28, 144, 32, 1},  {28, 32, 192, 3},  {28, 192, 32, 2},
    {14, 192, 64, 1},  {14, 64, 384, 4},  {14, 384, 64, 3},  {14, 384, 96, 1},
    {14, 96, 576, 3},  {14, 576, 96, 2},  {7, 576, 160, 1},  {7, 160, 960, 3},
    {7, 960, 160, 2},  {7, 960, 320, 1},  {7, 320, 1280, 1},
};

template <typename F>
double best_us(F&& f) {
  constexpr int kReps = 5, kIters = 100;
  double best = 1e300;
  for (int r = 0; r < kReps; ++r) {
    const auto t0 = Clock::now();
    for (int i = 0; i < kIters; ++i) f();
    best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - t0).count() /
                              kIters);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t threads = argc > 1 ? size_t(std::atoi(argv[1])) : 1;
  if (ember::set_num_threads(threads) != ember::Error::Ok || xnn_initialize(nullptr) != xnn_status_success) {
    std::fprintf(stderr, "cannot set up %zu threads or XNNPACK\n", threads);
    return 1;
  }
  pthreadpool_t pool = ember::shared_pthreadpool();
  const ember::xnnpack::Isa isa = ember::xnnpack::best_isa();
  std::printf("threads %zu, native ISA %s\n", threads, ember::xnnpack::isa_name(isa));
  std::printf("%4s %5s %5s %5s %11s %11s %6s %9s\n", "hw", "in", "out", "count", "xnnpack us",
              "native us", "ratio", "max diff");
  double total_x = 0, total_n = 0;
  for (const Layer& l : kLayers) {
    Conv2dShape s;
    s.in_h = s.in_w = s.out_h = s.out_w = l.hw;
    s.in_c = l.in_c;
    s.out_c = l.out_c;
    s.out_min = 0.0f;  // ReLU6, as in the model's expansions
    s.out_max = 6.0f;
    const size_t pixels = l.hw * l.hw;
    std::vector<float> in(pixels * l.in_c), w(l.out_c * l.in_c), bias(l.out_c);
    for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 7) * 0.1f;
    for (size_t i = 0; i < w.size(); ++i) w[i] = (float(i % 5) - 2.0f) * 0.01f;
    for (size_t i = 0; i < bias.size(); ++i) bias[i] = float(i % 3) * 0.1f;
    std::vector<float> out_x(pixels * l.out_c), out_n(out_x.size());

    xnn_operator_t op = nullptr;
    if (xnn_create_convolution2d_nhwc_f32(0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, l.in_c, l.out_c,
                                          l.in_c, l.out_c, w.data(), bias.data(), s.out_min,
                                          s.out_max, 0, &op) != xnn_status_success ||
        xnn_setup_convolution2d_nhwc_f32(op, 1, l.hw, l.hw, in.data(), out_x.data(), pool) !=
            xnn_status_success) {
      std::fprintf(stderr, "XNNPACK refused %zux%zu %zu->%zu\n", l.hw, l.hw, l.in_c, l.out_c);
      return 1;
    }
    std::vector<float> packed(ember::xnnpack::conv2d_packed_floats(s, isa));
    std::vector<float> ws(ember::xnnpack::conv2d_workspace_floats(s, threads) + 1);
    ember::xnnpack::conv2d_pack_weights(s, w.data(), bias.data(), packed.data(), isa);

    const double x_us = best_us([&] { (void)xnn_run_operator(op, pool); });
    const double n_us = best_us([&] {
      ember::xnnpack::conv2d_f32(s, in.data(), packed.data(), out_n.data(), ws.data(), threads,
                                 isa);
    });
    double diff = 0;
    for (size_t i = 0; i < out_x.size(); ++i) {
      diff = std::max(diff, double(std::fabs(out_x[i] - out_n[i])));
    }
    std::printf("%4zu %5zu %5zu %5zu %11.1f %11.1f %6.2f %9.2g\n", l.hw, l.in_c, l.out_c, l.count,
                x_us, n_us, n_us / x_us, diff);
    total_x += x_us * double(l.count);
    total_n += n_us * double(l.count);
    xnn_delete_operator(op);
  }
  std::printf("total: xnnpack %.0f us, native %.0f us, ratio %.3f\n", total_x, total_n,
              total_n / total_x);
  return 0;
}
