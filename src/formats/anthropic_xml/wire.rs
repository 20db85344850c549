//! The legacy prompt as a document model, with a hand-written parser and renderer (no XML
//! crate: the wasm stays small, and the format is not XML anyway — "parsed with regular
//! expressions", in Anthropic's words). The parser tolerates whitespace between elements,
//! entities, unknown elements and a `</function_calls>` eaten by the stop sequence; everything
//! else it cannot read is a [`DecodeError`] with line and column. Nothing here panics: every
//! slice goes through `str::get`.

use crate::formats::DecodeError;
use serde::{Deserialize, Serialize};

use super::convert::ID;

/// The standard tool-use preamble of `anthropic-tools` (`construct_tool_use_system_prompt`),
/// up to and including `<tools>`'s line.
pub const PREAMBLE: &str = "In this environment you have access to a set of tools you can use to answer the user's question.\n\nYou may call them like this:\n<function_calls>\n<invoke>\n<tool_name>$TOOL_NAME</tool_name>\n<parameters>\n<$PARAMETER_NAME>$PARAMETER_VALUE</$PARAMETER_NAME>\n...\n</parameters>\n</invoke>\n</function_calls>\n\nHere are the tools available:\n";

/// Turn marker of the person.
pub const HUMAN: &str = "\n\nHuman:";
/// Turn marker of the model.
pub const ASSISTANT: &str = "\n\nAssistant:";

/// A whole Text Completions prompt: system text (with the tools block), then the turns.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Prompt {
    /// The preamble before `<tools>` when it is not [`PREAMBLE`] (a paste's own wording).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preamble: Option<String>,
    /// The tools block; `None` when the prompt has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<ToolDescription>>,
    /// The system text outside the tools block (empty when none).
    #[serde(default)]
    pub system: String,
    /// The turns, in order.
    #[serde(default)]
    pub turns: Vec<Turn>,
    /// The prompt ends with `\n\nAssistant:` and nothing after it: the model speaks next.
    #[serde(default)]
    pub cue: bool,
}

/// A completion: the model's text of its last turn.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Completion {
    /// Text and `<function_calls>` blocks, in order.
    pub segments: Vec<Segment>,
}

/// Who speaks in a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    /// `\n\nHuman:`
    Human,
    /// `\n\nAssistant:`
    Assistant,
}

/// One `Human:` or `Assistant:` turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Who speaks.
    pub speaker: Speaker,
    /// What is said, in order.
    pub segments: Vec<Segment>,
}

/// A piece of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    /// Plain text, verbatim (not entity-escaped: it is prompt text).
    Text(String),
    /// A `<function_calls>` block.
    Calls(Vec<Invoke>),
    /// A `<function_results>` block.
    Results(Vec<Outcome>),
}

/// One `<invoke>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Invoke {
    /// `<tool_name>`.
    pub tool_name: String,
    /// `<parameters>`: name and value text (entities decoded), in order.
    pub parameters: Vec<(String, String)>,
    /// Unknown child elements, by tag, with their raw text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<(String, String)>,
}

/// One entry of `<function_results>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `<tool_name>`, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// `<error>` (or an error injection `<system>`) rather than `<stdout>`.
    pub is_error: bool,
    /// The output text.
    pub text: String,
    /// Unknown child elements of `<result>`, by tag, with their raw text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<(String, String)>,
}

/// One `<tool_description>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDescription {
    /// `<tool_name>`.
    pub name: String,
    /// `<description>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `<parameters>`.
    pub parameters: Vec<ParamDescription>,
    /// Unknown child elements (`<important_usage_notes>`, …), by tag, with their raw text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<(String, String)>,
}

/// One `<parameter>` of a tool description.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamDescription {
    /// `<name>`.
    pub name: String,
    /// `<type>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#type: Option<String>,
    /// `<description>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// Escaping

/// Escape `&`, `<` and `>` for element content.
pub fn escape(s: &str) -> String {
    crate::text::xml_escape(s)
}

