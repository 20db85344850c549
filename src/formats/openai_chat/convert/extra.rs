//! What a Chat Completions document spells that the model does not record, kept in the
//! element's `extra[ID]`: the keys of the bookkeeping values and form markers, and the helpers
//! that read and write them.

use super::*;

/// Prefix of the bookkeeping keys in `extra[ID]`: read by the encoder, never emitted.
pub(super) const META: &str = "toolscope:";
/// Exchange: the leading system message as it was, when it was not `{"role": "system",
/// "content": "<text>"}`.
pub(super) const M_SYSTEM: &str = "toolscope:system";
/// Exchange: which field the token limit came in.
pub(super) const M_MAX_TOKENS: &str = "_toolscope:max_tokens_field";
/// Exchange: `stop` was one string.
pub(super) const M_STOP_STRING: &str = "_toolscope:stop_string";
/// Exchange: tool_choice used the `allowed_tools` form where a shorter one exists.
pub(super) const M_ALLOWED_TOOLS: &str = "_toolscope:allowed_tools";
/// Exchange: tools of other kinds (custom), as `{"index", "tool"}`.
pub(super) const M_OTHER_TOOLS: &str = "toolscope:other_tools";
/// Tool, tool call: unknown fields of the inner `function` object.
pub(super) const M_FUNCTION: &str = "toolscope:function";
/// Tool: `parameters` was left out.
pub(super) const M_NO_PARAMETERS: &str = "_toolscope:no_parameters";
/// Tool: `"type": "function"` was left out (kept only by the dialects that accept that).
pub(super) const M_NO_TYPE: &str = "_toolscope:no_type";
/// User message: it was a `system`/`developer` message inside the conversation.
pub(super) const M_ROLE: &str = "toolscope:role";
/// Message: content was an array where a string or null is the default (`array`), or left
/// out (`omitted`).
pub(super) const M_CONTENT: &str = "_toolscope:content";
/// Tool result: the tool message carried `name` (some compatible APIs want it).
pub(super) const M_NAME: &str = "_toolscope:name";
/// Response message: top-level response fields (`id`, `created`, `system_fingerprint`, …).
pub(super) const M_RESPONSE: &str = "toolscope:response";
/// Response message: fields of the choice (`index`, `logprobs`, …).
pub(super) const M_CHOICE: &str = "toolscope:choice";
/// Response message: usage details (`prompt_tokens_details`, …).
pub(super) const M_USAGE: &str = "toolscope:usage";
/// Response message: the choices after the first, as they were.
pub(super) const M_CHOICES: &str = "toolscope:choices";
/// Exchange (request) or response message: the document's own model, when its name belongs
/// to another provider's family (Gemini's and other OpenAI-compatible endpoints serve them):
/// kept while the model is unchanged.
pub(super) const M_OWN_MODEL: &str = "_toolscope:model";
/// Response message: fields the encoder emits by default that the document left out.
pub(super) const M_OMIT: &str = "_toolscope:omit";

/// Remember a document's model named for another family (see [`M_OWN_MODEL`]).
pub(super) fn note_own_model(d: &dyn Profile, model: Option<&str>, fields: &mut Fields) {
    if let Some(m) = model.filter(|m| !d.family().accepts(m) && !m.trim().is_empty()) {
        fields.insert(M_OWN_MODEL.into(), Value::String(m.to_string()));
    }
}

/// Cohere form marker: this text part was the assistant's `tool_plan`.
pub(super) const F_TOOL_PLAN: &str = "tool_plan";
/// Cohere form marker: the assistant message had calls and no `tool_plan`.
pub(super) const F_NO_PLAN: &str = "no_tool_plan";
/// Mistral form marker: the call's arguments were a JSON object.
pub(super) const F_ARGS_OBJECT: &str = "arguments_object";
/// Mistral form marker: tool_choice said `required` rather than `any`.
pub(super) const F_REQUIRED: &str = "required_word";

/// The element's document fields (its own map without bookkeeping keys).
pub(super) fn plain(extra: &Extra, id: &str) -> Fields {
    Own::of(extra, id)
        .map()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !k.starts_with(META) && !is_form_key(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// Pointer for a loss about the element's own fields in `extra`: the map itself, or the whole
/// `extra` when it holds nothing else (it disappears from the exchange when emptied).
pub(super) fn own_pointer(extra: &Extra, id: &str, owner: impl std::fmt::Display) -> String {
    if extra.keys().all(|k| k == id) {
        format!("{owner}/extra")
    } else {
        extra_pointer(owner, id)
    }
}

pub(super) fn extra_pointer(pointer: impl std::fmt::Display, id: &str) -> String {
    format!("{pointer}/extra/{}", escape(id))
}
