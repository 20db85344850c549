//! Chat templates: a model's Jinja `chat_template`, rendered as transformers'
//! `apply_chat_template` renders it.
//!
//! transformers (`utils/chat_template_utils.py`) compiles the template in an
//! `ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)` with the `loopcontrols`
//! extension, its own `tojson` filter (`json.dumps` with `ensure_ascii=False`, `indent`,
//! `separators`, `sort_keys`: no HTML escaping), and the globals `raise_exception` and
//! `strftime_now`; it renders with `messages`, `tools` (JSON schemas, or none), `documents`,
//! `add_generation_prompt` and the tokenizer's special tokens (`bos_token`, `eos_token`, …).
//! This module does the same with minijinja: Python's string and dict methods come from
//! `minijinja-contrib`'s `pycompat`, and values print as Python prints them (`None`, `True`,
//! `{'a': 1}`).

use super::TemplateError;
use crate::model::{Exchange, Part, ResultContent, Role};
use minijinja::value::{Enumerator, Object, ObjectRepr, Value, ValueKind};
use minijinja::{Environment, Error, ErrorKind, State};
use serde_json::{json, Map, Value as Json};
use std::sync::Arc;

/// Largest template source accepted (real ones are under 20 KB).
pub const MAX_SOURCE: usize = 512 << 10;
/// Largest rendered prompt (a render past it stops with an error).
pub const MAX_OUTPUT: usize = 64 << 20;
/// Nesting depth of macros, includes and loops (minijinja's own cap is 500).
const RECURSION: usize = 200;

/// How to render, beyond the exchange.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RenderOptions {
    /// `add_generation_prompt`; `None`: true unless the assistant spoke last (a request that
    /// waits for the model's turn).
    pub add_generation_prompt: Option<bool>,
    /// Leave the tools out (for the share of the prompt the tools take), rendering with the
    /// template the exchange's tools select (`tool_use` where the config names one).
    pub without_tools: bool,
    /// The time `strftime_now` reads, in Unix seconds (`None`: the clock; tests fix it).
    pub now: Option<i64>,
    /// More variables, as `apply_chat_template(**kwargs)` passes them (`enable_thinking`,
    /// `tools_in_user_message`, `date_string`, …); they win over the special tokens.
    pub kwargs: Map<String, Json>,
}

/// A model's chat template: one source, or named ones (`default`, `tool_use`) as a
/// `tokenizer_config.json` may list them, with the special tokens it names.
#[derive(Debug, Clone)]
pub struct Template {
    /// `(name, source)`; a lone template is named `default`.
    sources: Vec<(String, String)>,
    /// `bos_token`, `eos_token`, … as the tokenizer config spells them.
    tokens: Vec<(String, String)>,
}

impl Template {
    /// From a `tokenizer_config.json`: `chat_template` is a string, or a list of
    /// `{name, template}` (`tool_use` is used when the exchange has tools, else `default`).
    /// The special tokens (`bos_token`, also in the `{"content": …}` form) come along.
    pub fn from_tokenizer_config(text: &str) -> Result<Template, TemplateError> {
        let v: Json = serde_json::from_str(text).map_err(|e| TemplateError {
            line: Some(e.line()),
            message: format!("tokenizer_config.json is not JSON: {e}"),
        })?;
        let cfg = v
            .as_object()
            .ok_or_else(|| plain("tokenizer_config.json is not an object"))?;
        let sources = match cfg.get("chat_template") {
            Some(Json::String(s)) => vec![("default".to_string(), s.clone())],
            Some(Json::Array(list)) => {
                let mut out = Vec::new();
                for t in list {
                    let (Some(name), Some(src)) = (
                        t.get("name").and_then(Json::as_str),
                        t.get("template").and_then(Json::as_str),
                    ) else {
                        return Err(plain(
                            "chat_template list entries need a \"name\" and a \"template\"",
                        ));
                    };
                    out.push((name.to_string(), src.to_string()));
                }
                if out.is_empty() {
                    return Err(plain("chat_template is an empty list"));
                }
                out
            }
            Some(_) => return Err(plain("chat_template is neither a string nor a list")),
            None => {
                return Err(plain(
                    "tokenizer_config.json has no chat_template (newer models ship it as \
                     chat_template.jinja)",
                ))
            }
        };
        let t = Template {
            sources,
            tokens: config_tokens(cfg),
        };
        t.check()?;
        Ok(t)
    }

