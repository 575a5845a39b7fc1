#include "backends/demo/demo_blob.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "runtime/core/error_message.h"

namespace ember::demo {
namespace {

// Operators by the names the blob gives them. The demo compiler also
// writes the ATen name of its sin ("sin.default") when it meets the
// non-edge operator.
struct OpName {
  const char* name;
  DemoOp op;
};
constexpr OpName kOps[] = {
    {"aten.add.Tensor", DemoOp::Add},
    {"aten.mm.default", DemoOp::Mm},
    {"aten.sin.default", DemoOp::Sin},
    {"sin.default", DemoOp::Sin},
};

// What the demo compiler accepts but this runtime does not run.
constexpr const char* kCompilerOnlyOps[] = {
    "aten.linear.default",
    "aten.scaled_dot_product_attention.default",
    "aten.upsample_nearest2d.vec",
};

constexpr const char* kFloat32 = "torch.float32";
constexpr size_t kMaxField = 96;   // longest name or dtype accepted
constexpr int kMaxDigits = 18;     // fits int64 without overflow

// A read position in the blob; offsets in messages count from its start.
class Reader {
 public:
  Reader(const char* begin, size_t size) : begin_(begin), p_(begin), end_(begin + size) {}

  size_t offset() const { return size_t(p_ - begin_); }
  bool at_end() const { return p_ == end_; }

  // Consumes `literal` if the bytes here are exactly it.
  bool take(const char* literal) {
    const size_t n = std::strlen(literal);
    if (size_t(end_ - p_) < n || std::memcmp(p_, literal, n) != 0) {
      return false;
    }
    p_ += n;
    return true;
  }

  // A decimal integer, with a leading '-' when `allow_negative`; false when
  // there is no digit or more than kMaxDigits.
  bool number(bool allow_negative, int64_t* value) {
    const char* p = p_;
    bool negative = false;
    if (allow_negative && p < end_ && *p == '-') {
      negative = true;
      ++p;
    }
    int64_t v = 0;
    int digits = 0;
    while (p < end_ && *p >= '0' && *p <= '9') {
      if (++digits > kMaxDigits) {
        return false;
      }
      v = v * 10 + (*p - '0');
      ++p;
    }
    if (digits == 0) {
      return false;
    }
    *value = negative ? -v : v;
    p_ = p;
    return true;
  }

  // The bytes up to (not including) the first `stop`; false when `stop`
  // does not occur within kMaxField bytes (the position moves to the end
  // when the blob ends first, so the message says so).
  bool field(char stop, const char** text, size_t* len) {
    const size_t left = size_t(end_ - p_);
    const size_t window = left < kMaxField + 1 ? left : kMaxField + 1;
    const void* hit = std::memchr(p_, stop, window);
    if (hit == nullptr) {
      if (left <= kMaxField) p_ = end_;
      return false;
    }
    *text = p_;
    *len = size_t(static_cast<const char*>(hit) - p_);
    p_ += *len;
    return true;
  }

