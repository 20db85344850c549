//! Serde types of the Gemini `generateContent` bodies, in the camelCase the SDK sends.
//!
//! Every struct keeps the fields Toolscope does not model in a flattened `extra` map, so a pasted
//! document comes back out unchanged. Free-form values (`args`, `response`, schemas) stay
//! [`Value`]s. The API also accepts the snake_case spelling of every field name (the official
//! docs' curl examples use it); [`normalize_request`] and [`normalize_response`] rewrite those
//! names to camelCase before the typed parse and record what they renamed.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

/// Fields of a wire object that Toolscope keeps verbatim.
pub type Fields = Map<String, Value>;

/// One field name the normaliser rewrote from snake_case.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Renamed {
    /// JSON pointer of the field under its camelCase name (parents camelCase too).
    pub pointer: String,
    /// The name as written in the document (`function_declarations`).
    pub original: String,
}

/// `POST …/models/{model}:generateContent` request body.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// System prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_instruction: Option<Content>,
    /// The conversation.
    pub contents: Vec<Content>,
    /// Tool groups (function declarations, Google Search, code execution, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<Tool>>,
    /// Function calling mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_config: Option<ToolConfig>,
    /// Sampling settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation_config: Option<GenerationConfig>,
    /// `safetySettings`, `cachedContent`, `labels`, …
    #[serde(flatten)]
    pub extra: Fields,
    /// snake_case field names rewritten while parsing (not part of the document).
    #[serde(skip)]
    pub renamed: Vec<Renamed>,
}

/// One turn (`role` `user` or `model`) or the system instruction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Content {
    /// `user` or `model` (older documents: `function`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// The parts; the API leaves an empty list out, and so does Toolscope.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
    /// Unknown content fields.
    #[serde(flatten)]
    pub extra: Fields,
}

/// One part of a content: text, a function call or response, or anything else (`inlineData`,
/// `executableCode`, thoughts…, kept in `extra`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Part {
    /// Text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The model calls a function.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_call: Option<FunctionCall>,
    /// A function's result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_response: Option<FunctionResponse>,
    /// `thoughtSignature`, `thought`, `inlineData`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `functionCall`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionCall {
    /// Call id (Gemini 3, Vertex); older models send none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Function name.
    pub name: String,
    /// Arguments, a JSON object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
    /// `partialArgs`, `willContinue`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `functionResponse`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionResponse {
    /// Id of the call answered, when the call had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Name of the function answered (required by the API).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The result, a JSON object (`{"output": …}` or `{"error": …}` by convention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<Value>,
    /// Multimodal result parts (`inlineData`, `fileData`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<Value>>,
    /// `willContinue`, `scheduling`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// One entry of `tools`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Functions the model may call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_declarations: Option<Vec<FunctionDeclaration>>,
    /// `googleSearch`, `codeExecution`, `urlContext`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `functionDeclarations[]`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionDeclaration {
    /// Function name.
    pub name: String,
    /// What it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Arguments as Gemini's OpenAPI-subset `Schema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// Arguments as full JSON Schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters_json_schema: Option<Value>,
    /// Result as a `Schema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response: Option<Value>,
    /// Result as JSON Schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_json_schema: Option<Value>,
    /// `behavior`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `toolConfig`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolConfig {
    /// How the model uses the declared functions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function_calling_config: Option<FunctionCallingConfig>,
    /// `retrievalConfig`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `toolConfig.functionCallingConfig`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionCallingConfig {
    /// `AUTO`, `ANY`, `NONE` or `VALIDATED`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Restrict `ANY`/`VALIDATED` to these functions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allowed_function_names: Option<Vec<String>>,
    /// `streamFunctionCallArguments`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `generationConfig`: the settings Toolscope models, the rest kept verbatim.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenerationConfig {
    /// Sampling temperature.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "number"
    )]
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "number"
    )]
    pub top_p: Option<f64>,
    /// Output token limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u64>,
    /// Stop sequences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_sequences: Option<Vec<String>>,
    /// `topK`, `thinkingConfig`, `responseMimeType`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// Whole floats are written as integers (`"temperature": 0`), as a JavaScript client sends them,
/// so a pasted `0` survives the trip through `f64`.
fn number<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => s.serialize_i64(*f as i64),
        Some(f) => s.serialize_f64(*f),
        None => s.serialize_none(),
    }
}

/// `generateContent` response body.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    /// Answers; Toolscope reads and writes the first.
    #[serde(default)]
    pub candidates: Vec<Candidate>,
    /// Token counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage_metadata: Option<UsageMetadata>,
    /// The model that answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_version: Option<String>,
    /// Response id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_id: Option<String>,
    /// `promptFeedback`, `createTime`, …
    #[serde(flatten)]
    pub extra: Fields,
    /// snake_case field names rewritten while parsing (not part of the document).
    #[serde(skip)]
    pub renamed: Vec<Renamed>,
}

