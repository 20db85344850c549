//! A server's identity and tools as it lists them, and as canonical tools.
//!
//! Names: MCP allows `[A-Za-z0-9_.-]{1,128}`; the providers do not all (a `.` breaks OpenAI,
//! Anthropic and Bedrock, more than 64 characters breaks OpenAI and Bedrock, a digit first
//! breaks Gemini). A tool brought into the exchange gets a name every provider accepts, made
//! by the lint's rename rule ([`crate::schema::names::NameRule::unique`]: sanitised, then `_2`,
//! `_3`…), and [`ToolMap`] keeps which canonical name is which server's tool.

use super::Error;
use crate::model::{Extra, Tool};
use crate::schema::names::NameRule;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Who the server says it is.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ServerInfo {
    /// `serverInfo.name` (empty when the server did not say).
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
    /// `serverInfo.title`, if any.
    pub title: Option<String>,
    /// `instructions`: guidance for the model about this server.
    pub instructions: Option<String>,
    /// The protocol revision in use (`2026-07-28`, `2025-11-25`, …).
    pub protocol_version: String,
    /// The server's capabilities object.
    pub capabilities: Value,
}

impl ServerInfo {
    /// Read an `initialize` result (2025-11-25) or a `server/discover` result (2026-07-28,
    /// identity in `_meta["io.modelcontextprotocol/serverInfo"]`).
    pub fn from_result(result: &Value, protocol_version: &str) -> ServerInfo {
        let info = result
            .get("serverInfo")
            .or_else(|| result.pointer("/_meta/io.modelcontextprotocol~1serverInfo"));
        let text = |v: Option<&Value>, k: &str| {
            v.and_then(|i| i.get(k))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        ServerInfo {
            name: text(info, "name").unwrap_or_default(),
            version: text(info, "version").unwrap_or_default(),
            title: text(info, "title"),
            instructions: text(Some(result), "instructions"),
            protocol_version: protocol_version.to_string(),
            capabilities: result
                .get("capabilities")
                .cloned()
                .unwrap_or(Value::Object(Map::new())),
        }
    }
}

/// One tool as the server lists it (the spec's `Tool`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerTool {
    /// The server's name for it (what `tools/call` sends).
    pub name: String,
    /// `title`, for people.
    pub title: Option<String>,
    /// `description`, for the model.
    pub description: Option<String>,
    /// `inputSchema`.
    pub input_schema: Value,
    /// `outputSchema`, when the tool returns `structuredContent`.
    pub output_schema: Option<Value>,
    /// `icons` (as listed).
    pub icons: Vec<Value>,
    /// `annotations` (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`,
    /// `title`), as listed.
    pub annotations: Option<Value>,
    /// The tool object as listed, every field (`_meta`, `execution`, …).
    pub raw: Value,
}

