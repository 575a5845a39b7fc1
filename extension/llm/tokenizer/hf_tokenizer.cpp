// Hugging Face tokenizer.json with a byte-level BPE model: GPT-2 style
// (pre_tokenizer ByteLevel with its regex) and Llama 3 style (a Sequence of
// Split(regex, Isolated) then ByteLevel without regex), decoder ByteLevel.
// Anything else (other models, normalizers, pre-tokenizers, decoders, added
// tokens with lstrip/rstrip/single_word) is refused as NotSupported naming
// the component, rather than encoded differently from `tokenizers`.
//
// As in upstream's HFTokenizer (pytorch-labs/tokenizers src/hf_tokenizer.cpp):
// added_tokens are matched in the text before pre-tokenization; the
// post_processor is not applied (encode()'s bos/eos counts add BOS/EOS);
// BOS/EOS are the one added token naming "bos"/"begin" ("eos"/"end"),
// narrowed to those also naming "text" when several do, one standing for
// both when only one is found (id 0 when neither is).
#include <nlohmann/json.hpp>

#include <string_view>
#include <unordered_map>

#include "extension/llm/tokenizer/bpe_core.h"
#include "extension/llm/tokenizer/formats.h"
#include "runtime/core/error_message.h"

namespace ember::llm {
namespace {

using json = nlohmann::json;

// More ids than any released vocabulary; bounds what a file can make us
// allocate.
constexpr uint64_t kMaxTokenId = uint64_t{1} << 21;

// GPT-2's pre-tokenizer regex, which ByteLevel(use_regex: true) applies.
constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// ---- Reading JSON without exceptions ----------------------------------------

class Fields {
 public:
  explicit Fields(const std::string& path) : path_(printable(path, 200)) {}

  Error fail(Error err, const char* fmt, const std::string& a = "",
             const std::string& b = "") const {
    const std::string what = format(fmt, a, b);
    set_error_message("tokenizer.json %s: %s", path_.c_str(), what.c_str());
    return err;
  }
  Error invalid(const char* fmt, const std::string& a = "", const std::string& b = "") const {
    return fail(Error::InvalidArgument, fmt, a, b);
  }
  Error unsupported(const char* fmt, const std::string& a = "", const std::string& b = "") const {
    return fail(Error::NotSupported, fmt, a, b);
  }

  // `obj[key]` when obj is an object holding it, else null.
  static const json* member(const json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }
  // A bool member; `fallback` when absent or null.
  Error flag(const json& obj, const char* where, const char* key, bool fallback,
             bool* out) const {
    const json* value = member(obj, key);
    if (value == nullptr || value->is_null()) {
      *out = fallback;
      return Error::Ok;
    }
    if (!value->is_boolean()) return invalid("%s.%s is not true/false", where, key);
    *out = value->get<bool>();
    return Error::Ok;
  }
  // The "type" string of a component.
  Error type_of(const json& obj, const char* where, std::string* out) const {
    const json* type = member(obj, "type");
    if (type == nullptr || !type->is_string()) return invalid("%s has no \"type\" string", where);
    *out = type->get<std::string>();
    return Error::Ok;
  }

 private:
  static std::string format(const char* fmt, const std::string& a, const std::string& b) {
    std::string out;
    int arg = 0;
    for (const char* p = fmt; *p; ++p) {
      if (p[0] == '%' && p[1] == 's') {
        out += arg++ == 0 ? a : b;
        ++p;
      } else {
        out += *p;
      }
    }
    return out;
  }
  std::string path_;
};

// ---- The tokenizer ----------------------------------------------------------

struct PreTokenizeStep {
  std::unique_ptr<Regex> regex;  // Split's, or ByteLevel's GPT-2 regex; may be null
  bool byte_level = false;       // map bytes to ByteLevel characters
  bool add_prefix_space = false;
};

class HfTokenizer final : public Tokenizer {
 public:
  explicit HfTokenizer(const std::string& path) : fields_(path) {}
  Error load(const std::string& bytes);

