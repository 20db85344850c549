//! The providers: one row per provider holding every fact about it that is not a wire format's.
//!
//! A row says who the provider is (id, name), which model names it owns and which model it is
//! sent when nothing else applies, which lint and rule family its tools are checked against,
//! how the Cost view counts its tool text and what its prompt cache does, and how its API is
//! called from a page (base URL, key header, the headers a browser call needs, where keys are
//! made). The model editor ([`crate::model::ModelFamily`]), the Cost view (`cost::Family`), the
//! lints (`schema::Family`) and the live calls read these rows: adding a provider is a variant
//! and a row, and a variant without a row does not compile ([`Provider::row`] is one exhaustive
//! match).
//!
//! There is one model-name classifier, [`Provider::of_name`]. Wire formats stay in their
//! folders (`formats/<format>/`): a format names the provider whose models its requests carry.

/// A provider: a family of APIs that share model names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    /// OpenAI Chat Completions and Responses (and compatible servers).
    OpenAi,
    /// Anthropic Messages (and the legacy XML prompt, sent through it).
    Anthropic,
    /// Google Gemini.
    Gemini,
    /// Amazon Bedrock model and inference-profile ids.
    Bedrock,
    /// Mistral La Plateforme.
    Mistral,
    /// Cohere.
    Cohere,
    /// DeepSeek.
    DeepSeek,
    /// Ollama (local models, `name:tag`).
    Ollama,
}

/// The lint and rule family a provider's tools are checked against (MCP has its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rules {
    /// OpenAI: strict mode, names; also the OpenAI-compatible dialects.
    OpenAi,
    /// Anthropic: names, object `input_schema`.
    Anthropic,
    /// Gemini: names, object parameters, the `parameters` subset.
    Gemini,
    /// Bedrock Converse: `ToolSpecification` rules.
    Bedrock,
    /// MCP: object `inputSchema`.
    Mcp,
}

/// How the Cost view counts the tool text a provider's models read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tokens {
    /// tiktoken's encodings: exact counts for the model's encoding (OpenAI).
    Tiktoken,
    /// The tool-use system prompt Claude adds, then an estimate of the rest.
    ClaudeToolPrompt,
    /// An estimate of the rendered tool list (brackets and separators between tools).
    Estimate,
}

/// A provider's prompt caching between the rounds of a tool loop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cache {
    /// The rule, for a person.
    pub rule: &'static str,
    /// Shortest cached prefix.
    pub min: u64,
    /// Cached prefixes are multiples of this.
    pub step: u64,
    /// Share of the input price saved on a cached token.
    pub read_discount: f64,
    /// Extra share of the input price paid to write the cache.
    pub write_extra: f64,
}

/// How a provider's API is called from a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Api {
    /// Base URL, as the provider's SDK takes it.
    pub base_url: &'static str,
    /// The header that carries the key, as the provider documents it.
    pub key_header: &'static str,
    /// Text before the key in that header (`Bearer `).
    pub key_prefix: &'static str,
    /// Headers every request carries besides the key.
    pub headers: &'static [(&'static str, &'static str)],
    /// Headers only a browser's request needs.
    pub browser_headers: &'static [(&'static str, &'static str)],
    /// Where a key is made, for error messages.
    pub console: &'static str,
    /// A model to start a live run from (small and cheap).
    pub live_model: &'static str,
    /// What a person can do when a page's call fails its CORS preflight (empty: the API
    /// answers pages).
    pub cors: &'static str,
}

/// Every fact about one provider.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Key in `options.models` and in ids (`openai`, `anthropic`, …).
    pub id: &'static str,
    /// For people (`OpenAI`, `Anthropic`, …).
    pub name: &'static str,
    /// The model sent when nothing else applies: a current model the API serves.
    pub default_model: &'static str,
    /// Model names starting with one of these are its own (lowercase).
    pub prefixes: &'static [&'static str],
    /// Model names containing one of these are its own, when no prefix claims them.
    pub words: &'static [&'static str],
    /// A name of its with a `:tag` is a model pulled into Ollama (`deepseek-r1:7b`), not a
    /// name its API serves.
    pub tagged_is_local: bool,
    /// Whether its API takes a model name no provider owns (compatible and local servers).
    pub takes_unknown: bool,
    /// The other providers whose APIs also serve its model names under those names (Ollama's
    /// library, OpenAI-compatible endpoints).
    pub served_by: &'static [Provider],
    /// The lint and rule family.
    pub rules: Rules,
    /// How the Cost view counts its tool text.
    pub tokens: Tokens,
    /// Its prompt caching, when the Cost view models it.
    pub cache: Option<Cache>,
    /// How a page calls its API, when it can be called at all.
    pub api: Option<Api>,
    /// Its live routes, their quirks and the headers their recordings keep.
    pub live: Live,
    /// The environment variable its snippets read the key from.
    pub key_env: Option<&'static str>,
    /// The models `toolscope tokens` counts without `--model`.
    pub counted: &'static [&'static str],

    /// How its reasoning state is spelled outside its own formats.
    pub reasoning: Reasoning,
}

