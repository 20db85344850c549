//! Wire formats: every provider's request and response bodies as views of the canonical model.
//!
//! Each format lives in its own folder with the same shape — `mod.rs` (spec links, what is lossy,
//! the [`Codec`] and [`spec::Spec`] impls: name, note, model and lint family, how requests are
//! sent), `wire.rs` (serde types), `convert.rs` (encode/decode), `stream.rs` where it streams
//! (assembler, event recognition, synthesis: [`spec::Streams`]). The `registry!` below holds
//! one line per format and builds [`Format`], [`Protocol`] and their dispatch from it; every
//! other module asks a `Format` or `Protocol`. Adding a format means a new folder and a
//! registry line: the compiler then lists what the folder must provide.

pub(crate) mod blocks;
pub mod field;
pub mod json;
pub mod limits;
pub mod notes;
pub mod prompt;
pub(crate) mod shared;
pub mod sniff;
pub mod spec;
pub(crate) mod turns;

pub mod ai_sdk;
pub mod anthropic;
pub mod anthropic_xml;
pub mod bedrock;
pub mod gemini;
pub mod mcp;
pub mod openai_chat;
pub mod openai_responses;

use crate::model::{ChosenModel, Exchange, Loss, ModelFamily};
use crate::providers::Rules;
use crate::schema::{Dialect, LintOptions, Target};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;
use sniff::Node;
use spec::registry;
use std::fmt;

/// The conversions of a [`Codec`] whose format's `convert` module has `encode_request`,
/// `decode_request`, `encode_response` and `decode_response` of these body types, and its
/// `sniff`.
macro_rules! by_convert {
    ($request:ty, $response:ty) => {
        type Request = $request;
        type Response = $response;

        fn encode_request(x: &$crate::model::Exchange) -> $crate::formats::Encoding<$request> {
            convert::encode_request(x)
        }
        fn decode_request(doc: $request) -> $crate::formats::Decoding {
            convert::decode_request(doc)
        }
        fn encode_response(x: &$crate::model::Exchange) -> $crate::formats::Encoding<$response> {
            convert::encode_response(x)
        }
        fn decode_response(doc: $response) -> $crate::formats::Decoding {
            convert::decode_response(doc)
        }
        fn sniff_view(v: &$crate::formats::sniff::Node) -> Option<($crate::formats::Kind, u8)> {
            convert::sniff(v)
        }
    };
}
use by_convert;

/// Which body of an HTTP exchange a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// What the client sends: the whole conversation so far.
    Request,
    /// What the provider answers: the model's last turn.
    Response,
}

impl Kind {
    /// `request` or `response`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Request => "request",
            Kind::Response => "response",
        }
    }
}

/// What a codec's decoder returns: the exchange and what decoding normalised, or where the
/// document does not fit.
pub type Decoding = Result<(Exchange, Vec<Loss>), DecodeError>;

/// What a codec's encoder returns: the body and what it could not carry.
pub type Encoding<T> = (T, Vec<Loss>);

/// A document produced by an encoder, with everything it could not carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// The document as text (pretty-printed JSON for JSON formats).
    pub text: String,
    /// What was dropped, rewritten or added.
    pub losses: Vec<Loss>,
}

/// An exchange decoded from a document, with what decoding normalised or could not carry.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The canonical exchange.
    pub exchange: Exchange,
    /// What was normalised on the way in (empty arguments → `{}`, missing ids, deprecated
    /// shapes imported).
    pub losses: Vec<Loss>,
}

/// Why a document could not be read, pointing at the spot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Format id the text was read as, if known.
    pub format: Option<&'static str>,
    /// JSON pointer of the offending element in the document, if known.
    pub pointer: Option<String>,
    /// 1-based line in the text, if known.
    pub line: Option<usize>,
    /// 1-based column (in characters) in the text, if known.
    pub column: Option<usize>,
    /// What is wrong, for a person.
    pub message: String,
}

