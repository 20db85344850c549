//! The worked example of `docs/adding-a-provider.md`: Acme, a made-up OpenAI-compatible API,
//! declared in this one file (a provider row, a profile, a dialect) without touching the
//! registry, runs the conformance suite of the Chat Completions dialects. A copy with one
//! profile method broken must fail it.

use serde_json::{json, Value};
use toolscope::formats::openai_chat::profile::{Choices, Finish, Strict, MAX_TOKENS};
use toolscope::formats::openai_chat::reasoning::Spelling;
use toolscope::formats::openai_chat::{Dialect, FromSpec, Profile};
use toolscope::formats::sniff::Node;
use toolscope::formats::Kind;
use toolscope::model::*;
use toolscope::providers::{self, Live, Row, Rules, Tokens};

use crate::common::dialect::{self, Wire};
use crate::common::{assistant, bare_tool, call, has_loss, tool_msg, user};

/// Acme's row: who it is and how its API is reached.
pub const ACME_ROW: Row = Row {
    id: "acme",
    name: "Acme",
    default_model: "acme-large",
    prefixes: &["acme-"],
    words: &[],
    tagged_is_local: false,
    takes_unknown: false,
    served_by: &[],
    rules: Rules::OpenAi,
    tokens: Tokens::Estimate,
    cache: None,
    api: None,
    live: Live::NONE,
    key_env: Some("ACME_API_KEY"),
    counted: &[],
    reasoning: providers::Reasoning::NONE,
};

/// Acme's Chat Completions.
pub struct Acme;

impl FromSpec for Acme {
    fn id(&self) -> &'static str {
        "acme"
    }
    // No provider of the table owns `acme-*` names; OpenAI's family takes such names as
    // they are (compatible servers), so the model set for the exchange is what Acme gets.
    fn family(&self) -> ModelFamily {
        ModelFamily::OpenAi
    }
    fn row(&self) -> &'static Row {
        &ACME_ROW
    }
}

/// What Acme does otherwise than OpenAI; every method left out keeps OpenAI's answer.
impl Profile for Acme {
    // The older `max_tokens`, not `max_completion_tokens`.
    fn max_tokens_field(&self) -> &'static str {
        MAX_TOKENS
    }
    // tool_choice takes `none`, `auto` and `required`; it cannot name a tool.
    fn choices(&self) -> Choices {
        Choices::MODES
    }
    // No strict mode: the flag is dropped, and the loss says so.
    fn strict(&self) -> Strict {
        Strict::No
    }
    // Reasoning travels as a `reasoning` string on assistant messages, both ways.
    fn reasoning_spellings(&self) -> &'static [Spelling] {
        &[Spelling::Reasoning]
    }
    fn reasoning_spelling(&self, _model: &str) -> Option<Spelling> {
        Some(Spelling::Reasoning)
    }
    // A finished turn is `complete`, and a refused one `overloaded` (kept as it is).
    fn finish(&self) -> Finish {
        Finish {
            end_turn: "complete",
            others: &["overloaded"],
            ..Finish::OPENAI
        }
    }
}

/// Acme's documents name its models.
fn sniff(v: &Node) -> Option<(Kind, u8)> {
    let o = v.as_object()?;
    let model = o.get("model").and_then(Node::as_str)?;
    if !model.starts_with("acme-") {
        return None;
    }
    let kind = if o.contains_key("choices") {
        Kind::Response
    } else {
        Kind::Request
    };
    Some((kind, 97))
}

/// The Acme dialect: its profile and how its documents are recognised.
pub const ACME: Dialect<Acme> = Dialect::new(&Acme, sniff);

/// Acme under the conformance suite: a model it serves and a call id it takes as it is.
const D: dialect::Dialect<Dialect<Acme>> = dialect::Dialect {
    format: ACME,
    model: "acme-large",
    id: "call_1",
};

#[test]
fn acme_conforms() {
    dialect::conforms(&D).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn acme_calls_and_results() {
    let x = Exchange {
        messages: vec![
            user("weather?"),
            assistant(vec![call(None, "weather", json!({}))]),
            tool_msg(vec![Part::ToolResult(ToolResult::new(
                None,
                ResultContent::Text("sunny".into()),
            ))]),
        ],
        ..Exchange::default()
    };
    dialect::missing_ids_are_assigned_and_paired(&D, &x);
    dialect::invalid_arguments_are_sent_as_written(&D, "{\"city\": \"Par");
    dialect::empty_arguments_read_as_an_empty_object(
        &D,
        json!({"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": "now", "arguments": ""}}]}),
    );
    dialect::error_results_fold_into_text(&D, "no city");
}

