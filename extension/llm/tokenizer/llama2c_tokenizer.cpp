// The llama2.c tokenizer.bin that upstream's runner reads
// (pytorch-labs/tokenizers src/llama2c_tokenizer.cpp), as written from a
// SentencePiece model by pytorch_tokenizers.tools.llama2c.convert:
//
//   int32 vocab_size, int32 bos_id, int32 eos_id, int32 max_token_length
//   vocab_size times: float32 score, int32 length, `length` bytes of piece
//
// little-endian (upstream writes and reads the host's order; every host it
// runs on is little-endian). Pieces are SentencePiece's with U+2581 turned
// into a space, BOS and EOS spelled "<s>" and "</s>", and byte pieces
// spelled "<0xNN>" at ids NN + 3.
//
// Where Ember differs from upstream's reader: a file shorter than its
// header says is refused (upstream fills missing pieces with "<pad>"),
// as are a BOS or EOS id outside the vocabulary and a piece longer than
// max_token_length (upstream would cut merge candidates short); bytes after
// the last piece are ignored, as upstream ignores them (the converter's
// --prepend-padding writes one piece more than it declares). Text is
// encoded to its last byte (upstream stops at a NUL), and a byte piece
// decodes to its raw byte even when it is 0x00.
#include <cinttypes>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

constexpr size_t kHeaderSize = 16;
constexpr size_t kEntryHeaderSize = 8;  // score and length
// The first three ids are <unk>, <s>, </s>; byte NN is id NN + 3.
constexpr int32_t kByteTokenOffset = 3;
// Upstream's merge loop starts from this score and takes a pair only when
// its score is strictly greater.
constexpr float kNoMergeScore = -1e10f;
constexpr size_t kMaxUtf8Sequence = 4;

struct Vocabulary {
  int32_t bos = 0;
  int32_t eos = 0;
  int32_t max_token_length = 0;
  std::vector<std::string> pieces;
  std::vector<float> scores;
};

// Little-endian reads at a cursor that never passes the end.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}

  size_t offset() const { return offset_; }
  size_t left() const { return bytes_.size() - offset_; }

  // Callers check left() first.
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes_[offset_ + i]);
    offset_ += 4;
    return v;
  }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  float f32() {
    const uint32_t bits = u32();
    float v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  }
  std::string take(size_t n) {
    std::string s = bytes_.substr(offset_, n);
    offset_ += n;
    return s;
  }

 private:
  const std::string& bytes_;
  size_t offset_ = 0;
};

Result<int32_t> read_header(Reader& in, Vocabulary& vocab) {
  if (in.left() < kHeaderSize) {
    set_error_message("%zu bytes, shorter than the 16-byte header (vocab_size, bos, eos, "
                      "max_token_length)", in.left());
    return Error::InvalidArgument;
  }
  const int32_t vocab_size = in.i32();
  vocab.bos = in.i32();
  vocab.eos = in.i32();
  vocab.max_token_length = in.i32();
  // Each piece takes at least its 8-byte entry header: this bounds the
  // allocation below by the file size.
  const size_t room = in.left() / kEntryHeaderSize;
  if (vocab_size <= 0 || static_cast<uint64_t>(vocab_size) > room) {
    set_error_message("header declares %" PRId32 " pieces; the %zu bytes after the header "
                      "hold at most %zu", vocab_size, in.left(), room);
    return Error::InvalidArgument;
  }
  if (vocab.bos < 0 || vocab.bos >= vocab_size || vocab.eos < 0 || vocab.eos >= vocab_size) {
    set_error_message("BOS id %" PRId32 " or EOS id %" PRId32 " is outside the %" PRId32
                      " pieces", vocab.bos, vocab.eos, vocab_size);
    return Error::InvalidArgument;
  }
  if (vocab.max_token_length < 0) {
    set_error_message("negative max_token_length %" PRId32, vocab.max_token_length);
    return Error::InvalidArgument;
  }
  return vocab_size;
}