/// Open-weight model names: served by Ollama and OpenAI-compatible servers alike, owned by no
/// provider's API (gpt-oss, and Gemma, which Gemini's API serves without function calling).
const OPEN_WEIGHTS: &[&str] = &["gpt-oss", "gemma"];

/// Open-weight families Ollama's library serves under short names (`llama3.1`, `qwen2.5`): no
/// provider owns them, and the Cost view counts them as a local chat template reads them.
pub const LOCAL_FAMILIES: &[&str] = &[
    "llama", "qwen", "phi", "gemma", "granite", "smollm", "hermes",
];

const OPENAI: Row = Row {
    id: "openai",
    name: "OpenAI",
    // Not a reasoning model: it takes temperature, top_p and stop, which gpt-5 refuses.
    default_model: "gpt-4.1",
    prefixes: &["gpt-", "chatgpt", "o1", "o3", "o4", "codex", "computer-use"],
    words: &[],
    tagged_is_local: true,
    takes_unknown: true,
    served_by: &[],
    rules: Rules::OpenAi,
    tokens: Tokens::Tiktoken,
    // Automatic from 1,024 tokens, in 128-token increments; cached input at half price for
    // the gpt-4o generation (newer models discount more).
    cache: Some(Cache {
        rule: "OpenAI automatic prefix caching: from 1,024 tokens, in steps of 128; \
               cached input at 50 % off (gpt-4o; gpt-4.1 75 %, gpt-5 90 %)",
        min: 1024,
        step: 128,
        read_discount: 0.5,
        write_extra: 0.0,
    }),
    api: Some(Api {
        base_url: "https://api.openai.com/v1",
        key_header: "authorization",
        key_prefix: "Bearer ",
        headers: &[],
        browser_headers: &[],
        console: "platform.openai.com",
        live_model: "gpt-4o-mini",
        cors: "",
    }),
    live: OPENAI_LIVE,
    key_env: Some("OPENAI_API_KEY"),
    counted: &["gpt-4o", "gpt-4"],
    reasoning: Reasoning {
        placeholder: None,
        thought_signatures: false,
        ai_sdk: Some(AiSdk {
            keys: &["openai"],
            encrypted: Some("reasoningEncryptedContent"),
            thinking: Some("reasoningEffort"),
            ..AiSdk::NONE
        }),
    },
};

const ANTHROPIC: Row = Row {
    id: "anthropic",
    name: "Anthropic",
    default_model: "claude-sonnet-4-5",
    prefixes: &["claude"],
    words: &[],
    tagged_is_local: false,
    takes_unknown: false,
    served_by: &[],
    rules: Rules::Anthropic,
    tokens: Tokens::ClaudeToolPrompt,
    // A cache_control breakpoint on the last block of each request; reads cost 10 % of the
    // input price, writes 125 %; at least 1,024 tokens (Sonnet, Opus).
    cache: Some(Cache {
        rule: "Anthropic cache_control breakpoint on the last message of each round: from \
               1,024 tokens; cache reads at 10 % of the input price, writes at 125 %",
        min: 1024,
        step: 1,
        read_discount: 0.9,
        write_extra: 0.25,
    }),
    api: Some(Api {
        base_url: "https://api.anthropic.com",
        key_header: "x-api-key",
        key_prefix: "",
        headers: &[("anthropic-version", "2023-06-01")],
        // Without it the API refuses requests that carry an Origin header.
        browser_headers: &[("anthropic-dangerous-direct-browser-access", "true")],
        console: "console.anthropic.com",
        live_model: "claude-haiku-4-5",
        cors: "",
    }),
    live: ANTHROPIC_LIVE,
    key_env: Some("ANTHROPIC_API_KEY"),
    counted: &["claude-sonnet-4-5"],
    reasoning: Reasoning {
        placeholder: None,
        thought_signatures: false,
        ai_sdk: Some(AiSdk {
            keys: &["anthropic"],
            signature: Some("signature"),
            redacted: Some("redactedData"),
            thinking: Some("thinking"),
            ..AiSdk::NONE
        }),
    },
};

