//! "Copy as curl / Python / TypeScript": a runnable program that sends a pane's request body
//! to its provider.
//!
//! The body is embedded exactly: in curl as a quoted heredoc (`<<'JSON'`, no expansion, with a
//! terminator that is no line of the body), in Python as a literal (`true` → `True`, strings
//! re-escaped, numbers as written), in TypeScript as an object literal (plain JavaScript, no
//! type annotations, top-level `await`: an ES module). The API key is never in the snippet: it
//! is read from the environment (`$OPENAI_API_KEY`, `os.environ[…]`, `process.env.…`).
//!
//! Python uses the provider's own SDK where the body is exactly that SDK call's keyword
//! arguments (`client.chat.completions.create(**body)`, boto3 `converse(**body)`, …), else
//! `httpx`; TypeScript uses `fetch` (no install) except for Bedrock, whose SigV4 signing needs
//! the AWS SDK. Per format:
//!
//! - `gemini`: the model is in the URL, not the body (pass it to [`snippet_with_model`]; a
//!   placeholder otherwise);
//! - `bedrock`: the body is what boto3's `converse` takes, `modelId` included; curl sends it
//!   without `modelId`, which goes in the URL (percent-encoded: `…v1%3A0`; `--aws-sigv4` signs
//!   such paths right from curl 8.9);
//! - `mcp`: a transcript, not one request. Every request message in it (`tools/list`,
//!   `tools/call`) is POSTed on its own to a Streamable HTTP endpoint (`$MCP_URL`) with the
//!   headers revision 2026-07-28 requires (`Accept`, `MCP-Protocol-Version`, `Mcp-Method`,
//!   `Mcp-Name`); the transcript's responses are what the server answers, not sent;
//! - `anthropic-xml`: a prompt convention of the retired Text Completions API, not an API body.
//!   The prompt is sent as one user message to the Messages API, with `</function_calls>` as
//!   stop sequence as the convention has it, so the reply can be read back in the XML pane.

use crate::formats::Format;
use serde_json::Value;
use std::fmt;

/// A snippet language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// A shell command (bash, zsh) with curl.
    Curl,
    /// Python 3.
    Python,
    /// TypeScript that is also valid JavaScript (an ES module).
    TypeScript,
}

impl Lang {
    /// Every language, in menu order.
    pub const ALL: [Lang; 3] = [Lang::Curl, Lang::Python, Lang::TypeScript];

    /// `curl`, `python`, `typescript`.
    pub fn id(self) -> &'static str {
        match self {
            Lang::Curl => "curl",
            Lang::Python => "python",
            Lang::TypeScript => "typescript",
        }
    }

    /// For a menu: `curl`, `Python`, `TypeScript`.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Curl => "curl",
            Lang::Python => "Python",
            Lang::TypeScript => "TypeScript",
        }
    }
}

/// Why no snippet can be made for this body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    /// For a person.
    pub reason: String,
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Unavailable {}

fn unavailable(reason: impl Into<String>) -> Unavailable {
    Unavailable {
        reason: reason.into(),
    }
}

/// Model named in Gemini URLs when none is given.
pub const GEMINI_MODEL: &str = crate::model::ModelFamily::Gemini.default_model();
/// Model the legacy XML prompt is sent to when none is given (Anthropic's placeholder).
pub const ANTHROPIC_MODEL: &str = crate::model::ModelFamily::Anthropic.default_model();
/// Where MCP snippets POST when `$MCP_URL` is not set (the Python SDK's default endpoint).
pub const MCP_URL: &str = "http://localhost:8000/mcp";
/// MCP protocol revision sent when a request names none.
const MCP_VERSION: &str = "2026-07-28";
const MCP_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// Bedrock region when `$AWS_REGION` is not set.
const AWS_REGION: &str = "us-east-1";

/// The environment variable a format's snippets read the API key from; `None` for formats
/// that need none (Ollama, MCP) or take credentials from their SDK's chain (Bedrock).
pub fn api_key_env(format: Format) -> Option<&'static str> {
    match format {
        Format::OpenAiChat | Format::OpenAiResponses => Some("OPENAI_API_KEY"),
        Format::Anthropic | Format::AnthropicXml => Some("ANTHROPIC_API_KEY"),
        Format::Gemini => Some("GEMINI_API_KEY"),
        Format::DeepSeek => Some("DEEPSEEK_API_KEY"),
        Format::Mistral => Some("MISTRAL_API_KEY"),
        // The cohere SDK's own variable.
        Format::Cohere => Some("CO_API_KEY"),
        Format::Bedrock | Format::Ollama | Format::Mcp | Format::AiSdk => None,
    }
}

