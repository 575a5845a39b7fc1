// SentencePiece .model files (a serialized ModelProto), through Debian's
// libsentencepiece: the library loads the model and encodes; decoding is
// per token, with the rules of upstream's SPTokenizer
// (pytorch-labs/tokenizers src/sentencepiece.cpp) and Ember's byte rule.
//
// Decoding, per piece:
//   * U+2581 (SentencePiece's space) is a space;
//   * when `prev` is the BOS id, a leading space is dropped (upstream);
//   * a byte piece <0xNN> is the raw byte NN (upstream prints every byte
//     piece but <0x0A> literally);
//   * a control piece (BOS, EOS) is no bytes (upstream returns " ", which
//     its own comment calls a workaround);
//   * <unk> and user-defined pieces are their text (upstream).
// A model without BOS or EOS (bos_id() or eos_id() is -1): bos_tok() /
// eos_tok() are that -1 as uint64_t, as upstream's are, so no id matches
// them; upstream's encode would prepend that id, Ember's refuses bos > 0
// (eos > 0) instead.
#include <sentencepiece_processor.h>

#include <cinttypes>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "extension/llm/tokenizer/formats.h"
#include "extension/llm/tokenizer/sentencepiece_charsmap.h"
#include "extension/llm/tokenizer/tokenizer.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

constexpr char kSpaceSymbol[] = "\xe2\x96\x81";  // U+2581 LOWER ONE EIGHTH BLOCK
constexpr size_t kSpaceSymbolSize = sizeof(kSpaceSymbol) - 1;

// What decode() returns for one id, worked out once at load.
struct DecodedPiece {
  std::string bytes;
  bool drops_space_after_bos = false;  // a text piece that starts with a space
};

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// NN of a piece spelled exactly "<0xNN>", or -1.
int byte_piece_value(const std::string& piece) {
  if (piece.size() != 6 || piece.compare(0, 3, "<0x") != 0 || piece[5] != '>') return -1;
  const int high = hex_digit(piece[3]);
  const int low = hex_digit(piece[4]);
  return high < 0 || low < 0 ? -1 : high * 16 + low;
}

std::string replace_space_symbols(const std::string& piece) {
  std::string out;
  out.reserve(piece.size());
  for (size_t i = 0; i < piece.size();) {
    if (piece.compare(i, kSpaceSymbolSize, kSpaceSymbol) == 0) {
      out += ' ';
      i += kSpaceSymbolSize;
    } else {
      out += piece[i++];
    }
  }
  return out;
}

// Applies the decoding rules above to every piece; InvalidArgument for a
// byte piece not spelled <0xNN> (libsentencepiece does not check it).
Result<std::vector<DecodedPiece>> decode_table(const sentencepiece::SentencePieceProcessor& sp) {
  const int n = sp.GetPieceSize();
  std::vector<DecodedPiece> table(static_cast<size_t>(n));
  for (int id = 0; id < n; ++id) {
    DecodedPiece& out = table[static_cast<size_t>(id)];
    if (sp.IsControl(id)) continue;
    const std::string& piece = sp.IdToPiece(id);
    if (sp.IsByte(id)) {
      const int value = byte_piece_value(piece);
      if (value < 0) {
        char shown[64];
        printable_bytes(piece.data(), piece.size(), shown, sizeof(shown));
        set_error_message("byte piece %d is '%s', not <0xNN>", id, shown);
        return Error::InvalidArgument;
      }
      out.bytes.assign(1, static_cast<char>(value));
      continue;
    }
    out.bytes = replace_space_symbols(piece);
    out.drops_space_after_bos = !out.bytes.empty() && out.bytes[0] == ' ';
  }
  return table;
}

class SentencePieceTokenizer final : public Tokenizer {
 public:
  SentencePieceTokenizer(std::unique_ptr<sentencepiece::SentencePieceProcessor> processor,
                         std::vector<DecodedPiece> pieces)
      : processor_(std::move(processor)),
        pieces_(std::move(pieces)),
        bos_(processor_->bos_id()),
        eos_(processor_->eos_id()) {}