    /// From what a Hub repository has: a `chat_template.jinja` wins over the config's
    /// `chat_template` (newer models ship only the file); the config still brings the special
    /// tokens.
    pub fn from_files(
        config: Option<&str>,
        jinja: Option<&str>,
    ) -> Result<Template, TemplateError> {
        let Some(src) = jinja else {
            return match config {
                Some(c) => Template::from_tokenizer_config(c),
                None => Err(plain(
                    "no chat template: give a tokenizer_config.json or a chat_template.jinja",
                )),
            };
        };
        let mut t = Template::from_jinja(src)?;
        if let Some(c) = config {
            let v: Json = serde_json::from_str(c).map_err(|e| TemplateError {
                line: Some(e.line()),
                message: format!("tokenizer_config.json is not JSON: {e}"),
            })?;
            if let Some(cfg) = v.as_object() {
                t.tokens = config_tokens(cfg);
            }
        }
        Ok(t)
    }

    /// From a `chat_template.jinja` file (no special tokens: see [`Template::with_token`]).
    pub fn from_jinja(source: &str) -> Result<Template, TemplateError> {
        let t = Template {
            sources: vec![("default".into(), source.to_string())],
            tokens: Vec::new(),
        };
        t.check()?;
        Ok(t)
    }

    /// Sets a special token the template reads (`bos_token`, `eos_token`, …).
    pub fn with_token(mut self, name: &str, value: &str) -> Template {
        self.tokens.retain(|(k, _)| k != name);
        self.tokens.push((name.to_string(), value.to_string()));
        self
    }

    /// The special tokens the template is rendered with.
    pub fn tokens(&self) -> &[(String, String)] {
        &self.tokens
    }

    /// The names of the templates (`default`, `tool_use`, …).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.sources.iter().map(|(n, _)| n.as_str())
    }

    /// Compiles every source, so a syntax error shows when the file is read.
    fn check(&self) -> Result<(), TemplateError> {
        for (name, src) in &self.sources {
            let src = prepare(src)?;
            let env = environment(None);
            env.template_from_str(&src)
                .map_err(|e| from_error(&e, name, &self.sources))?;
        }
        Ok(())
    }

    /// Which source renders an exchange (transformers: `tool_use` when tools are passed and
    /// the config has it, else `default`).
    fn pick(&self, tools: bool) -> Result<&(String, String), TemplateError> {
        if self.sources.len() == 1 {
            return Ok(&self.sources[0]);
        }
        let find = |n: &str| self.sources.iter().find(|(name, _)| name == n);
        tools
            .then(|| find("tool_use"))
            .flatten()
            .or_else(|| find("default"))
            .ok_or_else(|| plain("the config lists chat templates but none is named \"default\""))
    }

    /// The prompt text the model receives for `x`.
    pub fn render(&self, x: &Exchange) -> Result<String, TemplateError> {
        self.render_with(x, &RenderOptions::default())
    }

    /// [`Template::render`] with options.
    pub fn render_with(&self, x: &Exchange, o: &RenderOptions) -> Result<String, TemplateError> {
        let with_tools = !x.tools.is_empty() && !o.without_tools;
        // Without tools for the split, the template stays the one the tools chose.
        let (name, src) = self.pick(!x.tools.is_empty())?;
        let src = prepare(src)?;
        let mut env = environment(Some(o.now.unwrap_or_else(now)));
        env.set_fuel(Some(fuel(x)));
        let tmpl = env
            .template_from_str(&src)
            .map_err(|e| from_error(&e, name, &self.sources))?;
        let add_gen = o
            .add_generation_prompt
            .unwrap_or_else(|| x.messages.last().is_none_or(|m| m.role != Role::Assistant));
        let mut ctx: Vec<(Value, Value)> = vec![
            ("messages".into(), to_value(&messages(x))),
            (
                "tools".into(),
                if with_tools {
                    to_value(&tools(x))
                } else {
                    Value::from(())
                },
            ),
            ("documents".into(), Value::from(())),
            ("add_generation_prompt".into(), Value::from(add_gen)),
        ];
        for (k, v) in &self.tokens {
            if !o.kwargs.contains_key(k) {
                ctx.push((k.as_str().into(), Value::from(v.as_str())));
            }
        }
        for (k, v) in &o.kwargs {
            ctx.push((k.as_str().into(), to_value(v)));
        }
        let mut out = Capped(Vec::new());
        tmpl.render_captured_to(Value::from_object(Dict(ctx)), &mut out)
            .map_err(|e| {
                if out.0.len() >= MAX_OUTPUT {
                    plain(&format!(
                        "the rendered prompt passes {} MiB",
                        MAX_OUTPUT >> 20
                    ))
                } else {
                    from_error(&e, name, &self.sources)
                }
            })?;
        String::from_utf8(out.0).map_err(|_| plain("the rendered prompt is not UTF-8"))
    }
}

