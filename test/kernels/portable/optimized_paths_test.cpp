// Every portable operator whose Float form runs on kernels/math,
// checked against the same operator in Double (which keeps the reference
// loops), on random data, at 1 and 2 threads: the differential test STYLE
// habit 9 asks of each optimized path. Shapes are chosen to reach each
// fast path (depthwise, grouped, pointwise, strided, dilated and 1-D
// convolution; packed and in-place GEMM; dense permutes; softmax over the
// last and a middle dim; layer norm with and without its affine part).
#include <random>

#include "runtime/platform/threadpool.h"
#include "test/kernels/kernel_test_util.h"

namespace ember::testing {
namespace {

std::vector<double> random_values(size_t n, uint32_t seed, double lo = -1, double hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = double(float(dist(gen)));  // exactly representable in float
  return v;
}

size_t count(const std::vector<SizesType>& sizes) {
  size_t n = 1;
  for (SizesType s : sizes) n *= size_t(s);
  return n;
}

// Runs `call` (which builds its operands from `type`) in Float and in
// Double, and compares: |float - double| <= atol + rtol * |double|.
template <typename Call>
void differential(const char* what, double atol, double rtol, Call call) {
  for (size_t threads : {1, 2}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    std::vector<double> f, d;
    ASSERT_EQ(call(ScalarType::Float, &f), Error::Ok) << what << ": " << last_error_message();
    ASSERT_EQ(call(ScalarType::Double, &d), Error::Ok) << what << ": " << last_error_message();
    ASSERT_EQ(f.size(), d.size());
    for (size_t i = 0; i < f.size(); ++i) {
      if (std::isnan(d[i])) {
        ASSERT_TRUE(std::isnan(f[i])) << what << " element " << i;
        continue;
      }
      ASSERT_LE(std::fabs(f[i] - d[i]), atol + rtol * std::fabs(d[i]))
          << what << " element " << i << " threads " << threads << ": " << f[i] << " vs "
          << d[i];
    }
  }
  ASSERT_EQ(set_num_threads(1), Error::Ok);
}

struct Conv {
  const char* name;
  std::vector<SizesType> in, weight;
  std::vector<int64_t> stride, pad, dilation;
  int64_t groups;
  bool bias;
};

TEST(OptimizedPaths, ConvolutionMatchesDouble) {
  const Conv cases[] = {
      {"3x3 padded", {1, 8, 13, 11}, {16, 8, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, true},
      {"3x3 rows", {2, 8, 12, 16}, {16, 8, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, true},
      {"7x7 stride 2", {2, 3, 20, 20}, {8, 3, 7, 7}, {2, 2}, {3, 3}, {1, 1}, 1, false},
      {"pointwise", {1, 24, 9, 9}, {40, 24, 1, 1}, {1, 1}, {0, 0}, {1, 1}, 1, true},
      {"grouped", {1, 8, 10, 10}, {12, 4, 3, 3}, {2, 2}, {1, 1}, {1, 1}, 2, true},
      {"dilated", {1, 4, 15, 15}, {6, 4, 3, 3}, {1, 1}, {2, 2}, {2, 2}, 1, true},
      {"depthwise", {1, 16, 28, 28}, {16, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 16, true},
      {"depthwise stride 2", {2, 8, 29, 31}, {8, 1, 3, 3}, {2, 2}, {1, 1}, {1, 1}, 8, false},
      {"depthwise 5x5 x2", {1, 4, 17, 17}, {8, 1, 5, 5}, {1, 1}, {2, 2}, {1, 1}, 4, true},
      {"1-D", {2, 6, 50}, {10, 6, 5}, {2}, {2}, {1}, 1, true},
  };
  for (const Conv& c : cases) {
    const auto in = random_values(count(c.in), 1), wt = random_values(count(c.weight), 2);
    const auto bias = random_values(size_t(c.weight[0]), 3);
    differential(c.name, 1e-5, 1e-5, [&](ScalarType t, std::vector<double>* got) {
      auto x = from_doubles(t, c.in, in);
      auto w = from_doubles(t, c.weight, wt);
      auto b = from_doubles(t, {c.weight[0]}, bias);
      std::vector<SizesType> out_sizes = {c.in[0], c.weight[0]};
      for (size_t d = 2; d < c.in.size(); ++d) {
        const int64_t i = int64_t(d - 2);
        out_sizes.push_back(SizesType((c.in[d] + 2 * c.pad[i] -
                                       c.dilation[i] * (c.weight[d] - 1) - 1) / c.stride[i] + 1));
      }
      auto out = empty(t, out_sizes);
      const Error e = call_kernel(
          "aten::convolution.out",
          {*x, *w, c.bias ? Arg(*b) : Arg::none(), Arg::ints(c.stride), Arg::ints(c.pad),
           Arg::ints(c.dilation), false, Arg::ints(std::vector<int64_t>(c.stride.size(), 0)),
           c.groups, *out, *out});
      *got = to_doubles(*out);
      return e;
    });
  }
}

TEST(OptimizedPaths, MatrixProductsMatchDouble) {
  const int shapes[][3] = {{1, 64, 30}, {5, 7, 9}, {40, 300, 70}, {197, 64, 48}};
  for (auto& s : shapes) {
    const int m = s[0], k = s[1], n = s[2];
    const auto av = random_values(size_t(3 * m * k), 4), bv = random_values(size_t(3 * k * n), 5);
    const auto biasv = random_values(size_t(n), 6);
    differential("mm", 1e-5, 1e-5, [&](ScalarType t, std::vector<double>* got) {
      auto a = from_doubles(t, {m, k}, {av.begin(), av.begin() + m * k});
      auto b = from_doubles(t, {k, n}, {bv.begin(), bv.begin() + k * n});
      auto out = empty(t, {m, n});
      const Error e = call_kernel("aten::mm.out", {*a, *b, *out, *out});
      *got = to_doubles(*out);
      return e;
    });
    for (double beta : {0.0, 1.0, 0.5}) {
      differential("addmm", 1e-5, 1e-5, [&](ScalarType t, std::vector<double>* got) {
        auto bias = from_doubles(t, {n}, biasv);
        auto a = from_doubles(t, {m, k}, {av.begin(), av.begin() + m * k});
        auto b = from_doubles(t, {k, n}, {bv.begin(), bv.begin() + k * n});
        auto out = empty(t, {m, n});
        const Error e = call_kernel("aten::addmm.out", {*bias, *a, *b, beta, 1.5, *out, *out});
        *got = to_doubles(*out);
        return e;
      });
    }
    differential("bmm", 1e-5, 1e-5, [&](ScalarType t, std::vector<double>* got) {
      auto a = from_doubles(t, {3, m, k}, av);
      auto b = from_doubles(t, {3, k, n}, bv);
      auto out = empty(t, {3, m, n});
      const Error e = call_kernel("aten::bmm.out", {*a, *b, *out, *out});
      *got = to_doubles(*out);
      return e;
    });
  }
}

TEST(OptimizedPaths, PermutesAreExact) {
  const auto v = random_values(2 * 3 * 40 * 33, 7);
  const std::vector<std::vector<int64_t>> perms = {{0, 2, 1, 3}, {3, 1, 2, 0}, {1, 0, 3, 2}};
  for (const auto& perm : perms) {
    differential("permute_copy", 0, 0, [&](ScalarType t, std::vector<double>* got) {
      auto x = from_doubles(t, {2, 3, 40, 33}, v);
      const SizesType dims[4] = {2, 3, 40, 33};
      auto out = empty(t, {dims[perm[0]], dims[perm[1]], dims[perm[2]], dims[perm[3]]});
      const Error e = call_kernel("aten::permute_copy.out", {*x, Arg::ints(perm), *out, *out});
      *got = to_doubles(*out);
      return e;
    });
  }
  differential("transpose_copy", 0, 0, [&](ScalarType t, std::vector<double>* got) {
    auto x = from_doubles(t, {2, 3, 40, 33}, v);
    auto out = empty(t, {2, 33, 40, 3});
    const Error e = call_kernel("aten::transpose_copy.int_out", {*x, 1, 3, *out, *out});
    *got = to_doubles(*out);
    return e;
  });
}

TEST(OptimizedPaths, SoftmaxMatchesDouble) {
  const auto v = random_values(4 * 37 * 19, 8, -15, 15);
  for (int64_t dim : {2, 1, 0}) {
    for (const char* op : {"aten::_softmax.out", "aten::_log_softmax.out"}) {
      differential(op, 1e-6, 1e-5, [&](ScalarType t, std::vector<double>* got) {
        auto x = from_doubles(t, {4, 37, 19}, v);
        auto out = empty(t, {4, 37, 19});
        const Error e = call_kernel(op, {*x, dim, false, *out, *out});
        *got = to_doubles(*out);
        return e;
      });
    }
  }
}

TEST(OptimizedPaths, UnaryMathMatchesDouble) {
  auto v = random_values(5000, 9, -12, 12);
  v[17] = NAN;
  struct Case {
    const char* op;
    double atol, rtol;
  } cases[] = {{"aten::exp.out", 0, 3e-7},  {"aten::tanh.out", 1e-7, 3e-7},
               {"aten::erf.out", 2e-7, 0},  {"aten::sigmoid.out", 1e-7, 5e-7},
               {"aten::relu.out", 0, 0}};
  for (const Case& c : cases) {
    differential(c.op, c.atol, c.rtol, [&](ScalarType t, std::vector<double>* got) {
      auto x = from_doubles(t, {50, 100}, v);
      auto out = empty(t, {50, 100});
      const Error e = call_kernel(c.op, {*x, *out, *out});
      *got = to_doubles(*out);
      return e;
    });
  }
  differential("hardtanh", 0, 0, [&](ScalarType t, std::vector<double>* got) {
    auto x = from_doubles(t, {50, 100}, v);
    auto out = empty(t, {50, 100});
    const Error e = call_kernel("aten::hardtanh.out", {*x, 0.0, 6.0, *out, *out});
    *got = to_doubles(*out);
    return e;
  });
}

TEST(OptimizedPaths, GeluMatchesDouble) {
  auto v = random_values(5000, 10, -10, 10);
  differential("gelu", 2e-7, 3e-7, [&](ScalarType t, std::vector<double>* got) {
    auto x = from_doubles(t, {5000}, v);
    auto out = empty(t, {5000});
    const std::string none = "none";
    std::vector<EValue> values = {EValue(x->tensor()),
                                  EValue(StringView{none.data(), none.size()}),
                                  EValue(out->tensor()), EValue(out->tensor())};
    std::vector<EValue*> args;
    for (EValue& e : values) args.push_back(&e);
    KernelContext ctx;
    find_kernel("aten::gelu", "out")(ctx, {args.data(), args.size()});
    *got = to_doubles(*out);
    return ctx.failure();
  });
}

TEST(OptimizedPaths, BatchNormMatchesDouble) {
  const int n = 2, c = 6, h = 9, w = 11;
  const auto x = random_values(size_t(n * c * h * w), 11, -3, 3);
  const auto weight = random_values(c, 12), bias = random_values(c, 13);
  const auto mean = random_values(c, 14), var = random_values(c, 15, 0.1, 2);
  differential("batch_norm", 1e-6, 1e-5, [&](ScalarType t, std::vector<double>* got) {
    auto in = from_doubles(t, {n, c, h, w}, x);
    auto wt = from_doubles(t, {c}, weight), b = from_doubles(t, {c}, bias);
    auto rm = from_doubles(t, {c}, mean), rv = from_doubles(t, {c}, var);
    auto out = empty(t, {n, c, h, w});
    auto s1 = empty(t, {0}), s2 = empty(t, {0});
    const Error e = call_kernel("aten::_native_batch_norm_legit_no_training.out",
                                {*in, *wt, *b, *rm, *rv, 0.1, 1e-5, *out, *s1, *s2, *out,
                                 *s1, *s2});
    *got = to_doubles(*out);
    return e;
  });
}

TEST(OptimizedPaths, MaxPoolMatchesDouble) {
  auto v = random_values(2 * 5 * 37 * 41, 19, -4, 4);
  v[100] = NAN;
  for (const auto& geom : std::vector<std::vector<int64_t>>{{3, 2, 1}, {2, 2, 0}, {3, 1, 1}}) {
    const int64_t k = geom[0], st = geom[1], pad = geom[2];
    const SizesType oh = SizesType((37 + 2 * pad - k) / st + 1);
    const SizesType ow = SizesType((41 + 2 * pad - k) / st + 1);
    differential("max_pool2d", 0, 0, [&](ScalarType t, std::vector<double>* got) {
      auto x = from_doubles(t, {2, 5, 37, 41}, v);
      auto out = empty(t, {2, 5, oh, ow});
      auto idx = empty(ScalarType::Long, {2, 5, oh, ow});
      const Error e = call_kernel("aten::max_pool2d_with_indices.out",
                                  {*x, Arg::ints({k, k}), Arg::ints({st, st}),
                                   Arg::ints({pad, pad}), Arg::ints({1, 1}), false, *out, *idx,
                                   *out, *idx});
      *got = to_doubles(*out);
      const auto i = to_doubles(*idx);
      got->insert(got->end(), i.begin(), i.end());
      return e;
    });
  }
}

TEST(OptimizedPaths, LayerNormMatchesDouble) {
  const auto x = random_values(4 * 7 * 384, 16, -3, 3);
  const auto w = random_values(384, 17), b = random_values(384, 18);
  for (bool affine : {true, false}) {
    differential("layer_norm", 1e-5, 1e-5, [&](ScalarType t, std::vector<double>* got) {
      auto in = from_doubles(t, {4, 7, 384}, x);
      auto wt = from_doubles(t, {384}, w), bias = from_doubles(t, {384}, b);
      auto out = empty(t, {4, 7, 384}), mean = empty(t, {4, 7, 1}), rstd = empty(t, {4, 7, 1});
      const Error e = call_kernel(
          "aten::native_layer_norm.out",
          {*in, Arg::ints({384}), affine ? Arg(*wt) : Arg::none(),
           affine ? Arg(*bias) : Arg::none(), 1e-5, *out, *mean, *rstd, *out, *mean, *rstd});
      *got = to_doubles(*out);
      const auto m = to_doubles(*mean), r = to_doubles(*rstd);
      got->insert(got->end(), m.begin(), m.end());
      got->insert(got->end(), r.begin(), r.end());
      return e;
    });
  }
}

}  // namespace
}  // namespace ember::testing
