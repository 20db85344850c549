//! A Hugging Face `tokenizer.json` with a BPE model, encoded as the `tokenizers` library does
//! with `add_special_tokens=False` (a chat template writes its own `<s>` or `<|begin_of_text|>`).
//!
//! The pipeline: added tokens are cut out of the text first (leftmost, longest); each stretch
//! between them is normalized (`Prepend`, `Replace`, `Lowercase`, `Strip`, and the Unicode forms
//! `NFC`, `NFKC`, `NFD`, `NFKD` by the `unicode-normalization` crate), pre-tokenized (`ByteLevel`, `Split` with a known pattern, `Metaspace`, `Digits`,
//! `Sequence`), and each piece is merged by the BPE model: lowest merge rank first, leftmost on
//! ties, with `byte_fallback` (`<0x41>`) or the unknown token for characters not in the vocab.
//!
//! `Split` patterns are regexes with Unicode classes; rather than a regex engine with its tables,
//! the patterns open-weight models use are recognized and run by the hand-written splitters of
//! [`crate::cost::bpe`] (GPT-2, Llama 3, Qwen2, cl100k, o200k). Any other pattern is an error that
//! names it, never a silent guess.

use crate::cost::bpe::{split_pattern, Pattern};
use serde_json::Value as Json;
use std::collections::HashMap;

/// Largest `tokenizer.json` accepted (Llama 3's is 9 MB, Qwen2.5's 7 MB).
pub const MAX_JSON: usize = 48 << 20;
/// Most vocabulary entries and merges accepted.
const MAX_ENTRIES: usize = 2_000_000;

/// A loaded `tokenizer.json` (BPE model).
#[derive(Debug, Clone)]
pub struct Tokenizer {
    vocab: HashMap<String, u32>,
    /// Single-character tokens, so a piece's first symbols need no string per character.
    chars: HashMap<char, u32>,
    /// Id → token text, for [`Tokenizer::decode`].
    tokens: Vec<String>,
    /// `(left, right)` → `(rank, merged)`.
    merges: HashMap<(u32, u32), (u32, u32)>,
    added: Vec<Added>,
    /// Bytes an added token starts with, so most positions skip the search.
    added_first: [bool; 256],
    normalizers: Vec<Norm>,
    pre: Vec<Pre>,
    /// A `ByteLevel` step maps the bytes to GPT-2's printable characters.
    byte_level: bool,
    unk: Option<u32>,
    fuse_unk: bool,
    byte_fallback: bool,
    ignore_merges: bool,
    prefix: String,
    suffix: String,
    /// The `Metaspace` replacement, for decoding.
    metaspace: Option<char>,
}

#[derive(Debug, Clone)]
struct Added {
    content: String,
    id: u32,
    lstrip: bool,
    rstrip: bool,
    single_word: bool,
    special: bool,
}

#[derive(Debug, Clone)]
enum Norm {
    Prepend(String),
    Replace(String, String),
    Lowercase,
    Strip(bool, bool),
    /// A Unicode normalization form.
    Form(Form),
}

