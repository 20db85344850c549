"""Builds the Hugging Face fixtures of tests/it/hf.rs (tests/fixtures/hf/) and their expected values.

Run once by hand after changing a fixture: `python3 scripts/hf_fixtures.py`. It needs `jinja2`
and `tokenizers` (PyPI); nothing is downloaded and the tests never run it: they read what it
wrote.

- Templates: each tests/fixtures/hf/*.jinja is rendered with messages.json (the exchange as
  transformers users pass it) in the environment transformers' `apply_chat_template` builds
  (utils/chat_template_utils.py, `_compile_jinja_template`: ImmutableSandboxedEnvironment with
  trim_blocks, lstrip_blocks, loopcontrols; its own `tojson`; `raise_exception`;
  `strftime_now`, here at a fixed time), into expected/<name>.txt and expected/<name>.notools.txt.
- Tokenizers: two tiny BPE models trained here on the rendered prompts and a few sentences, a
  byte-level one (Qwen2-style: NFC, Split with Qwen2's regex, ByteLevel) and a SentencePiece-style
  one (byte_fallback, <0xXX> tokens, Metaspace), saved as tiny-bpe/ and tiny-sp/tokenizer.json;
  then variants of their pre-tokenization (Llama 3 and GPT-2 patterns, Llama-2's normalizers, …)
  encode a set of strings with the `tokenizers` library itself (add_special_tokens=False) into
  expected/tokens.json.
"""

import copy
import json
from datetime import datetime, timezone
from pathlib import Path

import jinja2
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "hf"
NOW = 1741953600  # 2025-03-14 12:00 UTC, the `now` of the Rust tests

