// The delegate's native steps (xnn_native_ops.h) and the kernels behind
// them (xnn_native_kernels.h) against plain reference loops: batch matrix
// multiply on odd shapes (edges of every block size, k = 0 and 1, n = 1,
// batch broadcast, transposed and constant B), transposes of several
// ranks, permutations and element sizes, and the vectorized erf, GELU,
// exp and tanh against double-precision libm over dense grids. Kernels
// run for every instruction set this CPU supports and for 1 and several
// threads (results must not depend on the thread count).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "backends/xnnpack/xnn_graph.h"
#include "backends/xnnpack/xnn_native_kernels.h"
#include "backends/xnnpack/xnn_native_ops.h"
#include "runtime/platform/threadpool.h"
#include "schema/xnnpack_graph_generated.h"

namespace ember::xnnpack {
namespace {
namespace fb = ::ember_xnn_fb;

std::vector<Isa> supported_isas() {
  std::vector<Isa> isas;
  for (Isa isa : {Isa::kBaseline, Isa::kAvx2, Isa::kAvx512}) {
    if (isa_supported(isa)) isas.push_back(isa);
  }
  return isas;
}

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// Restores one thread when a test ends, however it ends.
struct ThreadsGuard {
  ~ThreadsGuard() { EXPECT_EQ(set_num_threads(1), Error::Ok); }
};

// ------------------------------------------------------------ bmm

struct BmmCase {
  std::vector<size_t> a_batch, b_batch;  // out batch: the larger of each
  size_t m, k, n;
};

BmmShape make_shape(const BmmCase& c) {
  BmmShape s;
  s.batch_rank = c.a_batch.size();
  for (size_t d = 0; d < s.batch_rank; ++d) {
    s.a_batch[d] = c.a_batch[d];
    s.b_batch[d] = c.b_batch[d];
    s.out_batch[d] = std::max(c.a_batch[d], c.b_batch[d]);
  }
  s.m = c.m;
  s.k = c.k;
  s.n = c.n;
  return s;
}

size_t count(const size_t* dims, size_t n) {
  size_t c = 1;
  for (size_t d = 0; d < n; ++d) c *= dims[d];
  return c;
}

// Double-precision reference; `b_transposed`: b holds [n x k] matrices.
// Also returns sum |a||b| per output, the scale of the rounding error.
void reference_bmm(const BmmShape& s, const float* a, const float* b, bool b_transposed,
                   std::vector<double>* out, std::vector<double>* scale) {
  const size_t batches = count(s.out_batch, s.batch_rank);
  out->assign(batches * s.m * s.n, 0.0);
  scale->assign(out->size(), 0.0);
  for (size_t batch = 0; batch < batches; ++batch) {
    size_t rem = batch, ai = 0, bi = 0, astep = 1, bstep = 1;
    for (size_t d = s.batch_rank; d-- > 0;) {
      const size_t idx = rem % s.out_batch[d];
      rem /= s.out_batch[d];
      ai += (s.a_batch[d] == 1 ? 0 : idx) * astep;
      bi += (s.b_batch[d] == 1 ? 0 : idx) * bstep;
      astep *= s.a_batch[d];
      bstep *= s.b_batch[d];
    }
    const float* am = a + ai * s.m * s.k;
    const float* bm = b + bi * s.k * s.n;
    for (size_t i = 0; i < s.m; ++i) {
      for (size_t j = 0; j < s.n; ++j) {
        double acc = 0, mag = 0;
        for (size_t p = 0; p < s.k; ++p) {
          const double x = am[i * s.k + p];
          const double y = b_transposed ? bm[j * s.k + p] : bm[p * s.n + j];
          acc += x * y;
          mag += std::fabs(x * y);
        }
        (*out)[(batch * s.m + i) * s.n + j] = acc;
        (*scale)[(batch * s.m + i) * s.n + j] = mag;
      }
    }
  }
}

void expect_close(const std::vector<float>& got, const std::vector<double>& want,
                  const std::vector<double>& scale, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  size_t bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double tol = 1e-6 * scale[i] + 1e-30;
    if (!(std::fabs(double(got[i]) - want[i]) <= tol) && bad++ < 5) {
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected "
                    << want[i];
    }
  }
  EXPECT_EQ(bad, 0u) << what;
}

const std::vector<BmmCase>& bmm_cases() {
  static const std::vector<BmmCase> cases = {
      {{}, {}, 1, 1, 1},
      {{}, {}, 1, 7, 1},
      {{}, {}, 5, 1, 3},        // k = 1
      {{}, {}, 3, 0, 4},        // k = 0: zeros
      {{}, {}, 9, 13, 1},       // n = 1
      {{}, {}, 1, 20, 37},      // m = 1
      {{}, {}, 13, 17, 19},     // nothing a multiple of anything
      {{}, {}, 64, 64, 64},
      {{}, {}, 33, 300, 47},    // k crosses the 256-deep block
      {{}, {}, 131, 9, 70},     // m crosses the 128-row block
      {{4}, {4}, 64, 32, 64},   // vit_small's attention shapes
      {{4}, {4}, 64, 64, 32},
      {{2, 3}, {2, 3}, 7, 5, 11},
      {{2, 1}, {1, 3}, 6, 4, 9},  // both broadcast
      {{1}, {5}, 10, 3, 17},
      {{3}, {1}, 17, 16, 33},
  };
  return cases;
}

TEST(BmmKernel, MatchesReferenceOnEveryIsa) {
  uint32_t seed = 1;
  for (const BmmCase& c : bmm_cases()) {
    const BmmShape s = make_shape(c);
    const std::vector<float> a = random_floats(count(s.a_batch, s.batch_rank) * s.m * s.k, seed++);
    const std::vector<float> b = random_floats(count(s.b_batch, s.batch_rank) * s.k * s.n, seed++);
    std::vector<double> want, scale;
    reference_bmm(s, a.data(), b.data(), false, &want, &scale);
    for (Isa isa : supported_isas()) {
      std::vector<float> got(want.size(), std::nanf(""));
      bmm_f32(s, a.data(), b.data(), got.data(), isa);
      char what[128];
      snprintf(what, sizeof(what), "%s m=%zu k=%zu n=%zu batch rank %zu", isa_name(isa), s.m,
               s.k, s.n, s.batch_rank);
      expect_close(got, want, scale, what);
    }
  }
}

TEST(BmmKernel, SameBitsForEveryThreadCount) {
  ThreadsGuard guard;
  const BmmCase cases[] = {{{4}, {4}, 64, 64, 64}, {{2, 1}, {1, 3}, 37, 29, 41},
                           {{}, {}, 200, 70, 90}};
  for (const BmmCase& c : cases) {
    const BmmShape s = make_shape(c);
    const std::vector<float> a = random_floats(count(s.a_batch, s.batch_rank) * s.m * s.k, 7);
    const std::vector<float> b = random_floats(count(s.b_batch, s.batch_rank) * s.k * s.n, 8);
    const size_t n_out = count(s.out_batch, s.batch_rank) * s.m * s.n;
    for (Isa isa : supported_isas()) {
      ASSERT_EQ(set_num_threads(1), Error::Ok);
      std::vector<float> one(n_out), many(n_out);
      bmm_f32(s, a.data(), b.data(), one.data(), isa);
      for (size_t threads : {2, 3}) {
        ASSERT_EQ(set_num_threads(threads), Error::Ok);
        bmm_f32(s, a.data(), b.data(), many.data(), isa);
        EXPECT_EQ(std::memcmp(one.data(), many.data(), n_out * sizeof(float)), 0)
            << isa_name(isa) << ", " << threads << " threads, m=" << s.m;
      }
    }
  }
}

// ------------------------------------------------------------ one-node graphs

// A Graph holding one node over values 0..n-1 (the last is the output),
// built around a real flatbuffer XNode as the delegate sees it.
struct OneNodeGraph {
  flatbuffers::FlatBufferBuilder fbb;
  Graph graph;

