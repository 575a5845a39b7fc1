#include "extension/llm/runner/session_file.h"

#include <cstdint>
#include <cstring>

#include "runtime/core/error_message.h"
#include "runtime/core/little_endian.h"

namespace ember::llm {
namespace {

constexpr uint64_t kPrime1 = 0x9E3779B97F4A7C15ull;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ull;

// Header fields (session_file.h).
constexpr size_t kVersionAt = 8;
constexpr size_t kFlagsAt = 12;
constexpr size_t kIdentityAt = 16;
constexpr size_t kFileSizeAt = 24;
constexpr size_t kTokenCountAt = 32;
constexpr size_t kBufferCountAt = 40;
constexpr size_t kLogitsCountAt = 44;
constexpr size_t kReservedAt = 48;
constexpr size_t kChecksumBytes = 8;  // at the end

using ull = unsigned long long;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

bool host_is_big_endian() {
  const uint16_t one = 1;
  uint8_t first = 0;
  std::memcpy(&first, &one, 1);
  return first == 0;
}

// a + b into *out; false on overflow.
bool add(uint64_t a, uint64_t b, uint64_t* out) {
  *out = a + b;
  return *out >= a;
}

// x rounded up to kSessionAlignment into *out; false on overflow.
bool aligned(uint64_t x, uint64_t* out) {
  if (!add(x, kSessionAlignment - 1, out)) return false;
  *out -= *out % kSessionAlignment;
  return true;
}

// Where the parts of a session file lie, from its counts and buffer sizes.
struct Extents {
  uint64_t tokens_at = 0;
  uint64_t logits_at = 0;
  uint64_t buffers_at = 0;
  uint64_t total = 0;
};

// False when the sizes overflow 64 bits.
bool session_extents(uint64_t num_tokens, uint32_t num_logits,
                     const std::vector<uint64_t>& nbytes, Extents* out) {
  const uint64_t n = nbytes.size();
  out->tokens_at = kSessionHeaderBytes + n * kSessionTableEntryBytes;  // n < 2^16
  if (num_tokens > (UINT64_MAX >> 4)) return false;
  uint64_t at = 0;
  if (!add(out->tokens_at, num_tokens * 8, &at)) return false;
  out->logits_at = at;
  if (!add(at, uint64_t(num_logits) * 4, &at) || !aligned(at, &at)) return false;
  out->buffers_at = at;
  for (uint64_t size : nbytes) {
    if (!add(at, size, &at) || !aligned(at, &at)) return false;
  }
  return add(at, kChecksumBytes, &out->total);
}

// The magic, version, flags, zero fields and the size the header states.
Error check_header(Span<const uint8_t> file) {
  const uint8_t* p = file.data();
  EMBER_CHECK_OR_RETURN(file.size() >= kSessionHeaderBytes, Error::InvalidArgument,
                        "the file is %llu bytes, shorter than the %llu-byte session header",
                        ull(file.size()), ull(kSessionHeaderBytes));
  if (std::memcmp(p, kSessionMagic, sizeof(kSessionMagic)) != 0) {
    char shown[8 * 4 + 1];
    printable_bytes(p, 8, shown, sizeof(shown));
    set_error_message("not a session file: it starts with \"%s\", not \"EMBERSES\"", shown);
    return Error::InvalidArgument;
  }
  const uint32_t version = read_le32(p + kVersionAt);
  EMBER_CHECK_OR_RETURN(version == kSessionVersion, Error::NotSupported,
                        "session format version %u; this build reads version %u", version,
                        kSessionVersion);
  const uint32_t flags = read_le32(p + kFlagsAt);
  EMBER_CHECK_OR_RETURN((flags & ~kSessionFlagBigEndian) == 0, Error::InvalidArgument,
                        "session flags 0x%x: only bit 0 (byte order) is defined", flags);
  const bool big = (flags & kSessionFlagBigEndian) != 0;
  EMBER_CHECK_OR_RETURN(big == host_is_big_endian(), Error::NotSupported,
                        "the session's buffers are %s-endian, this machine is %s-endian",
                        big ? "big" : "little", big ? "little" : "big");
  for (size_t i = kReservedAt; i < kSessionHeaderBytes; ++i) {
    EMBER_CHECK_OR_RETURN(p[i] == 0, Error::InvalidArgument,
                          "session header byte %llu is 0x%02x; bytes 48-63 must be zero",
                          ull(i), unsigned(p[i]));
  }
  const uint64_t stated = read_le64(p + kFileSizeAt);
  EMBER_CHECK_OR_RETURN(stated == file.size(), Error::InvalidArgument,
                        "the header says the file is %llu bytes, it is %llu (cut short or "
                        "extended)", ull(stated), ull(file.size()));
  return Error::Ok;
}

// The buffer table as the file states it, and the size it implies.
Result<std::vector<SessionBufferInfo>> read_table(Span<const uint8_t> file, Extents* extents) {
  const uint8_t* p = file.data();
  const uint32_t count = read_le32(p + kBufferCountAt);
  EMBER_CHECK_OR_RETURN(count <= kMaxSessionBuffers, Error::InvalidArgument,
                        "the session has %u buffers; at most %u are read", count,
                        kMaxSessionBuffers);
  const uint64_t table_end = kSessionHeaderBytes + uint64_t(count) * kSessionTableEntryBytes;
  EMBER_CHECK_OR_RETURN(table_end <= file.size(), Error::InvalidArgument,
                        "the table of %u buffers ends at byte %llu, past the file's end (%llu)",
                        count, ull(table_end), ull(file.size()));
  std::vector<SessionBufferInfo> table(count);
  std::vector<uint64_t> sizes(count);
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = p + kSessionHeaderBytes + size_t(i) * kSessionTableEntryBytes;
    const uint32_t dtype = read_le32(e + 4);
    EMBER_CHECK_OR_RETURN(dtype <= 127 && is_valid_scalar_type(int(dtype)),
                          Error::InvalidArgument, "buffer %u: dtype code %u is not a dtype", i,
                          dtype);
    table[i] = {read_le32(e), ScalarType(int8_t(dtype)), read_le64(e + 8)};
    sizes[i] = table[i].nbytes;
  }
  const uint64_t tokens = read_le64(p + kTokenCountAt);
  const uint32_t logits = read_le32(p + kLogitsCountAt);
  if (!session_extents(tokens, logits, sizes, extents)) {
    set_error_message("%llu tokens, %u logits and %u buffers of the sizes the table states "
                      "need more than 2^64 bytes", ull(tokens), logits, count);
    return Error::InvalidArgument;
  }
  EMBER_CHECK_OR_RETURN(extents->total == file.size(), Error::InvalidArgument,
                        "%llu tokens, %u logits and %u buffers of the sizes the table states "
                        "make a file of %llu bytes; this one is %llu",
                        ull(tokens), logits, count, ull(extents->total), ull(file.size()));
  return table;
}

// The identity, then the table entry by entry.
Error check_program(Span<const uint8_t> file, const std::vector<SessionBufferInfo>& table,
                    const SessionLayout& expected) {
  const uint64_t identity = read_le64(file.data() + kIdentityAt);
  EMBER_CHECK_OR_RETURN(identity == expected.identity, Error::InvalidArgument,
                        "the session was saved for another program or method (identity "
                        "%016llx; this one's is %016llx)",
                        ull(identity), ull(expected.identity));
  EMBER_CHECK_OR_RETURN(table.size() == expected.buffers.size(), Error::InvalidArgument,
                        "the session has %llu buffers; the method keeps %llu",
                        ull(table.size()), ull(expected.buffers.size()));
  for (size_t i = 0; i < table.size(); ++i) {
    const SessionBufferInfo& got = table[i];
    const SessionBufferInfo& want = expected.buffers[i];
    EMBER_CHECK_OR_RETURN(
        got.value_index == want.value_index && got.dtype == want.dtype &&
            got.nbytes == want.nbytes,
        Error::InvalidArgument,
        "buffer %llu: value %u, %s, %llu bytes in the session; the method's is value %u, %s, "
        "%llu bytes", ull(i), got.value_index, scalar_type_name(got.dtype), ull(got.nbytes),
        want.value_index, scalar_type_name(want.dtype), ull(want.nbytes));
  }
  return Error::Ok;
}

Result<std::vector<uint64_t>> read_tokens(Span<const uint8_t> file, const Extents& extents,
                                          const SessionLayout& expected) {
  const uint64_t count = read_le64(file.data() + kTokenCountAt);
  EMBER_CHECK_OR_RETURN(count <= expected.max_tokens, Error::InvalidArgument,
                        "the session holds %llu tokens; this program's context takes at most "
                        "%llu", ull(count), ull(expected.max_tokens));
  std::vector<uint64_t> tokens(static_cast<size_t>(count));  // count <= max_tokens
  for (size_t i = 0; i < tokens.size(); ++i) {
    tokens[i] = read_le64(file.data() + size_t(extents.tokens_at) + 8 * i);
    EMBER_CHECK_OR_RETURN(tokens[i] < expected.vocab_size, Error::InvalidArgument,
                          "token %llu is id %llu, outside the vocabulary (%llu ids)", ull(i),
                          ull(tokens[i]), ull(expected.vocab_size));
  }
  return tokens;
}

// The logits of a session with tokens; none without.
Result<std::vector<float>> read_logits(Span<const uint8_t> file, const Extents& extents,
                                       const SessionLayout& expected) {
  const uint64_t tokens = read_le64(file.data() + kTokenCountAt);
  const uint32_t count = read_le32(file.data() + kLogitsCountAt);
  const uint64_t want = tokens > 0 ? expected.num_logits : 0;
  EMBER_CHECK_OR_RETURN(count == want, Error::InvalidArgument,
                        "the session has %u logits after its %llu tokens; %llu expected (%s)",
                        count, ull(tokens), ull(want),
                        tokens > 0 ? "what one step of the program gives" : "none without tokens");
  std::vector<float> logits(count);
  for (size_t i = 0; i < logits.size(); ++i) {
    const uint32_t bits = read_le32(file.data() + size_t(extents.logits_at) + 4 * i);
    std::memcpy(&logits[i], &bits, sizeof(bits));
  }
  return logits;
}

}  // namespace