/// A runnable snippet sending `body` (the pane's rendered request text) to `format`'s
/// provider. The API key is read from the environment; never a literal key.
pub fn snippet(format: Format, lang: Lang, body: &str) -> Result<String, Unavailable> {
    snippet_with_model(format, lang, body, None)
}

/// The snippet for the exchange `x` as `format`'s request `body`: the model outside the body
/// (Gemini's URL, the legacy prompt's Messages call) is the exchange's model for that provider
/// ([`Exchange::model_for`](crate::model::Exchange::model_for)), the one the body names too.
pub fn snippet_for(
    x: &crate::model::Exchange,
    format: Format,
    lang: Lang,
    body: &str,
) -> Result<String, Unavailable> {
    let model = crate::model::ModelFamily::of_format(format).map(|f| x.model_for(f).name);
    snippet_with_model(format, lang, body, model.as_deref())
}

/// [`snippet`] with the model for formats that name it outside the body: Gemini's URL, and the
/// Messages call the legacy XML prompt is sent with. Other formats ignore it (their body names
/// the model).
pub fn snippet_with_model(
    format: Format,
    lang: Lang,
    body: &str,
    model: Option<&str>,
) -> Result<String, Unavailable> {
    match format {
        Format::AnthropicXml => return Ok(anthropic_xml(lang, body, model)),
        Format::Mcp => return mcp(lang, body),
        Format::AiSdk => return Err(unavailable(
            "AI SDK messages are passed to generateText in a TypeScript app, not sent over HTTP",
        )),
        Format::OpenAiChat
        | Format::OpenAiResponses
        | Format::Anthropic
        | Format::Gemini
        | Format::Bedrock
        | Format::DeepSeek
        | Format::Mistral
        | Format::Cohere
        | Format::Ollama => {}
    }
    let doc: Value = serde_json::from_str(body)
        .map_err(|e| unavailable(format!("the request is not valid JSON ({e})")))?;
    let Value::Object(fields) = &doc else {
        return Err(unavailable("the request body is not a JSON object"));
    };
    let Some(api) = api(format, fields, model) else {
        return Err(unavailable("this format has no HTTP request"));
    };
    Ok(match lang {
        Lang::Curl => {
            let heredoc_body = match &api.curl_body {
                Some(b) => b.as_str(),
                None => body,
            };
            curl(&api, heredoc_body)
        }
        Lang::Python => python(&api, body),
        Lang::TypeScript => typescript(&api, body),
    })
}

/// A header value: literal text, then optionally an environment variable.
struct Header {
    name: &'static str,
    text: String,
    env: Option<&'static str>,
}

fn literal(name: &'static str, text: impl Into<String>) -> Header {
    Header {
        name,
        text: text.into(),
        env: None,
    }
}

fn from_env(name: &'static str, prefix: &str, env: &'static str) -> Header {
    Header {
        name,
        text: prefix.to_string(),
        env: Some(env),
    }
}

/// How Python sends the body.
enum PySdk {
    /// `client = <constructor>` after `<import>`, then `response = client.<call>(**body)`.
    Client {
        install: &'static str,
        import: &'static str,
        constructor: String,
        call: &'static str,
        print: &'static str,
    },
    /// `httpx.post(url, headers=…, json=body)`.
    Httpx,
}

/// Everything the three languages need to know about one provider call.
struct Api {
    /// Comment heading the snippet.
    title: String,
    /// The URL (curl, fetch, httpx). For Bedrock curl, a shell word using `$REGION`.
    url: String,
    headers: Vec<Header>,
    /// Lines of shell run before curl (variables).
    curl_setup: Vec<String>,
    /// Extra curl options (`--aws-sigv4 …`).
    curl_options: Vec<String>,
    /// The body curl sends when it is not the input (Bedrock without `modelId`).
    curl_body: Option<String>,
    python: PySdk,
    /// TypeScript that is not `fetch` (Bedrock): the whole program around `const body`.
    ts_sdk: Option<(&'static str, &'static str)>,
}

fn bearer(env: &'static str) -> Vec<Header> {
    vec![from_env("Authorization", "Bearer ", env)]
}

fn openai_client(env: &'static str, base_url: Option<&str>) -> String {
    match base_url {
        Some(url) => format!(
            "OpenAI(api_key=os.environ[\"{env}\"], base_url={})",
            py_string(url)
        ),
        None => format!("OpenAI(api_key=os.environ[\"{env}\"])"),
    }
}

