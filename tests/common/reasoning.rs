//! What the reasoning test modules share: the formats that send a conversation to one
//! provider, the reasoning losses of a conversion, a fixture read as JSON or decoded, and the
//! own-format round trip of a recorded document.

use serde_json::Value;
use toolscope::formats::{Format, Kind};
use toolscope::model::{count_losses, Exchange, Loss, LossKind, Part, Reasoning};

/// The formats that send a conversation to one provider: MCP carries no conversation (a
/// transcript drops whole messages, named as such, rather than their parts), and the AI SDK
/// keeps each provider's state under `providerOptions.<provider>`, which the SDK hands only
/// to that provider (checked in `reasoning_ai_sdk`).
pub fn providers() -> impl Iterator<Item = Format> {
    Format::ALL
        .into_iter()
        .filter(|f| !matches!(f, Format::Mcp | Format::AiSdk))
}

/// The reasoning losses, as (what, why).
pub fn reasoning_losses(losses: &[Loss]) -> Vec<(String, String)> {
    reasoning_losses_at(losses)
        .into_iter()
        .map(|(_, what, why)| (what, why))
        .collect()
}

/// The reasoning losses, as (pointer, what, why).
pub fn reasoning_losses_at(losses: &[Loss]) -> Vec<(String, String, String)> {
    losses
        .iter()
        .filter(|l| l.kind == LossKind::Reasoning)
        .map(|l| (l.pointer.clone(), l.what.clone(), l.why.clone()))
        .collect()
}

/// `tests/fixtures/<path>` as JSON.
pub fn fixture_json(path: &str) -> Value {
    let text = std::fs::read_to_string(super::fixtures().join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `tests/fixtures/<path>` decoded as `format`'s `kind` of document.
pub fn decode_fixture(format: Format, path: &str, kind: Kind) -> Exchange {
    super::decode_doc(format, &fixture_json(path), kind).0
}

/// The reasoning a part is (panics on any other part).
pub fn reasoning(p: &Part) -> &Reasoning {
    match p {
        Part::Reasoning(r) => r,
        other => panic!("not reasoning: {other:?}"),
    }
}

/// Decode `text` as `format`, encode it again: the same JSON value, with nothing lost.
pub fn own_round_trip(format: Format, text: &str, kind: Kind) -> Exchange {
    let doc: Value = serde_json::from_str(text).expect("json");
    let dec = format.decode(text, kind).unwrap_or_else(|e| panic!("{e}"));
    let enc = format.encode(&dec.exchange, kind);
    let back: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(back, doc, "changed; losses {:#?}", enc.losses);
    assert_eq!(
        count_losses(&enc.losses),
        0,
        "own format loses nothing: {:#?}",
        enc.losses
    );
    dec.exchange
}