const GEMINI: Row = Row {
    id: "gemini",
    name: "Gemini",
    default_model: "gemini-2.5-flash",
    prefixes: &["gemini", "models/", "tunedmodels/", "learnlm"],
    words: &[],
    tagged_is_local: false,
    takes_unknown: false,
    served_by: &[],
    rules: Rules::Gemini,
    tokens: Tokens::Estimate,
    cache: None,
    api: Some(Api {
        base_url: "https://generativelanguage.googleapis.com/v1beta",
        key_header: "x-goog-api-key",
        key_prefix: "",
        headers: &[],
        browser_headers: &[],
        console: "aistudio.google.com",
        live_model: "gemini-2.5-flash",
        cors: "",
    }),
    live: GEMINI_LIVE,
    key_env: Some("GEMINI_API_KEY"),
    counted: &["gemini-2.5-flash"],
    reasoning: Reasoning {
        // Source: <https://ai.google.dev/gemini-api/docs/thought-signatures> ("FAQs").
        placeholder: Some("skip_thought_signature_validator"),
        thought_signatures: true,
        ai_sdk: Some(AiSdk {
            keys: &["google", "vertex", "googleVertex"],
            thought_signature: Some("thoughtSignature"),
            thinking: Some("thinkingConfig"),
            ..AiSdk::NONE
        }),
    },
};

const BEDROCK: Row = Row {
    id: "bedrock",
    name: "Bedrock",
    // Claude 4 models are called on demand only through an inference profile.
    default_model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
    // Inference profiles (`us.`, `arn:`) and model ids (`vendor.`).
    prefixes: &[
        "arn:",
        "us.",
        "eu.",
        "apac.",
        "global.",
        "us-gov.",
        "jp.",
        "au.",
        "ca.",
        "anthropic.",
        "amazon.",
        "meta.",
        "mistral.",
        "cohere.",
        "ai21.",
        "deepseek.",
        "openai.",
        "qwen.",
        "writer.",
        "twelvelabs.",
    ],
    words: &[],
    tagged_is_local: false,
    takes_unknown: false,
    served_by: &[],
    rules: Rules::Bedrock,
    tokens: Tokens::Estimate,
    cache: None,
    api: Some(Api {
        base_url: "https://bedrock-runtime.us-east-1.amazonaws.com",
        key_header: "authorization",
        key_prefix: "Bearer ",
        headers: &[],
        browser_headers: &[],
        console: "the provider's console",
        live_model: "anthropic.claude-3-5-haiku-20241022-v1:0",
        cors: "",
    }),
    live: BEDROCK_LIVE,
    key_env: None,
    counted: &["amazon.nova-pro-v1:0"],
    reasoning: Reasoning {
        placeholder: None,
        thought_signatures: false,
        ai_sdk: Some(AiSdk {
            keys: &["bedrock"],
            signature: Some("signature"),
            redacted: Some("redactedData"),
            ..AiSdk::NONE
        }),
    },
};

const MISTRAL: Row = Row {
    id: "mistral",
    name: "Mistral",
    default_model: "mistral-large-latest",
    prefixes: &[],
    // Its model words, wherever they stand (`open-mixtral-8x22b`, `ft:open-mistral-7b:…`).
    words: &[
        "mistral",
        "mixtral",
        "magistral",
        "codestral",
        "ministral",
        "pixtral",
        "devstral",
        "voxtral",
    ],
    tagged_is_local: true,
    takes_unknown: false,
    served_by: &[Provider::Ollama],
    rules: Rules::OpenAi,
    tokens: Tokens::Estimate,
    cache: None,
    api: None,
    live: Live::NONE,
    key_env: Some("MISTRAL_API_KEY"),
    counted: &["mistral-large-latest"],
    reasoning: Reasoning::NONE,
};

const COHERE: Row = Row {
    id: "cohere",
    name: "Cohere",
    default_model: "command-a-03-2025",
    prefixes: &["command", "c4ai-", "aya"],
    words: &[],
    tagged_is_local: true,
    takes_unknown: false,
    served_by: &[Provider::Ollama],
    rules: Rules::OpenAi,
    tokens: Tokens::Estimate,
    cache: None,
    api: None,
    live: Live::NONE,
    key_env: Some("CO_API_KEY"),
    counted: &["command-a-03-2025"],
    reasoning: Reasoning::NONE,
};

