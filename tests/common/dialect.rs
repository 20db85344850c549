//! The conformance suite of the Chat Completions dialects: what every dialect does as the
//! protocol does, checked the same way for each. A dialect's test file calls these with its
//! codec (a registry [`Format`], or an [`openai_chat::Dialect`] the registry does not list), a
//! model and a call id it accepts, then checks what it does otherwise. [`conforms`] runs the
//! checks that need nothing from the caller and says which one failed.

use serde_json::{json, Value};
use toolscope::formats::openai_chat::{self, Profile};
use toolscope::formats::{Format, Kind, Protocol};
use toolscope::model::*;
use toolscope::replay::AnyAssembler;
use toolscope::rules::{self, Finding};
use toolscope::stream::{AnomalyKind, Assembled, Assembler, Event};

use super::{assert_loss, assistant, call, error_result, tool_msg, user};

/// What the suite drives: a codec's text in and out, its detection, its stream and the rules
/// its requests are checked against.
pub trait Wire: Copy {
    /// Format id.
    fn id(&self) -> &'static str;
    /// Model → document text, with what it could not carry.
    fn write(&self, x: &Exchange, kind: Kind) -> (String, Vec<Loss>);
    /// Document text → model, with what decoding normalised.
    fn read(&self, text: &str, kind: Kind) -> Result<(Exchange, Vec<Loss>), String>;
    /// The kind `text` is recognised as, when it is recognised as this codec's.
    fn sniff(&self, text: &str) -> Option<Kind>;
    /// The response document `doc` streamed in fragments of `n` characters and assembled
    /// again, when the codec streams.
    fn stream(&self, doc: &Value, n: usize) -> Option<Assembled>;
    /// What the provider's rules find in a request document.
    fn rules(&self, doc: &Value) -> Vec<Finding>;
    /// True when documents are text, not JSON (the legacy XML prompt).
    fn is_text(&self) -> bool {
        false
    }
}

impl Wire for Format {
    fn id(&self) -> &'static str {
        Format::id(*self)
    }
    fn write(&self, x: &Exchange, kind: Kind) -> (String, Vec<Loss>) {
        let e = self.encode(x, kind);
        (e.text, e.losses)
    }
    fn read(&self, text: &str, kind: Kind) -> Result<(Exchange, Vec<Loss>), String> {
        self.decode(text, kind)
            .map(|d| (d.exchange, d.losses))
            .map_err(|e| e.to_string())
    }
    fn sniff(&self, text: &str) -> Option<Kind> {
        Format::detect(text)
            .ok()
            .filter(|(f, _)| f == self)
            .map(|(_, k)| k)
    }
    fn stream(&self, doc: &Value, n: usize) -> Option<Assembled> {
        let p = Protocol::from_id(Format::id(*self))?;
        let mut a = AnyAssembler::new(p);
        for e in events(p.events_of(doc, n), p.named_events()) {
            a.push(&e);
        }
        Some(a.finish())
    }
    fn rules(&self, doc: &Value) -> Vec<Finding> {
        Format::rules(*self).check(doc)
    }
    fn is_text(&self) -> bool {
        Format::is_text(*self)
    }
}

impl<P: Profile + 'static> Wire for openai_chat::Dialect<P> {
    fn id(&self) -> &'static str {
        openai_chat::Dialect::id(self)
    }
    fn write(&self, x: &Exchange, kind: Kind) -> (String, Vec<Loss>) {
        let e = openai_chat::Dialect::write(self, x, kind);
        (e.text, e.losses)
    }
    fn read(&self, text: &str, kind: Kind) -> Result<(Exchange, Vec<Loss>), String> {
        openai_chat::Dialect::read(self, text, kind).map_err(|e| e.to_string())
    }
    fn sniff(&self, text: &str) -> Option<Kind> {
        self.sniff_text(text).map(|(k, _)| k)
    }
    fn stream(&self, doc: &Value, n: usize) -> Option<Assembled> {
        Some(self.assemble(&events(openai_chat::Dialect::stream(self, doc, n), false)))
    }
    /// A dialect's requests are checked against the rules of the protocol it speaks.
    fn rules(&self, doc: &Value) -> Vec<Finding> {
        Format::OpenAiChat.rules().check(doc)
    }
}

