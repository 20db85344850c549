//! Streamed Bedrock Converse (`ConverseStream`): events `messageStart {role}`,
//! `contentBlockStart {contentBlockIndex, start: {toolUse: {toolUseId, name}}}` (text blocks
//! often start without it), `contentBlockDelta {contentBlockIndex, delta: {text} |
//! {toolUse: {input}} | {reasoningContent: {text|signature}}}`, `contentBlockStop`,
//! `messageStop {stopReason}` and `metadata {usage, metrics}` (after the stop on the wire).
//! Each event is `{"<eventType>": {...}}` as boto3 yields it (and as recorded), or the bare
//! payload with the event type as the event's name (the binary event stream's header).

use crate::stream::{
    arguments_value, get_str, get_u64, AnomalyKind, Assembler, Event, Tracker, Update,
};
use crate::stream::{fields, fragments};
use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq)]
struct Block {
    index: Option<u64>,
    kind: BlockKind,
}

#[derive(Debug, Clone, PartialEq)]
enum BlockKind {
    Text(String),
    Tool(usize, Map<String, Value>),
    Reasoning(String, Option<Value>),
    Redacted(String),
    /// A server tool's `toolResult`: its start fields and content blocks.
    Result(Map<String, Value>, Vec<Value>),
    Other(Value),
}

/// Assembler for Bedrock ConverseStream events.
#[derive(Debug, Clone, PartialEq)]
pub struct BedrockAssembler {
    t: Tracker,
    role: Option<Value>,
    blocks: Vec<Block>,
    stop: Map<String, Value>,
    metadata: Map<String, Value>,
    started: bool,
}

impl Default for BedrockAssembler {
    fn default() -> Self {
        BedrockAssembler {
            t: Tracker::new(true),
            role: None,
            blocks: Vec::new(),
            stop: Map::new(),
            metadata: Map::new(),
            started: false,
        }
    }
}

const EVENTS: [&str; 6] = [
    "messageStart",
    "contentBlockStart",
    "contentBlockDelta",
    "contentBlockStop",
    "messageStop",
    "metadata",
];

impl BedrockAssembler {
    /// A fresh assembler.
    pub fn new() -> Self {
        BedrockAssembler::default()
    }

    fn block(&mut self, index: Option<u64>) -> Option<&mut Block> {
        self.blocks.iter_mut().rev().find(|b| b.index == index)
    }

    fn delta(&mut self, index: Option<u64>, d: &Value) {
        if let Some(text) = get_str(d, "text") {
            match self.block(index) {
                Some(Block {
                    kind: BlockKind::Text(s),
                    ..
                }) => s.push_str(text),
                Some(_) => {
                    self.t.anomaly(
                        AnomalyKind::OutOfOrder,
                        "text delta for a block that is not text".into(),
                    );
                    return;
                }
                None => {
                    self.t.text_block();
                    self.blocks.push(Block {
                        index,
                        kind: BlockKind::Text(text.to_string()),
                    })
                }
            }
            self.t.text(text);
        } else if let Some(tu) = d.get("toolUse") {
            let input = get_str(tu, "input").unwrap_or("");
            let call = match self.block(index) {
                Some(Block {
                    kind: BlockKind::Tool(c, _),
                    ..
                }) => Some(*c),
                _ => None,
            };
            let call = match call {
                Some(c) => Some(c),
                None => {
                    self.t.anomaly(
                        AnomalyKind::ArgumentsBeforeName,
                        "toolUse input for a block that never started (no name, no id)".into(),
                    );
                    let c = self.t.open_call(None, "");
                    if let Some(c) = c {
                        self.blocks.push(Block {
                            index,
                            kind: BlockKind::Tool(c, Map::new()),
                        });
                    }
                    c
                }
            };
            if let Some(c) = call {
                self.t.append_args(c, input);
            }
        } else if let Some(Value::Array(items)) = d.get("toolResult") {
            match self.block(index) {
                Some(Block {
                    kind: BlockKind::Result(_, content),
                    ..
                }) => {
                    for item in items {
                        // Text arrives in pieces: consecutive pieces make one text block.
                        match (content.last_mut(), get_str(item, "text")) {
                            (Some(Value::Object(last)), Some(t))
                                if item.as_object().is_some_and(|o| o.len() == 1) =>
                            {
                                match last.get_mut("text") {
                                    Some(Value::String(s)) => s.push_str(t),
                                    _ => content.push(item.clone()),
                                }
                            }
                            _ => content.push(item.clone()),
                        }
                    }
                }
                _ => {
                    self.t.anomaly(
                        AnomalyKind::OutOfOrder,
                        "toolResult delta for a block that did not start as a toolResult".into(),
                    );
                }
            }
        } else if let Some(data) = d
            .get("reasoningContent")
            .and_then(|r| get_str(r, "redactedContent"))
        {
            // Redacted reasoning: encrypted bytes (base64 in JSON), in one delta or several.
            match self.block(index) {
                Some(Block {
                    kind: BlockKind::Redacted(s),
                    ..
                }) => s.push_str(data),
                _ => self.blocks.push(Block {
                    index,
                    kind: BlockKind::Redacted(data.to_string()),
                }),
            }
        } else if let Some(r) = d.get("reasoningContent") {
            let text = get_str(r, "text").unwrap_or("").to_string();
            let sig = r.get("signature").cloned();
            match self.block(index) {
                Some(Block {
                    kind: BlockKind::Reasoning(s, signature),
                    ..
                }) => {
                    s.push_str(&text);
                    if sig.is_some() {
                        *signature = sig;
                    }
                }
                _ => self.blocks.push(Block {
                    index,
                    kind: BlockKind::Reasoning(text.clone(), sig),
                }),
            }
            self.t.reasoning(&text);
        } else {
            self.t.unknown("contentBlockDelta/other");
            self.blocks.push(Block {
                index,
                kind: BlockKind::Other(d.clone()),
            });
        }
    }
}