  Result<std::vector<uint64_t>> encode(const std::string& text, int8_t bos,
                                       int8_t eos) const override;
  Result<std::string> decode(uint64_t prev, uint64_t token) const override;
  uint64_t vocab_size() const override { return num_ids_; }
  uint64_t bos_tok() const override { return bos_; }
  uint64_t eos_tok() const override { return eos_; }
  TokenizerFormat format() const override { return TokenizerFormat::HuggingFace; }

 private:
  Error check_components(const json& root) const;
  Error load_model(const json& model);
  Error load_vocab(const json& vocab, const json& added);
  Error load_unk(const json& model);
  Error load_added_tokens(const json& added);
  Error load_merges(const json& merges);
  Error merge_sides(const json& merge, size_t index, std::string* left, std::string* right) const;
  Error load_pre_tokenizer(const json& spec);
  Error add_step(const json& spec, const char* where);
  void pick_bos_eos();

  Error pre_tokenize(std::string_view text, std::vector<std::string>* pieces) const;
  Error encode_ordinary(std::string_view text, std::vector<uint64_t>* ids) const;
  void encode_word(const std::string& word, std::vector<uint64_t>* ids) const;
  uint64_t vocab_id(std::string_view token) const;
  uint64_t merge_rank(std::string_view left, std::string_view right) const;

