//! What a format *is*, said once in its own folder: the [`Spec`] trait (name, note, model and
//! lint family, how its requests are sent) and, for a format that streams, [`Streams`]
//! (assembler, event recognition, synthesis). [`registry!`](crate::formats) in `formats/mod.rs`
//! turns one line per format into [`Format`], [`Protocol`] and their dispatch; every other
//! module asks a `Format` or a `Protocol`, never matches on them.

use super::{Codec, Format};
use crate::model::{Exchange, ModelFamily};
use crate::providers::Rules as Family;
use crate::rules::RuleSet;
use crate::stream::{Assembler, Event};
use serde_json::{Map, Value};
use std::fmt::Debug;

/// Everything about a format that is not its codec. Every item without a default must be
/// given: a new format that forgets one does not compile.
pub trait Spec: Codec {
    /// The format's note, Markdown kept in its folder (`NOTE.md`): its human name as the
    /// title, then how it differs, one `##` section per [`Note`](super::notes::Note) field.
    const NOTE: &'static str;
    /// The family whose model names the requests carry; `None` when it names none (MCP) or
    /// names any provider's (the AI SDK).
    const MODELS: Option<ModelFamily>;
    /// Which lint rules its tools are checked against: by default those of the provider whose
    /// models it names (see [`lints_of`]).
    const LINTS: Family = lints_of(Self::MODELS);
    /// The provider's conversation rules its request bodies are checked against, kept in the
    /// format's folder (`rules.rs`); [`RuleSet::NONE`] when its provider has none.
    const RULES: RuleSet;
    /// How a request is sent (endpoint, key header and its environment variable, Python SDK),
    /// for the snippets.
    const SEND: Send;
    /// The format whose bytes a document of this one is, when a plain document of it cannot
    /// be told apart (DeepSeek and Mistral speak OpenAI Chat); `None`: itself.
    const SPEAKS: Option<Format> = None;
    /// True for text (non-JSON) formats.
    const TEXT: bool = false;
    /// For an OpenAI-compatible base URL: a word of the host that names this dialect.
    const HOST: Option<&'static str> = None;
    /// A schema subset some of its models or endpoints apply to a request field narrower than
    /// the one the encoder writes (`toolscope lint --<id>-parameters`); `None`: no such field.
    const PARAMETERS: Option<Subset> = None;
    /// Reads, for counting only, request bodies its decoder refuses but its API's published
    /// token counts include; `None`: the decoder is the only reader.
    const LENIENT: Option<fn(&str) -> Option<Exchange>> = None;
}

/// A narrower schema subset of a format's (see [`Spec::PARAMETERS`]).
#[derive(Debug, Clone, Copy)]
pub struct Subset {
    /// The field it governs and what it is, for the command line's help (`OpenAPI
    /// \`parameters\``).
    pub what: &'static str,
    /// What the subset would need of each tool schema (infos, each with its rewrite as fix).
    pub check: fn(&Exchange) -> Vec<crate::schema::Finding>,
    /// Every tool schema rewritten into the subset as far as it goes, and what remains.
    pub fit: fn(&Exchange) -> (Exchange, Vec<crate::schema::Finding>),
}

/// A format that streams: how its events are recognised, assembled and synthesised.
pub trait Streams: Spec {
    /// The assembler (sans-IO state machine) of its stream.
    type Assembler: Assembler + Debug + PartialEq + Default;
    /// True when events are framed as SSE `data:` lines; false for JSON lines.
    const SSE: bool;
    /// True when each SSE event repeats its `type` as the `event:` name.
    const NAMED_EVENTS: bool = false;
    /// A fresh assembler.
    fn assembler() -> Self::Assembler {
        Self::Assembler::default()
    }
    /// True when an event (its SSE name and JSON object, when it is one) is of this protocol.
    fn claims(name: Option<&str>, event: Option<&Map<String, Value>>) -> bool;
    /// For a protocol several dialects speak: which one these events are, when they say.
    fn dialect(_events: &[Event]) -> Option<Format> {
        None
    }
    /// True when a single JSON document is this format's whole (non-streamed) response rather
    /// than one event of its stream.
    fn whole_response(_doc: &Map<String, Value>) -> bool {
        false
    }
    /// The events (JSON values, or strings for sentinels) of the stream that carries the
    /// response body `doc`, with text and argument fragments of `n` characters.
    fn synthesize(doc: &Value, n: usize) -> Vec<Value>;
    /// Which document of the format an assembled body is: the response, unless the stream
    /// carries a whole conversation (MCP's JSON-RPC messages, read as its transcript).
    fn kind(_assembled: &Value) -> super::Kind {
        super::Kind::Response
    }
}