const DEEPSEEK: Row = Row {
    id: "deepseek",
    name: "DeepSeek",
    default_model: "deepseek-chat",
    prefixes: &["deepseek"],
    words: &[],
    tagged_is_local: true,
    takes_unknown: false,
    // api.deepseek.com serves its models through OpenAI's Chat Completions and Responses.
    served_by: &[Provider::OpenAi, Provider::Ollama],
    rules: Rules::OpenAi,
    tokens: Tokens::Estimate,
    cache: None,
    api: None,
    live: Live::NONE,
    key_env: Some("DEEPSEEK_API_KEY"),
    counted: &["deepseek-chat"],
    reasoning: Reasoning::NONE,
};

const OLLAMA: Row = Row {
    id: "ollama",
    name: "Ollama",
    default_model: "llama3.2",
    prefixes: &[],
    words: &[],
    tagged_is_local: true,
    takes_unknown: true,
    // Ollama's `/v1` and Ollama Cloud take `name:tag` through OpenAI's API.
    served_by: &[Provider::OpenAi],
    rules: Rules::OpenAi,
    tokens: Tokens::Estimate,
    cache: None,
    api: None,
    live: Live::NONE,
    key_env: None,
    counted: &["llama3.1"],
    reasoning: Reasoning::NONE,
};

impl Provider {
    /// Every provider, in the model editor's order.
    pub const ALL: [Provider; 8] = [
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Bedrock,
        Provider::Mistral,
        Provider::Cohere,
        Provider::DeepSeek,
        Provider::Ollama,
    ];

    /// The provider's row.
    pub const fn row(self) -> &'static Row {
        match self {
            Provider::OpenAi => &OPENAI,
            Provider::Anthropic => &ANTHROPIC,
            Provider::Gemini => &GEMINI,
            Provider::Bedrock => &BEDROCK,
            Provider::Mistral => &MISTRAL,
            Provider::Cohere => &COHERE,
            Provider::DeepSeek => &DEEPSEEK,
            Provider::Ollama => &OLLAMA,
        }
    }

    /// Key in `options.models`: `openai`, `anthropic`, `gemini`, `bedrock`, `mistral`,
    /// `cohere`, `deepseek`, `ollama`.
    pub fn id(self) -> &'static str {
        self.row().id
    }

    /// The provider with this id.
    pub fn from_id(id: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|f| f.id() == id)
    }

    /// For people: `OpenAI`, `Anthropic`, …
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The model sent when nothing else applies: a current model each API serves.
    pub const fn default_model(self) -> &'static str {
        self.row().default_model
    }

    /// The lint and rule family.
    pub const fn rules(self) -> Rules {
        self.row().rules
    }

    /// The provider a model name says it belongs to, if any (`None`: a name no hosted API
    /// claims, such as a model served locally under its own name). The one classifier of
    /// model names: prefixes first, then the `name:tag` of a local model, then the open-weight
    /// names nobody owns, then the model words.
    pub fn of_name(name: &str) -> Option<Provider> {
        let n = name.trim().to_ascii_lowercase();
        let by_prefix = |n: &str, tagged: bool| {
            Provider::ALL.into_iter().find(|p| {
                let row = p.row();
                row.tagged_is_local == tagged && row.prefixes.iter().any(|x| n.starts_with(x))
            })
        };
        if let Some(p) = by_prefix(&n, false) {
            return Some(p);
        }
        if let Some(base) = n.strip_prefix("ft:") {
            // Fine-tunes: `ft:gpt-4o:org::id` (OpenAI), `ft:open-mistral-7b:…` (Mistral).
            let base = base.split(':').next().unwrap_or_default();
            return match Provider::of_name(base) {
                Some(Provider::Mistral) => Some(Provider::Mistral),
                _ => Some(Provider::OpenAi),
            };
        }
        if n.contains(':') {
            return Some(Provider::Ollama); // `name:tag`
        }
        if OPEN_WEIGHTS.iter().any(|o| n.starts_with(o)) {
            return None;
        }
        by_prefix(&n, true).or_else(|| {
            Provider::ALL
                .into_iter()
                .find(|p| p.row().words.iter().any(|w| n.contains(w)))
        })
    }

    /// Whether this provider's API takes the model name: its own names, the names of the
    /// providers it also serves ([`Row::served_by`]), and where it takes them, names no
    /// provider owns. Ollama serves open models of several families under their short names
    /// (`mistral`, `gemma3`, `deepseek-r1`, `command-r`).
    pub fn accepts(self, name: &str) -> bool {
        if name.trim().is_empty() {
            return false;
        }
        match Provider::of_name(name) {
            None => self.row().takes_unknown,
            Some(owner) => owner == self || owner.row().served_by.contains(&self),
        }
    }

    /// The provider whose model reads the tool text of `name` (the Cost view's family): the
    /// owner of the name, Claude behind Bedrock as Claude, and a name nobody owns as a local
    /// chat template reads it ([`LOCAL_FAMILIES`]) or, else, as an OpenAI-compatible model.
    pub fn reader_of(name: &str) -> Provider {
        let n = name.trim().to_ascii_lowercase();
        match Provider::of_name(&n) {
            Some(Provider::Bedrock) if n.contains("claude") => Provider::Anthropic,
            Some(p) => p,
            None if LOCAL_FAMILIES.iter().any(|f| n.starts_with(f)) && !n.contains('/') => {
                Provider::Ollama
            }
            None => Provider::OpenAi,
        }
    }
}