  void add_value(const std::vector<size_t>& dims, const void* constant = nullptr,
                 xnn_datatype dtype = xnn_datatype_fp32, size_t element_size = 4) {
    Value v;
    v.dtype = dtype;
    v.element_size = element_size;
    v.num_dims = dims.size();
    v.numel = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
      v.dims[d] = dims[d];
      v.numel *= dims[d];
    }
    v.data = constant;
    graph.values.push_back(v);
  }
  // After the values: the node reads values 0..n-2 and writes n-1.
  void finish(fb::XNodeUnion type, flatbuffers::Offset<void> node) {
    fbb.Finish(fb::CreateXNode(fbb, type, node, 0));
    Node n;
    n.type = type;
    n.fb = flatbuffers::GetRoot<fb::XNode>(fbb.GetBufferPointer());
    n.num_inputs = graph.values.size() - 1;
    for (size_t k = 0; k < n.num_inputs; ++k) n.inputs[k] = uint32_t(k);
    n.output = uint32_t(graph.values.size() - 1);
    graph.nodes.push_back(n);
  }
  // Runs the node as the plan does: check, scratch and prepare at init,
  // then run.
  void run(std::vector<void*> ptrs) {
    const Node& node = graph.nodes[0];
    ASSERT_TRUE(is_native_node(graph, node));
    ASSERT_EQ(check_native_node(graph, node), Error::Ok);
    std::vector<float> scratch((native_scratch_bytes(graph, node) + 3) / 4);
    prepare_native_node(graph, node, scratch.empty() ? nullptr : scratch.data());
    for (size_t v = 0; v < graph.values.size(); ++v) {
      if (graph.values[v].is_constant()) ptrs[v] = const_cast<void*>(graph.values[v].data);
    }
    run_native_node(graph, node, ptrs.data(), scratch.empty() ? nullptr : scratch.data());
  }
};

TEST(NativeBmm, TransposedConstantAndBroadcastOperands) {
  ThreadsGuard guard;
  uint32_t seed = 100;
  for (size_t threads : {1, 2}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    for (const BmmCase& c : bmm_cases()) {
      for (bool transposed : {false, true}) {
        for (bool constant_b : {false, true}) {
          const BmmShape s = make_shape(c);
          const size_t rank = s.batch_rank + 2;
          std::vector<size_t> a_dims(c.a_batch), b_dims(c.b_batch), out_dims;
          for (size_t d = 0; d < s.batch_rank; ++d) out_dims.push_back(s.out_batch[d]);
          a_dims.insert(a_dims.end(), {s.m, s.k});
          if (transposed) {
            b_dims.insert(b_dims.end(), {s.n, s.k});
          } else {
            b_dims.insert(b_dims.end(), {s.k, s.n});
          }
          out_dims.insert(out_dims.end(), {s.m, s.n});
          const std::vector<float> a = random_floats(count(a_dims.data(), rank), seed++);
          const std::vector<float> b = random_floats(count(b_dims.data(), rank), seed++);
          std::vector<float> out(count(out_dims.data(), rank), std::nanf(""));
          OneNodeGraph g;
          g.add_value(a_dims);
          g.add_value(b_dims, constant_b ? b.data() : nullptr);
          g.add_value(out_dims);
          g.finish(fb::XNodeUnion::XNNBatchMatrixMultiply,
                   fb::Create_XNNNode2x1(g.fbb, 0, 1, 2,
                                         transposed ? XNN_FLAG_TRANSPOSE_WEIGHTS : 0)
                       .Union());
          g.run({const_cast<float*>(a.data()), const_cast<float*>(b.data()), out.data()});
          std::vector<double> want, scale;
          reference_bmm(s, a.data(), b.data(), transposed, &want, &scale);
          char what[160];
          snprintf(what, sizeof(what), "m=%zu k=%zu n=%zu batch rank %zu%s%s, %zu threads",
                   s.m, s.k, s.n, s.batch_rank, transposed ? ", B transposed" : "",
                   constant_b ? ", B constant" : "", threads);
          expect_close(out, want, scale, what);
        }
      }
    }
  }
}

// ------------------------------------------------------------ convolution

struct ConvCase {
  size_t batch, in_h, in_w, in_c, out_c, kh, kw, sh, sw, dh, dw;
  size_t pt, pr, pb, pl;
  bool bias;
  float lo, hi;
};

float inf_f() { return std::numeric_limits<float>::infinity(); }

