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

use crate::formats::spec::{Aws, Http, ModelIn, Print, Python, Send};
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
    format.key_env()
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
    let http = match format.send() {
        Send::Http(http) => http,
        Send::Prompt(api) => return Ok(prompt(format, lang, body, model, &api)),
        Send::JsonRpc => return mcp(lang, body),
        Send::Nothing(why) => return Err(unavailable(why)),
    };
    let doc: Value = serde_json::from_str(body)
        .map_err(|e| unavailable(format!("the request is not valid JSON ({e})")))?;
    let Value::Object(fields) = &doc else {
        return Err(unavailable("the request body is not a JSON object"));
    };
    let default_model = format.models().map(|f| f.default_model());
    let api = api(
        &http,
        fields,
        model.filter(|m| !m.is_empty()).or(default_model),
    );
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

impl Api {
    /// `; export VAR=…` for the key's variable, if a header reads one.
    fn env_note(&self) -> String {
        self.headers
            .iter()
            .find_map(|h| h.env)
            .map(|e| format!("; export {e}=…"))
            .unwrap_or_default()
    }
}

fn owned(headers: &[crate::formats::spec::Header]) -> Vec<Header> {
    headers
        .iter()
        .map(|h| Header {
            name: h.name,
            text: h.text.to_string(),
            env: h.env,
        })
        .collect()
}

#[cfg(test)]
fn from_env(name: &'static str, prefix: &str, env: &'static str) -> Header {
    Header {
        name,
        text: prefix.to_string(),
        env: Some(env),
    }
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
    python: Python,
    /// Signed for an AWS service: TypeScript uses its SDK client instead of `fetch`.
    aws: Option<Aws>,
}