impl Rules {
    /// The tool-name rule of this family.
    pub const fn names(self) -> NameRule {
        match self {
            Rules::OpenAi => NameRule {
                rule: "openai.name",
                max: 64,
                extra: &[],
                letter_first: false,
                text: "^[a-zA-Z0-9_-]{1,64}$",
            },
            Rules::Anthropic => NameRule {
                rule: "anthropic.name",
                max: 128,
                extra: &[],
                letter_first: false,
                text: "^[a-zA-Z0-9_-]{1,128}$",
            },
            Rules::Gemini => NameRule {
                rule: "gemini.name",
                max: 128,
                extra: &['.', ':'],
                letter_first: true,
                text: "a letter or _ first, then letters, digits, _ . : -, at most 128",
            },
            Rules::Bedrock => NameRule {
                rule: "bedrock.name",
                max: 64,
                extra: &[],
                letter_first: false,
                text: "^[a-zA-Z0-9_-]{1,64}$",
            },
            Rules::Mcp => NameRule {
                rule: "mcp.name",
                max: 128,
                extra: &['.'],
                letter_first: false,
                text: "^[A-Za-z0-9_.-]{1,128}$",
            },
        }
    }
}

/// One provider's tool-name rule (sources in `schema::names`).
#[derive(Debug, Clone, Copy)]
pub struct NameRule {
    /// Rule id.
    pub rule: &'static str,
    /// Longest name.
    pub max: usize,
    /// Extra characters allowed besides ASCII letters, digits, `_` and `-`.
    pub extra: &'static [char],
    /// The first character must be a letter or `_`.
    pub letter_first: bool,
    /// The rule as a person reads it.
    pub text: &'static str,
}

impl NameRule {
    fn allowed(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || c == '-' || self.extra.contains(&c)
    }

    /// True when the name obeys the rule.
    pub fn ok(&self, name: &str) -> bool {
        let n = name.chars().count();
        n >= 1
            && n <= self.max
            && name.chars().all(|c| self.allowed(c))
            && (!self.letter_first
                || name
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
    }

    /// `name` if the rule accepts it and it is not taken, else the sanitised name made unique
    /// with `_2`, `_3`… (cut so the suffix fits): the rename the lint's fix offers.
    pub fn unique(&self, name: &str, taken: &[String]) -> String {
        let base = if self.ok(name) {
            name.to_string()
        } else {
            self.sanitise(name)
        };
        let mut out = base.clone();
        let mut n = 2;
        while taken.contains(&out) {
            let suffix = format!("_{n}");
            let keep = self.max.saturating_sub(suffix.len());
            out = format!("{}{suffix}", base.chars().take(keep).collect::<String>());
            n += 1;
        }
        out
    }

    /// The name with disallowed characters replaced, a leading `_` where needed, cut to fit.
    pub fn sanitise(&self, name: &str) -> String {
        let mut s: String = name
            .chars()
            .map(|c| if self.allowed(c) { c } else { '_' })
            .collect();
        if s.is_empty() {
            s = "tool".into();
        }
        if self.letter_first
            && !s
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        {
            s.insert(0, '_');
        }
        s.chars().take(self.max).collect()
    }
}

// Reasoning state outside the provider's own formats.

/// How a provider's reasoning state is spelled outside its own formats.
#[derive(Debug, Clone, Copy)]
pub struct Reasoning {
    /// A stand-in it accepts in place of a signature it did not issue (for calls made by
    /// another model or written by hand).
    pub placeholder: Option<&'static str>,
    /// It issues thought signatures: opaque state riding on a text or call part, which it
    /// alone verifies whatever API carries it.
    pub thought_signatures: bool,
    /// Where the Vercel AI SDK's provider packages keep it, when they do.
    pub ai_sdk: Option<AiSdk>,
}

impl Reasoning {
    /// Nothing known.
    pub const NONE: Reasoning = Reasoning {
        placeholder: None,
        thought_signatures: false,
        ai_sdk: None,
    };
}

/// The `providerOptions` of a provider's AI SDK package: its keys and the fields of each kind
/// of opaque state under them (sources: the packages' `providerOptions` readers in
/// github.com/vercel/ai, `packages/*/src/convert-to-*-messages*.ts`).
#[derive(Debug, Clone, Copy)]
pub struct AiSdk {
    /// The keys its packages read, the one written first.
    pub keys: &'static [&'static str],
    /// The field of a signature over visible thinking.
    pub signature: Option<&'static str>,
    /// The field of thinking the provider encrypted.
    pub redacted: Option<&'static str>,
    /// The field of reasoning kept encrypted by the provider.
    pub encrypted: Option<&'static str>,
    /// The field of a thought signature (on reasoning, text and tool-call parts).
    pub thought_signature: Option<&'static str>,
    /// The option that sets thinking.
    pub thinking: Option<&'static str>,
}

