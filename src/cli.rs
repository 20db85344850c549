//! The `toolscope` command line: the format engine without the page.
//!
//! ```text
//! toolscope formats [--json]
//! toolscope convert --to <format> [--from <format>] [--response] [FILE|-]
//! toolscope lint [--target <format>]… [--fix] [--strict] [--<format>-parameters] [FILE|-]
//! toolscope replay [--format <protocol>] [--to <format>] [--steps] [--entry <n>] [FILE|-]
//! toolscope render [--model <id>] [FILE|-]
//! toolscope render --template <file> [--token <name>=<value>]… [--set <name>=<JSON>]… [FILE|-]
//! toolscope tokens [--model <id>] [--rounds] [--json] [FILE|-]
//! toolscope tokens --template <file> --tokenizer <file> [--token …]… [--set …]… [--json] [FILE|-]
//! toolscope tokens --mcp <url> [--header 'Name: value']… [--model <id>] [--json]
//! toolscope mcp tools <url> [--to <format>] [--json] [--header 'Name: value']… [--transcript FILE]
//! toolscope mcp call <url> <tool> [--args <json>] [--header 'Name: value']… [--transcript FILE]
//! toolscope mcp bridge [--port N] [--origin URL] -- <command> [args]
//! ```
//! `canonical` names the model's own JSON, as source or target.

mod bridge;
mod mcp;

use crate::formats::{read_any, DecodeError, Decoded, Format, Kind, Source};
use crate::model::{Loss, LossKind};
use std::io::Read;

const USAGE: &str = "usage:
  toolscope formats [--json]
  toolscope convert --to <format> [--from <format>] [--response] [FILE|-]
  toolscope lint [--target <format>]… [--fix] [--strict] [--<format>-parameters] [FILE|-]
  toolscope replay [--format <protocol>] [--to <format>] [--steps] [--entry <n>] [FILE|-]
  toolscope render --template <file> [--token <name>=<value>]… [--set <name>=<JSON>]… [FILE|-]
  toolscope tokens --template <file> --tokenizer <file> [--token …]… [--set …]… [--json] [FILE|-]
  toolscope render [--model <id>] [FILE|-]
  toolscope tokens [--model <id>] [--rounds] [--json] [FILE|-]
  toolscope prerender [FILE|-]
  toolscope tokens --mcp <url> [--header 'Name: value']… [--model <id>] [--json]
  toolscope mcp tools <url> [--to <format>] [--json] [--header 'Name: value']… [--transcript FILE]
  toolscope mcp call <url> <tool> [--args <json>] [--header 'Name: value']… [--transcript FILE]
  toolscope mcp bridge [--port N] [--origin URL] -- <command> [args]

Formats are named by id (see `toolscope formats`); `canonical` is Toolscope's own model JSON.
convert prints the document on stdout and what the target cannot carry on stderr; the source
format is detected when --from is left out. Exit status: 0 done, 1 bad input, 2 usage.
lint validates tool-call arguments against the tool schemas and checks the tools against the
target's rules (default: the source format; every format for canonical input), one finding a
line as `<severity> <pointer>: <message> [<rule>]`; --target may be repeated. A provider's
request is also checked against that provider's conversation rules (calls and results paired
and in order, ids, turn order, tool configuration, reasoning state), pointers into the
document as given, with the provider's own error text. --fix prints
the fixed document in the source format (conversation rules fixed where the fix is
mechanical) and the remaining findings on stderr; with several
targets it fixes for all of them at once, or says on stderr which targets conflict and on what
(`conflict: …`). --strict offers {strict} strict mode for tools without it.{subsets} Exit
status 1 when an error or a conflict remains.
replay assembles a recorded stream (SSE as captured, one JSON event per line, a HAR export —
--entry picks the exchange — or a plain response) and prints the response in the stream's own
format (--to another, or canonical); the protocol is detected unless --format names it.
--steps prints one line per event with the calls after it. Anomalies go to stderr.
Exit status 1 on unreadable input.
render prints the tool definitions as the model reads them (default: the request's model, else
gpt-4o); how much of the text is known and the tool choice go to stderr.
With --template (a Hugging Face chat_template.jinja or tokenizer_config.json), render prints the
whole prompt as that chat template renders it, and tokens counts it with --tokenizer (a
tokenizer.json): tools, messages, total, exact, then what each tool adds. --token sets a special
token the template reads (bos_token=<s>); a tokenizer_config.json brings its own. --set passes
a variable as apply_chat_template's keyword arguments do (enable_thinking=false).
tokens counts the prompt tokens of any request per model (--model, else the request's model and
one model per provider family): tools, messages, total, exact or estimate and the method;
--rounds adds one line per round of the tool loop with running totals; --json prints a JSON
array. Checks for the tool set follow the table (text output).
prerender prints the page's index.html (FILE) with the first paint in it: the first example's
panes as static text, written by this engine at build time (`make dist`).
mcp talks to an MCP server over Streamable HTTP (protocol 2026-07-28, or 2025-11-25 when the
server speaks only that); --header sends a header to that server only (Authorization: Bearer …).
mcp tools lists the server's tools (--json: as listed); --to <format> prints them as that
provider's tool definitions, renamed where the provider refuses the name (each rename on
stderr). mcp call validates --args against the tool's input schema, calls it, prints the result
on stdout and its content blocks, the structuredContent check against the outputSchema and
isError on stderr (exit status 1 when the tool failed or its output does not match).
--transcript writes every JSON-RPC message exchanged, as the mcp format reads it.
tokens --mcp counts what the server's tools add to every request, per model.
mcp bridge runs a stdio MCP server and serves it on http://127.0.0.1 (a free port unless
--port) to the page at --origin (default http://127.0.0.1:8080) alone: it prints the URL and a
token to paste, refuses other origins and requests without the token, and ends the server when
it ends.";

/// The most bytes a command reads (file or stdin): the largest input any command accepts, a
/// replayed stream ([`crate::replay::MAX_INPUT`]); each command then applies its own
/// limit (documents: [`crate::formats::limits::MAX_INPUT`]) with its own message. Reading stops
/// one byte past it, so `toolscope lint < /dev/zero` ends at once instead of filling memory.
pub const READ_LIMIT: usize = {
    let (a, b) = (crate::replay::MAX_INPUT, crate::formats::limits::MAX_INPUT);
    if a > b {
        a
    } else {
        b
    }
};

/// Read `r` to the end as UTF-8 text, but never more than `limit` + 1 bytes: over `limit`
/// fails with an `InvalidData` error naming the limit.
pub fn read_limited(r: impl Read, limit: usize) -> std::io::Result<String> {
    let mut bytes = Vec::new();
    r.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "the input is over {} MiB; at most {limit} bytes are read",
                limit / (1024 * 1024)
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
    })
}