/// One answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    /// The model's turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Content>,
    /// `STOP`, `MAX_TOKENS`, `SAFETY`, … (`STOP` also when the model calls functions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finish_reason: Option<String>,
    /// `index`, `safetyRatings`, `avgLogprobs`, …
    #[serde(flatten)]
    pub extra: Fields,
}

/// `usageMetadata`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageMetadata {
    /// Prompt tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_token_count: Option<u64>,
    /// Output tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates_token_count: Option<u64>,
    /// Everything, thoughts and tool prompts included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_token_count: Option<u64>,
    /// `thoughtsTokenCount`, `promptTokensDetails`, …
    #[serde(flatten)]
    pub extra: Fields,
}

// ---------------------------------------------------------------------------------------------
// snake_case → camelCase, structure-aware: only field names are renamed, never user data
// (property names of schemas, keys of `args`/`response`, JSON Schema keywords).

/// `function_declarations` → `functionDeclarations`.
fn camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `functionDeclarations` → `function_declarations`.
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[derive(Default)]
struct Walker {
    renamed: Vec<Renamed>,
    /// Writing back: the snake_case names (by their camelCase form) a document was written
    /// with, renamed back instead of read.
    back: Option<std::collections::HashMap<String, String>>,
}

impl Walker {
    /// Rename the snake_case field names of one object (not its values), unless the camelCase
    /// name is present too; writing back, the camelCase names of `back` to their snake_case.
    fn fields(&mut self, v: &mut Value, at: &str) {
        let Value::Object(m) = v else { return };
        if let Some(back) = &self.back {
            if !m.keys().any(|k| back.contains_key(k)) {
                return;
            }
            let old = std::mem::take(m);
            let present: std::collections::HashSet<String> = old.keys().cloned().collect();
            for (k, val) in old {
                match back.get(&k).filter(|s| !present.contains(*s)) {
                    Some(s) => m.insert(s.clone(), val),
                    None => m.insert(k, val),
                };
            }
            return;
        }
        if !m.keys().any(|k| k.contains('_')) {
            return;
        }
        let old = std::mem::take(m);
        let present: std::collections::HashSet<String> = old.keys().cloned().collect();
        for (k, val) in old {
            let new = camel(&k);
            // `foo_bar` next to `fooBar`: leave both alone rather than guess.
            if new != k && !new.is_empty() && !present.contains(&new) {
                self.renamed.push(Renamed {
                    pointer: format!("{at}/{}", crate::formats::json::escape(&new)),
                    original: k,
                });
                m.insert(new, val);
            } else {
                m.insert(k, val);
            }
        }
    }

    /// A field by its camelCase name, or by its snake_case one (writing back, the parent is
    /// renamed before its children are visited).
    fn child<'v>(v: &'v mut Value, key: &str) -> Option<&'v mut Value> {
        let m = v.as_object_mut()?;
        if m.contains_key(key) {
            m.get_mut(key)
        } else {
            m.get_mut(&snake(key))
        }
    }

    fn each(v: Option<&mut Value>, mut f: impl FnMut(&mut Value, usize)) {
        if let Some(Value::Array(items)) = v {
            for (i, item) in items.iter_mut().enumerate() {
                f(item, i);
            }
        }
    }

    fn content(&mut self, v: &mut Value, at: &str) {
        self.fields(v, at);
        if let Some(Value::Array(parts)) = Self::child(v, "parts") {
            for (i, p) in parts.iter_mut().enumerate() {
                self.part(p, &format!("{at}/parts/{i}"));
            }
        }
    }

    fn part(&mut self, v: &mut Value, at: &str) {
        self.fields(v, at);
        for key in [
            "functionCall",
            "inlineData",
            "fileData",
            "executableCode",
            "codeExecutionResult",
        ] {
            if let Some(c) = Self::child(v, key) {
                self.fields(c, &format!("{at}/{key}"));
            }
        }
        if let Some(fr) = Self::child(v, "functionResponse") {
            let at = format!("{at}/functionResponse");
            self.fields(fr, &at);
            if let Some(Value::Array(parts)) = Self::child(fr, "parts") {
                for (i, p) in parts.iter_mut().enumerate() {
                    let at = format!("{at}/parts/{i}");
                    self.fields(p, &at);
                    for key in ["inlineData", "fileData"] {
                        if let Some(c) = Self::child(p, key) {
                            self.fields(c, &format!("{at}/{key}"));
                        }
                    }
                }
            }
        }
    }

    /// A Gemini `Schema` (not JSON Schema): its keywords are proto fields. Recursion stops at
    /// [`crate::formats::json::MAX_DEPTH`] levels of schema (a parsed document never nests
    /// deeper), so no value built in code can run the stack out.
    fn schema(&mut self, v: &mut Value, at: &str, depth: usize) {
        if depth > crate::formats::json::MAX_DEPTH {
            return;
        }
        let depth = depth + 1;
        self.fields(v, at);
        if let Some(Value::Object(props)) = Self::child(v, "properties") {
            for (name, p) in props.iter_mut() {
                let at = format!("{at}/properties/{}", crate::formats::json::escape(name));
                self.schema(p, &at, depth);
            }
        }
        if let Some(items) = Self::child(v, "items") {
            self.schema(items, &format!("{at}/items"), depth);
        }
        if let Some(Value::Array(any)) = Self::child(v, "anyOf") {
            for (i, s) in any.iter_mut().enumerate() {
                self.schema(s, &format!("{at}/anyOf/{i}"), depth);
            }
        }
    }

    fn tool(&mut self, v: &mut Value, at: &str) {
        self.fields(v, at);
        if let Some(Value::Array(decls)) = Self::child(v, "functionDeclarations") {
            for (i, d) in decls.iter_mut().enumerate() {
                let at = format!("{at}/functionDeclarations/{i}");
                self.fields(d, &at);
                for key in ["parameters", "response"] {
                    if let Some(s) = Self::child(d, key) {
                        self.schema(s, &format!("{at}/{key}"), 0);
                    }
                }
            }
        }
    }
}