/// The lint rules of the provider whose models a format names, from its row; the table's
/// common bar ([`Family::COMMON`]) for a format that names any provider's (the AI SDK's
/// `inputSchema` goes to any of them).
pub const fn lints_of(models: Option<ModelFamily>) -> Family {
    match models {
        Some(p) => p.rules(),
        None => Family::COMMON,
    }
}

/// How a format's requests are sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Send {
    /// POSTed as JSON to an HTTP API.
    Http(Http),
    /// A prompt convention, sent as one user message to this API (the legacy XML, to the
    /// Messages API).
    Prompt(Http),
    /// A JSON-RPC transcript whose requests are each POSTed to an MCP endpoint.
    JsonRpc,
    /// Not an HTTP body at all; the reason, for a person.
    Nothing(&'static str),
}

/// An HTTP API: everything curl, Python and TypeScript need to call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Http {
    /// Heading comment; `{model}` stands for the model when it is not in the body.
    pub title: &'static str,
    /// The URL; `{model}` is replaced by the percent-encoded model.
    pub url: &'static str,
    /// Where the model is named.
    pub model: ModelIn,
    /// Headers besides `Content-Type`.
    pub headers: &'static [Header],
    /// How Python sends the body.
    pub python: Python,
    /// Signed with AWS SigV4 (curl `--aws-sigv4`, the AWS SDK in TypeScript), for this
    /// service.
    pub aws: Option<Aws>,
}

/// An AWS service's request signing and its TypeScript SDK client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aws {
    /// The SigV4 service name (`--aws-sigv4 "aws:amz:$REGION:<service>"`).
    pub service: &'static str,
    /// The npm package of its TypeScript client.
    pub package: &'static str,
    /// The client class.
    pub client: &'static str,
    /// The command class taking the body.
    pub command: &'static str,
}

/// A request header: literal text, then optionally an environment variable's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Header name.
    pub name: &'static str,
    /// Literal text (before the variable's value).
    pub text: &'static str,
    /// Environment variable appended to the text.
    pub env: Option<&'static str>,
}

impl Header {
    /// `Authorization: Bearer $env`.
    pub const fn bearer(env: &'static str) -> Header {
        Header {
            name: "Authorization",
            text: "Bearer ",
            env: Some(env),
        }
    }

    /// `name: $env`.
    pub const fn env(name: &'static str, env: &'static str) -> Header {
        Header {
            name,
            text: "",
            env: Some(env),
        }
    }

    /// `name: text`.
    pub const fn literal(name: &'static str, text: &'static str) -> Header {
        Header {
            name,
            text,
            env: None,
        }
    }
}

/// Where a request names its model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelIn {
    /// In the body (`model`).
    Body,
    /// In the URL only; the exchange's model (or its family's default) goes there.
    Url,
    /// In this body field, which curl moves to the URL (Bedrock's `modelId`).
    BodyAndUrl(&'static str),
}

/// How Python sends a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Python {
    /// An SDK (the provider's own, or the one of the API it is compatible with).
    Sdk(Sdk),
    /// `httpx.post(url, headers=…, json=body)`.
    Httpx,
}

/// A provider's Python SDK: `client = <constructor>`, `response = client.<call>(**body)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sdk {
    /// The pip package.
    pub install: &'static str,
    /// The import line, when it is not `import <install>`.
    pub import: Option<&'static str>,
    /// The client constructor.
    pub constructor: &'static str,
    /// The method taking the body as keyword arguments.
    pub call: &'static str,
    /// How the response is printed.
    pub print: Print,
}

/// How a snippet prints an SDK's response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Print {
    /// A pydantic model: `response.model_dump_json(indent=2)`.
    Model,
    /// Its own `repr`.
    Repr,
    /// A plain dict: `json.dumps(…, default=str)`.
    Dict,
}

impl Sdk {
    /// `import <install>`, `client = <constructor>`, `client.<call>(**body)`, a pydantic
    /// response.
    pub const fn new(install: &'static str, constructor: &'static str, call: &'static str) -> Sdk {
        Sdk {
            install,
            import: None,
            constructor,
            call,
            print: Print::Model,
        }
    }

    /// With another import line.
    pub const fn import(self, import: &'static str) -> Sdk {
        Sdk {
            import: Some(import),
            ..self
        }
    }

    /// With another way to print the response.
    pub const fn print(self, print: Print) -> Sdk {
        Sdk { print, ..self }
    }
}