/// The Unicode normalization forms a `tokenizer.json` names.
#[derive(Debug, Clone, Copy)]
enum Form {
    Nfc,
    Nfkc,
    Nfd,
    Nfkd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Behavior {
    Removed,
    Isolated,
    MergedWithPrevious,
    MergedWithNext,
    Contiguous,
}

#[derive(Debug, Clone)]
enum Matcher {
    Pattern(Pattern),
    Literal(String),
}

#[derive(Debug, Clone)]
enum Pre {
    ByteLevel {
        add_prefix_space: bool,
        regex: bool,
    },
    Split {
        m: Matcher,
        behavior: Behavior,
        invert: bool,
    },
    Metaspace {
        replacement: char,
        prepend: Prepend,
        split: bool,
    },
    Digits {
        individual: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prepend {
    Always,
    First,
    Never,
}

/// The Split regexes Toolscope runs, with possessive quantifiers dropped (they change nothing
/// for these patterns), and which splitter runs each.
const PATTERNS: &[(&str, Pattern)] = &[
    (
        r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
        Pattern::Gpt2,
    ),
    (
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        Pattern::Llama3,
    ),
    (
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        Pattern::Qwen2,
    ),
    (
        r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s",
        Pattern::Cl100k,
    ),
    (
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
        Pattern::O200k,
    ),
];

/// The splitter of a Split regex, if it is one Toolscope knows.
fn known_pattern(re: &str) -> Option<Pattern> {
    let plain = re
        .replace("?+", "?")
        .replace("++", "+")
        .replace("*+", "*")
        .replace("{1,3}+", "{1,3}");
    PATTERNS
        .iter()
        .find(|(p, _)| *p == plain)
        .map(|&(_, pat)| pat)
}

fn field<'a>(v: &'a Json, key: &str) -> Option<&'a Json> {
    v.get(key).filter(|x| !x.is_null())
}

fn flag(v: &Json, key: &str, default: bool) -> bool {
    v.get(key).and_then(Json::as_bool).unwrap_or(default)
}

fn type_of(v: &Json) -> &str {
    v.get("type").and_then(Json::as_str).unwrap_or("")
}

/// The steps of a `Sequence` (`normalizers`, `pretokenizers`).
fn steps<'a>(v: &'a Json, key: &str) -> Result<&'a [Json], String> {
    v.get(key)
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .ok_or_else(|| format!("a Sequence without {key}"))
}

fn normalizers(v: &Json, out: &mut Vec<Norm>) -> Result<(), String> {
    match type_of(v) {
        "Sequence" => {
            for n in steps(v, "normalizers")? {
                normalizers(n, out)?;
            }
        }
        "Prepend" => out.push(Norm::Prepend(
            v.get("prepend")
                .and_then(Json::as_str)
                .ok_or("Prepend without prepend")?
                .to_string(),
        )),
        "Replace" => {
            let pat = v.get("pattern").ok_or("Replace without pattern")?;
            let Some(s) = pat.get("String").and_then(Json::as_str) else {
                return Err(format!(
                    "normalizer Replace with a regex ({}) is not supported",
                    pat.get("Regex").and_then(Json::as_str).unwrap_or("?")
                ));
            };
            let content = v.get("content").and_then(Json::as_str).unwrap_or("");
            out.push(Norm::Replace(s.to_string(), content.to_string()));
        }
        "Lowercase" => out.push(Norm::Lowercase),
        "Strip" => out.push(Norm::Strip(
            flag(v, "strip_left", true),
            flag(v, "strip_right", true),
        )),
        "NFC" => out.push(Norm::Form(Form::Nfc)),
        "NFKC" => out.push(Norm::Form(Form::Nfkc)),
        "NFD" => out.push(Norm::Form(Form::Nfd)),
        "NFKD" => out.push(Norm::Form(Form::Nfkd)),
        t => return Err(format!("normalizer {t:?} is not supported")),
    }
    Ok(())
}

fn behavior(v: &Json) -> Result<Behavior, String> {
    Ok(
        match v
            .get("behavior")
            .and_then(Json::as_str)
            .unwrap_or("Isolated")
        {
            "Removed" => Behavior::Removed,
            "Isolated" => Behavior::Isolated,
            "MergedWithPrevious" => Behavior::MergedWithPrevious,
            "MergedWithNext" => Behavior::MergedWithNext,
            "Contiguous" => Behavior::Contiguous,
            b => return Err(format!("Split behavior {b:?} is not supported")),
        },
    )
}

