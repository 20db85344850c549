//! Reasoning parts and provider-executed tool steps of AI SDK messages.
//!
//! A `reasoning` part (`{type, text, providerOptions}` in a `ModelMessage`; `providerMetadata`
//! in a `UIMessage`) is a [`Part::Reasoning`]: the opaque state the providers put in its
//! options becomes [`Opaque`] with its issuer (Anthropic and Bedrock `signature` /
//! `redactedData`, OpenAI `reasoningEncryptedContent`, Google `thoughtSignature`); the rest of
//! the options is kept verbatim. A Google `thoughtSignature` on a text or tool-call part is an
//! attached reasoning part before it, as Gemini's own format has it. Tool calls the provider
//! executed (`providerExecuted: true`) and the `tool-result` parts in an assistant message are
//! [`Part::Hosted`] steps, kept verbatim.
//!
//! Sources: npm `ai` 5 / `@ai-sdk/provider-utils` (`ReasoningPart`, `ToolCallPart`,
//! `AssistantContent`), and the providers' `providerOptions` readers in github.com/vercel/ai
//! (`packages/anthropic/src/convert-to-anthropic-messages-prompt.ts`,
//! `packages/openai/src/responses/convert-to-openai-responses-input.ts`,
//! `packages/google/src/convert-to-google-messages.ts`).

use super::convert::ID;
use crate::model::{HostedKind, HostedStep, Losses, Opaque, OpaqueKind, Part, Reasoning};
use crate::providers::Provider;
use serde_json::{Map, Value};