impl DecodeError {
    /// An error at a JSON pointer of the document (line and column are filled in by
    /// [`Format::decode`] from the text).
    pub fn at(
        format: &'static str,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        DecodeError {
            format: Some(format),
            pointer: Some(pointer.into()),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl DecodeError {
    /// `v` read as a `T`; a shape error points at the element that does not fit, under
    /// `prefix` (where `v` sits in the document).
    pub fn typed<T: DeserializeOwned>(
        format: &'static str,
        v: Value,
        prefix: &str,
    ) -> Result<T, DecodeError> {
        json::typed(v).map_err(|(pointer, message)| {
            DecodeError::at(format, format!("{prefix}{pointer}"), message)
        })
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(format) = self.format {
            write!(f, "{format}: ")?;
        }
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "line {l}, column {c}: ")?,
            (Some(l), None) => write!(f, "line {l}: ")?,
            _ => {}
        }
        if let Some(p) = self.pointer.as_deref().filter(|p| !p.is_empty()) {
            write!(f, "at {p}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecodeError {}

/// One wire format: typed request and response documents and the conversions to and from the
/// model. Parsing and rendering default to JSON; text formats (legacy XML) override them.
pub trait Codec {
    /// Format id (`openai-chat`).
    const ID: &'static str;
    /// Whether the encoder writes custom (free-text) tools itself; when not, they reach it as
    /// functions with one string input, the grammar in the description, reported as rewritten.
    const WRITES_CUSTOM_TOOLS: bool = true;
    /// The request body.
    type Request: Serialize + DeserializeOwned;
    /// The response body.
    type Response: Serialize + DeserializeOwned;

    /// Model → request body.
    fn encode_request(x: &Exchange) -> (Self::Request, Vec<Loss>);
    /// Request body → model.
    fn decode_request(doc: Self::Request) -> Result<(Exchange, Vec<Loss>), DecodeError>;
    /// The exchange's last assistant message (and options) → response body.
    fn encode_response(x: &Exchange) -> (Self::Response, Vec<Loss>);
    /// Response body → an exchange holding the one assistant message (and the model name).
    fn decode_response(doc: Self::Response) -> Result<(Exchange, Vec<Loss>), DecodeError>;
    /// How likely the document `v` is a request or response of this format, 0 (no) to 100
    /// (certain).
    fn sniff_view(v: &Node) -> Option<(Kind, u8)>;
    /// [`Codec::sniff_view`] of a parsed value.
    fn sniff(v: &Value) -> Option<(Kind, u8)> {
        Self::sniff_view(&Node::of(v))
    }
    /// The same for a document that is not JSON (text formats such as the legacy XML).
    fn sniff_text(_text: &str) -> Option<(Kind, u8)> {
        None
    }

    /// Request body → text.
    fn render_request(doc: &Self::Request) -> String {
        json::pretty(doc)
    }
    /// Model → request text: [`Codec::encode_request`] rendered, unless the codec writes the
    /// text from a body that borrows the exchange.
    fn write_request(x: &Exchange) -> Encoded {
        let (doc, losses) = Self::encode_request(x);
        Encoded {
            text: Self::render_request(&doc),
            losses,
        }
    }
    /// Response body → text.
    fn render_response(doc: &Self::Response) -> String {
        json::pretty(doc)
    }
    /// Text → request body.
    fn parse_request(text: &str) -> Result<Self::Request, DecodeError> {
        json::parse(Self::ID, text)
    }
    /// Text → response body.
    fn parse_response(text: &str) -> Result<Self::Response, DecodeError> {
        json::parse(Self::ID, text)
    }
    /// [`Codec::parse_request`] of text known to be JSON nested within [`json::MAX_DEPTH`]
    /// (what [`read_any`] decodes). A codec whose `parse_request` is [`json::parse`] may read
    /// it with [`parse_within_depth`], skipping the depth scan; by default `parse_request`.
    fn parse_request_within_depth(text: &str) -> Result<Self::Request, DecodeError> {
        Self::parse_request(text)
    }
    /// [`Codec::parse_request_within_depth`] for responses.
    fn parse_response_within_depth(text: &str) -> Result<Self::Response, DecodeError> {
        Self::parse_response(text)
    }
    /// Parsed JSON → request body, moving its strings: how a value already parsed (a stream's
    /// assembled response) is decoded without writing it out as text. `None` when the value
    /// does not fit (or the format is not JSON): the text is then read with
    /// [`Codec::parse_request`], which says why. A format whose `parse_request` does more than
    /// deserialise overrides this too.
    fn request_from_json(v: Value) -> Option<Self::Request> {
        json::from_value(v)
    }
    /// Parsed JSON → response body ([`Codec::request_from_json`] for responses).
    fn response_from_json(v: Value) -> Option<Self::Response> {
        json::from_value(v)
    }
}

registry! {
    /// OpenAI Chat Completions.
    OpenAiChat => openai_chat::Codec, streams;
    /// OpenAI Responses.
    OpenAiResponses => openai_responses::Codec, streams;
    /// Anthropic Messages.
    Anthropic => anthropic::Codec, streams;
    /// Google Gemini `generateContent`.
    Gemini => gemini::Codec, streams;
    /// Amazon Bedrock Converse.
    Bedrock => bedrock::Codec, streams;
    /// Model Context Protocol: `tools/list` and `tools/call` as a JSON-RPC transcript.
    Mcp => mcp::Codec, streams;
    /// Anthropic's legacy prompt format: tools and calls as XML in the text.
    AnthropicXml => anthropic_xml::Codec;
    /// DeepSeek (OpenAI-compatible Chat Completions).
    DeepSeek => openai_chat::dialects::DeepSeek, streams;
    /// Mistral (OpenAI-compatible Chat Completions).
    Mistral => openai_chat::dialects::Mistral, streams;
    /// Cohere Chat v2.
    Cohere => openai_chat::dialects::Cohere, streams;
    /// Ollama native `/api/chat`.
    Ollama => openai_chat::dialects::Ollama, streams;
    /// The Vercel AI SDK's `ModelMessage`s (and `UIMessage`s), as apps store them.
    AiSdk => ai_sdk::Codec, streams;
}

/// The format servers of many vendors speak at a base URL of their own (the "OpenAI-compatible"
/// APIs; the dialects among them name their hosts, [`Format::dialect_of_host`]).
impl Format {
    /// Chat Completions.
    pub const COMPATIBLE: Format = Format::OpenAiChat;
}

impl Protocol {
    /// The stream of [`Format::COMPATIBLE`].
    pub const COMPATIBLE: Protocol = Protocol::OpenAiChat;
}

/// The page's starting choices, named here so the views name no format.
impl Format {
    /// The panes "show three" brings back: the three most used request formats.
    pub const DEFAULT_PANES: [Format; 3] = [Format::OpenAiChat, Format::Anthropic, Format::Gemini];
    /// The pair the compare view opens with.
    pub const DEFAULT_COMPARE: (Format, Format) = (Format::OpenAiChat, Format::Anthropic);
    /// The formats whose tool choice has a "validated" mode (calls or text, calls constrained
    /// to the schemas).
    pub const VALIDATED_CHOICE: &'static [Format] = &[Format::Gemini];
}

impl Format {
    /// Format id, as used in code, URLs and file names.
    pub fn id(self) -> &'static str {
        self.entry().id
    }

    /// Human name.
    pub fn name(self) -> &'static str {
        notes::title(self.entry().note)
    }

    /// "How this format differs", shown next to its pane.
    pub fn note(self) -> notes::Note {
        notes::Note::parse(self.entry().note)
    }

    /// The protocol a dialect speaks (`deepseek` and `mistral` speak `openai-chat`); a format
    /// is its own protocol otherwise. A dialect document that carries no dialect-specific
    /// marker is detected as its protocol, which is right: the bytes are the same.
    pub fn protocol(self) -> Format {
        self.entry().speaks.unwrap_or(self)
    }

    /// True for the text (non-JSON) formats.
    pub fn is_text(self) -> bool {
        self.entry().text
    }

    /// Its narrower `parameters`-style schema subset, when it has one.
    pub fn parameters_subset(self) -> Option<spec::Subset> {
        self.entry().parameters
    }

    /// A request body its decoder refuses, read leniently for counting by the first format
    /// that reads such bodies (a legacy `function` result without its call).
    pub fn read_lenient(text: &str) -> Option<(Exchange, Format)> {
        Format::ALL.into_iter().find_map(|f| {
            f.entry()
                .lenient
                .and_then(|read| read(text))
                .map(|x| (x, f))
        })
    }

    /// True when `text` reads as this format only because a text format takes any prose as a
    /// plain completion: it carries none of the format's own markers (turn headers, tool
    /// blocks), so it is not a document of it.
    pub fn is_mere_prose(self, text: &str) -> bool {
        self == Format::AnthropicXml && !anthropic_xml::has_markers(text)
    }

    /// The model family its requests name (see [`ModelFamily::of_format`]).
    pub fn models(self) -> Option<ModelFamily> {
        self.entry().models
    }

    /// The lint rules its tools are checked against.
    pub fn lints(self) -> crate::providers::Rules {
        self.entry().lints
    }

    /// The lint target of its documents: its rule family, and OpenAI's strict-mode flags for
    /// OpenAI's own formats (the Responses API is strict by default; "make strict" is offered
    /// for both).
    pub fn lint_target(self) -> Target {
        Target {
            id: self.id(),
            family: self.lints(),
            strict_by_default: self == Format::OpenAiResponses,
            offers_strict: matches!(
                self.protocol(),
                Format::OpenAiChat | Format::OpenAiResponses
            ),
            dialect: schema_dialect(self.lints()),
        }
    }

    /// The provider's conversation rules its request bodies are checked against (the pane's
    /// badge, `toolscope lint`, Live before sending and on a 400).
    pub fn rules(self) -> crate::rules::RuleSet {
        self.entry().rules
    }

    /// How its requests are sent (for the snippets).
    pub fn send(self) -> spec::Send {
        self.entry().send
    }

    /// The environment variable snippets read the API key from, if any.
    pub fn key_env(self) -> Option<&'static str> {
        match self.send() {
            spec::Send::Http(http) | spec::Send::Prompt(http) => http.key_env(),
            spec::Send::JsonRpc | spec::Send::Nothing(_) => None,
        }
    }

    /// The OpenAI-compatible dialect an API host names (`api.deepseek.com` → DeepSeek).
    pub fn dialect_of_host(host: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.entry().host.is_some_and(|h| host.contains(h)))
    }

