//! A byte-level BPE tokenizer with tiktoken's algorithm: the text is split into pieces by the
//! encoding's pre-tokenisation pattern, then each piece's bytes are merged pairwise, lowest rank
//! first, until no adjacent pair is in the vocabulary.
//!
//! The two patterns (`cl100k_base`, `o200k_base`) are written out by hand instead of run through
//! a regex engine: both need Unicode general categories and a look-ahead (`\s+(?!\S)`), which
//! `regex-lite` lacks and `fancy-regex` would bring with megabytes of tables into the wasm. The
//! splitter follows the regexes' leftmost-alternative, backtracking semantics branch by branch;
//! `tests/sdk/tokens.py` checks it against the `tiktoken` package on many strings.
//!
//! Vocabularies are not compiled into the wasm: [`Vocab::from_bytes`] reads the compact form built
//! by `assets/vocab/build.py` (raw DEFLATE of the tokens in rank order), which the page fetches
//! when the cost view opens. The native build embeds both ([`Vocab::builtin`]).

use std::collections::HashMap;
use unicode_general_category::{get_general_category, GeneralCategory as G};

/// A tiktoken encoding Toolscope knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// gpt-4, gpt-3.5-turbo, text-embedding-3.
    Cl100k,
    /// gpt-4o, gpt-4.1, gpt-5, o1/o3/o4, gpt-oss.
    O200k,
}

impl Encoding {
    /// `cl100k_base` or `o200k_base`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Cl100k => "cl100k_base",
            Encoding::O200k => "o200k_base",
        }
    }

    /// By name (`cl100k_base`, `o200k_base`).
    pub fn from_name(name: &str) -> Option<Encoding> {
        match name {
            "cl100k_base" => Some(Encoding::Cl100k),
            "o200k_base" => Some(Encoding::O200k),
            _ => None,
        }
    }

    /// The file name of the compact vocabulary (`assets/vocab/<name>.bin`, `dist/vocab/…`).
    pub fn file_name(self) -> &'static str {
        match self {
            Encoding::Cl100k => "cl100k_base.bin",
            Encoding::O200k => "o200k_base.bin",
        }
    }
}

/// Why a vocabulary could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VocabError(pub String);

impl std::fmt::Display for VocabError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "vocabulary: {}", self.0)
    }
}

impl std::error::Error for VocabError {}

/// Largest inflated vocabulary accepted (o200k is 1.6 MB): a damaged or hostile file stops here.
const MAX_RAW: usize = 8 << 20;

/// A loaded vocabulary: token bytes → rank, for one encoding.
#[derive(Debug, Clone)]
pub struct Vocab {
    encoding: Encoding,
    ranks: HashMap<Box<[u8]>, u32>,
    /// Rank → bytes, for decoding (tests, the page's token view).
    tokens: Vec<Box<[u8]>>,
}

impl Vocab {
    /// Reads the compact form (`assets/vocab/<name>.bin`): raw DEFLATE of `TSV1`, a u32 LE
    /// count, then each token as a length byte and its bytes, in rank order.
    pub fn from_bytes(encoding: Encoding, deflated: &[u8]) -> Result<Vocab, VocabError> {
        let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(deflated, MAX_RAW)
            .map_err(|e| VocabError(format!("not a DEFLATE stream ({:?})", e.status)))?;
        let body = raw
            .strip_prefix(b"TSV1")
            .ok_or_else(|| VocabError("missing TSV1 header".into()))?;
        let (count, mut rest) = body
            .split_first_chunk::<4>()
            .ok_or_else(|| VocabError("truncated header".into()))?;
        let n = u32::from_le_bytes(*count) as usize;
        if n > raw.len() {
            return Err(VocabError(format!("count {n} exceeds the data")));
        }
        let mut ranks = HashMap::with_capacity(n);
        let mut tokens = Vec::with_capacity(n);
        for rank in 0..n {
            let (&len, tail) = rest
                .split_first()
                .ok_or_else(|| VocabError(format!("truncated at token {rank}")))?;
            let len = usize::from(len);
            if len == 0 || tail.len() < len {
                return Err(VocabError(format!("bad token {rank}")));
            }
            let tok: Box<[u8]> = tail[..len].into();
            ranks.insert(tok.clone(), rank as u32);
            tokens.push(tok);
            rest = &tail[len..];
        }
        // Every single byte must be a token, or some text could not be encoded at all.
        if (0..=255u8).any(|b| !ranks.contains_key(&[b][..])) {
            return Err(VocabError("not every byte is a token".into()));
        }
        Ok(Vocab {
            encoding,
            ranks,
            tokens,
        })
    }

