// The normalization tables inside a SentencePiece model, checked before the
// model reaches libsentencepiece.
//
// A model's NormalizerSpec (and DenormalizerSpec) may carry a precompiled
// character map: a little-endian uint32 trie size, a darts-clone double
// array of that many bytes, then NUL-terminated replacement strings.
// libsentencepiece walks the trie without bounds checks and reads the
// strings with strlen, so a malformed map in an untrusted model reads
// outside the model (fuzz/tokenizer_fuzzer found it). check_charsmaps()
// walks every state the library's prefix search can reach and checks every
// unit it can read and every string offset it can take, once, at load.
#pragma once

#include <string>

namespace ember::llm {

// True when every precompiled map in the serialized ModelProto `model` is
// safe for the library to use (or there is none); otherwise false with a
// reason in *why. A ModelProto this reader cannot walk is left to the
// library (true): only the maps are its business.
bool check_charsmaps(const std::string& model, std::string* why);

}  // namespace ember::llm
