//! A model per provider family: a real request's model goes only where its API takes it; every
//! other format gets the model set for its family or a current default, reported as a rewrite;
//! snippets name the same model; old canonical JSON with one `options.model` still loads.

use serde_json::{json, Value};
use toolscope::formats::{read_any, Format, Kind};
use toolscope::model::{Exchange, LossKind, ModelFamily, ModelOrigin};
use toolscope::snippets::{snippet_for, Lang};

/// An OpenAI Chat request as the SDK sends it.
fn openai_request() -> String {
    json!({
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
        "tool_choice": "auto"
    })
    .to_string()
}

fn model_in(format: Format, x: &Exchange) -> (Option<String>, Vec<toolscope::model::Loss>) {
    let e = format.encode(x, Kind::Request);
    let v: Value = serde_json::from_str(&e.text).unwrap();
    let field = if format == Format::Bedrock {
        "modelId"
    } else {
        "model"
    };
    (
        v.get(field).and_then(Value::as_str).map(str::to_string),
        e.losses,
    )
}

#[test]
fn models_each_provider_gets_a_model_it_serves() {
    let (d, _) = read_any(&openai_request()).unwrap();
    let x = d.exchange;
    assert_eq!(
        model_in(Format::OpenAiChat, &x).0.as_deref(),
        Some("gpt-4o")
    );
    for (format, expected) in [
        (Format::Anthropic, "claude-sonnet-4-5"),
        (Format::Bedrock, ModelFamily::Bedrock.default_model()),
        (Format::Mistral, "mistral-large-latest"),
        (Format::DeepSeek, "deepseek-chat"),
        (Format::Cohere, ModelFamily::Cohere.default_model()),
        (Format::Ollama, ModelFamily::Ollama.default_model()),
    ] {
        let (model, losses) = model_in(format, &x);
        assert_eq!(model.as_deref(), Some(expected), "{}", format.id());
        let l = losses
            .iter()
            .find(|l| l.pointer == "/options/model")
            .unwrap_or_else(|| panic!("{}: no model loss {losses:#?}", format.id()));
        assert_eq!(l.kind, LossKind::Note, "{}", format.id());
        assert!(
            l.what.contains("gpt-4o") && l.what.contains(expected),
            "{}",
            l.what
        );
    }
    // The Responses pane is OpenAI's too: the model stays.
    assert_eq!(
        model_in(Format::OpenAiResponses, &x).0.as_deref(),
        Some("gpt-4o")
    );
    // Gemini names its model in the URL: the snippet does, with Gemini's model.
    let body = Format::Gemini.encode(&x, Kind::Request).text;
    let curl = snippet_for(&x, Format::Gemini, Lang::Curl, &body).unwrap();
    assert!(
        curl.contains("/models/gemini-2.5-flash:generateContent"),
        "{curl}"
    );
    assert!(!curl.contains("gpt-4o"), "{curl}");
    // The legacy prompt goes to the Messages API with an Anthropic model.
    let prompt = Format::AnthropicXml.encode(&x, Kind::Request).text;
    let py = snippet_for(&x, Format::AnthropicXml, Lang::Python, &prompt).unwrap();
    assert!(
        py.contains("claude-sonnet-4-5") && !py.contains("gpt-4o"),
        "{py}"
    );
}

#[test]
fn models_set_per_family_win_and_are_said() {
    let (d, _) = read_any(&openai_request()).unwrap();
    let mut x = d.exchange;
    x.options
        .models
        .insert("anthropic".into(), "claude-opus-4-1".into());
    let chosen = x.model_for(ModelFamily::Anthropic);
    assert_eq!(chosen.origin, ModelOrigin::Set);
    let (model, losses) = model_in(Format::Anthropic, &x);
    assert_eq!(model.as_deref(), Some("claude-opus-4-1"));
    assert!(losses
        .iter()
        .any(|l| l.pointer == "/options/model" && l.why.contains("set for this exchange")));
    // Other families are not affected, and OpenAI keeps the exchange's own model.
    assert_eq!(
        model_in(Format::OpenAiChat, &x).0.as_deref(),
        Some("gpt-4o")
    );
    // The settings survive the canonical JSON, and old JSON with one model still loads.
    let text = serde_json::to_string(&x).unwrap();
    assert!(
        text.contains("\"models\":{\"anthropic\":\"claude-opus-4-1\"}"),
        "{text}"
    );
    let back: Exchange = serde_json::from_str(&text).unwrap();
    assert_eq!(back, x);
    let old: Exchange = serde_json::from_str(
        r#"{"options": {"model": "gpt-4o", "max_tokens": 10}, "messages": []}"#,
    )
    .unwrap();
    assert!(old.options.models.is_empty());
    assert_eq!(old.model_for(ModelFamily::OpenAi).name, "gpt-4o");
    assert!(old.model_for(ModelFamily::Gemini).is_default());
}

#[test]
fn models_a_pasted_documents_model_stays_with_its_family() {
    // An Anthropic request decodes with its model; the Anthropic pane keeps it, the OpenAI pane
    // sends OpenAI's default and says so.
    let doc = json!({
        "model": "claude-sonnet-4-5-20250929",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Hi"}]
    })
    .to_string();
    let x = Format::Anthropic
        .decode(&doc, Kind::Request)
        .unwrap()
        .exchange;
    assert_eq!(
        model_in(Format::Anthropic, &x).0.as_deref(),
        Some("claude-sonnet-4-5-20250929")
    );
    let (model, losses) = model_in(Format::OpenAiChat, &x);
    assert_eq!(model.as_deref(), Some(ModelFamily::OpenAi.default_model()));
    assert!(losses.iter().any(|l| l.kind == LossKind::Note
        && l.why
            .contains("claude-sonnet-4-5-20250929 is Anthropic's model")));
    // A model no hosted API claims (a local one) goes to the OpenAI-compatible servers as is.
    let mut local = x.clone();
    local.options.model = Some("qwen2.5-coder".into());
    assert_eq!(
        model_in(Format::OpenAiChat, &local).0.as_deref(),
        Some("qwen2.5-coder")
    );
    assert_eq!(
        model_in(Format::Ollama, &local).0.as_deref(),
        Some("qwen2.5-coder")
    );
    assert_eq!(
        local
            .model_for_format(Format::Anthropic)
            .map(|m| m.name)
            .as_deref(),
        Some("claude-sonnet-4-5")
    );
}

#[test]
fn models_convert_reports_the_substitution_on_stderr() {
    let args: Vec<String> = ["convert", "--to", "anthropic", "-"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut out = String::new();
    let mut err = String::new();
    let input = openai_request();
    let code = toolscope::cli::run_with(&args, move || Ok(input), &mut out, &mut err);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"model\": \"claude-sonnet-4-5\""), "{out}");
    assert!(
        err.contains(
            "note /options/model -> /model: model \"gpt-4o\" sent as \"claude-sonnet-4-5\""
        ),
        "{err}"
    );
}