    /// The vocabulary built into the native binary (never into the wasm, which fetches it).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn builtin(encoding: Encoding) -> &'static Vocab {
        use std::sync::OnceLock;
        static CL100K: OnceLock<Vocab> = OnceLock::new();
        static O200K: OnceLock<Vocab> = OnceLock::new();
        let (cell, bytes): (_, &[u8]) = match encoding {
            Encoding::Cl100k => (
                &CL100K,
                include_bytes!("../../assets/vocab/cl100k_base.bin"),
            ),
            Encoding::O200k => (&O200K, include_bytes!("../../assets/vocab/o200k_base.bin")),
        };
        cell.get_or_init(|| {
            // The embedded files are checked by the tests; a failure here is a build defect.
            Vocab::from_bytes(encoding, bytes).expect("embedded vocabulary")
        })
    }

    /// Which encoding this is.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Number of ordinary tokens.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True for an empty vocabulary (never, once loaded).
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The bytes of a token.
    pub fn token_bytes(&self, rank: u32) -> Option<&[u8]> {
        self.tokens.get(rank as usize).map(|t| &t[..])
    }

    /// The tokens of `text`, as tiktoken's `encode_ordinary` (special tokens are plain text).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for piece in split(self.encoding, text) {
            self.encode_piece(piece.as_bytes(), &mut out);
        }
        out
    }

    /// How many tokens `text` is; the same as `encode(text).len()`.
    pub fn count(&self, text: &str) -> usize {
        let mut n = 0;
        let mut buf = Vec::new();
        for piece in split(self.encoding, text) {
            if self.ranks.contains_key(piece.as_bytes()) {
                n += 1;
            } else {
                buf.clear();
                self.encode_piece(piece.as_bytes(), &mut buf);
                n += buf.len();
            }
        }
        n
    }

    /// The text of some tokens (lossy where a token splits a character).
    pub fn decode(&self, tokens: &[u32]) -> String {
        let mut bytes = Vec::new();
        for &t in tokens {
            if let Some(b) = self.token_bytes(t) {
                bytes.extend_from_slice(b);
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn rank(&self, bytes: &[u8]) -> Option<u32> {
        self.ranks.get(bytes).copied()
    }

    /// Byte-pair merge of one piece (tiktoken's `byte_pair_encode`).
    fn encode_piece(&self, piece: &[u8], out: &mut Vec<u32>) {
        if piece.is_empty() {
            return;
        }
        if let Some(r) = self.rank(piece) {
            out.push(r);
            return;
        }
        if piece.len() > LONG_PIECE {
            return self.encode_long_piece(piece, out);
        }
        // parts[i] = (start, rank of the pair starting at part i); the last two are sentinels.
        let mut parts: Vec<(usize, u32)> = Vec::with_capacity(piece.len() + 1);
        for i in 0..piece.len() - 1 {
            parts.push((i, self.rank(&piece[i..i + 2]).unwrap_or(u32::MAX)));
        }
        parts.push((piece.len() - 1, u32::MAX));
        parts.push((piece.len(), u32::MAX));
        let pair_rank = |parts: &[(usize, u32)], i: usize| -> u32 {
            if i + 3 < parts.len() {
                self.rank(&piece[parts[i].0..parts[i + 3].0])
                    .unwrap_or(u32::MAX)
            } else {
                u32::MAX
            }
        };
        loop {
            // The lowest-ranked pair, leftmost on ties.
            let mut min = (u32::MAX, 0);
            for (i, &(_, r)) in parts[..parts.len() - 1].iter().enumerate() {
                if r < min.0 {
                    min = (r, i);
                }
            }
            if min.0 == u32::MAX {
                break;
            }
            let i = min.1;
            parts[i].1 = pair_rank(&parts, i);
            if i > 0 {
                parts[i - 1].1 = pair_rank(&parts, i - 1);
            }
            parts.remove(i + 1);
        }
        for w in parts.windows(2) {
            // Every merged part is a token by construction; single bytes always are.
            out.push(self.rank(&piece[w[0].0..w[1].0]).unwrap_or(0));
        }
    }

    /// The same merge order for a long piece (a pasted base64 blob, a run of symbols) in
    /// O(n log n): a heap of adjacent pairs by (rank, position) over a linked list of parts,
    /// stale entries skipped. The quadratic scan above would stall the page on such input.
    fn encode_long_piece(&self, piece: &[u8], out: &mut Vec<u32>) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = piece.len();
        // Part i starts at byte `start[i]` (parts are created one per byte, so start[i] = i)
        // and ends where `next[i]` starts; `n` is the end sentinel.
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let mut version = vec![0u32; n];
        let mut heap = BinaryHeap::new();
        let pair = |i: usize, next: &[usize]| -> Option<u32> {
            let j = next[i];
            if j >= n {
                return None;
            }
            self.rank(&piece[i..next[j]])
        };
        for i in 0..n {
            if let Some(r) = pair(i, &next) {
                heap.push(Reverse((r, i, 0u32)));
            }
        }
        while let Some(Reverse((_, i, v))) = heap.pop() {
            if !alive[i] || version[i] != v {
                continue;
            }
            // Merge part i with the part after it.
            let j = next[i];
            alive[j] = false;
            next[i] = next[j];
            if next[i] < n {
                prev[next[i]] = i;
            }
            version[i] += 1;
            if let Some(r) = pair(i, &next) {
                heap.push(Reverse((r, i, version[i])));
            }
            let p = prev[i];
            if p < n {
                version[p] += 1;
                if let Some(r) = pair(p, &next) {
                    heap.push(Reverse((r, p, version[p])));
                }
            }
        }
        let mut i = 0;
        while i < n {
            out.push(self.rank(&piece[i..next[i]]).unwrap_or(0));
            i = next[i];
        }
    }
}

/// Pieces longer than this many bytes are merged with the heap ([`Vocab::encode_long_piece`]).
const LONG_PIECE: usize = 128;

// ---- pre-tokenisation -------------------------------------------------------------------------

fn is_letter(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::LowercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
    )
}

