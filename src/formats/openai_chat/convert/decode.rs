//! Chat Completions documents → model.

use super::*;

// ---------------------------------------------------------------------------------------------
// Decoding

struct Dec {
    d: &'static dyn Profile,
    id: &'static str,
    losses: Losses,
}

impl Dec {
    fn new(d: &'static dyn Profile) -> Self {
        Dec {
            d,
            id: d.id(),
            losses: Losses::new(),
        }
    }

    fn error(&self, pointer: impl Into<String>, message: impl Into<String>) -> DecodeError {
        DecodeError::at(self.id, pointer, message)
    }

    /// Content parts → model parts, and whether the array form must be remembered (the
    /// encoder would otherwise send a string, or null/"" for no parts).
    fn parts(&self, content: Content) -> (Vec<Part>, bool) {
        match content {
            Content::Text(s) => (vec![Part::text(s)], false),
            Content::Parts(items) => {
                let parts: Vec<Part> = items
                    .into_iter()
                    .map(|p| match p {
                        ContentPart::Text(t) => Part::Text {
                            text: t.text,
                            extra: wrap(self.id, t.extra),
                        },
                        ContentPart::Other(value) => Part::Raw {
                            format: self.id.to_string(),
                            value,
                        },
                    })
                    .collect();
                let array = match parts.as_slice() {
                    [] => true,
                    [Part::Text { extra, .. }] => extra.is_empty(),
                    _ => false,
                };
                (parts, array)
            }
        }
    }

    fn tool(&mut self, f: wire::FunctionDef, outer: Fields, k: usize) -> Tool {
        let mut inner = f.extra;
        let mut meta = Fields::new();
        let description = Keep(&mut inner).take("description", f.description);
        let strict = Keep(&mut inner).take("strict", f.strict);
        let input_schema = match f.parameters {
            Field::Value(v) => v,
            Field::Absent => {
                meta.insert(M_NO_PARAMETERS.into(), Value::Bool(true));
                empty_object_schema()
            }
            Field::Null => {
                self.losses.rewritten(
                    format!("/tools/{k}/input_schema"),
                    "parameters null",
                    "read as a function without parameters",
                );
                meta.insert(M_NO_PARAMETERS.into(), Value::Bool(true));
                empty_object_schema()
            }
        };
        let mut fields = outer;
        if !inner.is_empty() {
            fields.insert(M_FUNCTION.into(), Value::Object(inner));
        }
        fields.extend(meta);
        Tool {
            name: f.name,
            description,
            input_schema,
            strict,
            output_schema: None,
            annotations: None,
            hosted: None,
            custom: None,
            extra: wrap(self.id, fields),
        }
    }

    fn choice(
        &mut self,
        tc: wire::ToolChoice,
        x: &mut Exchange,
        extra: &mut Fields,
        meta: &mut Fields,
    ) {
        let keep = |dec: &mut Dec, extra: &mut Fields, tc: &wire::ToolChoice| {
            let v = serde_json::to_value(tc).unwrap_or(Value::Null);
            dec.losses.dropped(
                "/tool_choice",
                format!("tool_choice {v}"),
                format!("the model has no such choice; kept only for {}", dec.id),
            );
            extra.insert("tool_choice".into(), v);
        };
        match &tc {
            wire::ToolChoice::Mode(word) => match self.d.mode_from_wire(word) {
                Some(mode) => {
                    if self.d.quirks().required_alias && word == "required" {
                        Keep(meta).form(F_REQUIRED, Value::Bool(true));
                    }
                    x.tool_choice = Some(ToolChoice::mode(mode))
                }
                None => keep(self, extra, &tc),
            },
            wire::ToolChoice::Named(_) if !self.d.choices().named => keep(self, extra, &tc),
            wire::ToolChoice::Allowed(_) if !self.d.choices().allowed_tools => {
                keep(self, extra, &tc)
            }
            wire::ToolChoice::Named(n) => {
                x.tool_choice = Some(ToolChoice::force(n.function.name.clone()))
            }
            wire::ToolChoice::Allowed(a) => {
                match self.d.mode_from_wire(&a.allowed_tools.mode) {
                    Some(mode @ (ChoiceMode::Auto | ChoiceMode::Required)) => {
                        let tools: Vec<String> = a
                            .allowed_tools
                            .tools
                            .iter()
                            .map(|t| t.function.name.clone())
                            .collect();
                        // Forms a shorter spelling exists for: remember this one.
                        if tools.is_empty() || (mode == ChoiceMode::Required && tools.len() == 1) {
                            meta.insert(M_ALLOWED_TOOLS.into(), Value::Bool(true));
                        }
                        x.tool_choice = Some(ToolChoice { mode, tools });
                    }
                    _ => keep(self, extra, &tc),
                }
            }
            wire::ToolChoice::Other(_) => keep(self, extra, &tc),
        }
    }