    /// The format with this id.
    pub fn from_id(id: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Decode this format's request or response body. Errors carry line and column. Text over
    /// [`limits::MAX_INPUT`] or an exchange over the message and tool limits is refused.
    pub fn decode(self, text: &str, kind: Kind) -> Result<Decoded, DecodeError> {
        self.decode_at(text, kind, Depth::Unknown)
    }

    /// [`Format::decode`] of text whose nesting `depth` may already be known.
    fn decode_at(self, text: &str, kind: Kind, depth: Depth) -> Result<Decoded, DecodeError> {
        limits::check_size(Some(self.id()), text)?;
        let result = self
            .decode_codec(text, kind, depth)
            .and_then(|d| limits::check_counts(self.id(), &d.exchange).map(|()| d));
        result.map_err(|e| json::locate_error(e, text))
    }

    /// Guess the format and kind of a document: the most confident format wins.
    pub fn detect(text: &str) -> Result<(Format, Kind), DecodeError> {
        limits::check_size(None, text)?;
        let mut parsed = None;
        match view("auto-detect", text, &mut parsed) {
            Ok(view) => Format::detect_json(&view),
            Err(syntax) => Format::detect_text(text).ok_or(DecodeError {
                format: None,
                ..syntax
            }),
        }
    }

    /// [`Format::detect`] as the pane of `own` reads a document: its own format first. JSON
    /// that `own` recognises is read as `own` unless a format of another protocol finds its
    /// own marker in it ([`SURE`]: `tool_calls`, `input_schema`, `contents`, …), so a document
    /// valid in both (an Anthropic request of plain user text is also a Chat Completions one)
    /// stays in the pane it was pasted into.
    pub fn detect_in(own: Format, text: &str) -> Result<(Format, Kind), DecodeError> {
        limits::check_size(None, text)?;
        let mut parsed = None;
        let view = match view("auto-detect", text, &mut parsed) {
            Ok(view) => view,
            Err(syntax) => {
                return Format::detect_text(text).ok_or(DecodeError {
                    format: None,
                    ..syntax
                })
            }
        };
        let best = Format::ALL
            .into_iter()
            .filter_map(|f| f.sniff(&view).map(|(k, score)| (f, k, score)))
            .filter(|(_, _, score)| *score > 0)
            .max_by_key(|(_, _, score)| *score);
        match (own.sniff(&view), best) {
            (Some((kind, score)), Some((f, _, best)))
                if score > 0 && (f.protocol() == own.protocol() || best < SURE) =>
            {
                Ok((own, kind))
            }
            (_, Some((f, k, _))) => Ok((f, k)),
            (_, None) => Format::detect_json(&view),
        }
    }

    /// The most confident format for a JSON document.
    fn detect_json(v: &Node) -> Result<(Format, Kind), DecodeError> {
        Format::most_confident(|f| f.sniff(v)).ok_or_else(|| DecodeError {
            format: None,
            pointer: None,
            line: None,
            column: None,
            message: "not a request or response of any known format".into(),
        })
    }

    /// The most confident text (non-JSON) format for text that is not JSON.
    fn detect_text(text: &str) -> Option<(Format, Kind)> {
        Format::most_confident(|f| f.sniff_text(text))
    }

    /// The format (and kind) `sniff` scores highest, above 0.
    fn most_confident(sniff: impl Fn(Format) -> Option<(Kind, u8)>) -> Option<(Format, Kind)> {
        Format::ALL
            .into_iter()
            .filter_map(|f| sniff(f).map(|(k, score)| (f, k, score)))
            .filter(|(_, _, score)| *score > 0)
            .max_by_key(|(_, _, score)| *score)
            .map(|(f, k, _)| (f, k))
    }
}

/// [`Format::decode_value`] for one codec.
#[cfg(not(target_arch = "wasm32"))]
fn decode_value_with<C: Codec>(
    v: Value,
    kind: Kind,
) -> Option<Result<(Exchange, Vec<Loss>), DecodeError>> {
    match kind {
        Kind::Request => C::request_from_json(v).map(C::decode_request),
        Kind::Response => C::response_from_json(v).map(C::decode_response),
    }
}

/// Request fields that several formats spell and mean alike, with the formats that have them:
/// a field of a pasted document that the target also has is carried there, not lost.
pub(crate) const COMMON_FIELDS: &[(&str, &[&str])] = &[(
    // https://platform.openai.com/docs/api-reference/chat/create#chat-create-stream,
    // https://docs.anthropic.com/en/api/messages (stream), the Responses API's `stream`, and
    // the OpenAI-compatible APIs (DeepSeek, Mistral, Ollama's /api/chat). Not Cohere: its SDK's
    // v2 `chat` refuses the key (streaming is `chat_stream`), and the SDK wins.
    "stream",
    &[
        "openai-chat",
        "openai-responses",
        "anthropic",
        "deepseek",
        "mistral",
        "ollama",
    ],
)];

fn encode_with<C: Codec>(x: &Exchange, kind: Kind) -> Encoded {
    match kind {
        Kind::Request => {
            // Formats without a free-text tool of their own get a custom tool as a function
            // with one string parameter, its grammar in the description.
            let plain;
            let mut custom = Vec::new();
            let x = if !C::WRITES_CUSTOM_TOOLS && x.tools.iter().any(|t| t.custom.is_some()) {
                let mut y = x.clone();
                for (i, t) in y.tools.iter_mut().enumerate() {
                    if let Some(format) = t.custom.clone() {
                        *t = shared::custom_function(t, &format);
                        custom.push((i, t.name.clone()));
                    }
                }
                plain = y;
                &plain
            } else {
                x
            };
            let mut enc = C::write_request(x);
            for (i, name) in custom {
                enc.losses.push(Loss {
                    pointer: format!("/tools/{i}/custom"),
                    target: None,
                    kind: crate::model::LossKind::Rewritten,
                    what: format!("custom tool {name} sent as a function with one string input"),
                    why: "this format's tools take JSON arguments, not free text under a grammar; \
                          the grammar is put in the description"
                        .into(),
                });
            }
            shared::names_the_calls_carry(x, &mut enc.losses);
            enc
        }
        Kind::Response => {
            let (doc, losses) = C::encode_response(x);
            Encoded {
                text: C::render_response(&doc),
                losses,
            }
        }
    }
}

fn decode_with<C: Codec>(text: &str, kind: Kind, depth: Depth) -> Result<Decoded, DecodeError> {
    let (exchange, losses) = match (kind, depth) {
        (Kind::Request, Depth::Unknown) => C::decode_request(C::parse_request(text)?)?,
        (Kind::Request, Depth::Within) => C::decode_request(C::parse_request_within_depth(text)?)?,
        (Kind::Response, Depth::Unknown) => C::decode_response(C::parse_response(text)?)?,
        (Kind::Response, Depth::Within) => {
            C::decode_response(C::parse_response_within_depth(text)?)?
        }
    };
    Ok(Decoded { exchange, losses })
}

/// A sniff score at or above which a format found a marker only it has (below it, a document
/// merely has the shape several formats share, such as `messages` of plain text).
pub const SURE: u8 = 90;

/// What is known of a text's nesting when it is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// Nothing: the parser checks it.
    Unknown,
    /// It is JSON nested within [`json::MAX_DEPTH`] ([`read_any`]'s view found so).
    Within,
}