impl ServerTool {
    /// Read one entry of `tools/list`'s `tools`; `at` is its pointer in the result.
    pub fn from_value(v: &Value, at: &str) -> Result<ServerTool, Error> {
        let bad = |what: &str| Error::Protocol {
            message: format!("{at}{what}"),
        };
        let o = v.as_object().ok_or_else(|| bad(": a tool is an object"))?;
        let name = o
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("/name: a string is required"))?;
        let input_schema = match o.get("inputSchema") {
            Some(s @ Value::Object(_)) => s.clone(),
            _ => return Err(bad("/inputSchema: an object is required")),
        };
        let text = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        Ok(ServerTool {
            name: name.to_string(),
            title: text("title"),
            description: text("description"),
            input_schema,
            output_schema: o.get("outputSchema").filter(|s| s.is_object()).cloned(),
            icons: o
                .get("icons")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
            annotations: o.get("annotations").filter(|a| a.is_object()).cloned(),
            raw: v.clone(),
        })
    }

    fn hint(&self, key: &str) -> Option<bool> {
        self.annotations.as_ref()?.get(key)?.as_bool()
    }

    /// `readOnlyHint` (default false).
    pub fn read_only(&self) -> bool {
        self.hint("readOnlyHint").unwrap_or(false)
    }

    /// `destructiveHint`, meaningful only when not read-only (default true).
    pub fn destructive(&self) -> bool {
        !self.read_only() && self.hint("destructiveHint").unwrap_or(true)
    }

    /// `idempotentHint` (default false).
    pub fn idempotent(&self) -> bool {
        self.hint("idempotentHint").unwrap_or(false)
    }

    /// `openWorldHint` (default true).
    pub fn open_world(&self) -> bool {
        self.hint("openWorldHint").unwrap_or(true)
    }

    /// True when a tool loop may run it without asking: only a tool marked read-only. (The
    /// hints come from the server and are not proof; a tool that is not marked read-only, or is
    /// marked destructive, always waits for a person.)
    pub fn runs_unasked(&self) -> bool {
        self.read_only()
    }

    /// The name for people: `title`, then `annotations.title`, then `name` (the spec's order).
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref()?.get("title")?.as_str())
            .unwrap_or(&self.name)
    }

    /// This tool as a canonical tool named `name`. Fields the model has no place for (`title`,
    /// `icons`, `_meta`, …) ride in `extra.mcp` by their names, as the MCP transcript format
    /// keeps them, so the MCP pane shows the tool as listed.
    pub fn to_model(&self, name: &str) -> Tool {
        let mut own = Map::new();
        if let Value::Object(o) = &self.raw {
            for (k, v) in o {
                if ![
                    "name",
                    "description",
                    "inputSchema",
                    "outputSchema",
                    "annotations",
                ]
                .contains(&k.as_str())
                {
                    own.insert(k.clone(), v.clone());
                }
            }
        }
        let mut extra = Extra::new();
        if !own.is_empty() {
            extra.insert(crate::formats::Format::Mcp.id().to_string(), own);
        }
        Tool {
            name: name.to_string(),
            description: self.description.clone(),
            input_schema: self.input_schema.clone(),
            strict: None,
            output_schema: self.output_schema.clone(),
            annotations: self.annotations.clone(),
            hosted: None,
            custom: None,
            extra,
        }
    }
}

/// Read a `tools/list` result: its tools and `nextCursor`. `have` is how many tools earlier
/// pages gave (the total is bounded by [`super::MAX_TOOLS`]).
pub fn read_list(result: &Value, have: usize) -> Result<(Vec<ServerTool>, Option<String>), Error> {
    let tools = result
        .get("tools")
        .and_then(Value::as_array)
        .ok_or(Error::Protocol {
            message: "/result/tools: an array is required".into(),
        })?;
    if have + tools.len() > super::MAX_TOOLS {
        return Err(Error::TooLarge {
            message: format!("the server lists more than {} tools", super::MAX_TOOLS),
        });
    }
    let out = tools
        .iter()
        .enumerate()
        .map(|(i, t)| ServerTool::from_value(t, &format!("/result/tools/{i}")))
        .collect::<Result<Vec<_>, _>>()?;
    let cursor = result
        .get("nextCursor")
        .and_then(Value::as_str)
        .map(str::to_string);
    Ok((out, cursor))
}

/// The name rule every provider accepts: `[A-Za-z0-9_-]`, a letter or `_` first (Gemini), at
/// most 64 characters (OpenAI, Bedrock).
pub const PROVIDER_SAFE: NameRule = NameRule {
    rule: "mcp.provider-name",
    max: 64,
    extra: &[],
    letter_first: true,
    text: "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
};

/// Which canonical tool is which server's tool.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ToolMap {
    /// One entry per tool brought in, in order.
    pub entries: Vec<Mapped>,
}

/// One canonical name and the server tool it stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mapped {
    /// The name in the exchange (what the model calls).
    pub name: String,
    /// The server it belongs to (its URL, or any key the caller uses).
    pub server: String,
    /// The server's own name for the tool (what `tools/call` sends).
    pub tool: String,
}