impl Http {
    /// The environment variable the key is read from, if a header carries one.
    pub fn key_env(&self) -> Option<&'static str> {
        self.headers.iter().find_map(|h| h.env)
    }

    /// A JSON `POST` to `url` with the model in the body, no headers and `httpx` for Python.
    pub const fn post(title: &'static str, url: &'static str) -> Http {
        Http {
            title,
            url,
            model: ModelIn::Body,
            headers: &[],
            python: Python::Httpx,
            aws: None,
        }
    }

    /// With these headers.
    pub const fn headers(self, headers: &'static [Header]) -> Http {
        Http { headers, ..self }
    }

    /// With the model named elsewhere.
    pub const fn model(self, model: ModelIn) -> Http {
        Http { model, ..self }
    }

    /// Sent from Python with an SDK.
    pub const fn sdk(self, sdk: Sdk) -> Http {
        Http {
            python: Python::Sdk(sdk),
            ..self
        }
    }

    /// Signed with AWS SigV4 for this service.
    pub const fn aws(self, aws: Aws) -> Http {
        Http {
            aws: Some(aws),
            ..self
        }
    }
}

/// One format's facts as the registry stores them.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub(super) id: &'static str,
    pub(super) note: &'static str,
    pub(super) models: Option<ModelFamily>,
    pub(super) lints: Family,
    pub(super) rules: RuleSet,
    pub(super) send: Send,
    pub(super) speaks: Option<Format>,
    pub(super) text: bool,
    pub(super) host: Option<&'static str>,
    pub(super) parameters: Option<Subset>,
    pub(super) lenient: Option<fn(&str) -> Option<Exchange>>,
}

impl Entry {
    /// The entry of codec `C`.
    pub(super) const fn of<C: Spec>() -> Entry {
        Entry {
            id: C::ID,
            note: C::NOTE,
            models: C::MODELS,
            lints: C::LINTS,
            rules: C::RULES,
            send: C::SEND,
            speaks: C::SPEAKS,
            text: C::TEXT,
            host: C::HOST,
            parameters: C::PARAMETERS,
            lenient: C::LENIENT,
        }
    }
}

/// The JSON object of an event, when it is one.
pub type EventObject<'a> = Option<&'a Map<String, Value>>;

