//! Every format in the registry is complete: fixtures, an SDK validator (or a stated
//! exemption), a provider row (or a stated exemption), a live route (or a stated "not live"),
//! a way to send it for the snippets, and a line in `toolscope formats --json`. The lists come
//! from `Format::ALL`: a new format is checked without editing this file, and an exemption
//! that does not apply fails.

use std::path::Path;
use toolscope::formats::spec::Send;
use toolscope::formats::Format;
use toolscope::live::{Provider, Target};

/// Formats no Python or TypeScript SDK types: the legacy XML is prompt text.
const NO_SDK: &[(Format, &str)] = &[(
    Format::AnthropicXml,
    "a prompt convention inside a Messages request, which the Anthropic validator checks",
)];

/// Formats whose requests name no provider's models.
const NO_PROVIDER: &[(Format, &str)] = &[
    (Format::Mcp, "MCP names no model"),
    (Format::AiSdk, "the AI SDK's messages go to any provider"),
];

/// Formats a page does not call.
const NOT_LIVE: &[(Format, &str)] = &[
    (Format::Mcp, "MCP servers are called from the MCP panel"),
    (Format::AnthropicXml, "sent through the Messages API"),
    (Format::AiSdk, "an app's stored messages, not an HTTP body"),
    (
        Format::Bedrock,
        "AWS SigV4 signing: the page says why and sends nothing",
    ),
    (
        Format::Cohere,
        "Cohere's v2 API is not an OpenAI-compatible base URL",
    ),
    (
        Format::Ollama,
        "Ollama is called through its OpenAI-compatible /v1",
    ),
];

fn exempt(list: &[(Format, &str)], f: Format) -> bool {
    list.iter().any(|(g, why)| *g == f && !why.is_empty())
}

fn file_stem(f: Format) -> String {
    f.id().replace('-', "_")
}

/// The formats a live route speaks: each route's default target, and a compatible base URL at
/// a format's own API host.
fn live(f: Format) -> bool {
    let by_route = Provider::all()
        .filter(|p| p.blocked().is_none())
        .any(|p| Target::new(p).format() == f);
    let by_host = match f.send() {
        Send::Http(http) => {
            let mut t = Target::new(Provider::compatible());
            t.base_url = http.url.to_string();
            t.format() == f
        }
        Send::Prompt(_) | Send::JsonRpc | Send::Nothing(_) => false,
    };
    by_route || by_host
}

#[test]
fn registry_every_format_is_complete() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for f in Format::ALL {
        let id = f.id();
        let fixtures = root.join("tests/fixtures").join(id);
        if !fixtures.is_dir() || std::fs::read_dir(&fixtures).unwrap().next().is_none() {
            missing.push(format!("{id}: no fixtures in tests/fixtures/{id}"));
        }
        let stem = file_stem(f);
        let sdk = ["py", "mjs"]
            .iter()
            .any(|ext| root.join(format!("tests/sdk/{stem}.{ext}")).is_file());
        if sdk == exempt(NO_SDK, f) {
            missing.push(format!("{id}: SDK validator {sdk}, exempt {}", !sdk));
        }
        if f.models().is_some() == exempt(NO_PROVIDER, f) {
            missing.push(format!("{id}: provider row and exemption disagree"));
        }
        if live(f) == exempt(NOT_LIVE, f) {
            missing.push(format!(
                "{id}: live {}, listed as not live {}",
                live(f),
                !live(f)
            ));
        }
        match f.send() {
            Send::Http(http) | Send::Prompt(http) => {
                if http.url.is_empty() || http.title.is_empty() {
                    missing.push(format!("{id}: a snippet without URL or title"));
                }
                // The key variable of the snippets is the provider row's.
                if let Some(p) = f.models() {
                    if http.key_env() != p.row().key_env {
                        missing.push(format!("{id}: key variable differs from its row's"));
                    }
                }
            }
            Send::JsonRpc => {}
            Send::Nothing(why) => {
                if why.is_empty() {
                    missing.push(format!("{id}: not sent, and no reason"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn registry_the_command_line_lists_every_format_as_json() {
    let (mut out, mut err) = (String::new(), String::new());
    let code = toolscope::cli::run_with(
        &["formats".to_string(), "--json".to_string()],
        || Ok(String::new()),
        &mut out,
        &mut err,
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    let want: Vec<&str> = Format::ALL.iter().map(|f| f.id()).collect();
    assert_eq!(ids, want);
}
