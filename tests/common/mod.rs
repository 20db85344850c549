//! Shared test helpers: the canonical cases and the generator of arbitrary exchanges.
#![allow(dead_code)]

pub mod blocks;
pub mod dialect;
#[cfg(not(target_arch = "wasm32"))]
pub mod gen;
pub mod real;
pub mod reasoning;

use std::path::{Path, PathBuf};
use toolscope::model::Exchange;

/// `tests/fixtures`.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The canonical exchanges of `tests/fixtures/exchanges/`, by case name, sorted.
pub fn cases() -> Vec<(String, Exchange)> {
    let mut out = Vec::new();
    let dir = fixtures().join("exchanges");
    for entry in std::fs::read_dir(&dir).expect("tests/fixtures/exchanges") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).expect("read case");
            let x: Exchange =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((name, x));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Compare `actual` with the golden file at `path`. With `UPDATE_GOLDEN=1` the file is
/// (re)written; on a mismatch `<path>.actual` is written next to it for review and a
/// description of the mismatch is returned.
pub fn golden(path: &Path, actual: &str) -> Option<String> {
    let actual_path = PathBuf::from(format!("{}.actual", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("create golden dir");
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, actual).expect("write golden");
        let _ = std::fs::remove_file(&actual_path);
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {
            let _ = std::fs::remove_file(&actual_path);
            None
        }
        Ok(_) => {
            std::fs::write(&actual_path, actual).expect("write .actual");
            Some(format!(
                "{} differs; see {}",
                path.display(),
                actual_path.display()
            ))
        }
        Err(_) => {
            std::fs::write(&actual_path, actual).expect("write .actual");
            Some(format!(
                "{} missing (UPDATE_GOLDEN=1 to create); see {}",
                path.display(),
                actual_path.display()
            ))
        }
    }
}

use serde_json::Value;
use toolscope::formats::{Format, Kind};
use toolscope::model::diff::unexplained;
use toolscope::model::{Loss, LossKind, Message, Part, ResultContent, Role, ToolCall, ToolResult};

/// Encode `x`, decode the document again, and assert the round-trip contract: the result
/// differs from the request (or response) view of `x` only under reported losses. Returns the
/// document, the exchange read back, the encoder's losses and all losses (encoder's and
/// decoder's).
pub fn checked_trip<W: dialect::Wire>(
    format: W,
    x: &toolscope::model::Exchange,
    kind: Kind,
) -> Trip {
    try_trip(format, x, kind).unwrap_or_else(|e| panic!("{e}"))
}

/// [`checked_trip`] that says what broke the contract instead of panicking (for properties).
pub fn try_trip<W: dialect::Wire>(
    format: W,
    x: &toolscope::model::Exchange,
    kind: Kind,
) -> Result<Trip, String> {
    let (text, losses) = format.write(x, kind);
    let (back, decoded) = format
        .read(&text, kind)
        .map_err(|e| format!("own output does not decode: {e}\n{text}"))?;
    // Text formats (legacy XML) come back as a JSON string.
    let doc: Value = if format.is_text() {
        Value::String(text.clone())
    } else {
        serde_json::from_str(&text).map_err(|e| format!("own output is not JSON: {e}"))?
    };
    let mut all = losses.clone();
    all.extend(decoded);
    let expected = match kind {
        Kind::Request => x.request_view(),
        Kind::Response => x.response_view(),
    };
    let left = unexplained(&expected, &back, &all);
    if !left.is_empty() {
        return Err(format!(
            "unreported differences {left:?}\nlosses: {all:#?}\ndocument:\n{text}\nback: {}",
            serde_json::to_string_pretty(&back).unwrap_or_default()
        ));
    }
    Ok(Trip {
        doc,
        back,
        encoder: losses,
        all,
    })
}

/// What [`checked_trip`] returns.
pub struct Trip {
    /// The encoded document.
    pub doc: Value,
    /// The exchange decoded from it.
    pub back: toolscope::model::Exchange,
    /// The encoder's losses.
    pub encoder: Vec<Loss>,
    /// Encoder's and decoder's losses.
    pub all: Vec<Loss>,
}

/// True when a loss of this kind is reported at exactly this pointer.
pub fn has_loss(losses: &[Loss], kind: LossKind, pointer: &str) -> bool {
    losses
        .iter()
        .any(|l| l.kind == kind && l.pointer == pointer)
}