const std::vector<ConvCase>& conv_cases() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  static const std::vector<ConvCase> cases = {
      {1, 8, 8, 16, 32, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, -inf, inf},   // 1x1: in place
      {2, 5, 7, 3, 17, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, false, -inf, inf},   // 1x1, batch 2
      {1, 9, 9, 8, 24, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, true, -inf, inf},    // 1x1 stride 2
      {1, 11, 13, 3, 19, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, true, 0.0f, inf},  // stride 2, relu
      {1, 10, 9, 5, 33, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, false, -inf, inf},  // dilation 2
      {1, 7, 8, 4, 7, 3, 2, 1, 2, 1, 1, 0, 1, 2, 3, true, -0.5f, 0.5f},   // asymmetric pad
      {1, 2, 3, 6, 40, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, true, -inf, inf},    // kernel > input
      {2, 12, 12, 7, 48, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3, true, -inf, 6.0f}, // resnet stem-like
      {1, 14, 14, 40, 65, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, true, -inf, inf}, // k > 256, 196 px
      {1, 3, 3, 300, 70, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false, -inf, inf}, // few px, deep
      // 1x1 in place, B in L1 (row-major sweep), a last panel of 16 of 32
      {1, 28, 28, 24, 144, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, 0.0f, 6.0f},
      {1, 20, 20, 16, 16, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, false, -inf, inf},  // one narrow panel
      {1, 7, 7, 300, 40, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, -inf, inf},   // in place, k > 256
      // One pixel (squeeze-and-excitation): the node runs as a gemv
      {1, 1, 1, 72, 24, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, 0.0f, 6.0f},
      {1, 1, 1, 576, 300, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, false, -inf, inf},
      // One pixel in and out, but it is padding (stride 3): bias only, no gemv
      {1, 1, 1, 16, 8, 1, 1, 3, 3, 1, 1, 1, 1, 1, 1, true, -inf, inf},
  };
  return cases;
}

Conv2dShape conv_shape_of(const ConvCase& c) {
  Conv2dShape s;
  s.batch = c.batch;
  s.in_h = c.in_h;
  s.in_w = c.in_w;
  s.in_c = c.in_c;
  s.out_c = c.out_c;
  s.out_h = (c.in_h + c.pt + c.pb - ((c.kh - 1) * c.dh + 1)) / c.sh + 1;
  s.out_w = (c.in_w + c.pl + c.pr - ((c.kw - 1) * c.dw + 1)) / c.sw + 1;
  s.kernel_h = c.kh;
  s.kernel_w = c.kw;
  s.stride_h = c.sh;
  s.stride_w = c.sw;
  s.dilation_h = c.dh;
  s.dilation_w = c.dw;
  s.pad_top = c.pt;
  s.pad_left = c.pl;
  s.out_min = c.lo;
  s.out_max = c.hi;
  return s;
}

// Plain loops in double, NHWC input, OHWI weights; `scale` as for bmm.
void reference_conv(const Conv2dShape& s, const float* in, const float* w, const float* bias,
                    std::vector<double>* out, std::vector<double>* scale) {
  out->assign(s.batch * s.out_h * s.out_w * s.out_c, 0.0);
  scale->assign(out->size(), 0.0);
  for (size_t n = 0; n < s.batch; ++n)
    for (size_t oy = 0; oy < s.out_h; ++oy)
      for (size_t ox = 0; ox < s.out_w; ++ox)
        for (size_t o = 0; o < s.out_c; ++o) {
          double acc = bias ? bias[o] : 0.0, mag = bias ? std::fabs(bias[o]) : 0.0;
          for (size_t ky = 0; ky < s.kernel_h; ++ky)
            for (size_t kx = 0; kx < s.kernel_w; ++kx) {
              const long iy = long(oy * s.stride_h + ky * s.dilation_h) - long(s.pad_top);
              const long ix = long(ox * s.stride_w + kx * s.dilation_w) - long(s.pad_left);
              if (iy < 0 || ix < 0 || iy >= long(s.in_h) || ix >= long(s.in_w)) continue;
              for (size_t ci = 0; ci < s.in_c; ++ci) {
                const double x = in[((n * s.in_h + size_t(iy)) * s.in_w + size_t(ix)) * s.in_c + ci];
                const double wt = w[((o * s.kernel_h + ky) * s.kernel_w + kx) * s.in_c + ci];
                acc += x * wt;
                mag += std::fabs(x * wt);
              }
            }
          const size_t i = ((n * s.out_h + oy) * s.out_w + ox) * s.out_c + o;
          (*out)[i] = std::min(std::max(acc, double(s.out_min)), double(s.out_max));
          (*scale)[i] = mag;
        }
}

// 1 slot on one thread, and 2 or 3 slots on as many threads (which cut
// the work into pixel blocks and column groups: every element once).
TEST(ConvKernel, MatchesReferenceOnEveryIsa) {
  ThreadsGuard restore;
  uint32_t seed = 300;
  std::vector<ConvCase> cases = conv_cases();
  // Few pixels (49, as in a 7x7 map) and 300 columns: with more than one
  // thread the columns are cut into groups, the last one narrower.
  cases.push_back({1, 7, 7, 64, 300, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, true, -inf_f(), inf_f()});
  for (const ConvCase& c : cases) {
    const Conv2dShape s = conv_shape_of(c);
    const std::vector<float> in = random_floats(s.batch * s.in_h * s.in_w * s.in_c, seed++);
    const std::vector<float> w = random_floats(s.out_c * c.kh * c.kw * s.in_c, seed++);
    const std::vector<float> bias = random_floats(s.out_c, seed++);
    std::vector<double> want, scale;
    reference_conv(s, in.data(), w.data(), c.bias ? bias.data() : nullptr, &want, &scale);
    for (Isa isa : supported_isas()) {
      for (size_t slots : {1, 2, 3}) {
        ASSERT_EQ(set_num_threads(slots), Error::Ok);
        std::vector<float> packed(conv2d_packed_floats(s, isa), std::nanf(""));
        conv2d_pack_weights(s, w.data(), c.bias ? bias.data() : nullptr, packed.data(), isa);
        std::vector<float> ws(conv2d_workspace_floats(s, slots) + 1, std::nanf(""));
        std::vector<float> got(want.size(), std::nanf(""));
        conv2d_f32(s, in.data(), packed.data(), got.data(), ws.data(), slots, isa);
        char what[200];
        snprintf(what, sizeof(what),
                 "%s %zu slots: %zux%zux%zu -> %zu, kernel %zux%zu stride %zux%zu dilation "
                 "%zux%zu pad %zu,%zu,%zu,%zu",
                 isa_name(isa), slots, c.in_h, c.in_w, c.in_c, c.out_c, c.kh, c.kw, c.sh, c.sw,
                 c.dh, c.dw, c.pt, c.pr, c.pb, c.pl);
        expect_close(got, want, scale, what);
      }
    }
  }
}