void Hash64::stripe(const uint8_t* bytes) {
  for (int i = 0; i < 4; ++i) {
    lanes_[i] = rotl(lanes_[i] + read_le64(bytes + 8 * i) * kPrime2, 31) * kPrime1;
  }
}

void Hash64::update(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  total_ += size;
  if (num_pending_ > 0) {
    const size_t take = size < 32 - num_pending_ ? size : 32 - num_pending_;
    std::memcpy(pending_ + num_pending_, p, take);
    num_pending_ += take;
    p += take;
    size -= take;
    if (num_pending_ < 32) return;
    stripe(pending_);
    num_pending_ = 0;
  }
  for (; size >= 32; p += 32, size -= 32) stripe(p);
  if (size > 0) std::memcpy(pending_, p, size);
  num_pending_ = size;
}

void Hash64::update_u64(uint64_t value) {
  uint8_t bytes[8];
  write_le64(bytes, value);
  update(bytes, sizeof(bytes));
}

uint64_t Hash64::digest() const {
  uint64_t h = rotl(lanes_[0], 1) + rotl(lanes_[1], 7) + rotl(lanes_[2], 12) +
               rotl(lanes_[3], 18);
  h = (h ^ total_) * kPrime1;
  size_t i = 0;
  for (; i + 8 <= num_pending_; i += 8) {
    h = rotl(h ^ (read_le64(pending_ + i) * kPrime2), 27) * kPrime1;
  }
  for (; i < num_pending_; ++i) h = rotl(h ^ (pending_[i] * kPrime3), 11) * kPrime1;
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  return h ^ (h >> 32);
}

