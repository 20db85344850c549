//! Copy-as snippets, checked by running them with the network replaced by recorders: every
//! format × golden request (and hostile bodies) in curl (bash), Python (python3) and
//! TypeScript (node), one process per language for all cases (`tests/snippets/check.*`).
//! A snippet must parse, embed the body exactly (curl: byte for byte; Python: the literal
//! evaluates to the body; JavaScript: the object sent is the body), call the right endpoint or
//! SDK method, and take its key from the environment.

use crate::common;

use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use toolscope::formats::{Format, Kind};
use toolscope::model::{Exchange, Tool};
use toolscope::snippets::{api_key_env, snippet, snippet_with_model, Lang};

/// One body to make snippets for.
struct Case {
    id: String,
    format: Format,
    body: String,
    model: Option<String>,
}

fn fake_key(env: &str) -> String {
    format!("test-value-of-{env}")
}

/// The environment every checker runs with: a fake value for every key variable.
fn fake_env(cmd: &mut Command) -> &mut Command {
    for f in Format::ALL {
        if let Some(env) = api_key_env(f) {
            cmd.env(env, fake_key(env));
        }
    }
    cmd.env("AWS_ACCESS_KEY_ID", "test-access")
        .env("AWS_SECRET_ACCESS_KEY", "test-secret")
        .env_remove("AWS_REGION")
        .env_remove("MCP_URL")
}

/// Text that breaks naive quoting in every language.
const HOSTILE: &str = "quotes \" ' ''' \"\"\" `back` ${template} $(rm -rf /) \\ \\n \\u0041 \
     \nJSON\nJSON_1\n' EOF \u{2028} \u{202e}bidi \u{200b} NUL\u{0} tab\t 東京 🌧️ </script> %s {0}";

fn hostile_exchange() -> Exchange {
    let mut x = Exchange {
        system: Some(HOSTILE.into()),
        ..Exchange::default()
    };
    x.options.model = Some("model-with-'quote".into());
    x.tools.push(Tool {
        name: "lookup".into(),
        description: Some(HOSTILE.into()),
        input_schema: json!({"type": "object", "properties": {"q": {"type": "string", "description": HOSTILE}}}),
        strict: None,
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: Default::default(),
    });
    let args = json!({"q": HOSTILE, "n": 12345678901234567890u64, "f": -0.5, "e": 1e-7, "t": true, "z": null});
    x.messages.push(common::user(HOSTILE));
    x.messages.push(common::assistant(vec![common::call(
        Some("call_1"),
        "lookup",
        args,
    )]));
    x
}

/// An OpenAI-style body written by hand: CRLF line ends, tabs, numbers as people write them,
/// a `__proto__` key.
const RAW_BODY: &str = "{\r\n\t\"model\": \"gpt-4o-mini\",\r\n\t\"messages\": [{\"role\": \"user\", \
     \"content\": \"hi\"}],\r\n\t\"temperature\": 1E-1, \"max_tokens\": 100, \"n\": -0,\r\n\t\
     \"metadata\": {\"__proto__\": {\"x\": [1, 2.50, [[], {}]]}, \"10\": \"int-like key\", \"a\": \"\"}\r\n}";

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let mut exchanges = common::cases();
    exchanges.push(("hostile".into(), hostile_exchange()));
    // Generated exchanges (fixed seed): hostile details nobody on the project wrote.
    let mut runner = common::gen::seeded_runner(11);
    for n in 0..12 {
        let x = common::gen::draw(common::gen::exchange(), &mut runner);
        exchanges.push((format!("generated-{n}"), x));
    }
    for (name, x) in exchanges {
        // The AI SDK's messages go to `generateText` inside an app: no HTTP snippet.
        for format in Format::ALL.into_iter().filter(|f| *f != Format::AiSdk) {
            let body = format.encode(&x, Kind::Request).text;
            out.push(Case {
                id: format!("{}/{name}", format.id()),
                format,
                body,
                model: None,
            });
        }
    }
    for format in [Format::OpenAiChat, Format::Ollama, Format::DeepSeek] {
        out.push(Case {
            id: format!("{}/raw", format.id()),
            format,
            body: RAW_BODY.into(),
            model: None,
        });
    }
    let gemini = Format::Gemini
        .encode(&common::cases().remove(0).1, Kind::Request)
        .text;
    for model in ["gemini-2.5-pro", "tuned/../x y'$(z)"] {
        out.push(Case {
            id: format!("gemini/model {model}"),
            format: Format::Gemini,
            body: gemini.clone(),
            model: Some(model.into()),
        });
    }
    out.push(Case {
        id: "anthropic-xml/model".into(),
        format: Format::AnthropicXml,
        body: "\n\nHuman: hi\n\nAssistant:".into(),
        model: Some("claude-haiku-4-5".into()),
    });
    out
}