/// Decode the five XML entities and numeric character references; anything else that starts
/// with `&` is kept as written (the format is not strict XML).
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(rest.get(..i).unwrap_or_default());
        let after = rest.get(i..).unwrap_or_default();
        let entity = after
            .get(1..)
            .and_then(|a| a.find(';').filter(|&n| n <= 10))
            .and_then(|n| after.get(1..n + 1));
        let decoded = entity.and_then(|e| match e {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => {
                let num = e.strip_prefix('#')?;
                let code = match num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => num.parse().ok()?,
                };
                char::from_u32(code)
            }
        });
        match (decoded, entity) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = after.get(e.len() + 2..).unwrap_or_default();
            }
            _ => {
                out.push('&');
                rest = after.get(1..).unwrap_or_default();
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------------
// Rendering

/// The prompt as text.
pub fn render_prompt(p: &Prompt) -> String {
    let mut out = String::new();
    if let Some(tools) = &p.tools {
        out.push_str(p.preamble.as_deref().unwrap_or(PREAMBLE));
        out.push_str("<tools>\n");
        let descriptions: Vec<String> = tools.iter().map(render_tool).collect();
        out.push_str(&descriptions.join("\n"));
        if !tools.is_empty() {
            out.push('\n');
        }
        out.push_str("</tools>");
        if !p.system.is_empty() {
            out.push_str("\n\n");
        }
    }
    out.push_str(&p.system);
    for turn in &p.turns {
        out.push_str(match turn.speaker {
            Speaker::Human => HUMAN,
            Speaker::Assistant => ASSISTANT,
        });
        out.push(' ');
        out.push_str(&render_segments(&turn.segments));
    }
    if p.cue {
        out.push_str(ASSISTANT);
    }
    out
}

/// The completion as text.
pub fn render_completion(c: &Completion) -> String {
    render_segments(&c.segments)
}

/// Segments joined: a block is separated from its neighbours by one newline.
fn render_segments(segments: &[Segment]) -> String {
    let mut out = String::new();
    let mut prev_block = false;
    for (i, seg) in segments.iter().enumerate() {
        match seg {
            Segment::Text(t) => {
                if prev_block {
                    out.push('\n');
                }
                out.push_str(t);
                prev_block = false;
            }
            Segment::Calls(invokes) => {
                out.push_str(separator(i, prev_block));
                out.push_str(&render_calls(invokes));
                prev_block = true;
            }
            Segment::Results(outcomes) => {
                out.push_str(separator(i, prev_block));
                out.push_str(&render_results(outcomes));
                prev_block = true;
            }
        }
    }
    out
}

/// Before a block: nothing at the start, a blank line after another block (as `anthropic-tools`
/// injects results after calls), a newline after text.
fn separator(i: usize, prev_block: bool) -> &'static str {
    match (i, prev_block) {
        (0, _) => "",
        (_, true) => "\n\n",
        (_, false) => "\n",
    }
}

fn render_unknown(out: &mut String, unknown: &[(String, String)]) {
    for (tag, raw) in unknown {
        out.push_str(&format!("<{tag}>{raw}</{tag}>\n"));
    }
}

fn render_tool(t: &ToolDescription) -> String {
    let mut out = String::from("<tool_description>\n");
    out.push_str(&format!("<tool_name>{}</tool_name>\n", escape(&t.name)));
    if let Some(d) = &t.description {
        out.push_str(&format!("<description>\n{}\n</description>\n", escape(d)));
    }
    out.push_str("<parameters>\n");
    for p in &t.parameters {
        out.push_str(&format!("<parameter>\n<name>{}</name>\n", escape(&p.name)));
        if let Some(ty) = &p.r#type {
            out.push_str(&format!("<type>{}</type>\n", escape(ty)));
        }
        if let Some(d) = &p.description {
            out.push_str(&format!("<description>{}</description>\n", escape(d)));
        }
        out.push_str("</parameter>\n");
    }
    out.push_str("</parameters>\n");
    render_unknown(&mut out, &t.unknown);
    out.push_str("</tool_description>");
    out
}

fn render_calls(invokes: &[Invoke]) -> String {
    let mut out = String::from("<function_calls>\n");
    for inv in invokes {
        out.push_str("<invoke>\n");
        out.push_str(&format!(
            "<tool_name>{}</tool_name>\n",
            escape(&inv.tool_name)
        ));
        out.push_str("<parameters>\n");
        for (name, value) in &inv.parameters {
            out.push_str(&format!("<{name}>{}</{name}>\n", escape(value)));
        }
        out.push_str("</parameters>\n");
        render_unknown(&mut out, &inv.unknown);
        out.push_str("</invoke>\n");
    }
    out.push_str("</function_calls>");
    out
}

