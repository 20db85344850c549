//! "Count exactly": the providers' token-counting endpoints, which answer the prompt tokens of a
//! request without running it.
//!
//! - OpenAI: `POST {base}/responses/input_tokens` with a Responses body (`model`, `input`,
//!   `instructions`, `tools`, `tool_choice`, …) → `{"object": "response.input_tokens",
//!   "input_tokens": n}` (openai-python `client.responses.input_tokens.count`);
//! - Anthropic: `POST {base}/v1/messages/count_tokens` with a Messages body without
//!   `max_tokens`/`stream`/sampling → `{"input_tokens": n}` (anthropic `messages.count_tokens`);
//! - Gemini: `POST {base}/models/{model}:countTokens` with the whole `generateContent` body
//!   (tools, system instruction) in `generateContentRequest` → `{"totalTokens": n}`
//!   (google-genai `models.count_tokens`; the REST `CountTokensRequest`).
//!
//! Built on [`super::request`], so keys, checks and extra headers follow the Live rules. Sans-IO:
//! the page sends the [`HttpRequest`] and hands the answer to [`read`].

use super::{request, Blocked, HttpRequest, Provider, Target};
use crate::model::Exchange;
use crate::providers::CountBody;
use serde_json::{json, Map, Value};

/// Who counts for a route's requests: the route itself, another route of its provider (the
/// Chat Completions route counts with the Responses endpoint: OpenAI has none for Chat
/// Completions), or `None` for routes without a counting endpoint ([`Provider::counter`]).
pub fn counter(provider: Provider) -> Option<Provider> {
    provider.counter()
}

/// The counting request for `x` sent to `target`'s provider with `key`; `None` when the
/// provider has no counting endpoint. Refused as [`super::request`] refuses.
pub fn count_request(
    target: &Target,
    key: &str,
    x: &Exchange,
    page_secure: bool,
) -> Option<Result<HttpRequest, Blocked>> {
    let provider = counter(target.provider)?;
    let count = provider.count()?;
    let t = Target {
        provider,
        stream: false,
        ..target.clone()
    };
    Some(request(&t, key, x, page_secure).map(|mut r| {
        let body: Value = serde_json::from_str(&r.body).unwrap_or(Value::Null);
        let body = match count.body {
            CountBody::Keep(fields) => keep(&body, fields),
            CountBody::Wrap { field, model } => {
                let name = target.model.trim().trim_start_matches(model);
                let mut inner = body.as_object().cloned().unwrap_or_default();
                inner.insert("model".into(), Value::String(format!("{model}{name}")));
                json!({ field: inner })
            }
        };
        r.url = t.url(count.path);
        r.body = serde_json::to_string_pretty(&body).unwrap_or_default();
        r
    }))
}

fn keep(body: &Value, fields: &[&str]) -> Value {
    let mut out = Map::new();
    if let Some(o) = body.as_object() {
        for (k, v) in o {
            if fields.contains(&k.as_str()) {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

/// The count in a counting endpoint's answer (`status` 2xx), or why there is none.
pub fn read(provider: Provider, status: u16, body: &str) -> Result<u64, String> {
    if !(200..300).contains(&status) {
        return Err(super::error::read(provider, status, None, body).message);
    }
    let Some(count) = provider.count() else {
        return Err(format!(
            "{} has no token-counting endpoint",
            provider.label()
        ));
    };
    let v: Value = serde_json::from_str(body.trim()).map_err(|e| format!("not JSON: {e}"))?;
    let field = count.answer;
    v[field]
        .as_u64()
        .ok_or_else(|| format!("the answer has no {field}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::read_any;

    fn weather() -> Exchange {
        read_any(crate::examples::EXAMPLES[0].source)
            .expect("example reads")
            .0
            .exchange
    }

    /// The counting request of the weather example for `provider` and `model`, with its body.
    fn counted(provider: Provider, model: &str, key: &str) -> (HttpRequest, Value) {
        let mut t = Target::new(provider);
        t.model = model.into();
        let r = count_request(&t, key, &weather(), true)
            .expect("the provider counts")
            .expect("not blocked");
        let body = serde_json::from_str(&r.body).expect("json body");
        (r, body)
    }

    fn route(id: &str) -> Provider {
        Provider::from_id(id).expect("a route of the table")
    }

    fn has_header(r: &HttpRequest, name: &str, value: &str) -> bool {
        r.headers.iter().any(|(k, v)| k == name && v == value)
    }

    #[test]
    fn openai_counts_with_a_responses_body_at_input_tokens() {
        let (r, b) = counted(route("openai-chat"), "gpt-4o", "sk-test");
        assert_eq!(r.url, "https://api.openai.com/v1/responses/input_tokens");
        assert_eq!(b["model"], "gpt-4o");
        assert!(b["input"].is_array());
        assert!(b["tools"][0]["name"].is_string(), "{b}");
        assert!(b.get("stream").is_none() && b.get("max_output_tokens").is_none());
        assert!(has_header(&r, "authorization", "Bearer sk-test"));
        let answer = r#"{"object":"response.input_tokens","input_tokens":42}"#;
        assert_eq!(read(route("openai-chat"), 200, answer), Ok(42));
    }

    #[test]
    fn anthropic_counts_without_max_tokens_and_with_the_browser_header() {
        let (r, b) = counted(route("anthropic"), "claude-sonnet-4-5", "sk-ant");
        assert_eq!(r.url, "https://api.anthropic.com/v1/messages/count_tokens");
        assert!(b.get("max_tokens").is_none() && b.get("stream").is_none());
        assert!(b["messages"].is_array() && b["tools"].is_array());
        assert!(has_header(
            &r,
            "anthropic-dangerous-direct-browser-access",
            "true"
        ));
        assert_eq!(
            read(route("anthropic"), 200, r#"{"input_tokens":7}"#),
            Ok(7)
        );
        let refused = r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#;
        assert!(
            read(route("anthropic"), 401, refused).is_err_and(|e| e.contains("invalid x-api-key"))
        );
    }

    #[test]
    fn gemini_puts_the_request_in_generate_content_request() {
        let (r, b) = counted(route("gemini"), "gemini-2.5-flash", "AIza");
        let url =
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:countTokens";
        assert_eq!(r.url, url);
        let g = &b["generateContentRequest"];
        assert_eq!(g["model"], "models/gemini-2.5-flash");
        assert!(g["contents"].is_array() && g["tools"].is_array(), "{b}");
        assert_eq!(read(route("gemini"), 200, r#"{"totalTokens":99}"#), Ok(99));
        assert!(count_request(&Target::new(route("bedrock")), "", &weather(), true).is_none());
    }
}