  Fields fields_;
  std::vector<std::string> token_of_id_;  // model vocabulary, by id
  std::unordered_map<std::string_view, uint64_t> vocab_;  // views into token_of_id_
  std::unordered_map<uint64_t, std::string> added_;  // added token text by id
  std::unordered_map<uint64_t, uint32_t> merges_;  // (left id << 32 | right id) -> rank
  std::vector<PreTokenizeStep> steps_;
  SpecialTokenMatcher special_matcher_;
  ByteLevelTable byte_level_;
  uint64_t num_ids_ = 0;
  uint64_t unk_ = kNoRank;  // kNoRank: unknown characters are dropped
  bool fuse_unk_ = false;
  bool ignore_merges_ = false;
  uint64_t bos_ = 0;
  uint64_t eos_ = 0;
};

// ---- Loading ----------------------------------------------------------------

Error HfTokenizer::check_components(const json& root) const {
  const json* normalizer = Fields::member(root, "normalizer");
  if (normalizer != nullptr && !normalizer->is_null()) {
    std::string type;
    EMBER_RETURN_IF_ERROR(fields_.type_of(*normalizer, "normalizer", &type));
    return fields_.unsupported("normalizer %s is not supported (only null)", printable(type));
  }
  const json* decoder = Fields::member(root, "decoder");
  std::string type = "null";
  if (decoder != nullptr && !decoder->is_null()) {
    EMBER_RETURN_IF_ERROR(fields_.type_of(*decoder, "decoder", &type));
  }
  if (type != "ByteLevel") {
    return fields_.unsupported("decoder %s is not supported (only ByteLevel)", printable(type));
  }
  return Error::Ok;
}

Error HfTokenizer::load(const std::string& bytes) {
  const json root = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return fields_.invalid("not valid JSON");
  if (!root.is_object()) return fields_.invalid("the top level is not an object");
  const json* model = Fields::member(root, "model");
  if (model == nullptr) return fields_.invalid("no \"model\"");
  EMBER_RETURN_IF_ERROR(load_model(*model));
  EMBER_RETURN_IF_ERROR(check_components(root));
  const json* added = Fields::member(root, "added_tokens");
  static const json kNone = json::array();
  if (added != nullptr && !added->is_null() && !added->is_array()) {
    return fields_.invalid("added_tokens is not an array");
  }
  const json& added_list = added == nullptr || added->is_null() ? kNone : *added;
  const json* vocab = Fields::member(*model, "vocab");
  if (vocab == nullptr || !vocab->is_object()) return fields_.invalid("model.vocab is not an object");
  EMBER_RETURN_IF_ERROR(load_vocab(*vocab, added_list));
  EMBER_RETURN_IF_ERROR(load_unk(*model));
  EMBER_RETURN_IF_ERROR(load_added_tokens(added_list));
  const json* merges = Fields::member(*model, "merges");
  if (merges == nullptr || !merges->is_array()) return fields_.invalid("model.merges is not an array");
  EMBER_RETURN_IF_ERROR(load_merges(*merges));
  const json* pre = Fields::member(root, "pre_tokenizer");
  if (pre == nullptr || pre->is_null()) {
    return fields_.unsupported("pre_tokenizer null is not supported (ByteLevel is needed)");
  }
  EMBER_RETURN_IF_ERROR(load_pre_tokenizer(*pre));
  pick_bos_eos();
  return Error::Ok;
}

Error HfTokenizer::load_model(const json& model) {
  std::string type;
  EMBER_RETURN_IF_ERROR(fields_.type_of(model, "model", &type));
  if (type != "BPE") return fields_.unsupported("model %s is not supported (only BPE)", printable(type));
  const json* dropout = Fields::member(model, "dropout");
  if (dropout != nullptr && !dropout->is_null()) return fields_.unsupported("BPE dropout is not supported");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const json* affix = Fields::member(model, key);
    if (affix != nullptr && !affix->is_null() && !(affix->is_string() && affix->get<std::string>().empty())) {
      return fields_.unsupported("BPE %s is not supported", key);
    }
  }
  bool byte_fallback = false;
  EMBER_RETURN_IF_ERROR(fields_.flag(model, "model", "byte_fallback", false, &byte_fallback));
  if (byte_fallback) return fields_.unsupported("BPE byte_fallback is not supported");
  EMBER_RETURN_IF_ERROR(fields_.flag(model, "model", "fuse_unk", false, &fuse_unk_));
  return fields_.flag(model, "model", "ignore_merges", false, &ignore_merges_);
}

// Sizes the id table over the vocabulary and the added tokens, then fills it.
Error HfTokenizer::load_vocab(const json& vocab, const json& added) {
  uint64_t max_id = 0;
  for (const auto& item : vocab.items()) {
    if (!item.value().is_number_unsigned() || item.value().get<uint64_t>() >= kMaxTokenId) {
      return fields_.invalid("model.vocab['%s'] is not an id below 2^21", printable(item.key()));
    }
    max_id = std::max(max_id, item.value().get<uint64_t>());
  }
  for (const json& token : added) {
    const json* id = Fields::member(token, "id");
    if (id == nullptr || !id->is_number_unsigned() || id->get<uint64_t>() >= kMaxTokenId) {
      return fields_.invalid("an added_tokens entry has no id below 2^21");
    }
    max_id = std::max(max_id, id->get<uint64_t>());
  }
  token_of_id_.assign(vocab.empty() && added.empty() ? 0 : max_id + 1, std::string());
  std::vector<bool> taken(token_of_id_.size(), false);
  for (const auto& item : vocab.items()) {
    const uint64_t id = item.value().get<uint64_t>();
    if (taken[id]) return fields_.invalid("model.vocab gives id %s to two tokens", std::to_string(id));
    taken[id] = true;
    token_of_id_[id] = item.key();
  }
  for (size_t id = 0; id < token_of_id_.size(); ++id) {
    if (taken[id]) vocab_.emplace(std::string_view(token_of_id_[id]), id);
  }
  return Error::Ok;
}

Error HfTokenizer::load_unk(const json& model) {
  const json* unk = Fields::member(model, "unk_token");
  if (unk == nullptr || unk->is_null()) return Error::Ok;
  if (!unk->is_string()) return fields_.invalid("model.unk_token is not a string");
  unk_ = vocab_id(unk->get<std::string>());
  if (unk_ == kNoRank) {
    return fields_.invalid("model.unk_token '%s' is not in model.vocab", printable(unk->get<std::string>()));
  }
  return Error::Ok;
}

Error HfTokenizer::load_added_tokens(const json& added) {
  std::vector<std::pair<std::string, uint64_t>> specials;
  for (const json& token : added) {
    const json* content = Fields::member(token, "content");
    if (content == nullptr || !content->is_string() || content->get<std::string>().empty()) {
      return fields_.invalid("an added_tokens entry has no non-empty content");
    }
    const std::string text = content->get<std::string>();
    for (const char* key : {"lstrip", "rstrip", "single_word"}) {
      bool set = false;
      EMBER_RETURN_IF_ERROR(fields_.flag(token, "added_tokens[]", key, false, &set));
      if (set) return fields_.unsupported("added token '%s': %s is not supported", printable(text), key);
    }
    const uint64_t id = Fields::member(token, "id")->get<uint64_t>();
    added_[id] = text;
    specials.emplace_back(text, id);
  }
  Result<SpecialTokenMatcher> matcher = SpecialTokenMatcher::build(specials);
  if (!matcher.ok()) return matcher.error();
  special_matcher_ = std::move(*matcher);
  for (size_t id = 0; id < token_of_id_.size(); ++id) {
    if (vocab_.count(token_of_id_[id]) != 0 || added_.count(id) != 0) ++num_ids_;
  }
  return Error::Ok;
}

// A merge is "left right" (one space) or ["left", "right"].
Error HfTokenizer::merge_sides(const json& merge, size_t index, std::string* left,
                               std::string* right) const {
  const std::string where = std::to_string(index);
  if (merge.is_string()) {
    const std::string text = merge.get<std::string>();
    const size_t space = text.find(' ');
    if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos) {
      return fields_.invalid("model.merges[%s] '%s' is not two tokens split by one space", where,
                             printable(text));
    }
    *left = text.substr(0, space);
    *right = text.substr(space + 1);
    return Error::Ok;
  }
  if (!merge.is_array() || merge.size() != 2 || !merge[0].is_string() || !merge[1].is_string()) {
    return fields_.invalid("model.merges[%s] is neither \"a b\" nor [\"a\", \"b\"]", where);
  }
  *left = merge[0].get<std::string>();
  *right = merge[1].get<std::string>();
  return Error::Ok;
}