    fn deprecated_choice(&mut self, fc: wire::FunctionCallChoice, x: &mut Exchange) -> bool {
        let choice = match &fc {
            wire::FunctionCallChoice::Mode(w) if w == "none" => ToolChoice::mode(ChoiceMode::None),
            wire::FunctionCallChoice::Mode(w) if w == "auto" => ToolChoice::mode(ChoiceMode::Auto),
            wire::FunctionCallChoice::Named(n) => ToolChoice::force(n.name.clone()),
            _ => return false,
        };
        x.tool_choice = Some(choice);
        self.losses.rewritten(
            "/tool_choice",
            "deprecated function_call",
            "imported as tool_choice; sent back as tool_choice",
        );
        true
    }

    fn messages(
        &mut self,
        msgs: Vec<wire::Message>,
        x: &mut Exchange,
        meta: &mut Fields,
    ) -> Result<(), DecodeError> {
        x.messages.reserve(msgs.len());
        let mut iter = msgs.into_iter().enumerate().peekable();
        if let Some((k, m)) =
            iter.next_if(|(_, m)| matches!(m.role, wire::Role::System | wire::Role::Developer))
        {
            let text = match &m.content {
                Field::Value(c) => instruction_text(c),
                _ => {
                    return Err(
                        self.error(format!("/messages/{k}"), "a system message needs content")
                    )
                }
            };
            let plain_system = m.role == wire::Role::System
                && matches!(m.content, Field::Value(Content::Text(_)))
                && m.tool_call_id.is_none()
                && m.tool_calls.is_absent()
                && m.function_call.is_absent()
                && m.extra.is_empty();
            if !plain_system {
                // A string is the model's system prompt itself; only parts are a spelling.
                let mut stash = serde_json::to_value(&m).unwrap_or(Value::Null);
                if let (Field::Value(Content::Text(_)), Some(o)) =
                    (&m.content, stash.as_object_mut())
                {
                    o.remove("content");
                }
                meta.insert(M_SYSTEM.into(), stash);
            }
            x.system = Some(text);
        }
        let mut in_block = false;
        let mut pending: Option<Message> = None;
        let messages = Ptr::ROOT.key("messages");
        for (k, m) in iter {
            let wp = messages.index(k);
            let is_result = matches!(m.role, wire::Role::Tool | wire::Role::Function);
            if !is_result {
                x.messages.extend(pending.take());
            }
            let i = x.messages.len();
            match m.role {
                wire::Role::System | wire::Role::Developer | wire::Role::User => {
                    x.messages.push(self.user(m, i, &wp)?);
                    in_block = false;
                }
                wire::Role::Assistant => {
                    let (msg, calls) = self.assistant(m, i);
                    x.messages.push(msg);
                    in_block = calls;
                }
                wire::Role::Tool | wire::Role::Function => {
                    if !in_block {
                        return Err(self.error(
                            wp.to_string(),
                            "a tool message must follow an assistant message with tool_calls",
                        ));
                    }
                    let msg = pending.get_or_insert_with(|| Message::new(Role::Tool, Vec::new()));
                    let at = messages.index(i);
                    let parts = at.key("parts");
                    let pp = parts.index(msg.parts.len());
                    msg.parts.push(Part::ToolResult(self.result(m, &pp, &wp)?));
                }
            }
        }
        x.messages.extend(pending.take());
        Ok(())
    }

