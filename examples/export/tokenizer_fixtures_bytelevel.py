# Product tool: writes the byte-level BPE tokenizer fixtures in test/models/tokenizers.
"""Byte-level BPE tokenizer fixtures for extension/llm/tokenizer tests.

Writes into test/models/tokenizers/:
  bytelevel_gpt2.json        tokenizer.json: BPE + ByteLevel pre-tokenizer
                             (GPT-2 style), merges as [["a","b"]] pairs
  bytelevel_llama3.json      tokenizer.json: Split(Llama 3 regex) + ByteLevel,
                             Llama 3 special tokens, merges as ["a b"] strings
  bytelevel_tiktoken.model   tiktoken ranks ("<base64 bytes> <rank>" lines)
                             derived from the Llama 3 style BPE's merges
  bytelevel_*_cases.json     reference ids from the `tokenizers` and
                             `tiktoken` libraries, per-id decode bytes (hex)

The tiktoken reference uses the pattern and the 256 special tokens of
upstream's C++ Tiktoken defaults (pytorch-labs/tokenizers
include/pytorch/tokenizers/tiktoken.h), which ExecuTorch's LLM runner uses
when it loads a tiktoken file; upstream's C++ build (pytorch_tokenizers'
CppTiktoken / CppHFTokenizer) is run on the same text as a cross-check and
whether it gives the same ids is recorded per case. bos/eos of a
tokenizer.json follow upstream's rule in src/hf_tokenizer.cpp
(hf_bos_eos below); the pytorch_tokenizers 1.5.0 wheel's binary picks
differently for the Llama 3 style file (bos 0, eos 0), so its answer is not
used.

Run with the bench venv (tokenizers, tiktoken, pytorch_tokenizers; offline):
  /work/venv-bench/bin/python examples/export/tokenizer_fixtures_bytelevel.py
"""

import base64
import json
import os
import random
import sys

import tiktoken
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "models", "tokenizers")

# Upstream C++ Tiktoken's default pattern: Llama 3's with the `\s+(?!\S)`
# alternative removed (RE2 has no lookahead).
TIKTOKEN_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
    r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+"
)
# The Split regex of Llama 3's tokenizer.json (with the lookahead).
LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|"
    r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)


def tiktoken_special_tokens():
    """Upstream C++ Tiktoken's 256 default special tokens, in id order."""
    names = [
        "<|begin_of_text|>", "<|end_of_text|>",
        "<|reserved_special_token_0|>", "<|reserved_special_token_1|>",
        "<|finetune_right_pad_id|>", "<|step_id|>", "<|start_header_id|>",
        "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>",
    ]
    n = 2
    while len(names) < 256:
        names.append(f"<|reserved_special_token_{n}|>")
        n += 1
    return names


LLAMA3_HF_SPECIALS = [
    "<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>",
    "<|end_header_id|>", "<|eot_id|>",
]

WORDS = (
    "the quick brown fox jumps over lazy dog tokenizer model runtime embedded "
    "memory arena kernel tensor program method operator delegate backend "
    "don't can't we'll I'm you're they've she'd it's HELLO World Über "
    "café naïve résumé façade jalapeño crème brûlée Ærøskøbing straße "
    "日本語 テキスト 中文 分词 한국어 Привет мир γειά σου שלום مرحبا नमस्ते "
    "🙂 🚀 👩‍💻 🇫🇷 ✨ 1234 56789 3.14159 2024-01-31 0x1F $100 50% #tag "
    "@user a+b=c (x) [y] {z} <tag> foo_bar foo-bar foo.bar()"
).split()


def corpus(rng, n_lines=1500):
    lines = []
    for _ in range(n_lines):
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 14))]
        sep = rng.choice([" ", " ", " ", "  ", "\t", "\n", " \n "])
        lines.append(sep.join(words))
    return lines