/// Run with the arguments after the program name; returns the exit status.
pub fn run(args: Vec<String>) -> i32 {
    let mut out = String::new();
    let mut err = String::new();
    let stdin = || read_limited(std::io::stdin().lock(), READ_LIMIT);
    let code = run_with(&args, stdin, &mut out, &mut err);
    // `print!` panics on a closed pipe (`toolscope … | head`); a reader that stopped early is
    // not an error of ours, so write errors are ignored and the status stays the command's.
    // Through a buffer: stdout's own is line-buffered, a syscall per line of `--steps`.
    use std::io::Write;
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let _ = stdout.write_all(out.as_bytes());
    let _ = stdout.flush();
    drop(out);
    let _ = std::io::stderr().lock().write_all(err.as_bytes());
    code
}

/// Where a document comes from or goes: a wire format or the canonical model.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    Canonical,
    Wire(Format),
}

fn target(id: &str) -> Option<Target> {
    if id == "canonical" {
        return Some(Target::Canonical);
    }
    Format::from_id(id).map(Target::Wire)
}

/// The command line over injectable I/O, so it is tested without processes.
pub fn run_with(
    args: &[String],
    stdin: impl FnOnce() -> std::io::Result<String>,
    out: &mut String,
    err: &mut String,
) -> i32 {
    let usage = |err: &mut String, msg: &str| {
        if !msg.is_empty() {
            err.push_str(&format!("toolscope: {msg}\n"));
        }
        err.push_str(&usage_text());
        err.push('\n');
        2
    };
    match args.first().map(String::as_str) {
        Some("formats") if args[1..].iter().any(|a| a == "--json") => {
            // The registry as data, for scripts and the end-to-end tests.
            let list: Vec<serde_json::Value> = Format::ALL
                .into_iter()
                .map(|f| {
                    serde_json::json!({
                        "id": f.id(),
                        "name": f.name(),
                        "protocol": f.protocol().id(),
                        "streams": crate::formats::Protocol::of_format(f).is_some(),
                        "provider": f.models().map(|p| p.id()),
                        "text": f.is_text(),
                    })
                })
                .collect();
            out.push_str(&crate::formats::json::pretty(&list));
            out.push('\n');
            0
        }
        Some("formats") => {
            out.push_str(&format!(
                "{:<18} {}\n",
                "canonical", "Toolscope canonical model"
            ));
            for f in Format::ALL {
                out.push_str(&format!("{:<18} {}\n", f.id(), f.name()));
            }
            0
        }
        Some("convert") => {
            let mut to = None;
            let mut from = None;
            let mut kind = Kind::Request;
            let mut file = None;
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--to" | "--from" => {
                        let Some(v) = it.next() else {
                            return usage(err, &format!("{a} needs a format"));
                        };
                        let Some(t) = target(v) else {
                            return usage(err, &format!("unknown format {v:?}"));
                        };
                        if a == "--to" {
                            to = Some(t);
                        } else {
                            from = Some(t);
                        }
                    }
                    "--response" => kind = Kind::Response,
                    "-h" | "--help" => return usage(err, ""),
                    s if s.starts_with("--") => return usage(err, &format!("unknown option {s}")),
                    s if file.is_none() => file = Some(s.to_string()),
                    s => return usage(err, &format!("unexpected argument {s:?}")),
                }
            }
            let Some(to) = to else {
                return usage(err, "convert needs --to <format>");
            };
            let Some(text) = read_input(file.as_deref(), stdin, err) else {
                return 1;
            };
            match convert(&text, from, to, kind) {
                Ok((doc, losses)) => {
                    out.push_str(&doc);
                    out.push('\n');
                    for l in losses {
                        err.push_str(&describe(&l));
                        err.push('\n');
                    }
                    0
                }
                Err(e) => {
                    err.push_str(&format!("toolscope: {e}\n"));
                    1
                }
            }
        }
        Some("lint") => lint_command(&args[1..], stdin, out, err, usage),
        Some("replay") => replay_command(&args[1..], stdin, out, err, usage),
        Some("render") => cost_command(true, &args[1..], stdin, out, err, usage),
        Some("tokens") => cost_command(false, &args[1..], stdin, out, err, usage),
        Some("mcp") => match mcp::command(&args[1..], out, err) {
            Ok(code) => code,
            Err(msg) => usage(err, &msg),
        },
        Some("prerender") => {
            let Some(html) = read_input(args.get(1).map(String::as_str), stdin, err) else {
                return 1;
            };
            let x = crate::prerender::first_exchange();
            match crate::prerender::into_index(&html, &x) {
                Ok(page) => {
                    out.push_str(&page);
                    0
                }
                Err(e) => {
                    err.push_str(&format!("toolscope: {e}\n"));
                    1
                }
            }
        }
        Some("-h") | Some("--help") | Some("help") => {
            out.push_str(&usage_text());
            out.push('\n');
            0
        }
        Some(other) => usage(err, &format!("unknown command {other:?}")),
        None => usage(err, ""),
    }
}

