// The routing table (backends/xnnpack/xnn_routing.h) and the native steps
// it keeps: which nodes run natively, that each row's check refuses
// shapes its step cannot run, the wide fp32 depthwise convolution's
// routing and border taps (its numbers against PyTorch: the
// conv2d_depthwise_7x7* fixtures), and the int8 global average pooling against
// hand-computed outputs whose ties only round right in upstream's order
// (fp32 mean, zero point added, then ties to even).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends/xnnpack/xnn_routing.h"
#include "backends/xnnpack/xnn_window_check.h"
#include "runtime/core/error_message.h"
#include "runtime/platform/threadpool.h"
#include "schema/xnnpack_graph_generated.h"
#include "xnnpack.h"

namespace ember::xnnpack {
namespace {
using T = ::ember_xnn_fb::XNodeUnion;

Value make_value(xnn_datatype dtype, std::vector<size_t> dims, float scale = 1.0f,
                 int32_t zero_point = 0) {
  Value v;
  v.dtype = dtype;
  v.element_size = dtype == xnn_datatype_fp32 ? 4 : 1;
  v.num_dims = dims.size();
  v.numel = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    v.dims[d] = dims[d];
    v.numel *= dims[d];
  }
  v.scale = scale;
  v.zero_point = zero_point;
  return v;
}

// Graph: value 0 -> node of `type` -> value 1.
Graph one_node(T type, Value in, Value out) {
  Graph g;
  g.values = {in, out};
  Node n;
  n.type = type;
  n.inputs[0] = 0;
  n.num_inputs = 1;
  n.output = 1;
  g.nodes.push_back(n);
  return g;
}

TEST(XnnRouting, OnlyInt8GlobalAveragePoolingRunsNatively) {
  Graph q = one_node(T::XNNGlobalAvgPooling2d, make_value(xnn_datatype_qint8, {1, 2, 2, 3}),
                     make_value(xnn_datatype_qint8, {1, 1, 1, 3}));
  const NativeRoute* route = route_node(q, q.nodes[0]);
  ASSERT_NE(route, nullptr);
  EXPECT_STREQ(route->name, "qs8 global average pooling");
  Graph f = one_node(T::XNNGlobalAvgPooling2d, make_value(xnn_datatype_fp32, {1, 2, 2, 3}),
                     make_value(xnn_datatype_fp32, {1, 1, 1, 3}));
  EXPECT_EQ(route_node(f, f.nodes[0]), nullptr);
  // Everything else goes to XNNPACK, whatever its datatype.
  for (T type : {T::XNNConv2d, T::XNNFullyConnected, T::XNNBatchMatrixMultiply,
                 T::XNNStaticTranspose, T::XNNTanh, T::XNNConvTranspose2d}) {
    for (xnn_datatype dt : {xnn_datatype_fp32, xnn_datatype_qint8}) {
      Graph g = one_node(type, make_value(dt, {1, 2, 2, 3}), make_value(dt, {1, 2, 2, 3}));
      EXPECT_EQ(route_node(g, g.nodes[0]), nullptr) << int(type);
    }
  }
  // Every row names its reason.
  for (const NativeRoute* r = native_routes_begin(); r != native_routes_end(); ++r) {
    EXPECT_GT(std::strlen(r->reason), 10u) << r->name;
  }
}

TEST(XnnRouting, PoolingCheckRefusesShapesItCannotRun) {
  Graph bad_out = one_node(T::XNNGlobalAvgPooling2d,
                           make_value(xnn_datatype_qint8, {1, 2, 2, 3}),
                           make_value(xnn_datatype_qint8, {1, 2, 1, 3}));
  const NativeRoute* route = route_node(bad_out, bad_out.nodes[0]);
  ASSERT_NE(route, nullptr);
  EXPECT_EQ(route->check(bad_out, bad_out.nodes[0]), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("node 0 (XNNGlobalAvgPooling2d)"),
            std::string::npos)
      << last_error_message();
  Graph fp_out = one_node(T::XNNGlobalAvgPooling2d, make_value(xnn_datatype_qint8, {1, 2, 2, 3}),
                          make_value(xnn_datatype_fp32, {1, 1, 1, 3}));
  EXPECT_EQ(route->check(fp_out, fp_out.nodes[0]), Error::InvalidProgram);
  Graph huge = one_node(T::XNNGlobalAvgPooling2d, make_value(xnn_datatype_qint8, {1, 512, 512, 1}),
                        make_value(xnn_datatype_qint8, {1, 1, 1, 1}));
  EXPECT_EQ(route->check(huge, huge.nodes[0]), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("262144 pixels"), std::string::npos);
}

// 2x2 pooling, input and output scale 1 and output zero point 1, so each
// output is sum / 4 + 1, rounded half to even, clamped to the node's
// output range [-inf, 3] quantized (nearbyint(3 / 1) + 1 = 4). The ties
// decide the order of operations: with the zero point added first,
// 0.5 + 1 = 1.5 rounds to 2, 1.5 + 1 = 2.5 to 2, 2.5 + 1 = 3.5 to 4 and
// -0.5 + 1 = 0.5 to 0; rounding before adding it would give 1, 3, 3, 1.
// Reference in double (exact for these sums). 70 channels: two blocks of
// 64, the second partial; 1 and 2 threads.
int8_t reference_pool(const int8_t* p) {
  const double v = (p[0] + p[1] + p[2] + p[3]) / 4.0 + 1.0;
  const double r = std::nearbyint(v);
  return int8_t(r > 4 ? 4 : r < -128 ? -128 : r);
}

TEST(XnnRouting, Int8GlobalAveragePoolingRoundsLikeUpstream) {
  const size_t channels = 70;
  Graph g = one_node(T::XNNGlobalAvgPooling2d,
                     make_value(xnn_datatype_qint8, {2, 2, 2, channels}, 1.0f, 0),
                     make_value(xnn_datatype_qint8, {2, 1, 1, channels}, 1.0f, 1));
  g.nodes[0].output_max = 3.0f;
  const NativeRoute* route = route_node(g, g.nodes[0]);
  ASSERT_NE(route, nullptr);
  ASSERT_EQ(route->check(g, g.nodes[0]), Error::Ok) << last_error_message();
  const int8_t pixels[][4] = {{1, 1, 0, 0}, {2, 2, 1, 1}, {3, 3, 2, 2}, {-1, -1, 0, 0},
                              {1, 1, 1, 0}, {9, 9, 9, 9}, {-128, -128, -128, -128}};
  EXPECT_EQ(reference_pool(pixels[0]), 2);
  EXPECT_EQ(reference_pool(pixels[1]), 2);
  EXPECT_EQ(reference_pool(pixels[2]), 4);
  EXPECT_EQ(reference_pool(pixels[3]), 0);
  std::vector<int8_t> x(2 * 4 * channels), y(2 * channels);
  for (size_t n = 0; n < 2; ++n) {
    for (size_t c = 0; c < channels; ++c) {
      for (size_t k = 0; k < 4; ++k) x[(n * 4 + k) * channels + c] = pixels[(c + n) % 7][k];
    }
  }
  std::vector<void*> ptrs = {x.data(), y.data()};
  for (size_t threads : {1, 2}) {
    ASSERT_EQ(set_num_threads(threads), Error::Ok);
    std::fill(y.begin(), y.end(), int8_t(99));
    route->run(g, g.nodes[0], ptrs.data());
    for (size_t n = 0; n < 2; ++n) {
      for (size_t c = 0; c < channels; ++c) {
        EXPECT_EQ(int(y[n * channels + c]), int(reference_pool(pixels[(c + n) % 7])))
            << "image " << n << " channel " << c << ", " << threads << " threads";
      }
    }
  }
  ASSERT_EQ(set_num_threads(1), Error::Ok);
}

// A depthwise convolution node as the flatbuffer holds it: input value 0,
// filter 1 (constant [1, k, k, c]), no bias, output 2.
struct DepthwiseGraph {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<float> filter;
  Graph g;
};

void make_depthwise(DepthwiseGraph* d, size_t c, size_t k, size_t stride, size_t pad,
                    size_t in_hw, size_t out_hw, uint32_t mult = 1, uint32_t flags = 0) {
  d->fbb.Finish(ember_xnn_fb::CreateXNode(
      d->fbb, T::XNNDepthwiseConv2d,
      ember_xnn_fb::Create_XNNNodeConv(d->fbb, uint32_t(pad), uint32_t(pad), uint32_t(pad),
                                       uint32_t(pad), uint32_t(k), uint32_t(k), uint32_t(stride),
                                       uint32_t(stride), 1, 1, 1, mult, uint32_t(c), 0, 0, 0, 1,
                                       kInvalidId, 2, flags)
          .Union()));
  d->filter.assign(k * k * c * mult, 0.5f);
  Value filter = make_value(xnn_datatype_fp32, {1, k, k, c * mult});
  filter.data = d->filter.data();
  d->g.values = {make_value(xnn_datatype_fp32, {1, in_hw, in_hw, c}), filter,
                 make_value(xnn_datatype_fp32, {1, out_hw, out_hw, c * mult})};
  Node n;
  n.type = T::XNNDepthwiseConv2d;
  n.fb = flatbuffers::GetRoot<ember_xnn_fb::XNode>(d->fbb.GetBufferPointer());
  n.inputs[0] = 0, n.inputs[1] = 1, n.inputs[2] = kInvalidId;
  n.num_inputs = 3;
  n.output = 2;
  d->g.nodes = {n};
}

TEST(XnnRouting, WideFp32DepthwiseRunsNatively) {
  DepthwiseGraph k7;
  make_depthwise(&k7, 20, 7, 1, 3, 9, 9);
  const NativeRoute* route = route_node(k7.g, k7.g.nodes[0]);
  ASSERT_NE(route, nullptr);
  EXPECT_STREQ(route->name, "f32 depthwise convolution wider than 5x5");
  EXPECT_EQ(route->check(k7.g, k7.g.nodes[0]), Error::Ok) << last_error_message();
  // XNNPACK keeps what it has a kernel for, and what this step does not read.
  DepthwiseGraph k5, mult2, same;
  make_depthwise(&k5, 20, 5, 1, 2, 9, 9);
  make_depthwise(&mult2, 20, 7, 1, 3, 9, 9, 2);
  make_depthwise(&same, 20, 7, 1, 3, 9, 9, 1, XNN_FLAG_TENSORFLOW_SAME_PADDING);
  EXPECT_EQ(route_node(k5.g, k5.g.nodes[0]), nullptr);
  EXPECT_EQ(route_node(mult2.g, mult2.g.nodes[0]), nullptr);
  EXPECT_EQ(route_node(same.g, same.g.nodes[0]), nullptr);
}

// The step trusts the output extent because graph building refuses a
// depthwise node whose declared output its geometry does not give.
TEST(XnnRouting, DepthwiseOutputTheGeometryDoesNotGiveIsRefusedAtLoad) {
  DepthwiseGraph d;
  make_depthwise(&d, 20, 7, 2, 3, 9, 4);  // stride 2 gives 5x5
  ASSERT_NE(route_node(d.g, d.g.nodes[0]), nullptr);
  EXPECT_EQ(check_window_geometry(d.g, d.g.nodes[0]), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("node 0 (XNNDepthwiseConv2d)"),
            std::string::npos)
      << last_error_message();
}

TEST(XnnRouting, DepthwiseCheckRefusesABiasOfAnotherLength) {
  DepthwiseGraph d;
  make_depthwise(&d, 20, 7, 1, 3, 9, 9);
  std::vector<float> bias(19, 0.0f);
  Value b = make_value(xnn_datatype_fp32, {19});
  b.data = bias.data();
  d.g.values.push_back(b);
  d.g.nodes[0].inputs[2] = 3;
  const NativeRoute* route = route_node(d.g, d.g.nodes[0]);
  ASSERT_NE(route, nullptr);
  EXPECT_EQ(route->check(d.g, d.g.nodes[0]), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("bias must be absent or a constant fp32 [20]"),
            std::string::npos)
      << last_error_message();
}

// The step's numbers: all-0.5 weights, no bias, ones in: each output is
// 0.5 x the taps inside the input (corner 16, edge rows fewer, centre 49).
TEST(XnnRouting, DepthwiseStepSkipsTapsOutsideTheInput) {
  DepthwiseGraph d;
  make_depthwise(&d, 20, 7, 1, 3, 9, 9);
  const NativeRoute* route = route_node(d.g, d.g.nodes[0]);
  ASSERT_NE(route, nullptr);
  std::vector<float> x(9 * 9 * 20, 1.0f), y(9 * 9 * 20, NAN);
  std::vector<void*> ptrs = {x.data(), nullptr, y.data()};
  route->run(d.g, d.g.nodes[0], ptrs.data());
  auto inside = [](size_t o) { return std::min<size_t>(o, 3) + 1 + std::min<size_t>(8 - o, 3); };
  for (size_t oy = 0; oy < 9; ++oy) {
    for (size_t ox = 0; ox < 9; ++ox) {
      for (size_t c = 0; c < 20; ++c) {
        ASSERT_EQ(y[(oy * 9 + ox) * 20 + c], 0.5f * float(inside(oy) * inside(ox)))
            << oy << "," << ox << " channel " << c;
      }
    }
  }
}

}  // namespace
}  // namespace ember::xnnpack
