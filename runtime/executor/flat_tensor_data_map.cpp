#include "runtime/executor/flat_tensor_data_map.h"

#include <cinttypes>
#include <cstring>

#include "runtime/core/little_endian.h"
#include "runtime/core/error_message.h"
#include "runtime/core/tensor.h"
#include "schema/flat_tensor_generated.h"

namespace ember {
namespace {

constexpr char kDataIdentifier[4] = {'F', 'T', '0', '1'};
constexpr char kHeaderMagic[4] = {'F', 'H', '0', '1'};
constexpr uint32_t kFlatTensorVersion = 0;
constexpr size_t kHeadSize = FlatTensorHeader::kOffset + FlatTensorHeader::kMinLength;

template <typename T>
uint32_t count(const flatbuffers::Vector<T>* v) {
  return v != nullptr ? v->size() : 0;
}

// The file identifier: FT01, or a message saying what the file is instead.
Error check_identifier(const uint8_t* head) {
  const uint8_t* id = head + 4;
  if (std::memcmp(id, kDataIdentifier, 4) == 0) {
    return Error::Ok;
  }
  char text[17];
  printable_identifier(id, text);
  if (id[0] == 'E' && id[1] == 'T') {
    set_error_message("not a data file: identifier '%s' is a program's (.pte); "
                      "a data file (.ptd) has 'FT01'",
                      text);
  } else if (id[0] == 'F' && id[1] == 'T') {
    set_error_message("a data file of another format version: identifier '%s', "
                      "this runtime reads 'FT01'",
                      text);
  } else {
    set_error_message("not a data file (.ptd): file identifier '%s' (expected 'FT01')",
                      text);
  }
  return Error::InvalidExternalData;
}

// Phase 1: the file head (identifier, header) against the file size.
Result<FlatTensorHeader> read_header(DataLoader* loader, size_t file_size) {
  EMBER_CHECK_OR_RETURN(file_size >= 8, Error::InvalidExternalData,
                        "truncated data file: %zu bytes, a .ptd needs at least %zu",
                        file_size, kHeadSize);
  const size_t head_size = file_size < kHeadSize ? file_size : kHeadSize;
  Result<FreeableBuffer> head = loader->load(0, head_size, SegmentKind::External);
  if (!head.ok()) {
    return head.error();
  }
  const uint8_t* bytes = static_cast<const uint8_t*>(head->data());
  EMBER_RETURN_IF_ERROR(check_identifier(bytes));
  EMBER_CHECK_OR_RETURN(file_size >= kHeadSize, Error::InvalidExternalData,
                        "truncated data file: %zu bytes, a .ptd needs at least %zu",
                        file_size, kHeadSize);
  const uint8_t* h = bytes + FlatTensorHeader::kOffset;
  if (std::memcmp(h, kHeaderMagic, 4) != 0) {
    char text[17];
    printable_identifier(h, text);
    set_error_message("data file header magic is '%s', expected 'FH01'", text);
    return Error::InvalidExternalData;
  }
  FlatTensorHeader header;
  header.length = read_le32(h + 4);
  header.flatbuffer_offset = read_le64(h + 8);
  header.flatbuffer_size = read_le64(h + 16);
  header.segment_base_offset = read_le64(h + 24);
  header.segment_data_size = read_le64(h + 32);

  EMBER_CHECK_OR_RETURN(header.length >= FlatTensorHeader::kMinLength,
                        Error::InvalidExternalData,
                        "data file header length %" PRIu32 " is less than %zu",
                        header.length, FlatTensorHeader::kMinLength);
  EMBER_CHECK_OR_RETURN(
      header.flatbuffer_offset >= header.length && header.flatbuffer_offset % 8 == 0,
      Error::InvalidExternalData,
      "data file header span (flatbuffer offset) %" PRIu64
      " must be a multiple of 8 and at least the header length %" PRIu32,
      header.flatbuffer_offset, header.length);
  uint64_t flatbuffer_end = 0;
  EMBER_CHECK_OR_RETURN(
      header.flatbuffer_size >= 8 &&
          !__builtin_add_overflow(header.flatbuffer_offset, header.flatbuffer_size,
                                  &flatbuffer_end) &&
          flatbuffer_end <= file_size,
      Error::InvalidExternalData,
      "truncated or invalid data file: flatbuffer of %" PRIu64 " + %" PRIu64
      " header bytes does not fit the file (%zu bytes)",
      header.flatbuffer_size, header.flatbuffer_offset, file_size);
  uint64_t segments_end = 0;
  EMBER_CHECK_OR_RETURN(
      header.segment_base_offset >= flatbuffer_end &&
          !__builtin_add_overflow(header.segment_base_offset, header.segment_data_size,
                                  &segments_end) &&
          segments_end <= file_size,
      Error::InvalidExternalData,
      "truncated or invalid data file: segment data [%" PRIu64 ", +%" PRIu64
      ") is not within [end of flatbuffer %" PRIu64 ", file size %zu]",
      header.segment_base_offset, header.segment_data_size, flatbuffer_end, file_size);
  return header;
}

// A tensor layout: known dtype, sizes >= 0, a dim_order permutation, bytes
// within the segment.
Error check_layout(const ember_ft::TensorLayout* layout, uint32_t entry, const char* key,
                   uint64_t segment_size) {
  const int raw = int(layout->scalar_type());
  EMBER_CHECK_OR_RETURN(is_valid_scalar_type(raw), Error::InvalidExternalData,
                        "data file named_data[%u] ('%s'): unknown scalar type %d", unsigned(entry),
                        key, raw);
  const uint32_t dim = count(layout->sizes());
  EMBER_CHECK_OR_RETURN(dim <= kMaxTensorDim, Error::InvalidExternalData,
                        "data file named_data[%u] ('%s'): %u dims, at most %zu", unsigned(entry),
                        key, unsigned(dim), kMaxTensorDim);
  for (uint32_t d = 0; d < dim; ++d) {
    EMBER_CHECK_OR_RETURN(layout->sizes()->Get(d) >= 0, Error::InvalidExternalData,
                          "data file named_data[%u] ('%s'): size %d of dim %u is negative",
                          unsigned(entry), key, int(layout->sizes()->Get(d)), unsigned(d));
  }
  if (layout->dim_order() != nullptr) {
    EMBER_CHECK_OR_RETURN(
        layout->dim_order()->size() == dim &&
            is_valid_dim_order({layout->dim_order()->data(), dim}),
        Error::InvalidExternalData,
        "data file named_data[%u] ('%s'): dim_order is not a permutation of its %u dims",
        unsigned(entry), key, unsigned(dim));
  }
  size_t nbytes = 0;
  const Span<const SizesType> sizes(dim ? layout->sizes()->data() : nullptr, dim);
  EMBER_CHECK_OR_RETURN(
      checked_nbytes(element_size(static_cast<ScalarType>(raw)), sizes, &nbytes) &&
          nbytes <= segment_size,
      Error::InvalidExternalData,
      "data file named_data[%u] ('%s'): a %s tensor of %u dims needs more bytes "
      "than its segment holds (%" PRIu64 ")",
      unsigned(entry), key, scalar_type_name(static_cast<ScalarType>(raw)), unsigned(dim),
      segment_size);
  return Error::Ok;
}

// Phase 3: the tables the verifier cannot check (indices, ranges, keys).
Error check_tables(const ember_ft::FlatTensor* ft, const FlatTensorHeader& header) {
  EMBER_CHECK_OR_RETURN(ft->version() == kFlatTensorVersion, Error::InvalidExternalData,
                        "data file version %" PRIu32 ", this runtime reads version %" PRIu32,
                        ft->version(), kFlatTensorVersion);
  const uint32_t num_segments = count(ft->segments());
  for (uint32_t i = 0; i < num_segments; ++i) {
    const ember_ft::DataSegment* seg = ft->segments()->Get(i);
    EMBER_CHECK_OR_RETURN(seg != nullptr, Error::InvalidExternalData,
                          "data file segment %u is null", unsigned(i));
    uint64_t end = 0;
    EMBER_CHECK_OR_RETURN(
        !__builtin_add_overflow(seg->offset(), seg->size(), &end) &&
            end <= header.segment_data_size,
        Error::InvalidExternalData,
        "data file segment %u [%" PRIu64 ", +%" PRIu64
        ") is outside the segment data (%" PRIu64 " bytes)",
        unsigned(i), seg->offset(), seg->size(), header.segment_data_size);
  }
  const uint32_t num_entries = count(ft->named_data());
  for (uint32_t i = 0; i < num_entries; ++i) {
    const ember_ft::NamedData* entry = ft->named_data()->Get(i);
    EMBER_CHECK_OR_RETURN(entry != nullptr && entry->key() != nullptr &&
                              entry->key()->size() > 0,
                          Error::InvalidExternalData,
                          "data file named_data[%u] has no key", unsigned(i));
    char key[128];
    printable_bytes(entry->key()->data(), entry->key()->size(), key, sizeof(key));
    EMBER_CHECK_OR_RETURN(std::strlen(entry->key()->c_str()) == entry->key()->size(),
                          Error::InvalidExternalData,
                          "data file named_data[%u]: key '%s' contains a NUL byte", unsigned(i),
                          key);
    EMBER_CHECK_OR_RETURN(entry->segment_index() < num_segments, Error::InvalidExternalData,
                          "data file named_data[%u] ('%s'): segment index %" PRIu32
                          " out of range (%u segments)",
                          unsigned(i), key, entry->segment_index(), unsigned(num_segments));
    for (uint32_t j = 0; j < i; ++j) {
      const ember_ft::NamedData* other = ft->named_data()->Get(j);
      EMBER_CHECK_OR_RETURN(std::strcmp(other->key()->c_str(), entry->key()->c_str()) != 0,
                            Error::InvalidExternalData,
                            "data file named_data[%u]: key '%s' repeats named_data[%u]",
                            unsigned(i), key, unsigned(j));
    }
    if (entry->tensor_layout() != nullptr) {
      EMBER_RETURN_IF_ERROR(check_layout(entry->tensor_layout(), i, key,
                                         ft->segments()->Get(entry->segment_index())->size()));
    }
  }
  return Error::Ok;
}

}  // namespace

Result<FlatTensorDataMap> FlatTensorDataMap::load(DataLoader* loader) {
  EMBER_CHECK_OR_RETURN(loader != nullptr, Error::InvalidArgument,
                        "FlatTensorDataMap::load: loader is null");
  Result<size_t> file_size = loader->size();
  if (!file_size.ok()) {
    return file_size.error();
  }
  Result<FlatTensorHeader> header = read_header(loader, *file_size);
  if (!header.ok()) {
    return header.error();
  }
  // Phase 2: the flatbuffer (header span included), structurally verified.
  const size_t flatbuffer_bytes = size_t(header->flatbuffer_offset + header->flatbuffer_size);
  Result<FreeableBuffer> data = loader->load(0, flatbuffer_bytes, SegmentKind::External);
  if (!data.ok()) {
    return data.error();
  }
  flatbuffers::Verifier::Options options;
  options.max_depth = 16;
  options.check_alignment = true;
  flatbuffers::Verifier verifier(static_cast<const uint8_t*>(data->data()), flatbuffer_bytes,
                                 options);
  EMBER_CHECK_OR_RETURN(ember_ft::VerifyFlatTensorBuffer(verifier), Error::InvalidExternalData,
                        "malformed data file: the flatbuffer (%zu bytes) failed "
                        "structural verification",
                        flatbuffer_bytes);
  const ember_ft::FlatTensor* ft = ember_ft::GetFlatTensor(data->data());
  EMBER_RETURN_IF_ERROR(check_tables(ft, *header));

  FlatTensorDataMap map;
  map.loader_ = loader;
  map.header_ = *header;
  map.flatbuffer_data_ = static_cast<FreeableBuffer&&>(*data);
  map.flat_tensor_ = ember_ft::GetFlatTensor(map.flatbuffer_data_.data());
  return Result<FlatTensorDataMap>(static_cast<FlatTensorDataMap&&>(map));
}

FlatTensorDataMap::FlatTensorDataMap(FlatTensorDataMap&& other) noexcept
    : loader_(other.loader_),
      flatbuffer_data_(static_cast<FreeableBuffer&&>(other.flatbuffer_data_)),
      flat_tensor_(other.flat_tensor_),
      header_(other.header_) {
  other.flat_tensor_ = nullptr;
}

long FlatTensorDataMap::find(const char* key) const {
  if (flat_tensor_ == nullptr || key == nullptr) {
    return -1;
  }
  const uint32_t n = count(flat_tensor_->named_data());
  for (uint32_t i = 0; i < n; ++i) {
    if (std::strcmp(flat_tensor_->named_data()->Get(i)->key()->c_str(), key) == 0) {
      return long(i);
    }
  }
  return -1;
}

Result<FreeableBuffer> FlatTensorDataMap::get_data(const char* key) const {
  const long index = find(key);
  if (index < 0) {
    char text[128];
    printable_name(key != nullptr ? key : "", text, sizeof(text));
    set_error_message("no key '%s' in the data file", text);
    return Error::NotFound;
  }
  // Ranges were checked at load.
  const ember_ft::NamedData* entry = flat_tensor_->named_data()->Get(uint32_t(index));
  const ember_ft::DataSegment* seg = flat_tensor_->segments()->Get(entry->segment_index());
  if (seg->size() == 0) {
    return FreeableBuffer(nullptr, 0, nullptr);
  }
  return loader_->load(size_t(header_.segment_base_offset + seg->offset()), size_t(seg->size()),
                       SegmentKind::External);
}

Result<TensorLayoutView> FlatTensorDataMap::get_tensor_layout(const char* key) const {
  const long index = find(key);
  const ember_ft::TensorLayout* layout =
      index < 0 ? nullptr : flat_tensor_->named_data()->Get(uint32_t(index))->tensor_layout();
  if (layout == nullptr) {
    return Error::NotFound;
  }
  TensorLayoutView view;
  view.dtype = static_cast<ScalarType>(layout->scalar_type());
  view.sizes = {layout->sizes() ? layout->sizes()->data() : nullptr, count(layout->sizes())};
  view.dim_order = {layout->dim_order() ? layout->dim_order()->data() : nullptr,
                    count(layout->dim_order())};
  return view;
}

size_t FlatTensorDataMap::num_keys() const {
  return flat_tensor_ != nullptr ? count(flat_tensor_->named_data()) : 0;
}

Result<const char*> FlatTensorDataMap::get_key(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_keys(), Error::InvalidArgument,
                        "data file key index %zu out of range (%zu keys)", index, num_keys());
  return flat_tensor_->named_data()->Get(uint32_t(index))->key()->c_str();
}

}  // namespace ember