/// [`json::parse`] of text known to be JSON nested within [`json::MAX_DEPTH`]: serde alone,
/// without the depth scan (a tenth of reading a long conversation), and on failure `parse`
/// for the error with its pointer, line and column. The wasm keeps its one reader per type.
pub(crate) fn parse_within_depth<T: DeserializeOwned>(
    text: &str,
    parse: impl FnOnce(&str) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(doc) = serde_json::from_str(text) {
        return Ok(doc);
    }
    parse(text)
}

/// Where a document came from: Toolscope's own model JSON or a provider's wire format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The canonical model, serialised.
    Canonical,
    /// A provider document of this format and kind.
    Wire(Format, Kind),
}

impl Source {
    /// For a person: `canonical`, `openai-chat request`.
    pub fn label(self) -> String {
        match self {
            Source::Canonical => "canonical".into(),
            Source::Wire(f, k) => format!("{} {}", f.id(), k.as_str()),
        }
    }
}

/// Every provider rule of every format, each once.
pub fn all_rules() -> Vec<&'static crate::rules::Rule> {
    let mut out: Vec<&'static crate::rules::Rule> = Vec::new();
    for f in Format::ALL {
        for r in f.rules().iter() {
            if !out.iter().any(|o| o.id == r.id) {
                out.push(r);
            }
        }
    }
    out
}