/// The text parts of a message, joined.
pub fn text_of(m: &Message) -> String {
    m.parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// A user message with one text part.
pub fn user(text: &str) -> Message {
    Message::new(Role::User, vec![Part::text(text)])
}

/// A tool call part.
pub fn call(id: Option<&str>, name: &str, args: Value) -> Part {
    Part::ToolCall(ToolCall::new(id.map(Into::into), name, args))
}

/// A text tool result part.
pub fn result(id: Option<&str>, text: &str) -> Part {
    Part::ToolResult(ToolResult::new(
        id.map(Into::into),
        ResultContent::Text(text.into()),
    ))
}

/// Decode a document of `format` (it must decode).
pub fn decode_doc(
    format: Format,
    doc: &Value,
    kind: Kind,
) -> (toolscope::model::Exchange, Vec<Loss>) {
    let d = format.decode(&doc.to_string(), kind).expect("decodes");
    (d.exchange, d.losses)
}

/// A pasted document decodes, and encodes back to the same JSON value.
pub fn paste_survives(
    format: Format,
    doc: Value,
    kind: Kind,
) -> (toolscope::model::Exchange, Vec<Loss>) {
    let text = serde_json::to_string_pretty(&doc).expect("text");
    let dec = format.decode(&text, kind).expect("decodes");
    let enc = format.encode(&dec.exchange, kind);
    let back: Value = serde_json::from_str(&enc.text).expect("json");
    assert_eq!(
        back, doc,
        "changed on the way back\nlosses: {:#?}",
        enc.losses
    );
    (dec.exchange, dec.losses)
}

/// `tests/fixtures/recorded`: real provider streams, one folder per wire protocol (NOTICE.md).
pub fn recorded_dir() -> PathBuf {
    fixtures().join("recorded")
}

/// `tests/fixtures/spec/mcp-2026-07-28`: the MCP schema and the specification's examples.
pub fn mcp_spec_dir() -> PathBuf {
    fixtures().join("spec/mcp-2026-07-28")
}

/// The helpers the per-format test files start with: `F`, `encode` (the checked round trip:
/// the document and the encoder's losses), `decode`, `survives` (a pasted document decodes and
/// encodes back to the same JSON value) and `exchange` (messages with the format's model).
#[macro_export]
macro_rules! format_kit {
    ($format:expr, $model:expr) => {
        const F: Format = $format;

        #[allow(dead_code)]
        fn encode(x: &Exchange, kind: Kind) -> (Value, Vec<Loss>) {
            let t = common::checked_trip(F, x, kind);
            (t.doc, t.encoder)
        }

        #[allow(dead_code)]
        fn decode(doc: &Value, kind: Kind) -> (Exchange, Vec<Loss>) {
            common::decode_doc(F, doc, kind)
        }

        #[allow(dead_code)]
        fn survives(doc: Value, kind: Kind) -> (Exchange, Vec<Loss>) {
            common::paste_survives(F, doc, kind)
        }

        #[allow(dead_code)]
        fn exchange(messages: Vec<Message>) -> Exchange {
            Exchange {
                options: Options {
                    model: Some($model.into()),
                    ..Options::default()
                },
                messages,
                ..Exchange::default()
            }
        }
    };
}

/// Assert that a loss of this kind is reported at exactly this pointer.
#[track_caller]
pub fn assert_loss(losses: &[Loss], kind: LossKind, pointer: &str) {
    assert!(
        has_loss(losses, kind, pointer),
        "no {kind:?} loss at {pointer}: {losses:#?}"
    );
}

/// Assert that each of these losses (kind, pointer) is reported.
#[track_caller]
pub fn assert_losses(losses: &[Loss], expected: &[(LossKind, &str)]) {
    for (kind, pointer) in expected {
        assert_loss(losses, *kind, pointer);
    }
}

/// An assistant message of these parts.
pub fn assistant(parts: Vec<Part>) -> Message {
    Message::new(Role::Assistant, parts)
}

/// A tool message of these parts.
pub fn tool_msg(parts: Vec<Part>) -> Message {
    Message::new(Role::Tool, parts)
}

/// A text tool result flagged as an error.
pub fn error_result(id: Option<&str>, text: &str) -> ToolResult {
    let mut r = ToolResult::new(id.map(Into::into), ResultContent::Text(text.into()));
    r.is_error = true;
    r
}

/// 1-based line and column of the first occurrence of `snippet` in `text`.
pub fn position(text: &str, snippet: &str) -> (usize, usize) {
    let offset = text.find(snippet).expect("snippet in text");
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// The strings at JSON pointer `field` of each element of the array `list`.
pub fn strs<'a>(list: &'a Value, field: &str) -> Vec<&'a str> {
    list.as_array()
        .unwrap_or_else(|| panic!("not an array: {list}"))
        .iter()
        .map(|v| {
            v.pointer(field)
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("no string at {field} in {v}"))
        })
        .collect()
}

