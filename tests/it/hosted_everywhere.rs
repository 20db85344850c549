//! Provider-run tools and custom (free-text) tools in every format: a hosted tool from another
//! provider is never sent as a function and its loss names it; a custom tool becomes, elsewhere,
//! a function with one string parameter `input`, with a loss.

use serde_json::{json, Value};
use toolscope::formats::{Format, Kind};
use toolscope::model::LossKind;

/// A Responses request with a web search tool, a custom tool with a grammar, and a function.
fn request() -> toolscope::model::Exchange {
    let doc = json!({
        "model": "gpt-5",
        "input": "What's new? Then add 2 and 3 in the calculator grammar.",
        "tools": [
            {"type": "web_search"},
            {"type": "custom", "name": "calc", "description": "Arithmetic",
             "format": {"type": "grammar", "syntax": "lark", "definition": "start: NUMBER \"+\" NUMBER\n%import common.NUMBER"}},
            {"type": "function", "name": "get_time", "parameters": {"type": "object", "properties": {}}}
        ]
    });
    Format::OpenAiResponses
        .decode(&doc.to_string(), Kind::Request)
        .expect("decodes")
        .exchange
}

#[test]
fn hosted_everywhere_a_foreign_hosted_tool_is_never_a_function_and_is_named() {
    let x = request();
    assert!(x.tools[0].hosted.is_some(), "web_search is hosted");
    assert!(x.tools[1].custom.is_some(), "calc is custom");
    for f in Format::ALL {
        if f == Format::OpenAiResponses {
            continue;
        }
        let enc = f.encode(&x, Kind::Request);
        let body = &enc.text;
        let hosted_named = enc.losses.iter().any(|l| {
            l.kind == LossKind::Dropped
                && l.pointer.starts_with("/tools")
                && l.what.contains("web_search")
        });
        assert!(
            hosted_named,
            "{}: no loss names the web_search tool: {:?}",
            f.id(),
            enc.losses
        );
        // The function get_time is still sent.
        assert!(body.contains("get_time"), "{}: get_time missing", f.id());
        // A hosted tool sent as a function would carry its name as a declared function name.
        let v: Option<Value> = serde_json::from_str(&enc.text).ok();
        if let Some(v) = v {
            let s = v.to_string();
            assert!(
                !s.contains("\"name\":\"web_search\""),
                "{}: web_search sent as a function: {s}",
                f.id()
            );
        }
    }
}

#[test]
fn hosted_everywhere_a_custom_tool_becomes_a_string_function_with_a_loss() {
    let x = request();
    for f in Format::ALL {
        if f == Format::OpenAiResponses {
            continue;
        }
        let enc = f.encode(&x, Kind::Request);
        assert!(enc.text.contains("calc"), "{}: calc missing", f.id());
        let named = enc
            .losses
            .iter()
            .any(|l| l.pointer.starts_with("/tools") && l.what.contains("calc") && l.is_loss());
        assert!(
            named,
            "{}: no loss for the custom tool: {:?}",
            f.id(),
            enc.losses
        );
    }
}