/// The provider rule with this id, in any format.
pub fn rule(id: &str) -> Option<&'static crate::rules::Rule> {
    Format::ALL.into_iter().find_map(|f| f.rules().find(id))
}

/// Read any document: the canonical model, or any provider's request or response (detected).
/// Errors point at the spot: a syntax error at its line and column; a document of a detected
/// format at the element that does not fit; otherwise why it is not a canonical exchange.
pub fn read_any(text: &str) -> Result<(Decoded, Source), DecodeError> {
    limits::check_size(None, text)?;
    // The text is read twice at most: once into the borrowed view the sniffers look at, once
    // by the reader of what it is (the canonical model or the detected format's wire types).
    // It is read again only for an error's position.
    let mut parsed = None;
    let view = match view("canonical", text, &mut parsed) {
        Ok(view) => view,
        // Not JSON: a text format, or the syntax error is the answer.
        Err(syntax) => {
            return match Format::detect_text(text) {
                Some((format, kind)) => format
                    .decode(text, kind)
                    .map(|d| (d, Source::Wire(format, kind))),
                None => Err(DecodeError {
                    format: None,
                    ..syntax
                }),
            };
        }
    };
    // A wire document fails as an exchange at its first member the model does not have.
    #[cfg(not(target_arch = "wasm32"))]
    let canonical = serde_json::from_str::<Exchange>(text).ok();
    // The wasm reuses `parse`'s reader: a second deserialiser of the model would grow it.
    #[cfg(target_arch = "wasm32")]
    let canonical = json::parse::<Exchange>("canonical", text).ok();
    if let Some(exchange) = canonical {
        limits::check_counts("canonical", &exchange).map_err(|e| json::locate_error(e, text))?;
        return Ok((
            Decoded {
                exchange,
                losses: Vec::new(),
            },
            Source::Canonical,
        ));
    }
    let detected = Format::detect_json(&view);
    // The view's memory goes back before the decoder allocates: reused, not a second heap on
    // top of it (which glibc's malloc then trims and faults back in on the next read).
    drop(view);
    drop(parsed);
    match detected {
        Ok((format, kind)) => format
            .decode_at(text, kind, Depth::Within)
            .map(|d| (d, Source::Wire(format, kind))),
        // Why it is not a canonical exchange, with its pointer.
        Err(_) => Err(json::parse::<Exchange>("canonical", text)
            .err()
            .unwrap_or_else(|| DecodeError {
                format: None,
                pointer: None,
                line: None,
                column: None,
                message: "not a request or response of any known format".into(),
            })),
    }
}

