#include "extension/npy/npy.h"

#include <cstring>
#include <fstream>

#include "extension/file_util/read_file.h"
#include "runtime/core/error_message.h"

namespace ember {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

struct DescrEntry {
  const char* descr;
  ScalarType type;
};

// Accepted spellings; '|' and '<' are both fine for one-byte types.
constexpr DescrEntry kDescrs[] = {
    {"<f4", ScalarType::Float},  {"<f8", ScalarType::Double},
    {"<f2", ScalarType::Half},   {"<i8", ScalarType::Long},
    {"<i4", ScalarType::Int},    {"<i2", ScalarType::Short},
    {"|i1", ScalarType::Char},   {"<i1", ScalarType::Char},
    {"|u1", ScalarType::Byte},   {"<u1", ScalarType::Byte},
    {"|b1", ScalarType::Bool},   {"<b1", ScalarType::Bool},
    {"<u2", ScalarType::UInt16}, {"<u4", ScalarType::UInt32},
    {"<u8", ScalarType::UInt64},
    // bfloat16 has no numpy dtype; ml_dtypes writes it as "<V2" with a
    // custom descr, which we accept under this name.
    {"bfloat16", ScalarType::BFloat16},
};

// Finds `'key':` in the header dict and returns the position after it.
size_t find_key(const std::string& header, const char* key) {
  const std::string quoted1 = std::string("'") + key + "'";
  const std::string quoted2 = std::string("\"") + key + "\"";
  size_t pos = header.find(quoted1);
  size_t len = quoted1.size();
  if (pos == std::string::npos) {
    pos = header.find(quoted2);
    len = quoted2.size();
  }
  if (pos == std::string::npos) {
    return std::string::npos;
  }
  pos = header.find(':', pos + len);
  return pos == std::string::npos ? pos : pos + 1;
}

size_t skip_space(const std::string& s, size_t pos) {
  while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t')) ++pos;
  return pos;
}

}  // namespace

int64_t NpyArray::numel() const {
  // parse_npy() guarantees the product of the non-zero sizes fits; a zero
  // size makes the whole product zero.
  int64_t n = 1;
  for (SizesType s : shape) {
    if (s == 0) return 0;
    n *= s;
  }
  return n;
}

std::string npy_descr(ScalarType dtype) {
  switch (dtype) {
    case ScalarType::Float: return "<f4";
    case ScalarType::Double: return "<f8";
    case ScalarType::Half: return "<f2";
    case ScalarType::Long: return "<i8";
    case ScalarType::Int: return "<i4";
    case ScalarType::Short: return "<i2";
    case ScalarType::Char: return "|i1";
    case ScalarType::Byte: return "|u1";
    case ScalarType::Bool: return "|b1";
    case ScalarType::UInt16: return "<u2";
    case ScalarType::UInt32: return "<u4";
    case ScalarType::UInt64: return "<u8";
    case ScalarType::BFloat16: return "bfloat16";
    default: return "";
  }
}