/// A streaming protocol's facts as the registry stores them.
#[derive(Debug, Clone, Copy)]
pub(super) struct StreamEntry {
    pub(super) sse: bool,
    pub(super) named_events: bool,
    pub(super) claims: fn(Option<&str>, EventObject<'_>) -> bool,
    pub(super) dialect: fn(&[Event]) -> Option<Format>,
    pub(super) whole_response: fn(&Map<String, Value>) -> bool,
    pub(super) synthesize: fn(&Value, usize) -> Vec<Value>,
    pub(super) kind: fn(&Value) -> super::Kind,
}

impl StreamEntry {
    /// The entry of codec `C`.
    pub(super) const fn of<C: Streams>() -> StreamEntry {
        StreamEntry {
            sse: C::SSE,
            named_events: C::NAMED_EVENTS,
            claims: C::claims,
            dialect: C::dialect,
            whole_response: C::whole_response,
            synthesize: C::synthesize,
            kind: C::kind,
        }
    }
}

/// Builds [`Format`], [`Protocol`](super::Protocol), the assembler of every protocol and
/// their dispatch from one line per format: `Variant => codec type` (`, streams` when it
/// streams), with the variant's doc comment.
macro_rules! registry {
    ($( $(#[$m:meta])* $v:ident => $c:ty $(, $streams:ident)? ; )*) => {
        /// Every wire format Toolscope speaks.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Format {
            $( $(#[$m])* $v, )*
        }

        impl Format {
            /// Every format, in display order.
            pub const ALL: [Format; [$(stringify!($v)),*].len()] = [$(Format::$v),*];

            /// The format's facts (variants are numbered in registry order).
            fn entry(self) -> &'static $crate::formats::spec::Entry {
                const ENTRIES: &[$crate::formats::spec::Entry] =
                    &[$($crate::formats::spec::Entry::of::<$c>()),*];
                &ENTRIES[self as usize]
            }

            /// Encode the exchange as this format's request or response body.
            pub fn encode(self, x: &Exchange, kind: Kind) -> Encoded {
                match self {
                    $( Format::$v => encode_with::<$c>(x, kind), )*
                }
            }

            fn decode_codec(
                self,
                text: &str,
                kind: Kind,
                depth: Depth,
            ) -> Result<Decoded, DecodeError> {
                match self {
                    $( Format::$v => decode_with::<$c>(text, kind, depth), )*
                }
            }

            /// Decode a document already parsed into a value: `None` when the codec reads
            /// only text (native builds; the wasm reads the text, see `Protocol::decode_response`).
            #[cfg(not(target_arch = "wasm32"))]
            fn decode_value(
                self,
                v: Value,
                kind: Kind,
            ) -> Option<Result<($crate::model::Exchange, Vec<$crate::model::Loss>), DecodeError>> {
                match self {
                    $( Format::$v => decode_value_with::<$c>(v, kind), )*
                }
            }

            fn sniff(self, v: &$crate::formats::sniff::Node) -> Option<(Kind, u8)> {
                match self {
                    $( Format::$v => <$c as Codec>::sniff_view(v), )*
                }
            }

            fn sniff_text(self, text: &str) -> Option<(Kind, u8)> {
                match self {
                    $( Format::$v => <$c as Codec>::sniff_text(text), )*
                }
            }
        }

        $crate::formats::spec::registry!(@streams [] $( $(#[$m])* $v => $c $(, $streams)? ; )*);
    };

    // Keep the formats that stream, then build the protocols from them.
    (@streams [$($kept:tt)*]) => {
        $crate::formats::spec::registry!(@protocols $($kept)*);
    };
    (@streams [$($kept:tt)*] $(#[$m:meta])* $v:ident => $c:ty, streams ; $($rest:tt)*) => {
        $crate::formats::spec::registry!(@streams [$($kept)* $(#[$m])* $v => $c ;] $($rest)*);
    };
    (@streams [$($kept:tt)*] $(#[$m:meta])* $v:ident => $c:ty ; $($rest:tt)*) => {
        $crate::formats::spec::registry!(@streams [$($kept)*] $($rest)*);
    };

    (@protocols $( $(#[$m:meta])* $v:ident => $c:ty ; )*) => {
        /// A wire protocol that streams: the stream of the format of the same name.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
        pub enum Protocol {
            $( $(#[$m])* $v, )*
        }

        impl Protocol {
            /// Every protocol, in the order of [`Format::ALL`].
            pub const ALL: [Protocol; [$(stringify!($v)),*].len()] = [$(Protocol::$v),*];

            /// The format whose response body the stream assembles into.
            pub fn format(self) -> Format {
                match self {
                    $( Protocol::$v => Format::$v, )*
                }
            }

            /// The streaming protocol of a format, if it streams (the legacy XML does not).
            pub fn of_format(f: Format) -> Option<Protocol> {
                Protocol::ALL.into_iter().find(|p| p.format() == f)
            }

            /// The protocol's facts (variants are numbered in registry order).
            fn stream_entry(self) -> &'static $crate::formats::spec::StreamEntry {
                const ENTRIES: &[$crate::formats::spec::StreamEntry] =
                    &[$($crate::formats::spec::StreamEntry::of::<$c>()),*];
                &ENTRIES[self as usize]
            }
        }

        /// The assembler of every protocol, as one type that can be cloned and stored.
        #[derive(Debug, Clone, PartialEq)]
        #[allow(clippy::large_enum_variant)]
        pub enum Assemblers {
            $( $(#[$m])* $v(<$c as $crate::formats::spec::Streams>::Assembler), )*
        }

        impl Assemblers {
            /// A fresh assembler of a protocol.
            pub fn new(p: Protocol) -> Assemblers {
                match p {
                    $( Protocol::$v => Assemblers::$v(<$c as $crate::formats::spec::Streams>::assembler()), )*
                }
            }

            /// The protocol assembled.
            pub fn protocol(&self) -> Protocol {
                match self {
                    $( Assemblers::$v(_) => Protocol::$v, )*
                }
            }
        }

        impl $crate::stream::Assembler for Assemblers {
            fn push(&mut self, event: &$crate::stream::Event) -> Vec<$crate::stream::Update> {
                match self { $( Assemblers::$v(a) => a.push(event), )* }
            }
            fn tracker(&self) -> &$crate::stream::Tracker {
                match self { $( Assemblers::$v(a) => a.tracker(), )* }
            }
            fn response(&self) -> Value {
                match self { $( Assemblers::$v(a) => a.response(), )* }
            }
            fn decode(&self, response: &Value) -> $crate::stream::Decoding {
                match self { $( Assemblers::$v(a) => a.decode(response), )* }
            }
            fn state(&self) -> $crate::stream::State {
                match self { $( Assemblers::$v(a) => a.state(), )* }
            }
            fn message_so_far(&self) -> $crate::stream::Assembled {
                match self { $( Assemblers::$v(a) => a.message_so_far(), )* }
            }
            fn finish(self) -> $crate::stream::Assembled {
                match self { $( Assemblers::$v(a) => a.finish(), )* }
            }
        }
    };
}
pub(crate) use registry;