    /// A user message, or a system/developer message after the first turn (the model has one
    /// system prompt, so it becomes a user message that remembers its role).
    fn user(&mut self, m: wire::Message, i: usize, wp: &Ptr) -> Result<Message, DecodeError> {
        let mut fields = m.extra;
        if let Some(v) = m.tool_call_id {
            fields.insert("tool_call_id".into(), Value::String(v));
        }
        Keep(&mut fields).field("tool_calls", &m.tool_calls);
        Keep(&mut fields).field("function_call", &m.function_call);
        let content = match m.content {
            Field::Value(c) => c,
            Field::Null => {
                return Err(self.error(format!("{wp}/content"), "content must not be null"))
            }
            Field::Absent => return Err(self.error(wp.to_string(), "a message needs content")),
        };
        let (parts, array) = self.parts(content);
        if array {
            fields.insert(M_CONTENT.into(), Value::String("array".into()));
        }
        let role = match m.role {
            wire::Role::System => Some("system"),
            wire::Role::Developer => Some("developer"),
            _ => None,
        };
        if let Some(role) = role {
            self.losses.rewritten(
                format!("/messages/{i}/role"),
                format!("{role} message inside the conversation"),
                format!(
                    "the model has one system prompt; read as a user message (sent back as {role} to {})",
                    self.d.provider()
                ),
            );
            fields.insert(M_ROLE.into(), Value::String(role.into()));
        }
        let mut msg = Message::new(Role::User, parts);
        msg.extra = wrap(self.id, fields);
        Ok(msg)
    }

    /// An assistant message, and whether it carries calls.
    fn assistant(&mut self, m: wire::Message, i: usize) -> (Message, bool) {
        let id = self.id;
        let mut fields = m.extra;
        if let Some(v) = m.tool_call_id {
            fields.insert("tool_call_id".into(), Value::String(v));
        }
        let mut parts: Vec<Part> = reasoning::take_fields(self.d, &mut fields)
            .into_iter()
            .map(Part::Reasoning)
            .collect();
        let has_plan = match fields.remove("tool_plan") {
            Some(Value::String(plan)) if self.d.quirks().tool_plan => {
                let mut own = Fields::new();
                Keep(&mut own).form(F_TOOL_PLAN, Value::Bool(true));
                parts.push(Part::Text {
                    text: plan,
                    extra: wrap(id, own),
                });
                true
            }
            Some(other) => {
                fields.insert("tool_plan".into(), other);
                false
            }
            None => false,
        };
        let omits = self.d.quirks().omits_empty_content;
        match m.content {
            Field::Absent if omits => {}
            Field::Absent => {
                fields.insert(M_CONTENT.into(), Value::String("omitted".into()));
            }
            Field::Null if omits => {
                fields.insert(M_CONTENT.into(), Value::String("null".into()));
            }
            Field::Null => {}
            // String-content dialects say "" for no text.
            Field::Value(Content::Text(s)) if s.is_empty() && self.d.quirks().string_content => {}
            Field::Value(c) => {
                let (ps, array) = self.parts(c);
                if array {
                    fields.insert(M_CONTENT.into(), Value::String("array".into()));
                }
                parts.extend(ps.into_iter().map(|p| match p {
                    Part::Raw { format, value } => match reasoning::chunk(self.d, &value) {
                        Some(r) => Part::Reasoning(r),
                        None => Part::Raw { format, value },
                    },
                    p => p,
                }));
            }
        }
        let mut has_calls = false;
        match m.tool_calls {
            Field::Absent => {}
            Field::Null => {
                fields.insert("tool_calls".into(), Value::Null);
            }
            Field::Value(calls) => {
                if calls.is_empty() {
                    fields.insert("tool_calls".into(), Value::Array(Vec::new()));
                }
                let at = Ptr::ROOT.key("messages");
                let at = at.index(i);
                let list = at.key("parts");
                for call in calls {
                    let part = match call {
                        wire::ToolCall::Function(mut fc) => {
                            if let Some(sig) = reasoning::take_signature(&mut fc.extra) {
                                parts.push(Part::Reasoning(reasoning::thought_signature(sig)));
                            }
                            let pp = list.index(parts.len());
                            if fc.kind.is_none() && self.d.quirks().typed_calls {
                                self.losses.rewritten(
                                    pp.to_string(),
                                    "tool call without type",
                                    "sent back with type function",
                                );
                            }
                            Part::ToolCall(self.call(fc.id, fc.function, fc.extra, &pp))
                        }
                        wire::ToolCall::Other(value) => Part::Raw {
                            format: id.to_string(),
                            value,
                        },
                    };
                    parts.push(part);
                    has_calls = true;
                }
            }
        }
        match m.function_call {
            Field::Absent => {}
            Field::Null => {
                fields.insert("function_call".into(), Value::Null);
            }
            Field::Value(fc) if has_calls => {
                fields.insert(
                    "function_call".into(),
                    serde_json::to_value(fc).unwrap_or(Value::Null),
                );
            }
            Field::Value(fc) => {
                let pp = format!("/messages/{i}/parts/{}", parts.len());
                self.losses.rewritten(
                    pp.clone(),
                    "deprecated function_call",
                    "imported as a tool call; sent back as tool_calls",
                );
                let pp = Ptr::written(&pp);
                parts.push(Part::ToolCall(self.call(None, fc, Fields::new(), &pp)));
                has_calls = true;
            }
        }
        if self.d.quirks().tool_plan && has_calls && !has_plan {
            Keep(&mut fields).form(F_NO_PLAN, Value::Bool(true));
        }
        let mut msg = Message::new(Role::Assistant, parts);
        msg.extra = wrap(id, fields);
        (msg, has_calls)
    }