// The XNNConv2d node as the plan runs it: bias optional, clamp from the
// node, scratch sized for the thread count at init; same bits for 1, 2
// and 3 threads.
bool native_conv_disabled() {
  const char* v = std::getenv("EMBER_XNNPACK_NATIVE_CONV");
  return v != nullptr && std::strcmp(v, "0") == 0;
}

// Runs a one-node convolution or fully connected graph (input value 0,
// bias value 2 when `bias`, output `out_id`) with the node's clamp set to
// [lo, hi]; the output starts as NaN.
std::vector<float> run_gemm_node(OneNodeGraph& g, const float* input, uint32_t out_id,
                                 size_t out_size, bool bias, float lo, float hi) {
  Node& node = g.graph.nodes[0];
  node.num_inputs = 3;
  node.inputs[2] = bias ? 2 : kInvalidId;
  node.output_min = lo;
  node.output_max = hi;
  std::vector<float> out(out_size, std::nanf(""));
  std::vector<void*> ptrs(g.graph.values.size(), nullptr);
  ptrs[0] = const_cast<float*>(input);
  ptrs[out_id] = out.data();
  g.run(ptrs);
  return out;
}

// The run at one thread is kept in `first`; later ones must equal it bit
// for bit.
void expect_bits_of_first_run(std::vector<float>* first, const std::vector<float>& out,
                              size_t threads, const char* what) {
  if (threads == 1) {
    *first = out;
    return;
  }
  ASSERT_EQ(first->size(), out.size()) << what;
  EXPECT_EQ(std::memcmp(first->data(), out.data(), out.size() * sizeof(float)), 0) << what;
}

TEST(NativeConv, StepMatchesReferenceAndThreadCountsAgree) {
  if (native_conv_disabled()) GTEST_SKIP() << "EMBER_XNNPACK_NATIVE_CONV=0";
  ThreadsGuard guard;
  uint32_t seed = 500;
  for (ConvCase c : conv_cases()) {
    // 1x1 convolutions over fewer than 16 channels and the others
    // shallower than 128 (kernel taps x input channels) stay with XNNPACK
    // (is_native_node): deepen them.
    const size_t taps = c.kh * c.kw;
    c.in_c = std::max<size_t>(c.in_c, taps == 1 ? 16 : (128 + taps - 1) / taps);
    const Conv2dShape s = conv_shape_of(c);
    const std::vector<float> in = random_floats(s.batch * s.in_h * s.in_w * s.in_c, seed++);
    const std::vector<float> w = random_floats(s.out_c * c.kh * c.kw * s.in_c, seed++);
    const std::vector<float> bias = random_floats(s.out_c, seed++);
    std::vector<double> want, scale;
    reference_conv(s, in.data(), w.data(), c.bias ? bias.data() : nullptr, &want, &scale);
    std::vector<float> first;
    for (size_t threads : {1, 2, 3}) {
      ASSERT_EQ(set_num_threads(threads), Error::Ok);
      OneNodeGraph g;
      g.add_value({s.batch, s.in_h, s.in_w, s.in_c});
      g.add_value({s.out_c, c.kh, c.kw, s.in_c}, w.data());
      if (c.bias) g.add_value({s.out_c}, bias.data());
      g.add_value({s.batch, s.out_h, s.out_w, s.out_c});
      const uint32_t out_id = c.bias ? 3 : 2;
      g.finish(fb::XNodeUnion::XNNConv2d,
               fb::Create_XNNNodeConv(g.fbb, uint32_t(c.pt), uint32_t(c.pr), uint32_t(c.pb),
                                      uint32_t(c.pl), uint32_t(c.kh), uint32_t(c.kw),
                                      uint32_t(c.sh), uint32_t(c.sw), uint32_t(c.dh),
                                      uint32_t(c.dw), uint32_t(c.in_c), uint32_t(c.out_c), 1,
                                      0, 0, 0, 1, c.bias ? 2 : kInvalidId, out_id, 0)
                   .Union());
      const std::vector<float> out =
          run_gemm_node(g, in.data(), out_id, want.size(), c.bias, c.lo, c.hi);
      char what[160];
      snprintf(what, sizeof(what), "%zux%zux%zu -> %zu kernel %zux%zu, %zu threads", c.in_h,
               c.in_w, c.in_c, c.out_c, c.kh, c.kw, threads);
      expect_close(out, want, scale, what);
      expect_bits_of_first_run(&first, out, threads, what);
    }
  }
}

// A filter the node's sizes do not describe is refused at init.
TEST(NativeConv, MismatchedFilterIsRefused) {
  if (native_conv_disabled()) GTEST_SKIP() << "EMBER_XNNPACK_NATIVE_CONV=0";
  const std::vector<float> w(4 * 3 * 3 * 16, 0.5f);
  OneNodeGraph g;
  g.add_value({1, 5, 5, 16});
  g.add_value({4, 3, 3, 16}, w.data());
  g.add_value({1, 3, 3, 4});
  g.finish(fb::XNodeUnion::XNNConv2d,
           fb::Create_XNNNodeConv(g.fbb, 0, 0, 0, 0, 3, 3, 1, 1, 1, 1, 16, 5, 1, 0, 0, 0, 1,
                                  kInvalidId, 2, 0)
               .Union());
  Node& node = g.graph.nodes[0];
  node.num_inputs = 3;
  node.inputs[2] = kInvalidId;
  ASSERT_TRUE(is_native_node(g.graph, node));
  EXPECT_EQ(check_native_node(g.graph, node), Error::InvalidProgram);
}