impl AiSdk {
    /// No key, no field.
    pub const NONE: AiSdk = AiSdk {
        keys: &[],
        signature: None,
        redacted: None,
        encrypted: None,
        thought_signature: None,
        thinking: None,
    };
}

// ---------------------------------------------------------------------------------------------
// Live: the routes a page calls, their quirks, and what their recordings keep

/// What the live calls know of a provider's API besides how it is called ([`Api`]): the
/// routes a page can pick, the base URLs of its that a page cannot call, how it answers a bad
/// key, and the headers of its traffic a recording keeps.
#[derive(Debug, Clone, Copy)]
pub struct Live {
    /// Its wire formats a page can pick, in the picker's order.
    pub routes: &'static [Route],
    /// Base URLs of its that a page cannot call, and why.
    pub refused: &'static [Refused],
    /// The HTTP status it answers a bad key with (401 unless it says otherwise).
    pub bad_key_status: u16,
    /// Header names (lower case) of its traffic a recording keeps as they are, besides the
    /// ones its requests carry ([`Api::headers`], [`Api::browser_headers`]): version, beta
    /// and timing headers.
    pub kept_headers: &'static [&'static str],
    /// Name prefixes of such headers (its rate-limit headers).
    pub kept_prefixes: &'static [&'static str],
}

impl Live {
    /// A provider a page does not call.
    pub const NONE: Live = Live {
        routes: &[],
        refused: &[],
        bad_key_status: 401,
        kept_headers: &[],
        kept_prefixes: &[],
    };
}

/// One way a page calls an API: a provider's wire format (or a compatible server at a base
/// URL), as the Live tab's picker lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// Stable id, kept in settings and key rings: its format's id (`openai-chat`, …), or
    /// `compatible`.
    pub id: &'static str,
    /// For people.
    pub label: &'static str,
    /// How a streamed answer is asked for.
    pub stream: Stream,
    /// How it counts a request's prompt tokens.
    pub count: Counting,
    /// Why a page cannot call it at all (it is listed to say so).
    pub blocked: Option<&'static str>,
    /// Whether an error in the middle of its stream is an `error` event or object.
    pub error_events: bool,
}

impl Route {
    /// A route streaming with `"stream": true`, counting nothing, callable from a page.
    pub const fn new(id: &'static str, label: &'static str) -> Route {
        Route {
            id,
            label,
            stream: Stream::Body(&[]),
            count: Counting::None,
            blocked: None,
            error_events: true,
        }
    }

    /// Streaming asked this way.
    pub const fn stream(self, stream: Stream) -> Route {
        Route { stream, ..self }
    }

    /// Counting done this way.
    pub const fn count(self, count: Counting) -> Route {
        Route { count, ..self }
    }

    /// Listed only to say why a page cannot call it; its stream's errors are its own.
    pub const fn blocked(self, why: &'static str) -> Route {
        Route {
            blocked: Some(why),
            error_events: false,
            ..self
        }
    }
}

/// How a route asks for a streamed answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// `"stream": true` in the body, and these fields too (name, JSON text).
    Body(&'static [(&'static str, &'static str)]),
    /// At another path under the base URL (`{model}`: the model), the body unchanged.
    Path(&'static str),
}

/// How a route counts a request's prompt tokens without running it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// It has no counting endpoint.
    None,
    /// Through another route of its provider (by id), in that route's format.
    By(&'static str),
    /// At its own counting endpoint.
    Here(Count),
}

/// A token-counting endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count {
    /// Its path under the base URL (`{model}`: the model).
    pub path: &'static str,
    /// What it takes of the route's request body.
    pub body: CountBody,
    /// The field of its answer holding the count.
    pub answer: &'static str,
    /// For people: what is asked.
    pub endpoint: &'static str,
    /// For people: whose key it needs, with its article (`an OpenAI`).
    pub key: &'static str,
}