impl Mapped {
    /// True when the name had to change (shown to people with the reason).
    pub fn renamed(&self) -> bool {
        self.name != self.tool
    }
}

impl ToolMap {
    /// Bring `tools` of `server` in: each gets a provider-safe name unique among `taken` (the
    /// names already in the exchange) and this map's names. A server's tools added again
    /// replace its earlier entries. Returns the canonical tools, in the server's order.
    pub fn add(&mut self, server: &str, tools: &[ServerTool], taken: &[String]) -> Vec<Tool> {
        self.entries.retain(|e| e.server != server);
        let mut used: Vec<String> = taken
            .iter()
            .cloned()
            .chain(self.entries.iter().map(|e| e.name.clone()))
            .collect();
        let mut out = Vec::with_capacity(tools.len());
        for t in tools {
            let name = PROVIDER_SAFE.unique(&t.name, &used);
            used.push(name.clone());
            self.entries.push(Mapped {
                name: name.clone(),
                server: server.to_string(),
                tool: t.name.clone(),
            });
            out.push(t.to_model(&name));
        }
        out
    }

    /// The server and tool a canonical name stands for.
    pub fn resolve(&self, name: &str) -> Option<&Mapped> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Forget a server's tools.
    pub fn remove_server(&mut self, server: &str) {
        self.entries.retain(|e| e.server != server);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str) -> ServerTool {
        ServerTool::from_value(
            &json!({"name": name, "title": "T", "icons": [{"src": "data:image/png;base64,AA=="}],
                    "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}),
            "/t",
        )
        .unwrap()
    }

    #[test]
    fn names_are_provider_safe_and_unique_across_servers() {
        let mut map = ToolMap::default();
        let a = map.add(
            "http://a",
            &[tool("notes.delete"), tool("get")],
            &["get".into()],
        );
        assert_eq!(a[0].name, "notes_delete");
        assert_eq!(a[1].name, "get_2");
        let b = map.add("http://b", &[tool("notes.delete"), tool("9lives")], &[]);
        assert_eq!(b[0].name, "notes_delete_2");
        assert_eq!(b[1].name, "_9lives");
        let m = map.resolve("notes_delete_2").unwrap();
        assert_eq!(
            (m.server.as_str(), m.tool.as_str()),
            ("http://b", "notes.delete")
        );
        assert!(m.renamed());
        // Adding a server again replaces its entries.
        map.add("http://a", &[tool("x")], &[]);
        assert!(map.resolve("notes_delete").is_none());
        assert_eq!(map.entries.len(), 3);
        let long = "a".repeat(70);
        assert_eq!(PROVIDER_SAFE.unique(&long, &[]).len(), 64);
        let taken = vec!["a".repeat(64)];
        assert_eq!(
            PROVIDER_SAFE.unique(&long, &taken),
            format!("{}_2", "a".repeat(62))
        );
    }

    #[test]
    fn tool_fields_and_hints() {
        let t = tool("q");
        assert!(t.read_only() && !t.destructive() && t.runs_unasked());
        let m = t.to_model("q");
        assert_eq!(m.extra["mcp"]["title"], json!("T"));
        assert!(m.extra["mcp"].contains_key("icons"));
        let d = ServerTool::from_value(
            &json!({"name": "d", "inputSchema": {"type": "object"}}),
            "/t",
        )
        .unwrap();
        assert!(d.destructive() && !d.runs_unasked() && d.open_world() && !d.idempotent());
        assert!(ServerTool::from_value(&json!({"name": "x"}), "/tools/3")
            .unwrap_err()
            .to_string()
            .contains("/tools/3/inputSchema"));
        let info = ServerInfo::from_result(
            &json!({"capabilities": {}, "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}, "instructions": "hi"}),
            "2026-07-28",
        );
        assert_eq!((info.name.as_str(), info.version.as_str()), ("s", "1"));
        assert_eq!(info.instructions.as_deref(), Some("hi"));
    }
}