/// [`USAGE`] with the names the registry gives: whose strict mode `--strict` offers.
fn usage_text() -> String {
    let strict = Format::ALL
        .into_iter()
        .filter(|f| f.lint_target().offers_strict)
        .find_map(Format::models)
        .map_or("the target's", |p| p.name());
    let subsets: String = Format::ALL
        .into_iter()
        .filter_map(|f| f.parameters_subset().map(|s| (f, s)))
        .map(|(f, s)| {
            format!(
                "\n--{}-parameters also lists what {}'s {} subset would need of the\n\
                 schemas it sends (with --fix: rewrites them into it).",
                f.id(),
                f.models().map_or(f.name(), |p| p.name()),
                s.what
            )
        })
        .collect();
    USAGE
        .replace("{strict}", strict)
        .replace("{subsets}", &subsets)
}

/// The schema subset `--<format id>-parameters` names, when that format has one.
fn subset_flag(arg: &str) -> Option<crate::formats::spec::Subset> {
    let id = arg.strip_prefix("--")?.strip_suffix("-parameters")?;
    Format::from_id(id)?.parameters_subset()
}

fn lint_command(
    args: &[String],
    stdin: impl FnOnce() -> std::io::Result<String>,
    out: &mut String,
    err: &mut String,
    usage: impl Fn(&mut String, &str) -> i32,
) -> i32 {
    use crate::schema::{self, LintOptions, Target as LintTarget};
    let mut chosen: Vec<LintTarget> = Vec::new();
    let mut fix = false;
    // The formats whose `--<id>-parameters` was given (a narrower schema subset to check).
    let mut subsets: Vec<crate::formats::spec::Subset> = Vec::new();
    let mut opts = LintOptions::default();
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--target" => {
                let Some(v) = it.next() else {
                    return usage(err, "--target needs a format");
                };
                let Some(t) = LintTarget::from_id(v) else {
                    return usage(err, &format!("unknown target {v:?}"));
                };
                if !chosen.contains(&t) {
                    chosen.push(t);
                }
            }
            "--fix" => fix = true,
            "--strict" => opts.make_strict = true,
            "-h" | "--help" => return usage(err, ""),
            s if s.starts_with("--") => match subset_flag(s) {
                Some(subset) => subsets.push(subset),
                None => return usage(err, &format!("unknown option {s}")),
            },
            s if file.is_none() => file = Some(s.to_string()),
            s => return usage(err, &format!("unexpected argument {s:?}")),
        }
    }
    let Some(text) = read_input(file.as_deref(), stdin, err) else {
        return 1;
    };
    // The provider's conversation rules read the document as written, before (and even when
    // not) it decodes into the model.
    let value = serde_json::from_str::<serde_json::Value>(&text).ok();
    let rule_findings = |format: Format| -> Vec<crate::rules::Finding> {
        value
            .as_ref()
            .map(|v| format.rules().check(v))
            .unwrap_or_default()
    };
    let (decoded, source) = match read_any(&text) {
        Ok(d) => d,
        Err(e) => {
            // Not readable as a whole, but perhaps recognisably some provider's request: its
            // rules still say what that provider will reject.
            if let Ok((f, Kind::Request)) = Format::detect(&text) {
                for r in rule_findings(f) {
                    out.push_str(&format!("{r}\n"));
                }
            }
            err.push_str(&format!("toolscope: {e}\n"));
            return 1;
        }
    };
    let wire_request = match source {
        Source::Wire(f, Kind::Request) => Some(f),
        _ => None,
    };
    let x = decoded.exchange;
    let explicit = !chosen.is_empty();
    let targets = match source {
        _ if explicit => chosen,
        Source::Wire(f, _) => vec![f.lint_target()],
        Source::Canonical => LintTarget::all(),
    };
    if !fix {
        let mut findings = schema::check(&x, &targets, opts);
        for subset in &subsets {
            findings.extend((subset.check)(&x));
        }
        for f in &findings {
            out.push_str(&format!("{f}\n"));
        }
        let rules = wire_request.map(rule_findings).unwrap_or_default();
        for r in &rules {
            out.push_str(&format!("{r}\n"));
        }
        return i32::from(schema::has_errors(&findings) || crate::rules::has_errors(&rules));
    }
    if matches!(source, Source::Canonical) && !explicit {
        return usage(err, "--fix on a canonical document needs --target <format>");
    }
    let (mut fixed, mut remaining, conflicts) = match targets.as_slice() {
        [t] => {
            let (fixed, remaining) = schema::fix_all(&x, *t, opts);
            (fixed, remaining, Vec::new())
        }
        // Several targets: one document that passes all of them, or what conflicts.
        many => {
            let r = schema::fix_for_targets(&x, many, opts);
            let mut remaining: Vec<schema::Finding> = Vec::new();
            for (_, f) in r.remaining {
                let dup = remaining
                    .iter()
                    .any(|o| o.pointer == f.pointer && o.rule == f.rule && o.message == f.message);
                if !dup {
                    remaining.push(f);
                }
            }
            (r.exchange, remaining, r.conflicts)
        }
    };
    for subset in &subsets {
        let (fit, left) = (subset.fit)(&fixed);
        fixed = fit;
        remaining.extend(left);
    }
    let mut rules_left = Vec::new();
    match source {
        Source::Canonical => out.push_str(&crate::formats::json::pretty(&fixed)),
        Source::Wire(f, kind) => {
            let enc = f.encode(&fixed, kind);
            // The provider's conversation rules fix the document as it will be sent.
            match serde_json::from_str::<serde_json::Value>(&enc.text) {
                Ok(mut doc) if kind == Kind::Request && !f.is_text() => {
                    f.rules().fix_all(&mut doc);
                    rules_left = f.rules().check(&doc);
                    out.push_str(&crate::formats::json::pretty(&doc));
                }
                _ => out.push_str(&enc.text),
            }
        }
    }
    out.push('\n');
    for f in &remaining {
        err.push_str(&format!("{f}\n"));
    }
    for r in &rules_left {
        err.push_str(&format!("{r}\n"));
    }
    for c in &conflicts {
        err.push_str(&format!("conflict: {c}\n"));
    }
    i32::from(
        schema::has_errors(&remaining)
            || crate::rules::has_errors(&rules_left)
            || !conflicts.is_empty(),
    )
}