    fn call(
        &mut self,
        call_id: Option<String>,
        f: wire::FunctionCall,
        outer: Fields,
        pointer: &Ptr,
    ) -> ToolCall {
        let mut object_form = false;
        let mut call = match f.arguments {
            Value::String(text) => {
                if text.trim().is_empty() {
                    self.losses.rewritten(
                        format!("{pointer}/arguments"),
                        "empty arguments",
                        "empty arguments read as {}",
                    );
                }
                ToolCall::from_text(call_id, f.name, &text)
            }
            Value::Null => {
                self.losses.rewritten(
                    format!("{pointer}/arguments"),
                    "missing arguments",
                    "missing arguments read as {}",
                );
                ToolCall::from_text(call_id, f.name, "")
            }
            value @ Value::Object(_) if self.d.object_arguments() == ObjectArguments::Always => {
                ToolCall::new(call_id, f.name, value)
            }
            value @ Value::Object(_) if self.d.object_arguments() == ObjectArguments::Kept => {
                object_form = true;
                ToolCall::new(call_id, f.name, value)
            }
            value => {
                self.losses.rewritten(
                    format!("{pointer}/arguments"),
                    "arguments as a JSON value",
                    format!(
                        "{} sends arguments as JSON text; sent back as text",
                        self.d.provider()
                    ),
                );
                ToolCall::new(call_id, f.name, value)
            }
        };
        let mut fields = outer;
        if !f.extra.is_empty() {
            fields.insert(M_FUNCTION.into(), Value::Object(f.extra));
        }
        if object_form {
            Keep(&mut fields).form(F_ARGS_OBJECT, Value::Bool(true));
        }
        call.extra = wrap(self.id, fields);
        call
    }