/// Run the CLI in-process with these arguments and this standard input: (exit code, stdout,
/// stderr).
#[cfg(not(target_arch = "wasm32"))]
pub fn run_cli(args: &[&str], stdin: &str) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = String::new();
    let mut err = String::new();
    let input = stdin.to_string();
    let code = toolscope::cli::run_with(&args, move || Ok(input), &mut out, &mut err);
    (code, out, err)
}

/// The text of `tests/fixtures/<dir>/<name>`.
pub fn fixture_text(dir: &str, name: &str) -> String {
    std::fs::read_to_string(fixtures().join(dir).join(name)).expect("fixture")
}

/// Cut `text` at `cuts` (each taken modulo the length + 1), frame the pieces as SSE (or as JSON
/// lines) and feed the events to the assembler `a`.
#[cfg(not(target_arch = "wasm32"))]
pub fn feed_in_pieces<A: toolscope::stream::Assembler>(
    text: &str,
    cuts: &[usize],
    sse_framing: bool,
    mut a: A,
) -> toolscope::stream::Assembled {
    use toolscope::stream::{ndjson, sse};
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    points.sort_unstable();
    let pieces = points
        .iter()
        .scan(0, |last, &c| {
            let piece = &bytes[*last..c];
            *last = c;
            Some(piece)
        })
        .chain(std::iter::once(
            &bytes[points.last().copied().unwrap_or(0)..],
        ));
    let events = if sse_framing {
        let mut f = sse::SseFramer::new();
        let mut events: Vec<_> = pieces.flat_map(|b| f.push(b)).collect();
        events.extend(f.finish());
        events
    } else {
        let mut f = ndjson::NdjsonFramer::new();
        let mut events: Vec<_> = pieces.flat_map(|b| f.push(b)).collect();
        events.extend(f.finish());
        events
    };
    for e in &events {
        a.push(e);
    }
    a.finish()
}

/// Run `cmd` (`what` names it in messages), assert that it succeeds and return its stdout.
#[cfg(not(target_arch = "wasm32"))]
pub fn run_ok(cmd: &mut std::process::Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what} is needed for this check: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Run the CLI ([`run_cli`]) and assert that it exits with `code` and says `needle` on stderr.
#[cfg(not(target_arch = "wasm32"))]
#[track_caller]
pub fn assert_cli_fails(args: &[&str], stdin: &str, code: i32, needle: &str) {
    let (got, _, err) = run_cli(args, stdin);
    assert_eq!(got, code, "{err}");
    assert!(err.contains(needle), "{err}");
}

/// harmony's published fixtures in `tests/fixtures/cost/harmony/` (`<name>.request.json` and
/// `<name>.txt`).
pub const HARMONY_FIXTURES: [&str; 2] = [
    "render_functions_with_parameters",
    "browser_and_function_tool",
];

/// Assert that `have` holds each of `want` (separated by white space).
#[track_caller]
pub fn assert_holds_all(have: &[&str], want: &str) {
    for w in want.split_whitespace() {
        assert!(have.contains(&w), "{w} missing: {have:?}");
    }
}

/// Take every call id and every result's call id away (the Gemini shape: results are named
/// after their calls, or paired by order).
pub fn strip_ids(x: &mut toolscope::model::Exchange) {
    for p in x.messages.iter_mut().flat_map(|m| m.parts.iter_mut()) {
        match p {
            Part::ToolCall(c) => c.id = None,
            Part::ToolResult(r) => r.call_id = None,
            _ => {}
        }
    }
}