Error HfTokenizer::load_merges(const json& merges) {
  if (merges.size() >= kMaxTokenId) return fields_.invalid("model.merges has over 2^21 entries");
  for (size_t i = 0; i < merges.size(); ++i) {
    std::string left, right;
    EMBER_RETURN_IF_ERROR(merge_sides(merges[i], i, &left, &right));
    const uint64_t left_id = vocab_id(left), right_id = vocab_id(right);
    if (left_id == kNoRank || right_id == kNoRank || vocab_id(left + right) == kNoRank) {
      return fields_.invalid("model.merges[%s] ('%s') names a token not in model.vocab",
                             std::to_string(i), printable(left + " " + right));
    }
    // A repeated pair keeps its last rank, as tokenizers' map does.
    merges_[left_id << 32 | right_id] = static_cast<uint32_t>(i);
  }
  return Error::Ok;
}

Error HfTokenizer::add_step(const json& spec, const char* where) {
  std::string type;
  EMBER_RETURN_IF_ERROR(fields_.type_of(spec, where, &type));
  PreTokenizeStep step;
  if (type == "ByteLevel") {
    bool use_regex = true;
    EMBER_RETURN_IF_ERROR(fields_.flag(spec, where, "use_regex", true, &use_regex));
    EMBER_RETURN_IF_ERROR(fields_.flag(spec, where, "add_prefix_space", true, &step.add_prefix_space));
    step.byte_level = true;
    if (use_regex) {
      Result<std::unique_ptr<Regex>> regex = Regex::compile(kGpt2Pattern, "ByteLevel regex");
      if (!regex.ok()) return regex.error();
      step.regex = std::move(*regex);
    }
  } else if (type == "Split") {
    const json* behavior = Fields::member(spec, "behavior");
    if (behavior == nullptr || !behavior->is_string() || behavior->get<std::string>() != "Isolated") {
      return fields_.unsupported("Split behavior %s is not supported (only Isolated)",
                                 behavior != nullptr ? printable(behavior->dump()) : "null");
    }
    bool invert = false;
    EMBER_RETURN_IF_ERROR(fields_.flag(spec, where, "invert", false, &invert));
    if (invert) return fields_.unsupported("Split with invert: true is not supported");
    const json* pattern = Fields::member(spec, "pattern");
    const json* regex_text = pattern == nullptr ? nullptr : Fields::member(*pattern, "Regex");
    if (regex_text == nullptr || !regex_text->is_string()) {
      return fields_.unsupported("Split pattern other than {\"Regex\": ...} is not supported");
    }
    Result<std::unique_ptr<Regex>> regex = Regex::compile(regex_text->get<std::string>(), "Split pattern");
    if (!regex.ok()) return regex.error();
    step.regex = std::move(*regex);
  } else {
    return fields_.unsupported("pre_tokenizer %s is not supported (ByteLevel, Split, Sequence)",
                               printable(type));
  }
  steps_.push_back(std::move(step));
  return Error::Ok;
}

