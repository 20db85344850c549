//! Model → Chat Completions documents.

use super::*;

// ---------------------------------------------------------------------------------------------
// Encoding

struct Enc {
    d: &'static dyn Profile,
    id: &'static str,
    losses: Losses,
    /// The name of the call each result answers, by (message, part) of the result.
    result_names: HashMap<(usize, usize), String>,
    /// The model the document names: where reasoning goes, and whose opaque state it takes.
    model: String,
}

/// The reasoning of one assistant message, spelled for the target.
#[derive(Default)]
struct ReasoningOut {
    /// Message fields (`reasoning_content`, `reasoning`, `thinking`) and their text.
    fields: Vec<(&'static str, String)>,
    /// `reasoning_details` entries.
    details: Vec<Value>,
    /// A Gemini thought signature for the next tool call, and the part it came from.
    signature: Option<(String, usize)>,
}

impl Enc {
    fn new(d: &'static dyn Profile) -> Self {
        Enc {
            d,
            id: d.id(),
            losses: Losses::new(),
            result_names: HashMap::new(),
            model: String::new(),
        }
    }

    /// Remember which call each result answers (by id), before ids may be dropped.
    fn note_result_names(&mut self, x: &Exchange) {
        let mut names: HashMap<&str, &str> = HashMap::new();
        for (i, m) in x.messages.iter().enumerate() {
            for (j, part) in m.parts.iter().enumerate() {
                match part {
                    Part::ToolCall(c) => {
                        if let Some(id) = &c.id {
                            names.insert(id, &c.name);
                        }
                    }
                    Part::ToolResult(r) => {
                        if let Some(name) = r.call_id.as_deref().and_then(|id| names.get(id)) {
                            self.result_names.insert((i, j), name.to_string());
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Ids for calls that have none, then the dialect's id rule (or no ids at all).
    fn prepare_ids<'x>(&mut self, x: &'x Exchange) -> Cow<'x, Exchange> {
        if !self.d.quirks().has_ids {
            self.note_result_names(x);
            return Cow::Owned(self.drop_ids(x));
        }
        let why = format!(
            "{} pairs every tool result with its call by tool_call_id",
            self.d.provider()
        );
        // Borrowed when nothing changes (the common case): no copy of the exchange.
        let (x, losses) = settle_ids(x, &why, self.d.id_rule().as_ref());
        self.losses.extend(losses);
        self.note_result_names(&x);
        x
    }

    /// A dialect without ids pairs results with calls by order and tool name.
    fn drop_ids(&mut self, x: &Exchange) -> Exchange {
        let mut x = x.clone();
        let why = format!(
            "{} has no call ids; results pair with calls by order and tool name",
            self.d.provider()
        );
        for (i, m) in x.messages.iter_mut().enumerate() {
            for (j, part) in m.parts.iter_mut().enumerate() {
                let (slot, field) = match part {
                    Part::ToolCall(c) => (&mut c.id, "id"),
                    Part::ToolResult(r) => (&mut r.call_id, "call_id"),
                    _ => continue,
                };
                if let Some(old) = slot.take() {
                    self.losses.dropped(
                        format!("/messages/{i}/parts/{j}/{field}"),
                        format!("call id {old:?}"),
                        why.clone(),
                    );
                }
            }
        }
        x
    }

    /// The element's own fields to emit next to those the encoder set on `wire` (a field the
    /// encoder set itself wins; the kept one is reported).
    fn merge<T: Serialize + serde::de::DeserializeOwned>(
        &mut self,
        wire: &T,
        fields: Fields,
        extra: &Extra,
        owner: impl std::fmt::Display,
    ) -> Fields {
        // Nothing kept (the common case): no need to write the element out to compare.
        if fields.is_empty() {
            return fields;
        }
        let set = serde_json::to_value(wire).unwrap_or(Value::Null);
        let mut out = Fields::new();
        for (k, v) in fields {
            // A kept field must not be one the encoder sets, nor a value the wire type cannot
            // read back (a generated `"id": false` on an Ollama call made the whole document
            // unreadable). Values of declared fields the model has no place for (a custom
            // tool_choice, a `null`) are kept on purpose: decoding stores them here again.
            let declared = set.get(&k).is_some() || {
                let mut probe = set.clone();
                if let Value::Object(m) = &mut probe {
                    m.insert(k.clone(), v.clone());
                }
                serde_json::from_value::<T>(probe).is_err()
            };
            if declared {
                self.losses.dropped(
                    own_pointer(extra, self.id, &owner),
                    format!("kept field {k}"),
                    "the encoder sets this field from the model",
                );
            } else {
                out.insert(k, v);
            }
        }
        out
    }

    /// Report the bookkeeping keys of `extra` that did not shape the output: decoding the
    /// output would not bring them back.
    fn unused_meta(&mut self, extra: &Extra, owner: impl std::fmt::Display, used: &[&str]) {
        let Some(map) = Own::of(extra, self.id).map() else {
            return;
        };
        for k in map.keys() {
            if k.starts_with(META) && !used.contains(&k.as_str()) {
                self.losses.dropped(
                    own_pointer(extra, self.id, &owner),
                    format!("remembered spelling {k}"),
                    "it does not apply to the element as it is now",
                );
            }
        }
    }

    fn model(&mut self, x: &Exchange) -> String {
        if let Some(own) = self.own_model(x) {
            return own;
        }
        crate::model::encoder_model(
            x,
            self.d.family(),
            "/model",
            "model",
            &format!("{} requires a model", self.d.provider()),
            &mut self.losses,
        )
    }

    /// The model the document will name (its losses are reported where it is written).
    fn target_model(&self, x: &Exchange) -> String {
        self.own_model(x).unwrap_or_else(|| {
            crate::model::encoder_model(
                x,
                self.d.family(),
                "/model",
                "model",
                "",
                &mut Losses::new(),
            )
        })
    }

    /// The model a document of this format named, while the exchange still names it.
    fn own_model(&self, x: &Exchange) -> Option<String> {
        let model = x.options.model.as_deref()?;
        let remembered = std::iter::once(&x.extra)
            .chain(x.messages.first().map(|m| &m.extra))
            .any(|e| Own::of(e, self.id).str(M_OWN_MODEL) == Some(model));
        remembered.then(|| model.to_string())
    }

    fn drop_part(&mut self, part: &Part, pointer: &Ptr, role: &str) {
        let (what, why) = match part {
            Part::Reasoning(r) => {
                shared::drop_reasoning(r, pointer, self.d.provider(), &mut self.losses);
                return;
            }
            Part::Hosted(h) => {
                shared::drop_hosted(h, pointer, &mut self.losses);
                return;
            }
            Part::Raw { format, value } => (
                crate::model::media_label(format, value),
                crate::model::raw_why(format, value, format!("only {format} has it")),
            ),
            Part::ToolCall(c) => (
                format!("tool call {}", c.name),
                format!("only assistant messages carry tool calls, not {role} messages"),
            ),
            Part::ToolResult(_) => (
                "tool result".to_string(),
                format!("only tool messages carry tool results, not {role} messages"),
            ),
            Part::Text { .. } => ("text".to_string(), format!("{role} messages carry no text")),
        };
        self.losses.dropped(pointer.to_string(), what, why);
    }

    /// A reasoning part of an assistant message: spelled as its document had it where the
    /// target reads that spelling, else as the target spells reasoning for the model, else
    /// dropped with a reasoning loss. Opaque state goes back only to its issuer. Returns the
    /// content item when the spelling is one.
    fn reasoning(
        &mut self,
        r: &Reasoning,
        j: usize,
        pp: &Ptr,
        next_is_call: bool,
        out: &mut ReasoningOut,
    ) -> Option<ContentPart> {
        let id = self.id;
        // The document's spelling, unless the model is now OpenAI's (whose Chat Completions
        // has no place for reasoning), else the target's spelling for the model.
        let openai = crate::model::ModelFamily::of_name(&self.model)
            == Some(crate::model::ModelFamily::OpenAi);
        let spelling = reasoning::spelling_of(r, id)
            .filter(|s| !openai && self.d.reasoning_spellings().contains(s))
            .or_else(|| self.d.reasoning_spelling(&self.model));
        let issuer = self.d.reasoning_issuer(&self.model);
        let replayable = r
            .opaque
            .as_ref()
            .is_some_and(|o| issuer.is_some_and(|i| o.replayable_to(i)));
        if let Some(o) = &r.opaque {
            let signature = o.kind == OpaqueKind::ThoughtSignature;
            let carried = if signature {
                // Gemini's OpenAI-compatible endpoint reads it on the tool call it preceded.
                replayable && next_is_call
            } else {
                replayable && spelling == Some(Spelling::Details)
            };
            if carried && signature {
                out.signature = Some((o.data.clone(), j));
            } else if !carried {
                let why = if !replayable {
                    o.why_dropped()
                } else if signature {
                    format!(
                        "{} carries a thought signature only on a tool call",
                        self.d.provider()
                    )
                } else {
                    format!(
                        "{} takes it back only in reasoning_details",
                        self.d.provider()
                    )
                };
                self.losses.reasoning(format!("{pp}/opaque"), o.what(), why);
            }
        }
        if r.is_opaque_only() {
            if spelling == Some(Spelling::Details) && replayable {
                out.details.push(reasoning::detail_entry(r, id, true));
            }
            return None;
        }
        match spelling {
            None => {
                self.losses.reasoning(
                    pp.to_string(),
                    "reasoning text",
                    format!("{} has no place for a model's reasoning", self.d.provider()),
                );
                None
            }
            Some(Spelling::Details) => {
                out.details.push(reasoning::detail_entry(r, id, replayable));
                None
            }
            Some(s) if s.is_field() => {
                out.fields.push((s.word(), r.readable()));
                None
            }
            Some(s) => Some(ContentPart::Other(reasoning::chunk_value(r, id, s))),
        }
    }

    /// The request's reasoning settings in the API's spelling (a pasted document's choice
    /// between `reasoning_effort` and OpenRouter's object is kept); what it cannot say is
    /// dropped with a loss.
    fn reasoning_options(&mut self, x: &Exchange, extra: &Extra, fields: &mut Fields) {
        use reasoning::OptionSpelling as O;
        let opts = &x.options.reasoning;
        if opts.is_empty() {
            return;
        }
        let provider = self.d.provider();
        let spelling = match (
            self.d.reasoning_option(&self.model),
            Own::of(extra, self.id).str(reasoning::F_OPTIONS),
        ) {
            (Some(O::Effort | O::OpenRouter), Some("reasoning_effort")) => Some(O::Effort),
            (Some(O::Effort | O::OpenRouter), Some("reasoning")) => Some(O::OpenRouter),
            (s, _) => s,
        };
        let not_reasoning = spelling == Some(O::Effort) && !reasons(&self.model);
        let (field, lost) = match spelling {
            Some(s) if !not_reasoning => reasoning::options_field(opts, s, provider),
            _ => {
                let why = if not_reasoning {
                    format!(
                        "{} is not a reasoning model: {provider} rejects reasoning settings for it",
                        self.model
                    )
                } else {
                    format!("{provider} has no reasoning settings")
                };
                let set = [
                    ("enabled", opts.enabled.is_some()),
                    ("effort", opts.effort.is_some()),
                    ("budget", opts.budget.is_some()),
                    ("summary", opts.summary.is_some()),
                    ("include_encrypted", opts.include_encrypted.is_some()),
                ];
                let lost = set
                    .iter()
                    .filter(|(_, on)| *on)
                    .map(|(k, _)| (*k, why.clone()))
                    .collect();
                (None, lost)
            }
        };
        for (setting, why) in lost {
            self.losses.dropped(
                format!("/options/reasoning/{setting}"),
                format!("reasoning {setting}"),
                why,
            );
        }
        if let Some((key, value)) = field {
            if fields.contains_key(key) {
                self.losses.dropped(
                    own_pointer(extra, self.id, ""),
                    format!("kept field {key}"),
                    "the encoder sets this field from the model",
                );
            }
            fields.insert(key.into(), value);
        }
    }

    /// A Gemini thought signature waiting for a tool call that did not come next.
    fn stray_signature(&mut self, out: &mut ReasoningOut, list: &Ptr) {
        if let Some((_, j)) = out.signature.take() {
            self.losses.reasoning(
                format!("{}/opaque", list.index(j)),
                format!(
                    "{} {}",
                    crate::model::provider_name(reasoning::signature_issuer()),
                    OpaqueKind::ThoughtSignature.label()
                ),
                format!(
                    "{} carries a thought signature only on a tool call",
                    self.d.provider()
                ),
            );
        }
    }

    /// The message fields of the reasoning: one text per field (several parts are joined,
    /// reported), `reasoning_details`, and `reasoning` again where it repeated the details.
    fn reasoning_fields(
        &mut self,
        m: &Message,
        out: ReasoningOut,
        fields: &mut Fields,
        p: impl std::fmt::Display,
    ) {
        let mut joined: Vec<(&'static str, String, usize)> = Vec::new();
        for (field, text) in out.fields {
            match joined.iter_mut().find(|(f, _, _)| *f == field) {
                Some((_, acc, n)) => {
                    acc.push_str("\n\n");
                    acc.push_str(&text);
                    *n += 1;
                }
                None => joined.push((field, text, 1)),
            }
        }
        for (field, text, n) in joined {
            if n > 1 {
                self.losses.rewritten(
                    format!("{p}/parts"),
                    format!("{n} reasoning parts"),
                    format!("{field} is one string; the texts are joined"),
                );
            }
            fields.insert(field.into(), Value::String(text));
        }
        if out.details.is_empty() {
            return;
        }
        if Own::of(&m.extra, self.id).form_flag(reasoning::F_MIRROR)
            && !fields.contains_key("reasoning")
        {
            let texts: String = out
                .details
                .iter()
                .filter_map(|d| d.get("text").and_then(Value::as_str))
                .collect();
            let said = if texts.is_empty() {
                out.details
                    .iter()
                    .filter_map(|d| d.get("summary").and_then(Value::as_str))
                    .collect()
            } else {
                texts
            };
            fields.insert("reasoning".into(), Value::String(said));
        }
        fields.insert("reasoning_details".into(), Value::Array(out.details));
    }

    fn text_part(&mut self, text: &str, extra: &Extra, pointer: &Ptr) -> ContentPart {
        self.losses.foreign_extra(extra, self.id, pointer);
        self.unused_meta(extra, pointer, &[]);
        ContentPart::Text(TextPart {
            kind: wire::TextTag::Text,
            text: text.to_string(),
            extra: plain(extra, self.id),
        })
    }

    /// The leading system message: as it was pasted (role, name, …) with the current text.
    fn system(&mut self, x: &Exchange, text: &str) -> wire::Message {
        let stashed = Own::of(&x.extra, self.id)
            .get(M_SYSTEM)
            .and_then(|v| serde_json::from_value::<wire::Message>(v.clone()).ok())
            .filter(|m| matches!(m.role, wire::Role::System | wire::Role::Developer));
        let Some(mut msg) = stashed else {
            return wire::Message::new(
                wire::Role::System,
                Field::Value(Content::Text(text.to_string())),
            );
        };
        // The text is kept only when it was an array of parts (the form is the spelling).
        let same = match &msg.content {
            Field::Value(c) => instruction_text(c) == text,
            _ => false,
        };
        if !same {
            if !msg.content.is_absent() {
                self.losses.dropped(
                    own_pointer(&x.extra, self.id, ""),
                    "content parts of the system message",
                    "the system prompt changed; sent as one string",
                );
            }
            msg.content = Field::Value(Content::Text(text.to_string()));
        }
        msg
    }

    fn messages(&mut self, x: &Exchange) -> Vec<wire::Message> {
        let id = self.id;
        let mut out = Vec::new();
        if let Some(system) = &x.system {
            out.push(self.system(x, system));
        }
        // Tool messages must follow an assistant message with calls (and its other results).
        let mut in_block = false;
        let mut prev_tool = false;
        let messages = Ptr::ROOT.key("messages");
        for (i, m) in x.messages.iter().enumerate() {
            let p = messages.index(i);
            self.losses.foreign_extra(&m.extra, id, p);
            // stop_reason and usage of past turns are response data (`Exchange::request_view`).
            match m.role {
                Role::User => {
                    let leading = out.is_empty();
                    out.push(self.user(m, i, leading));
                    in_block = false;
                    prev_tool = false;
                }
                Role::Assistant => {
                    let (msg, calls, used) = self.assistant(m, i, Kind::Request);
                    self.unused_meta(&m.extra, p, &used);
                    out.push(msg);
                    in_block = calls;
                    prev_tool = false;
                }
                Role::Tool if in_block => {
                    let results = self.tool_results(m, i);
                    if prev_tool {
                        self.losses.rewritten(
                            "/messages",
                            format!("tool message {i} merged with the one before"),
                            "Chat Completions has one message per result; consecutive results read back as one tool message",
                        );
                    }
                    if results.is_empty() {
                        self.losses.dropped(
                            "/messages",
                            format!("empty tool message {i}"),
                            "a tool message without results has nothing to send",
                        );
                    }
                    out.extend(results);
                    prev_tool = true;
                }
                Role::Tool => {
                    out.push(self.orphan_results(m, i));
                    in_block = false;
                    prev_tool = false;
                }
            }
        }
        out
    }

    fn user(&mut self, m: &Message, i: usize, leading: bool) -> wire::Message {
        let id = self.id;
        let messages = Ptr::ROOT.key("messages");
        let p = messages.index(i);
        let list = p.key("parts");
        let mut parts = Vec::new();
        let mut order = Vec::new();
        for (j, part) in m.parts.iter().enumerate() {
            let pp = list.index(j);
            match part {
                Part::Text { text, extra } => {
                    parts.push(self.text_part(text, extra, &pp));
                    order.push(j);
                }
                Part::Raw { format, value } if format == id => {
                    parts.push(ContentPart::Other(value.clone()));
                    order.push(j);
                }
                other => self.drop_part(other, &pp, "user"),
            }
        }
        check_order(&order, p, &mut self.losses);
        let mut used = Vec::new();
        let mut role = match Own::of(&m.extra, id).str(M_ROLE) {
            Some("system") => wire::Role::System,
            Some("developer") => wire::Role::Developer,
            _ => wire::Role::User,
        };
        if role != wire::Role::User {
            if leading {
                // Sent first, it would read back as the system prompt.
                self.losses.dropped(
                    own_pointer(&m.extra, id, p),
                    "system role of the first message",
                    "a leading system message is the system prompt; sent as a user message",
                );
                role = wire::Role::User;
            } else {
                used.push(M_ROLE);
            }
        }
        // A string, unless the document had an array where a string (or "") is the default.
        let short = match parts.as_slice() {
            [] => true,
            [ContentPart::Text(t)] => t.extra.is_empty(),
            _ => false,
        };
        let array = Own::of(&m.extra, id).str(M_CONTENT) == Some("array");
        if array && short {
            used.push(M_CONTENT);
        }
        let content = match parts.as_slice() {
            _ if array => Content::Parts(parts),
            [] => {
                self.losses.added(
                    format!("{p}/parts"),
                    "empty text",
                    "a message needs content; an empty string is sent",
                );
                Content::Text(String::new())
            }
            [ContentPart::Text(t)] if t.extra.is_empty() => Content::Text(t.text.clone()),
            _ => Content::Parts(parts),
        };
        let content = if self.d.quirks().string_content {
            Content::Text(self.one_string(content, &format!("{p}/parts")))
        } else {
            content
        };
        self.unused_meta(&m.extra, p, &used);
        let mut msg = wire::Message::new(role, Field::Value(content));
        msg.extra = self.merge(&msg, plain(&m.extra, id), &m.extra, p);
        msg
    }

    /// Content as one string, for dialects without content parts: texts joined, other parts
    /// dropped (reported at `pointer`: it reads back as one text).
    fn one_string(&mut self, content: Content, pointer: &str) -> String {
        let parts = match content {
            Content::Text(s) => return s,
            Content::Parts(parts) => parts,
        };
        let texts: Vec<String> = parts
            .into_iter()
            .filter_map(|part| match part {
                ContentPart::Text(t) => Some(t.text),
                ContentPart::Other(_) => None,
            })
            .collect();
        {
            self.losses.rewritten(
                pointer,
                "content parts",
                format!(
                    "{} message content is one string; texts are joined, other parts dropped",
                    self.d.provider()
                ),
            );
        }
        texts.join("\n")
    }

    /// An assistant message, whether it carries calls, and the bookkeeping keys it used.
    fn assistant(
        &mut self,
        m: &Message,
        i: usize,
        kind: Kind,
    ) -> (wire::Message, bool, Vec<&'static str>) {
        let id = self.id;
        let messages = Ptr::ROOT.key("messages");
        let p = messages.index(i);
        let list = p.key("parts");
        let mut texts: Vec<(usize, ContentPart)> = Vec::new();
        let mut calls: Vec<(usize, wire::ToolCall)> = Vec::new();
        let plan_at = self.plan_index(m);
        let mut plan: Option<String> = None;
        let mut thinking = ReasoningOut::default();
        for (j, part) in m.parts.iter().enumerate() {
            let pp = list.index(j);
            if !matches!(part, Part::ToolCall(_)) {
                self.stray_signature(&mut thinking, &list);
            }
            match part {
                Part::Reasoning(r) => {
                    let next_is_call = matches!(m.parts.get(j + 1), Some(Part::ToolCall(_)));
                    if let Some(chunk) = self.reasoning(r, j, &pp, next_is_call, &mut thinking) {
                        texts.push((j, chunk));
                    }
                }
                Part::Text { text, extra } if plan_at == Some(j) => {
                    // Cohere's tool_plan: a plain string, so text part fields have no place.
                    self.losses.foreign_extra(extra, id, pp);
                    if !plain(extra, id).is_empty() {
                        self.losses.dropped(
                            own_pointer(extra, id, pp),
                            "fields of the tool plan text",
                            "tool_plan is a plain string",
                        );
                    }
                    plan = Some(text.clone());
                    texts.push((j, ContentPart::Other(Value::Null)));
                }
                Part::Text { text, extra } => texts.push((j, self.text_part(text, extra, &pp))),
                Part::ToolCall(c) => {
                    let mut call = self.call(c, &pp);
                    if let (Some((sig, _)), wire::ToolCall::Function(f)) =
                        (thinking.signature.take(), &mut call)
                    {
                        reasoning::put_signature(&mut f.extra, &sig);
                    }
                    calls.push((j, call))
                }
                // Custom tool calls have an id; content parts never do.
                Part::Raw { format, value } if format == id && value.get("id").is_some() => {
                    calls.push((j, wire::ToolCall::Other(value.clone())))
                }
                Part::Raw { format, value } if format == id => {
                    texts.push((j, ContentPart::Other(value.clone())))
                }
                other => self.drop_part(other, &pp, "assistant"),
            }
        }
        self.stray_signature(&mut thinking, &list);
        let order: Vec<usize> = texts
            .iter()
            .filter(|(_, c)| !is_thinking(c))
            .map(|(j, _)| *j)
            .chain(calls.iter().map(|(j, _)| *j))
            .collect();
        check_order(&order, p, &mut self.losses);
        // The tool plan goes first: out of the content.
        texts.retain(|(j, _)| plan_at != Some(*j));
        let form = Own::of(&m.extra, id).str(M_CONTENT);
        let mut used = Vec::new();
        let content = match kind {
            Kind::Request => {
                let parts: Vec<ContentPart> = texts.into_iter().map(|(_, c)| c).collect();
                let short = match parts.as_slice() {
                    [] => true,
                    [ContentPart::Text(t)] => t.extra.is_empty(),
                    _ => false,
                };
                let omits = self.d.quirks().omits_empty_content;
                match (form, parts.as_slice()) {
                    (Some("omitted"), []) if !omits => {
                        used.push(M_CONTENT);
                        Field::Absent
                    }
                    (Some("null"), []) if omits => {
                        used.push(M_CONTENT);
                        Field::Null
                    }
                    (Some("array"), _) => {
                        if short {
                            used.push(M_CONTENT);
                        }
                        Field::Value(Content::Parts(parts))
                    }
                    (_, []) if self.d.quirks().string_content => {
                        Field::Value(Content::Text(String::new()))
                    }
                    // Cohere leaves out the content of a message without text.
                    (_, []) if omits => Field::Absent,
                    (_, []) => Field::Null,
                    (_, [ContentPart::Text(t)]) if t.extra.is_empty() => {
                        Field::Value(Content::Text(t.text.clone()))
                    }
                    _ if self.d.quirks().string_content => Field::Value(Content::Text(
                        self.one_string(Content::Parts(parts), &format!("{p}/parts")),
                    )),
                    _ => Field::Value(Content::Parts(parts)),
                }
            }
            Kind::Response => {
                let content = self.response_content(texts, form, p);
                if content.is_absent() {
                    used.push(M_CONTENT);
                }
                content
            }
        };
        if self.d.quirks().string_content {
            self.empty_text_dropped(m, &content, p);
        }
        let has_calls = !calls.is_empty();
        let mut msg = wire::Message::new(wire::Role::Assistant, content);
        if has_calls {
            msg.tool_calls = Field::Value(calls.into_iter().map(|(_, c)| c).collect());
        }
        let mut fields = plain(&m.extra, id);
        if let Some(plan) = plan {
            fields.insert("tool_plan".into(), Value::String(plan));
        }
        self.reasoning_fields(m, thinking, &mut fields, p);
        msg.extra = self.merge(&msg, fields, &m.extra, p);
        (msg, has_calls, used)
    }

    /// Cohere: which text part is sent as `tool_plan` (the one marked so, else the first text
    /// of a message with calls, unless the pasted message had none).
    fn plan_index(&self, m: &Message) -> Option<usize> {
        if !self.d.quirks().tool_plan {
            return None;
        }
        let texts = || {
            m.parts.iter().enumerate().filter_map(|(j, p)| match p {
                Part::Text { extra, .. } => Some((j, extra)),
                _ => None,
            })
        };
        if let Some((j, _)) = texts().find(|(_, e)| Own::of(e, self.id).form_flag(F_TOOL_PLAN)) {
            return Some(j);
        }
        let has_calls = m.tool_calls().next().is_some();
        if !has_calls || Own::of(&m.extra, self.id).form_flag(F_NO_PLAN) {
            return None;
        }
        texts().next().map(|(j, _)| j)
    }

    /// String-content dialects read an empty string as no text: an empty text part is lost.
    fn empty_text_dropped(
        &mut self,
        m: &Message,
        content: &Field<Content>,
        p: impl std::fmt::Display,
    ) {
        let empty = matches!(content, Field::Value(Content::Text(s)) if s.is_empty());
        let texts: Vec<usize> = m
            .parts
            .iter()
            .enumerate()
            .filter(|(_, part)| matches!(part, Part::Text { .. }))
            .map(|(j, _)| j)
            .collect();
        if let (true, [j]) = (empty, texts.as_slice()) {
            self.losses.dropped(
                format!("{p}/parts/{j}"),
                "empty text",
                format!("{} reads empty content as no text", self.d.provider()),
            );
        }
    }

    /// Response content is one string (or null).
    fn response_content(
        &mut self,
        texts: Vec<(usize, ContentPart)>,
        form: Option<&str>,
        p: impl std::fmt::Display,
    ) -> Field<Content> {
        // Thinking chunks (Mistral, Cohere) come in a content array, in their place.
        if texts.iter().any(|(_, c)| is_thinking(c)) {
            return Field::Value(Content::Parts(texts.into_iter().map(|(_, c)| c).collect()));
        }
        let mut joined: Option<String> = None;
        let mut count = 0;
        for (j, part) in texts {
            let pp = format!("{p}/parts/{j}");
            match part {
                ContentPart::Text(t) => {
                    count += 1;
                    if !t.extra.is_empty() {
                        self.losses.dropped(
                            // The part's extra holds only this format's fields here.
                            format!("{pp}/extra"),
                            "fields of a text part",
                            "response content is a plain string",
                        );
                    }
                    joined.get_or_insert_with(String::new).push_str(&t.text);
                }
                ContentPart::Other(v) => {
                    let kind = v.get("type").and_then(Value::as_str).unwrap_or("unknown");
                    self.losses.dropped(
                        pp,
                        format!("{kind} content part"),
                        "response content is a plain string",
                    );
                }
            }
        }
        if count > 1 {
            self.losses.rewritten(
                format!("{p}/parts"),
                format!("{count} text parts"),
                "response content is one string; the texts are joined",
            );
        }
        match (joined, form) {
            (None, Some("omitted")) => Field::Absent,
            (None, _) if self.d.quirks().string_content => {
                Field::Value(Content::Text(String::new()))
            }
            (None, _) => Field::Null,
            (Some(s), _) => Field::Value(Content::Text(s)),
        }
    }

    fn call(&mut self, c: &ToolCall, pointer: &Ptr) -> wire::ToolCall {
        let id = self.id;
        self.losses.foreign_extra(&c.extra, id, pointer);
        self.unused_meta(&c.extra, pointer, &[M_FUNCTION]);
        let object_form = match self.d.object_arguments() {
            ObjectArguments::Always => true,
            ObjectArguments::Kept => {
                let fits = c.arguments_raw.is_none() && c.arguments.is_object();
                let marked = Own::of(&c.extra, id).form_flag(F_ARGS_OBJECT);
                if marked && !fits {
                    self.losses.rewritten(
                        format!("{pointer}/arguments"),
                        "arguments as a JSON object",
                        "they are not a compact JSON object any more; sent as JSON text",
                    );
                }
                marked && fits
            }
            ObjectArguments::Never => false,
        };
        let arguments = if object_form {
            self.object_arguments(c, pointer)
        } else {
            if c.arguments_raw
                .as_deref()
                .is_some_and(|raw| raw.trim().is_empty())
            {
                self.losses.rewritten(
                    format!("{pointer}/arguments_raw"),
                    "blank argument text",
                    "sent as is; it reads back as {}",
                );
            }
            Value::String(c.arguments_text())
        };
        let mut function = wire::FunctionCall {
            name: c.name.clone(),
            arguments,
            extra: Fields::new(),
        };
        function.extra = self.merge(
            &function,
            Own::of(&c.extra, id).object(M_FUNCTION),
            &c.extra,
            pointer,
        );
        let mut call = wire::FunctionToolCall {
            id: c.id.clone(),
            // Ollama's calls are `{function}` alone.
            kind: self
                .d
                .quirks()
                .typed_calls
                .then_some(wire::FunctionTag::Function),
            function,
            extra: Fields::new(),
        };
        call.extra = self.merge(&call, plain(&c.extra, id), &c.extra, pointer);
        wire::ToolCall::Function(call)
    }

    /// Arguments as a JSON object (Ollama, Mistral's object form), with the rules every
    /// object-argument format follows.
    fn object_arguments(&mut self, c: &ToolCall, pointer: &Ptr) -> Value {
        let why = format!("{} sends arguments as a JSON object", self.d.provider());
        if c.arguments_invalid() {
            self.losses.dropped(
                format!("{pointer}/arguments_raw"),
                "argument text that is not valid JSON",
                why.clone(),
            );
            self.losses
                .rewritten(format!("{pointer}/arguments"), "arguments sent as {}", why);
            return Value::Object(Fields::new());
        }
        if !c.arguments.is_object() {
            self.losses.rewritten(
                format!("{pointer}/arguments"),
                format!("arguments {} sent as {{}}", c.arguments),
                why,
            );
            return Value::Object(Fields::new());
        }
        if c.arguments_raw.is_some() {
            self.losses.dropped(
                format!("{pointer}/arguments_raw"),
                "spelling of the argument text",
                why,
            );
        }
        c.arguments.clone()
    }

    /// One tool message per result, in order.
    fn tool_results(&mut self, m: &Message, i: usize) -> Vec<wire::Message> {
        let id = self.id;
        let messages = Ptr::ROOT.key("messages");
        let p = messages.index(i);
        let list = p.key("parts");
        self.message_fields_dropped(m, &p);
        let mut out = Vec::new();
        let mut order = Vec::new();
        for (j, part) in m.parts.iter().enumerate() {
            let pp = list.index(j);
            let Part::ToolResult(r) = part else {
                self.drop_part(part, &pp, "tool");
                continue;
            };
            order.push(j);
            self.losses.foreign_extra(&r.extra, id, pp);
            let mut content = self.result_content(r, &pp);
            if self.d.quirks().string_content {
                content = Content::Text(self.one_string(content, &format!("{pp}/content")));
            }
            let mut msg = wire::Message::new(wire::Role::Tool, Field::Value(content));
            msg.tool_call_id = match &r.call_id {
                _ if !self.d.quirks().has_ids => None,
                Some(call_id) => Some(call_id.clone()),
                None => {
                    self.losses.added(
                        format!("{pp}/call_id"),
                        "empty tool_call_id",
                        "no call is left for this result to answer",
                    );
                    Some(String::new())
                }
            };
            let mut fields = plain(&r.extra, id);
            let mut used = Vec::new();
            if let Some(field) = self.d.result_name_field() {
                let name = match (&r.name, self.result_names.get(&(i, j))) {
                    (Some(name), _) => Some(name.clone()),
                    (None, Some(name)) => {
                        // Carried from the call it answers: a note.
                        self.losses.note(
                            format!("{pp}/name"),
                            format!("tool name {name}"),
                            format!(
                                "{} names the tool on tool messages; taken from the call",
                                self.d.provider()
                            ),
                        );
                        Some(name.clone())
                    }
                    (None, None) => None,
                };
                if let Some(name) = name {
                    used.push(M_NAME);
                    fields.insert(field.into(), Value::String(name));
                }
            } else if let Some(name) = &r.name {
                if Own::of(&r.extra, id).flag(M_NAME) {
                    used.push(M_NAME);
                    fields.insert("name".into(), Value::String(name.clone()));
                } else {
                    self.losses.dropped(
                        format!("{pp}/name"),
                        format!("tool name {name}"),
                        format!(
                            "{} tool messages carry no name; the result is paired by tool_call_id",
                            self.d.provider()
                        ),
                    );
                }
            }
            self.unused_meta(&r.extra, pp, &used);
            msg.extra = self.merge(&msg, fields, &r.extra, pp);
            out.push(msg);
        }
        check_order(&order, p, &mut self.losses);
        out
    }

    /// Fields of a canonical tool message: results are separate messages, so there is no
    /// place for them.
    fn message_fields_dropped(&mut self, m: &Message, p: &Ptr) {
        if Own::of(&m.extra, self.id)
            .map()
            .is_some_and(|f| !f.is_empty())
        {
            self.losses.dropped(
                own_pointer(&m.extra, self.id, p),
                "fields of the tool message",
                "each result is its own message; fields belong to the results",
            );
        }
    }

    fn result_content(&mut self, r: &ToolResult, pointer: &Ptr) -> Content {
        let id = self.id;
        let mut content = match &r.content {
            ResultContent::Text(s) => Content::Text(s.clone()),
            ResultContent::Json(v @ Value::Object(_)) if self.d.quirks().document_results => {
                // Cohere's own way: a document whose data is the object.
                let document = serde_json::json!({"type": "document", "document": {"data": v}});
                Content::Parts(vec![ContentPart::Other(document)])
            }
            ResultContent::Json(v) => {
                self.losses.rewritten(
                    format!("{pointer}/content"),
                    "JSON result",
                    "tool message content is text; sent as compact JSON text",
                );
                Content::Text(serde_json::to_string(v).unwrap_or_default())
            }
            ResultContent::Blocks(blocks) => {
                let mut parts = Vec::new();
                for b in blocks {
                    match b {
                        Block::Text { text } => parts.push(ContentPart::Text(TextPart {
                            kind: wire::TextTag::Text,
                            text: text.clone(),
                            extra: Fields::new(),
                        })),
                        Block::Raw { format, value } if format == id => {
                            parts.push(ContentPart::Other(value.clone()))
                        }
                        Block::Image { media_type, .. } => {
                            self.losses.dropped(
                                format!("{pointer}/content"),
                                format!("{media_type} image"),
                                "tool messages carry only text",
                            );
                        }
                        Block::Raw { format, value } => {
                            self.losses.dropped(
                                format!("{pointer}/content"),
                                crate::model::media_label(format, value),
                                crate::model::raw_why(
                                    format,
                                    value,
                                    format!("only {format} has it"),
                                ),
                            );
                        }
                    }
                }
                if parts.is_empty() {
                    self.losses.rewritten(
                        format!("{pointer}/content"),
                        "content without text",
                        "a tool message needs content; an empty string is sent",
                    );
                    Content::Text(String::new())
                } else {
                    Content::Parts(parts)
                }
            }
        };
        if r.is_error {
            match &mut content {
                Content::Text(s) => *s = format!("Error: {s}"),
                Content::Parts(parts) => match parts.first_mut() {
                    Some(ContentPart::Text(t)) => t.text = format!("Error: {}", t.text),
                    _ => parts.insert(
                        0,
                        ContentPart::Text(TextPart {
                            kind: wire::TextTag::Text,
                            text: "Error:".into(),
                            extra: Fields::new(),
                        }),
                    ),
                },
            }
            self.losses.rewritten(
                pointer.to_string(),
                "error flag",
                format!(
                    "{} tool messages have no error flag; folded into the text as \"Error: …\"",
                    self.d.provider()
                ),
            );
        }
        content
    }

    /// Results with no call before them: the API rejects such tool messages, so they are sent
    /// as a user message.
    fn orphan_results(&mut self, m: &Message, i: usize) -> wire::Message {
        let text = m
            .tool_results()
            .map(|r| {
                let t = r.content.to_text();
                if r.is_error {
                    format!("Error: {t}")
                } else {
                    t
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        self.losses.rewritten(
            format!("/messages/{i}"),
            "tool results without a tool call before them",
            "a tool message must follow an assistant message with tool_calls; sent as a user message",
        );
        wire::Message::new(wire::Role::User, Field::Value(Content::Text(text)))
    }

    fn tools(&mut self, x: &Exchange) -> Field<Vec<wire::ToolDef>> {
        let id = self.id;
        let mut out = Vec::new();
        for (k, t) in x.tools.iter().enumerate() {
            let p = format!("/tools/{k}");
            if let Some(h) = &t.hosted {
                // Never sent as a function: the model would call a tool nobody runs.
                self.losses.dropped(
                    p,
                    h.what(),
                    h.why_dropped(&format!("{} has no such tool", self.d.provider())),
                );
                continue;
            }
            let custom = t.custom.as_ref().map(|format| {
                self.losses.rewritten(
                    format!("{p}/custom"),
                    format!("custom tool {}", t.name),
                    "sent as a function with one string parameter `input`; its input format is in the description",
                );
                shared::custom_function(t, format)
            });
            let t = custom.as_ref().unwrap_or(t);
            self.losses.foreign_extra(&t.extra, id, &p);
            if t.output_schema.is_some() {
                self.losses.dropped(
                    format!("{p}/output_schema"),
                    "output schema",
                    "function tools have no output schema",
                );
            }
            if t.annotations.is_some() {
                self.losses.dropped(
                    format!("{p}/annotations"),
                    "tool annotations",
                    "function tools have no annotations",
                );
            }
            let mut used = vec![M_FUNCTION];
            let no_type =
                self.d.quirks().tool_type_optional && Own::of(&t.extra, id).flag(M_NO_TYPE);
            let no_parameters = Own::of(&t.extra, id).flag(M_NO_PARAMETERS)
                && t.input_schema == empty_object_schema();
            if no_parameters {
                used.push(M_NO_PARAMETERS);
            }
            self.unused_meta(&t.extra, &p, &used);
            let mut function = wire::FunctionDef {
                name: t.name.clone(),
                description: Field::from_option(t.description.clone()),
                parameters: if no_parameters {
                    Field::Absent
                } else {
                    Field::Value(t.input_schema.clone())
                },
                strict: Field::from_option(t.strict),
                extra: Fields::new(),
            };
            match (self.d.strict(), t.strict) {
                (Strict::BetaOnly, Some(true)) => {
                    // Kept: it is right for the beta endpoint, and harmless elsewhere.
                    self.losses.rewritten(
                        format!("{p}/strict"),
                        "strict mode",
                        format!(
                            "{} applies strict only on its beta endpoint (base URL …/beta); the \
                             standard endpoint ignores it",
                            self.d.provider()
                        ),
                    );
                }
                (Strict::No, Some(_)) => {
                    self.losses.dropped(
                        format!("{p}/strict"),
                        "strict flag",
                        format!("{} tools have no strict mode", self.d.provider()),
                    );
                    function.strict = Field::Absent;
                }
                _ => {}
            }
            function.extra = self.merge(
                &function,
                Own::of(&t.extra, id).object(M_FUNCTION),
                &t.extra,
                &p,
            );
            let mut tool = wire::FunctionTool {
                kind: (!no_type).then_some(wire::FunctionTag::Function),
                function,
                extra: Fields::new(),
            };
            tool.extra = self.merge(&tool, plain(&t.extra, id), &t.extra, &p);
            out.push(wire::ToolDef::Function(tool));
        }
        if let Some(others) = Own::of(&x.extra, id)
            .get(M_OTHER_TOOLS)
            .and_then(Value::as_array)
        {
            for other in others {
                let index = other
                    .get("index")
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok());
                let at = index.unwrap_or(usize::MAX).min(out.len());
                if index != Some(at) {
                    self.losses.rewritten(
                        own_pointer(&x.extra, id, ""),
                        "position of a kept tool",
                        "the tool list changed; sent at the end",
                    );
                }
                if let Some(tool) = other.get("tool") {
                    out.insert(at, wire::ToolDef::Other(tool.clone()));
                }
            }
        }
        if out.is_empty() {
            Field::Absent
        } else {
            Field::Value(out)
        }
    }

    /// tool_choice, and whether the remembered allowed_tools form (or Mistral's `required`
    /// word) shaped it.
    fn tool_choice(&mut self, x: &Exchange) -> (Field<wire::ToolChoice>, bool) {
        let Some(tc) = &x.tool_choice else {
            return (Field::Absent, false);
        };
        let provider = self.d.provider();
        if !self.d.quirks().has_tool_choice {
            self.losses.dropped(
                "/tool_choice",
                "tool_choice",
                format!("{provider} has no tool_choice: the model always decides"),
            );
            return (Field::Absent, false);
        }
        let allowed_form =
            self.d.choices().allowed_tools && Own::of(&x.extra, self.id).flag(M_ALLOWED_TOOLS);
        let mut mode = tc.mode;
        if mode == ChoiceMode::Validated {
            self.losses
                .rewritten(
                    "/tool_choice/mode",
                    "validated mode",
                    format!(
                        "{provider} has no mode that allows text but constrains calls to the schemas; sent as auto"
                    ),
                )
                .at("/tool_choice");
            mode = ChoiceMode::Auto;
        }
        let Some(word) = self.d.mode_to_wire(mode) else {
            // Cohere: no word for auto; leaving tool_choice out means the model decides.
            self.losses.dropped(
                "/tool_choice",
                "tool_choice auto",
                format!("{provider} has no auto value; left out, which is the default"),
            );
            return (Field::Absent, false);
        };
        let mut word = word.to_string();
        if self.d.quirks().required_alias
            && mode == ChoiceMode::Required
            && Own::of(&x.extra, self.id).form_flag(F_REQUIRED)
        {
            word = "required".into();
        }
        // The cases where a shorter spelling exists.
        let short = mode != ChoiceMode::None
            && (tc.tools.is_empty() || (mode == ChoiceMode::Required && tc.tools.len() == 1));
        let choice = match (mode, tc.tools.as_slice()) {
            (ChoiceMode::None, names) => {
                if !names.is_empty() {
                    self.losses
                        .dropped(
                            "/tool_choice/tools",
                            "tool restriction",
                            "tool_choice none allows no call, so there is nothing to restrict",
                        )
                        .at("/tool_choice");
                }
                wire::ToolChoice::Mode(word)
            }
            (_, []) if !allowed_form => wire::ToolChoice::Mode(word),
            (ChoiceMode::Required, [name]) if !allowed_form && self.d.choices().named => {
                wire::ToolChoice::Named(NamedToolChoice::new(name.clone()))
            }
            (_, names) if self.d.choices().allowed_tools => {
                wire::ToolChoice::Allowed(wire::AllowedToolChoice {
                    kind: wire::AllowedToolsTag::AllowedTools,
                    allowed_tools: wire::AllowedTools {
                        mode: word,
                        tools: names.iter().cloned().map(NamedToolChoice::new).collect(),
                    },
                })
            }
            (_, names) => {
                let why = if self.d.choices().named {
                    format!("{provider} can force one named tool but not restrict to several; sent as {word}")
                } else {
                    format!("{provider} cannot name tools in tool_choice; sent as {word}")
                };
                self.losses
                    .dropped(
                        "/tool_choice/tools",
                        format!("tool restriction to {}", names.join(", ")),
                        why,
                    )
                    .at("/tool_choice");
                wire::ToolChoice::Mode(word)
            }
        };
        (Field::Value(choice), allowed_form && short)
    }
}

impl Enc {
    fn parallel_tool_calls(&mut self, x: &Exchange) -> Field<bool> {
        match x.parallel_tool_calls {
            Some(_) if !self.d.choices().parallel => {
                self.losses.dropped(
                    "/parallel_tool_calls",
                    "parallel_tool_calls",
                    format!("{} has no parallel_tool_calls setting", self.d.provider()),
                );
                Field::Absent
            }
            p => Field::from_option(p),
        }
    }
}

/// Model → request body.
pub fn encode_request(x: &Exchange, d: &'static dyn Profile) -> (wire::Request, Vec<Loss>) {
    let mut e = Enc::new(d);
    let id = e.id;
    let x = e.prepare_ids(x);
    e.model = e.target_model(&x);
    let extra = shared::adopt_common(&x.extra, id, &mut e.losses);
    e.losses.foreign_extra(&extra, id, "");
    let mut used = Vec::new();
    if x.system.is_some() {
        used.push(M_SYSTEM);
    }
    let (tool_choice, allowed_form) = e.tool_choice(&x);
    if allowed_form {
        used.push(M_ALLOWED_TOOLS);
    }
    used.push(M_OTHER_TOOLS);
    let mut req = wire::Request {
        model: Field::Value(e.model(&x)),
        messages: e.messages(&x),
        tools: e.tools(&x),
        tool_choice,
        parallel_tool_calls: e.parallel_tool_calls(&x),
        temperature: Field::from_option(x.options.temperature),
        top_p: Field::from_option(x.options.top_p),
        ..wire::Request::default()
    };
    if let Some(n) = x.options.max_tokens {
        let field = match Own::of(&extra, id).str(M_MAX_TOKENS) {
            Some(f @ (MAX_TOKENS | MAX_COMPLETION_TOKENS)) if f != d.max_tokens_field() => {
                used.push(M_MAX_TOKENS);
                f
            }
            _ => d.max_tokens_field(),
        };
        if field == MAX_TOKENS {
            req.max_tokens = Field::Value(n);
        } else {
            req.max_completion_tokens = Field::Value(n);
        }
    }
    req.stop = match x.options.stop.as_slice() {
        [] => Field::Absent,
        [one] if Own::of(&extra, id).flag(M_STOP_STRING) => {
            used.push(M_STOP_STRING);
            Field::Value(wire::Stop::One(one.clone()))
        }
        many => Field::Value(wire::Stop::Many(many.to_vec())),
    };
    e.unused_meta(&extra, "", &used);
    req.extra = e.merge(&req, plain(&extra, id), &extra, "");
    e.reasoning_options(&x, &extra, &mut req.extra);
    (req, e.losses.into_vec())
}

/// The exchange's response view → response body.
pub fn encode_response(x: &Exchange, d: &'static dyn Profile) -> (wire::Response, Vec<Loss>) {
    let mut e = Enc::new(d);
    let id = e.id;
    let mut view = x.response_view();
    if view.messages.is_empty() {
        e.losses.added(
            "/messages",
            "empty assistant message",
            "the exchange has no assistant turn to answer with",
        );
        view.messages
            .push(Message::new(Role::Assistant, Vec::new()));
    }
    let view = e.prepare_ids(&view);
    e.model = e.target_model(&view);
    let model = if d.quirks().response_has_model {
        Some(e.model(&view))
    } else {
        if let Some(m) = &view.options.model {
            let only_model = crate::model::Options {
                model: None,
                ..view.options.clone()
            }
            .is_empty();
            e.losses.dropped(
                if only_model {
                    "/options"
                } else {
                    "/options/model"
                },
                format!("model {m}"),
                format!("{} responses do not name the model", d.provider()),
            );
        }
        None
    };
    let empty = Message::new(Role::Assistant, Vec::new());
    let m = view.messages.first().unwrap_or(&empty);
    let p = "/messages/0";
    e.losses.foreign_extra(&m.extra, id, p);
    let (mut message, has_calls, mut used) = e.assistant(m, 0, Kind::Response);
    used.extend([M_RESPONSE, M_CHOICE, M_CHOICES, M_OMIT]);
    if m.usage.is_some() {
        used.push(M_USAGE);
    }
    e.unused_meta(&m.extra, p, &used);

    let omit: Vec<&str> = Own::of(&m.extra, id)
        .get(M_OMIT)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // Fields a dialect emits by default are left out only when a paste left them out.
    let omitted = |key: &str| !d.emits_default(key) || omit.contains(&key);
    if !omitted("refusal") && !message.extra.contains_key("refusal") {
        message.extra.insert("refusal".into(), Value::Null);
    }

    let derived = d.derived_finish(has_calls);
    let stop = format!("{p}/stop_reason");
    let finish = match &m.stop_reason {
        // The document had none (Ollama answers without `done_reason`): none is made up.
        None if omit.contains(&"finish_reason") => String::new(),
        None => {
            e.losses
                .added(
                    stop,
                    format!("finish_reason {derived}"),
                    "a response needs one; derived from the message",
                )
                .at(d.finish_pointer());
            derived.to_string()
        }
        Some(reason) => match d.finish_to_wire(reason, has_calls) {
            Some(word) => word,
            None if *reason == StopReason::StopSequence => {
                e.losses.rewritten(
                    stop,
                    "stop sequence",
                    "finish_reason stop covers a matched stop sequence too",
                );
                "stop".into()
            }
            None => {
                let name = match reason {
                    StopReason::Other(s) => s.clone(),
                    other => serde_json::to_value(other)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default(),
                };
                e.losses.rewritten(
                    stop,
                    format!("stop reason {name}"),
                    format!("not a finish_reason of {}; sent as {derived}", d.provider()),
                );
                derived.to_string()
            }
        },
    };

    let mut choice_fields = Own::of(&m.extra, id).object(M_CHOICE);
    let index = choice_fields.remove("index");
    let logprobs = choice_fields.remove("logprobs");
    let mut choice = wire::Choice {
        index: (!omitted("index")).then(|| index.and_then(|v| v.as_u64()).unwrap_or(0)),
        message,
        logprobs: match logprobs {
            _ if omitted("logprobs") => Field::Absent,
            Some(v) => Field::Value(v),
            None => Field::Null,
        },
        finish_reason: if finish.is_empty() {
            Field::Absent
        } else {
            Field::Value(finish)
        },
        extra: Fields::new(),
    };
    choice.extra = e.merge(&choice, choice_fields, &m.extra, p);

    let mut top = Own::of(&m.extra, id).object(M_RESPONSE);
    let response_id = top.remove("id");
    let object = top.remove("object");
    let created = top.remove("created");
    let mut choices = vec![choice];
    if let Some(rest) = Own::of(&m.extra, id)
        .get(M_CHOICES)
        .and_then(Value::as_array)
    {
        choices.extend(
            rest.iter()
                .filter_map(|c| serde_json::from_value::<wire::Choice>(c.clone()).ok()),
        );
    }
    let mut r = wire::Response {
        id: (!omitted("id")).then(|| {
            response_id
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_else(|| PLACEHOLDER_ID.into())
        }),
        object: (!omitted("object")).then(|| {
            object
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_else(|| OBJECT.into())
        }),
        created: (!omitted("created")).then(|| created.and_then(|v| v.as_u64()).unwrap_or(0)),
        model,
        choices,
        usage: match &m.usage {
            None if d.quirks().requires_usage => {
                e.losses.added(
                    format!("{p}/usage"),
                    "usage of 0 tokens",
                    format!(
                        "{} responses carry usage; the message has none",
                        d.provider()
                    ),
                );
                Field::Value(wire::Usage {
                    prompt_tokens: 0,
                    completion_tokens: 0,
                    total_tokens: Some(0),
                    extra: Fields::new(),
                })
            }
            Some(u) => Field::Value(wire::Usage {
                prompt_tokens: u.input_tokens,
                completion_tokens: u.output_tokens,
                total_tokens: Some(u.input_tokens.saturating_add(u.output_tokens)),
                extra: Own::of(&m.extra, id).object(M_USAGE),
            }),
            None => Field::Absent,
        },
        extra: Fields::new(),
    };
    r.extra = e.merge(&r, top, &m.extra, p);
    (r, e.losses.into_vec())
}