/// Assert that each of these losses is reported, as one line:
/// `assert_losses!(&losses; Added "/messages/1/parts/0/id", Dropped "/extra")`.
#[macro_export]
macro_rules! assert_losses {
    ($losses:expr; $($kind:ident $pointer:literal),+ $(,)?) => {
        $crate::common::assert_losses(
            $losses,
            &[$((toolscope::model::LossKind::$kind, $pointer)),+],
        )
    };
}

/// A tool named `name`, without a description, that takes an empty object.
pub fn bare_tool(name: &str) -> toolscope::model::Tool {
    toolscope::model::Tool {
        name: name.into(),
        description: None,
        input_schema: toolscope::model::empty_object_schema(),
        strict: None,
        output_schema: None,
        annotations: None,
        hosted: None,
        custom: None,
        extra: toolscope::model::Extra::new(),
    }
}

/// Every tool choice: the four modes, then forcing the tool `name`.
pub fn every_choice(name: &str) -> [toolscope::model::ToolChoice; 5] {
    use toolscope::model::{ChoiceMode, ToolChoice};
    [
        ToolChoice::mode(ChoiceMode::Auto),
        ToolChoice::mode(ChoiceMode::None),
        ToolChoice::mode(ChoiceMode::Required),
        ToolChoice::mode(ChoiceMode::Validated),
        ToolChoice::force(name),
    ]
}

/// Encode `x` in `format` as `kind`: the document (it must be JSON) and the losses.
pub fn encode_doc(
    format: Format,
    x: &toolscope::model::Exchange,
    kind: Kind,
) -> (Value, Vec<Loss>) {
    let e = format.encode(x, kind);
    let doc = serde_json::from_str(&e.text).expect("own output is JSON");
    (doc, e.losses)
}

/// Token usage: `input` prompt tokens, `output` completion tokens.
pub fn usage(input: u64, output: u64) -> Option<toolscope::model::Usage> {
    Some(toolscope::model::Usage {
        input_tokens: input,
        output_tokens: output,
    })
}

/// "go", then an assistant turn of an empty text and a call of `f` with id `id`.
pub fn empty_text_then_call(id: &str) -> Vec<Message> {
    let turn = vec![Part::text(""), call(Some(id), "f", serde_json::json!({}))];
    vec![user("go"), Message::new(Role::Assistant, turn)]
}

/// "Weather in Tokyo and Oslo?": `get_weather` for Tokyo (call id `a`) and for Oslo (`b`) in
/// one turn, answered Oslo first ("-3 °C", then "24 °C").
pub fn weather_round(a: &str, b: &str) -> Vec<Message> {
    use serde_json::json;
    vec![
        user("Weather in Tokyo and Oslo?"),
        Message::new(
            Role::Assistant,
            vec![
                call(Some(a), "get_weather", json!({"city": "Tokyo"})),
                call(Some(b), "get_weather", json!({"city": "Oslo"})),
            ],
        ),
        Message::new(
            Role::Tool,
            vec![result(Some(b), "-3 °C"), result(Some(a), "24 °C")],
        ),
    ]
}

/// Assert that `text` does not decode in `format` as `kind`, and that the error names the
/// format and points at `pointer` on line `line`.
#[track_caller]
pub fn assert_error_at(
    format: Format,
    text: &str,
    kind: Kind,
    pointer: &str,
    line: usize,
) -> toolscope::formats::DecodeError {
    let e = format.decode(text, kind).expect_err("an error");
    assert_eq!(e.format, Some(format.id()), "{e}");
    assert_eq!(e.pointer.as_deref(), Some(pointer), "{e}");
    assert_eq!(e.line, Some(line), "{e}");
    e
}

/// The OpenAI Chat family: `x`, a [`weather_round`] with call ids `a` and `b`, encodes without
/// a loss to one tool message per result, right after the calls and in the model's order, and
/// reads back the same (the two tool messages as one).
#[track_caller]
pub fn assert_chat_results_in_order(
    format: Format,
    x: &toolscope::model::Exchange,
    a: &str,
    b: &str,
) {
    use serde_json::json;
    let t = checked_trip(format, x, Kind::Request);
    assert!(t.encoder.is_empty(), "{:#?}", t.encoder);
    let msgs = t.doc["messages"].as_array().expect("messages");
    assert_eq!(msgs.len(), 4);
    assert_eq!(msgs[1]["tool_calls"][0]["id"], a);
    assert_eq!(msgs[1]["tool_calls"][1]["id"], b);
    let tool = |id: &str, text: &str| json!({"role": "tool", "tool_call_id": id, "content": text});
    assert_eq!(msgs[2], tool(b, "-3 °C"));
    assert_eq!(msgs[3], tool(a, "24 °C"));
    let (back, _) = decode_doc(format, &t.doc, Kind::Request);
    assert_eq!(back.messages.len(), 3);
    assert_eq!(back.messages[2].tool_results().count(), 2);
    assert_eq!(&back, x);
}