/// The view the sniffers read of the JSON document `text`, or why it is not one: the syntax
/// error (or the nesting past [`json::MAX_DEPTH`]) as [`json::parse_value`] reports it, which
/// reads the text again only then. Should that parse succeed where the view did not, the view
/// is of its value, kept in `parsed`.
fn view<'t>(
    format: &'static str,
    text: &'t str,
    parsed: &'t mut Option<Value>,
) -> Result<Node<'t>, DecodeError> {
    match sniff::parse(text, json::MAX_DEPTH) {
        Some(view) => Ok(view),
        None => json::parse_value(format, text).map(|v| Node::of(parsed.insert(v))),
    }
}

/// The schema dialect of a rule family, declared in the folder of the format that defines it.
const fn schema_dialect(rules: Rules) -> Dialect {
    match rules {
        Rules::OpenAi => openai_chat::strict::DIALECT,
        Rules::Anthropic => Dialect::object_root("anthropic.root-object"),
        Rules::Gemini => Dialect::object_root("gemini.root-object"),
        Rules::Bedrock => bedrock::schema::DIALECT,
        Rules::Mcp => Dialect::object_root("mcp.root-object"),
    }
}

/// The lint targets are the formats' (the schema checks know no format).
impl Target {
    /// The target of a format id (`openai-chat`, `gemini`, …); `None` for an unknown id.
    pub fn from_id(id: &str) -> Option<Target> {
        Format::from_id(id).map(Format::lint_target)
    }