/// Rewrite the snake_case field names of a request document to camelCase.
pub fn normalize_request(v: &mut Value) -> Vec<Renamed> {
    let mut w = Walker::default();
    walk_request(&mut w, v);
    w.renamed
}

/// Write the field names of a request document back in the snake_case of `names` (the
/// original spellings a pasted document used).
pub fn restore_request(v: &mut Value, names: &[String]) {
    let mut w = Walker {
        back: Some(names.iter().map(|n| (camel(n), n.clone())).collect()),
        ..Walker::default()
    };
    walk_request(&mut w, v);
}

/// Write the field names of a response document back in the snake_case of `names`.
pub fn restore_response(v: &mut Value, names: &[String]) {
    let mut w = Walker {
        back: Some(names.iter().map(|n| (camel(n), n.clone())).collect()),
        ..Walker::default()
    };
    walk_response(&mut w, v);
}

fn walk_request(w: &mut Walker, v: &mut Value) {
    w.fields(v, "");
    Walker::each(Walker::child(v, "contents"), |c, i| {
        w.content(c, &format!("/contents/{i}"))
    });
    if let Some(s) = Walker::child(v, "systemInstruction") {
        w.content(s, "/systemInstruction");
    }
    Walker::each(Walker::child(v, "tools"), |t, i| {
        w.tool(t, &format!("/tools/{i}"))
    });
    if let Some(tc) = Walker::child(v, "toolConfig") {
        w.fields(tc, "/toolConfig");
        if let Some(fcc) = Walker::child(tc, "functionCallingConfig") {
            w.fields(fcc, "/toolConfig/functionCallingConfig");
        }
    }
    if let Some(gc) = Walker::child(v, "generationConfig") {
        w.fields(gc, "/generationConfig");
        if let Some(tc) = Walker::child(gc, "thinkingConfig") {
            w.fields(tc, "/generationConfig/thinkingConfig");
        }
    }
    Walker::each(Walker::child(v, "safetySettings"), |s, i| {
        w.fields(s, &format!("/safetySettings/{i}"))
    });
}

/// Rewrite the snake_case field names of a response document to camelCase.
pub fn normalize_response(v: &mut Value) -> Vec<Renamed> {
    let mut w = Walker::default();
    walk_response(&mut w, v);
    w.renamed
}

fn walk_response(w: &mut Walker, v: &mut Value) {
    w.fields(v, "");
    Walker::each(Walker::child(v, "candidates"), |c, i| {
        let at = format!("/candidates/{i}");
        w.fields(c, &at);
        if let Some(content) = Walker::child(c, "content") {
            w.content(content, &format!("{at}/content"));
        }
    });
    if let Some(u) = Walker::child(v, "usageMetadata") {
        w.fields(u, "/usageMetadata");
    }
}

/// The pointer as written in the document: camelCase names the normaliser introduced are put
/// back to the spelling the user wrote, so errors point at their text.
pub fn original_pointer(renamed: &[Renamed], pointer: &str) -> String {
    let mut p = pointer.to_string();
    let mut by_depth: Vec<&Renamed> = renamed.iter().collect();
    by_depth.sort_by_key(|r| std::cmp::Reverse(r.pointer.len()));
    for r in by_depth {
        let matches = p == r.pointer
            || p.strip_prefix(r.pointer.as_str())
                .is_some_and(|rest| rest.starts_with('/'));
        if matches {
            let parent = r.pointer.rsplit_once('/').map_or("", |(a, _)| a);
            let rest = &p[r.pointer.len()..];
            p = format!(
                "{parent}/{}{rest}",
                crate::formats::json::escape(&r.original)
            );
        }
    }
    p
}