/// `question`, then one assistant turn calling each `(id, name)` without arguments, then one
/// tool message of `results`.
pub fn calls_answered(
    question: &str,
    calls: &[(&str, &str)],
    results: Vec<ToolResult>,
) -> Vec<Message> {
    let calls = calls
        .iter()
        .map(|(id, name)| call(Some(id), name, serde_json::json!({})))
        .collect();
    let results = results.into_iter().map(Part::ToolResult).collect();
    vec![
        user(question),
        Message::new(Role::Assistant, calls),
        Message::new(Role::Tool, results),
    ]
}

/// Each `(text, pointer, snippet)` fails to decode in `format` as `kind`, the error naming the
/// format and pointing at `pointer` and at the line and column where `snippet` starts.
#[track_caller]
pub fn assert_errors_at_snippets(format: Format, kind: Kind, cases: &[(&str, &str, &str)]) {
    for (text, pointer, snippet) in cases {
        let e = format.decode(text, kind).expect_err(pointer);
        assert_eq!(e.format, Some(format.id()));
        assert_eq!(e.pointer.as_deref(), Some(*pointer), "{e}");
        let (line, column) = position(text, snippet);
        assert_eq!((e.line, e.column), (Some(line), Some(column)), "{e}");
    }
}

/// Each `(text, pointer, line, message)` fails to decode in `format` as a request, the error
/// pointing at `pointer` on line `line` and saying `message`.
#[track_caller]
pub fn assert_shape_errors(format: Format, cases: &[(&str, &str, usize, &str)]) {
    for (text, pointer, line, message) in cases {
        let e = format.decode(text, Kind::Request).expect_err(pointer);
        assert_eq!(e.pointer.as_deref(), Some(*pointer), "{e}");
        assert_eq!(e.line, Some(*line), "{e}");
        assert!(e.message.contains(message), "{e}");
    }
}

/// Three calls of `get_weather` with the ids `ids` whose arguments are no plain object: invalid
/// JSON, the object `{"location": city}` spelled with odd spacing, and an array.
pub fn odd_arguments(ids: [&str; 3], city: &str) -> Vec<Part> {
    let [a, b, c] = ids.map(|id| Some(id.to_string()));
    let spelled = format!("{{ \"location\" : \"{city}\" }}");
    vec![
        Part::ToolCall(ToolCall::from_text(
            a,
            "get_weather",
            "{\"location\": \"Par",
        )),
        Part::ToolCall(ToolCall::from_text(b, "get_weather", &spelled)),
        Part::ToolCall(ToolCall::new(c, "get_weather", serde_json::json!([1, 2]))),
    ]
}

/// A block result for the call `id`: the text "chart:", then a PNG image (then `more`).
pub fn chart_result(id: &str, more: Vec<toolscope::model::Block>) -> ToolResult {
    use toolscope::model::Block;
    let mut blocks = vec![
        Block::Text {
            text: "chart:".into(),
        },
        Block::Image {
            media_type: "image/png".into(),
            data: "iVBORw0KGgo=".into(),
        },
    ];
    blocks.extend(more);
    ToolResult::new(Some(id.into()), ResultContent::Blocks(blocks))
}

/// The assistant's "Checking both.", then `get_weather` for Tokyo (call id `a`) and for Oslo
/// (`b`), with a `location` argument.
pub fn checking_both(a: &str, b: &str) -> Message {
    use serde_json::json;
    let calls = [(a, "Tokyo"), (b, "Oslo")]
        .map(|(id, city)| call(Some(id), "get_weather", json!({"location": city})));
    let mut parts = vec![Part::text("Checking both.")];
    parts.extend(calls);
    Message::new(Role::Assistant, parts)
}
