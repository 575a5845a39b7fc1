#include "backends/xnnpack/xnn_step_global_avg_pool_qs8.h"

#include <cmath>
#include <cstdint>

#include "backends/xnnpack/xnn_node_check.h"
#include "kernels/math/requantize.h"
#include "runtime/platform/threadpool.h"

namespace ember::xnnpack {
namespace {

constexpr size_t kBlock = 64;  // channels per task, summed in a stack array

struct PoolArgs {
  size_t pixels, channels, blocks;
  const int8_t* x;
  int8_t* y;
  int32_t bias;  // -pixels * zx
  float scale, zo;
  int32_t qmin, qmax;
};

void pool_block(const PoolArgs& c, size_t task) {
  const size_t n = task / c.blocks, c0 = (task % c.blocks) * kBlock;
  const size_t width = c.channels - c0 < kBlock ? c.channels - c0 : kBlock;
  int32_t acc[kBlock];
  for (size_t j = 0; j < width; ++j) acc[j] = c.bias;
  const int8_t* x = c.x + n * c.pixels * c.channels + c0;
  for (size_t p = 0; p < c.pixels; ++p, x += c.channels) {
    for (size_t j = 0; j < width; ++j) acc[j] += x[j];
  }
  math::requantize_i32_i8(width, acc, c.scale, c.zo, c.qmin, c.qmax, c.y + n * c.channels + c0);
}

}  // namespace

Error check_global_avg_pool_qs8(const Graph& g, const Node& node) {
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  EMBER_NODE_CHECK(in.dtype == xnn_datatype_qint8 && out.dtype == xnn_datatype_qint8,
                   "qint8 input needs a qint8 output");
  EMBER_NODE_CHECK(in.num_dims == 4 && out.num_dims == 4 && out.dims[0] == in.dims[0] &&
                       out.dims[1] == 1 && out.dims[2] == 1 && out.dims[3] == in.dims[3],
                   "input must be NHWC and the output [N, 1, 1, C]");
  const size_t count = in.dims[1] * in.dims[2];
  EMBER_NODE_CHECK(count > 0 && count <= (size_t(1) << 16),
                   "pooling %zu pixels (1 to 65536 supported)", count);
  return Error::Ok;
}

void run_global_avg_pool_qs8(const Graph& g, const Node& node, void* const* ptrs) {
  const Value& in = g.values[node.inputs[0]];
  const Value& out = g.values[node.output];
  PoolArgs c;
  c.pixels = in.dims[1] * in.dims[2];
  c.channels = in.dims[3];
  c.blocks = (c.channels + kBlock - 1) / kBlock;
  c.x = static_cast<const int8_t*>(ptrs[node.inputs[0]]);
  c.y = static_cast<int8_t*>(ptrs[node.output]);
  c.bias = -int32_t(c.pixels) * in.zero_point;
  c.scale = in.scale / out.scale;
  c.scale *= 1.0f / float(c.pixels);
  c.zo = float(out.zero_point);
  c.qmin = math::quantize_limit_i8(node.output_min, out.scale, out.zero_point, -128);
  c.qmax = math::quantize_limit_i8(node.output_max, out.scale, out.zero_point, 127);
  parallel_for(in.dims[0] * c.blocks, [&c](size_t task) { pool_block(c, task); });
}

}  // namespace ember::xnnpack