fn is_number(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::DecimalNumber | G::LetterNumber | G::OtherNumber
    )
}

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]` of o200k.
fn is_upperish(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::UppercaseLetter
            | G::TitlecaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
    )
}

/// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]` of o200k.
fn is_lowerish(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::LowercaseLetter
            | G::ModifierLetter
            | G::OtherLetter
            | G::NonspacingMark
            | G::SpacingMark
            | G::EnclosingMark
    )
}

/// `\s`: the Unicode White_Space property, as the regex crates define it.
fn is_space(c: char) -> bool {
    c.is_whitespace()
}

fn is_crlf(c: char) -> bool {
    c == '\r' || c == '\n'
}

/// `[^\s\p{L}\p{N}]`.
fn is_punct(c: char) -> bool {
    !is_space(c) && !is_letter(c) && !is_number(c)
}

/// `[^\r\n\p{L}\p{N}]`.
fn is_prefix(c: char) -> bool {
    !is_crlf(c) && !is_letter(c) && !is_number(c)
}

/// The text with byte positions (always char boundaries), so branches can look ahead and back
/// without a copy of the text: a 16 MiB message stays 16 MiB.
struct Chars<'a> {
    text: &'a str,
}

impl Chars<'_> {
    fn len(&self) -> usize {
        self.text.len()
    }
    fn at(&self, i: usize) -> Option<char> {
        self.text.get(i..).and_then(|t| t.chars().next())
    }
    fn is(&self, i: usize, f: impl Fn(char) -> bool) -> bool {
        self.at(i).is_some_and(f)
    }
    /// The position after the char at `i` (the end stays the end).
    fn next(&self, i: usize) -> usize {
        self.at(i).map_or(self.len(), |c| i + c.len_utf8())
    }
    /// The position of the char before `i`.
    fn prev(&self, i: usize) -> usize {
        self.text
            .get(..i)
            .and_then(|t| t.chars().next_back())
            .map_or(0, |c| i - c.len_utf8())
    }
    /// The end of the run of `f` chars starting at `i`.
    fn run(&self, mut i: usize, f: impl Fn(char) -> bool) -> usize {
        while let Some(c) = self.at(i).filter(|&c| f(c)) {
            i += c.len_utf8();
        }
        i
    }
    /// Up to `max` `\p{N}` from `i`.
    fn digits(&self, i: usize, max: usize) -> usize {
        let mut e = i;
        for _ in 0..max {
            match self.at(e) {
                Some(c) if is_number(c) => e += c.len_utf8(),
                _ => break,
            }
        }
        e
    }
}