fn replay_command(
    args: &[String],
    stdin: impl FnOnce() -> std::io::Result<String>,
    out: &mut String,
    err: &mut String,
    usage: impl Fn(&mut String, &str) -> i32,
) -> i32 {
    use crate::formats::Protocol;
    use crate::replay::{LoadOptions, Replay};
    let mut opts = LoadOptions::default();
    let mut to = None;
    let mut steps = false;
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--format" => {
                let Some(v) = it.next() else {
                    return usage(err, "--format needs a protocol");
                };
                let Some(p) = Protocol::from_id(v) else {
                    return usage(err, &format!("{v:?} is not a streaming protocol"));
                };
                opts.protocol = Some(p);
            }
            "--to" => {
                let Some(v) = it.next() else {
                    return usage(err, "--to needs a format");
                };
                let Some(t) = target(v) else {
                    return usage(err, &format!("unknown format {v:?}"));
                };
                to = Some(t);
            }
            "--entry" => {
                let Some(n) = it.next().and_then(|v| v.parse().ok()) else {
                    return usage(err, "--entry needs a number");
                };
                opts.har_entry = Some(n);
            }
            "--steps" => steps = true,
            "-h" | "--help" => return usage(err, ""),
            s if s.starts_with("--") => return usage(err, &format!("unknown option {s}")),
            s if file.is_none() => file = Some(s.to_string()),
            s => return usage(err, &format!("unexpected argument {s:?}")),
        }
    }
    let Some(text) = read_input(file.as_deref(), stdin, err) else {
        return 1;
    };
    let replay = match Replay::load(&text, opts) {
        Ok(r) => r,
        Err(e) => {
            err.push_str(&format!(
                "toolscope: {}: {e}\n",
                file.as_deref().unwrap_or("stdin")
            ));
            return 1;
        }
    };
    let a = &replay.assembled;
    if steps {
        steps_lines(&replay, out);
    } else {
        let to = to.unwrap_or(Target::Wire(replay.protocol.format()));
        let doc = match to {
            Target::Wire(f) => {
                // An MCP capture assembles into a transcript: written as a conversation.
                let enc = f.encode(&a.exchange, replay.protocol.kind_of(&a.response));
                for l in &enc.losses {
                    err.push_str(&describe(l));
                    err.push('\n');
                }
                enc.text
            }
            Target::Canonical => crate::formats::json::pretty(&a.exchange),
        };
        out.push_str(&doc);
        out.push('\n');
    }
    err.push_str(&format!(
        "replayed {} events as {}{}\n",
        replay.len(),
        replay.protocol.id(),
        if a.complete { "" } else { " (incomplete)" }
    ));
    for an in &a.anomalies {
        err.push_str(&format!(
            "anomaly #{} {}: {}\n",
            an.step,
            an.kind.id(),
            an.message
        ));
    }
    0
}