/// Acme's own words: its finish reason, its token-limit field, its reasoning field, and what
/// it has no place for, reported under its name.
#[test]
fn acme_quirks() {
    let mut x = Exchange {
        options: Options {
            model: Some("acme-large".into()),
            max_tokens: Some(100),
            ..Options::default()
        },
        messages: vec![
            user("go"),
            Message {
                stop_reason: Some(StopReason::EndTurn),
                ..assistant(vec![
                    Part::Reasoning(Reasoning::text("thinking it over")),
                    Part::text("done"),
                ])
            },
        ],
        ..Exchange::default()
    };
    let mut tool = bare_tool("f");
    tool.strict = Some(true);
    x.tools = vec![tool];
    x.tool_choice = Some(ToolChoice::force("f"));

    let request = ACME.write(&x, Kind::Request);
    let doc: Value = serde_json::from_str(&request.text).unwrap();
    assert_eq!(doc["max_tokens"], 100, "{doc:#}");
    assert_eq!(
        doc["messages"][1]["reasoning"], "thinking it over",
        "{doc:#}"
    );
    assert_eq!(doc["tool_choice"], "required", "{doc:#}");
    assert!(
        doc["tools"][0]["function"].get("strict").is_none(),
        "{doc:#}"
    );
    let losses = &request.losses;
    assert!(
        has_loss(losses, LossKind::Dropped, "/tools/0/strict"),
        "{losses:#?}"
    );
    let named = losses
        .iter()
        .find(|l| l.pointer == "/tool_choice/tools")
        .unwrap_or_else(|| panic!("{losses:#?}"));
    assert!(
        named.why.starts_with("Acme cannot name tools"),
        "{named:#?}"
    );

    let response = ACME.write(&x, Kind::Response).text;
    let doc: Value = serde_json::from_str(&response).unwrap();
    assert_eq!(doc["choices"][0]["finish_reason"], "complete");

    // Its other word is read and written back as it is.
    let mut doc = doc;
    doc["choices"][0]["finish_reason"] = json!("overloaded");
    let (back, _) = ACME.read(&doc.to_string(), Kind::Response).unwrap();
    assert_eq!(
        back.messages[0].stop_reason,
        Some(StopReason::Other("overloaded".into()))
    );

    // The registry does not list Acme: its documents are its own to recognise.
    assert_eq!(Wire::sniff(&ACME, &response), Some(Kind::Response));
    assert_eq!(ACME.row().name, "Acme");
}

/// Acme with one method broken: it writes `complete` for the end of a turn but reads the word
/// as OpenAI does.
struct Broken;

impl FromSpec for Broken {
    fn id(&self) -> &'static str {
        "acme"
    }
    fn family(&self) -> ModelFamily {
        ModelFamily::OpenAi
    }
    fn row(&self) -> &'static Row {
        &ACME_ROW
    }
}

impl Profile for Broken {
    fn finish(&self) -> Finish {
        Acme.finish()
    }
    fn finish_from_wire(&self, word: &str, _has_calls: bool) -> StopReason {
        Finish::OPENAI.read(word)
    }
}

#[test]
fn a_broken_dialect_fails_the_suite() {
    let broken = dialect::Dialect {
        format: Dialect::new(&Broken, sniff),
        model: D.model,
        id: D.id,
    };
    let e = dialect::conforms(&broken).expect_err("a broken profile conforms");
    // Its responses read back with another stop reason than they were written with.
    assert!(e.starts_with("round trip"), "{e}");
    assert!(e.contains("/stop_reason\"]"), "{e}");
    // And one that recognises nothing fails detection.
    let blind = dialect::Dialect {
        format: Dialect::new(&Acme, |_| None),
        ..D
    };
    let e = dialect::conforms(&blind).expect_err("a blind dialect conforms");
    assert!(e.starts_with("detection"), "{e}");
}