fn render_results(outcomes: &[Outcome]) -> String {
    let mut out = String::from("<function_results>\n");
    for o in outcomes {
        out.push_str("<result>\n");
        if let Some(name) = &o.tool_name {
            out.push_str(&format!("<tool_name>{}</tool_name>\n", escape(name)));
        }
        let tag = if o.is_error { "error" } else { "stdout" };
        out.push_str(&format!("<{tag}>\n{}\n</{tag}>\n", escape(&o.text)));
        render_unknown(&mut out, &o.unknown);
        out.push_str("</result>\n");
    }
    out.push_str("</function_results>");
    out
}

/// True when `name` can be written as a tag (`<name>`): the parameter names of a call.
pub fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// 1-based line and column (in characters) of a byte offset; never panics.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut line = 1;
    let mut column = 1;
    for (i, c) in text.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (line, column)
}

/// An error at a byte offset of the document.
fn error_at(text: &str, offset: usize, message: impl Into<String>) -> DecodeError {
    let (line, column) = line_column(text, offset);
    DecodeError {
        format: Some(ID),
        pointer: None,
        line: Some(line),
        column: Some(column),
        message: message.into(),
    }
}

/// A cursor over the whole document (`pos` is absolute, so errors point into the document).
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
}

/// A tag at the cursor.
struct Tag<'a> {
    name: &'a str,
    close: bool,
    /// Byte offset just after `>`.
    after: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a str {
        self.text.get(self.pos..self.end).unwrap_or_default()
    }

    fn err(&self, at: usize, message: impl Into<String>) -> DecodeError {
        error_at(self.text, at, message)
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The tag starting exactly at the cursor, if any.
    fn peek_tag(&self) -> Option<Tag<'a>> {
        let rest = self.rest();
        let inner = rest.strip_prefix('<')?;
        let (close, inner) = match inner.strip_prefix('/') {
            Some(i) => (true, i),
            None => (false, inner),
        };
        let gt = inner.find('>')?;
        let name = inner.get(..gt)?.trim_end();
        if !is_tag_name(name) {
            return None;
        }
        let consumed = rest.len() - inner.len() + gt + 1;
        Some(Tag {
            name,
            close,
            after: self.pos + consumed,
        })
    }

    /// The raw text up to `</name>` (which is consumed); `opened_at` is where the element began,
    /// for the error when the closing tag is missing.
    fn until_close(&mut self, name: &str, opened_at: usize) -> Result<&'a str, DecodeError> {
        let close = format!("</{name}>");
        let rest = self.rest();
        match rest.find(&close) {
            Some(i) => {
                let content = rest.get(..i).unwrap_or_default();
                self.pos += i + close.len();
                Ok(content)
            }
            None => Err(self.err(
                opened_at,
                format!("<{name}> is never closed (no </{name}>)"),
            )),
        }
    }

    /// A simple element `<name>text</name>` (after the open tag was read): unescaped content.
    fn text_element(&mut self, name: &str, opened_at: usize) -> Result<String, DecodeError> {
        Ok(unescape(self.until_close(name, opened_at)?))
    }
}

fn preview(s: &str) -> String {
    let p: String = s.chars().take(24).collect();
    if p.len() < s.len() {
        p + "…"
    } else {
        p
    }
}

/// Strip one leading and one trailing newline (how multi-line elements are written).
fn strip_newlines(s: &str) -> &str {
    let s = s.strip_prefix('\n').unwrap_or(s);
    s.strip_suffix('\n').unwrap_or(s)
}