CASES = [
    ("empty", ""),
    ("ascii", "Hello, world! The quick brown fox jumps over the lazy dog."),
    ("contractions", "I don't know; we'll see. You're right, it's HERS'S. They've I'd I'M WE'LL"),
    ("accents", "Café naïve résumé, crème brûlée à la façade; Ærøskøbing straße ÜBER"),
    ("cjk", "日本語のテキストと中文分词，还有한국어 문장。"),
    ("emoji", "Launch 🚀 now 🙂👩‍💻 flags 🇫🇷🇯🇵 sparkle✨✨"),
    ("whitespace_runs", "a  b   c    d\t\te \t \n  f     \n\n\ng   "),
    ("newlines", "line one\nline two\r\nline three\n\n\n  indented\n\tTabbed\n"),
    ("digits", "1 12 123 1234 12345 3.14159 2024-01-31 0x1F 1e10 $100 50% ٣٤٥"),
    ("code", "def f(x):\n    return x**2 + foo_bar[3] // 7  # comment\n"),
    ("mixed_scripts", "Привет мир, γειά σου κόσμε, שלום, مرحبا, नमस्ते!"),
    ("punctuation", "!!! ??? ... --- ((( ))) [[[ ]]] {{{ }}} <<< >>> @@@ ### $$$"),
    ("unusual_spaces", "a\u00a0b\u2003c\u3000d\u200be\u2028f\u0085g\u180eh"),
    ("rare_chars", "ǅ ǈ ﬁ ℌ ⅷ ① ½ ² ∑ ∞ ≠ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𐍈 ꙮ"),
    ("leading_space", " leading and trailing "),
    ("long_word", "supercalifragilisticexpialidocious" * 3),
    ("space_run_long", " " * 40 + "x" + "\n" * 12 + "y"),
]


def special_cases(specials):
    a, b = specials[0], specials[1]
    return [
        ("special_only", a),
        ("special_inside", f"Hi{a}there {b} end"),
        ("special_adjacent", f"{a}{b}{a}"),
        ("special_partial", "<|begin_of_tex|> <|end_of_text| " + a[:-1]),
        ("special_with_space", f"  {a}  x\n{b}\n"),
    ]