    fn result(
        &mut self,
        m: wire::Message,
        pointer: &Ptr,
        wp: &Ptr,
    ) -> Result<ToolResult, DecodeError> {
        let id = self.id;
        let mut fields = m.extra;
        Keep(&mut fields).field("tool_calls", &m.tool_calls);
        Keep(&mut fields).field("function_call", &m.function_call);
        if m.role == wire::Role::Function {
            if let Some(v) = m.tool_call_id {
                fields.insert("tool_call_id".into(), Value::String(v));
            }
            let name = match fields.remove("name") {
                Some(Value::String(n)) => n,
                _ => return Err(self.error(wp.to_string(), "a function message needs a name")),
            };
            let text = match m.content {
                Field::Value(Content::Text(s)) => s,
                Field::Value(Content::Parts(_)) => {
                    return Err(self.error(
                        format!("{wp}/content"),
                        "function message content is a string",
                    ))
                }
                Field::Null | Field::Absent => String::new(),
            };
            self.losses.rewritten(
                pointer.to_string(),
                "deprecated function message",
                "imported as a tool result; sent back as a tool message",
            );
            let mut r = ToolResult::new(None, ResultContent::Text(text));
            r.name = Some(name);
            r.extra = wrap(id, fields);
            return Ok(r);
        }
        let content = match m.content {
            Field::Value(Content::Text(s)) => ResultContent::Text(s),
            Field::Value(Content::Parts(items))
                if self.d.quirks().document_results && document_data(&items).is_some() =>
            {
                ResultContent::Json(document_data(&items).cloned().unwrap_or(Value::Null))
            }
            Field::Value(Content::Parts(items)) => ResultContent::Blocks(
                items
                    .into_iter()
                    .map(|p| match p {
                        ContentPart::Text(t) if t.extra.is_empty() => Block::Text { text: t.text },
                        ContentPart::Text(t) => Block::Raw {
                            format: id.to_string(),
                            value: serde_json::to_value(t).unwrap_or(Value::Null),
                        },
                        ContentPart::Other(value) => Block::Raw {
                            format: id.to_string(),
                            value,
                        },
                    })
                    .collect(),
            ),
            Field::Null => {
                return Err(self.error(format!("{wp}/content"), "content must not be null"))
            }
            Field::Absent => return Err(self.error(wp.to_string(), "a tool message needs content")),
        };
        let mut r = ToolResult::new(m.tool_call_id, content);
        if let Some(field) = self.d.result_name_field() {
            if let Some(Value::String(name)) = fields.get(field) {
                r.name = Some(name.clone());
                fields.remove(field);
            }
        } else if let Some(Value::String(name)) = fields.get("name") {
            r.name = Some(name.clone());
            fields.remove("name");
            fields.insert(M_NAME.into(), Value::Bool(true));
        }
        r.extra = wrap(id, fields);
        Ok(r)
    }
}

/// Cohere: the object of a tool result that is one document holding only `data` (how the
/// encoder sends JSON results).
fn document_data(items: &[ContentPart]) -> Option<&Value> {
    let [ContentPart::Other(v)] = items else {
        return None;
    };
    let o = v.as_object()?;
    let doc = o.get("document")?.as_object()?;
    let data = doc.get("data")?;
    (o.len() == 2
        && o.get("type").and_then(Value::as_str) == Some("document")
        && doc.len() == 1
        && data.is_object())
    .then_some(data)
}