/// Read the children of a container element until `</name>`: `child` handles each known child
/// tag and returns false for unknown ones, which are kept as `(tag, raw text)`.
fn children<'a>(
    c: &mut Cursor<'a>,
    name: &str,
    opened_at: usize,
    unknown: &mut Vec<(String, String)>,
    mut child: impl FnMut(&mut Cursor<'a>, &str, usize) -> Result<bool, DecodeError>,
) -> Result<(), DecodeError> {
    loop {
        c.skip_ws();
        let at = c.pos;
        if at >= c.end {
            return Err(c.err(
                opened_at,
                format!("<{name}> is never closed (no </{name}>)"),
            ));
        }
        let Some(tag) = c.peek_tag() else {
            return Err(c.err(
                at,
                format!("unexpected text {:?} in <{name}>", preview(c.rest())),
            ));
        };
        if tag.close {
            if tag.name == name {
                c.pos = tag.after;
                return Ok(());
            }
            return Err(c.err(at, format!("</{}> does not close <{name}>", tag.name)));
        }
        c.pos = tag.after;
        let tag_name = tag.name;
        if !child(c, tag_name, at)? {
            let raw = c.until_close(tag_name, at)?;
            unknown.push((tag_name.to_string(), raw.to_string()));
        }
    }
}

fn parse_tools(c: &mut Cursor<'_>, opened_at: usize) -> Result<Vec<ToolDescription>, DecodeError> {
    let mut tools = Vec::new();
    let mut ignored = Vec::new();
    children(c, "tools", opened_at, &mut ignored, |c, tag, at| {
        if tag != "tool_description" {
            return Err(c.err(at, format!("unexpected <{tag}> in <tools>")));
        }
        let mut t = ToolDescription {
            name: String::new(),
            description: None,
            parameters: Vec::new(),
            unknown: Vec::new(),
        };
        let mut unknown = Vec::new();
        let mut named = false;
        children(c, "tool_description", at, &mut unknown, |c, tag, at| {
            match tag {
                "tool_name" => {
                    t.name = c.text_element(tag, at)?.trim().to_string();
                    named = true;
                }
                "description" => {
                    t.description = Some(strip_newlines(&c.text_element(tag, at)?).to_string());
                }
                "parameters" => {
                    let mut ignored = Vec::new();
                    children(c, "parameters", at, &mut ignored, |c, tag, at| {
                        if tag != "parameter" {
                            return Err(c.err(at, format!("unexpected <{tag}> in <parameters>")));
                        }
                        let mut p = ParamDescription {
                            name: String::new(),
                            r#type: None,
                            description: None,
                        };
                        let mut ignored = Vec::new();
                        children(c, "parameter", at, &mut ignored, |c, tag, at| {
                            match tag {
                                "name" => p.name = c.text_element(tag, at)?.trim().to_string(),
                                "type" => {
                                    p.r#type = Some(c.text_element(tag, at)?.trim().to_string())
                                }
                                "description" => {
                                    p.description =
                                        Some(strip_newlines(&c.text_element(tag, at)?).to_string())
                                }
                                _ => return Ok(false),
                            }
                            Ok(true)
                        })?;
                        t.parameters.push(p);
                        Ok(true)
                    })?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if !named {
            return Err(c.err(at, "<tool_description> without <tool_name>"));
        }
        t.unknown = unknown;
        tools.push(t);
        Ok(true)
    })?;
    Ok(tools)
}

fn parse_calls(c: &mut Cursor<'_>, opened_at: usize) -> Result<Vec<Invoke>, DecodeError> {
    let mut invokes = Vec::new();
    loop {
        c.skip_ws();
        let at = c.pos;
        if at >= c.end {
            // The stop sequence `</function_calls>` is not part of a completion: accept its
            // absence after a complete <invoke>.
            if !invokes.is_empty() {
                return Ok(invokes);
            }
            return Err(c.err(
                opened_at,
                "<function_calls> is never closed (no </function_calls>)",
            ));
        }
        match c.peek_tag() {
            Some(t) if t.close && t.name == "function_calls" => {
                c.pos = t.after;
                return Ok(invokes);
            }
            Some(t) if !t.close && t.name == "invoke" => {
                c.pos = t.after;
                invokes.push(parse_invoke(c, at)?);
            }
            Some(t) => {
                return Err(c.err(
                    at,
                    format!(
                        "unexpected <{}{}> in <function_calls> (expected <invoke>)",
                        if t.close { "/" } else { "" },
                        t.name
                    ),
                ))
            }
            None => {
                return Err(c.err(
                    at,
                    format!(
                        "unexpected text {:?} in <function_calls>",
                        preview(c.rest())
                    ),
                ))
            }
        }
    }
}

fn parse_invoke(c: &mut Cursor<'_>, opened_at: usize) -> Result<Invoke, DecodeError> {
    let mut name = None;
    let mut parameters = Vec::new();
    let mut unknown = Vec::new();
    children(c, "invoke", opened_at, &mut unknown, |c, tag, at| {
        match tag {
            "tool_name" => name = Some(c.text_element(tag, at)?.trim().to_string()),
            "parameters" => {
                // Every child is a parameter named by its tag; values are kept verbatim
                // ("spaces for string values are not stripped").
                loop {
                    c.skip_ws();
                    let pat = c.pos;
                    if pat >= c.end {
                        return Err(c.err(at, "<parameters> is never closed (no </parameters>)"));
                    }
                    match c.peek_tag() {
                        Some(t) if t.close && t.name == "parameters" => {
                            c.pos = t.after;
                            break;
                        }
                        Some(t) if !t.close => {
                            c.pos = t.after;
                            let value = c.text_element(t.name, pat)?;
                            parameters.push((t.name.to_string(), value));
                        }
                        Some(t) => {
                            return Err(c.err(
                                pat,
                                format!("</{}> does not close <parameters>", t.name),
                            ))
                        }
                        None => {
                            return Err(c.err(
                                pat,
                                format!(
                                    "unexpected text {:?} in <parameters> (expected <name>value</name>)",
                                    preview(c.rest())
                                ),
                            ))
                        }
                    }
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    match name {
        Some(tool_name) => Ok(Invoke {
            tool_name,
            parameters,
            unknown,
        }),
        None => Err(c.err(opened_at, "<invoke> without <tool_name>")),
    }
}

fn parse_results(c: &mut Cursor<'_>, opened_at: usize) -> Result<Vec<Outcome>, DecodeError> {
    let mut outcomes = Vec::new();
    let mut ignored = Vec::new();
    children(
        c,
        "function_results",
        opened_at,
        &mut ignored,
        |c, tag, at| {
            match tag {
                "result" => {
                    let mut o = Outcome {
                        tool_name: None,
                        is_error: false,
                        text: String::new(),
                        unknown: Vec::new(),
                    };
                    let mut unknown = Vec::new();
                    let mut has_output = false;
                    children(c, "result", at, &mut unknown, |c, tag, at| {
                        match tag {
                            "tool_name" => {
                                o.tool_name = Some(c.text_element(tag, at)?.trim().to_string())
                            }
                            "stdout" | "error" => {
                                o.is_error = tag == "error";
                                o.text = strip_newlines(&c.text_element(tag, at)?).to_string();
                                has_output = true;
                            }
                            _ => return Ok(false),
                        }
                        Ok(true)
                    })?;
                    if !has_output {
                        return Err(c.err(at, "<result> without <stdout> or <error>"));
                    }
                    o.unknown = unknown;
                    outcomes.push(o);
                }
                // A bare error (the legacy docs) or an error injection (`anthropic-tools`).
                "error" | "system" => {
                    let text = strip_newlines(&c.text_element(tag, at)?).to_string();
                    outcomes.push(Outcome {
                        tool_name: None,
                        is_error: true,
                        text,
                        unknown: Vec::new(),
                    });
                }
                _ => return Err(c.err(at, format!("unexpected <{tag}> in <function_results>"))),
            }
            Ok(true)
        },
    )?;
    Ok(outcomes)
}

/// Split a turn's text (`start..end` of the document) into text and blocks.
fn parse_segments(
    text: &str,
    start: usize,
    end: usize,
    speaker: Speaker,
) -> Result<Vec<Segment>, DecodeError> {
    let mut c = Cursor {
        text,
        pos: start,
        end,
    };
    let mut segments = Vec::new();
    let mut after_block = false;
    loop {
        let rest = c.rest();
        let next = [("<function_calls>", true), ("<function_results>", false)]
            .into_iter()
            .filter_map(|(tag, calls)| rest.find(tag).map(|i| (i, tag, calls)))
            .min_by_key(|(i, _, _)| *i);
        let (plain_end, block) = match next {
            Some((i, tag, calls)) => (i, Some((tag, calls))),
            None => (rest.len(), None),
        };
        let mut plain = rest.get(..plain_end).unwrap_or_default();
        if after_block {
            plain = plain.strip_prefix('\n').unwrap_or(plain);
        }
        if block.is_some() {
            plain = plain.strip_suffix('\n').unwrap_or(plain);
        }
        if !plain.is_empty() {
            segments.push(Segment::Text(plain.to_string()));
        }
        let Some((tag, calls)) = block else {
            return Ok(segments);
        };
        let at = c.pos + plain_end;
        c.pos = at + tag.len();
        if calls {
            if speaker == Speaker::Human {
                return Err(c.err(
                    at,
                    "<function_calls> in a Human turn: only the model calls tools",
                ));
            }
            segments.push(Segment::Calls(parse_calls(&mut c, at)?));
        } else {
            segments.push(Segment::Results(parse_results(&mut c, at)?));
        }
        after_block = true;
    }
}

/// Find the next turn marker at or after `from`: `(offset, marker length incl. optional
/// space, speaker)`. A document may also start with `Human:` without the blank lines.
fn next_turn(text: &str, from: usize) -> Option<(usize, usize, Speaker)> {
    let rest = text.get(from..)?;
    let mut best: Option<(usize, usize, Speaker)> = None;
    for (marker, speaker) in [(HUMAN, Speaker::Human), (ASSISTANT, Speaker::Assistant)] {
        let bare = marker.trim_start_matches('\n');
        let found = if from == 0 && rest.starts_with(bare) {
            Some((0, bare.len()))
        } else {
            rest.find(marker).map(|i| (i, marker.len()))
        };
        if let Some((i, len)) = found {
            if best.is_none_or(|(b, _, _)| from + i < b) {
                best = Some((from + i, len, speaker));
            }
        }
    }
    best.map(|(at, len, speaker)| {
        let space = usize::from(text.get(at + len..).is_some_and(|r| r.starts_with(' ')));
        (at, len + space, speaker)
    })
}

/// Parse a whole prompt.
pub fn parse_prompt(text: &str) -> Result<Prompt, DecodeError> {
    let mut prompt = Prompt::default();
    let first = next_turn(text, 0);
    let system_end = first.map_or(text.len(), |(at, _, _)| at);
    let system = text.get(..system_end).unwrap_or_default();
    match system.find("<tools>") {
        Some(open) => {
            let head = system.get(..open).unwrap_or_default();
            let (before, preamble) = match head.find("In this environment") {
                Some(i) => (
                    head.get(..i).unwrap_or_default().trim_end(),
                    head.get(i..).unwrap_or_default(),
                ),
                None => ("", head),
            };
            if preamble != PREAMBLE {
                prompt.preamble = Some(preamble.to_string());
            }
            let mut c = Cursor {
                text,
                pos: open + "<tools>".len(),
                end: system_end,
            };
            prompt.tools = Some(parse_tools(&mut c, open)?);
            let after = c.rest();
            let after = after.strip_prefix("\n\n").unwrap_or(after);
            prompt.system = [before, after]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join("\n\n");
        }
        None => prompt.system = system.to_string(),
    }
    let mut turn = first;
    while let Some((at, len, speaker)) = turn {
        let start = at + len;
        let next = next_turn(text, start);
        let end = next.map_or(text.len(), |(n, _, _)| n);
        // `\n\nAssistant:` closing the prompt: the model speaks next.
        if next.is_none()
            && speaker == Speaker::Assistant
            && start >= text.len()
            && text.ends_with("Assistant:")
        {
            prompt.cue = true;
            break;
        }
        let segments = parse_segments(text, start, end, speaker)?;
        prompt.turns.push(Turn { speaker, segments });
        turn = next;
    }
    Ok(prompt)
}

/// Parse a completion (the model's text of one turn).
pub fn parse_completion(text: &str) -> Result<Completion, DecodeError> {
    if let Some((at, _, _)) = next_turn(text, 0) {
        return Err(error_at(
            text,
            at,
            "a completion is one assistant turn: a turn marker (Human:/Assistant:) ends it",
        ));
    }
    let segments = parse_segments(text, 0, text.len(), Speaker::Assistant)?;
    if let Some(i) = segments
        .iter()
        .position(|s| matches!(s, Segment::Results(_)))
        .and_then(|_| text.find("<function_results>"))
    {
        return Err(error_at(
            text,
            i,
            "<function_results> in a completion: results come from the client, in the next prompt",
        ));
    }
    Ok(Completion { segments })
}
