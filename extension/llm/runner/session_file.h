// Session files: a TextLlmRunner's KV-cache state on disk (the prompt cache
// of ember_llm --prompt_cache; docs/llm.md). This header is the format and
// its two ends, on bytes in memory: write_session() serializes a session,
// parse_session() checks an untrusted file whole against what the running
// program expects and hands back views into it. Nothing here touches a
// program: the runner (text_llm_runner.h) finds the state buffers and the
// program's identity (session_state.h) and copies the bytes.
//
// Format, version 1. Every integer is little-endian.
//   offset  size
//    0       8   magic "EMBERSES"
//    8       4   format version (1)
//   12       4   flags: bit 0 set when the buffers' bytes are big-endian
//                (the writer's byte order); no other bit is defined
//   16       8   program identity (session_state.h: the program's bytes,
//                the method's name and its state buffers' layout)
//   24       8   file size in bytes
//   32       8   token count: the position the session resumes at
//   40       4   buffer count
//   44       4   logits count: the logits the last token gave, from which
//                the next token is sampled (0 when there are no tokens)
//   48      16   zero
//   64           buffer table, 16 bytes per buffer: u32 value index in the
//                method, u32 dtype (ScalarType code), u64 byte size
//                token ids, 8 bytes each, in position order
//                logits, float32 (IEEE 754 bits as a u32) each
//                zeros up to a multiple of 64
//                each buffer's bytes (as the tensor holds them in memory),
//                each followed by zeros up to a multiple of 64
//   end - 8  8   checksum: Hash64 of every byte before it
// The sizes in the header and the table determine the file's size exactly;
// a file of any other size is refused. The checksum comes last so that a
// writer streams the file in one pass, the buffers straight from memory.
//
// parse_session() checks, in this order, and names what is wrong: room for
// the header, the magic, the version, the flags (byte order included), the
// zero fields, the file size the header states, the buffer count and the
// size the counts and table imply, the checksum (a changed
// byte anywhere), the identity (a file another program or method wrote),
// the buffer table entry by entry, the token count (within the context),
// every id (within the vocabulary) and the logits count (the program's).
// Only a file that passes all of them is returned; the caller overwrites
// nothing before that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/core/result.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember::llm {

// A 64-bit non-cryptographic hash (checksums and program identities: it
// finds accidental change, not a forger's). The digest depends only on the
// bytes given, not on how update() calls split them.
class Hash64 {
 public:
  void update(const void* data, size_t size);
  void update_u64(uint64_t value);  // as 8 little-endian bytes
  uint64_t digest() const;

 private:
  void stripe(const uint8_t* bytes);  // 32 bytes into the four lanes
  uint64_t lanes_[4] = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull,
                        0x082EFA98EC4E6C89ull};
  uint8_t pending_[32] = {};
  size_t num_pending_ = 0;
  uint64_t total_ = 0;
};

struct SessionBufferInfo {
  uint32_t value_index = 0;  // the tensor's value index in the method
  ScalarType dtype = ScalarType::Float;
  uint64_t nbytes = 0;
};

// What a session must match: written into a file by write_session(),
// required of a file by parse_session().
struct SessionLayout {
  uint64_t identity = 0;
  std::vector<SessionBufferInfo> buffers;
  uint64_t max_tokens = 0;  // most tokens a session may hold
  uint64_t vocab_size = 0;  // every token id is below it
  uint64_t num_logits = 0;  // what one step gives (a session with tokens has them)
};

constexpr char kSessionMagic[8] = {'E', 'M', 'B', 'E', 'R', 'S', 'E', 'S'};
constexpr uint32_t kSessionVersion = 1;
constexpr size_t kSessionHeaderBytes = 64;
constexpr size_t kSessionTableEntryBytes = 16;
constexpr size_t kSessionAlignment = 64;
constexpr uint32_t kSessionFlagBigEndian = 1;
// A sanity bound on the buffer table (a Llama has two per layer).
constexpr uint32_t kMaxSessionBuffers = 1u << 16;

// Receives consecutive pieces of a session file; false stops the writing.
using SessionSink = std::function<bool(const void* data, size_t size)>;

// Writes a session file through `sink`, in order and in one pass: `layout`
// (identity and buffer table), `tokens`, the `logits` the last of them
// gave, and for each layout.buffers[i] its layout.buffers[i].nbytes bytes
// at data[i] (handed to the sink in place, not copied). InvalidArgument
// when data.size() differs from the table's, or the sizes overflow;
// AccessFailed when the sink refuses a piece. Does not check tokens and
// logits against the layout's bounds (the runner saves only what it ran).
Error write_session(const SessionLayout& layout, const std::vector<uint64_t>& tokens,
                    const std::vector<float>& logits, const std::vector<const void*>& data,
                    const SessionSink& sink);

// write_session() into memory.
Result<std::vector<uint8_t>> session_bytes(const SessionLayout& layout,
                                           const std::vector<uint64_t>& tokens,
                                           const std::vector<float>& logits,
                                           const std::vector<const void*>& data);

// The size of the largest session `layout` admits (max_tokens tokens):
// a bound for a reader to check before it reads a file whole. Saturates at
// SIZE_MAX when that does not fit in memory.
uint64_t max_session_bytes(const SessionLayout& layout);

// A checked session file, pointing into the caller's bytes (alive as long
// as they are).
struct SessionView {
  std::vector<uint64_t> tokens;
  std::vector<float> logits;
  std::vector<const uint8_t*> buffers;  // in the layout's order
};

// Checks `file` whole against `expected` (the order above). Errors, each
// with a message naming the field, the value found and the one expected:
// NotSupported for another format version or byte order; InvalidArgument
// for everything else (a short or malformed file, a changed byte, another
// program's session, a buffer of another dtype or size, too many tokens,
// an id outside the vocabulary, logits of another count).
Result<SessionView> parse_session(Span<const uint8_t> file, const SessionLayout& expected);

}  // namespace ember::llm