/// Synthesised stream values as the events a server sends (strings are sentinels).
fn events(values: Vec<Value>, named: bool) -> Vec<Event> {
    values
        .into_iter()
        .map(|v| match v {
            Value::String(s) => Event::data(s),
            v => Event {
                name: named
                    .then(|| v.get("type").and_then(Value::as_str).map(str::to_string))
                    .flatten(),
                data: v.to_string(),
            },
        })
        .collect()
}

/// A dialect under test.
#[derive(Debug, Clone, Copy)]
pub struct Dialect<W: Wire = Format> {
    /// Its codec.
    pub format: W,
    /// A model it serves.
    pub model: &'static str,
    /// A call id it accepts as it is.
    pub id: &'static str,
}

impl<W: Wire> Dialect<W> {
    fn exchange(&self, messages: Vec<Message>) -> Exchange {
        Exchange {
            options: Options {
                model: Some(self.model.into()),
                ..Options::default()
            },
            messages,
            ..Exchange::default()
        }
    }

    fn encode(&self, x: &Exchange) -> (Value, Vec<Loss>) {
        let t = super::checked_trip(self.format, x, Kind::Request);
        (t.doc, t.encoder)
    }

    /// A tool round answered, then the model's text: what every dialect carries whole.
    fn answered_round(&self) -> Exchange {
        let mut messages = super::weather_round(self.id, "b2");
        messages.push(assistant(vec![Part::text("Tokyo 24 °C, Oslo -3 °C.")]));
        let mut x = self.exchange(messages);
        x.tools = vec![super::bare_tool("get_weather")];
        x
    }
}

/// Runs every check of the suite that needs nothing from the caller, and names the first that
/// fails: round trips, detection, streaming and the protocol's rules.
pub fn conforms<W: Wire>(d: &Dialect<W>) -> Result<(), String> {
    round_trips(d).map_err(|e| format!("round trip: {e}"))?;
    finish_reasons_round_trip(d).map_err(|e| format!("finish reasons: {e}"))?;
    sniffs_its_own(d).map_err(|e| format!("detection: {e}"))?;
    streams(d).map_err(|e| format!("streaming: {e}"))?;
    passes_the_rules(d).map_err(|e| format!("rules: {e}"))
}

/// Every canonical exchange of `tests/fixtures/exchanges/`, sent to the dialect's model,
/// comes back as it went, as a request and as a response, but for what the losses report.
pub fn round_trips<W: Wire>(d: &Dialect<W>) -> Result<(), String> {
    for (name, mut x) in super::cases() {
        x.options.model = Some(d.model.into());
        for kind in [Kind::Request, Kind::Response] {
            super::try_trip(d.format, &x, kind)
                .map_err(|e| format!("{name} ({}): {e}", kind.as_str()))?;
        }
    }
    Ok(())
}

/// Each stop reason every dialect has a word for comes back from a response as it went, with
/// no loss reported at it.
pub fn finish_reasons_round_trip<W: Wire>(d: &Dialect<W>) -> Result<(), String> {
    for (reason, parts) in [
        (StopReason::EndTurn, vec![Part::text("done")]),
        (StopReason::MaxTokens, vec![Part::text("cut")]),
        (StopReason::ToolUse, vec![call(Some(d.id), "f", json!({}))]),
    ] {
        let mut turn = assistant(parts);
        turn.stop_reason = Some(reason.clone());
        let x = d.exchange(vec![user("go"), turn]);
        let t = super::try_trip(d.format, &x, Kind::Response)?;
        let back = t.back.messages.last().and_then(|m| m.stop_reason.as_ref());
        let at_it = t.all.iter().any(|l| l.pointer.ends_with("/stop_reason"));
        if back != Some(&reason) || at_it {
            return Err(format!(
                "{reason:?} came back as {back:?}, losses {:#?}\n{:#}",
                t.all, t.doc
            ));
        }
    }
    Ok(())
}

/// Its own request and response are recognised as its own, of the right kind.
pub fn sniffs_its_own<W: Wire>(d: &Dialect<W>) -> Result<(), String> {
    let x = d.answered_round();
    for kind in [Kind::Request, Kind::Response] {
        let (text, _) = d.format.write(&x, kind);
        let got = d.format.sniff(&text);
        if got != Some(kind) {
            return Err(format!("its {} read as {got:?}:\n{text}", kind.as_str()));
        }
    }
    Ok(())
}