fn pre_tokenizers(v: &Json, out: &mut Vec<Pre>) -> Result<(), String> {
    match type_of(v) {
        "Sequence" => {
            for p in steps(v, "pretokenizers")? {
                pre_tokenizers(p, out)?;
            }
        }
        "ByteLevel" => out.push(Pre::ByteLevel {
            add_prefix_space: flag(v, "add_prefix_space", true),
            regex: flag(v, "use_regex", true),
        }),
        "Split" => {
            let pat = v.get("pattern").ok_or("Split without pattern")?;
            let m = if let Some(re) = pat.get("Regex").and_then(Json::as_str) {
                Matcher::Pattern(known_pattern(re).ok_or_else(|| {
                    format!(
                        "the Split pattern {re:?} is not one Toolscope knows (GPT-2, Llama 3, \
                         Qwen2, cl100k, o200k): counting it would be a guess"
                    )
                })?)
            } else if let Some(s) = pat.get("String").and_then(Json::as_str) {
                if s.is_empty() {
                    return Err("Split with an empty string".into());
                }
                Matcher::Literal(s.to_string())
            } else {
                return Err("Split pattern is neither String nor Regex".into());
            };
            out.push(Pre::Split {
                m,
                behavior: behavior(v)?,
                invert: flag(v, "invert", false),
            });
        }
        "Metaspace" => {
            let replacement = v
                .get("replacement")
                .and_then(Json::as_str)
                .and_then(|s| s.chars().next())
                .unwrap_or('\u{2581}');
            // `prepend_scheme` since tokenizers 0.14; `add_prefix_space` before.
            let prepend = match v.get("prepend_scheme").and_then(Json::as_str) {
                Some("first") => Prepend::First,
                Some("never") => Prepend::Never,
                Some(_) => Prepend::Always,
                None if flag(v, "add_prefix_space", true) => Prepend::Always,
                None => Prepend::Never,
            };
            out.push(Pre::Metaspace {
                replacement,
                prepend,
                split: flag(v, "split", true),
            });
        }
        "Digits" => out.push(Pre::Digits {
            individual: flag(v, "individual_digits", false),
        }),
        t => return Err(format!("pre-tokenizer {t:?} is not supported")),
    }
    Ok(())
}

/// GPT-2's byte → printable character map (`bytes_to_unicode`).
fn byte_chars() -> [char; 256] {
    let mut map = ['\0'; 256];
    let mut n = 0u32;
    for b in 0..=255u8 {
        let printable = matches!(b, b'!'..=b'~' | 0xA1..=0xAC | 0xAE..=0xFF);
        map[b as usize] = if printable {
            char::from(b)
        } else {
            n += 1;
            char::from_u32(255 + n).unwrap_or('?')
        };
    }
    map
}