/// Request body → model.
pub fn decode_request(
    doc: wire::Request,
    d: &'static dyn Profile,
) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut dec = Dec::new(d);
    let mut x = Exchange::default();
    let mut extra = doc.extra;
    let mut meta = Fields::new();

    x.options.model = Keep(&mut extra).take("model", doc.model);
    note_own_model(d, x.options.model.as_deref(), &mut meta);
    if let Some(field) = reasoning::take_options(&mut extra, &mut x.options.reasoning) {
        meta.insert(reasoning::F_OPTIONS.into(), Value::String(field.into()));
    }
    if let Some(tools) = Keep(&mut extra).take("tools", doc.tools) {
        if tools.is_empty() {
            extra.insert("tools".into(), Value::Array(Vec::new()));
        }
        let mut others = Vec::new();
        for (k, t) in tools.into_iter().enumerate() {
            match t {
                wire::ToolDef::Function(ft) => {
                    let n = x.tools.len();
                    let mut outer = ft.extra;
                    if ft.kind.is_none() {
                        if d.quirks().tool_type_optional {
                            outer.insert(M_NO_TYPE.into(), Value::Bool(true));
                        } else {
                            dec.losses.rewritten(
                                format!("/tools/{n}"),
                                format!("tool {} without \"type\"", ft.function.name),
                                format!(
                                    "read as a function tool; the {} API requires \"type\": \"function\", which is sent",
                                    d.provider()
                                ),
                            );
                        }
                    }
                    x.tools.push(dec.tool(ft.function, outer, n));
                }
                wire::ToolDef::Other(tool) => {
                    let mut entry = Fields::new();
                    entry.insert("index".into(), Value::from(k));
                    entry.insert("tool".into(), tool);
                    others.push(Value::Object(entry));
                }
            }
        }
        if !others.is_empty() {
            meta.insert(M_OTHER_TOOLS.into(), Value::Array(others));
        }
    }
    if let Some(functions) = Keep(&mut extra).take("functions", doc.functions) {
        if functions.is_empty() {
            extra.insert("functions".into(), Value::Array(Vec::new()));
        }
        for f in functions {
            let n = x.tools.len();
            dec.losses.rewritten(
                format!("/tools/{n}"),
                format!("deprecated functions entry {}", f.name),
                "imported as a tool; sent back in tools",
            );
            x.tools.push(dec.tool(f, Fields::new(), n));
        }
    }
    let had_choice = !doc.tool_choice.is_absent();
    if let Some(tc) = Keep(&mut extra).take("tool_choice", doc.tool_choice) {
        dec.choice(tc, &mut x, &mut extra, &mut meta);
    }
    if let Some(fc) = Keep(&mut extra).take("function_call", doc.function_call) {
        if had_choice || !dec.deprecated_choice(fc.clone(), &mut x) {
            extra.insert(
                "function_call".into(),
                serde_json::to_value(fc).unwrap_or(Value::Null),
            );
        }
    }
    x.parallel_tool_calls = Keep(&mut extra).take("parallel_tool_calls", doc.parallel_tool_calls);
    let completion = Keep(&mut extra).take(MAX_COMPLETION_TOKENS, doc.max_completion_tokens);
    let legacy = Keep(&mut extra).take(MAX_TOKENS, doc.max_tokens);
    let used = match (completion, legacy) {
        (Some(n), Some(other)) => {
            // Both given: the current name feeds the model, the other stays a plain field.
            extra.insert(MAX_TOKENS.into(), Value::from(other));
            x.options.max_tokens = Some(n);
            Some(MAX_COMPLETION_TOKENS)
        }
        (Some(n), None) => {
            x.options.max_tokens = Some(n);
            Some(MAX_COMPLETION_TOKENS)
        }
        (None, Some(n)) => {
            x.options.max_tokens = Some(n);
            Some(MAX_TOKENS)
        }
        (None, None) => None,
    };
    if let Some(field) = used.filter(|f| *f != d.max_tokens_field()) {
        meta.insert(M_MAX_TOKENS.into(), Value::String(field.into()));
    }
    x.options.temperature = Keep(&mut extra).take("temperature", doc.temperature);
    x.options.top_p = Keep(&mut extra).take("top_p", doc.top_p);
    match Keep(&mut extra).take("stop", doc.stop) {
        Some(wire::Stop::One(s)) => {
            x.options.stop = vec![s];
            meta.insert(M_STOP_STRING.into(), Value::Bool(true));
        }
        Some(wire::Stop::Many(v)) if v.is_empty() => {
            extra.insert("stop".into(), Value::Array(Vec::new()));
        }
        Some(wire::Stop::Many(v)) => x.options.stop = v,
        None => {}
    }
    dec.messages(doc.messages, &mut x, &mut meta)?;
    extra.extend(meta);
    x.extra = wrap(dec.id, extra);
    Ok((x, dec.losses.into_vec()))
}