// Which convolutions run natively: kernel bigger than 1x1 and depth
// (taps x input channels) 128 and up, or 1x1 over 16 input channels and
// up; the others stay with XNNPACK.
TEST(NativeConv, OnlyDeepConvolutionsRunNatively) {
  if (native_conv_disabled()) GTEST_SKIP() << "EMBER_XNNPACK_NATIVE_CONV=0";
  struct Shape {
    size_t k, in_c;
    bool native;
  } shapes[] = {{3, 3, false}, {7, 3, true},  {1, 8, false}, {1, 15, false}, {1, 16, true},
                {1, 96, true},  {3, 14, false}, {3, 15, true}};
  for (const Shape& sh : shapes) {
    const std::vector<float> w(4 * sh.k * sh.k * sh.in_c, 0.5f);
    OneNodeGraph g;
    g.add_value({1, 9, 9, sh.in_c});
    g.add_value({4, sh.k, sh.k, sh.in_c}, w.data());
    g.add_value({1, 10 - sh.k, 10 - sh.k, 4});
    g.finish(fb::XNodeUnion::XNNConv2d,
             fb::Create_XNNNodeConv(g.fbb, 0, 0, 0, 0, uint32_t(sh.k), uint32_t(sh.k), 1, 1, 1,
                                    1, uint32_t(sh.in_c), 4, 1, 0, 0, 0, 1, kInvalidId, 2, 0)
                 .Union());
    Node& node = g.graph.nodes[0];
    node.num_inputs = 3;
    node.inputs[2] = kInvalidId;
    EXPECT_EQ(is_native_node(g.graph, node), sh.native) << sh.k << "x" << sh.k << " over "
                                                        << sh.in_c << " channels";
    EXPECT_EQ(check_native_node(g.graph, node), Error::Ok);
  }
}

// ------------------------------------------------------------ gemv

// gemv_f32 against a double-precision dot product on every ISA: k below,
// at and above a vector's width and not a multiple of it, n not a multiple
// of the four-row group nor of the 64-row task, with and without bias and
// clamping; the same bits for 1, 2 and 3 threads.
TEST(GemvKernel, MatchesReferenceOnEveryIsa) {
  ThreadsGuard guard;
  struct Case {
    size_t n, k;
    bool bias;
    float lo, hi;
  } cases[] = {{1, 1, false, -INFINITY, INFINITY},  {3, 5, true, -INFINITY, INFINITY},
               {7, 16, false, -0.2f, 0.2f},         {65, 33, true, 0.0f, INFINITY},
               {130, 257, true, -INFINITY, INFINITY}, {1000, 1280, true, -INFINITY, INFINITY}};
  uint32_t seed = 1300;
  for (const Case& c : cases) {
    const std::vector<float> x = random_floats(c.k, seed++);
    const std::vector<float> w = random_floats(c.n * c.k, seed++);
    const std::vector<float> bias = random_floats(c.n, seed++);
    std::vector<double> want(c.n), scale(c.n);
    for (size_t j = 0; j < c.n; ++j) {
      double acc = c.bias ? bias[j] : 0.0, mag = c.bias ? std::fabs(bias[j]) : 0.0;
      for (size_t p = 0; p < c.k; ++p) {
        acc += double(x[p]) * w[j * c.k + p];
        mag += std::fabs(double(x[p]) * w[j * c.k + p]);
      }
      want[j] = std::min(std::max(acc, double(c.lo)), double(c.hi));
      scale[j] = mag;
    }
    for (Isa isa : supported_isas()) {
      std::vector<float> first;
      for (size_t threads : {1, 2, 3}) {
        ASSERT_EQ(set_num_threads(threads), Error::Ok);
        std::vector<float> out(c.n, NAN);
        gemv_f32(c.n, c.k, x.data(), w.data(), c.bias ? bias.data() : nullptr, c.lo, c.hi,
                 out.data(), isa);
        char what[120];
        snprintf(what, sizeof(what), "n %zu k %zu, %s, %zu threads", c.n, c.k, isa_name(isa),
                 threads);
        expect_close(out, want, scale, what);
        expect_bits_of_first_run(&first, out, threads, what);
      }
    }
  }
}

// fp32 fully connected with constant weights ([n, k], or [k, n] with
// XNN_FLAG_TRANSPOSE_WEIGHTS) runs as a 1x1 convolution over its rows:
// against plain loops, with and without bias, clamped, rank-3 input, same
// bits for 1, 2 and 3 threads. k < 128 stays with XNNPACK.
TEST(NativeFullyConnected, MatchesReferenceForBothWeightLayouts) {
  if (native_conv_disabled()) GTEST_SKIP() << "EMBER_XNNPACK_NATIVE_CONV=0";
  ThreadsGuard guard;
  struct Case {
    size_t batch, rows, k, n;
    bool transposed, bias;
    float lo, hi;
  } cases[] = {{1, 197, 384, 1152, false, true, -INFINITY, INFINITY},
               {2, 5, 130, 33, true, false, -INFINITY, INFINITY},
               {1, 9, 300, 70, false, false, -0.5f, 0.5f},
               {3, 17, 128, 64, true, true, 0.0f, INFINITY},
               // One row of input: [n, k] runs as a matrix-vector product on
               // the weights in place; [k, n] still on the packed GEMM.
               {1, 1, 1280, 1000, false, true, -INFINITY, INFINITY},
               {1, 1, 131, 7, false, false, -0.5f, 0.5f},
               {1, 1, 200, 50, true, true, -INFINITY, INFINITY}};
  uint32_t seed = 900;
  for (const Case& c : cases) {
    const size_t m = c.batch * c.rows;
    const std::vector<float> x = random_floats(m * c.k, seed++);
    const std::vector<float> w = random_floats(c.k * c.n, seed++);  // [n, k] or [k, n]
    const std::vector<float> bias = random_floats(c.n, seed++);
    std::vector<double> want(m * c.n), scale(m * c.n);
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < c.n; ++j) {
        double acc = c.bias ? bias[j] : 0.0, mag = c.bias ? std::fabs(bias[j]) : 0.0;
        for (size_t p = 0; p < c.k; ++p) {
          const double wt = c.transposed ? w[p * c.n + j] : w[j * c.k + p];
          acc += double(x[i * c.k + p]) * wt;
          mag += std::fabs(double(x[i * c.k + p]) * wt);
        }
        want[i * c.n + j] = std::min(std::max(acc, double(c.lo)), double(c.hi));
        scale[i * c.n + j] = mag;
      }
    }
    std::vector<float> first;
    for (size_t threads : {1, 2, 3}) {
      ASSERT_EQ(set_num_threads(threads), Error::Ok);
      OneNodeGraph g;
      g.add_value({c.batch, c.rows, c.k});
      if (c.transposed) {
        g.add_value({c.k, c.n}, w.data());
      } else {
        g.add_value({c.n, c.k}, w.data());
      }
      if (c.bias) g.add_value({c.n}, bias.data());
      g.add_value({c.batch, c.rows, c.n});
      const uint32_t out_id = c.bias ? 3 : 2;
      g.finish(fb::XNodeUnion::XNNFullyConnected,
               fb::CreateXNNFullyConnected(g.fbb, 0, 1, c.bias ? 2 : kInvalidId, out_id,
                                           c.transposed ? XNN_FLAG_TRANSPOSE_WEIGHTS : 0)
                   .Union());
      const std::vector<float> out =
          run_gemm_node(g, x.data(), out_id, want.size(), c.bias, c.lo, c.hi);
      char what[160];
      snprintf(what, sizeof(what), "[%zu, %zu, %zu] x %s, %zu threads", c.batch, c.rows, c.k,
               c.transposed ? "[k, n]" : "[n, k]", threads);
      expect_close(out, want, scale, what);
      expect_bits_of_first_run(&first, out, threads, what);
    }
  }
  // Shallow (k < 128): XNNPACK's.
  const std::vector<float> w(64 * 8, 0.5f);
  OneNodeGraph g;
  g.add_value({4, 64});
  g.add_value({8, 64}, w.data());
  g.add_value({4, 8});
  g.finish(fb::XNodeUnion::XNNFullyConnected,
           fb::CreateXNNFullyConnected(g.fbb, 0, 1, kInvalidId, 2, 0).Union());
  g.graph.nodes[0].num_inputs = 3;
  g.graph.nodes[0].inputs[2] = kInvalidId;
  EXPECT_FALSE(is_native_node(g.graph, g.graph.nodes[0]));
}