impl Tokenizer {
    /// Reads a Hugging Face `tokenizer.json` whose model is BPE.
    pub fn from_json(text: &str) -> Result<Tokenizer, String> {
        if text.len() > MAX_JSON {
            return Err(format!(
                "tokenizer.json passes {} MiB ({} bytes)",
                MAX_JSON >> 20,
                text.len()
            ));
        }
        let v: Json = serde_json::from_str(text)
            .map_err(|e| format!("tokenizer.json line {}: {e}", e.line()))?;
        let model = v.get("model").ok_or("tokenizer.json has no model")?;
        let kind = model.get("type").and_then(Json::as_str).unwrap_or("BPE");
        if kind != "BPE" {
            return Err(format!(
                "the model is {kind}; only BPE tokenizers are supported"
            ));
        }
        let vocab_json = model
            .get("vocab")
            .and_then(Json::as_object)
            .ok_or("the BPE model has no vocab")?;
        if vocab_json.len() > MAX_ENTRIES {
            return Err(format!("the vocab has more than {MAX_ENTRIES} entries"));
        }
        let mut vocab = HashMap::with_capacity(vocab_json.len());
        for (tok, id) in vocab_json {
            let id = id
                .as_u64()
                .and_then(|i| u32::try_from(i).ok())
                .ok_or_else(|| format!("vocab entry {tok:?} has no valid id"))?;
            vocab.insert(tok.clone(), id);
        }
        let mut added = Vec::new();
        for a in v
            .get("added_tokens")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            let (Some(content), Some(id)) = (
                a.get("content").and_then(Json::as_str),
                a.get("id")
                    .and_then(Json::as_u64)
                    .and_then(|i| u32::try_from(i).ok()),
            ) else {
                return Err("an added token needs a content and an id".into());
            };
            if content.is_empty() {
                continue;
            }
            vocab.entry(content.to_string()).or_insert(id);
            added.push(Added {
                content: content.to_string(),
                id,
                lstrip: flag(a, "lstrip", false),
                rstrip: flag(a, "rstrip", false),
                single_word: flag(a, "single_word", false),
                special: flag(a, "special", false),
            });
        }
        let max_id = vocab.values().copied().max().unwrap_or(0) as usize;
        // Ids are dense in real files; a stray huge one must not make a huge table.
        if max_id > vocab.len() * 2 + 1024 {
            return Err(format!(
                "token id {max_id} is far past the {} tokens",
                vocab.len()
            ));
        }
        let mut tokens = vec![String::new(); max_id + 1];
        for (t, &id) in &vocab {
            tokens[id as usize] = t.clone();
        }
        let list = model
            .get("merges")
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if list.len() > MAX_ENTRIES {
            return Err(format!("more than {MAX_ENTRIES} merges"));
        }
        let mut merges = HashMap::with_capacity(list.len());
        for (rank, m) in list.iter().enumerate() {
            // "a b" (tokenizers < 0.20) or ["a", "b"].
            let (a, b) = match m {
                Json::String(s) => s
                    .split_once(' ')
                    .ok_or_else(|| format!("merge {rank} ({s:?}) is not two tokens"))?,
                Json::Array(p) if p.len() == 2 => match (p[0].as_str(), p[1].as_str()) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return Err(format!("merge {rank} is not two strings")),
                },
                _ => return Err(format!("merge {rank} is neither \"a b\" nor [a, b]")),
            };
            let id = |t: &str| {
                vocab
                    .get(t)
                    .copied()
                    .ok_or_else(|| format!("merge {rank}: {t:?} is not in the vocab"))
            };
            let joined = format!("{a}{b}");
            let (ia, ib, ij) = (id(a)?, id(b)?, id(&joined)?);
            merges.entry((ia, ib)).or_insert((rank as u32, ij));
        }
        let mut norms = Vec::new();
        if let Some(n) = field(&v, "normalizer") {
            normalizers(n, &mut norms)?;
        }
        let mut pre = Vec::new();
        if let Some(p) = field(&v, "pre_tokenizer") {
            pre_tokenizers(p, &mut pre)?;
        }
        let byte_level = pre.iter().any(|p| matches!(p, Pre::ByteLevel { .. }))
            || field(&v, "decoder").is_some_and(|d| {
                type_of(d) == "ByteLevel"
                    || d.get("decoders")
                        .and_then(Json::as_array)
                        .is_some_and(|ds| ds.iter().any(|d| type_of(d) == "ByteLevel"))
            });
        let metaspace = pre.iter().find_map(|p| match p {
            Pre::Metaspace { replacement, .. } => Some(*replacement),
            _ => None,
        });
        let metaspace = metaspace.or_else(|| {
            norms.iter().find_map(|n| match n {
                Norm::Replace(from, to) if from == " " => to.chars().next(),
                _ => None,
            })
        });
        let unk = field(model, "unk_token")
            .and_then(Json::as_str)
            .and_then(|u| vocab.get(u).copied());
        // Longest first, so the leftmost match is also the longest.
        added.sort_by_key(|a| std::cmp::Reverse(a.content.len()));
        let mut added_first = [false; 256];
        for a in &added {
            added_first[a.content.as_bytes()[0] as usize] = true;
        }
        let chars = vocab
            .iter()
            .filter_map(|(t, &id)| {
                let mut it = t.chars();
                match (it.next(), it.next()) {
                    (Some(c), None) => Some((c, id)),
                    _ => None,
                }
            })
            .collect();
        Ok(Tokenizer {
            chars,
            added_first,
            tokens,
            merges,
            added,
            normalizers: norms,
            pre,
            byte_level,
            unk,
            fuse_unk: flag(model, "fuse_unk", false),
            byte_fallback: flag(model, "byte_fallback", false),
            ignore_merges: flag(model, "ignore_merges", false),
            prefix: field(model, "continuing_subword_prefix")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string(),
            suffix: field(model, "end_of_word_suffix")
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string(),
            metaspace,
            vocab,
        })
    }

    /// Number of token ids (the vocabulary with the added tokens).
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True for a tokenizer without tokens.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The special added tokens (`<|im_start|>`, `<s>`…) with their ids.
    pub fn special_tokens(&self) -> impl Iterator<Item = (&str, u32)> {
        self.added
            .iter()
            .filter(|a| a.special)
            .map(|a| (a.content.as_str(), a.id))
    }

    /// The id of a token (`<|im_start|>`, `Ġthe`), if it is one.
    pub fn token_id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).copied()
    }

    /// The token text of an id as the vocabulary spells it (`Ġthe`, `▁the`, `<0x0A>`).
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens
            .get(id as usize)
            .map(String::as_str)
            .filter(|t| !t.is_empty())
    }

    /// The token ids of `text` (no special tokens added: a chat template writes its own).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut cache: HashMap<String, Vec<u32>> = HashMap::new();
        for (k, seg) in self.segments(text).into_iter().enumerate() {
            match seg {
                Seg::Added(id) => out.push(id),
                Seg::Text(start, s) => {
                    let s = self.normalize(s);
                    for piece in self.pre_tokenize(&s, start == 0 && k == 0) {
                        if let Some(ids) = cache.get(&piece) {
                            out.extend_from_slice(ids);
                            continue;
                        }
                        let mut ids = Vec::new();
                        self.bpe(&piece, &mut ids);
                        out.extend_from_slice(&ids);
                        if cache.len() < 100_000 {
                            cache.insert(piece, ids);
                        }
                    }
                }
            }
        }
        out
    }

    /// How many tokens `text` is.
    pub fn count(&self, text: &str) -> usize {
        self.encode(text).len()
    }

    /// The text of some ids (lossy where a token splits a character).
    pub fn decode(&self, ids: &[u32]) -> String {
        let inverse: HashMap<char, u8> = if self.byte_level {
            byte_chars()
                .iter()
                .enumerate()
                .map(|(b, &c)| (c, b as u8))
                .collect()
        } else {
            HashMap::new()
        };
        let mut bytes = Vec::new();
        for &id in ids {
            let Some(t) = self.token(id) else { continue };
            if self.added.iter().any(|a| a.id == id) {
                bytes.extend_from_slice(t.as_bytes());
            } else if self.byte_level {
                bytes.extend(t.chars().map(|c| inverse.get(&c).copied().unwrap_or(b'?')));
            } else if let Some(b) = byte_token(t) {
                bytes.push(b);
            } else {
                match self.metaspace {
                    Some(r) => bytes.extend_from_slice(t.replace(r, " ").as_bytes()),
                    None => bytes.extend_from_slice(t.as_bytes()),
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The text cut at added tokens: `(offset, stretch)` and the tokens' ids.
    fn segments<'a>(&self, text: &'a str) -> Vec<Seg<'a>> {
        let mut out = Vec::new();
        let mut start = 0; // of the pending text stretch
        let mut i = 0;
        let bytes = text.as_bytes();
        while i < text.len() {
            if !self.added_first[bytes[i] as usize] || !text.is_char_boundary(i) {
                i += 1;
                continue;
            }
            let found = self.added.iter().find(|a| {
                bytes[i..].starts_with(a.content.as_bytes())
                    && (!a.single_word || {
                        let before = text[..i].chars().next_back();
                        let after = text[i + a.content.len()..].chars().next();
                        !before.is_some_and(is_word) && !after.is_some_and(is_word)
                    })
            });
            let Some(a) = found else {
                i += 1;
                continue;
            };
            let mut end_text = i;
            if a.lstrip {
                end_text = start + text[start..i].trim_end().len();
            }
            let mut next = i + a.content.len();
            if a.rstrip {
                next = text.len() - text[next..].trim_start().len();
            }
            if end_text > start {
                out.push(Seg::Text(start, &text[start..end_text]));
            }
            out.push(Seg::Added(a.id));
            start = next;
            i = next;
        }
        if start < text.len() {
            out.push(Seg::Text(start, &text[start..]));
        }
        out
    }

    fn normalize(&self, s: &str) -> String {
        let mut s = s.to_string();
        for n in &self.normalizers {
            match n {
                Norm::Prepend(p) => {
                    if !s.is_empty() {
                        s.insert_str(0, p);
                    }
                }
                Norm::Replace(from, to) => s = s.replace(from.as_str(), to),
                Norm::Lowercase => s = s.to_lowercase(),
                Norm::Strip(l, r) => {
                    if *l {
                        s = s.trim_start().to_string();
                    }
                    if *r {
                        s = s.trim_end().to_string();
                    }
                }
                Norm::Form(f) => {
                    use unicode_normalization::UnicodeNormalization;
                    // No copy where the form cannot change the text: ASCII in every form, and
                    // for NFC anything below the combining marks (U+0300).
                    let unchanged = match f {
                        Form::Nfc => s.chars().all(|c| (c as u32) < 0x300),
                        _ => s.is_ascii(),
                    };
                    if !unchanged {
                        s = match f {
                            Form::Nfc => s.nfc().collect(),
                            Form::Nfkc => s.nfkc().collect(),
                            Form::Nfd => s.nfd().collect(),
                            Form::Nfkd => s.nfkd().collect(),
                        };
                    }
                }
            }
        }
        s
    }

    /// The pieces the BPE model merges, in the model's alphabet.
    fn pre_tokenize(&self, s: &str, first: bool) -> Vec<String> {
        if s.is_empty() {
            return Vec::new();
        }
        let mut pieces = vec![s.to_string()];
        let map = byte_chars();
        for p in &self.pre {
            let mut next = Vec::with_capacity(pieces.len());
            for (k, piece) in pieces.iter().enumerate() {
                match p {
                    Pre::ByteLevel {
                        add_prefix_space,
                        regex,
                    } => {
                        let spaced;
                        let text = if *add_prefix_space && !piece.starts_with(' ') {
                            spaced = format!(" {piece}");
                            spaced.as_str()
                        } else {
                            piece.as_str()
                        };
                        let parts = if *regex {
                            split_pattern(Pattern::Gpt2, text)
                        } else {
                            vec![text]
                        };
                        for part in parts {
                            next.push(part.bytes().map(|b| map[b as usize]).collect());
                        }
                    }
                    Pre::Split {
                        m,
                        behavior,
                        invert,
                    } => {
                        let spans: Vec<(usize, usize)> = match m {
                            Matcher::Pattern(pat) => {
                                let mut at = 0;
                                split_pattern(*pat, piece)
                                    .into_iter()
                                    .map(|p| {
                                        let sp = (at, at + p.len());
                                        at += p.len();
                                        sp
                                    })
                                    .collect()
                            }
                            Matcher::Literal(lit) => piece
                                .match_indices(lit.as_str())
                                .map(|(i, m)| (i, i + m.len()))
                                .collect(),
                        };
                        split_by(piece, &spans, *behavior, *invert, &mut next);
                    }
                    Pre::Metaspace {
                        replacement,
                        prepend,
                        split,
                    } => {
                        let r = replacement.to_string();
                        let mut t = piece.replace(' ', &r);
                        let add = match prepend {
                            Prepend::Always => true,
                            Prepend::First => first && k == 0,
                            Prepend::Never => false,
                        };
                        if add && !t.starts_with(*replacement) {
                            t.insert(0, *replacement);
                        }
                        if *split {
                            let spans: Vec<(usize, usize)> = t
                                .match_indices(*replacement)
                                .map(|(i, m)| (i, i + m.len()))
                                .collect();
                            split_by(&t, &spans, Behavior::MergedWithNext, false, &mut next);
                        } else {
                            next.push(t);
                        }
                    }
                    Pre::Digits { individual } => {
                        let mut spans = Vec::new();
                        let mut it = piece.char_indices().peekable();
                        while let Some((i, c)) = it.next() {
                            if !c.is_ascii_digit() {
                                continue;
                            }
                            let mut end = i + 1;
                            if !individual {
                                while let Some(&(j, d)) = it.peek() {
                                    if !d.is_ascii_digit() {
                                        break;
                                    }
                                    end = j + 1;
                                    it.next();
                                }
                            }
                            spans.push((i, end));
                        }
                        split_by(piece, &spans, Behavior::Isolated, false, &mut next);
                    }
                }
            }
            pieces = next;
        }
        if self.byte_level && !self.pre.iter().any(|p| matches!(p, Pre::ByteLevel { .. })) {
            // A ByteLevel decoder without the pre-tokenizer (rare): map the bytes anyway.
            for p in &mut pieces {
                *p = p.bytes().map(|b| map[b as usize]).collect();
            }
        }
        pieces.retain(|p| !p.is_empty());
        pieces
    }

    /// BPE merges of one piece (the `tokenizers` `Word::merge_all` order: lowest rank first,
    /// leftmost on ties).
    fn bpe(&self, piece: &str, out: &mut Vec<u32>) {
        if self.ignore_merges && self.prefix.is_empty() && self.suffix.is_empty() {
            if let Some(&id) = self.vocab.get(piece) {
                out.push(id);
                return;
            }
        }
        // The initial symbols: one per character (with the word prefix and suffix).
        let mut syms: Vec<u32> = Vec::with_capacity(piece.len());
        let n = piece.chars().count();
        let mut last_unk = false;
        let plain = self.prefix.is_empty() && self.suffix.is_empty();
        for (k, c) in piece.chars().enumerate() {
            if let Some(&id) = plain.then(|| self.chars.get(&c)).flatten() {
                syms.push(id);
                last_unk = false;
                continue;
            }
            let mut s = String::new();
            if k > 0 {
                s.push_str(&self.prefix);
            }
            s.push(c);
            if k + 1 == n {
                s.push_str(&self.suffix);
            }
            if let Some(&id) = self.vocab.get(&s) {
                syms.push(id);
                last_unk = false;
                continue;
            }
            if self.byte_fallback {
                let mut buf = [0u8; 4];
                let ids: Option<Vec<u32>> = c
                    .encode_utf8(&mut buf)
                    .bytes()
                    .map(|b| self.vocab.get(&format!("<0x{b:02X}>")).copied())
                    .collect();
                if let Some(ids) = ids {
                    syms.extend(ids);
                    last_unk = false;
                    continue;
                }
            }
            if let Some(u) = self.unk {
                if !(self.fuse_unk && last_unk) {
                    syms.push(u);
                }
                last_unk = true;
            }
        }
        merge(&self.merges, &mut syms);
        out.extend_from_slice(&syms);
    }
}

enum Seg<'a> {
    Text(usize, &'a str),
    Added(u32),
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `<0x41>` → 0x41.
fn byte_token(t: &str) -> Option<u8> {
    let h = t.strip_prefix("<0x")?.strip_suffix('>')?;
    (h.len() == 2)
        .then(|| u8::from_str_radix(h, 16).ok())
        .flatten()
}

/// Cuts `s` at the matched `spans` (sorted, disjoint) as `behavior` says.
fn split_by(
    s: &str,
    spans: &[(usize, usize)],
    behavior: Behavior,
    invert: bool,
    out: &mut Vec<String>,
) {
    // (start, end, is_match) covering s.
    let mut parts = Vec::new();
    let mut at = 0;
    for &(a, b) in spans {
        if a > at {
            parts.push((at, a, invert));
        }
        if b > a {
            parts.push((a, b, !invert));
        }
        at = b;
    }
    if at < s.len() {
        parts.push((at, s.len(), invert));
    }
    let mut cur: Option<(usize, usize)> = None;
    let mut prev_match = false;
    for (a, b, m) in parts {
        match behavior {
            Behavior::Removed => {
                if !m {
                    out.push(s[a..b].to_string());
                }
            }
            Behavior::Isolated => out.push(s[a..b].to_string()),
            Behavior::MergedWithPrevious => {
                if m {
                    match cur.take() {
                        Some((ca, _)) => out.push(s[ca..b].to_string()),
                        None => out.push(s[a..b].to_string()),
                    }
                } else {
                    if let Some((ca, cb)) = cur.take() {
                        out.push(s[ca..cb].to_string());
                    }
                    cur = Some((a, b));
                }
            }
            Behavior::MergedWithNext => {
                if m {
                    if let Some((ca, cb)) = cur.take() {
                        out.push(s[ca..cb].to_string());
                    }
                    cur = Some((a, b));
                } else {
                    let start = cur.take().map_or(a, |(ca, _)| ca);
                    out.push(s[start..b].to_string());
                }
            }
            Behavior::Contiguous => {
                if m && prev_match {
                    if let Some((ca, _)) = cur {
                        cur = Some((ca, b));
                    }
                } else {
                    if let Some((ca, cb)) = cur.take() {
                        out.push(s[ca..cb].to_string());
                    }
                    cur = Some((a, b));
                }
            }
        }
        prev_match = m;
    }
    if let Some((ca, cb)) = cur {
        out.push(s[ca..cb].to_string());
    }
}

/// Merges adjacent symbols by rank until no pair is a merge: a heap of `(rank, position)`
/// over a linked list, stale entries skipped (O(n log n) for long pieces).
fn merge(merges: &HashMap<(u32, u32), (u32, u32)>, syms: &mut Vec<u32>) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = syms.len();
    if n < 2 {
        return;
    }
    let mut next: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    let mut heap = BinaryHeap::new();
    for i in 0..n - 1 {
        if let Some(&(r, m)) = merges.get(&(syms[i], syms[i + 1])) {
            heap.push(Reverse((r, i, syms[i], syms[i + 1], m)));
        }
    }
    while let Some(Reverse((_, i, a, b, m))) = heap.pop() {
        let j = next[i];
        // Stale: a side was merged away or changed since this pair was pushed.
        if !alive[i] || j >= n || !alive[j] || syms[i] != a || syms[j] != b {
            continue;
        }
        syms[i] = m;
        alive[j] = false;
        next[i] = next[j];
        if next[i] < n {
            prev[next[i]] = i;
        }
        let p = prev[i];
        if p < n {
            if let Some(&(r, mm)) = merges.get(&(syms[p], syms[i])) {
                heap.push(Reverse((r, p, syms[p], syms[i], mm)));
            }
        }
        let q = next[i];
        if q < n {
            if let Some(&(r, mm)) = merges.get(&(syms[i], syms[q])) {
                heap.push(Reverse((r, i, syms[i], syms[q], mm)));
            }
        }
    }
    let mut k = 0;
    let mut i = 0;
    while i < n {
        syms[k] = syms[i];
        k += 1;
        i = next[i];
    }
    syms.truncate(k);
}