/// The HTTP API a format's requests go to; `None` for the formats that are not an HTTP body of
/// their own (the legacy prompt and MCP have their own snippets, the AI SDK's messages none).
fn api(
    format: Format,
    fields: &serde_json::Map<String, Value>,
    model: Option<&str>,
) -> Option<Api> {
    let base = |title: &str, url: &str, headers: Vec<Header>, python: PySdk| Api {
        title: title.to_string(),
        url: url.to_string(),
        headers,
        curl_setup: Vec::new(),
        curl_options: Vec::new(),
        curl_body: None,
        python,
        ts_sdk: None,
    };
    let openai = |call: &'static str, env: &'static str, base_url: Option<&str>| PySdk::Client {
        install: "openai",
        import: "from openai import OpenAI",
        constructor: openai_client(env, base_url),
        call,
        print: "print(response.model_dump_json(indent=2))",
    };
    Some(match format {
        Format::OpenAiResponses => base(
            "OpenAI Responses",
            "https://api.openai.com/v1/responses",
            bearer("OPENAI_API_KEY"),
            openai("responses.create", "OPENAI_API_KEY", None),
        ),
        Format::DeepSeek => base(
            "DeepSeek (OpenAI-compatible Chat Completions)",
            "https://api.deepseek.com/chat/completions",
            bearer("DEEPSEEK_API_KEY"),
            openai(
                "chat.completions.create",
                "DEEPSEEK_API_KEY",
                Some("https://api.deepseek.com"),
            ),
        ),
        Format::Mistral => base(
            "Mistral Chat Completions",
            "https://api.mistral.ai/v1/chat/completions",
            bearer("MISTRAL_API_KEY"),
            PySdk::Client {
                install: "mistralai",
                import: "from mistralai.client import Mistral",
                constructor: "Mistral(api_key=os.environ[\"MISTRAL_API_KEY\"])".into(),
                call: "chat.complete",
                print: "print(response.model_dump_json(indent=2))",
            },
        ),
        Format::Cohere => base(
            "Cohere Chat v2",
            "https://api.cohere.com/v2/chat",
            bearer("CO_API_KEY"),
            PySdk::Client {
                install: "cohere",
                import: "import cohere",
                constructor: "cohere.ClientV2(api_key=os.environ[\"CO_API_KEY\"])".into(),
                call: "chat",
                print: "print(response)",
            },
        ),
        Format::Ollama => base(
            "Ollama /api/chat (local, no key)",
            "http://localhost:11434/api/chat",
            Vec::new(),
            PySdk::Client {
                install: "ollama",
                import: "import ollama",
                constructor: "ollama.Client()".into(),
                call: "chat",
                print: "print(response)",
            },
        ),
        Format::Anthropic => base(
            "Anthropic Messages",
            "https://api.anthropic.com/v1/messages",
            anthropic_headers(),
            PySdk::Client {
                install: "anthropic",
                import: "import anthropic",
                constructor: "anthropic.Anthropic(api_key=os.environ[\"ANTHROPIC_API_KEY\"])"
                    .into(),
                call: "messages.create",
                print: "print(response.model_dump_json(indent=2))",
            },
        ),
        Format::Gemini => {
            let model = model.filter(|m| !m.is_empty()).unwrap_or(GEMINI_MODEL);
            let url = format!(
                "https://generativelanguage.googleapis.com/v1beta/models/{}:generateContent",
                percent_encode(model)
            );
            base(
                &format!("Google Gemini generateContent ({model})"),
                &url,
                vec![from_env("x-goog-api-key", "", "GEMINI_API_KEY")],
                PySdk::Httpx,
            )
        }
        Format::Bedrock => {
            let model_id = fields
                .get("modelId")
                .and_then(Value::as_str)
                .unwrap_or("MODEL_ID");
            let mut rest = fields.clone();
            // Keep the order of the other fields.
            rest.shift_remove("modelId");
            Api {
                title: "Amazon Bedrock Converse".into(),
                url: format!(
                    "https://bedrock-runtime.$REGION.amazonaws.com/model/{}/converse",
                    percent_encode(model_id)
                ),
                headers: Vec::new(),
                curl_setup: vec![
                    "# AWS credentials from the environment; temporary ones also need".into(),
                    "#   -H \"x-amz-security-token: $AWS_SESSION_TOKEN\"".into(),
                    "# --aws-sigv4 needs curl 8.9 or later for model ids with a colon.".into(),
                    format!("REGION=\"${{AWS_REGION:-{AWS_REGION}}}\""),
                ],
                curl_options: vec![
                    "--aws-sigv4 \"aws:amz:$REGION:bedrock\"".into(),
                    "--user \"$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY\"".into(),
                ],
                curl_body: Some(crate::formats::json::pretty(&Value::Object(rest))),
                python: PySdk::Client {
                    install: "boto3",
                    import: "import boto3",
                    constructor: format!(
                        "boto3.client(\"bedrock-runtime\", region_name=os.environ.get(\"AWS_REGION\", \"{AWS_REGION}\"))"
                    ),
                    call: "converse",
                    print: "print(json.dumps(response, indent=2, default=str))",
                },
                ts_sdk: Some((
                    "import { BedrockRuntimeClient, ConverseCommand } from \"@aws-sdk/client-bedrock-runtime\";",
                    "@aws-sdk/client-bedrock-runtime",
                )),
            }
        }
        Format::OpenAiChat => base(
            "OpenAI Chat Completions",
            "https://api.openai.com/v1/chat/completions",
            bearer("OPENAI_API_KEY"),
            openai("chat.completions.create", "OPENAI_API_KEY", None),
        ),
        Format::AnthropicXml | Format::Mcp | Format::AiSdk => return None,
    })
}

