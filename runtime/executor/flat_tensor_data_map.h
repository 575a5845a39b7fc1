// FlatTensorDataMap: a NamedDataMap over an external data file (.ptd,
// upstream's flat_tensor format "FT01"; wire layout in schema/flat_tensor.fbs).
//
// The exporter writes a program's weights to a .ptd when asked to
// (ExecutorchBackendConfig(external_constants=True): EXTERNAL tensors keyed
// by their fully qualified name; delegates exported with external constants:
// blobs keyed by the delegate's own keys). Pass one or more maps to
// Program::load() and the program resolves its EXTERNAL tensors and its
// delegates' named data through them.
//
// load() reads the header and the flatbuffer through the DataLoader and
// checks, once, everything later reads trust: the identifier and header
// magic, every header offset and size against the file size, the
// flatbuffer's structure (flatbuffers Verifier), every segment against the
// segment data, every key (present, non-empty, unique), every segment index
// and every tensor layout (known dtype, non-negative sizes, a dim_order
// permutation, bytes within the segment). Failures are
// Error::InvalidExternalData with a message naming the field and bound
// (keys escaped); a file that is not a .ptd at all says what it is.
//
// get_data() loads a segment through the same DataLoader with
// SegmentKind::External: an MmapDataLoader returns the bytes in place,
// a FileDataLoader copies them; either way the buffer owns what it needs.
//
// No heap: the map holds the loaded flatbuffer and a pointer to the loader.
// Lifetimes: the DataLoader must outlive the map and every buffer get_data()
// returned; the map must outlive every Program loaded with it. Move-only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/backend/backend.h"
#include "runtime/core/data_loader.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/result.h"

namespace ember_ft {
struct FlatTensor;
}  // namespace ember_ft

namespace ember {

// The fixed part of a .ptd file head (after the 8 flatbuffer bytes).
struct FlatTensorHeader {
  static constexpr size_t kOffset = 8;        // after root offset + identifier
  static constexpr size_t kMinLength = 40;    // magic .. segment data size
  uint32_t length = 0;                        // header length field
  uint64_t flatbuffer_offset = 0;             // bytes the header occupies
  uint64_t flatbuffer_size = 0;               // flatbuffer bytes besides them
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;
};

class FlatTensorDataMap final : public NamedDataMap {
 public:
  static Result<FlatTensorDataMap> load(DataLoader* loader);

  FlatTensorDataMap(FlatTensorDataMap&& other) noexcept;
  FlatTensorDataMap(const FlatTensorDataMap&) = delete;
  FlatTensorDataMap& operator=(const FlatTensorDataMap&) = delete;
  FlatTensorDataMap& operator=(FlatTensorDataMap&&) = delete;
  ~FlatTensorDataMap() override = default;

  // NotFound (message names the key, escaped) for an unknown key.
  Result<FreeableBuffer> get_data(const char* key) const override;
  Result<TensorLayoutView> get_tensor_layout(const char* key) const override;

  size_t num_keys() const;
  // Key `index` (NUL-terminated, in the map's data); InvalidArgument if out
  // of range.
  Result<const char*> get_key(size_t index) const;
  const FlatTensorHeader& header() const { return header_; }

 private:
  FlatTensorDataMap() = default;
  // Index of `key` in named_data, or -1.
  long find(const char* key) const;

  DataLoader* loader_ = nullptr;
  FreeableBuffer flatbuffer_data_;
  const ember_ft::FlatTensor* flat_tensor_ = nullptr;
  FlatTensorHeader header_;
};

}  // namespace ember
