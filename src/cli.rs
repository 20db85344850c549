//! The `toolscope` command line: the format engine without the page.
//!
//! ```text
//! toolscope formats
//! toolscope convert --to <format> [--from <format>] [--response] [FILE|-]
//! toolscope lint [--target <format>]… [--fix] [--strict] [--gemini-parameters] [FILE|-]
//! toolscope replay [--format <protocol>] [--to <format>] [--steps] [--entry <n>] [FILE|-]
//! ```
//! `canonical` names the model's own JSON, as source or target.

use crate::formats::{read_any, DecodeError, Decoded, Format, Kind, Source};
use crate::model::{Loss, LossKind};
use std::io::Read;

const USAGE: &str = "usage:
  toolscope formats
  toolscope convert --to <format> [--from <format>] [--response] [FILE|-]
  toolscope lint [--target <format>]… [--fix] [--strict] [--gemini-parameters] [FILE|-]
  toolscope replay [--format <protocol>] [--to <format>] [--steps] [--entry <n>] [FILE|-]

Formats are named by id (see `toolscope formats`); `canonical` is Toolscope's own model JSON.
convert prints the document on stdout and what the target cannot carry on stderr; the source
format is detected when --from is left out. Exit status: 0 done, 1 bad input, 2 usage.
lint validates tool-call arguments against the tool schemas and checks the tools against the
target's rules (default: the source format; every format for canonical input), one finding a
line as `<severity> <pointer>: <message> [<rule>]`; --target may be repeated. --fix prints
the fixed document in the source format and the remaining findings on stderr; with several
targets it fixes for all of them at once, or says on stderr which targets conflict and on what
(`conflict: …`). --strict offers OpenAI strict mode for tools without it. --gemini-parameters
also lists what Gemini's OpenAPI `parameters` subset would need of the schemas sent as
`parametersJsonSchema` (with --fix: rewrites them into it). Exit status 1 when an error or a
conflict remains.
replay assembles a recorded stream (SSE as captured, one JSON event per line, a HAR export —
--entry picks the exchange — or a plain response) and prints the response in the stream's own
format (--to another, or canonical); the protocol is detected unless --format names it.
--steps prints one line per event with the calls after it. Anomalies go to stderr.
Exit status 1 on unreadable input.";

/// Run with the arguments after the program name; returns the exit status.
pub fn run(args: Vec<String>) -> i32 {
    let mut out = String::new();
    let mut err = String::new();
    let stdin = || {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map(|_| s)
    };
    let code = run_with(&args, stdin, &mut out, &mut err);
    // `print!` panics on a closed pipe (`toolscope … | head`); a reader that stopped early is
    // not an error of ours, so write errors are ignored and the status stays the command's.
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    let _ = std::io::stdout().flush();
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
        err.push_str(USAGE);
        err.push('\n');
        2
    };
    match args.first().map(String::as_str) {
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
        Some("-h") | Some("--help") | Some("help") => {
            out.push_str(USAGE);
            out.push('\n');
            0
        }
        Some(other) => usage(err, &format!("unknown command {other:?}")),
        None => usage(err, ""),
    }
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
    let mut gemini_parameters = false;
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
            "--gemini-parameters" => gemini_parameters = true,
            "-h" | "--help" => return usage(err, ""),
            s if s.starts_with("--") => return usage(err, &format!("unknown option {s}")),
            s if file.is_none() => file = Some(s.to_string()),
            s => return usage(err, &format!("unexpected argument {s:?}")),
        }
    }
    let Some(text) = read_input(file.as_deref(), stdin, err) else {
        return 1;
    };
    let (decoded, source) = match read_any(&text) {
        Ok(d) => d,
        Err(e) => {
            err.push_str(&format!("toolscope: {e}\n"));
            return 1;
        }
    };
    let x = decoded.exchange;
    let explicit = !chosen.is_empty();
    let targets = match source {
        _ if explicit => chosen,
        Source::Wire(f, _) => vec![LintTarget { format: f }],
        Source::Canonical => LintTarget::all(),
    };
    if !fix {
        let mut findings = schema::check(&x, &targets, opts);
        if gemini_parameters {
            findings.extend(schema::gemini_parameters(&x));
        }
        for f in &findings {
            out.push_str(&format!("{f}\n"));
        }
        return i32::from(schema::has_errors(&findings));
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
    if gemini_parameters {
        let (fit, left) = schema::fit_gemini_parameters(&fixed);
        fixed = fit;
        remaining.extend(left);
    }
    match source {
        Source::Canonical => out.push_str(&crate::formats::json::pretty(&fixed)),
        Source::Wire(f, kind) => {
            let enc = f.encode(&fixed, kind);
            out.push_str(&enc.text);
        }
    }
    out.push('\n');
    for f in &remaining {
        err.push_str(&format!("{f}\n"));
    }
    for c in &conflicts {
        err.push_str(&format!("conflict: {c}\n"));
    }
    i32::from(schema::has_errors(&remaining) || !conflicts.is_empty())
}

fn replay_command(
    args: &[String],
    stdin: impl FnOnce() -> std::io::Result<String>,
    out: &mut String,
    err: &mut String,
    usage: impl Fn(&mut String, &str) -> i32,
) -> i32 {
    use crate::stream::replay::{LoadOptions, Replay};
    use crate::stream::Protocol;
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
        replay.walk(|i, e, state| {
            out.push_str(&format!("#{i} {}", e.label()));
            if !state.text.is_empty() {
                out.push_str(&format!(" | text: {} chars", state.text.chars().count()));
            }
            if !state.calls.is_empty() {
                out.push_str(" | calls:");
                for c in &state.calls {
                    out.push_str(&format!(" {}({})", c.name, c.arguments));
                }
            }
            out.push('\n');
        });
    } else {
        let to = to.unwrap_or(Target::Wire(replay.protocol.format()));
        let doc = match to {
            Target::Wire(f) => {
                let enc = f.encode(&a.exchange, Kind::Response);
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
        Some(path) => std::fs::read_to_string(path),
    };
    text.map_err(|e| {
        err.push_str(&format!(
            "toolscope: cannot read {}: {e}\n",
            file.unwrap_or("stdin")
        ));
    })
    .ok()
}