// int8 transposed convolution with per-channel weights (native: the 2022
// XNNPACK refuses it): grouped, strided, dilated, asymmetric padding and an
// output adjustment, against a scatter-form reference (every input pixel
// and tap added where it lands), at 1 and 2 threads. A wrong output size
// is refused at init. (q_conv_transpose.bpte checks the plain case against
// upstream's runtime.)
TEST(NativeQuant, TransposedConvolutionMatchesScatterReference) {
  ThreadsGuard guard;
  const size_t ih = 5, iw = 4, groups = 2, gic = 2, goc = 3, kh = 3, kw = 2;
  const size_t sh = 2, sw = 1, dh = 1, dw = 2, pt = 1, pl = 0, pb = 0, pr = 1, adj_h = 1;
  const size_t oh = (ih - 1) * sh + adj_h + (kh - 1) * dh + 1 - pt - pb;  // 11
  const size_t ow = (iw - 1) * sw + (kw - 1) * dw + 1 - pl - pr;          // 5
  const size_t in_c = groups * gic, out_c = groups * goc;
  std::mt19937 rng(77);
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<int8_t> x(ih * iw * in_c), w(out_c * kh * kw * gic);
  for (int8_t& v : x) v = int8_t(byte(rng));
  for (int8_t& v : w) v = int8_t(byte(rng));
  std::vector<int32_t> bias(out_c);
  for (size_t o = 0; o < out_c; ++o) bias[o] = int32_t(o * 997) - 2000;
  std::vector<float> ws(out_c);
  for (size_t o = 0; o < out_c; ++o) ws[o] = 0.002f + 0.0005f * float(o);
  const float sx = 0.05f, so = 0.4f;
  const int32_t zx = 3, zo = -2;
  // Reference: scatter every (input pixel, tap) onto its output position.
  std::vector<int64_t> acc(oh * ow * out_c);
  for (size_t i = 0; i < oh * ow; ++i) {
    for (size_t o = 0; o < out_c; ++o) acc[i * out_c + o] = bias[o];
  }
  for (size_t iy = 0; iy < ih; ++iy)
    for (size_t ix = 0; ix < iw; ++ix)
      for (size_t ky = 0; ky < kh; ++ky)
        for (size_t kx = 0; kx < kw; ++kx) {
          const long y = long(iy * sh + ky * dh) - long(pt);
          const long xo = long(ix * sw + kx * dw) - long(pl);
          if (y < 0 || xo < 0 || y >= long(oh) || xo >= long(ow)) continue;
          for (size_t o = 0; o < out_c; ++o) {
            const size_t grp = o / goc;
            for (size_t c = 0; c < gic; ++c) {
              acc[(size_t(y) * ow + size_t(xo)) * out_c + o] +=
                  (int64_t(x[(iy * iw + ix) * in_c + grp * gic + c]) - zx) *
                  w[((o * kh + ky) * kw + kx) * gic + c];
            }
          }
        }
  std::vector<int8_t> want(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const size_t o = i % out_c;
    const long q = std::lrint(float(acc[i]) * (sx * ws[o] / so)) + zo;
    want[i] = int8_t(std::min(127L, std::max(-128L, q)));
  }
  for (size_t threads : {1, 2}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    for (bool wrong_size : {false, true}) {
      OneNodeGraph g;
      g.add_value({1, ih, iw, in_c}, nullptr, xnn_datatype_qint8, 1);
      g.add_value({out_c, kh, kw, gic}, w.data(), xnn_datatype_qcint8, 1);
      g.add_value({out_c}, bias.data(), xnn_datatype_qcint32, 4);
      g.add_value({1, oh + (wrong_size ? 1 : 0), ow, out_c}, nullptr, xnn_datatype_qint8, 1);
      g.graph.values[0].scale = sx;
      g.graph.values[0].zero_point = zx;
      g.graph.values[1].channel_scales = ws.data();
      g.graph.values[1].channel_dim = 0;
      g.graph.values[3].scale = so;
      g.graph.values[3].zero_point = zo;
      g.finish(fb::XNodeUnion::XNNConvTranspose2d,
               fb::Create_XNNNodeConv(g.fbb, pt, pr, pb, pl, kh, kw, sh, sw, dh, dw, gic, goc,
                                      groups, adj_h, 0, 0, 1, 2, 3, 0)
                   .Union());
      ASSERT_TRUE(is_native_node(g.graph, g.graph.nodes[0]));
      if (wrong_size) {
        EXPECT_EQ(check_native_node(g.graph, g.graph.nodes[0]), Error::InvalidProgram);
        continue;
      }
      std::vector<int8_t> out(want.size(), 0);
      std::vector<void*> ptrs = {x.data(), nullptr, nullptr, out.data()};
      g.run(ptrs);
      size_t bad = 0;
      for (size_t i = 0; i < want.size(); ++i) {
        if (out[i] != want[i] && bad++ < 5) {
          ADD_FAILURE() << "element " << i << ": " << int(out[i]) << ", expected "
                        << int(want[i]) << " (" << threads << " threads)";
        }
      }
      EXPECT_EQ(bad, 0u);
    }
  }
}