fn anthropic_headers() -> Vec<Header> {
    vec![
        from_env("x-api-key", "", "ANTHROPIC_API_KEY"),
        literal("anthropic-version", "2023-06-01"),
    ]
}

// ---------------------------------------------------------------------------------------------
// curl

fn curl(api: &Api, body: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!("# {}\n", api.title));
    for env in api.headers.iter().filter_map(|h| h.env) {
        out.push_str(&format!(
            "# The key comes from the environment: export {env}=…\n"
        ));
    }
    for line in &api.curl_setup {
        out.push_str(line);
        out.push('\n');
    }
    let mut args = vec![sh_word(&api.url)];
    args.extend(api.curl_options.iter().cloned());
    for h in &api.headers {
        args.push(format!("-H {}", sh_header(h)));
    }
    args.push("-H \"Content-Type: application/json\"".into());
    out.push_str(&curl_call(&args, body));
    out
}

/// `curl <args…> --data-binary @- <<'TERM'`, the body, the terminator.
fn curl_call(args: &[String], body: &str) -> String {
    let term = terminator(body);
    let mut out = String::from("curl ");
    for a in args {
        out.push_str(a);
        out.push_str(" \\\n  ");
    }
    out.push_str(&format!("--data-binary @- <<'{term}'\n{body}\n{term}\n"));
    out
}

/// `JSON`, or `JSON_1`, `JSON_2`, … : the first that is no line of the body (a heredoc ends at
/// the first line equal to its terminator).
fn terminator(body: &str) -> String {
    let taken = |t: &str| body.split('\n').any(|line| line == t);
    let mut term = "JSON".to_string();
    let mut n = 0;
    while taken(&term) {
        n += 1;
        term = format!("JSON_{n}");
    }
    term
}

/// A URL or other word for the shell: double-quoted, so `$REGION` expands; callers put no
/// user text in it that is not percent-encoded.
fn sh_word(s: &str) -> String {
    format!("\"{s}\"")
}

/// `"Name: text$ENV"`; literal text with shell-special characters is single-quoted instead.
fn sh_header(h: &Header) -> String {
    match h.env {
        Some(env) if h.text.chars().all(sh_plain) => format!("\"{}: {}${env}\"", h.name, h.text),
        Some(env) => format!(
            "{}\"${env}\"",
            sh_single(&format!("{}: {}", h.name, h.text))
        ),
        None if h.text.chars().all(sh_plain) => format!("\"{}: {}\"", h.name, h.text),
        None => sh_single(&format!("{}: {}", h.name, h.text)),
    }
}

/// Characters that mean nothing special inside shell double quotes (nor to interactive
/// history expansion).
fn sh_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || " -_.,:;/=+@%~()[]{}<>?*&#|^".contains(c)
}