namespace {

// The header, the table, the tokens and the logits, padded: everything
// before the first buffer.
std::vector<uint8_t> session_head(const SessionLayout& layout, const std::vector<uint64_t>& tokens,
                                  const std::vector<float>& logits, const Extents& ex) {
  std::vector<uint8_t> head(size_t(ex.buffers_at), 0);
  uint8_t* p = head.data();
  std::memcpy(p, kSessionMagic, sizeof(kSessionMagic));
  write_le32(p + kVersionAt, kSessionVersion);
  write_le32(p + kFlagsAt, host_is_big_endian() ? kSessionFlagBigEndian : 0);
  write_le64(p + kIdentityAt, layout.identity);
  write_le64(p + kFileSizeAt, ex.total);
  write_le64(p + kTokenCountAt, tokens.size());
  write_le32(p + kBufferCountAt, uint32_t(layout.buffers.size()));
  write_le32(p + kLogitsCountAt, uint32_t(logits.size()));
  for (size_t i = 0; i < layout.buffers.size(); ++i) {
    uint8_t* e = p + kSessionHeaderBytes + i * kSessionTableEntryBytes;
    write_le32(e, layout.buffers[i].value_index);
    write_le32(e + 4, uint32_t(uint8_t(layout.buffers[i].dtype)));
    write_le64(e + 8, layout.buffers[i].nbytes);
  }
  for (size_t i = 0; i < tokens.size(); ++i) {
    write_le64(p + size_t(ex.tokens_at) + 8 * i, tokens[i]);
  }
  for (size_t i = 0; i < logits.size(); ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, &logits[i], sizeof(bits));
    write_le32(p + size_t(ex.logits_at) + 4 * i, bits);
  }
  return head;
}

}  // namespace

