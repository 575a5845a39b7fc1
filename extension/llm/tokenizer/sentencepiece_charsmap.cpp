#include "extension/llm/tokenizer/sentencepiece_charsmap.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace ember::llm {
namespace {

// ---- protobuf wire format, just enough to find the maps

bool read_varint(const uint8_t*& p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    const uint8_t b = *p++;
    v |= uint64_t(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}

// Calls `visit(field, bytes, size)` for each length-delimited field of the
// message [p, end); false when the message cannot be walked.
template <typename Visit>
bool walk_message(const uint8_t* p, const uint8_t* end, Visit visit) {
  while (p < end) {
    uint64_t key = 0;
    if (!read_varint(p, end, &key)) return false;
    const uint64_t field = key >> 3;
    uint64_t skip = 0;
    switch (key & 7) {
      case 0:
        if (!read_varint(p, end, &skip)) return false;
        continue;
      case 1: skip = 8; break;
      case 5: skip = 4; break;
      case 2: {
        uint64_t size = 0;
        if (!read_varint(p, end, &size) || size > uint64_t(end - p)) return false;
        if (!visit(field, p, size_t(size))) return false;
        p += size;
        continue;
      }
      default: return false;  // groups: not in SentencePiece's schema
    }
    if (skip > uint64_t(end - p)) return false;
    p += skip;
  }
  return true;
}

// ---- the darts-clone double array, as libsentencepiece searches it

struct Unit {
  uint32_t bits;
  bool has_leaf() const { return ((bits >> 8) & 1) != 0; }
  uint32_t value() const { return bits & ((1u << 31) - 1); }
  uint32_t label() const { return bits & ((1u << 31) | 0xff); }
  uint32_t offset() const { return (bits >> 10) << ((bits & (1u << 9)) >> 6); }
};

// Every state a prefix search can reach reads units[pos ^ c] for any byte
// c (so pos | 0xff must be inside the array), and a leaf's value is an
// offset into the strings that must start a NUL-terminated string.
bool check_map(const uint8_t* blob, size_t size, std::string* why) {
  if (size < 4) {
    *why = "a precompiled map shorter than its 4-byte header";
    return false;
  }
  const uint32_t trie_bytes =
      uint32_t(blob[0]) | uint32_t(blob[1]) << 8 | uint32_t(blob[2]) << 16 | uint32_t(blob[3]) << 24;
  if (trie_bytes % 4 != 0 || trie_bytes > size - 4 || trie_bytes == 0) {
    *why = "a precompiled map whose trie size does not fit it";
    return false;
  }
  const size_t n = trie_bytes / 4;
  std::vector<Unit> units(n);
  for (size_t i = 0; i < n; ++i) std::memcpy(&units[i].bits, blob + 4 + 4 * i, 4);
  const uint8_t* strings = blob + 4 + trie_bytes;
  const size_t strings_size = size - 4 - trie_bytes;
  std::vector<uint8_t> seen(n, 0);
  std::vector<uint32_t> todo;
  const uint64_t root = uint64_t(units[0].offset());
  auto push = [&](uint64_t pos) {
    if ((pos | 0xff) >= n) return false;
    if (!seen[pos]) {
      seen[pos] = 1;
      todo.push_back(uint32_t(pos));
    }
    return true;
  };
  if (!push(root)) {
    *why = "a precompiled map whose trie leaves its array";
    return false;
  }
  while (!todo.empty()) {
    const uint32_t pos = todo.back();
    todo.pop_back();
    for (uint32_t c = 1; c < 256; ++c) {  // byte 0 ends a key: never searched
      const uint32_t child = pos ^ c;
      const Unit u = units[child];
      if (u.label() != c) continue;
      const uint64_t next = uint64_t(child) ^ u.offset();
      if (!push(next)) {
        *why = "a precompiled map whose trie leaves its array";
        return false;
      }
      if (!u.has_leaf()) continue;
      const uint32_t value = units[next].value();
      if (value >= strings_size || std::memchr(strings + value, 0, strings_size - value) == nullptr) {
        *why = "a precompiled map with a replacement outside its strings";
        return false;
      }
    }
  }
  return true;
}

}  // namespace

bool check_charsmaps(const std::string& model, std::string* why) {
  const uint8_t* begin = reinterpret_cast<const uint8_t*>(model.data());
  bool ok = true;
  // ModelProto: 3 normalizer_spec, 5 denormalizer_spec; in each
  // NormalizerSpec, 2 precompiled_charsmap.
  walk_message(begin, begin + model.size(), [&](uint64_t field, const uint8_t* p, size_t n) {
    if (field != 3 && field != 5) return true;
    walk_message(p, p + n, [&](uint64_t inner, const uint8_t* q, size_t m) {
      if (inner == 2 && m != 0 && ok) ok = check_map(q, m, why);
      return true;
    });
    return true;
  });
  return ok;
}

}  // namespace ember::llm