/// `'text'`, with `'` written as `'\''`.
fn sh_single(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

// ---------------------------------------------------------------------------------------------
// Python

fn python(api: &Api, body: &str) -> String {
    let literal = json_to_python(body);
    match &api.python {
        PySdk::Client {
            install,
            import,
            constructor,
            call,
            print,
        } => {
            let env_note = api
                .headers
                .iter()
                .find_map(|h| h.env)
                .map(|e| format!("; export {e}=…"))
                .unwrap_or_default();
            let json_import = if print.contains("json.") {
                "import json\n"
            } else {
                ""
            };
            format!(
                "# {title}: pip install {install}{env_note}\n\
                 {json_import}import os\n\n\
                 {import}\n\n\
                 client = {constructor}\n\n\
                 body = {literal}\n\n\
                 response = client.{call}(**body)\n\
                 {print}\n",
                title = api.title,
            )
        }
        PySdk::Httpx => {
            let headers: Vec<String> = api
                .headers
                .iter()
                .map(|h| {
                    let value = match h.env {
                        Some(env) if h.text.is_empty() => format!("os.environ[\"{env}\"]"),
                        Some(env) => format!("{} + os.environ[\"{env}\"]", py_string(&h.text)),
                        None => py_string(&h.text),
                    };
                    format!("{}: {value}", py_string(h.name))
                })
                .collect();
            let env_note = api
                .headers
                .iter()
                .find_map(|h| h.env)
                .map(|e| format!("; export {e}=…"))
                .unwrap_or_default();
            format!(
                "# {title}: pip install httpx{env_note}\n\
                 import os\n\n\
                 import httpx\n\n\
                 body = {literal}\n\n\
                 response = httpx.post(\n    {url},\n    headers={{{headers}}},\n    json=body,\n    timeout=120,\n)\n\
                 print(response.text)\n",
                title = api.title,
                url = py_string(&api.url),
                headers = headers.join(", "),
            )
        }
    }
}

/// JSON text → a Python literal of the same value, keeping the text's layout: strings are
/// re-escaped for Python, `true`/`false`/`null` become `True`/`False`/`None`, numbers and
/// punctuation are copied. The text must be valid JSON (callers parse it first).
fn json_to_python(json: &str) -> String {
    transliterate(json.trim(), |token, out| match token {
        Token::String(s) => out.push_str(&py_string(&s)),
        Token::Key(s) => out.push_str(&py_string(&s)),
        Token::Word("true") => out.push_str("True"),
        Token::Word("false") => out.push_str("False"),
        Token::Word("null") => out.push_str("None"),
        Token::Word(w) => out.push_str(w),
    })
}

/// A Python string literal: double quotes, escapes for control, invisible and layout
/// characters, everything else as it is.
fn py_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if invisible(c) && (c as u32) <= 0xffff => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if invisible(c) => out.push_str(&format!("\\U{:08x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Characters that are invisible or change the layout or reading order of source text
/// (C1 controls, format characters, line and paragraph separators, bidi controls, tags):
/// escaped, so a snippet shows what it sends.
fn invisible(c: char) -> bool {
    matches!(c as u32,
        0x80..=0x9f | 0xad | 0x34f | 0x61c | 0x115f..=0x1160 | 0x17b4..=0x17b5 | 0x180b..=0x180f
        | 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x206f | 0x3164 | 0xfe00..=0xfe0f
        | 0xfeff | 0xffa0 | 0xfff0..=0xfffb | 0x1d173..=0x1d17a | 0xe0000..=0xe0fff)
}

// ---------------------------------------------------------------------------------------------
// TypeScript (plain JavaScript, ES module)

fn typescript(api: &Api, body: &str) -> String {
    let literal = json_to_js(body);
    if let Some((import, package)) = api.ts_sdk {
        return format!(
            "// {title}: npm install {package}; AWS credentials from the environment\n\
             {import}\n\n\
             const client = new BedrockRuntimeClient({{ region: process.env.AWS_REGION ?? \"{AWS_REGION}\" }});\n\n\
             const body = {literal};\n\n\
             const response = await client.send(new ConverseCommand(body));\n\
             console.log(JSON.stringify(response, null, 2));\n",
            title = api.title,
        );
    }
    let env_note = api
        .headers
        .iter()
        .find_map(|h| h.env)
        .map(|e| format!("; export {e}=…"))
        .unwrap_or_default();
    let mut headers = String::new();
    for h in &api.headers {
        let value = match h.env {
            Some(env) => format!("`{}${{process.env.{env}}}`", js_template_text(&h.text)),
            None => js_string(&h.text),
        };
        headers.push_str(&format!("    {}: {value},\n", js_string(h.name)));
    }
    headers.push_str("    \"Content-Type\": \"application/json\",\n");
    format!(
        "// {title} (Node 18+, an ES module){env_note}\n\
         const body = {literal};\n\n\
         const response = await fetch({url}, {{\n  method: \"POST\",\n  headers: {{\n{headers}  }},\n  body: JSON.stringify(body),\n}});\n\
         console.log(await response.text());\n",
        title = api.title,
        url = js_string(&api.url),
    )
}

/// JSON text → a JavaScript expression of the same value, keeping the layout. Strings are
/// re-escaped (invisible characters shown as escapes); a `__proto__` key is written as a
/// computed key, which makes an own property as `JSON.parse` does (a plain `"__proto__":`
/// would set the prototype instead).
fn json_to_js(json: &str) -> String {
    transliterate(json.trim(), |token, out| match token {
        Token::String(s) => out.push_str(&js_string(&s)),
        Token::Key(s) if s == "__proto__" => out.push_str("[\"__proto__\"]"),
        Token::Key(s) => out.push_str(&js_string(&s)),
        Token::Word(w) => out.push_str(w),
    })
}

/// A JavaScript string literal in double quotes.
fn js_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if invisible(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text inside a template literal: `` ` ``, `\` and `${` escaped.
fn js_template_text(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('`', "\\`")
        .replace("${", "\\${")
}

// ---------------------------------------------------------------------------------------------
// JSON text → literal, token by token

enum Token<'a> {
    /// A string value, decoded.
    String(String),
    /// An object key, decoded.
    Key(String),
    /// `true`, `false`, `null`, a number, or punctuation and whitespace.
    Word(&'a str),
}

/// Walk valid JSON text, handing each token to `emit`: strings decoded (and told apart from
/// keys), everything else as it is. Iterative, so any depth is fine.
fn transliterate(json: &str, mut emit: impl FnMut(Token<'_>, &mut String)) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len() + json.len() / 8);
    let mut i = 0;
    while i < b.len() {
        match b.get(i) {
            Some(b'"') => {
                let end = string_end(b, i);
                let raw = json.get(i..end).unwrap_or_default();
                let text: String = serde_json::from_str(raw).unwrap_or_default();
                // A key is a string followed (after whitespace) by ':'.
                let mut j = end;
                while b.get(j).is_some_and(|c| c.is_ascii_whitespace()) {
                    j += 1;
                }
                if b.get(j) == Some(&b':') {
                    emit(Token::Key(text), &mut out);
                } else {
                    emit(Token::String(text), &mut out);
                }
                i = end;
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let start = i;
                while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                    i += 1;
                }
                emit(
                    Token::Word(json.get(start..i).unwrap_or_default()),
                    &mut out,
                );
            }
            Some(_) => {
                // Numbers, punctuation, whitespace: up to the next string or word (an
                // exponent's `e` is a word of its own, copied as it is).
                let start = i;
                while b
                    .get(i)
                    .is_some_and(|c| *c != b'"' && !c.is_ascii_alphabetic())
                {
                    i += 1;
                }
                emit(
                    Token::Word(json.get(start..i).unwrap_or_default()),
                    &mut out,
                );
            }
            None => break,
        }
    }
    out
}

/// Offset just past the string starting at `start` (which is `"`).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Percent-encode everything but RFC 3986 unreserved characters (for a URL path segment).
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for byte in s.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// MCP: every request of the transcript, POSTed on its own

fn mcp(lang: Lang, body: &str) -> Result<String, Unavailable> {
    let doc: Value = serde_json::from_str(body)
        .map_err(|e| unavailable(format!("the transcript is not valid JSON ({e})")))?;
    let messages: Vec<&Value> = match &doc {
        Value::Array(items) => items.iter().collect(),
        one @ Value::Object(_) => vec![one],
        _ => return Err(unavailable("an MCP transcript is a JSON array of messages")),
    };
    let requests: Vec<&Value> = messages
        .into_iter()
        .filter(|m| m.get("method").is_some_and(Value::is_string) && m.get("id").is_some())
        .collect();
    if requests.is_empty() {
        return Err(unavailable(
            "the transcript holds no request to send (only responses or notifications)",
        ));
    }
    let title = |c: &str| {
        format!(
            "{c} MCP over Streamable HTTP (revision 2026-07-28, no session).\n\
             {c} Each request of the transcript is its own POST; the responses in it are what\n\
             {c} the server answers."
        )
    };
    Ok(match lang {
        Lang::Curl => {
            let mut out = format!(
                "{title}\n# Point MCP_URL at the server's endpoint.\nMCP_URL=\"${{MCP_URL:-{MCP_URL}}}\"\n",
                title = title("#")
            );
            for m in requests {
                let method = m.get("method").and_then(Value::as_str).unwrap_or_default();
                let params = m.get("params");
                let version = params
                    .and_then(|p| p.get("_meta"))
                    .and_then(|meta| meta.get(MCP_VERSION_KEY))
                    .and_then(Value::as_str)
                    .unwrap_or(MCP_VERSION);
                let mut headers = vec![
                    literal("Accept", "application/json, text/event-stream"),
                    literal("MCP-Protocol-Version", mcp_header_value(version)),
                    literal("Mcp-Method", mcp_header_value(method)),
                ];
                if let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str) {
                    headers.push(literal("Mcp-Name", mcp_header_value(name)));
                }
                let mut args = vec!["\"$MCP_URL\"".to_string()];
                args.push("-H \"Content-Type: application/json\"".into());
                args.extend(headers.iter().map(|h| format!("-H {}", sh_header(h))));
                out.push('\n');
                out.push_str(&curl_call(&args, &crate::formats::json::pretty(m)));
            }
            out
        }
        Lang::Python => format!(
            "{title}\n# pip install httpx; point MCP_URL at the server's endpoint.\n\
             import base64\nimport os\n\nimport httpx\n\n\
             MCP_URL = os.environ.get(\"MCP_URL\", {url})\n\n\
             body = {literal}\n\n\n\
             def header_value(value):\n    \
                 # Header values that are not plain printable ASCII travel base64-wrapped.\n    \
                 if all(\" \" <= c <= \"~\" for c in value) and value == value.strip():\n        \
                     return value\n    \
                 return \"=?base64?\" + base64.b64encode(value.encode()).decode() + \"?=\"\n\n\n\
             for message in body if isinstance(body, list) else [body]:\n    \
                 if \"method\" not in message or \"id\" not in message:\n        \
                     continue  # a response or a notification\n    \
                 params = message.get(\"params\") or {{}}\n    \
                 meta = params.get(\"_meta\") or {{}}\n    \
                 headers = {{\n        \
                     \"Accept\": \"application/json, text/event-stream\",\n        \
                     \"MCP-Protocol-Version\": header_value(meta.get({key}, {version})),\n        \
                     \"Mcp-Method\": header_value(message[\"method\"]),\n    \
                 }}\n    \
                 if isinstance(params.get(\"name\"), str):\n        \
                     headers[\"Mcp-Name\"] = header_value(params[\"name\"])\n    \
                 response = httpx.post(MCP_URL, headers=headers, json=message, timeout=120)\n    \
                 print(response.text)\n",
            title = title("#"),
            url = py_string(MCP_URL),
            literal = json_to_python(body),
            key = py_string(MCP_VERSION_KEY),
            version = py_string(MCP_VERSION),
        ),
        Lang::TypeScript => format!(
            "{title}\n// Node 18+, an ES module; point MCP_URL at the server's endpoint.\n\
             const MCP_URL = process.env.MCP_URL ?? {url};\n\n\
             const body = {literal};\n\n\
             // Header values that are not plain printable ASCII travel base64-wrapped.\n\
             const headerValue = (value) =>\n  \
                 /^[\\x20-\\x7e]*$/.test(value) && value === value.trim()\n    \
                     ? value\n    \
                     : `=?base64?${{Buffer.from(value, \"utf8\").toString(\"base64\")}}?=`;\n\n\
             for (const message of Array.isArray(body) ? body : [body]) {{\n  \
                 if (!(\"method\" in message) || !(\"id\" in message)) continue; // a response or a notification\n  \
                 const params = message.params ?? {{}};\n  \
                 const headers = {{\n    \
                     \"Content-Type\": \"application/json\",\n    \
                     \"Accept\": \"application/json, text/event-stream\",\n    \
                     \"MCP-Protocol-Version\": headerValue(params._meta?.[{key}] ?? {version}),\n    \
                     \"Mcp-Method\": headerValue(message.method),\n  \
                 }};\n  \
                 if (typeof params.name === \"string\") headers[\"Mcp-Name\"] = headerValue(params.name);\n  \
                 const response = await fetch(MCP_URL, {{ method: \"POST\", headers, body: JSON.stringify(message) }});\n  \
                 console.log(await response.text());\n\
             }}\n",
            title = title("//"),
            url = js_string(MCP_URL),
            literal = json_to_js(body),
            key = js_string(MCP_VERSION_KEY),
            version = js_string(MCP_VERSION),
        ),
    })
}

/// SEP-2243: a header value that is not plain printable ASCII (or has edge whitespace) is sent
/// as `=?base64?…?=`.
fn mcp_header_value(v: &str) -> String {
    let plain = v.bytes().all(|b| (0x20..=0x7e).contains(&b)) && v.trim() == v;
    if plain && !(v.starts_with("=?base64?") && v.ends_with("?=")) {
        v.to_string()
    } else {
        format!("=?base64?{}?=", base64_standard(v.as_bytes()))
    }
}

/// Standard base64 with padding (RFC 4648 §4), for MCP header values.
fn base64_standard(bytes: &[u8]) -> String {
    let url = crate::share::base64url::encode(bytes);
    let mut out: String = url
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The legacy XML prompt, sent as one user message to the Messages API

fn anthropic_xml(lang: Lang, prompt: &str, model: Option<&str>) -> String {
    let model = model.filter(|m| !m.is_empty()).unwrap_or(ANTHROPIC_MODEL);
    let title = |c: &str| {
        format!(
            "{c} Anthropic legacy XML tool use: a prompt convention of the retired Text Completions\n\
             {c} API, sent as one user message to the Messages API"
        )
    };
    match lang {
        Lang::Curl => {
            let body = serde_json::json!({
                "model": model,
                "max_tokens": 1024,
                "stop_sequences": ["</function_calls>"],
                "messages": [{"role": "user", "content": prompt}],
            });
            let api = Api {
                title: title("#").trim_start_matches("# ").to_string(),
                url: "https://api.anthropic.com/v1/messages".into(),
                headers: anthropic_headers(),
                curl_setup: Vec::new(),
                curl_options: Vec::new(),
                curl_body: None,
                python: PySdk::Httpx,
                ts_sdk: None,
            };
            curl(&api, &crate::formats::json::pretty(&body))
        }
        Lang::Python => {
            let lines: Vec<String> = prompt.split_inclusive('\n').map(py_string).collect();
            let literal = match lines.len() {
                0 => "\"\"".to_string(),
                1 => lines.concat(),
                _ => format!("(\n    {}\n)", lines.join("\n    ")),
            };
            format!(
                "{title}.\n# pip install anthropic; export ANTHROPIC_API_KEY=…\n\
                 import os\n\nimport anthropic\n\n\
                 prompt = {literal}\n\n\
                 client = anthropic.Anthropic(api_key=os.environ[\"ANTHROPIC_API_KEY\"])\n\
                 response = client.messages.create(\n    \
                     model={model},\n    \
                     max_tokens=1024,\n    \
                     stop_sequences=[\"</function_calls>\"],\n    \
                     messages=[{{\"role\": \"user\", \"content\": prompt}}],\n\
                 )\n\
                 print(response.model_dump_json(indent=2))\n",
                title = title("#"),
                model = py_string(model),
            )
        }
        Lang::TypeScript => {
            let lines: Vec<String> = prompt.split('\n').map(js_string).collect();
            format!(
                "{title}.\n// Node 18+, an ES module; export ANTHROPIC_API_KEY=…\n\
                 const prompt = [\n  {lines},\n].join(\"\\n\");\n\n\
                 const response = await fetch(\"https://api.anthropic.com/v1/messages\", {{\n  \
                     method: \"POST\",\n  \
                     headers: {{\n    \
                         \"x-api-key\": `${{process.env.ANTHROPIC_API_KEY}}`,\n    \
                         \"anthropic-version\": \"2023-06-01\",\n    \
                         \"Content-Type\": \"application/json\",\n  \
                     }},\n  \
                     body: JSON.stringify({{\n    \
                         model: {model},\n    \
                         max_tokens: 1024,\n    \
                         stop_sequences: [\"</function_calls>\"],\n    \
                         messages: [{{ role: \"user\", content: prompt }}],\n  \
                     }}),\n\
                 }});\n\
                 console.log(await response.text());\n",
                title = title("//"),
                lines = lines.join(",\n  "),
                model = js_string(model),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_python_literal_maps_json_words() {
        let json = "{\n  \"a\": [true, false, null, -1.5e-3, 2E+10, 0],\n  \"t\": \"true\"\n}";
        assert_eq!(
            json_to_python(json),
            "{\n  \"a\": [True, False, None, -1.5e-3, 2E+10, 0],\n  \"t\": \"true\"\n}"
        );
    }

    #[test]
    fn snippets_strings_escape_what_would_hide() {
        assert_eq!(py_string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\x01\"");
        assert_eq!(
            py_string("rtl\u{202e}x\u{e0041}é"),
            "\"rtl\\u202ex\\U000e0041é\""
        );
        assert_eq!(js_string("${x}\u{2028}`"), "\"${x}\\u{2028}`\"");
    }

    #[test]
    fn snippets_js_proto_key_is_computed() {
        assert_eq!(
            json_to_js("{\"__proto__\": {\"x\": \"__proto__\"}}"),
            "{[\"__proto__\"]: {\"x\": \"__proto__\"}}"
        );
    }

    #[test]
    fn snippets_terminator_avoids_body_lines() {
        assert_eq!(terminator("{}"), "JSON");
        assert_eq!(terminator("JSON\nJSON_1\n"), "JSON_2");
        assert_eq!(terminator(" JSON"), "JSON");
    }

    #[test]
    fn snippets_percent_encoding_and_header_values() {
        assert_eq!(
            percent_encode("anthropic.claude-v1:0/x y"),
            "anthropic.claude-v1%3A0%2Fx%20y"
        );
        assert_eq!(mcp_header_value("get_weather"), "get_weather");
        assert_eq!(mcp_header_value("météo"), "=?base64?bcOpdMOpbw==?=");
        assert_eq!(mcp_header_value(" x"), "=?base64?IHg=?=");
    }

    #[test]
    fn snippets_shell_headers_quote_specials() {
        assert_eq!(
            sh_header(&from_env("Authorization", "Bearer ", "K")),
            "\"Authorization: Bearer $K\""
        );
        assert_eq!(sh_header(&literal("X", "a'$b")), "'X: a'\\''$b'");
    }
}