/// `(options key, field, kind, provider family)` of one opaque state an AI SDK package keeps
/// in a part's options.
type State = (&'static str, &'static str, OpaqueKind, &'static str);

/// Opaque state of packages for providers without a row: OpenRouter's community package.
const OTHER_STATE: [State; 1] = [(
    "openrouter",
    "reasoningEncrypted",
    OpaqueKind::Encrypted,
    "openrouter",
)];

/// Every opaque state the AI SDK's packages keep in a part's options, in the order they are
/// looked for: each provider's from its table row (its keys in order, then each kind), then
/// [`OTHER_STATE`].
fn states() -> impl Iterator<Item = State> {
    Provider::ALL
        .into_iter()
        .filter_map(|p| p.row().reasoning.ai_sdk.map(|a| (p.id(), a)))
        .flat_map(|(id, a)| {
            a.keys.iter().flat_map(move |key| {
                [
                    (a.signature, OpaqueKind::Signature),
                    (a.redacted, OpaqueKind::Redacted),
                    (a.encrypted, OpaqueKind::Encrypted),
                    (a.thought_signature, OpaqueKind::ThoughtSignature),
                ]
                .into_iter()
                .filter_map(move |(field, kind)| field.map(|f| (*key, f, kind, id)))
            })
        })
        .chain(OTHER_STATE)
}

/// Form marker: the options key the state was read from, when it is not the first one the
/// encoder would choose for its provider (`vertex` rather than `google`).
const KEY: &str = "_toolscope:options-key";

/// The provider family whose key an options object carries (`google` → `gemini`, from the
/// table); a key of no row's package is its own family.
fn family(key: &str) -> &str {
    Provider::ALL
        .into_iter()
        .find(|p| {
            p.row()
                .reasoning
                .ai_sdk
                .is_some_and(|a| a.keys.contains(&key))
        })
        .map_or(key, |p| p.id())
}

/// Take the first opaque state out of `options` (an options or metadata object); what is left
/// of it stays there. `only_signature` limits it to thought signatures (on text and calls).
fn take_state(options: &mut Map<String, Value>, only_signature: bool) -> Option<(Opaque, String)> {
    for (key, field, kind, provider) in states() {
        if only_signature && kind != OpaqueKind::ThoughtSignature {
            continue;
        }
        let Some(Value::Object(p)) = options.get_mut(key) else {
            continue;
        };
        let Some(Value::String(data)) = p.get(field) else {
            continue;
        };
        let opaque = Opaque::new(kind, data.clone(), provider);
        p.remove(field);
        if p.is_empty() {
            options.remove(key);
        }
        return Some((opaque, key.to_string()));
    }
    None
}

/// The options key and field the encoder writes `o` under, if the AI SDK has one.
fn slot(o: &Opaque, key: Option<&str>) -> Option<(String, &'static str)> {
    let (k, field) = states()
        .find(|(k, _, kind, provider)| {
            *kind == o.kind && *provider == o.provider && key.is_none_or(|want| want == *k)
        })
        .map(|(k, f, _, _)| (k, f))?;
    Some((k.to_string(), field))
}

/// A `reasoning` part (`meta` names its options field: `providerOptions` or
/// `providerMetadata`) as a reasoning part.
pub fn decode_reasoning(o: &Map<String, Value>, meta: &str, known: &[&str]) -> Part {
    let mut options = match o.get(meta) {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    let state = take_state(&mut options, false);
    let mut fields: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !known.contains(&k.as_str()) && k.as_str() != meta)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if !options.is_empty() || (o.contains_key(meta) && state.is_none()) {
        fields.insert(meta.into(), Value::Object(options));
    }
    let text = o.get("text").and_then(Value::as_str).unwrap_or("");
    let (opaque, key) = match state {
        Some((op, key)) => (Some(op), Some(key)),
        None => (None, None),
    };
    if let (Some(op), Some(key)) = (&opaque, &key) {
        if slot(op, None).is_some_and(|(k, _)| k != *key) {
            fields.insert(KEY.into(), Value::String(key.clone()));
        }
    }
    let mut extra = crate::model::Extra::new();
    if !fields.is_empty() {
        extra.insert(ID.to_string(), fields);
    }
    Part::Reasoning(Reasoning {
        text: (!(text.is_empty() && opaque.is_some())).then(|| text.to_string()),
        summary: Vec::new(),
        opaque,
        attached: false,
        extra,
    })
}

/// A Google thought signature in a text or tool-call part's options (`meta`), taken out as
/// the attached reasoning part that goes before it.
pub fn take_attached(o: &mut Map<String, Value>, meta: &str) -> Option<Part> {
    let Some(Value::Object(options)) = o.get_mut(meta) else {
        return None;
    };
    let (opaque, key) = take_state(options, true)?;
    if options.is_empty() {
        o.remove(meta);
    }
    let mut extra = crate::model::Extra::new();
    let mut fields = Map::new();
    if slot(&opaque, None).is_some_and(|(first, _)| first != key) {
        fields.insert(KEY.into(), Value::String(key));
    }
    if !fields.is_empty() {
        extra.insert(ID.to_string(), fields);
    }
    Some(Part::Reasoning(Reasoning {
        opaque: Some(opaque),
        attached: true,
        extra,
        ..Reasoning::default()
    }))
}

/// A state to write into the next part's options: `(options key, field, data)`.
pub type Pending = (String, &'static str, String);

/// A reasoning part as an AI SDK `reasoning` part, or, when attached, the state the next part
/// carries (`None` returned, `pending` set). State the AI SDK has no field for is reported.
pub fn encode_reasoning(
    r: &Reasoning,
    at: &str,
    target: &str,
    pending: &mut Option<Pending>,
    losses: &mut Losses,
) -> Option<Value> {
    losses.foreign_extra(&r.extra, ID, at);
    let own = r.extra.get(ID).cloned().unwrap_or_default();
    let key = own.get(KEY).and_then(Value::as_str);
    let state = r.opaque.as_ref().and_then(|o| match slot(o, key) {
        Some((k, f)) => Some((k, f, o.data.clone())),
        None => {
            losses
                .reasoning(
                    format!("{at}/opaque"),
                    o.what(),
                    format!(
                        "the AI SDK's providers keep no {} in a part's options",
                        o.kind.label()
                    ),
                )
                .at(target.to_string());
            None
        }
    });
    if let Some(model) = r
        .opaque
        .as_ref()
        .filter(|_| state.is_some())
        .and_then(|o| o.model.as_ref())
    {
        losses.dropped(
            format!("{at}/opaque/model"),
            format!("issuing model {model}"),
            "the AI SDK keeps the state in the provider's options, not the model that issued it",
        );
    }
    if r.attached && r.is_opaque_only() {
        if let Some(s) = state {
            *pending = Some(s);
        }
        return None;
    }
    let text = match (&r.text, r.summary.is_empty()) {
        (Some(t), true) => t.clone(),
        (None, true) => String::new(),
        (None, false) => {
            losses.rewritten(
                format!("{at}/summary"),
                "reasoning summaries",
                "an AI SDK reasoning part holds one text: the summaries are sent as it",
            );
            r.summary.join("\n\n")
        }
        (Some(t), false) => {
            losses.reasoning(
                format!("{at}/summary"),
                "reasoning summaries",
                "an AI SDK reasoning part holds one text: the reasoning text is sent",
            );
            t.clone()
        }
    };
    let mut o = Map::new();
    o.insert("type".into(), Value::from("reasoning"));
    o.insert("text".into(), Value::String(text));
    let mut options = match own.get("providerOptions") {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    if let Some((k, f, data)) = state {
        put(&mut options, &k, f, data);
    }
    if !options.is_empty() || own.contains_key("providerOptions") {
        o.insert("providerOptions".into(), Value::Object(options));
    }
    for (k, v) in own.iter() {
        if !crate::model::is_form_key(k) && !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
    Some(Value::Object(o))
}

fn put(options: &mut Map<String, Value>, key: &str, field: &str, data: String) {
    let p = options
        .entry(key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    if !p.is_object() {
        *p = Value::Object(Map::new());
    }
    if let Value::Object(p) = p {
        p.insert(field.to_string(), Value::String(data));
    }
}

/// Write a pending state into an encoded part's `providerOptions`.
pub fn attach(part: &mut Value, pending: Pending) {
    if let Value::Object(o) = part {
        let options = o
            .entry("providerOptions")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = options {
            put(m, &pending.0, pending.1, pending.2);
        }
    }
}

/// The provider family that ran a step, from its options' keys (`google` → `gemini`).
fn provider_of(o: &Map<String, Value>) -> String {
    [
        "providerOptions",
        "providerMetadata",
        "callProviderMetadata",
    ]
    .iter()
    .filter_map(|k| o.get(*k).and_then(Value::as_object))
    .flat_map(|m| m.keys())
    .next()
    .map_or("provider", |k| family(k))
    .to_string()
}

/// A provider-executed call or result, kept verbatim.
pub fn hosted(o: &Map<String, Value>, kind: HostedKind) -> Part {
    Part::Hosted(HostedStep {
        provider: provider_of(o),
        format: ID.into(),
        kind,
        tool: o
            .get("toolName")
            .and_then(Value::as_str)
            .unwrap_or("tool")
            .to_string(),
        id: o
            .get("toolCallId")
            .and_then(Value::as_str)
            .map(str::to_string),
        value: Value::Object(o.clone()),
    })
}
