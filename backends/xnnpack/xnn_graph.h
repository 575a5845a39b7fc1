// The validated form of an XNNPACK delegate graph.
//
// build_graph() reads the untrusted flatbuffer once: flatbuffers Verifier,
// then every value (datatype, rank, dims, constant reference and its byte
// range, quantization parameters) and every node (type, operand ids that
// name defined values, outputs that are not constants). Later phases
// (xnn_compiler.cpp, execute) index these tables without further checks.
//
// Constants are pointers into the processed blob or into the program's
// named data; the Graph keeps the named-data buffers alive, so the
// processed blob and the Graph must outlive anything that reads them.
#pragma once

#include <xnnpack.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/xnnpack/xnn_payload.h"
#include "runtime/backend/backend.h"
#include "runtime/core/error.h"
#include "runtime/core/freeable_buffer.h"

namespace ember_xnn_fb {
struct XNode;
struct XNNGraph;
enum class XNodeUnion : uint8_t;
}  // namespace ember_xnn_fb

namespace ember::xnnpack {

constexpr uint32_t kInvalidId = XNN_INVALID_VALUE_ID;
constexpr size_t kMaxDims = XNN_MAX_TENSOR_DIMS;

// A runtime shape of a graph input or output (bounded-dynamic plans): its
// rank may differ from the value's stored one (a 0-d tensor for a stored
// [1]), as XNNPACK takes whatever rank it is given at reshape.
struct Shape {
  size_t rank = 0;
  size_t dims[kMaxDims] = {};
  bool operator==(const Shape& o) const {
    if (rank != o.rank) return false;
    for (size_t d = 0; d < rank; ++d) {
      if (dims[d] != o.dims[d]) return false;
    }
    return true;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }
};
constexpr size_t kMaxNodeInputs = 5;

struct Value {
  xnn_datatype dtype = xnn_datatype_invalid;
  size_t num_dims = 0;
  size_t dims[kMaxDims] = {};
  size_t numel = 1;
  size_t element_size = 4;  // bytes; 4-bit types (qcint4, qbint4) say 1
  bool nibbles = false;     // two 4-bit elements per byte
  const void* data = nullptr;  // constant bytes, or null
  uint32_t external_id = kInvalidId;
  uint32_t flags = 0;  // XNN_VALUE_FLAG_EXTERNAL_INPUT / _OUTPUT
  // Quantization: qint8/quint8/qint32 per tensor; qcint8/qcint32/qcint4
  // per channel; qbint4 per block of `block_size` along the input channels
  // (bf16 scales); qdint8 computed at run time per row of the last
  // `num_nonbatch_dims` dims.
  float scale = 1.0f;
  int32_t zero_point = 0;
  const float* channel_scales = nullptr;
  size_t channel_dim = 0;
  const uint16_t* block_scales = nullptr;
  size_t block_size = 0;
  size_t num_nonbatch_dims = 0;
  // An fp32 graph input that older exports mark for dynamic quantization
  // (dq_datatype qint8): defined as the fp32 input plus a convert to qdint8.
  bool legacy_dynamic_quant = false;

  size_t nbytes() const { return nibbles ? (numel + 1) / 2 : numel * element_size; }
  bool is_constant() const { return data != nullptr; }
};

struct Node {
  size_t index = 0;  // position in xnodes, for messages
  ember_xnn_fb::XNodeUnion type{};
  const ember_xnn_fb::XNode* fb = nullptr;
  uint32_t inputs[kMaxNodeInputs];  // value indices; kInvalidId when absent
  size_t num_inputs = 0;
  uint32_t output = kInvalidId;
  float output_min = -INFINITY;
  float output_max = INFINITY;
};

struct Graph {
  std::vector<Value> values;
  std::vector<Node> nodes;
  // Value indices of the graph's external inputs and outputs, in argument
  // order (ascending external id, as upstream binds them).
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  // Named-data buffers that constants point into, and the key of each
  // (what identifies the bytes across the method's delegates).
  std::vector<FreeableBuffer> named_buffers;
  std::vector<std::string> named_keys;
  // bf16 block scales converted from inline fp32 ones.
  std::vector<std::vector<uint16_t>> converted_scales;
  // The graph flatbuffer copied to 8-byte aligned memory when the blob
  // placed it off such a boundary (nodes point into it); empty otherwise.
  std::vector<uint64_t> aligned_flatbuffer;
};

// "[2, 3, 4]" into `out` for messages (truncated to fit `size`).
void format_dims(const size_t* dims, size_t rank, char* out, size_t size);

// The runtime's dtype for a value XNNPACK exchanges with the outside
// (fp32, fp16, qint8, quint8, qint32 and int32); NotSupported for the
// others (per-channel, blockwise and dynamic quantization).
Error scalar_type_of(xnn_datatype t, ScalarType* out);

// The node type's name ("XNNConv2d"); never null.
const char* node_type_name(ember_xnn_fb::XNodeUnion type);

// Builds `graph` from the payload. `named_data` may be null when no
// constant is stored by key. InvalidProgram with a message naming the
// value or node index on any malformed content; NotSupported for a
// datatype or quantization scheme this delegate cannot run.
Error build_graph(const Payload& payload, const NamedDataMap* named_data, Graph* graph);

}  // namespace ember::xnnpack