/// The call of an HTTP API for a body with these `fields`, naming `model` where the model is
/// not in the body.
fn api(http: &Http, fields: &serde_json::Map<String, Value>, model: Option<&str>) -> Api {
    let mut api = Api {
        title: http.title.to_string(),
        url: http.url.to_string(),
        headers: owned(http.headers),
        curl_setup: Vec::new(),
        curl_options: Vec::new(),
        curl_body: None,
        python: http.python,
        aws: http.aws,
    };
    let model = match http.model {
        ModelIn::Body => None,
        ModelIn::Url => model.or(Some("")),
        ModelIn::BodyAndUrl(field) => {
            let mut rest = fields.clone();
            // Keep the order of the other fields.
            rest.shift_remove(field);
            api.curl_body = Some(crate::formats::json::pretty(&Value::Object(rest)));
            Some(
                fields
                    .get(field)
                    .and_then(Value::as_str)
                    .unwrap_or("MODEL_ID"),
            )
        }
    };
    if let Some(model) = model {
        api.title = api.title.replace("{model}", model);
        api.url = api.url.replace("{model}", &percent_encode(model));
    }
    if let Some(aws) = http.aws {
        api.curl_setup = vec![
            "# AWS credentials from the environment; temporary ones also need".into(),
            "#   -H \"x-amz-security-token: $AWS_SESSION_TOKEN\"".into(),
            "# --aws-sigv4 needs curl 8.9 or later for model ids with a colon.".into(),
            format!("REGION=\"${{AWS_REGION:-{AWS_REGION}}}\""),
        ];
        api.curl_options = vec![
            format!("--aws-sigv4 \"aws:amz:$REGION:{}\"", aws.service),
            "--user \"$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY\"".into(),
        ];
    }
    api
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
    let client = match api.python {
        Python::Sdk(sdk) => Some((
            sdk.install,
            sdk.import
                .map_or_else(|| format!("import {}", sdk.install), str::to_string),
            sdk.constructor,
            sdk.call,
            sdk.print,
        )),
        Python::Httpx => None,
    };
    match client {
        Some((install, import, constructor, call, print)) => {
            let (json_import, print) = print_line(print);
            let env_note = api.env_note();
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
        None => {
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
            let env_note = api.env_note();
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

/// The line printing an SDK's `response`, and the import it needs.
fn print_line(print: Print) -> (&'static str, &'static str) {
    match print {
        Print::Model => ("", "print(response.model_dump_json(indent=2))"),
        Print::Repr => ("", "print(response)"),
        Print::Dict => (
            "import json\n",
            "print(json.dumps(response, indent=2, default=str))",
        ),
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
    quoted(s, |c| {
        if c <= 0xffff {
            format!("\\u{c:04x}")
        } else {
            format!("\\U{c:08x}")
        }
    })
}

/// A string literal in double quotes with the escapes Python and JavaScript share (quote,
/// backslash, `\n`, `\r`, `\t`, `\x..` for other controls); `invisible_escape` spells the
/// escape of an [`invisible`] character (by code point) in the language at hand.
fn quoted(s: &str, invisible_escape: impl Fn(u32) -> String) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::text::push_quoted(s, &mut out, |c, out| match c {
        c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
        c if invisible(c) => out.push_str(&invisible_escape(c as u32)),
        c => out.push(c),
    });
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
    if let Some(Aws {
        package,
        client,
        command,
        ..
    }) = api.aws
    {
        return format!(
            "// {title}: npm install {package}; AWS credentials from the environment\n\
             import {{ {client}, {command} }} from \"{package}\";\n\n\
             const client = new {client}({{ region: process.env.AWS_REGION ?? \"{AWS_REGION}\" }});\n\n\
             const body = {literal};\n\n\
             const response = await client.send(new {command}(body));\n\
             console.log(JSON.stringify(response, null, 2));\n",
            title = api.title,
        );
    }
    let env_note = api.env_note();
    let headers = ts_headers(&api.headers);
    format!(
        "// {title} (Node 18+, an ES module){env_note}\n\
         const body = {literal};\n\n\
         const response = await fetch({url}, {{\n  method: \"POST\",\n  headers: {{\n{headers}  }},\n  body: JSON.stringify(body),\n}});\n\
         console.log(await response.text());\n",
        title = api.title,
        url = js_string(&api.url),
    )
}

/// The `headers` entries of a `fetch` call: each header (a variable's value from
/// `process.env`), then `Content-Type`.
fn ts_headers(headers: &[Header]) -> String {
    let mut out = String::new();
    for h in headers {
        let value = match h.env {
            Some(env) => format!("`{}${{process.env.{env}}}`", js_template_text(&h.text)),
            None => js_string(&h.text),
        };
        out.push_str(&format!("    {}: {value},\n", js_string(h.name)));
    }
    out.push_str("    \"Content-Type\": \"application/json\",\n");
    out
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
    quoted(s, |c| format!("\\u{{{c:x}}}"))
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
pub(crate) fn mcp_header_value(v: &str) -> String {
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
// A prompt convention (the legacy XML), sent as one user message to the Messages API

fn prompt(
    format: Format,
    lang: Lang,
    prompt: &str,
    model: Option<&str>,
    messages: &Http,
) -> String {
    let default_model = format.models().map(|f| f.default_model()).unwrap_or("");
    let model = model.filter(|m| !m.is_empty()).unwrap_or(default_model);
    let name = format.name();
    let title = |c: &str| {
        format!(
            "{c} {name} tool use: a prompt convention of the retired Text Completions\n\
             {c} API, sent as one user message to the Messages API"
        )
    };
    let body = serde_json::json!({
        "model": model,
        "max_tokens": 1024,
        "stop_sequences": ["</function_calls>"],
        "messages": [{"role": "user", "content": prompt}],
    });
    let api = Api {
        title: title("#").trim_start_matches("# ").to_string(),
        url: messages.url.into(),
        // The Messages API's own headers.
        headers: owned(messages.headers),
        curl_setup: Vec::new(),
        curl_options: Vec::new(),
        curl_body: None,
        python: messages.python,
        aws: None,
    };
    match (lang, messages.python) {
        (Lang::Curl, _) => curl(&api, &crate::formats::json::pretty(&body)),
        (Lang::Python, Python::Sdk(sdk)) => {
            let lines: Vec<String> = prompt.split_inclusive('\n').map(py_string).collect();
            let literal = match lines.len() {
                0 => "\"\"".to_string(),
                1 => lines.concat(),
                _ => format!("(\n    {}\n)", lines.join("\n    ")),
            };
            let import = sdk
                .import
                .map_or_else(|| format!("import {}", sdk.install), str::to_string);
            let (json_import, print) = print_line(sdk.print);
            format!(
                "{title}.\n# pip install {install}{env_note}\n\
                 {json_import}import os\n\n{import}\n\n\
                 prompt = {literal}\n\n\
                 client = {constructor}\n\
                 response = client.{call}(\n    \
                     model={model},\n    \
                     max_tokens=1024,\n    \
                     stop_sequences=[\"</function_calls>\"],\n    \
                     messages=[{{\"role\": \"user\", \"content\": prompt}}],\n\
                 )\n\
                 {print}\n",
                title = title("#"),
                install = sdk.install,
                env_note = api.env_note(),
                constructor = sdk.constructor,
                call = sdk.call,
                model = py_string(model),
            )
        }
        (Lang::Python, Python::Httpx) => python(&api, &crate::formats::json::pretty(&body)),
        (Lang::TypeScript, _) => {
            let lines: Vec<String> = prompt.split('\n').map(js_string).collect();
            format!(
                "{title}.\n// Node 18+, an ES module{env_note}\n\
                 const prompt = [\n  {lines},\n].join(\"\\n\");\n\n\
                 const response = await fetch({url}, {{\n  \
                     method: \"POST\",\n  \
                     headers: {{\n{headers}  \
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
                env_note = api.env_note(),
                lines = lines.join(",\n  "),
                url = js_string(&api.url),
                headers = ts_headers(&api.headers),
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