/// Every case's snippet in `lang` (every case is a request: each has one).
fn snippets(cases: &[Case], lang: Lang) -> Vec<(&Case, String)> {
    cases
        .iter()
        .map(|c| {
            let s = snippet_with_model(c.format, lang, &c.body, c.model.as_deref())
                .unwrap_or_else(|e| panic!("{} {lang:?}: {e}", c.id));
            (c, s)
        })
        .collect()
}

/// A fresh folder `name` holding `manifest.json`, the list of `entries`: (folder, file).
fn manifest(name: &str, entries: impl Iterator<Item = Value>) -> (PathBuf, PathBuf) {
    let dir = tmp(name);
    let path = dir.join("manifest.json");
    let list: Vec<Value> = entries.collect();
    std::fs::write(&path, serde_json::to_string(&list).unwrap()).unwrap();
    (dir, path)
}

fn tmp(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("snippets-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("tmp dir");
    dir
}

fn script(name: &str) -> String {
    format!("{}/tests/snippets/{name}", env!("CARGO_MANIFEST_DIR"))
}

use common::run_ok as run;

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// What a case must send: the JSON documents (one per request; several for MCP).
fn payloads(c: &Case) -> Vec<Value> {
    match c.format {
        Format::Mcp => match json_of(&c.body) {
            Value::Array(items) => items.into_iter().filter(is_request).collect(),
            one => vec![one].into_iter().filter(is_request).collect(),
        },
        Format::AnthropicXml => vec![json!({
            "model": c.model.as_deref().unwrap_or("claude-sonnet-4-5"),
            "max_tokens": 1024,
            "stop_sequences": ["</function_calls>"],
            "messages": [{"role": "user", "content": c.body}],
        })],
        _ => vec![json_of(&c.body)],
    }
}

/// JSON equality as the languages see it: numbers equal when their values are (Python reads
/// `-0` as the integer 0, JavaScript has one number type), everything else exactly, object
/// keys in any order.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

macro_rules! assert_same {
    ($a:expr, $b:expr, $($msg:tt)+) => {
        assert!(same(&$a, &$b), "{}\n  left: {}\n right: {}", format!($($msg)+), $a, $b)
    };
}

fn is_request(m: &Value) -> bool {
    m.get("method").is_some_and(Value::is_string) && m.get("id").is_some()
}

/// Where a case sends to, and with which key header (name, value with the fake key).
fn endpoint(c: &Case) -> (String, Option<(&'static str, String)>) {
    let key = |env: &str| fake_key(env);
    match c.format {
        Format::OpenAiChat => (
            "https://api.openai.com/v1/chat/completions".into(),
            Some(("Authorization", format!("Bearer {}", key("OPENAI_API_KEY")))),
        ),
        Format::OpenAiResponses => (
            "https://api.openai.com/v1/responses".into(),
            Some(("Authorization", format!("Bearer {}", key("OPENAI_API_KEY")))),
        ),
        Format::DeepSeek => (
            "https://api.deepseek.com/chat/completions".into(),
            Some((
                "Authorization",
                format!("Bearer {}", key("DEEPSEEK_API_KEY")),
            )),
        ),
        Format::Mistral => (
            "https://api.mistral.ai/v1/chat/completions".into(),
            Some((
                "Authorization",
                format!("Bearer {}", key("MISTRAL_API_KEY")),
            )),
        ),
        Format::Cohere => (
            "https://api.cohere.com/v2/chat".into(),
            Some(("Authorization", format!("Bearer {}", key("CO_API_KEY")))),
        ),
        Format::Ollama => ("http://localhost:11434/api/chat".into(), None),
        Format::Anthropic | Format::AnthropicXml => (
            "https://api.anthropic.com/v1/messages".into(),
            Some(("x-api-key", key("ANTHROPIC_API_KEY"))),
        ),
        Format::Gemini => {
            let model = match c.model.as_deref() {
                None => "gemini-2.5-flash",
                Some("gemini-2.5-pro") => "gemini-2.5-pro",
                Some(_) => "tuned%2F..%2Fx%20y%27%24%28z%29",
            };
            (
                format!(
                    "https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent"
                ),
                Some(("x-goog-api-key", key("GEMINI_API_KEY"))),
            )
        }
        Format::Bedrock => {
            let doc = json_of(&c.body);
            let id = doc["modelId"]
                .as_str()
                .unwrap_or_default()
                .replace(':', "%3A")
                .replace('\'', "%27");
            (
                format!("https://bedrock-runtime.us-east-1.amazonaws.com/model/{id}/converse"),
                None,
            )
        }
        Format::Mcp => ("http://localhost:8000/mcp".into(), None),
        Format::AiSdk => unreachable!("no snippet for the AI SDK"),
    }
}

#[test]
fn snippets_curl_sends_the_body_byte_for_byte() {
    let cases = cases();
    let all = snippets(&cases, Lang::Curl);
    let dir = tmp("curl");
    for (i, (_, s)) in all.iter().enumerate() {
        let case_dir = dir.join(format!("{i:03}"));
        std::fs::create_dir_all(&case_dir).unwrap();
        std::fs::write(case_dir.join("snippet.sh"), s).unwrap();
    }
    run(
        fake_env(Command::new("bash").arg(script("check.sh")).arg(&dir)),
        "bash",
    );
    for (i, (c, s)) in all.iter().enumerate() {
        let case_dir = dir.join(format!("{i:03}"));
        let stderr = std::fs::read_to_string(case_dir.join("stderr")).unwrap_or_default();
        assert!(
            !case_dir.join("error").exists() && stderr.is_empty(),
            "{}: {stderr}\n{s}",
            c.id
        );
        let expected = payloads(c);
        let (url, key) = endpoint(c);
        for (k, payload) in expected.iter().enumerate() {
            let call = case_dir.join(format!("call_{}", k + 1));
            let args: Vec<String> = std::fs::read_to_string(call.with_extension("args"))
                .unwrap_or_else(|_| panic!("{}: curl call {} missing\n{s}", c.id, k + 1))
                .lines()
                .map(String::from)
                .collect();
            let sent = std::fs::read_to_string(call.with_extension("body")).unwrap();
            match c.format {
                // Byte for byte: the heredoc adds only its final newline.
                Format::Mcp => assert_eq!(sent, format!("{:#}\n", payload), "{}", c.id),
                Format::Bedrock => {
                    let mut rest = payload.clone();
                    rest.as_object_mut().unwrap().shift_remove("modelId");
                    assert_eq!(
                        sent,
                        format!("{}\n", serde_json::to_string_pretty(&rest).unwrap()),
                        "{}",
                        c.id
                    );
                    let signing = ["--aws-sigv4", "aws:amz:us-east-1:bedrock", "--user"];
                    assert!(
                        signing.iter().all(|a| args.contains(&a.to_string())),
                        "{args:?}"
                    );
                    assert!(args.contains(&"test-access:test-secret".to_string()));
                }
                Format::AnthropicXml => assert_eq!(json_of(&sent), *payload, "{}", c.id),
                _ => assert_eq!(sent, format!("{}\n", c.body), "{}", c.id),
            }
            assert_eq!(args.first(), Some(&url), "{}", c.id);
            let headers: Vec<&str> = args
                .windows(2)
                .filter(|w| w[0] == "-H")
                .map(|w| w[1].as_str())
                .collect();
            assert!(
                headers.contains(&"Content-Type: application/json"),
                "{}",
                c.id
            );
            if let Some((name, value)) = &key {
                assert!(
                    headers.contains(&format!("{name}: {value}").as_str()),
                    "{}: {headers:?}",
                    c.id
                );
            }
            if c.format == Format::Anthropic {
                assert!(headers.contains(&"anthropic-version: 2023-06-01"));
            }
            if c.format == Format::Mcp {
                check_mcp_headers(c, payload, |name| {
                    headers
                        .iter()
                        .find_map(|h| h.strip_prefix(&format!("{name}: ")))
                        .map(String::from)
                });
            }
        }
        assert!(
            !case_dir
                .join(format!("call_{}.args", expected.len() + 1))
                .exists(),
            "{}: more calls than requests",
            c.id
        );
    }
}

/// The headers revision 2026-07-28 requires on every POST.
fn check_mcp_headers(c: &Case, message: &Value, header: impl Fn(&str) -> Option<String>) {
    assert_eq!(
        header("Accept").as_deref(),
        Some("application/json, text/event-stream"),
        "{}",
        c.id
    );
    assert_eq!(
        header("MCP-Protocol-Version").as_deref(),
        Some("2026-07-28")
    );
    assert_eq!(header("Mcp-Method").as_deref(), message["method"].as_str());
    assert_eq!(
        header("Mcp-Name").as_deref(),
        message["params"]["name"].as_str(),
        "{}",
        c.id
    );
}

#[test]
fn snippets_python_literal_is_the_body_and_the_call_is_right() {
    let cases = cases();
    let all = snippets(&cases, Lang::Python);
    let (_, path) = manifest(
        "python",
        all.iter().map(|(c, s)| {
            let var = if c.format == Format::AnthropicXml {
                "prompt"
            } else {
                "body"
            };
            json!({"id": c.id, "snippet": s, "var": var})
        }),
    );
    let out = run(
        fake_env(Command::new("python3").arg(script("check.py")).arg(&path)),
        "python3",
    );
    let results: BTreeMap<String, Value> = serde_json::from_str(&out).expect("results");
    for (c, s) in &all {
        let r = &results[&c.id];
        assert!(r["error"].is_null(), "{}: {}\n{s}", c.id, r["error"]);
        // The literal evaluates to exactly the body (types too: json.dumps tells 1 from True).
        let body = if c.format == Format::AnthropicXml {
            Value::String(c.body.clone())
        } else {
            json_of(&c.body)
        };
        assert_same!(r["literal"], body, "{}", c.id);
        let calls = r["calls"].as_array().expect("calls");
        let expected = payloads(c);
        assert_eq!(calls.len(), expected.len(), "{}: {calls:?}", c.id);
        let (url, key) = endpoint(c);
        for (call, payload) in calls.iter().zip(&expected) {
            match (c.format, call["kind"].as_str()) {
                (Format::Gemini | Format::Mcp, Some("httpx")) => {
                    let mcp_url = "http://localhost:8000/mcp";
                    let want = if c.format == Format::Mcp {
                        mcp_url
                    } else {
                        &url
                    };
                    assert_eq!(call["url"], want, "{}", c.id);
                    assert_same!(call["json"], *payload, "{}", c.id);
                    if let Some((name, value)) = &key {
                        assert_eq!(call["headers"][name], *value, "{}", c.id);
                    }
                    if c.format == Format::Mcp {
                        check_mcp_headers(c, payload, |name| {
                            call["headers"][name].as_str().map(String::from)
                        });
                    }
                }
                (_, Some("sdk")) => check_sdk_call(c, call, payload),
                _ => panic!("{}: unexpected call {call}", c.id),
            }
        }
    }
}

/// The SDK method, its keyword arguments (exactly the body) and the client's key.
fn check_sdk_call(c: &Case, call: &Value, payload: &Value) {
    let (module, method) = match c.format {
        Format::OpenAiChat | Format::DeepSeek => ("openai", "chat.completions.create"),
        Format::OpenAiResponses => ("openai", "responses.create"),
        Format::Anthropic | Format::AnthropicXml => ("anthropic", "messages.create"),
        Format::Mistral => ("mistralai.client", "chat.complete"),
        Format::Cohere => ("cohere", "chat"),
        Format::Ollama => ("ollama", "chat"),
        Format::Bedrock => ("boto3", "converse"),
        f => panic!("{}: no SDK expected for {f:?}", c.id),
    };
    assert_eq!(call["client"]["module"], module, "{}", c.id);
    assert_eq!(call["call"], method, "{}", c.id);
    assert_eq!(call["args"], json!([]), "{}", c.id);
    assert_same!(call["kwargs"], *payload, "{}", c.id);
    let client = &call["client"]["kwargs"];
    match c.format {
        Format::Bedrock => {
            assert_eq!(call["client"]["args"], json!(["bedrock-runtime"]));
            assert_eq!(client["region_name"], "us-east-1");
        }
        Format::Ollama => assert_eq!(*client, json!({})),
        f => {
            let env = api_key_env(f).expect("key env");
            assert_eq!(client["api_key"], fake_key(env), "{}", c.id);
            let base_url = (f == Format::DeepSeek).then_some("https://api.deepseek.com");
            assert_eq!(client["base_url"].as_str(), base_url, "{}", c.id);
        }
    }
}

#[test]
fn snippets_typescript_runs_as_javascript_and_sends_the_body() {
    let cases = cases();
    let all = snippets(&cases, Lang::TypeScript);
    let entries = all.iter().map(|(c, s)| json!({"id": c.id, "snippet": s}));
    let (dir, path) = manifest("node", entries);
    let out = run(
        fake_env(
            Command::new("node")
                .arg(script("check.mjs"))
                .arg(&path)
                .arg(&dir),
        ),
        "node",
    );
    let results: BTreeMap<String, Value> = serde_json::from_str(&out).expect("results");
    for (c, s) in &all {
        let r = &results[&c.id];
        assert!(r["error"].is_null(), "{}: {}\n{s}", c.id, r["error"]);
        let calls = r["calls"].as_array().expect("calls");
        let expected = payloads(c);
        assert_eq!(calls.len(), expected.len(), "{}: {calls:?}", c.id);
        let (url, key) = endpoint(c);
        for (call, payload) in calls.iter().zip(&expected) {
            if c.format == Format::Bedrock {
                assert_eq!(call["kind"], "bedrock");
                assert_eq!(call["command"], "ConverseCommand");
                assert_eq!(call["config"]["region"], "us-east-1");
                assert_same!(call["input"], *payload, "{}", c.id);
                continue;
            }
            assert_eq!(call["kind"], "fetch", "{}", c.id);
            assert_eq!(call["method"], "POST");
            assert_eq!(call["url"], url, "{}", c.id);
            assert_same!(call["body"], *payload, "{}", c.id);
            assert_eq!(call["headers"]["Content-Type"], "application/json");
            if let Some((name, value)) = &key {
                assert_eq!(call["headers"][name], *value, "{}", c.id);
            }
            if c.format == Format::Mcp {
                check_mcp_headers(c, payload, |name| {
                    call["headers"][name].as_str().map(String::from)
                });
            }
        }
    }
}

#[test]
fn snippets_hold_no_key_and_name_their_variable() {
    let cases = cases();
    for lang in Lang::ALL {
        for (c, s) in snippets(&cases, lang) {
            // Shapes of real keys: OpenAI/DeepSeek/Anthropic `sk-…`, AWS `AKIA…`, Google `AIza…`.
            for pattern in ["sk-", "AKIA", "AIza", "test-value-of"] {
                assert!(!s.contains(pattern), "{} {lang:?}: {pattern}\n{s}", c.id);
            }
            if let Some(env) = api_key_env(c.format) {
                assert!(s.contains(env), "{} {lang:?} does not read ${env}", c.id);
            }
        }
    }
}

#[test]
fn snippets_every_format_and_language_has_one_for_the_examples() {
    for (name, x) in common::cases() {
        // The AI SDK's messages are passed to `generateText` in an app: no HTTP request.
        for format in Format::ALL.into_iter().filter(|f| *f != Format::AiSdk) {
            let body = format.encode(&x, Kind::Request).text;
            for lang in Lang::ALL {
                let s = snippet(format, lang, &body)
                    .unwrap_or_else(|e| panic!("{} {name} {lang:?}: {e}", format.id()));
                assert!(s.len() > body.len() / 2, "{} {name} {lang:?}", format.id());
            }
        }
    }
}

#[test]
fn snippets_unavailable_says_why() {
    let e = snippet(Format::OpenAiChat, Lang::Curl, "{\"model\": ").unwrap_err();
    assert!(e.reason.starts_with("the request is not valid JSON"), "{e}");
    let e = snippet(Format::Anthropic, Lang::Python, "[1, 2]").unwrap_err();
    assert_eq!(e.to_string(), "the request body is not a JSON object");
    // An MCP response of a turn without calls is an empty transcript: nothing to send.
    let x = common::cases().remove(0).1;
    let empty = Format::Mcp.encode(&x, Kind::Response).text;
    assert_eq!(json_of(&empty), json!([]));
    let e = snippet(Format::Mcp, Lang::TypeScript, &empty).unwrap_err();
    assert!(e.reason.contains("no request to send"), "{e}");
    let e = snippet(Format::Mcp, Lang::Curl, "\"text\"").unwrap_err();
    assert!(e.reason.contains("array of messages"), "{e}");
}