  Result<std::vector<uint64_t>> encode(const std::string& text, int8_t bos,
                                       int8_t eos) const override {
    if (bos < 0 || eos < 0) {
      set_error_message("encode: negative BOS/EOS count (bos %d, eos %d)", bos, eos);
      return Error::InvalidArgument;
    }
    if ((bos > 0 && bos_ < 0) || (eos > 0 && eos_ < 0)) {
      set_error_message("encode: %d BOS and %d EOS asked for, but the model defines %s", bos,
                        eos, bos_ < 0 && eos_ < 0 ? "neither" : bos_ < 0 ? "no BOS" : "no EOS");
      return Error::InvalidArgument;
    }
    std::vector<int> body;
    const sentencepiece::util::Status status = processor_->Encode(text, &body);
    if (!status.ok()) {
      set_error_message("SentencePiece could not encode %zu bytes: %s", text.size(),
                        status.error_message());
      return Error::InvalidArgument;
    }
    std::vector<uint64_t> ids(static_cast<size_t>(bos), static_cast<uint64_t>(bos_));
    ids.insert(ids.end(), body.begin(), body.end());
    ids.insert(ids.end(), static_cast<size_t>(eos), static_cast<uint64_t>(eos_));
    return ids;
  }

  Result<std::string> decode(uint64_t prev, uint64_t token) const override {
    if (token >= pieces_.size()) {
      set_error_message("decode: token id %" PRIu64 " is outside the vocabulary (%zu pieces)",
                        token, pieces_.size());
      return Error::InvalidArgument;
    }
    const DecodedPiece& piece = pieces_[static_cast<size_t>(token)];
    if (prev == bos_tok() && piece.drops_space_after_bos) return piece.bytes.substr(1);
    return piece.bytes;
  }

  uint64_t vocab_size() const override { return pieces_.size(); }
  // -1 (no such piece) becomes UINT64_MAX, as upstream's cast makes it.
  uint64_t bos_tok() const override { return static_cast<uint64_t>(static_cast<int64_t>(bos_)); }
  uint64_t eos_tok() const override { return static_cast<uint64_t>(static_cast<int64_t>(eos_)); }
  TokenizerFormat format() const override { return TokenizerFormat::SentencePiece; }

 private:
  std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
  std::vector<DecodedPiece> pieces_;
  int bos_;
  int eos_;
};

}  // namespace

Result<std::unique_ptr<Tokenizer>> make_sentencepiece_tokenizer(const std::string& bytes,
                                                                const std::string& path) {
  std::string why;
  if (!check_charsmaps(bytes, &why)) {
    set_error_message("tokenizer %s: SentencePiece model (%zu bytes) with %s", path.c_str(),
                      bytes.size(), why.c_str());
    return Error::InvalidArgument;
  }
  auto processor = std::make_unique<sentencepiece::SentencePieceProcessor>();
  sentencepiece::util::Status status;
  // libsentencepiece throws on some malformed models rather than returning
  // a status (its trie builder: "failed to insert key: zero-length key" for
  // an empty piece, found by fuzz/tokenizer_fuzzer). The throw stops here,
  // at the library boundary, and becomes an error like any other.
  try {
    status = processor->LoadFromSerializedProto(bytes);
  } catch (const std::exception& e) {
    char shown[256];
    printable_bytes(e.what(), std::char_traits<char>::length(e.what()), shown, sizeof(shown));
    set_error_message("tokenizer %s: libsentencepiece rejected the model (%zu bytes) with an "
                      "exception: %s", path.c_str(), bytes.size(), shown);
    return Error::InvalidArgument;
  } catch (...) {
    set_error_message("tokenizer %s: libsentencepiece rejected the model (%zu bytes) with an "
                      "exception", path.c_str(), bytes.size());
    return Error::InvalidArgument;
  }
  if (!status.ok()) {
    const char* reason = status.error_message();
    char shown[256];
    printable_bytes(reason, std::char_traits<char>::length(reason), shown, sizeof(shown));
    set_error_message("tokenizer %s: libsentencepiece cannot load it as a SentencePiece "
                      "model (%zu bytes): %s", path.c_str(), bytes.size(), shown);
    return Error::InvalidArgument;
  }
  Result<std::vector<DecodedPiece>> pieces = decode_table(*processor);
  if (!pieces.ok()) {
    prefix_error_message("InvalidArgument", "tokenizer %s", path.c_str());
    return pieces.error();
  }
  return std::unique_ptr<Tokenizer>(
      new SentencePieceTokenizer(std::move(processor), std::move(*pieces)));
}

}  // namespace ember::llm