Error write_session(const SessionLayout& layout, const std::vector<uint64_t>& tokens,
                    const std::vector<float>& logits, const std::vector<const void*>& data,
                    const SessionSink& sink) {
  EMBER_CHECK_OR_RETURN(data.size() == layout.buffers.size() &&
                            data.size() <= kMaxSessionBuffers,
                        Error::InvalidArgument,
                        "write_session: %llu buffers' data for a table of %llu (at most %u)",
                        ull(data.size()), ull(layout.buffers.size()), kMaxSessionBuffers);
  EMBER_CHECK_OR_RETURN(logits.size() <= UINT32_MAX, Error::InvalidArgument,
                        "write_session: %llu logits, more than the format holds",
                        ull(logits.size()));
  std::vector<uint64_t> sizes;
  for (const SessionBufferInfo& b : layout.buffers) sizes.push_back(b.nbytes);
  Extents ex;
  EMBER_CHECK_OR_RETURN(session_extents(tokens.size(), uint32_t(logits.size()), sizes, &ex) &&
                            ex.buffers_at <= SIZE_MAX,
                        Error::InvalidArgument,
                        "write_session: %llu tokens, %llu logits and %llu buffers overflow the "
                        "sizes", ull(tokens.size()), ull(logits.size()), ull(sizes.size()));
  Hash64 h;
  const auto put = [&](const void* bytes, size_t n) {
    h.update(bytes, n);
    return n == 0 || sink(bytes, n);
  };
  static const uint8_t kZeros[kSessionAlignment] = {};
  const std::vector<uint8_t> head = session_head(layout, tokens, logits, ex);
  bool ok = put(head.data(), head.size());
  for (size_t i = 0; i < sizes.size() && ok; ++i) {
    ok = put(data[i], size_t(sizes[i])) &&
         put(kZeros, size_t((kSessionAlignment - sizes[i] % kSessionAlignment) %
                            kSessionAlignment));
  }
  uint8_t checksum[kChecksumBytes];
  write_le64(checksum, h.digest());
  EMBER_CHECK_OR_RETURN(ok && sink(checksum, sizeof(checksum)), Error::AccessFailed,
                        "write_session: the session could not be written");
  return Error::Ok;
}

Result<std::vector<uint8_t>> session_bytes(const SessionLayout& layout,
                                           const std::vector<uint64_t>& tokens,
                                           const std::vector<float>& logits,
                                           const std::vector<const void*>& data) {
  std::vector<uint8_t> out;
  EMBER_RETURN_IF_ERROR(write_session(layout, tokens, logits, data,
                                      [&](const void* bytes, size_t n) {
                                        const uint8_t* b = static_cast<const uint8_t*>(bytes);
                                        out.insert(out.end(), b, b + n);
                                        return true;
                                      }));
  return out;
}

uint64_t max_session_bytes(const SessionLayout& layout) {
  std::vector<uint64_t> sizes;
  for (const SessionBufferInfo& b : layout.buffers) sizes.push_back(b.nbytes);
  Extents ex;
  const bool fits = layout.buffers.size() <= kMaxSessionBuffers &&
                    layout.num_logits <= UINT32_MAX &&
                    session_extents(layout.max_tokens, uint32_t(layout.num_logits), sizes, &ex);
  return fits && ex.total <= SIZE_MAX ? ex.total : uint64_t(SIZE_MAX);
}

Result<SessionView> parse_session(Span<const uint8_t> file, const SessionLayout& expected) {
  EMBER_RETURN_IF_ERROR(check_header(file));
  Extents extents;
  Result<std::vector<SessionBufferInfo>> table = read_table(file, &extents);
  if (!table.ok()) return table.error();
  const size_t body = file.size() - kChecksumBytes;  // the size matched the extents
  const uint64_t stored = read_le64(file.data() + body);
  Hash64 h;
  h.update(file.data(), body);
  const uint64_t actual = h.digest();
  EMBER_CHECK_OR_RETURN(stored == actual, Error::InvalidArgument,
                        "the checksum is %016llx, the bytes' is %016llx: the file was changed "
                        "or damaged after it was written", ull(stored), ull(actual));
  EMBER_RETURN_IF_ERROR(check_program(file, *table, expected));
  Result<std::vector<uint64_t>> tokens = read_tokens(file, extents, expected);
  if (!tokens.ok()) return tokens.error();
  Result<std::vector<float>> logits = read_logits(file, extents, expected);
  if (!logits.ok()) return logits.error();
  SessionView view;
  view.tokens = std::move(*tokens);
  view.logits = std::move(*logits);
  size_t at = size_t(extents.buffers_at);  // every offset is within the file
  for (const SessionBufferInfo& b : *table) {
    view.buffers.push_back(file.data() + at);
    at += size_t((b.nbytes + kSessionAlignment - 1) / kSessionAlignment * kSessionAlignment);
  }
  return view;
}

}  // namespace ember::llm
