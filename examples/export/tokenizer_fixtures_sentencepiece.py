#!/usr/bin/env python3
# Product tool: writes the SentencePiece and llama2.c tokenizer fixtures in test/models/tokenizers.
"""Writes the SentencePiece and llama2.c tokenizer fixtures.

Usage (offline; sentencepiece 0.2.3 and pytorch_tokenizers 1.5.0):
  python examples/export/tokenizer_fixtures_sentencepiece.py \
      [--out test/models/tokenizers]

Files written to <out>:
  sentencepiece_bpe.model        BPE with byte fallback, set up like Llama's
                                 (identity normalization, whitespace kept,
                                 digits split, unk/bos/eos = 0/1/2)
  sentencepiece_unigram.model    unigram, no byte fallback (unknown
                                 characters become <unk>), a small custom
                                 normalization table (NORMALIZATION below;
                                 the stock NFKC table is 240 KB) and
                                 SentencePiece's default whitespace folding
  sentencepiece_nobos.model      unigram without BOS and EOS pieces
  llama2c_tokenizer.bin          sentencepiece_bpe.model rewritten by
                                 upstream's converter
                                 (pytorch_tokenizers.llama2c.Llama2cTokenizer
                                 .export, what tools/llama2c/convert.py runs)
  sentencepiece_cases.json       reference encodings and decodings
  llama2c_cases.json

The models are trained here, on the small corpus below, so the fixtures
need no download. Reference ids: for SentencePiece, the Python
sentencepiece library (cross-checked against pytorch_tokenizers'
SPTokenizer); for llama2.c, pytorch_tokenizers' C++ Llama2cTokenizer
through its Python bindings, which is upstream's llama2.c encoder itself
(greedy pair merging by score over the .bin vocabulary). The Python
Llama2cTokenizer class only wraps sentencepiece, and the two disagree on
some texts, so each llama2c case also records whether sentencepiece agrees.

Reference decodings (per id, `decoded`, hex) follow upstream's
decode(prev, token) rules with Ember's two changes:
  * the leading space of a piece is dropped when `prev` is the BOS id
    (upstream); a piece's U+2581 is a space (upstream);
  * a byte piece <0xNN> is the single raw byte NN (upstream SentencePiece
    prints every byte piece but <0x0A> literally; upstream llama2.c returns
    the byte but as a C string, so <0x00> comes out empty);
  * SentencePiece: control pieces (BOS, EOS) decode to no bytes (upstream
    returns " ", a workaround its own comment admits to). llama2.c keeps
    upstream's rule: the piece text ("<s>", "</s>"), the file has no piece
    types.
`prev` for decoded[i] is ids[i-1], and for decoded[0] the model's BOS id.
"""

import argparse
import io
import json
import os
import re
import struct
import sys
import tempfile

import sentencepiece as spm

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Training text: enough variety for a few hundred pieces, deliberately
# without CJK and emoji so those need byte fallback (or <unk>).
CORPUS = [
    "The quick brown fox jumps over the lazy dog.",
    "Hello world, this is a tiny tokenizer trained for tests.",
    "Tokenization splits text into tokens; tokenizers map tokens to ids.",
    "A language model reads tokens and predicts the next token.",
    "Once upon a time there was a little robot who liked to read books.",
    "She said: \"It's 10:45 now, and the train leaves at 11:05!\"",
    "Numbers like 3.14159, 2024-06-01 and 1,000,000 appear in text.",
    "    def encode(self, text):\n        return [self.vocab[t] for t in text]",
    "if (x < 0) { return -x; } else { return x; }",
    "Café, naïve, résumé, façade, jalapeño, über, straße, Ærø, smørrebrød.",
    "Les élèves étudient à l'école; où est la bibliothèque?",
    "Der Bär läuft über die Brücke, während die Vögel singen.",
    "El niño comió la piña y bebió café con leche.",
    "Москва — столица России, а Киев — столица Украины.",
    "Ελληνικά γράμματα: άλφα, βήτα, γάμμα, δέλτα.",
    "Email: someone@example.com, URL: https://example.org/path?q=1&r=2",
    "Tabs\tand  double  spaces   and triple   spaces stay.",
    "UPPER lower MiXeD CaSe words and snake_case_names and camelCaseNames.",
    "The weather today is sunny with a chance of rain in the afternoon.",
    "Machine learning models run on phones, laptops and microcontrollers.",
    "ExecuTorch runs PyTorch programs on small devices.",
    "Ember is an embeddable runtime written in C++17.",
    "She sells sea shells by the sea shore, and the shells she sells are sea shells.",
    "Peter Piper picked a peck of pickled peppers.",
    "How much wood would a woodchuck chuck if a woodchuck could chuck wood?",
    "1 2 3 4 5 6 7 8 9 10 11 12 100 1000 65536 4294967296",
    "Punctuation!? Yes... (parentheses) [brackets] {braces} <angles> #hash $dollar %percent",
]