/// Response body → an exchange holding the model name and the first choice's message.
pub fn decode_response(
    doc: wire::Response,
    d: &'static dyn Profile,
) -> Result<(Exchange, Vec<Loss>), DecodeError> {
    let mut dec = Dec::new(d);
    let id = dec.id;
    let mut omit: Vec<Value> = Vec::new();
    // Remember a left-out field only where the encoder would otherwise add it.
    let mut omitted = |key: &str| {
        if d.emits_default(key) {
            omit.push(key.into());
        }
    };
    let mut top = doc.extra;
    match doc.id {
        Some(s) if s == PLACEHOLDER_ID && d.emits_default("id") => {}
        Some(s) => {
            top.insert("id".into(), Value::String(s));
        }
        None => omitted("id"),
    }
    match doc.object {
        Some(s) if s == OBJECT && d.emits_default("object") => {}
        Some(s) => {
            top.insert("object".into(), Value::String(s));
        }
        None => omitted("object"),
    }
    match doc.created {
        Some(0) if d.emits_default("created") => {}
        Some(n) => {
            top.insert("created".into(), Value::from(n));
        }
        None => omitted("created"),
    }
    let mut choices = doc.choices.into_iter();
    let Some(first) = choices.next() else {
        return Err(dec.error("/choices", "a response needs at least one choice"));
    };
    let rest: Vec<Value> = choices
        .map(|c| serde_json::to_value(c).unwrap_or(Value::Null))
        .collect();
    if first.message.role != wire::Role::Assistant {
        return Err(dec.error(
            "/choices/0/message/role",
            "the answer must be an assistant message",
        ));
    }
    let (mut msg, has_calls) = dec.assistant(first.message, 0);
    let mut fields = msg.extra.remove(id).unwrap_or_default();
    match fields.get("refusal") {
        Some(Value::Null) if d.emits_default("refusal") => {
            fields.remove("refusal");
        }
        Some(_) => {}
        None => omitted("refusal"),
    }
    if !rest.is_empty() {
        dec.losses.dropped(
            "/messages/0",
            format!("{} more choices", rest.len()),
            format!("the model holds one answer; the others are kept only for {id}"),
        );
        fields.insert(M_CHOICES.into(), Value::Array(rest));
    }
    let mut choice = first.extra;
    match first.index {
        Some(0) if d.emits_default("index") => {}
        Some(n) => {
            choice.insert("index".into(), Value::from(n));
        }
        None => omitted("index"),
    }
    match first.logprobs {
        Field::Absent => omitted("logprobs"),
        Field::Null if !d.emits_default("logprobs") => {
            choice.insert("logprobs".into(), Value::Null);
        }
        Field::Null => {}
        Field::Value(v) => {
            choice.insert("logprobs".into(), v);
        }
    }
    if first.finish_reason.is_absent() {
        omit.push("finish_reason".into());
    }
    if let Field::Value(reason) = first.finish_reason {
        msg.stop_reason = Some(match reason.as_str() {
            // The deprecated reason, where the API has it.
            "function_call" if d.finish().others.contains(&"function_call") => {
                dec.losses.rewritten(
                    "/messages/0/stop_reason",
                    "finish_reason function_call",
                    "deprecated; read as tool use",
                );
                StopReason::ToolUse
            }
            word => d.finish_from_wire(word, has_calls),
        });
    }
    match doc.usage {
        Field::Value(u) => {
            if u.total_tokens
                .is_some_and(|t| t != u.prompt_tokens.saturating_add(u.completion_tokens))
            {
                dec.losses.rewritten(
                    "/messages/0/usage",
                    "total_tokens",
                    "recomputed as prompt_tokens + completion_tokens",
                );
            }
            msg.usage = Some(Usage {
                input_tokens: u.prompt_tokens,
                output_tokens: u.completion_tokens,
            });
            if !u.extra.is_empty() {
                fields.insert(M_USAGE.into(), Value::Object(u.extra));
            }
        }
        Field::Null => {
            top.insert("usage".into(), Value::Null);
        }
        Field::Absent => {}
    }
    if !top.is_empty() {
        fields.insert(M_RESPONSE.into(), Value::Object(top));
    }
    if !choice.is_empty() {
        fields.insert(M_CHOICE.into(), Value::Object(choice));
    }
    if !omit.is_empty() {
        fields.insert(M_OMIT.into(), Value::Array(omit));
    }
    note_own_model(d, doc.model.as_deref(), &mut fields);
    msg.extra = wrap(id, fields);
    let x = Exchange {
        options: crate::model::Options {
            model: doc.model,
            ..Default::default()
        },
        messages: vec![msg],
        ..Exchange::default()
    };
    Ok((x, dec.losses.into_vec()))
}