Error HfTokenizer::load_pre_tokenizer(const json& spec) {
  std::string type;
  EMBER_RETURN_IF_ERROR(fields_.type_of(spec, "pre_tokenizer", &type));
  if (type == "Sequence") {
    const json* list = Fields::member(spec, "pretokenizers");
    if (list == nullptr || !list->is_array()) {
      return fields_.invalid("pre_tokenizer Sequence has no pretokenizers array");
    }
    for (const json& step : *list) EMBER_RETURN_IF_ERROR(add_step(step, "pre_tokenizer step"));
  } else {
    EMBER_RETURN_IF_ERROR(add_step(spec, "pre_tokenizer"));
  }
  size_t byte_level_steps = 0;
  for (const PreTokenizeStep& step : steps_) byte_level_steps += step.byte_level ? 1 : 0;
  if (byte_level_steps != 1) {
    return fields_.unsupported("a pre_tokenizer with %s ByteLevel steps is not supported (one is needed)",
                               std::to_string(byte_level_steps));
  }
  return Error::Ok;
}

void HfTokenizer::pick_bos_eos() {
  auto pick = [this](std::initializer_list<const char*> words, uint64_t* id) {
    std::vector<std::pair<std::string, uint64_t>> found;
    for (const auto& token : added_) {
      for (const char* word : words) {
        if (token.second.find(word) != std::string::npos) {
          found.emplace_back(token.second, token.first);
          break;
        }
      }
    }
    if (found.size() > 1) {
      std::vector<std::pair<std::string, uint64_t>> narrowed;
      for (const auto& token : found) {
        if (token.first.find("text") != std::string::npos) narrowed.push_back(token);
      }
      found = std::move(narrowed);
    }
    if (found.size() == 1) *id = found[0].second;
    return found.size() == 1;
  };
  const bool has_bos = pick({"bos", "begin"}, &bos_);
  const bool has_eos = pick({"eos", "end"}, &eos_);
  if (has_bos && !has_eos) eos_ = bos_;
  if (has_eos && !has_bos) bos_ = eos_;
}

// ---- Encoding ---------------------------------------------------------------

uint64_t HfTokenizer::vocab_id(std::string_view token) const {
  const auto it = vocab_.find(token);
  return it == vocab_.end() ? kNoRank : it->second;
}

uint64_t HfTokenizer::merge_rank(std::string_view left, std::string_view right) const {
  const uint64_t left_id = vocab_id(left), right_id = vocab_id(right);
  if (left_id == kNoRank || right_id == kNoRank) return kNoRank;
  const auto it = merges_.find(left_id << 32 | right_id);
  return it == merges_.end() ? kNoRank : it->second;
}