// A weight matrix the input does not fit is refused at init.
TEST(NativeFullyConnected, MismatchedInputIsRefused) {
  if (native_conv_disabled()) GTEST_SKIP() << "EMBER_XNNPACK_NATIVE_CONV=0";
  const std::vector<float> w(128 * 8, 0.5f);
  OneNodeGraph g;
  g.add_value({4, 129});
  g.add_value({8, 128}, w.data());
  g.add_value({4, 8});
  g.finish(fb::XNodeUnion::XNNFullyConnected,
           fb::CreateXNNFullyConnected(g.fbb, 0, 1, kInvalidId, 2, 0).Union());
  Node& node = g.graph.nodes[0];
  node.num_inputs = 3;
  node.inputs[2] = kInvalidId;
  ASSERT_TRUE(is_native_node(g.graph, node));
  EXPECT_EQ(check_native_node(g.graph, node), Error::InvalidProgram);
}

// ------------------------------------------------------------ transpose

template <typename E>
std::vector<E> iota_elements(size_t n) {
  std::vector<E> v(n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t b = 0; b < sizeof(E); ++b) {
      reinterpret_cast<uint8_t*>(&v[i])[b] = uint8_t(i * 131 + b * 7 + (i >> 8));
    }
  }
  return v;
}

// out[o] = in[the input index whose dim perm[d] equals o's dim d].
std::vector<uint8_t> reference_transpose(size_t es, const std::vector<size_t>& dims,
                                         const std::vector<size_t>& perm,
                                         const uint8_t* in) {
  const size_t rank = dims.size();
  std::vector<size_t> istride(rank, 1);
  for (size_t d = rank; d-- > 1;) istride[d - 1] = istride[d] * dims[d];
  const size_t total = count(dims.data(), rank);
  std::vector<uint8_t> out(total * es);
  for (size_t o = 0; o < total; ++o) {
    size_t rem = o, src = 0;
    for (size_t d = rank; d-- > 0;) {
      const size_t n = dims[perm[d]];
      src += (rem % n) * istride[perm[d]];
      rem /= n;
    }
    std::memcpy(&out[o * es], in + src * es, es);
  }
  return out;
}

struct TransposeCase {
  std::vector<size_t> dims, perm;
};

const std::vector<TransposeCase>& transpose_cases() {
  static const std::vector<TransposeCase> cases = {
      {{5}, {0}},
      {{7, 9}, {1, 0}},
      {{1, 1}, {1, 0}},
      {{33, 65}, {1, 0}},                  // tile edges both ways
      {{1, 3, 19, 23}, {0, 2, 3, 1}},      // NCHW -> NHWC
      {{1, 5, 6, 70}, {0, 3, 1, 2}},       // NHWC -> NCHW
      {{1, 1, 1, 40}, {0, 3, 1, 2}},       // only size-1 dims move: a copy
      {{2, 4, 17, 9}, {0, 1, 3, 2}},       // last two swapped
      {{2, 4, 17, 9}, {0, 2, 1, 3}},       // last dim stays: row copies
      {{3, 5, 2, 4, 6}, {2, 0, 3, 1, 4}},  // vit_small's qkv split
      {{4, 3, 5, 2, 3}, {4, 2, 0, 3, 1}},
      {{2, 3, 4, 5, 6, 7}, {5, 3, 1, 0, 4, 2}},
      {{6, 1, 8}, {1, 2, 0}},
      {{2, 437}, {1, 0}},                  // output rows of 2, 3, 4: interleaves
      {{3, 301}, {1, 0}},
      {{4, 5, 7}, {1, 2, 0}},
      {{5, 3, 7}, {2, 0, 1}},              // short output rows, not contiguous
      {{0, 4, 3}, {2, 1, 0}},              // empty
  };
  return cases;
}

template <typename E>
void check_transposes() {
  for (const TransposeCase& c : transpose_cases()) {
    const size_t total = count(c.dims.data(), c.dims.size());
    const std::vector<E> in = iota_elements<E>(total);
    const std::vector<uint8_t> want = reference_transpose(
        sizeof(E), c.dims, c.perm, reinterpret_cast<const uint8_t*>(in.data()));
    std::vector<E> got(total);
    transpose(sizeof(E), c.dims.size(), c.dims.data(), c.perm.data(), in.data(), got.data());
    std::string shape;
    for (size_t d : c.dims) shape += std::to_string(d) + " ";
    shape += "perm";
    for (size_t p : c.perm) shape += " " + std::to_string(p);
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(got.data());
    EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + want.size()), want)
        << sizeof(E) << "-byte elements, dims " << shape;
  }
}

struct Bytes3 {
  uint8_t b[3];
};
struct Bytes16 {
  uint64_t w[2];
};

TEST(TransposeKernel, MatchesReferenceForEveryElementSize) {
  ThreadsGuard guard;
  for (size_t threads : {1, 2}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    check_transposes<uint8_t>();
    check_transposes<uint16_t>();
    check_transposes<Bytes3>();
    check_transposes<uint32_t>();
    check_transposes<uint64_t>();
    check_transposes<Bytes16>();
  }
}