/// Most calls listed on one `--steps` line; the others are counted.
const STEP_CALLS: usize = 4;
/// Characters of a call's arguments (the end, where they grow) and of a name or event label
/// shown on one `--steps` line.
const STEP_PREVIEW: usize = 80;

/// `--steps`: one line per event, each bounded (a label, the text length, the calls that
/// changed with the end of their arguments), so the output grows with the events, not with
/// events × argument length. Reads the assembler's bookkeeping instead of cloning its state.
fn steps_lines(replay: &crate::replay::Replay, out: &mut String) {
    use crate::stream::Assembler;
    use std::fmt::Write;
    let mut a = replay.assembler_after(0);
    let mut seen: Vec<(usize, usize)> = Vec::new();
    let (mut text_bytes, mut text_chars) = (0usize, 0usize);
    for (i, e) in replay.events.iter().enumerate() {
        a.push(e);
        let t = a.tracker();
        let _ = write!(
            out,
            "#{i} {}",
            tail_preview(&e.label(), STEP_PREVIEW, false)
        );
        // Text only grows; count the new part's characters, not the whole text each time.
        match t.text.get(text_bytes..) {
            Some(new) => text_chars += new.chars().count(),
            None => text_chars = t.text.chars().count(),
        }
        text_bytes = t.text.len();
        if !t.text.is_empty() {
            let _ = write!(out, " | text: {text_chars} chars");
        }
        let changed: Vec<usize> = (0..t.calls.len())
            .filter(|&k| {
                let c = &t.calls[k];
                seen.get(k) != Some(&(c.name.len(), c.arguments.len()))
            })
            .collect();
        seen = t
            .calls
            .iter()
            .map(|c| (c.name.len(), c.arguments.len()))
            .collect();
        // Few calls: all of them, as they stand; many: the ones this event touched.
        let shown: Vec<usize> = if t.calls.len() <= STEP_CALLS {
            (0..t.calls.len()).collect()
        } else {
            changed
        };
        if !shown.is_empty() {
            out.push_str(" | calls:");
            for &k in shown.iter().take(STEP_CALLS) {
                let c = &t.calls[k];
                let _ = write!(
                    out,
                    " {}({})",
                    tail_preview(&c.name, STEP_PREVIEW, false),
                    tail_preview(&c.arguments, STEP_PREVIEW, true)
                );
            }
            if shown.len() > STEP_CALLS {
                let _ = write!(out, " +{} more", shown.len() - STEP_CALLS);
            }
        }
        out.push('\n');
    }
}

/// `text` when it has at most `max` characters; else its first (`from_end`: last) `max`
/// characters with `…` and the whole length in bytes. Never walks more than `max` characters.
fn tail_preview(text: &str, max: usize, from_end: bool) -> String {
    let cut = if from_end {
        text.char_indices()
            .rev()
            .nth(max)
            .map(|(i, c)| i + c.len_utf8())
    } else {
        text.char_indices().nth(max).map(|(i, _)| i)
    };
    let clean = |s: &str| s.replace(['\n', '\r'], " ");
    match cut {
        None => clean(text),
        Some(at) if from_end => format!("…{} [{} bytes]", clean(&text[at..]), text.len()),
        Some(at) => format!("{}… [{} bytes]", clean(&text[..at]), text.len()),
    }
}