# Texts to encode: ASCII, accents, CJK, emoji, whitespace runs, digits,
# leading and trailing spaces, newlines, control characters, pieces of the
# special-token spellings, and text outside the training alphabet.
TEXTS = [
    "Hello world",
    "Hello, world! How are you today?",
    "The quick brown fox jumps over the lazy dog.",
    " leading space",
    "   three leading spaces",
    "trailing spaces   ",
    "double  spaces and\ttabs\t\there",
    "line one\nline two\n\nline four\r\n",
    "Numbers: 0 7 42 123456789 3.14159 -17 1e10 2024-06-01",
    "Café naïve résumé façade jalapeño über straße Ærø smørrebrød",
    "Les élèves étudient à l'école; où est la bibliothèque?",
    "Москва — столица России.",
    "Ελληνικά γράμματα",
    "日本語のテキストです。",
    "中文分词测试：你好，世界！",
    "한국어 문장입니다",
    "Emoji: 😀 🎉 👍🏽 ❤️ 🇫🇷 👩‍👩‍👧",
    "mixed 日本 and English and 😀 together",
    "Ünïcödé ÀÉÎÕÜ ǅ ﬁ ligature Ⅻ ① ｆｕｌｌｗｉｄｔｈ",
    "Control chars: \x01\x02\x7f and bell\x07.",
    "a <s> b </s> c <unk> d <0x41> e",
    "    def encode(self, text):\n        return [self.vocab[t] for t in text]",
    "if (x < 0) { return -x; } else { return x; }",
    "x",
    " ",
    "\n",
    "ab" * 40,
    "tokenization tokenizer tokens token tokenize detokenize retokenized",
    "Machine learning models run on phones, laptops and microcontrollers. "
    "ExecuTorch runs PyTorch programs on small devices. Ember is an embeddable "
    "runtime written in C++17. She sells sea shells by the sea shore.",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕄𝕒𝕥𝕙 𐍈 Gothic and 𓂀 hieroglyph",
]

# (text, bos, eos) for every model; the bos/eos counts vary over the list.
BOS_EOS = [(1, 0), (0, 0), (1, 1), (2, 1), (0, 1)]

# llama2.c only: bytes that are not valid UTF-8 (its encoder groups them
# by lead and continuation bits, then falls back to byte ids).
LLAMA2C_RAW_TEXTS = [
    b"stray \x80\x81 continuation bytes",
    b"cut \xe6\x97 character",
    b"five \x80\x80\x80\x80\x80 continuations",
    b"\xff\xfe lead bytes that never lead",
    b"overlong \xc0\xaf and \xf0\x9f\x98",
]


# Fullwidth letters, a ligature, a circled digit and the ideographic space
# to ASCII: (source code points, target code points).
NORMALIZATION = [
    ("FF46", "66"), ("FF55", "75"), ("FF4C", "6C"), ("FF57", "77"), ("FF49", "69"),
    ("FF44", "64"), ("FF54", "74"), ("FF48", "68"), ("FB01", "66 69"), ("2460", "31"),
    ("3000", "20"),
]


def normalization_rules(directory):
    """Writes the table to <directory>/normalization.tsv and returns the
    relative name, to be used from <directory>: the model records the path
    it was given, and a fixed one keeps regenerated models identical."""
    with open(os.path.join(directory, "normalization.tsv"), "w") as f:
        for source, target in NORMALIZATION:
            f.write(f"{source}\t{target}\n")
    return "normalization.tsv"


def train(model_type, vocab_size, **options):
    spm.set_random_generator_seed(1)
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(CORPUS * 4),
        model_writer=out,
        model_type=model_type,
        vocab_size=vocab_size,
        character_coverage=1.0,
        hard_vocab_limit=False,
        num_threads=1,
        minloglevel=2,
        **options,
    )
    return out.getvalue()


def byte_piece_value(piece):
    """NN of a piece spelled <0xNN> (bytes), else None."""
    m = re.fullmatch(rb"<0x([0-9A-Fa-f]{2})>", piece)
    return int(m.group(1), 16) if m else None


class SentencePieceReference:
    def __init__(self, path):
        self.sp = spm.SentencePieceProcessor(model_file=path)
        self.bos = self.sp.bos_id()
        self.eos = self.sp.eos_id()

    def encode(self, text, bos, eos):
        return [self.bos] * bos + self.sp.encode(text.decode("utf-8")) + [self.eos] * eos

    def decode(self, prev, token):
        if self.sp.is_control(token):
            return b""
        piece = self.sp.id_to_piece(token)
        if self.sp.is_byte(token):
            return bytes([byte_piece_value(piece.encode())])
        text = piece.replace("\u2581", " ").encode("utf-8")
        if prev == self.bos and text.startswith(b" "):
            text = text[1:]
        return text