TEST(NativeTranspose, StepMatchesReference) {
  const std::vector<size_t> dims = {1, 3, 13, 35}, perm = {0, 2, 3, 1};
  for (bool int8 : {false, true}) {
    const size_t es = int8 ? 1 : 4;
    const size_t total = count(dims.data(), dims.size());
    std::vector<uint8_t> in(total * es), out(total * es);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 37 + 11);
    OneNodeGraph g;
    const xnn_datatype dtype = int8 ? xnn_datatype_qint8 : xnn_datatype_fp32;
    g.add_value(dims, nullptr, dtype, es);
    g.add_value({1, 13, 35, 3}, nullptr, dtype, es);
    std::vector<uint32_t> p(perm.begin(), perm.end());
    g.finish(fb::XNodeUnion::XNNStaticTranspose,
             fb::CreateXNNStaticTransposeDirect(g.fbb, 4, &p, 0, 1, 0).Union());
    g.run({in.data(), out.data()});
    EXPECT_EQ(out, reference_transpose(es, dims, perm, in.data())) << es << "-byte elements";
  }
}

// ------------------------------------------------------------ elementwise math

// A dense grid over [lo, hi] plus the special values.
std::vector<float> grid(float lo, float hi, size_t n) {
  std::vector<float> v;
  for (size_t i = 0; i <= n; ++i) v.push_back(lo + (hi - lo) * float(double(i) / double(n)));
  const float inf = std::numeric_limits<float>::infinity();
  for (float s : {0.0f, -0.0f, inf, -inf, std::nanf(""), 1e-30f, -1e-30f, 1e-45f, 1e30f,
                  -1e30f, std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()}) {
    v.push_back(s);
  }
  return v;
}

float ulp_of(double x) {
  const float f = std::fabs(float(x));
  return std::nextafter(f, std::numeric_limits<float>::infinity()) - f;
}

using MathFn = void (*)(size_t, const float*, float*, Isa);

// Runs `fn` on the grid for every ISA; `check(x, y)` returns the error
// measure, which must stay within `limit`, and NaN in gives NaN out.
template <typename Check>
void check_math(const char* name, MathFn fn, const std::vector<float>& xs, double limit,
                Check check) {
  for (Isa isa : supported_isas()) {
    std::vector<float> ys(xs.size());
    fn(xs.size(), xs.data(), ys.data(), isa);
    double worst = 0;
    float worst_x = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (std::isnan(xs[i])) {
        EXPECT_TRUE(std::isnan(ys[i])) << name << " " << isa_name(isa) << ": NaN in";
        continue;
      }
      const double e = check(xs[i], ys[i]);
      if (!(e <= worst)) {
        worst = e;
        worst_x = xs[i];
      }
    }
    printf("%s (%s): max error %.3g at x = %.9g (limit %.3g)\n", name, isa_name(isa), worst,
           worst_x, limit);
    EXPECT_LE(worst, limit) << name << " " << isa_name(isa) << " at x = " << worst_x;
  }
}

TEST(NativeMath, ErfWithin1e7OfExact) {
  check_math("erf", erf_f32, grid(-6.0f, 6.0f, 3000000), 1e-7, [](float x, float y) {
    return std::fabs(double(y) - std::erf(double(x)));
  });
  // Exactly +-1 once float erf rounds there, and odd.
  const float xs[] = {3.92f, 4.0f, 100.0f, -3.92f, -50.0f, 0.3f, -0.3f};
  for (Isa isa : supported_isas()) {
    float ys[7];
    erf_f32(7, xs, ys, isa);
    EXPECT_EQ(ys[0], 1.0f);
    EXPECT_EQ(ys[1], 1.0f);
    EXPECT_EQ(ys[2], 1.0f);
    EXPECT_EQ(ys[3], -1.0f);
    EXPECT_EQ(ys[4], -1.0f);
    EXPECT_EQ(ys[5], -ys[6]);
  }
}

TEST(NativeMath, GeluMatchesExactFormula) {
  // Absolute error scaled by max(1, |x|) (GELU grows like x), in ulps of 1.
  check_math("gelu", gelu_f32, grid(-12.0f, 12.0f, 2400000), 3.0, [](float x, float y) {
    if (std::isinf(x)) return x > 0 ? (y == x ? 0.0 : 1e9) : (std::isnan(y) ? 0.0 : 1e9);
    const double want = 0.5 * double(x) * std::erfc(-double(x) / std::sqrt(2.0));
    return std::fabs(double(y) - want) / (std::max(1.0, std::fabs(double(x))) * 0x1p-24);
  });
}

TEST(NativeMath, ExpWithin2Ulp) {
  check_math("exp", exp_f32, grid(-104.0f, 89.0f, 3000000), 2.0, [](float x, float y) {
    const double want = std::exp(double(x));
    if (std::isinf(y)) return want > 0x1.fffffep127 ? 0.0 : 1e9;
    return std::fabs(double(y) - want) / std::max<double>(ulp_of(want), 0x1p-149);
  });
}

TEST(NativeMath, TanhWithin2Ulp) {
  check_math("tanh", tanh_f32, grid(-10.0f, 10.0f, 3000000), 2.0, [](float x, float y) {
    const double want = std::tanh(double(x));
    if (y == 0 && x == 0 && std::signbit(y) != std::signbit(x)) return 1e9;
    return std::fabs(double(y) - want) / std::max<double>(ulp_of(want), 0x1p-149);
  });
}

// The native steps (whole tensor, chunked over threads) give the kernels'
// bits for every element, odd lengths included.
TEST(NativeMath, StepsMatchKernels) {
  ThreadsGuard guard;
  const fb::XNodeUnion types[] = {fb::XNodeUnion::XNNGelu, fb::XNodeUnion::XNNTanh,
                                  fb::XNodeUnion::XNNExp};
  const MathFn fns[] = {gelu_f32, tanh_f32, exp_f32};
  std::vector<float> in = random_floats(2 * 16384 + 13, 5);
  for (float& x : in) x *= 8.0f;
  for (size_t threads : {1, 2}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    for (size_t t = 0; t < 3; ++t) {
      std::vector<float> want(in.size()), got(in.size());
      fns[t](in.size(), in.data(), want.data(), best_isa());
      OneNodeGraph g;
      g.add_value({in.size()});
      g.add_value({in.size()});
      g.finish(types[t], fb::Create_XNNNode1x1(g.fbb, 0, 1, 0).Union());
      g.run({in.data(), got.data()});
      EXPECT_EQ(std::memcmp(got.data(), want.data(), in.size() * sizeof(float)), 0)
          << fb::EnumNameXNodeUnion(types[t]) << ", " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace ember::xnnpack