namespace {

// The header's place: [*start, *start + *len) after the magic and version.
Error locate_header(const uint8_t* bytes, size_t size, size_t* start, size_t* len) {
  EMBER_CHECK_OR_RETURN(size >= 10 && std::memcmp(bytes, kMagic, 6) == 0,
                        Error::InvalidArgument, "not a .npy file (bad magic)");
  const uint8_t major = bytes[6];
  if (major == 1) {
    *len = size_t(bytes[8]) | size_t(bytes[9]) << 8;
    *start = 10;
  } else if (major == 2 || major == 3) {
    EMBER_CHECK_OR_RETURN(size >= 12, Error::InvalidArgument, ".npy header truncated");
    *len = size_t(bytes[8]) | size_t(bytes[9]) << 8 | size_t(bytes[10]) << 16 |
           size_t(bytes[11]) << 24;
    *start = 12;
  } else {
    set_error_message(".npy format version %u is not supported", unsigned(major));
    return Error::InvalidArgument;
  }
  EMBER_CHECK_OR_RETURN(*len <= size - *start, Error::InvalidArgument,
                        ".npy header (%zu bytes) runs past the end of the file", *len);
  return Error::Ok;
}

// 'descr' (a supported little-endian dtype) and 'fortran_order' (False).
Error parse_dtype(const std::string& header, ScalarType* dtype) {
  size_t pos = find_key(header, "descr");
  EMBER_CHECK_OR_RETURN(pos != std::string::npos, Error::InvalidArgument,
                        ".npy header has no 'descr'");
  pos = skip_space(header, pos);
  EMBER_CHECK_OR_RETURN(pos < header.size() && (header[pos] == '\'' || header[pos] == '"'),
                        Error::InvalidArgument, ".npy 'descr' is not a string");
  const char quote = header[pos];
  const size_t end = header.find(quote, pos + 1);
  EMBER_CHECK_OR_RETURN(end != std::string::npos, Error::InvalidArgument,
                        ".npy 'descr' is not terminated");
  const std::string descr = header.substr(pos + 1, end - pos - 1);
  bool found = false;
  for (const DescrEntry& e : kDescrs) {
    if (descr == e.descr) {
      *dtype = e.type;
      found = true;
    }
  }
  EMBER_CHECK_OR_RETURN(found, Error::InvalidArgument,
                        ".npy dtype '%s' is not supported (big-endian or "
                        "unknown type)",
                        descr.c_str());
  pos = find_key(header, "fortran_order");
  EMBER_CHECK_OR_RETURN(pos != std::string::npos, Error::InvalidArgument,
                        ".npy header has no 'fortran_order'");
  pos = skip_space(header, pos);
  EMBER_CHECK_OR_RETURN(header.compare(pos, 5, "False") == 0, Error::InvalidArgument,
                        ".npy arrays in Fortran order are not supported");
  return Error::Ok;
}

// 'shape': a tuple of at most kMaxTensorDim integers below 2^31.
Error parse_shape(const std::string& header, std::vector<SizesType>* shape) {
  size_t pos = find_key(header, "shape");
  EMBER_CHECK_OR_RETURN(pos != std::string::npos, Error::InvalidArgument,
                        ".npy header has no 'shape'");
  pos = skip_space(header, pos);
  EMBER_CHECK_OR_RETURN(pos < header.size() && header[pos] == '(',
                        Error::InvalidArgument, ".npy 'shape' is not a tuple");
  const size_t close = header.find(')', pos);
  EMBER_CHECK_OR_RETURN(close != std::string::npos, Error::InvalidArgument,
                        ".npy 'shape' is not terminated");
  size_t p = pos + 1;
  while (p < close) {
    p = skip_space(header, p);
    if (p >= close) break;
    uint64_t value = 0;
    size_t digits = 0;
    while (p < close && header[p] >= '0' && header[p] <= '9') {
      value = value * 10 + uint64_t(header[p] - '0');
      EMBER_CHECK_OR_RETURN(value <= 0x7fffffff, Error::InvalidArgument,
                            ".npy shape entry too large");
      ++p;
      ++digits;
    }
    EMBER_CHECK_OR_RETURN(digits > 0, Error::InvalidArgument,
                          ".npy 'shape' has a non-integer entry");
    EMBER_CHECK_OR_RETURN(shape->size() < kMaxTensorDim, Error::InvalidArgument,
                          ".npy array has more than %zu dims", kMaxTensorDim);
    shape->push_back(SizesType(value));
    p = skip_space(header, p);
    if (p < close && header[p] == ',') ++p;
  }
  return Error::Ok;
}

// The data after the header: exactly the bytes the shape needs; a Bool
// array's bytes each 0 or 1.
Error check_data(const NpyArray& array, const uint8_t* bytes, size_t size, size_t data_start) {
  // Even with a zero size (no data), the other sizes multiplied must stay
  // representable: tensors built from the array compute that product.
  size_t nbytes = 0;
  EMBER_CHECK_OR_RETURN(
      checked_nbytes(element_size(array.dtype), {array.shape.data(), array.shape.size()},
                     &nbytes),
      Error::InvalidArgument, ".npy array size overflows");
  EMBER_CHECK_OR_RETURN(size - data_start == nbytes, Error::InvalidArgument,
                        ".npy data is %zu bytes, the shape needs %llu",
                        size - data_start, (unsigned long long)nbytes);
  if (array.dtype == ScalarType::Bool) {
    for (size_t k = data_start; k < size; ++k) {
      EMBER_CHECK_OR_RETURN(bytes[k] <= 1, Error::InvalidArgument,
                            ".npy bool element %zu is %u, not 0 or 1", k - data_start,
                            unsigned(bytes[k]));
    }
  }
  return Error::Ok;
}

}  // namespace

Result<NpyArray> parse_npy(const uint8_t* bytes, size_t size) {
  size_t header_start = 0, header_len = 0;
  EMBER_RETURN_IF_ERROR(locate_header(bytes, size, &header_start, &header_len));
  const std::string header(reinterpret_cast<const char*>(bytes) + header_start, header_len);
  NpyArray array;
  EMBER_RETURN_IF_ERROR(parse_dtype(header, &array.dtype));
  EMBER_RETURN_IF_ERROR(parse_shape(header, &array.shape));
  const size_t data_start = header_start + header_len;
  EMBER_RETURN_IF_ERROR(check_data(array, bytes, size, data_start));
  array.data.assign(bytes + data_start, bytes + size);
  return array;
}

Result<NpyArray> read_npy(const std::string& path) {
  Result<std::vector<uint8_t>> bytes = read_file(path);
  if (!bytes.ok()) {
    return bytes.error();
  }
  Result<NpyArray> array = parse_npy(bytes->data(), bytes->size());
  if (!array.ok()) {
    append_error_message(" (%s)", path.c_str());
  }
  return array;
}

std::vector<uint8_t> to_npy(ScalarType dtype, const std::vector<SizesType>& shape,
                            const void* data) {
  std::string header = "{'descr': '" + npy_descr(dtype) +
                       "', 'fortran_order': False, 'shape': (";
  size_t numel = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    header += std::to_string(shape[i]);
    header += shape.size() == 1 ? "," : (i + 1 < shape.size() ? ", " : "");
    numel *= size_t(shape[i]);
  }
  header += "), }";
  // Pad so the data starts on a 64-byte boundary; end with a newline.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + 6);
  out.push_back(1);
  out.push_back(0);
  out.push_back(uint8_t(header.size() & 0xff));
  out.push_back(uint8_t(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  out.insert(out.end(), bytes, bytes + numel * element_size(dtype));
  return out;
}

Error write_npy(const std::string& path, const Tensor& tensor) {
  EMBER_CHECK_OR_RETURN(!npy_descr(tensor.scalar_type()).empty(), Error::NotSupported,
                        "cannot write %s tensors as .npy",
                        scalar_type_name(tensor.scalar_type()));
  EMBER_CHECK_OR_RETURN(tensor.is_contiguous(), Error::NotSupported,
                        "cannot write a non-contiguous tensor as .npy");
  std::vector<SizesType> shape(tensor.sizes().begin(), tensor.sizes().end());
  std::vector<uint8_t> bytes = to_npy(tensor.scalar_type(), shape, tensor.const_data_ptr());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  EMBER_CHECK_OR_RETURN(out.good(), Error::AccessFailed, "cannot write '%s'",
                        path.c_str());
  return Error::Ok;
}

}  // namespace ember