Error read_piece(Reader& in, int32_t index, int32_t vocab_size, Vocabulary& vocab) {
  if (in.left() < kEntryHeaderSize) {
    set_error_message("piece %" PRId32 " of %" PRId32 ": the file ends at offset %zu, inside "
                      "its score and length", index, vocab_size, in.offset() + in.left());
    return Error::InvalidArgument;
  }
  const size_t at = in.offset();
  const float score = in.f32();
  const int32_t length = in.i32();
  if (length < 0 || length > vocab.max_token_length) {
    set_error_message("piece %" PRId32 " (offset %zu): length %" PRId32 " is outside "
                      "[0, max_token_length %" PRId32 "]", index, at, length,
                      vocab.max_token_length);
    return Error::InvalidArgument;
  }
  if (static_cast<size_t>(length) > in.left()) {
    set_error_message("piece %" PRId32 " (offset %zu): length %" PRId32 " runs past the end "
                      "of the file (%zu bytes left)", index, at, length, in.left());
    return Error::InvalidArgument;
  }
  vocab.scores.push_back(score);
  vocab.pieces.push_back(in.take(static_cast<size_t>(length)));
  return Error::Ok;
}

Result<Vocabulary> parse_vocabulary(const std::string& bytes) {
  Reader in(bytes);
  Vocabulary vocab;
  Result<int32_t> vocab_size = read_header(in, vocab);
  if (!vocab_size.ok()) return vocab_size.error();
  vocab.pieces.reserve(static_cast<size_t>(*vocab_size));
  vocab.scores.reserve(static_cast<size_t>(*vocab_size));
  for (int32_t i = 0; i < *vocab_size; ++i) {
    const Error err = read_piece(in, i, *vocab_size, vocab);
    if (err != Error::Ok) return err;
  }
  return vocab;
}

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// NN of a piece spelled exactly "<0xNN>" (either case of hex), or -1.
int byte_piece_value(const std::string& piece) {
  if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return -1;
  int value = 0;
  for (size_t i = 3; i < 5; ++i) {
    const char c = piece[i];
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

class Llama2cTokenizer final : public Tokenizer {
 public:
  explicit Llama2cTokenizer(Vocabulary vocab) : vocab_(std::move(vocab)) {
    const int32_t n = static_cast<int32_t>(vocab_.pieces.size());
    ids_.reserve(vocab_.pieces.size());
    byte_values_.resize(vocab_.pieces.size());
    for (int32_t id = 0; id < n; ++id) {
      // The first of duplicate pieces wins (upstream's binary search finds
      // any of them).
      ids_.emplace(vocab_.pieces[id], id);
      byte_values_[id] = static_cast<int16_t>(byte_piece_value(vocab_.pieces[id]));
    }
  }

  // Upstream's algorithm: BOS ids, a space for SentencePiece's dummy
  // prefix, one id per UTF-8 sequence (its bytes' ids when the vocabulary
  // lacks it), then merge the adjacent pair whose concatenation is the
  // best-scoring piece until none is a piece; EOS ids last. BOS takes
  // part in merging, as upstream's does.
  Result<std::vector<uint64_t>> encode(const std::string& text, int8_t bos,
                                       int8_t eos) const override {
    if (bos < 0 || eos < 0) {
      set_error_message("encode: negative BOS/EOS count (bos %d, eos %d)", bos, eos);
      return Error::InvalidArgument;
    }
    if (text.empty()) {
      set_error_message("encode: empty text (upstream's llama2.c encoder refuses it too)");
      return Error::InvalidArgument;
    }
    std::vector<int32_t> ids(static_cast<size_t>(bos), vocab_.bos);
    Error err = append_sequence_ids(" ", ids);
    if (err != Error::Ok) return err;
    err = append_text_ids(text, ids);
    if (err != Error::Ok) return err;
    merge_pairs(ids);
    std::vector<uint64_t> out(ids.begin(), ids.end());
    out.insert(out.end(), static_cast<size_t>(eos), static_cast<uint64_t>(vocab_.eos));
    return out;
  }

  Result<std::string> decode(uint64_t prev, uint64_t token) const override {
    if (token >= vocab_.pieces.size()) {
      set_error_message("decode: token id %" PRIu64 " is outside the vocabulary (%zu pieces)",
                        token, vocab_.pieces.size());
      return Error::InvalidArgument;
    }
    const size_t id = static_cast<size_t>(token);
    if (byte_values_[id] >= 0) return std::string(1, static_cast<char>(byte_values_[id]));
    const std::string& piece = vocab_.pieces[id];
    if (prev == bos_tok() && !piece.empty() && piece[0] == ' ') return piece.substr(1);
    return piece;
  }

  uint64_t vocab_size() const override { return vocab_.pieces.size(); }
  uint64_t bos_tok() const override { return static_cast<uint64_t>(vocab_.bos); }
  uint64_t eos_tok() const override { return static_cast<uint64_t>(vocab_.eos); }
  TokenizerFormat format() const override { return TokenizerFormat::Llama2c; }

 private:
  int32_t find(const std::string& piece) const {
    const auto it = ids_.find(piece);
    return it == ids_.end() ? -1 : it->second;
  }

  // The piece `sequence` names, or the byte-fallback ids of its bytes.
  Error append_sequence_ids(const std::string& sequence, std::vector<int32_t>& ids) const {
    const int32_t id = find(sequence);
    if (id >= 0) {
      ids.push_back(id);
      return Error::Ok;
    }
    for (const char c : sequence) {
      const int32_t byte_id = static_cast<unsigned char>(c) + kByteTokenOffset;
      if (static_cast<size_t>(byte_id) >= vocab_.pieces.size()) {
        set_error_message("encode: byte 0x%02x is not a piece and its byte-fallback id %" PRId32
                          " is outside the %zu pieces", static_cast<unsigned char>(c), byte_id,
                          vocab_.pieces.size());
        return Error::InvalidArgument;
      }
      ids.push_back(byte_id);
    }
    return Error::Ok;
  }

  // Splits `text` as upstream does: a sequence starts at any byte that is
  // not a UTF-8 continuation byte (or at a stray one) and takes the
  // continuation bytes after it, up to 4 bytes in all.
  Error append_text_ids(const std::string& text, std::vector<int32_t>& ids) const {
    for (size_t start = 0; start < text.size();) {
      size_t end = start + 1;
      while (end < text.size() && end - start < kMaxUtf8Sequence &&
             is_utf8_continuation(text[end])) {
        ++end;
      }
      const Error err = append_sequence_ids(text.substr(start, end - start), ids);
      if (err != Error::Ok) return err;
      start = end;
    }
    return Error::Ok;
  }

  // The piece ids[i] + ids[i + 1] spell, if it is one; `scratch` is reused.
  int32_t pair_id(int32_t left, int32_t right, std::string& scratch) const {
    scratch.assign(vocab_.pieces[left]);
    scratch.append(vocab_.pieces[right]);
    return find(scratch);
  }

  // Repeatedly merges the first adjacent pair with the highest score (above
  // kNoMergeScore). pairs[i] caches the merge of ids[i] and ids[i + 1], so
  // each merge looks up only the two pairs it changes.
  void merge_pairs(std::vector<int32_t>& ids) const {
    std::string scratch;
    std::vector<int32_t> pairs;
    for (size_t i = 0; i + 1 < ids.size(); ++i) pairs.push_back(pair_id(ids[i], ids[i + 1], scratch));
    for (;;) {
      float best_score = kNoMergeScore;
      size_t best = pairs.size();
      for (size_t i = 0; i < pairs.size(); ++i) {
        if (pairs[i] >= 0 && vocab_.scores[pairs[i]] > best_score) {
          best_score = vocab_.scores[pairs[i]];
          best = i;
        }
      }
      if (best == pairs.size()) return;
      ids[best] = pairs[best];
      ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(best) + 1);
      pairs.erase(pairs.begin() + static_cast<std::ptrdiff_t>(best));
      if (best > 0) pairs[best - 1] = pair_id(ids[best - 1], ids[best], scratch);
      if (best < pairs.size()) pairs[best] = pair_id(ids[best], ids[best + 1], scratch);
    }
  }

  Vocabulary vocab_;
  std::unordered_map<std::string, int32_t> ids_;
  std::vector<int16_t> byte_values_;  // -1 for a piece that is not <0xNN>
};

}  // namespace

Result<std::unique_ptr<Tokenizer>> make_llama2c_tokenizer(const std::string& bytes,
                                                          const std::string& path) {
  Result<Vocabulary> vocab = parse_vocabulary(bytes);
  if (!vocab.ok()) {
    prefix_error_message("InvalidArgument", "tokenizer %s (llama2.c tokenizer.bin)",
                         path.c_str());
    return vocab.error();
  }
  return std::unique_ptr<Tokenizer>(new Llama2cTokenizer(std::move(*vocab)));
}

}  // namespace ember::llm