/// The special tokens a config names (`bos_token`, `eos_token`, …): plain strings, or
/// AddedToken dicts `{"__type": "AddedToken", "content": …}`.
fn config_tokens(cfg: &Map<String, Json>) -> Vec<(String, String)> {
    cfg.iter()
        .filter(|(k, _)| k.ends_with("_token"))
        .filter_map(|(k, v)| {
            let s = v
                .as_str()
                .or_else(|| v.get("content").and_then(Json::as_str))?;
            Some((k.clone(), s.to_string()))
        })
        .collect()
}

fn plain(message: &str) -> TemplateError {
    TemplateError {
        line: None,
        message: message.to_string(),
    }
}

/// Fuel for one render: generous for the exchange's size, so a runaway loop stops.
fn fuel(x: &Exchange) -> u64 {
    let size = serde_json::to_string(x).map_or(0, |s| s.len()) as u64;
    2_000_000 + size * 8 + x.messages.len() as u64 * 20_000 + x.tools.len() as u64 * 20_000
}

/// The wall clock, in Unix seconds (0 where there is none).
fn now() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Date::now() / 1000.0) as i64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// An output that refuses to grow past [`MAX_OUTPUT`].
struct Capped(Vec<u8>);

impl std::io::Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() + buf.len() > MAX_OUTPUT {
            self.0.resize(MAX_OUTPUT, 0);
            return Err(std::io::Error::other("output too large"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The source as minijinja reads it: transformers' `{% generation %}` block (which marks the
/// assistant's text for training masks) renders its body unchanged, so it becomes an `if true`.
fn prepare(src: &str) -> Result<String, TemplateError> {
    if src.len() > MAX_SOURCE {
        return Err(plain(&format!(
            "the template passes {} KiB",
            MAX_SOURCE >> 10
        )));
    }
    // Only the tag words change, never a line break, so error lines stay right. Scanned by
    // hand: a regex engine here would add its weight to the wasm for one pattern.
    let mut out = String::with_capacity(src.len() + 16);
    let mut rest = src;
    while let Some(at) = rest.find("{%") {
        out.push_str(&rest[..at]);
        let tag = &rest[at..];
        match generation_tag(tag) {
            Some((len, open, end, close)) => {
                let word = if end { "endif" } else { "if true" };
                out.push_str(&format!("{{%{open} {word} {close}%}}"));
                rest = &tag[len..];
            }
            None => {
                out.push_str("{%");
                rest = &tag[2..];
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `{%-? (end)?generation -?%}` at the start of `s`: its length, the opening and closing
/// whitespace markers, and whether it ends the block.
fn generation_tag(s: &str) -> Option<(usize, &str, bool, &str)> {
    let body = s.strip_prefix("{%")?;
    let marker = |t: &str| -> usize { usize::from(t.starts_with('-') || t.starts_with('+')) };
    let m1 = marker(body);
    let open = &body[..m1];
    let t = body[m1..].trim_start();
    let (end, t) = match t.strip_prefix("end") {
        Some(t) => (true, t),
        None => (false, t),
    };
    let t = t.strip_prefix("generation")?.trim_start();
    let m2 = marker(t);
    let close = &t[..m2];
    let t = t[m2..].strip_prefix("%}")?;
    Some((s.len() - t.len(), open, end, close))
}

/// The environment transformers compiles chat templates in, with the clock `now` for
/// `strftime_now` (`None`: compile only).
fn environment(now: Option<i64>) -> Environment<'static> {
    let mut env = Environment::new();
    let syntax = minijinja::syntax::SyntaxConfig::builder()
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build();
    if let Ok(s) = syntax {
        env.set_syntax(s);
    }
    env.set_recursion_limit(RECURSION);
    env.set_unknown_method_callback(minijinja_contrib::pycompat::unknown_method_callback);
    env.set_formatter(|out, _state, v| {
        out.write_str(&py_str(v))
            .map_err(|_| Error::new(ErrorKind::WriteFailure, "output too large"))
    });
    env.add_filter("tojson", tojson);
    env.add_function(
        "raise_exception",
        |msg: Option<Value>| -> Result<Value, Error> {
            let msg = msg.map(|m| py_str(&m)).unwrap_or_default();
            Err(Error::new(ErrorKind::InvalidOperation, msg))
        },
    );
    let t = now.unwrap_or(0);
    env.add_function("strftime_now", move |fmt: String| -> String {
        strftime(&fmt, t)
    });
    env
}

/// A minijinja error as a [`TemplateError`] at its line.
fn from_error(e: &Error, name: &str, sources: &[(String, String)]) -> TemplateError {
    let what = match e.kind() {
        // raise_exception: the template's own words.
        ErrorKind::InvalidOperation if e.detail().is_some() => {
            e.detail().unwrap_or_default().to_string()
        }
        k => match e.detail() {
            Some(d) => format!("{k}: {d}"),
            None => k.to_string(),
        },
    };
    let label = if sources.len() > 1 {
        format!(" (template {name:?})")
    } else {
        String::new()
    };
    TemplateError {
        line: e.line(),
        message: format!("{what}{label}"),
    }
}

// ---- the context ------------------------------------------------------------------------------

/// The text of a message: its text parts joined (templates expect a string).
fn text_of(parts: &[Part]) -> Option<String> {
    let texts: Vec<&str> = parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}

/// `messages` as transformers users pass them (OpenAI chat shape): a `system` message first,
/// assistant `tool_calls` with `arguments` as a dict, one `tool` message per result.
pub fn messages(x: &Exchange) -> Json {
    let mut out = Vec::new();
    if let Some(s) = &x.system {
        out.push(json!({"role": "system", "content": s}));
    }
    let mut names = std::collections::HashMap::new();
    for m in &x.messages {
        match m.role {
            Role::User => out.push(json!({
                "role": "user",
                "content": text_of(&m.parts).unwrap_or_default(),
            })),
            Role::Assistant => {
                let mut msg = Map::new();
                msg.insert("role".into(), "assistant".into());
                let calls: Vec<Json> = m
                    .tool_calls()
                    .map(|c| {
                        if let Some(id) = &c.id {
                            names.insert(id.clone(), c.name.clone());
                        }
                        let args = if c.arguments_invalid() {
                            Json::String(c.arguments_text())
                        } else {
                            c.arguments.clone()
                        };
                        let mut call = Map::new();
                        if let Some(id) = &c.id {
                            call.insert("id".into(), id.clone().into());
                        }
                        call.insert("type".into(), "function".into());
                        call.insert(
                            "function".into(),
                            json!({"name": c.name, "arguments": args}),
                        );
                        Json::Object(call)
                    })
                    .collect();
                // A turn of only calls has no content key, as in transformers' examples.
                if let Some(t) = text_of(&m.parts) {
                    msg.insert("content".into(), t.into());
                } else if calls.is_empty() {
                    msg.insert("content".into(), "".into());
                }
                if !calls.is_empty() {
                    msg.insert("tool_calls".into(), Json::Array(calls));
                }
                out.push(Json::Object(msg));
            }
            Role::Tool => {
                for r in m.tool_results() {
                    let mut msg = Map::new();
                    msg.insert("role".into(), "tool".into());
                    if let Some(id) = &r.call_id {
                        msg.insert("tool_call_id".into(), id.clone().into());
                    }
                    let name = r
                        .name
                        .clone()
                        .or_else(|| r.call_id.as_ref().and_then(|id| names.get(id).cloned()));
                    if let Some(n) = name {
                        msg.insert("name".into(), n.into());
                    }
                    let content = match &r.content {
                        ResultContent::Text(t) => t.clone(),
                        c => c.to_text(),
                    };
                    msg.insert("content".into(), content.into());
                    out.push(Json::Object(msg));
                }
            }
        }
    }
    Json::Array(out)
}

/// `tools` as transformers passes JSON schemas: `{type: "function", function: {name,
/// description, parameters}}`.
pub fn tools(x: &Exchange) -> Json {
    Json::Array(
        x.tools
            .iter()
            .map(|t| {
                let mut f = Map::new();
                f.insert("name".into(), t.name.clone().into());
                if let Some(d) = &t.description {
                    f.insert("description".into(), d.clone().into());
                }
                f.insert("parameters".into(), t.input_schema.clone());
                json!({"type": "function", "function": f})
            })
            .collect(),
    )
}

/// A JSON map with its key order (Python dicts keep insertion order; so must `tojson`).
#[derive(Debug)]
struct Dict(Vec<(Value, Value)>);

impl Object for Dict {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }
    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }
    fn enumerate(self: &Arc<Self>) -> Enumerator {
        let keys: Vec<Value> = self.0.iter().map(|(k, _)| k.clone()).collect();
        Enumerator::Iter(Box::new(keys.into_iter()))
    }
    fn enumerator_len(self: &Arc<Self>) -> Option<usize> {
        Some(self.0.len())
    }
}

/// JSON as a template value.
fn to_value(v: &Json) -> Value {
    match v {
        Json::Null => Value::from(()),
        Json::Bool(b) => Value::from(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                Value::from(n.as_f64().unwrap_or(0.0))
            }
        }
        Json::String(s) => Value::from(s.as_str()),
        Json::Array(a) => Value::from(a.iter().map(to_value).collect::<Vec<_>>()),
        Json::Object(o) => Value::from_object(Dict(
            o.iter()
                .map(|(k, v)| (Value::from(k.as_str()), to_value(v)))
                .collect(),
        )),
    }
}

// ---- Python's printing ------------------------------------------------------------------------

/// `str(v)` as Python prints a value into the template output.
fn py_str(v: &Value) -> String {
    match v.kind() {
        ValueKind::Undefined => String::new(),
        ValueKind::String => v.as_str().unwrap_or_default().to_string(),
        _ => py_repr(v),
    }
}

/// `repr(v)`: `None`, `True`, `'text'`, `[1, 2]`, `{'a': 1}`.
fn py_repr(v: &Value) -> String {
    let mut s = String::new();
    repr_into(v, &mut s, 0);
    s
}

fn repr_into(v: &Value, s: &mut String, depth: usize) {
    if depth > 64 {
        s.push_str("...");
        return;
    }
    match v.kind() {
        ValueKind::Undefined => {}
        ValueKind::None => s.push_str("None"),
        ValueKind::Bool => s.push_str(if v.is_true() { "True" } else { "False" }),
        ValueKind::Number => s.push_str(&py_number(v)),
        ValueKind::String => {
            let t = v.as_str().unwrap_or_default();
            let q = if t.contains('\'') && !t.contains('"') {
                '"'
            } else {
                '\''
            };
            s.push(q);
            for c in t.chars() {
                match c {
                    '\\' => s.push_str("\\\\"),
                    '\n' => s.push_str("\\n"),
                    '\r' => s.push_str("\\r"),
                    '\t' => s.push_str("\\t"),
                    c if c == q => {
                        s.push('\\');
                        s.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        s.push_str(&format!("\\x{:02x}", c as u32))
                    }
                    c => s.push(c),
                }
            }
            s.push(q);
        }
        ValueKind::Seq | ValueKind::Iterable | ValueKind::Map => {
            let map = v.kind() == ValueKind::Map;
            s.push(if map { '{' } else { '[' });
            for (i, item) in v.try_iter().into_iter().flatten().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                repr_into(&item, s, depth + 1);
                if map {
                    s.push_str(": ");
                    repr_into(&v.get_item(&item).unwrap_or_default(), s, depth + 1);
                }
            }
            s.push(if map { '}' } else { ']' });
        }
        _ => s.push_str(&v.to_string()),
    }
}

/// A number as Python prints it (`1`, `1.0`, `0.1`, `1e+20`).
fn py_number(v: &Value) -> String {
    if v.is_integer() {
        return v.to_string();
    }
    let f = f64::try_from(v.clone()).unwrap_or(f64::NAN);
    py_float(f)
}

fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        // Python: shortest digits in exponent form, exponent with a sign and two digits.
        let e = format!("{f:e}");
        if let Some((m, x)) = e.split_once('e') {
            let (sign, digits) = match x.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', x),
            };
            return format!("{m}e{sign}{digits:0>2}");
        }
        return e;
    }
    let s = format!("{f}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

// ---- tojson -----------------------------------------------------------------------------------

/// transformers' `tojson`: `json.dumps(x, ensure_ascii=False, indent=None, separators=None,
/// sort_keys=False)`.
fn tojson(state: &State, v: &Value, kwargs: minijinja::value::Kwargs) -> Result<Value, Error> {
    let ensure_ascii = kwargs.get::<Option<bool>>("ensure_ascii")?.unwrap_or(false);
    let indent: Option<Value> = kwargs.get("indent")?;
    let separators: Option<Value> = kwargs.get("separators")?;
    let sort_keys = kwargs.get::<Option<bool>>("sort_keys")?.unwrap_or(false);
    kwargs.assert_all_used()?;
    let indent = match indent {
        None => None,
        Some(i) if i.is_none() => None,
        Some(i) => match i.as_str() {
            Some(s) => Some(s.to_string()),
            None => Some(" ".repeat(i.as_usize().unwrap_or(0).min(64))),
        },
    };
    let (item, key) = match separators.filter(|s| !s.is_none()) {
        Some(s) => {
            let a = s.get_item_by_index(0)?;
            let b = s.get_item_by_index(1)?;
            (
                a.as_str().unwrap_or(",").to_string(),
                b.as_str().unwrap_or(":").to_string(),
            )
        }
        // Python: ", " without an indent, "," with one.
        None if indent.is_some() => (",".into(), ": ".into()),
        None => (", ".into(), ": ".into()),
    };
    let mut w = JsonWriter {
        out: String::new(),
        ensure_ascii,
        indent,
        item,
        key,
        sort_keys,
    };
    w.value(v, 0)?;
    // The output is charged like other values the template makes.
    state.consume_fuel((w.out.len() / 64) as u64)?;
    Ok(Value::from_safe_string(w.out))
}

struct JsonWriter {
    out: String,
    ensure_ascii: bool,
    indent: Option<String>,
    item: String,
    key: String,
    sort_keys: bool,
}

impl JsonWriter {
    fn newline(&mut self, depth: usize) {
        if let Some(ind) = &self.indent {
            self.out.push('\n');
            for _ in 0..depth {
                self.out.push_str(ind);
            }
        }
    }

    fn value(&mut self, v: &Value, depth: usize) -> Result<(), Error> {
        if depth > 128 {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                "tojson: the value is nested too deeply",
            ));
        }
        match v.kind() {
            ValueKind::None => self.out.push_str("null"),
            ValueKind::Bool => self
                .out
                .push_str(if v.is_true() { "true" } else { "false" }),
            ValueKind::Number => self.out.push_str(&py_number(v)),
            ValueKind::String => self.string(v.as_str().unwrap_or_default()),
            ValueKind::Seq | ValueKind::Iterable | ValueKind::Map => {
                let map = v.kind() == ValueKind::Map;
                let mut items: Vec<Value> = v.try_iter()?.collect();
                if map && self.sort_keys {
                    items.sort();
                }
                self.out.push(if map { '{' } else { '[' });
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        let sep = self.item.clone();
                        self.out.push_str(&sep);
                    }
                    self.newline(depth + 1);
                    if !map {
                        self.value(item, depth + 1)?;
                        continue;
                    }
                    // Python turns number, bool and None keys into strings.
                    let key = match item.kind() {
                        ValueKind::String => item.as_str().unwrap_or_default().to_string(),
                        ValueKind::None => "null".into(),
                        ValueKind::Bool => if item.is_true() { "true" } else { "false" }.into(),
                        _ => py_number(item),
                    };
                    self.string(&key);
                    let sep = self.key.clone();
                    self.out.push_str(&sep);
                    self.value(&v.get_item(item)?, depth + 1)?;
                }
                if !items.is_empty() {
                    self.newline(depth);
                }
                self.out.push(if map { '}' } else { ']' });
            }
            k => {
                return Err(Error::new(
                    ErrorKind::InvalidOperation,
                    format!("tojson: Object of type {k} is not JSON serializable"),
                ))
            }
        }
        Ok(())
    }

    /// A JSON string as Python's `json.dumps` escapes it.
    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                c if (c as u32) < 0x20 => self.out.push_str(&format!("\\u{:04x}", c as u32)),
                c if self.ensure_ascii && (c as u32) > 0x7e => {
                    let mut buf = [0u16; 2];
                    for u in c.encode_utf16(&mut buf) {
                        self.out.push_str(&format!("\\u{u:04x}"));
                    }
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

// ---- strftime_now -----------------------------------------------------------------------------

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// Python's `datetime.strftime` for the common directives, in UTC (from 1970 on).
pub fn strftime(fmt: &str, unix: i64) -> String {
    // The calendar date from the HAR recorder's ISO 8601 form, `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    let iso = crate::live::record::iso8601(unix.max(0) as f64 * 1000.0);
    let field =
        |r: std::ops::Range<usize>| -> i64 { iso.get(r).and_then(|f| f.parse().ok()).unwrap_or(0) };
    let (y, m, d) = (field(0..4), field(5..7).clamp(1, 12), field(8..10));
    let (h, mi, s) = (field(11..13), field(14..16), field(17..19));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    const CUM: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    let yday = CUM[(m - 1) as usize] + d + i64::from(leap && m > 2);
    let wday = (unix.max(0).div_euclid(86_400) + 3).rem_euclid(7) as usize; // 1970-01-01: a Thursday
    let month = MONTHS[(m - 1) as usize];
    let mut out = String::new();
    let mut it = fmt.chars();
    while let Some(c) = it.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // `%-d` (glibc): no padding.
        let mut next = it.next();
        let pad = next != Some('-');
        if !pad {
            next = it.next();
        }
        let num = |n: i64, w: usize| {
            if pad {
                format!("{n:0w$}")
            } else {
                n.to_string()
            }
        };
        match next {
            Some('Y') => out.push_str(&y.to_string()),
            Some('y') => out.push_str(&num(y % 100, 2)),
            Some('m') => out.push_str(&num(m, 2)),
            Some('d') => out.push_str(&num(d, 2)),
            Some('e') => out.push_str(&format!("{d:>2}")),
            Some('j') => out.push_str(&num(yday, 3)),
            Some('H') => out.push_str(&num(h, 2)),
            Some('I') => out.push_str(&num((h + 11) % 12 + 1, 2)),
            Some('M') => out.push_str(&num(mi, 2)),
            Some('S') => out.push_str(&num(s, 2)),
            Some('p') => out.push_str(if h < 12 { "AM" } else { "PM" }),
            Some('B') => out.push_str(month),
            Some('b') | Some('h') => out.push_str(&month[..3]),
            Some('A') => out.push_str(DAYS[wday]),
            Some('a') => out.push_str(&DAYS[wday][..3]),
            Some('F') => out.push_str(&format!("{y}-{m:02}-{d:02}")),
            Some('T') => out.push_str(&format!("{h:02}:{mi:02}:{s:02}")),
            Some('Z') => out.push_str("UTC"),
            Some('z') => out.push_str("+0000"),
            Some('%') => out.push('%'),
            Some(o) => {
                out.push('%');
                out.push(o);
            }
            None => out.push('%'),
        }
    }
    out
}