    /// Every format's, in `Format::ALL` order.
    pub fn all() -> Vec<Target> {
        Format::ALL.into_iter().map(Format::lint_target).collect()
    }
}

impl LintOptions {
    /// The checks a pane of format `f` runs: "make strict" is offered for OpenAI's formats.
    pub fn for_pane(f: Format) -> LintOptions {
        LintOptions::for_target(f.lint_target())
    }
}

/// Which provider family's model names a format's requests carry: the link from formats to
/// [`ModelFamily`] lives here, so the model knows nothing of formats.
impl ModelFamily {
    /// The family a format's requests name models of; `None` for MCP (no model at all). The
    /// legacy XML prompt is sent to the Messages API.
    pub fn of_format(format: Format) -> Option<ModelFamily> {
        format.models()
    }
}

/// How each provider's models read tool definitions: the reader in its format's folder. One
/// exhaustive match, so a provider without a reader does not compile.
impl crate::providers::Provider {
    /// The [`prompt::Reader`] of this provider's models (the Cost view's renderer and counts).
    pub fn reader(self) -> &'static dyn prompt::Reader {
        use crate::providers::Provider;
        match self {
            Provider::OpenAi => &openai_chat::prompt::OpenAi,
            Provider::Anthropic => &anthropic::prompt::Anthropic,
            Provider::Gemini => &gemini::prompt::Gemini,
            Provider::Bedrock => &bedrock::prompt::Bedrock,
            Provider::Mistral => &openai_chat::dialect_prompts::Mistral,
            Provider::Cohere => &openai_chat::dialect_prompts::Cohere,
            Provider::DeepSeek => &openai_chat::dialect_prompts::DeepSeek,
            Provider::Ollama => &openai_chat::dialect_prompts::Ollama,
        }
    }
}

impl Exchange {
    /// The model a format's requests name (`None` for MCP, which names none): what the panes,
    /// the snippets and a live run send.
    pub fn model_for_format(&self, format: Format) -> Option<ChosenModel> {
        ModelFamily::of_format(format).map(|f| self.model_for(f))
    }
}