def random_text(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def check_split_utf8(cases):
    """At least one case must have a token whose bytes are not whole UTF-8."""
    for case in cases:
        for piece in case["pieces_hex"]:
            try:
                bytes.fromhex(piece).decode("utf-8")
            except UnicodeDecodeError:
                return
    sys.exit("no reference case splits a UTF-8 character across tokens")


# ---- Hugging Face -----------------------------------------------------------

def byte_level_table():
    """GPT-2's bytes_to_unicode as char -> byte, for per-id decode bytes."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, n = {}, 0
    for b in range(256):
        if b in keep:
            table[chr(b)] = b
        else:
            table[chr(256 + n)] = b
            n += 1
    return table


def hf_token_bytes(token, table):
    """The ByteLevel decoder's bytes for one token string (raw UTF-8 when a
    char is outside the byte alphabet, as tokenizers' ByteLevel does)."""
    if all(c in table for c in token):
        return bytes(table[c] for c in token)
    return token.encode("utf-8")


def hf_bos_eos(specials):
    """Upstream HFTokenizer's guess without tokenizer_config.json: the one
    added token naming "bos"/"begin" (or "eos"/"end"), narrowed to those
    naming "text" when several do; one found stands for both."""
    def pick(keys):
        found = [t for t in specials if any(k in t for k in keys)]
        if len(found) > 1:
            found = [t for t in found if "text" in t]
        return specials[found[0]] if len(found) == 1 else None
    bos, eos = pick(("bos", "begin")), pick(("eos", "end"))
    if bos is None:
        bos = eos
    if eos is None:
        eos = bos
    return bos, eos


def train_hf(lines, pre_tokenizer, specials, vocab_size):
    tok = Tokenizer(models.BPE(ignore_merges=False))
    tok.pre_tokenizer = pre_tokenizer
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=specials, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(lines, trainer)
    return tok


def hf_cases(tok, path, texts, table):
    import pytorch_tokenizers
    cpp = pytorch_tokenizers.CppHFTokenizer()
    cpp.load(path)
    cases = []
    for name, text in texts:
        ids = tok.encode(text, add_special_tokens=False).ids
        pieces = [hf_token_bytes(tok.id_to_token(i), table) for i in ids]
        joined = b"".join(pieces).decode("utf-8", errors="replace")
        assert joined == tok.decode(ids, skip_special_tokens=False), name
        cases.append({"name": name, "text": text, "ids": ids,
                      "pieces_hex": [p.hex() for p in pieces],
                      "upstream_cpp_ids_agree": cpp.encode(text, 0, 0) == ids})
    return cases, cpp


def write_hf(name, tok, texts, table, merges_as_strings):
    path = os.path.join(OUT, f"bytelevel_{name}.json")
    spec = json.loads(tok.to_str())
    if merges_as_strings:
        spec["model"]["merges"] = [f"{a} {b}" for a, b in spec["model"]["merges"]]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, ensure_ascii=False, separators=(",", ":"))
    tok = Tokenizer.from_file(path)
    cases, cpp = hf_cases(tok, path, texts, table)
    check_split_utf8(cases)
    vocab = tok.get_vocab(with_added_tokens=True)
    bos, eos = hf_bos_eos({t["content"]: t["id"] for t in spec["added_tokens"]})
    decode = {str(i): hf_token_bytes(tok.id_to_token(i), table).hex()
              for i in sorted(vocab.values())}
    ref = {"tokenizer": os.path.basename(path),
           "vocab_size": tok.get_vocab_size(with_added_tokens=True),
           "bos_id": bos, "eos_id": eos,
           "decode_hex": decode, "cases": cases}
    with open(os.path.join(OUT, f"bytelevel_{name}_cases.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, ensure_ascii=False, indent=0)
    return spec


# ---- tiktoken ---------------------------------------------------------------

def ranks_from_merges(spec, table):
    """Mergeable ranks from a byte-level BPE: the 256 bytes, then each merge's
    result in merge order."""
    ranks = {bytes([b]): b for b in range(256)}
    for merge in spec["model"]["merges"]:
        a, b = merge.split(" ") if isinstance(merge, str) else merge
        token = hf_token_bytes(a, table) + hf_token_bytes(b, table)
        if token not in ranks:
            ranks[token] = len(ranks)
    return ranks


def write_tiktoken(spec, texts, table):
    ranks = ranks_from_merges(spec, table)
    path = os.path.join(OUT, "bytelevel_tiktoken.model")
    with open(path, "w", encoding="ascii") as f:
        for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
            f.write(f"{base64.b64encode(token).decode()} {rank}\n")
    specials = tiktoken_special_tokens()
    enc = tiktoken.Encoding(
        name="bytelevel_tiktoken", pat_str=TIKTOKEN_PATTERN, mergeable_ranks=ranks,
        special_tokens={t: len(ranks) + i for i, t in enumerate(specials)})
    import pytorch_tokenizers
    cpp = pytorch_tokenizers.CppTiktoken()
    cpp.load(path)
    cases = []
    for name, text in texts:
        ids = enc.encode(text, allowed_special="all")
        pieces = [enc.decode_single_token_bytes(i) for i in ids]
        assert b"".join(pieces) == text.encode("utf-8"), name
        cases.append({"name": name, "text": text, "ids": ids,
                      "pieces_hex": [p.hex() for p in pieces],
                      "upstream_cpp_ids_agree": cpp.encode(text, 0, 0) == ids})
    check_split_utf8(cases)
    decode = {str(i): enc.decode_single_token_bytes(i).hex() for i in range(enc.n_vocab)}
    ref = {"tokenizer": os.path.basename(path), "vocab_size": enc.n_vocab,
           "bos_id": cpp.bos_tok(), "eos_id": cpp.eos_tok(),
           "special_tokens": specials, "decode_hex": decode, "cases": cases}
    with open(os.path.join(OUT, "bytelevel_tiktoken_cases.json"), "w", encoding="utf-8") as f:
        json.dump(ref, f, ensure_ascii=False, indent=0)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(27)
    lines = corpus(rng)
    table = byte_level_table()
    texts = CASES + [(f"random_{i}", random_text(rng, 60)) for i in range(4)]

    gpt2 = train_hf(lines, pre_tokenizers.ByteLevel(add_prefix_space=False), ["<|endoftext|>"], 700)
    write_hf("gpt2", gpt2, texts + special_cases(["<|endoftext|>", "<|endoftext|>"]), table, False)

    split = pre_tokenizers.Split(Regex(LLAMA3_SPLIT), behavior="isolated", invert=False)
    llama3_pre = pre_tokenizers.Sequence(
        [split, pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    llama3 = train_hf(lines, llama3_pre, LLAMA3_HF_SPECIALS, 800)
    spec = write_hf("llama3", llama3, texts + special_cases(LLAMA3_HF_SPECIALS), table, True)

    write_tiktoken(spec, texts + special_cases(tiktoken_special_tokens()), table)


if __name__ == "__main__":
    main()