impl Assembler for BedrockAssembler {
    crate::formats::assembler_basics!(crate::formats::Protocol::Bedrock);

    fn push(&mut self, event: &Event) -> Vec<Update> {
        // `metadata` follows `messageStop` on the wire: nothing is after the end here.
        self.t.begin_quiet();
        let Some(o) = self.t.read_or_report(event) else {
            return self.t.take_updates();
        };
        // `{"<type>": body}`, or a bare body named by the event.
        let (kind, body) = match event.name.as_deref() {
            Some(n) if !o.contains_key(n) => (n.to_string(), Value::Object(o)),
            _ => match o.iter().next() {
                Some((k, v)) if o.len() == 1 => (k.clone(), v.clone()),
                _ => {
                    self.t.unknown("event with several keys");
                    return self.t.take_updates();
                }
            },
        };
        let index = get_u64(&body, "contentBlockIndex");
        match kind.as_str() {
            "messageStart" => {
                if self.started {
                    self.t.anomaly(
                        AnomalyKind::DuplicateStart,
                        "messageStart repeated; the first is kept".into(),
                    );
                } else {
                    self.started = true;
                    self.role = body.get("role").cloned();
                }
            }
            "contentBlockStart" => {
                let start = body.get("start");
                if let Some(tu) = start.and_then(|s| s.get("toolUse")) {
                    let id = get_str(tu, "toolUseId").map(str::to_string);
                    let name = get_str(tu, "name").unwrap_or("");
                    if let Some(c) = self.t.open_call(id, name) {
                        let mut extra = tu.as_object().cloned().unwrap_or_default();
                        extra.remove("input");
                        self.blocks.push(Block {
                            index,
                            kind: BlockKind::Tool(c, extra),
                        });
                    }
                } else if let Some(tr) = start.and_then(|s| s.get("toolResult")) {
                    // The result of a server tool the model ran (Nova's code interpreter):
                    // its content arrives in `toolResult` deltas.
                    let fields = tr.as_object().cloned().unwrap_or_default();
                    self.blocks.push(Block {
                        index,
                        kind: BlockKind::Result(fields, Vec::new()),
                    });
                }
            }
            "contentBlockDelta" => match body.get("delta") {
                Some(d) => self.delta(index, d),
                None => self.t.anomaly(
                    AnomalyKind::Malformed,
                    "contentBlockDelta without delta".into(),
                ),
            },
            "contentBlockStop" => {
                if let Some(Block {
                    kind: BlockKind::Tool(c, _),
                    ..
                }) = self.block(index)
                {
                    let c = *c;
                    self.t.close_call(c);
                }
            }
            "messageStop" => {
                if let Some(m) = body.as_object() {
                    self.stop = m.clone();
                }
                if let Some(r) = get_str(&body, "stopReason") {
                    self.t.stop_reason = Some(r.to_string());
                }
                self.t.end();
            }
            "metadata" => {
                if let Some(m) = body.as_object() {
                    for (k, v) in m {
                        self.metadata.insert(k.clone(), v.clone());
                    }
                }
            }
            k if k.ends_with("Exception") => {
                self.t.anomaly(
                    AnomalyKind::StreamError,
                    format!(
                        "{k}: {}",
                        get_str(&body, "message").unwrap_or("the provider sent an error")
                    ),
                );
                self.t.end();
            }
            other => self.t.unknown(other),
        }
        self.t.take_updates()
    }