Error HfTokenizer::pre_tokenize(std::string_view text, std::vector<std::string>* pieces) const {
  pieces->assign(1, std::string(text));
  for (const PreTokenizeStep& step : steps_) {
    std::vector<std::string> next;
    for (std::string& piece : *pieces) {
      if (step.add_prefix_space && (piece.empty() || piece[0] != ' ')) piece.insert(0, 1, ' ');
      std::vector<Span> parts;
      if (step.regex != nullptr) {
        EMBER_RETURN_IF_ERROR(step.regex->split(piece, &parts));
      } else if (!piece.empty()) {
        parts.push_back(Span{0, piece.size()});
      }
      for (const Span& part : parts) {
        const std::string_view bytes(piece.data() + part.begin, part.end - part.begin);
        next.emplace_back();
        if (step.byte_level) {
          byte_level_.encode(bytes, &next.back());
        } else {
          next.back().assign(bytes);
        }
      }
    }
    *pieces = std::move(next);
  }
  return Error::Ok;
}

// One pre-tokenized word (ByteLevel characters) to ids, as tokenizers' BPE
// does: its characters (unknown ones dropped, or the unk token) merged by
// the merges' ranks.
void HfTokenizer::encode_word(const std::string& word, std::vector<uint64_t>* ids) const {
  if (ignore_merges_ && vocab_id(word) != kNoRank) {
    ids->push_back(vocab_id(word));
    return;
  }
  std::string kept;
  std::vector<size_t> starts;
  for (size_t i = 0; i < word.size();) {
    const size_t length = utf8_sequence_length(static_cast<unsigned char>(word[i]));
    const std::string_view c(word.data() + i, length);
    if (unk_ != kNoRank || vocab_id(c) != kNoRank) {
      starts.push_back(kept.size());
      kept.append(c);
    }
    i += length;
  }
  const std::string_view view(kept);
  const std::vector<Span> symbols =
      bpe_merge(kept.size(), std::move(starts), [&](size_t begin, size_t middle, size_t end) {
        return merge_rank(view.substr(begin, middle - begin), view.substr(middle, end - middle));
      });
  bool last_was_unk = false;
  for (const Span& symbol : symbols) {
    const uint64_t id = vocab_id(view.substr(symbol.begin, symbol.end - symbol.begin));
    if (id == kNoRank && fuse_unk_ && last_was_unk) continue;
    ids->push_back(id == kNoRank ? unk_ : id);
    last_was_unk = id == kNoRank;
  }
}

Error HfTokenizer::encode_ordinary(std::string_view text, std::vector<uint64_t>* ids) const {
  std::vector<std::string> words;
  EMBER_RETURN_IF_ERROR(pre_tokenize(text, &words));
  for (const std::string& word : words) encode_word(word, ids);
  return Error::Ok;
}

Result<std::vector<uint64_t>> HfTokenizer::encode(const std::string& text, int8_t bos,
                                                  int8_t eos) const {
  std::vector<uint64_t> ids;
  const Error err = encode_with_specials(
      text, special_matcher_,
      [this](std::string_view part, std::vector<uint64_t>* out) { return encode_ordinary(part, out); },
      &ids);
  if (err != Error::Ok) return err;
  return add_bos_eos(std::move(ids), bos, eos, bos_, eos_);
}

Result<std::string> HfTokenizer::decode(uint64_t prev, uint64_t token) const {
  (void)prev;
  const auto added = added_.find(token);
  if (added != added_.end()) return byte_level_.decode(added->second);
  if (token < token_of_id_.size() && vocab_id(token_of_id_[token]) == token) {
    return byte_level_.decode(token_of_id_[token]);
  }
  set_error_message("tokenizer.json: token id %" PRIu64 " is not in the vocabulary", token);
  return Error::InvalidArgument;
}

}  // namespace

Result<std::unique_ptr<Tokenizer>> make_hf_tokenizer(const std::string& bytes,
                                                     const std::string& path) {
  auto tokenizer = std::make_unique<HfTokenizer>(path);
  EMBER_RETURN_IF_ERROR(tokenizer->load(bytes));
  return std::unique_ptr<Tokenizer>(std::move(tokenizer));
}

}  // namespace ember::llm