/// What a counting endpoint takes of a request body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountBody {
    /// Only these fields (it refuses the others: sampling, `max_tokens`, `stream`, …).
    Keep(&'static [&'static str]),
    /// The whole body inside this field, with the model named there with this prefix.
    Wrap {
        /// The field holding the body.
        field: &'static str,
        /// Text before the model's name.
        model: &'static str,
    },
}

/// A base URL a page cannot call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    /// The host (lower case).
    pub host: &'static str,
    /// Its subdomains too (`host.…`: every region).
    pub subdomains: bool,
    /// Only when the URL's path and query hold this ("": any).
    pub path: &'static str,
    /// Why, and what to do instead.
    pub why: &'static str,
}

impl Refused {
    /// True when a base URL of `host` (lower case) with `rest` (path and query) is this one.
    pub fn matches(&self, host: &str, rest: &str) -> bool {
        let host_is = host == self.host
            || (self.subdomains
                && host
                    .strip_prefix(self.host)
                    .is_some_and(|r| r.starts_with('.')));
        host_is && rest.contains(self.path)
    }
}

/// A server speaking a compatible API at a base URL of the user's: the route's table row and
/// how it is called, by default a local server.
#[derive(Debug, Clone, Copy)]
pub struct Compatible {
    /// Its route.
    pub route: Route,
    /// How it is called by default.
    pub api: Api,
    /// How local servers let a page's origin in, for the warning on an https page.
    pub local_origins: &'static str,
}

/// Any server speaking Chat Completions at a base URL (Ollama, vLLM, LM Studio, DeepSeek,
/// Groq, Mistral, OpenRouter): a local Ollama by default.
pub const COMPATIBLE: Compatible = Compatible {
    route: Route::new("compatible", "OpenAI-compatible base URL"),
    api: Api {
        base_url: "http://localhost:11434/v1",
        key_header: "authorization",
        key_prefix: "Bearer ",
        headers: &[],
        browser_headers: &[],
        console: "the provider's console",
        live_model: "llama3.2",
        cors: "Local servers: Ollama needs OLLAMA_ORIGINS to include this origin, vLLM \
               --allowed-origins, LM Studio \"Enable CORS\"; a hosted API that refuses browsers \
               needs a proxy.",
    },
    local_origins: "Ollama: OLLAMA_ORIGINS, vLLM: --allowed-origins, LM Studio: Enable CORS",
};

const OPENAI_LIVE: Live = Live {
    routes: &[
        // Usage comes in a last chunk only when asked for; OpenAI has no counting endpoint
        // for Chat Completions, so the Responses one counts.
        Route::new("openai-chat", "OpenAI Chat Completions")
            .stream(Stream::Body(&[(
                "stream_options",
                "{\"include_usage\": true}",
            )]))
            .count(Counting::By("openai-responses")),
        // openai-python `client.responses.input_tokens.count`: `{"object":
        // "response.input_tokens", "input_tokens": n}`.
        Route::new("openai-responses", "OpenAI Responses").count(Counting::Here(Count {
            path: "/responses/input_tokens",
            body: CountBody::Keep(&[
                "model",
                "input",
                "instructions",
                "tools",
                "tool_choice",
                "parallel_tool_calls",
                "reasoning",
                "text",
                "truncation",
                "previous_response_id",
                "conversation",
            ]),
            answer: "input_tokens",
            endpoint: "the Responses API's input-token count",
            key: "an OpenAI",
        })),
    ],
    refused: &[],
    bad_key_status: 401,
    kept_headers: &["openai-beta", "openai-processing-ms", "openai-version"],
    kept_prefixes: &[],
};

const ANTHROPIC_LIVE: Live = Live {
    // anthropic `messages.count_tokens`: a Messages body without `max_tokens`, `stream` or
    // sampling → `{"input_tokens": n}`.
    routes: &[
        Route::new("anthropic", "Anthropic Messages").count(Counting::Here(Count {
            path: "/v1/messages/count_tokens",
            body: CountBody::Keep(&[
                "model",
                "messages",
                "system",
                "tools",
                "tool_choice",
                "thinking",
                "mcp_servers",
            ]),
            answer: "input_tokens",
            endpoint: "the Messages API's count_tokens",
            key: "an Anthropic",
        })),
    ],
    refused: &[],
    bad_key_status: 401,
    kept_headers: &["anthropic-beta"],
    kept_prefixes: &["anthropic-ratelimit-"],
};