class Llama2cReference:
    def __init__(self, path):
        import pytorch_tokenizers

        self.cpp = pytorch_tokenizers.CppLlama2cTokenizer()
        self.cpp.load(path)
        with open(path, "rb") as f:
            data = f.read()
        n, self.bos, self.eos, _ = struct.unpack_from("<iiii", data, 0)
        self.pieces, at = [], 16
        for _ in range(n):
            _, length = struct.unpack_from("<fi", data, at)
            self.pieces.append(data[at + 8 : at + 8 + length])
            at += 8 + length

    def encode(self, text, bos, eos):
        return list(self.cpp.encode(text, bos, eos))

    def decode(self, prev, token):
        piece = self.pieces[token]
        if prev == self.bos and piece.startswith(b" "):
            piece = piece[1:]
        value = byte_piece_value(piece)
        return piece if value is None else bytes([value])


def decoded(ref, ids):
    out, prev = [], ref.bos
    for token in ids:
        out.append(ref.decode(prev, token))
        prev = token
    return out


def encode_case(ref, raw, bos, eos):
    ids = ref.encode(raw, bos, eos)
    case = {"text_hex": raw.hex(), "bos": bos, "eos": eos, "ids": ids,
            "decoded": [d.hex() for d in decoded(ref, ids)]}
    try:
        case = {"text": raw.decode("utf-8"), **case}
    except UnicodeDecodeError:
        pass
    return case


def decode_case(ref, ids, note):
    parts = decoded(ref, ids)
    return {"note": note, "ids": ids, "decoded": [p.hex() for p in parts],
            "joined": b"".join(parts).hex()}


def split_character_cases(ref, byte_id, bos, eos, unk):
    """Token sequences whose byte pieces split UTF-8 characters."""
    def b(*values):
        return [byte_id(v) for v in values]

    return [
        decode_case(ref, b(0xE6), "first byte of U+65E5 alone"),
        decode_case(ref, b(0xE6, 0x97), "two of its three bytes"),
        decode_case(ref, b(0x97, 0xA5), "its last two bytes, no lead byte"),
        decode_case(ref, b(0xE6, 0x97, 0xA5), "the whole character"),
        decode_case(ref, b(0xF0, 0x9F, 0x98, 0x80), "U+1F600 in four byte pieces"),
        decode_case(ref, [bos] + b(0xF0, 0x9F) + [eos], "half an emoji between BOS and EOS"),
        decode_case(ref, b(0x00, 0x0A, 0x20, 0x41, 0xFF), "NUL, newline, space, A, 0xFF"),
        decode_case(ref, [bos, unk, bos, bos], "unk and repeated BOS"),
    ]


def check_sentencepiece_cases(ref, cases, cpp):
    for case in cases:
        raw = bytes.fromhex(case["text_hex"])
        want = list(cpp.encode(raw.decode("utf-8"), case["bos"], case["eos"]))
        if want != case["ids"]:
            sys.exit(f"pytorch_tokenizers SPTokenizer disagrees on {raw!r}")
        body = [i for i in case["ids"] if not ref.sp.is_control(i)]
        if ref.sp.unk_id() in body:
            continue
        joined = b"".join(bytes.fromhex(d) for d in case["decoded"])
        if joined.decode("utf-8") != ref.sp.decode(body):
            sys.exit(f"per-id decoding disagrees with sentencepiece on {raw!r}")


def check_llama2c_cases(ref, cases):
    # Every text round-trips: upstream's encoder keeps every byte.
    for case in cases:
        raw = bytes.fromhex(case["text_hex"])
        body = [bytes.fromhex(d) for d, i in zip(case["decoded"], case["ids"])
                if i not in (ref.bos, ref.eos)]
        if b"".join(body) != raw:
            sys.exit(f"llama2c per-id decoding does not give back {raw!r}")
    # Upstream's decode, for the pieces it can hand to Python as text.
    for token, piece in enumerate(ref.pieces):
        if byte_piece_value(piece) is not None or token == ref.bos:
            continue
        if ref.cpp.decode(token).encode("utf-8") != ref.decode(-1, token):
            sys.exit(f"llama2c decode of {token} disagrees with upstream")