/// The streams of the formats, as each format's [`spec::Streams`] says.
impl Protocol {
    /// Format id (`openai-chat`, `anthropic`, …) of the format the stream assembles into.
    pub fn id(self) -> &'static str {
        self.format().id()
    }

    /// The protocol with this format id.
    pub fn from_id(id: &str) -> Option<Protocol> {
        Protocol::ALL.into_iter().find(|p| p.id() == id)
    }

    /// True when the protocol frames events as SSE (`data:` lines); Ollama and Bedrock
    /// (as JSON lines) do not.
    pub fn is_sse(self) -> bool {
        self.stream_entry().sse
    }

    /// True when each SSE event repeats its `type` as the `event:` name.
    pub fn named_events(self) -> bool {
        self.stream_entry().named_events
    }

    /// The protocol one event belongs to, when it says (`name`: its SSE `event:` name;
    /// `event`: its payload, when a JSON object).
    pub fn claiming(
        name: Option<&str>,
        event: Option<&serde_json::Map<String, Value>>,
    ) -> Option<Protocol> {
        Protocol::ALL
            .into_iter()
            .find(|p| (p.stream_entry().claims)(name, event))
    }

    /// The dialect these events of this protocol are, when they say (DeepSeek's
    /// `reasoning_content`, a Mistral model name); this protocol otherwise.
    pub fn dialect(self, events: &[crate::stream::Event]) -> Protocol {
        (self.stream_entry().dialect)(events)
            .and_then(Protocol::of_format)
            .unwrap_or(self)
    }

    /// True when a single JSON document is some format's whole response rather than an event.
    pub fn is_whole_response(doc: &serde_json::Map<String, Value>) -> bool {
        Protocol::ALL
            .into_iter()
            .any(|p| (p.stream_entry().whole_response)(doc))
    }

    /// The events (JSON values, or strings for sentinels) that stream the response body `doc`.
    pub fn events_of(self, doc: &Value, fragment: usize) -> Vec<Value> {
        (self.stream_entry().synthesize)(doc, fragment)
    }

    /// Which document of its format an assembled body is ([`spec::Streams::kind`]): the
    /// response, or for MCP the transcript when it holds more than the model's calls.
    pub fn kind_of(self, assembled: &Value) -> Kind {
        (self.stream_entry().kind)(assembled)
    }

    /// Decode an assembled body of this protocol with its format, as the document
    /// [`Protocol::kind_of`] says it is.
    pub fn decode_response(self, response: &Value) -> crate::stream::Decoding {
        let format = self.format();
        let kind = self.kind_of(response);
        // The assembled value is decoded as it is; only one that does not fit is written out
        // and read as text, for the error's position.
        #[cfg(target_arch = "wasm32")]
        let fast: Option<(Exchange, Vec<Loss>)> = None;
        #[cfg(not(target_arch = "wasm32"))]
        let fast = format
            .decode_value(response.clone(), kind)
            .and_then(Result::ok)
            .filter(|(x, _)| limits::check_counts(format.id(), x).is_ok());
        if let Some(decoded) = fast {
            return Ok(decoded);
        }
        let text = serde_json::to_string(response).unwrap_or_default();
        format
            .decode(&text, kind)
            .map(|d| (d.exchange, d.losses))
            .map_err(|e| e.to_string())
    }
}

/// The part of an `impl stream::Assembler` every format's assembler shares: its tracker
/// (field `t`) and its decoder (its format's response decoder).
macro_rules! assembler_basics {
    ($protocol:expr) => {
        fn tracker(&self) -> &crate::stream::Tracker {
            &self.t
        }

        fn decode(&self, response: &serde_json::Value) -> crate::stream::Decoding {
            $protocol.decode_response(response)
        }
    };
}
pub(crate) use assembler_basics;

#[cfg(test)]
mod tests {
    use super::Protocol;

    #[test]
    fn every_protocol_is_named_after_the_format_it_assembles_into() {
        for p in Protocol::ALL {
            assert_eq!(p.id(), p.format().id());
            assert_eq!(Protocol::of_format(p.format()), Some(p));
        }
    }
}
