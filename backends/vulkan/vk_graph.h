// The VkGraph of one Vulkan delegate, read out of the flatbuffer and checked
// once: every value id, list item, constant id and byte range is in bounds,
// every tensor's shape and size is representable, and the union member of
// each value is known. Later phases (memory plan, operator builders) use
// these plain structs and never touch the flatbuffer again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/vulkan/vk_payload.h"
#include "runtime/core/error.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/named_data_map.h"

namespace ember::vulkan {

constexpr size_t kMaxRank = 8;

enum class ValueKind : uint8_t {
  Null, Int, Double, Bool, Tensor, IntList, DoubleList, BoolList, ValueList, String, SymInt,
};

// Element types as the schema numbers them.
enum class DType : uint8_t {
  Bool = 0, UInt8 = 1, Int8 = 2, Int32 = 3, Float16 = 4, Float32 = 5, Float64 = 6, Int64 = 7,
};

const char* dtype_name(DType t);
const char* value_kind_name(ValueKind k);
size_t dtype_bytes(DType t);

struct TensorDesc {
  DType dtype = DType::Float32;
  uint32_t rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t numel = 1;
  int32_t constant_id = -1;  // index into Graph::constants, or -1
  int32_t mem_obj_id = -1;   // shared memory object, or -1
};

struct Value {
  ValueKind kind = ValueKind::Null;
  int64_t int_value = 0;  // Int, Bool (0/1)
  double double_value = 0;
  TensorDesc tensor;
  std::vector<int64_t> ints;     // IntList, BoolList (0/1)
  std::vector<double> doubles;   // DoubleList
  std::vector<int32_t> items;    // ValueList: value ids, checked in range
  std::string text;              // String
  int32_t symint_value = 0;      // SymInt: its value at export
};

struct OpCall {
  uint32_t node_id = 0;
  std::string name;
  std::vector<int32_t> args;  // value ids, checked in range
};

struct Constant {
  const uint8_t* bytes = nullptr;  // into the blob (no named key), or null
  uint64_t length = 0;
  std::string named_key;           // non-empty: the program's named data
};

struct Graph {
  std::string version;
  std::vector<Value> values;
  std::vector<OpCall> chain;
  std::vector<uint32_t> input_ids;   // each a Tensor value (or a scalar)
  std::vector<uint32_t> output_ids;  // each a Tensor value
  std::vector<Constant> constants;
  // The flatbuffer copied when the blob leaves it misaligned.
  std::vector<uint64_t> aligned_copy;
};

// Reads and checks the graph of `payload`. InvalidProgram with a message
// naming the table and index on any inconsistency.
Error parse_graph(const Payload& payload, Graph* graph);

// The bytes of constant `id`, at least `need` of them: from the blob or the
// named data map. The buffer must be freed by the caller (FreeableBuffer).
Error constant_bytes(const Graph& graph, int32_t id, const NamedDataMap* named, size_t need,
                     FreeableBuffer* out);

}  // namespace ember::vulkan