const GEMINI_LIVE: Live = Live {
    // google-genai `models.count_tokens`, the REST `CountTokensRequest`: the whole
    // `generateContent` body in `generateContentRequest` → `{"totalTokens": n}`.
    routes: &[Route::new("gemini", "Gemini (generateContent)")
        .stream(Stream::Path(
            "/models/{model}:streamGenerateContent?alt=sse",
        ))
        .count(Counting::Here(Count {
            path: "/models/{model}:countTokens",
            body: CountBody::Wrap {
                field: "generateContentRequest",
                model: "models/",
            },
            answer: "totalTokens",
            endpoint: "the countTokens endpoint",
            key: "a Google Gemini",
        }))],
    refused: &[Refused {
        host: "generativelanguage.googleapis.com",
        subdomains: false,
        path: "/openai",
        why: "Gemini's OpenAI-compatible endpoint refuses cross-origin requests (it sends \
              no CORS headers), so a page cannot call it. Pick \"Gemini (generateContent)\": \
              the native API answers browsers.",
    }],
    bad_key_status: 400,
    kept_headers: &["x-goog-api-client"],
    kept_prefixes: &[],
};

const BEDROCK_LIVE: Live = Live {
    routes: &[Route::new("bedrock", "Amazon Bedrock Converse")
        .stream(Stream::Path("/model/{model}/converse-stream"))
        .blocked(
            "Bedrock cannot be called from a browser: every request must be signed with AWS \
             Signature V4 using your AWS secret key, and Bedrock does not answer a browser's CORS \
             preflight. Use \"As code\" (Python with boto3) instead, or record a ConverseStream \
             and open it in Replay.",
        )],
    refused: &[Refused {
        host: "bedrock-runtime",
        subdomains: true,
        path: "",
        why: "Bedrock's endpoints need AWS SigV4 signing and answer no CORS preflight.",
    }],
    bad_key_status: 401,
    kept_headers: &[],
    kept_prefixes: &[],
};

impl Row {
    /// True when a recording keeps this header (lower case) of the provider's traffic as it
    /// is: the headers its requests carry besides the key, and [`Live::kept_headers`].
    pub fn keeps_header(&self, name: &str) -> bool {
        let sent = self.api.iter().any(|api| {
            api.headers
                .iter()
                .chain(api.browser_headers)
                .any(|(h, _)| *h == name)
        });
        sent || self.live.kept_headers.contains(&name)
            || self.live.kept_prefixes.iter().any(|p| name.starts_with(p))
    }
}

impl Rules {
    /// The rules of a format that names any provider's models (the AI SDK's tools go to any
    /// of them): OpenAI's, the common bar.
    pub const COMMON: Rules = Rules::OpenAi;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_its_own() {
        for p in Provider::ALL {
            assert_eq!(Provider::from_id(p.id()), Some(p));
            assert!(p.accepts(p.default_model()), "{p:?}");
            // Ollama's default is an open-weight name nobody owns, which Ollama takes.
            match Provider::of_name(p.default_model()) {
                Some(owner) => assert_eq!(owner, p),
                None => assert!(p.row().takes_unknown, "{p:?}"),
            }
        }
    }

    #[test]
    fn the_classifier_on_names_of_open_and_shared_families() {
        // Mixtral is Mistral's model, wherever the word stands.
        assert_eq!(Provider::of_name("mixtral-8x7b"), Some(Provider::Mistral));
        assert_eq!(Provider::reader_of("mixtral-8x7b"), Provider::Mistral);
        // Gemma is open weights: no provider's API owns the name; Ollama serves it, and the
        // Cost view counts it as a local chat template reads it.
        assert_eq!(Provider::of_name("gemma3"), None);
        assert!(Provider::Ollama.accepts("gemma3"));
        assert!(!Provider::Gemini.accepts("gemma3"));
        assert_eq!(Provider::reader_of("gemma3"), Provider::Ollama);
        // Claude behind Bedrock reads tools as Claude does.
        assert_eq!(
            Provider::reader_of("us.anthropic.claude-sonnet-4-5-20250929-v1:0"),
            Provider::Anthropic
        );
        assert_eq!(
            Provider::reader_of("amazon.nova-pro-v1:0"),
            Provider::Bedrock
        );
        assert_eq!(
            Provider::reader_of("meta-llama/Llama-3.1-8B-Instruct"),
            Provider::OpenAi
        );
    }
}