def sentencepiece_model_cases(path, name, texts):
    ref = SentencePieceReference(path)
    import pytorch_tokenizers

    cpp = pytorch_tokenizers.CppSPTokenizer()
    cpp.load(path)
    # A model without BOS and EOS pieces encodes with neither.
    counts = BOS_EOS if ref.bos >= 0 and ref.eos >= 0 else [(0, 0)]
    cases = [encode_case(ref, t.encode("utf-8"), *counts[i % len(counts)])
             for i, t in enumerate(texts)]
    check_sentencepiece_cases(ref, cases, cpp)
    model = {"file": name, "vocab_size": ref.sp.vocab_size(), "bos": ref.bos,
             "eos": ref.eos, "encode": cases}
    if ref.sp.is_byte(3):
        byte_id = lambda v: ref.sp.piece_to_id("<0x%02X>" % v)  # noqa: E731
        model["decode"] = split_character_cases(ref, byte_id, ref.bos, ref.eos,
                                                ref.sp.unk_id())
    return model


def llama2c_model_cases(bin_path, model_path):
    ref = Llama2cReference(bin_path)
    sp = spm.SentencePieceProcessor(model_file=model_path)
    cases = []
    raws = [t.encode("utf-8") for t in TEXTS] + LLAMA2C_RAW_TEXTS
    for i, raw in enumerate(raws):
        case = encode_case(ref, raw, *BOS_EOS[i % len(BOS_EOS)])
        if "text" in case:
            body = sp.encode(case["text"])
            case["sentencepiece_agrees"] = (
                [ref.bos] * case["bos"] + body + [ref.eos] * case["eos"] == case["ids"])
        cases.append(case)
    check_llama2c_cases(ref, cases)
    model = {"file": os.path.basename(bin_path), "vocab_size": len(ref.pieces),
             "bos": ref.bos, "eos": ref.eos, "encode": cases,
             "decode": split_character_cases(ref, lambda v: v + 3, ref.bos, ref.eos, 0)}
    disagree = sum(1 for c in cases if c.get("sentencepiece_agrees") is False)
    print(f"llama2c: sentencepiece disagrees with upstream's llama2.c encoder "
          f"on {disagree} of {len(cases)} texts")
    return model


ABOUT = ("Written by examples/export/tokenizer_fixtures_sentencepiece.py; see its "
         "docstring for where the reference ids come from and the decoding rules. "
         "text_hex is the input (text repeats it when it is UTF-8); decoded[i] is "
         "decode(prev, ids[i]) in hex with prev = ids[i-1], or the model's BOS id for i = 0.")


def write_json(path, models):
    """One case a line, so the files stay small and diff well."""
    def dump(value):
        return json.dumps(value, ensure_ascii=False)

    lines = ["{", f' "about": {dump(ABOUT)},', ' "models": [']
    for m, model in enumerate(models):
        lines.append("  {")
        for key, value in model.items():
            if isinstance(value, list):
                rows = [f"    {dump(case)}" for case in value]
                lines.append(f'   {dump(key)}: [\n' + ",\n".join(rows) + "\n   ],")
            else:
                lines.append(f"   {dump(key)}: {dump(value)},")
        lines[-1] = lines[-1].rstrip(",")
        lines.append("  }" + ("," if m + 1 < len(models) else ""))
    lines += [" ]", "}"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(REPO, "test/models/tokenizers"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    args.out = os.path.abspath(args.out)
    os.chdir(tempfile.mkdtemp())
    rules = normalization_rules(os.getcwd())
    models = {
        "sentencepiece_bpe.model": train(
            "bpe", 800, byte_fallback=True, normalization_rule_name="identity",
            remove_extra_whitespaces=False, split_digits=True,
            allow_whitespace_only_pieces=True, unk_id=0, bos_id=1, eos_id=2, pad_id=-1),
        "sentencepiece_unigram.model": train(
            "unigram", 300, normalization_rule_tsv=rules, unk_id=0, bos_id=1, eos_id=2,
            pad_id=-1),
        "sentencepiece_nobos.model": train(
            "unigram", 200, normalization_rule_name="identity", unk_id=0, bos_id=-1,
            eos_id=-1, pad_id=-1),
    }
    for name, data in models.items():
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)

    from pytorch_tokenizers.llama2c import Llama2cTokenizer

    bpe = os.path.join(args.out, "sentencepiece_bpe.model")
    bin_path = os.path.join(args.out, "llama2c_tokenizer.bin")
    Llama2cTokenizer(bpe).export(bin_path)

    write_json(os.path.join(args.out, "sentencepiece_cases.json"),
               [sentencepiece_model_cases(os.path.join(args.out, n), n, TEXTS)
                for n in models])
    write_json(os.path.join(args.out, "llama2c_cases.json"),
               [llama2c_model_cases(bin_path, bpe)])
    for name in sorted(os.listdir(args.out)):
        print(f"{name}: {os.path.getsize(os.path.join(args.out, name))} bytes")


if __name__ == "__main__":
    main()