TOKENS = {
    "qwen": {"eos_token": "<|im_end|>"},
    "llama": {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"},
    "hermes": {"bos_token": "<s>", "eos_token": "<|im_end|>"},
    "mistral": {"bos_token": "<s>", "eos_token": "</s>"},
    "chatml": {},
}

QWEN2 = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
LLAMA3 = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""


def environment():
    """transformers' chat template environment, with the clock fixed."""

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(fmt):
        return datetime.fromtimestamp(NOW, timezone.utc).strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def render_templates():
    data = json.loads((HERE / "messages.json").read_text())
    out = HERE / "expected"
    out.mkdir(exist_ok=True)
    env = environment()
    rendered = []
    for name, tokens in TOKENS.items():
        tmpl = env.from_string((HERE / f"{name}.jinja").read_text())
        for suffix, tools in ((".txt", data["tools"]), (".notools.txt", None)):
            text = tmpl.render(
                messages=data["messages"], tools=tools, documents=None, add_generation_prompt=True, **tokens
            )
            (out / f"{name}{suffix}").write_text(text)
            rendered.append(text)
    # Python idioms, with tools only (the template maps over them); not in the training corpus.
    tmpl = env.from_string((HERE / "idioms.jinja").read_text())
    text = tmpl.render(messages=data["messages"], tools=data["tools"], documents=None, add_generation_prompt=True)
    (out / "idioms.txt").write_text(text)
    # A tokenizer_config.json with named templates and an AddedToken-dict bos_token, as Mistral's
    # and Cohere's configs have them.
    config = {
        "add_bos_token": True,
        "bos_token": {"__type": "AddedToken", "content": "<s>", "lstrip": False, "normalized": False,
                      "rstrip": False, "single_word": False},
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "chat_template": [
            {"name": "default", "template": (HERE / "chatml.jinja").read_text()},
            {"name": "tool_use", "template": (HERE / "mistral.jinja").read_text()},
        ],
    }
    (HERE / "tokenizer_config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n")
    return rendered


SENTENCES = [
    "Hello world! I'm here, you're there, WE'LL see.",
    "The weather in Zürich is 7 °C and cloudy; flights from Paris leave at 07:15.",
    "Numbers: 12345, 3.14159, 2025-03-14.",
    '{"name": "get_weather", "arguments": {"location": "Paris"}}',
    "def main():\n    return 0\n\n\n",
]

STRINGS = SENTENCES + [
    "",
    "a  \n\n  b",
    "trailing   ",
    "\n\n\n",
    "  leading spaces",
    "tab\tand\r\nCRLF\r\n",
    "héllo wörld",
    "日本語のテキスト",
    "🙂 emoji 🚀!",
    "$$$ ((( ))) ...",
    "Ǆungla ǅ titlecase",
    "a\u00a0b no-break space",
    "don'T DON'T it'S",
    "<|im_start|>user\nhi<|im_end|>\n",
    "x<tool_call>y</tool_call>z",
    "<s>[INST] hi [/INST]</s>",
    "e\u0301 combining",
]


def train_byte_level(corpus):
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2), behavior="isolated", invert=False),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    tok.decoder = decoders.ByteLevel()
    special = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|begin_of_text|>", "<|start_header_id|>",
               "<|end_header_id|>", "<|eot_id|>"]
    trainer = trainers.BpeTrainer(vocab_size=420, min_frequency=2, special_tokens=special,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    tok.add_tokens(["<tool_call>", "</tool_call>"])  # added, not special (as Qwen2.5 has them)
    return json.loads(tok.to_str())


def train_sentencepiece(corpus):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=True)
    trainer = trainers.BpeTrainer(vocab_size=300, min_frequency=2, special_tokens=["<unk>", "<s>", "</s>"],
                                  limit_alphabet=50, show_progress=False)
    tok.train_from_iterator(corpus, trainer)
    j = json.loads(tok.to_str())
    # SentencePiece's layout: specials, then the 256 byte tokens, then the pieces.
    old = j["model"]["vocab"]
    vocab = {}
    for t in ["<unk>", "<s>", "</s>"]:
        vocab[t] = len(vocab)
    for b in range(256):
        vocab[f"<0x{b:02X}>"] = len(vocab)
    for t, _ in sorted(old.items(), key=lambda kv: kv[1]):
        if t not in vocab:
            vocab[t] = len(vocab)
    j["model"]["vocab"] = vocab
    for a in j["added_tokens"]:
        a["id"] = vocab[a["content"]]
    j["decoder"] = {"type": "Sequence", "decoders": [
        {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
        {"type": "ByteFallback"}, {"type": "Fuse"}, {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}
    return j


def split(regex, byte_level_regex=False, prefix=False):
    steps = []
    if regex:
        steps.append({"type": "Split", "pattern": {"Regex": regex}, "behavior": "Isolated", "invert": False})
    steps.append({"type": "ByteLevel", "add_prefix_space": prefix, "trim_offsets": False,
                  "use_regex": byte_level_regex})
    return {"type": "Sequence", "pretokenizers": steps}


def variants():
    return {
        "tiny-bpe": {
            "qwen2": {},
            "llama3": {"normalizer": None, "pre_tokenizer": split(LLAMA3)},
            "gpt2": {"normalizer": None, "pre_tokenizer": split(None, byte_level_regex=True)},
            "gpt2-prefix": {"normalizer": None, "pre_tokenizer": split(None, byte_level_regex=True, prefix=True)},
        },
        "tiny-sp": {
            "metaspace-first": {"pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                                                  "prepend_scheme": "first", "split": False}},
            "metaspace-split": {"pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581",
                                                  "prepend_scheme": "always", "split": True}},
            "llama2-normalizer": {"pre_tokenizer": None, "normalizer": {"type": "Sequence", "normalizers": [
                {"type": "Prepend", "prepend": "\u2581"},
                {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}]}},
        },
    }


def main():
    from tokenizers import Tokenizer

    rendered = render_templates()
    corpus = SENTENCES * 3 + rendered
    trained = {"tiny-bpe": train_byte_level(corpus), "tiny-sp": train_sentencepiece(corpus)}
    strings = STRINGS + rendered[:2]
    result = {"strings": strings, "tokenizers": {}}
    for name, base in trained.items():
        (HERE / name).mkdir(exist_ok=True)
        (HERE / name / "tokenizer.json").write_text(json.dumps(base, ensure_ascii=False, indent=1) + "\n")
        out = {}
        vs = variants()[name]
        if name == "tiny-bpe":
            # Llama 3's model flag: a piece that is a token is taken whole, before any merge.
            # A whole-word token no merge reaches (" Zürich", byte-level) shows the flag.
            vocab = dict(base["model"]["vocab"])
            vocab["\u0120Z\u00c3\u00bcrich"] = max(vocab.values()) + 100
            model = dict(base["model"], ignore_merges=True, vocab=vocab)
            vs["llama3-ignore-merges"] = dict(vs["llama3"], model=model)
        for vname, patch in vs.items():
            j = copy.deepcopy(base)
            j.update(patch)
            tok = Tokenizer.from_str(json.dumps(j))
            out[vname] = {"patch": patch,
                          "ids": [tok.encode(s, add_special_tokens=False).ids for s in strings]}
        result["tokenizers"][name] = out
    (HERE / "expected" / "tokens.json").write_text(json.dumps(result, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