/// Splits `text` into the pieces the encoding's pattern matches, in order; they cover the text.
pub fn split(encoding: Encoding, text: &str) -> Vec<&str> {
    split_pattern(
        match encoding {
            Encoding::Cl100k => Pattern::Cl100k,
            Encoding::O200k => Pattern::O200k,
        },
        text,
    )
}

/// A pre-tokenisation pattern with a hand-written splitter: tiktoken's two and those the
/// Hugging Face tokenizers of open-weight models use (`src/cost/hf`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// tiktoken `cl100k_base`.
    Cl100k,
    /// tiktoken `o200k_base`.
    O200k,
    /// Llama 3 (cl100k's branches without the possessive `\s++$`, line breaks as o200k).
    Llama3,
    /// Qwen2 / Qwen2.5 / Qwen3: Llama 3's with single digits (`\p{N}`).
    Qwen2,
    /// GPT-2 (the `ByteLevel` pre-tokenizer's own regex).
    Gpt2,
}

/// Splits `text` into the pieces `pattern` matches, in order; they cover the text.
pub fn split_pattern(pattern: Pattern, text: &str) -> Vec<&str> {
    let s = Chars { text };
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let end = match pattern {
            Pattern::Cl100k => next_cl100k(&s, i, 3, true),
            Pattern::O200k => next_o200k(&s, i),
            Pattern::Llama3 => next_cl100k(&s, i, 3, false),
            Pattern::Qwen2 => next_cl100k(&s, i, 1, false),
            Pattern::Gpt2 => next_gpt2(&s, i),
        };
        // Every char matches some branch; the guard keeps a logic slip from looping forever.
        let end = end.max(s.next(i));
        out.push(&text[i..end]);
        i = end;
    }
    out
}

/// Shared whitespace branches: `\s*[\r\n]` (cl100k) / `\s*[\r\n]+` (o200k) end after the last
/// line break of the whitespace run; `\s+(?!\S)` leaves the run's last char to the next word.
fn whitespace(s: &Chars, i: usize, end_first: bool) -> usize {
    let run = s.run(i, is_space);
    // cl100k tries `\s++$` before the line-break branch; o200k has no such branch, and its
    // `\s+(?!\S)` takes a trailing run only when no line break is in it.
    if end_first && run == s.len() {
        return run;
    }
    // Line breaks are single bytes, so the last one is found on the bytes.
    if let Some(k) = s.text.as_bytes()[i..run]
        .iter()
        .rposition(|&b| b == b'\r' || b == b'\n')
    {
        return i + k + 1;
    }
    give_back_last(s, i, run)
}

/// `\s+(?!\S)|\s+` on the whitespace run `i..run`: to the end of the text the whole run, else
/// all but its last char (left to the next word), or the lone char.
fn give_back_last(s: &Chars, i: usize, run: usize) -> usize {
    if run == s.len() {
        return run;
    }
    let last = s.prev(run);
    if last > i {
        last
    } else {
        run
    }
}

/// One piece of cl100k_base:
/// `'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s`
///
/// Llama 3 and Qwen2 share the branches but end whitespace as o200k does (`end_first` false:
/// `\s*[\r\n]+|\s+(?!\S)|\s+`), Qwen2 with one digit per piece (`max_digits`).
fn next_cl100k(s: &Chars, i: usize, max_digits: usize, end_first: bool) -> usize {
    let c = match s.at(i) {
        Some(c) => c,
        None => return i,
    };
    let i1 = i + c.len_utf8();
    if c == '\'' {
        let i2 = s.next(i1);
        match (s.at(i1).map(fold), s.at(i2).map(fold)) {
            (Some('s' | 'd' | 'm' | 't'), _) => return i2,
            (Some('l'), Some('l')) | (Some('v'), Some('e')) | (Some('r'), Some('e')) => {
                return s.next(i2)
            }
            _ => {}
        }
    }
    if is_letter(c) {
        return s.run(i, is_letter);
    }
    if is_prefix(c) && s.is(i1, is_letter) {
        return s.run(i1, is_letter);
    }
    if is_number(c) {
        return s.digits(i, max_digits);
    }
    let p = if c == ' ' && s.is(i1, is_punct) {
        i1
    } else {
        i
    };
    if s.is(p, is_punct) {
        let e = s.run(p, is_punct);
        return s.run(e, is_crlf);
    }
    whitespace(s, i, end_first)
}