    fn response(&self) -> Value {
        let content: Vec<Value> = self
            .blocks
            .iter()
            .map(|b| match &b.kind {
                BlockKind::Text(s) => json!({"text": s}),
                BlockKind::Tool(c, extra) => {
                    let mut tu = extra.clone();
                    if let Some(call) = self.t.calls.get(*c) {
                        if let Some(id) = &call.id {
                            tu.insert("toolUseId".into(), json!(id));
                        }
                        tu.insert("name".into(), json!(call.name));
                        tu.insert("input".into(), arguments_value(&call.arguments));
                    }
                    json!({"toolUse": tu})
                }
                BlockKind::Reasoning(s, sig) => {
                    let mut rt = Map::new();
                    rt.insert("text".into(), json!(s));
                    if let Some(sig) = sig {
                        rt.insert("signature".into(), sig.clone());
                    }
                    json!({"reasoningContent": {"reasoningText": rt}})
                }
                BlockKind::Redacted(d) => json!({"reasoningContent": {"redactedContent": d}}),
                BlockKind::Result(fields, content) => {
                    let mut tr = fields.clone();
                    tr.insert("content".into(), Value::Array(content.clone()));
                    json!({ "toolResult": tr })
                }
                BlockKind::Other(v) => v.clone(),
            })
            .collect();
        let mut doc = Map::new();
        doc.insert(
            "output".into(),
            json!({"message": {"role": self.role.clone().unwrap_or(json!("assistant")),
                               "content": content}}),
        );
        for (k, v) in &self.stop {
            doc.insert(k.clone(), v.clone());
        }
        for (k, v) in &self.metadata {
            doc.insert(k.clone(), v.clone());
        }
        Value::Object(doc)
    }
}

/// Bedrock's event names, for detection.
pub fn is_event_name(name: &str) -> bool {
    EVENTS.contains(&name) || name.ends_with("Exception")
}

impl crate::formats::spec::Streams for super::Codec {
    type Assembler = BedrockAssembler;
    const SSE: bool = false;

    fn claims(name: Option<&str>, o: Option<&Map<String, Value>>) -> bool {
        name.is_some_and(|n| EVENTS.contains(&n))
            || o.is_some_and(|o| o.len() == 1 && o.keys().any(|k| EVENTS.contains(&k.as_str())))
    }

    fn whole_response(o: &Map<String, Value>) -> bool {
        o.contains_key("output")
    }

    fn synthesize(doc: &Value, n: usize) -> Vec<Value> {
        bedrock(doc, n)
    }
}

/// ConverseStream events for a response: `messageStart`, block deltas, `messageStop`, `metadata`.
fn bedrock(doc: &Value, n: usize) -> Vec<Value> {
    let message = doc.get("output").and_then(|o| o.get("message"));
    let role = message
        .and_then(|m| m.get("role"))
        .cloned()
        .unwrap_or(json!("assistant"));
    let mut out = vec![json!({"messageStart": {"role": role}})];
    let content = message
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array);
    for (i, block) in content.into_iter().flatten().enumerate() {
        if let Some(text) = block.get("text").and_then(Value::as_str) {
            for f in fragments(text, n) {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                                                      "delta": {"text": f}}}));
            }
        } else if let Some(tu) = block.get("toolUse") {
            let mut start = fields(tu);
            let input = start.remove("input").unwrap_or(json!({}));
            out.push(json!({"contentBlockStart": {"contentBlockIndex": i,
                                                  "start": {"toolUse": start}}}));
            let text = serde_json::to_string(&input).unwrap_or_default();
            for f in fragments(&text, n) {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                                                      "delta": {"toolUse": {"input": f}}}}));
            }
        } else if let Some(rt) = block
            .get("reasoningContent")
            .and_then(|r| r.get("reasoningText"))
        {
            let text = rt.get("text").and_then(Value::as_str).unwrap_or("");
            for f in fragments(text, n) {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                    "delta": {"reasoningContent": {"text": f}}}}));
            }
            if let Some(sig) = rt.get("signature") {
                out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                    "delta": {"reasoningContent": {"signature": sig}}}}));
            }
        } else if let Some(d) = block
            .get("reasoningContent")
            .and_then(|r| r.get("redactedContent"))
        {
            out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                "delta": {"reasoningContent": {"redactedContent": d}}}}));
        } else if let Some(tr) = block.get("toolResult") {
            let mut start = fields(tr);
            let content = start.remove("content").unwrap_or(json!([]));
            out.push(json!({"contentBlockStart": {"contentBlockIndex": i,
                                                  "start": {"toolResult": start}}}));
            for item in content.as_array().into_iter().flatten() {
                match item.get("text").and_then(Value::as_str) {
                    Some(text) if item.as_object().is_some_and(|o| o.len() == 1) => {
                        for f in fragments(text, n) {
                            out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                                "delta": {"toolResult": [{"text": f}]}}}));
                        }
                    }
                    _ => out.push(json!({"contentBlockDelta": {"contentBlockIndex": i,
                        "delta": {"toolResult": [item]}}})),
                }
            }
        } else {
            out.push(json!({"contentBlockDelta": {"contentBlockIndex": i, "delta": block}}));
        }
        out.push(json!({"contentBlockStop": {"contentBlockIndex": i}}));
    }
    let mut stop = Map::new();
    for (k, v) in fields(doc) {
        if k == "stopReason" || k == "additionalModelResponseFields" {
            stop.insert(k, v);
        }
    }
    out.push(json!({ "messageStop": stop }));
    let mut meta = Map::new();
    for (k, v) in fields(doc) {
        if matches!(
            k.as_str(),
            "usage" | "metrics" | "trace" | "performanceConfig"
        ) {
            meta.insert(k, v);
        }
    }
    if !meta.is_empty() {
        out.push(json!({ "metadata": meta }));
    }
    out
}