/// Its response, streamed in fragments of 1, 3 and 12 characters, assembles to the message
/// the whole response carries, with no anomaly but those that note a legal spelling (calls
/// without `index`, as Mistral streams them).
pub fn streams<W: Wire>(d: &Dialect<W>) -> Result<(), String> {
    let mut x = d.answered_round();
    x.messages.push(assistant(vec![
        Part::text("Checking again."),
        call(
            Some(d.id),
            "get_weather",
            json!({"city": "Lima", "days": [1, 2]}),
        ),
    ]));
    let (text, _) = d.format.write(&x, Kind::Response);
    let (whole, _) = d.format.read(&text, Kind::Response)?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    for n in [1, 3, 12] {
        let Some(a) = d.format.stream(&doc, n) else {
            return Err("does not stream".into());
        };
        let legal = [AnomalyKind::MissingIndex, AnomalyKind::Interleaved];
        if a.anomalies.iter().any(|x| !legal.contains(&x.kind)) {
            return Err(format!("fragments of {n}: {:#?}", a.anomalies));
        }
        if a.exchange.messages.last() != whole.messages.last() {
            return Err(format!(
                "fragments of {n} assemble to {:#?}, the response holds {:#?}",
                a.exchange.messages.last(),
                whole.messages.last()
            ));
        }
    }
    Ok(())
}

/// A request of a tool round answered and a final text is one the provider's rules accept.
pub fn passes_the_rules<W: Wire>(d: &Dialect<W>) -> Result<(), String> {
    let (text, _) = d.format.write(&d.answered_round(), Kind::Request);
    let doc: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let found = d.format.rules(&doc);
    if rules::has_errors(&found) {
        return Err(format!("{found:#?}\n{doc:#}"));
    }
    Ok(())
}

/// A call whose arguments are not JSON is sent with its arguments as written. Returns what
/// encoding reported.
pub fn invalid_arguments_are_sent_as_written<W: Wire>(d: &Dialect<W>, raw: &str) -> Vec<Loss> {
    let mut broken = ToolCall::new(Some(d.id.into()), "f", Value::Null);
    broken.arguments_raw = Some(raw.into());
    let x = d.exchange(vec![user("go"), assistant(vec![Part::ToolCall(broken)])]);
    let (doc, losses) = d.encode(&x);
    assert_eq!(
        doc["messages"][1]["tool_calls"][0]["function"]["arguments"],
        raw
    );
    losses
}

/// Empty (or blank) arguments of a call in a pasted request (`assistant`: the dialect's
/// assistant message with that call as its only tool call, after a user message) read as
/// `{}`, reported at the call's arguments.
pub fn empty_arguments_read_as_an_empty_object<W: Wire>(d: &Dialect<W>, assistant: Value) {
    let doc = json!({"model": d.model, "messages": [
        {"role": "user", "content": "time?"},
        assistant]});
    let (x, losses) = d
        .format
        .read(&doc.to_string(), Kind::Request)
        .expect("decodes");
    assert_eq!(
        x.messages[1].tool_calls().next().unwrap().arguments,
        json!({})
    );
    assert_loss(
        &losses,
        LossKind::Rewritten,
        "/messages/1/parts/1/arguments",
    );
}

/// An error result becomes text starting `Error: `, reported. Returns the document.
pub fn error_results_fold_into_text<W: Wire>(d: &Dialect<W>, why: &str) -> Value {
    let x = d.exchange(vec![
        user("go"),
        assistant(vec![call(Some(d.id), "f", json!({}))]),
        tool_msg(vec![Part::ToolResult(error_result(Some(d.id), why))]),
    ]);
    let (doc, losses) = d.encode(&x);
    assert_eq!(doc["messages"][2]["content"], format!("Error: {why}"));
    assert_loss(&losses, LossKind::Rewritten, "/messages/2/parts/0");
    doc
}

/// A call and a result without ids get one id, the same in both, reported as added. Returns
/// the document and what encoding reported.
pub fn missing_ids_are_assigned_and_paired<W: Wire>(
    d: &Dialect<W>,
    x: &Exchange,
) -> (Value, Vec<Loss>) {
    let mut x = x.clone();
    x.options.model = Some(d.model.into());
    let (doc, losses) = d.encode(&x);
    let id = &doc["messages"][1]["tool_calls"][0]["id"];
    assert!(id.is_string(), "{doc:#}");
    assert_eq!(doc["messages"][2]["tool_call_id"], *id);
    super::assert_losses(
        &losses,
        &[
            (LossKind::Added, "/messages/1/parts/0/id"),
            (LossKind::Added, "/messages/2/parts/0/call_id"),
        ],
    );
    (doc, losses)
}