/// `render` (tool text for one model) and `tokens` (counts per model).
fn cost_command(
    render: bool,
    args: &[String],
    stdin: impl FnOnce() -> std::io::Result<String>,
    out: &mut String,
    err: &mut String,
    usage: impl Fn(&mut String, &str) -> i32,
) -> i32 {
    use crate::cost::{self, checks, Vocabs};
    let mut model = None;
    let mut show_rounds = false;
    let mut json = false;
    let mut file = None;
    let mut hf = HfFiles::default();
    let mut mcp_url: Option<String> = None;
    let mut mcp_headers = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--mcp" if !render => match it.next() {
                Some(u) => mcp_url = Some(u.clone()),
                None => return usage(err, "--mcp needs the server URL"),
            },
            "--header" | "-H" if !render => match it.next().and_then(|h| mcp::parse_header(h)) {
                Some(h) => mcp_headers.push(h),
                None => return usage(err, "--header needs 'Name: value'"),
            },
            "--model" => {
                let Some(v) = it.next().filter(|v| !v.is_empty()) else {
                    return usage(err, "--model needs a model id");
                };
                model = Some(v.clone());
            }
            "--template" | "--tokenizer" => {
                let Some(v) = it.next().filter(|v| !v.is_empty()) else {
                    return usage(err, &format!("{a} needs a file"));
                };
                if a == "--template" {
                    hf.template = Some(v.clone());
                } else {
                    hf.tokenizer = Some(v.clone());
                }
            }
            "--token" => {
                let Some((k, v)) = it.next().and_then(|v| v.split_once('=')) else {
                    return usage(err, "--token needs <name>=<value> (bos_token=<s>)");
                };
                hf.tokens.push((k.to_string(), v.to_string()));
            }
            "--set" => {
                let parsed = it
                    .next()
                    .and_then(|v| v.split_once('='))
                    .and_then(|(k, v)| Some((k.to_string(), serde_json::from_str(v).ok()?)));
                let Some((k, v)) = parsed else {
                    return usage(err, "--set needs <name>=<JSON> (enable_thinking=false)");
                };
                hf.kwargs.insert(k, v);
            }
            "--rounds" if !render => show_rounds = true,
            "--json" if !render => json = true,
            "-h" | "--help" => return usage(err, ""),
            s if s.starts_with("--") => return usage(err, &format!("unknown option {s}")),
            s if file.is_none() => file = Some(s.to_string()),
            s => return usage(err, &format!("unexpected argument {s:?}")),
        }
    }
    if hf.template.is_none()
        && (hf.tokenizer.is_some() || !hf.tokens.is_empty() || !hf.kwargs.is_empty())
    {
        return usage(err, "--tokenizer, --token and --set go with --template");
    }
    if hf.template.is_some() {
        if model.is_some() || show_rounds {
            return usage(
                err,
                "--template renders one model's own prompt: no --model, --rounds",
            );
        }
        if !render && hf.tokenizer.is_none() {
            return usage(err, "tokens --template needs --tokenizer <tokenizer.json>");
        }
    }
    if mcp_url.is_some() && (file.is_some() || hf.template.is_some()) {
        return usage(err, "--mcp counts a server's tools: no FILE, no --template");
    }
    if !mcp_headers.is_empty() && mcp_url.is_none() {
        return usage(err, "--header goes with --mcp");
    }
    let (x, source) = if let Some(url) = &mcp_url {
        match mcp::tokens_exchange(url, &mcp_headers, err) {
            Ok(x) => (x, None),
            Err(e) => {
                err.push_str(&format!("toolscope: {e}\n"));
                return 1;
            }
        }
    } else {
        let Some(text) = read_input(file.as_deref(), stdin, err) else {
            return 1;
        };
        match read_any(&text) {
            Ok((d, Source::Wire(f, _))) => (d.exchange, Some(f)),
            Ok((d, Source::Canonical)) => (d.exchange, None),
            // Counting also reads Chat Completions bodies the decoder refuses (a legacy `function`
            // result without its call), as the published counts include them.
            Err(e) => match Format::read_lenient(&text) {
                Some((x, f)) => (x, Some(f)),
                None => {
                    err.push_str(&format!("toolscope: {e}\n"));
                    return 1;
                }
            },
        }
    };
    if hf.template.is_some() {
        return hf_command(render, json, &hf, &x, out, err);
    }
    let vocabs = Vocabs::builtin();
    if render {
        let id = model
            .or_else(|| x.options.model.clone())
            .unwrap_or_else(|| "gpt-4o".to_string());
        let r = cost::render(&x, &id);
        out.push_str(&r.text);
        if !r.text.is_empty() {
            out.push('\n');
        }
        err.push_str(&format!(
            "{} ({}): {} — {}\n",
            r.model,
            r.family.id(),
            r.known.as_str(),
            r.note
        ));
        if let Some(c) = r.choice {
            err.push_str(&format!("{c}\n"));
        }
        return 0;
    }
    let models: Vec<String> = match model {
        Some(m) => vec![m],
        None => {
            let mut v: Vec<String> = x.options.model.iter().cloned().collect();
            for m in cost::representative() {
                if !v.iter().any(|x| x == m) {
                    v.push(m.to_string());
                }
            }
            v
        }
    };
    if json {
        let rows: Vec<serde_json::Value> = models
            .iter()
            .map(|m| {
                let c = cost::count_in(&x, m, &vocabs, source);
                let mut v = serde_json::to_value(&c).unwrap_or_default();
                if show_rounds {
                    let (rs, _, _) = cost::rounds_in(&x, m, &vocabs, source);
                    if let Some(o) = v.as_object_mut() {
                        o.insert(
                            "rounds".into(),
                            serde_json::to_value(rs).unwrap_or_default(),
                        );
                    }
                }
                v
            })
            .collect();
        out.push_str(&crate::formats::json::pretty(&rows));
        out.push('\n');
        return 0;
    }
    out.push_str(&count_row(None));
    for m in &models {
        let c = cost::count_in(&x, m, &vocabs, source);
        out.push_str(&count_row(Some(&c)));
        if show_rounds {
            let (rs, _, _) = cost::rounds_in(&x, m, &vocabs, source);
            for r in rs {
                out.push_str(&format!(
                    "  round {:>3}: {:>4} messages, prompt {:>8}, tools {:>7} ({:>3.0} %), running total {:>9} (tools {})\n",
                    r.round,
                    r.messages,
                    r.prompt,
                    r.tools,
                    if r.prompt > 0 { r.tools as f64 * 100.0 / r.prompt as f64 } else { 0.0 },
                    r.running_total,
                    r.running_tools
                ));
            }
        }
    }
    if let Some(first) = models.first() {
        let c = cost::count_in(&x, first, &vocabs, source);
        let findings = checks::check(&x, &c, checks::Limits::default());
        if !findings.is_empty() {
            out.push('\n');
            for f in findings {
                out.push_str(&format!("{f}\n"));
            }
        }
    }
    0
}