  // Up to 24 escaped bytes from here, for a message.
  void excerpt(char* out, size_t out_size) const {
    const size_t left = size_t(end_ - p_);
    printable_bytes(p_, left < 24 ? left : 24, out, out_size);
  }

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
};

bool equals(const char* text, size_t len, const char* name) {
  return std::strlen(name) == len && std::memcmp(text, name, len) == 0;
}

// Records "<where>: expected <what>, found '<bytes>'" (or "the blob ends").
Error malformed(const Reader& r, const char* where, const char* what) {
  if (r.at_end()) {
    set_error_message("BackendWithCompilerDemo blob: %s: expected %s at byte %zu, but the "
                      "blob ends there", where, what, r.offset());
  } else {
    char found[128];
    r.excerpt(found, sizeof(found));
    set_error_message("BackendWithCompilerDemo blob: %s: expected %s at byte %zu, found '%s'",
                      where, what, r.offset(), found);
  }
  return Error::InvalidProgram;
}

Error resolve_op(const char* text, size_t len, size_t index, DemoOp* op) {
  for (const OpName& known : kOps) {
    if (equals(text, len, known.name)) {
      *op = known.op;
      return Error::Ok;
    }
  }
  char name[2 * kMaxField];
  printable_bytes(text, len, name, sizeof(name));
  for (const char* other : kCompilerOnlyOps) {
    EMBER_CHECK_OR_RETURN(!equals(text, len, other), Error::NotSupported,
                          "BackendWithCompilerDemo blob: instruction %zu is 'demo::%s', which "
                          "the demo compiler writes but Ember's demo runtime does not run "
                          "(it runs aten.add.Tensor, aten.mm.default, aten.sin.default)",
                          index, name);
  }
  set_error_message("BackendWithCompilerDemo blob: instruction %zu: unknown operator "
                    "'demo::%s'", index, name);
  return Error::InvalidProgram;
}

Error check_dtype(const char* text, size_t len, size_t index) {
  if (equals(text, len, kFloat32)) {
    return Error::Ok;
  }
  char dtype[2 * kMaxField];
  printable_bytes(text, len, dtype, sizeof(dtype));
  const bool torch_dtype = len > 6 && std::memcmp(text, "torch.", 6) == 0;
  set_error_message("BackendWithCompilerDemo blob: instruction %zu: dtype '%s' %s (only "
                    "torch.float32 runs)", index, dtype,
                    torch_dtype ? "is not supported" : "is not a torch dtype");
  return torch_dtype ? Error::NotSupported : Error::InvalidProgram;
}

// One instruction, from "op:" to its closing '#'.
Error parse_instruction(Reader* r, size_t index, DemoInstruction* out) {
  char where[48];
  std::snprintf(where, sizeof(where), "instruction %zu", index);
  if (!r->take("op:demo::")) {
    return malformed(*r, where, "'op:demo::'");
  }
  const char* name = nullptr;
  size_t name_len = 0;
  if (!r->field(',', &name, &name_len) || name_len == 0) {
    return malformed(*r, where, "an operator name ended by ','");
  }
  DemoOp op = DemoOp::Add;
  EMBER_RETURN_IF_ERROR(resolve_op(name, name_len, index, &op));
  int64_t numel = 0;
  if (!r->take(", numel:")) {
    return malformed(*r, where, "', numel:'");
  }
  if (!r->number(false, &numel)) {
    return malformed(*r, where, "an element count (at most 18 digits)");
  }
  if (!r->take(", dtype:")) {
    return malformed(*r, where, "', dtype:'");
  }
  const char* dtype = nullptr;
  size_t dtype_len = 0;
  if (!r->field('<', &dtype, &dtype_len)) {
    return malformed(*r, where, "a dtype ended by '<debug_handle>'");
  }
  EMBER_RETURN_IF_ERROR(check_dtype(dtype, dtype_len, index));
  if (!r->take("<debug_handle>")) {
    return malformed(*r, where, "'<debug_handle>'");
  }
  int64_t handle = 0;
  if (!r->number(true, &handle)) {
    return malformed(*r, where, "a debug handle");
  }
  EMBER_CHECK_OR_RETURN(handle >= -1 && handle <= INT32_MAX, Error::InvalidProgram,
                        "BackendWithCompilerDemo blob: instruction %zu: debug handle %lld is "
                        "outside [-1, %d]", index, static_cast<long long>(handle), INT32_MAX);
  if (!r->take("#")) {
    return malformed(*r, where, "'#' after the debug handle");
  }
  if (out != nullptr) {
    out->op = op;
    out->numel = numel;
    out->debug_handle = int32_t(handle);
  }
  return Error::Ok;
}

}  // namespace

const char* demo_op_name(DemoOp op) {
  switch (op) {
    case DemoOp::Add:
      return "aten.add.Tensor";
    case DemoOp::Mm:
      return "aten.mm.default";
    case DemoOp::Sin:
      return "aten.sin.default";
  }
  return "?";
}

Error parse_demo_blob(const void* data, size_t size, DemoInstruction* out, size_t capacity,
                      size_t* count) {
  *count = 0;
  EMBER_CHECK_OR_RETURN(data != nullptr || size == 0, Error::InvalidProgram,
                        "BackendWithCompilerDemo blob: no bytes");
  Reader r(static_cast<const char*>(data), size);
  int64_t declared = 0;
  if (!r.number(false, &declared)) {
    return malformed(r, "header", "the instruction count");
  }
  if (!r.take("version:")) {
    return malformed(r, "header", "'version:'");
  }
  int64_t version = 0;
  if (!r.number(true, &version)) {
    return malformed(r, "header", "a version number");
  }
  EMBER_CHECK_OR_RETURN(version == kDemoBlobVersion, Error::DelegateInvalidCompatibility,
                        "BackendWithCompilerDemo blob: version %lld; this runtime reads "
                        "version %lld", static_cast<long long>(version),
                        static_cast<long long>(kDemoBlobVersion));
  if (!r.take("#")) {
    return malformed(r, "header", "'#' after the version");
  }
  EMBER_CHECK_OR_RETURN(declared >= 1 && size_t(declared) <= kMaxDemoInstructions,
                        Error::InvalidProgram,
                        "BackendWithCompilerDemo blob: header declares %lld instructions; "
                        "1 to %zu are accepted", static_cast<long long>(declared),
                        kMaxDemoInstructions);
  EMBER_CHECK_OR_RETURN(out == nullptr || size_t(declared) <= capacity, Error::InvalidProgram,
                        "BackendWithCompilerDemo blob: header declares %lld instructions; "
                        "room for %zu", static_cast<long long>(declared), capacity);
  size_t n = 0;
  while (!r.at_end()) {
    EMBER_CHECK_OR_RETURN(n < size_t(declared), Error::InvalidProgram,
                          "BackendWithCompilerDemo blob: header declares %lld instructions, "
                          "but more follow at byte %zu", static_cast<long long>(declared),
                          r.offset());
    EMBER_RETURN_IF_ERROR(parse_instruction(&r, n, out != nullptr ? out + n : nullptr));
    ++n;
  }
  EMBER_CHECK_OR_RETURN(n == size_t(declared), Error::InvalidProgram,
                        "BackendWithCompilerDemo blob: header declares %lld instructions, "
                        "the blob holds %zu", static_cast<long long>(declared), n);
  *count = n;
  return Error::Ok;
}

}  // namespace ember::demo