/// One piece of GPT-2's pattern:
/// `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`.
fn next_gpt2(s: &Chars, i: usize) -> usize {
    let c = match s.at(i) {
        Some(c) => c,
        None => return i,
    };
    let i1 = i + c.len_utf8();
    if c == '\'' {
        // Case-sensitive, unlike cl100k's.
        match (s.at(i1), s.at(s.next(i1))) {
            (Some('r'), Some('e')) | (Some('v'), Some('e')) | (Some('l'), Some('l')) => {
                return s.next(s.next(i1))
            }
            (Some('s' | 't' | 'm' | 'd'), _) => return s.next(i1),
            _ => {}
        }
    }
    let p = if c == ' ' { i1 } else { i };
    for class in [is_letter as fn(char) -> bool, is_number, is_punct] {
        if s.is(p, class) {
            return s.run(p, class);
        }
        if s.is(i, class) {
            return s.run(i, class);
        }
    }
    give_back_last(s, i, s.run(i, is_space))
}

/// One piece of o200k_base (the alternatives in order):
/// `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
/// `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
/// `\p{N}{1,3}`, ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, `\s*[\r\n]+`, `\s+(?!\S)`, `\s+`.
fn next_o200k(s: &Chars, i: usize) -> usize {
    let c = match s.at(i) {
        Some(c) => c,
        None => return i,
    };
    let i1 = i + c.len_utf8();
    // The optional prefix is tried taken first, then not (a mark is both a prefix and a letter).
    let starts: &[usize] = if is_prefix(c) { &[i1, i] } else { &[i] };
    for &p in starts {
        if let Some(e) = o200k_word_lower(s, p) {
            return contraction(s, e);
        }
    }
    for &p in starts {
        let u = s.run(p, is_upperish);
        if u > p {
            return contraction(s, s.run(u, is_lowerish));
        }
    }
    if is_number(c) {
        return s.digits(i, 3);
    }
    let p = if c == ' ' && s.is(i1, is_punct) {
        i1
    } else {
        i
    };
    if s.is(p, is_punct) {
        let e = s.run(p, is_punct);
        return s.run(e, |c| is_crlf(c) || c == '/');
    }
    whitespace(s, i, false)
}

/// `[upper]*[lower]+` from `p` with backtracking: the end, or `None`.
fn o200k_word_lower(s: &Chars, p: usize) -> Option<usize> {
    let u = s.run(p, is_upperish);
    // Greedy `[upper]*` gives back chars until `[lower]+` can start.
    let mut k = u;
    loop {
        if s.is(k, is_lowerish) {
            return Some(s.run(k, is_lowerish));
        }
        if k <= p {
            return None;
        }
        k = s.prev(k);
    }
}

/// Simple case folding for the contraction letters of `(?i:…)` (`ſ` folds to `s`, `K` Kelvin to `k`).
fn fold(c: char) -> char {
    match c {
        '\u{17F}' => 's',
        '\u{212A}' => 'k',
        c => c.to_ascii_lowercase(),
    }
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)?` after a word ending at `e`.
fn contraction(s: &Chars, e: usize) -> usize {
    if s.at(e) != Some('\'') {
        return e;
    }
    let e1 = e + 1;
    let e2 = s.next(e1);
    match (s.at(e1).map(fold), s.at(e2).map(fold)) {
        (Some('r'), Some('e')) | (Some('v'), Some('e')) | (Some('l'), Some('l')) => s.next(e2),
        (Some('s' | 't' | 'm' | 'd'), _) => e2,
        _ => e,
    }
}