/// One line of the `tokens` table: a count, or the header for `None`.
fn count_row(c: Option<&crate::cost::Count>) -> String {
    let Some(c) = c else {
        return format!(
            "{:<24} {:>8} {:>9} {:>8}  {:<8} method\n",
            "model", "tools", "messages", "total", "exact"
        );
    };
    format!(
        "{:<24} {:>8} {:>9} {:>8}  {:<8} {}\n",
        c.model,
        c.tools,
        c.messages,
        c.total,
        if c.exact { "exact" } else { "estimate" },
        c.method
    )
}

/// The files of `render`/`tokens --template`.
#[derive(Default)]
struct HfFiles {
    template: Option<String>,
    tokenizer: Option<String>,
    tokens: Vec<(String, String)>,
    kwargs: serde_json::Map<String, serde_json::Value>,
}

/// Largest tokenizer_config.json or chat template read (configs list their added tokens).
const HF_CONFIG_LIMIT: usize = 8 << 20;

/// `render --template` / `tokens --template --tokenizer`: a Hugging Face model's own prompt.
fn hf_command(
    render: bool,
    json: bool,
    files: &HfFiles,
    x: &crate::model::Exchange,
    out: &mut String,
    err: &mut String,
) -> i32 {
    use crate::cost::hf::{self, RenderOptions, Template, Tokenizer};
    let read = |path: &str, limit: usize, err: &mut String| -> Option<String> {
        std::fs::File::open(path)
            .and_then(|f| read_limited(f, limit))
            .map_err(|e| err.push_str(&format!("toolscope: cannot read {path}: {e}\n")))
            .ok()
    };
    let Some(tpath) = files.template.as_deref() else {
        return 2;
    };
    let Some(src) = read(tpath, HF_CONFIG_LIMIT, err) else {
        return 1;
    };
    // A tokenizer_config.json is a JSON object; anything else is the template itself.
    let is_config = serde_json::from_str::<serde_json::Value>(&src).is_ok_and(|v| v.is_object());
    let template = if is_config {
        Template::from_tokenizer_config(&src)
    } else {
        Template::from_jinja(&src)
    };
    let mut template = match template {
        Ok(t) => t,
        Err(e) => {
            err.push_str(&format!("toolscope: {tpath}: {e}\n"));
            return 1;
        }
    };
    for (k, v) in &files.tokens {
        template = template.with_token(k, v);
    }
    let options = RenderOptions {
        kwargs: files.kwargs.clone(),
        ..RenderOptions::default()
    };
    if render {
        return match template.render_with(x, &options) {
            Ok(text) => {
                out.push_str(&text);
                err.push_str(&format!(
                    "{tpath}: {} bytes, add_generation_prompt {}\n",
                    text.len(),
                    x.messages
                        .last()
                        .is_none_or(|m| m.role != crate::model::Role::Assistant)
                ));
                0
            }
            Err(e) => {
                err.push_str(&format!("toolscope: {tpath}: {e}\n"));
                1
            }
        };
    }
    let Some(kpath) = files.tokenizer.as_deref() else {
        return 2;
    };
    let Some(ktext) = read(kpath, hf::tokenizer::MAX_JSON, err) else {
        return 1;
    };
    let tokenizer = match Tokenizer::from_json(&ktext) {
        Ok(t) => t,
        Err(e) => {
            err.push_str(&format!("toolscope: {kpath}: {e}\n"));
            return 1;
        }
    };
    // The model's folder for the Hub's file names, else the template's own name.
    let p = std::path::Path::new(tpath);
    let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
    let label = match stem.as_deref() {
        Some("tokenizer_config" | "chat_template") | None => p
            .parent()
            .and_then(|d| d.file_name())
            .map_or_else(|| tpath.to_string(), |d| d.to_string_lossy().into_owned()),
        Some(s) => s.to_string(),
    };
    let counted = hf::count(&template, &tokenizer, x, &options, &label)
        .and_then(|c| Ok((c, hf::tool_counts(&template, &tokenizer, x, &options)?)));
    let (c, per_tool) = match counted {
        Ok(v) => v,
        Err(e) => {
            err.push_str(&format!("toolscope: {tpath}: {e}\n"));
            return 1;
        }
    };
    if json {
        let mut v = serde_json::to_value(&c).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            o.insert(
                "per_tool".into(),
                per_tool
                    .iter()
                    .map(|(name, n)| serde_json::json!({"name": name, "tokens": n}))
                    .collect(),
            );
        }
        out.push_str(&crate::formats::json::pretty(&v));
        out.push('\n');
        return 0;
    }
    out.push_str(&count_row(None));
    out.push_str(&count_row(Some(&c)));
    for (name, n) in per_tool {
        out.push_str(&format!("  tool {name}: {n}\n"));
    }
    0
}

fn convert(
    text: &str,
    from: Option<Target>,
    to: Target,
    kind: Kind,
) -> Result<(String, Vec<Loss>), DecodeError> {
    let (
        Decoded {
            exchange,
            losses: mut all,
        },
        kind,
    ) = match from {
        Some(Target::Wire(f)) => (f.decode(text, kind)?, kind),
        Some(Target::Canonical) => (
            Decoded {
                exchange: crate::formats::json::parse("canonical", text)?,
                losses: Vec::new(),
            },
            kind,
        ),
        None => {
            let (decoded, source) = read_any(text)?;
            // Any prose reads as a legacy-XML completion; as on the page, it is not a document.
            if let Source::Wire(f, _) = source {
                if crate::edit::is_mere_prose(f, text) {
                    return Err(DecodeError {
                        format: None,
                        pointer: None,
                        line: None,
                        column: None,
                        message: format!(
                            "not a document of a format Toolscope reads (plain text with no \
                             legacy-XML markers; name it with --from {} to read it as a \
                             completion)",
                            f.id()
                        ),
                    });
                }
            }
            let kind = match source {
                Source::Wire(_, k) => k,
                Source::Canonical => kind,
            };
            (decoded, kind)
        }
    };
    let doc = match to {
        Target::Wire(f) => {
            let enc = f.encode(&exchange, kind);
            all.extend(enc.losses);
            enc.text
        }
        Target::Canonical => crate::formats::json::pretty(&exchange),
    };
    Ok((doc, all))
}

/// One loss as a line: `dropped /messages/1/parts/0/is_error: is_error flag (why)`.
pub fn describe(l: &Loss) -> String {
    let kind = match l.kind {
        LossKind::Dropped => "dropped",
        LossKind::Rewritten => "rewritten",
        LossKind::Added => "added",
        LossKind::Note => "note",
        LossKind::Reasoning => "reasoning dropped",
    };
    let at = l
        .target
        .as_deref()
        .map(|t| format!(" -> {t}"))
        .unwrap_or_default();
    format!("{kind} {}{at}: {} ({})", l.pointer, l.what, l.why)
}

/// The input of a command: the file, or stdin for none or `-`. On failure the reason goes to
/// `err` and the command exits 1.
fn read_input(
    file: Option<&str>,
    stdin: impl FnOnce() -> std::io::Result<String>,
    err: &mut String,
) -> Option<String> {
    let text = match file {
        None | Some("-") => stdin(),
        Some(path) => std::fs::File::open(path).and_then(|f| read_limited(f, READ_LIMIT)),
    };
    text.map_err(|e| {
        err.push_str(&format!(
            "toolscope: cannot read {}: {e}\n",
            file.unwrap_or("stdin")
        ));
    })
    .ok()
}
