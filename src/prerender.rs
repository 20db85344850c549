//! The page's first paint, written at build time by the native engine (`toolscope prerender`):
//! the top bar, a summary of the first example and every format pane with its text, in the
//! app's own classes, so the first HTML bytes already show the product. The wasm app removes
//! this shell (`#prerender`) in the same task as it mounts, so nothing flashes.

use crate::examples::EXAMPLES;
use crate::formats::{notes, read_any, Format, Kind};
use crate::model::{Exchange, Loss, Part, Role};
use crate::schema::{self, Finding, LintOptions, Severity, Target};
use serde::{Deserialize, Serialize};

/// The id of the static shell's root element (the wasm removes it before mounting).
pub const ROOT_ID: &str = "prerender";

/// The id of the first view's data (`<script type="application/json">` after the shell): what
/// the engine computed at build time for the first example, so the app can show its panes
/// before the part of the wasm that encodes and checks has arrived (`scripts/split.mjs`).
pub const FIRST_VIEW_ID: &str = "first-view";

/// What the first view shows that only the engine computes: every pane of the first example's
/// request, and the checks of its calls against their tools' schemas.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstView {
    /// Every format's pane, in `Format::ALL` order.
    pub panes: Vec<FirstPane>,
    /// Every call checked against its tool's schema (`schema::validate_arguments`).
    pub arguments: Vec<Finding>,
}

/// One pane of the first view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FirstPane {
    /// The format's id (`openai-chat`).
    pub format: String,
    /// The request as the format's encoder writes it.
    pub text: String,
    /// What the encoding could not carry.
    pub losses: Vec<Loss>,
    /// The format's own checks (`schema::lint`), without the argument checks.
    pub lints: Vec<Finding>,
}

impl FirstView {
    /// The first view of the exchange `x` (the request view).
    pub fn of(x: &Exchange) -> FirstView {
        let panes = Format::ALL
            .iter()
            .map(|&f| {
                let e = f.encode(x, Kind::Request);
                FirstPane {
                    format: f.id().to_string(),
                    text: e.text,
                    losses: e.losses,
                    lints: Target::from_id(f.id())
                        .map(|t| schema::lint(x, t, LintOptions::for_pane(f)))
                        .unwrap_or_default(),
                }
            })
            .collect();
        FirstView {
            panes,
            arguments: schema::validate_arguments(x),
        }
    }

    /// The pane of format `f`.
    pub fn pane(&self, f: Format) -> Option<&FirstPane> {
        self.panes.iter().find(|p| p.format == f.id())
    }

    /// As the content of a `<script type="application/json">`: every `<` escaped (`\u003c`),
    /// so no text in it can close the element or open a comment.
    pub fn to_script(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_default()
            .replace('<', "\\u003c")
    }
}

/// Where the shell goes in `index.html`: the `<body>` tag Trunk writes.
const BODY_OPEN: &str = "<body>";

/// Text for element content and attribute values.
fn esc(s: &str) -> String {
    crate::text::xml_escape(s).replace('"', "&quot;")
}

/// The first example's exchange, as the app opens it.
pub fn first_exchange() -> Exchange {
    EXAMPLES
        .first()
        .and_then(|e| read_any(e.source).ok())
        .map(|(d, _)| d.exchange)
        .unwrap_or_default()
}

/// Put the static shell right after `<body>` of `html` (replacing one put there before), and
/// say in `<noscript>` what a page without JavaScript can do. Errors when there is no `<body>`.
pub fn into_index(html: &str, x: &Exchange) -> Result<String, String> {
    let start = format!("<div id=\"{ROOT_ID}\"");
    let end = format!("<!--/{ROOT_ID}-->");
    let mut html = html.to_string();
    if let (Some(a), Some(b)) = (html.find(&start), html.find(&end)) {
        // With the line break put before it.
        let a = if html[..a].ends_with('\n') { a - 1 } else { a };
        html.replace_range(a..b + end.len(), "");
    }
    let at = html
        .find(BODY_OPEN)
        .ok_or("index.html has no <body> to put the first paint in")?;
    let view = FirstView::of(x);
    html.insert_str(
        at + BODY_OPEN.len(),
        &format!(
            "\n{}<script type=\"application/json\" id=\"{FIRST_VIEW_ID}\">{}</script>{end}",
            shell(x, &view),
            view.to_script()
        ),
    );
    Ok(html)
}

/// The static shell for the exchange `x` (its first view `view`): top bar, editor summary,
/// every pane (request view).
pub fn shell(x: &Exchange, view: &FirstView) -> String {
    let mut out = format!("<div id=\"{ROOT_ID}\" class=\"prerender\">");
    out.push_str(&header());
    // The first visit's hint, as the app shows it (js/boot.js hides it once dismissed).
    out.push_str(
        "<aside class=\"first-hint\" aria-label=\"Getting started\"><p><strong>Start here: </strong>\
         paste any provider's request or response into any pane (or anywhere on the page); every \
         other pane shows it in its own format. Press <kbd>?</kbd> for the keys.</p></aside>",
    );
    // Shown instead of the workspace when js/boot.js finds saved work or a link: the example
    // below is not what the app is about to open.
    out.push_str(
        "<p class=\"opening-note\" role=\"status\"><span class=\"for-link\">Opening the shared link…</span>\
         <span class=\"for-saved\">Restoring your saved work…</span></p>",
    );
    out.push_str("<main class=\"workspace\"><nav class=\"phone-jump\" aria-label=\"Jump to\"><a href=\"#views\">Wire formats ↓</a></nav>");
    out.push_str(&left(x));
    out.push_str(&right(view));
    out.push_str("</main></div>");
    out
}

fn header() -> String {
    let options: String = EXAMPLES
        .iter()
        .map(|e| format!("<option>{}</option>", esc(e.title)))
        .collect();
    let first = EXAMPLES.first().map_or("", |e| e.title);
    // The controls are there (so the bar does not move when the app arrives) but disabled:
    // without the wasm they would do nothing.
    format!(
        "<header class=\"topbar\"><div class=\"brand\"><span class=\"logo\" aria-hidden=\"true\">⌁</span>\
         <h1>Toolscope</h1><p class=\"tagline\">One tool-calling exchange, every provider's wire format.</p></div>\
         <div class=\"actions\"><label class=\"picker\"><span>Example</span><select disabled>\
         <option selected>{}</option>{options}</select></label>\
         <button type=\"button\" class=\"ghost\" disabled>New exchange</button>\
         <button type=\"button\" class=\"primary\" disabled>Share</button>\
         <button type=\"button\" class=\"ghost\" disabled>Export</button>\
         <button type=\"button\" class=\"ghost\" disabled>Import</button>\
         <button type=\"button\" class=\"ghost\" disabled>History</button>\
         <select class=\"theme\" aria-label=\"Theme\" disabled><option>Auto theme</option></select>\
         <button type=\"button\" class=\"icon\" disabled>?</button></div></header>",
        esc(first)
    )
}

fn tabs(label: &str, names: &[&str]) -> String {
    let buttons: String = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            format!(
                "<button type=\"button\" role=\"tab\" class=\"tab\" aria-selected=\"{}\" disabled>{}</button>",
                i == 0,
                esc(n)
            )
        })
        .collect();
    format!("<div class=\"tabs\" role=\"tablist\" aria-label=\"{label}\">{buttons}</div>")
}

/// A read-only code block in the look of the app's plain editor (shown until CodeMirror loads).
fn code(text: &str, label: &str) -> String {
    format!(
        "<div class=\"code\"><textarea class=\"code-fallback\" aria-label=\"{}\" spellcheck=\"false\" readonly>{}</textarea></div>",
        esc(label),
        esc(text)
    )
}

/// The structured editor as a summary: each tool with its schema, each message's parts.
fn left(x: &Exchange) -> String {
    let mut out = String::from("<section class=\"left\" aria-label=\"Exchange editor\">");
    out.push_str(&tabs(
        "Editor",
        &["Tools & conversation", "Canonical JSON", "Transcript"],
    ));
    out.push_str(&format!(
        "<section class=\"block\"><div class=\"block-head\"><h3>Tools ({})</h3></div>",
        x.tools.len()
    ));
    for t in &x.tools {
        let schema = serde_json::to_string_pretty(&t.input_schema).unwrap_or_default();
        out.push_str(&format!(
            "<div class=\"card tool\"><div class=\"row\"><label class=\"field grow\"><span>Name</span>\
             <input type=\"text\" value=\"{}\" readonly></label></div>\
             <label class=\"field\"><span>Description</span><textarea rows=\"2\" readonly>{}</textarea></label>\
             <div class=\"field\"><span>Parameters (JSON Schema)</span>{}</div></div>",
            esc(&t.name),
            esc(t.description.as_deref().unwrap_or_default()),
            code(&schema, &format!("Parameters of {}", t.name))
        ));
    }
    out.push_str(&format!(
        "</section><section class=\"block\"><div class=\"block-head\"><h3>Conversation</h3></div>\
         <div class=\"settings\"><label class=\"field\"><span>System prompt</span><textarea rows=\"2\" readonly>{}</textarea></label>\
         <div class=\"row wrap\"><label class=\"field\"><span>Model</span><input type=\"text\" value=\"{}\" readonly></label></div></div>\
         <ol class=\"messages\">",
        esc(x.system.as_deref().unwrap_or_default()),
        esc(x.options.model.as_deref().unwrap_or_default()),
    ));
    for m in &x.messages {
        let role = match m.role {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        };
        out.push_str(&format!(
            "<li class=\"card message\" data-role=\"{role}\"><div class=\"row\"><span class=\"tag\">{role}</span></div>"
        ));
        for p in &m.parts {
            let (class, tag, text) = match p {
                Part::Text { text, .. } => ("text", None, text.clone()),
                Part::ToolCall(c) => (
                    "call",
                    Some("call"),
                    format!("{}({})", c.name, c.arguments_text()),
                ),
                Part::ToolResult(r) => ("result", Some("result"), r.content.to_text()),
                _ => continue,
            };
            let tag = tag.map_or(String::new(), |t| {
                format!("<span class=\"tag\">{t}</span> ")
            });
            out.push_str(&format!(
                "<div class=\"part {class}\"><p>{tag}{}</p></div>",
                esc(&text)
            ));
        }
        out.push_str("</li>");
    }
    out.push_str("</ol></section></section>");
    out
}

/// Every format pane of the request view, with its text, its badges and its notes.
fn right(view: &FirstView) -> String {
    let mut out = String::from("<section class=\"right\" id=\"views\" aria-label=\"Views\">");
    out.push_str(&tabs(
        "View",
        &[
            "Wire formats",
            "Replay a stream",
            "Streams per provider",
            "Live",
        ],
    ));
    out.push_str(
        &"<section class=\"panes\" aria-labelledby=\"panes-title\"><div class=\"section-head panes-bar\">\
         <h2 id=\"panes-title\">Wire formats</h2><div class=\"bar-controls\">\
         <div class=\"segmented\" role=\"group\" aria-label=\"Body shown\">\
         <button type=\"button\" class=\"seg\" aria-pressed=\"true\" disabled>Request</button>\
         <button type=\"button\" class=\"seg\" aria-pressed=\"false\" disabled>Response</button></div>\
         <button type=\"button\" class=\"ghost small\" disabled>Panes {n}/{n}</button>\
         <button type=\"button\" class=\"ghost small\" disabled>Compare two</button>\
         <button type=\"button\" class=\"ghost small\" disabled>Fix for every visible format</button></div></div>\
         <div class=\"pane-grid\">"
            .replace("{n}", &Format::ALL.len().to_string()),
    );
    for (f, p) in Format::ALL.into_iter().zip(&view.panes) {
        out.push_str(&pane(f, p, &view.arguments));
    }
    out.push_str("</div></section></section>");
    out
}

fn pane(f: Format, e: &FirstPane, arguments: &[Finding]) -> String {
    let id = f.id();
    let name = f.name();
    let mut findings = e.lints.clone();
    findings.extend(arguments.iter().cloned());
    let problems = findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .count();
    let counted = crate::model::count_losses(&e.losses);
    let losses = match counted {
        0 => "lossless".to_string(),
        1 => "1 loss".to_string(),
        n => format!("{n} losses"),
    };
    let suggested = findings.len() - problems;
    let mut checks = match problems {
        0 => "checks pass".to_string(),
        1 => "1 finding".to_string(),
        n => format!("{n} findings"),
    };
    if suggested > 0 {
        checks.push_str(&format!(" · {suggested} suggested"));
    }
    let lints = match (problems, suggested) {
        (0, 0) => format!("{name}: every check passes"),
        (n, 0) => format!("Checks for {name} ({n} to fix)"),
        (0, s) => format!("Checks for {name}: every check passes ({s} suggested)"),
        (n, s) => format!("Checks for {name} ({n} to fix, {s} suggested)"),
    };
    let clean = |n: usize| if n == 0 { " clean" } else { "" };
    let mut carries = match counted {
        0 => format!("{name} carries everything"),
        n => format!("What {name} cannot carry ({n})"),
    };
    match e.losses.len() - counted {
        0 => {}
        1 => carries.push_str(" · 1 note"),
        n => carries.push_str(&format!(" · {n} notes")),
    }
    let note = notes::note(f);
    format!(
        "<article class=\"pane\" data-format=\"{id}\"><header class=\"pane-head\"><h3>{name}</h3>\
         <code class=\"format-id\">{id}</code>\
         <span class=\"badge{}\">{losses}</span><span class=\"badge lint{}\">{checks}</span>\
         <div class=\"copy\"><button type=\"button\" class=\"ghost small\" disabled>Copy</button>\
         <button type=\"button\" class=\"ghost small\" disabled>As code</button></div></header>\
         <div class=\"editor-wrap\">{}</div>\
         <div class=\"pane-info\"><details class=\"losses\"><summary>{}</summary><ul>{}</ul></details>\
         <details class=\"lints\"><summary>{}</summary></details><details class=\"note\"><summary>How {name} differs</summary><dl>\
         <dt>Arguments</dt><dd>{}</dd><dt>Results</dt><dd>{}</dd><dt>Ids</dt><dd>{}</dd>\
         <dt>Tool choice</dt><dd>{}</dd><dt>Also</dt><dd>{}</dd></dl></details></div></article>",
        clean(counted),
        clean(problems),
        code(&e.text, &format!("{name} document")),
        esc(&carries),
        e.losses
            .iter()
            .map(|l| format!("<li>{}</li>", esc(&l.why)))
            .collect::<String>(),
        esc(&lints),
        esc(note.arguments),
        esc(note.results),
        esc(note.ids),
        esc(note.choice),
        esc(note.other),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pane_has_its_text_and_the_shell_replaces_itself() {
        let x = first_exchange();
        let page = "<html><body>\n<noscript>x</noscript></body></html>";
        let once = into_index(page, &x).unwrap();
        for f in Format::ALL {
            assert!(once.contains(&format!("data-format=\"{}\"", f.id())));
        }
        let chat = Format::OpenAiChat.encode(&x, Kind::Request).text;
        assert!(once.contains(&esc(&chat)));
        // Running it twice leaves one shell.
        let twice = into_index(&once, &x).unwrap();
        assert_eq!(twice.matches("id=\"prerender\"").count(), 1);
        assert!(once == twice, "a second run changed the page");
        assert!(into_index("<html></html>", &x).is_err());
    }

    #[test]
    fn the_first_view_data_reads_back_as_the_engine_computes_it() {
        let x = first_exchange();
        let page = into_index("<html><body></body></html>", &x).unwrap();
        let open = format!("<script type=\"application/json\" id=\"{FIRST_VIEW_ID}\">");
        assert_eq!(page.matches(&open).count(), 1);
        let at = page.find(&open).unwrap() + open.len();
        let text = &page[at..at + page[at..].find("</script>").unwrap()];
        // Nothing in it can end the element early or open a comment.
        assert!(!text.contains('<'));
        let view: FirstView = serde_json::from_str(text).unwrap();
        assert_eq!(view, FirstView::of(&x));
        assert_eq!(view.panes.len(), Format::ALL.len());
        for f in Format::ALL {
            let e = f.encode(&x, Kind::Request);
            let p = view.pane(f).unwrap();
            assert_eq!((&p.text, &p.losses), (&e.text, &e.losses), "{}", f.id());
        }
        assert_eq!(view.arguments, schema::validate_arguments(&x));
        // Text with `<`, `</script>` and `<!--` in it survives the escaping.
        let mut odd = x.clone();
        odd.system = Some("a </script><!-- b <x>".into());
        let v = FirstView::of(&odd);
        assert!(!v.to_script().contains('<'));
        assert_eq!(
            serde_json::from_str::<FirstView>(&v.to_script()).unwrap(),
            v
        );
        // Every example's findings (fixes with schemas among them) read back unchanged.
        let mut findings = 0;
        for e in EXAMPLES {
            let x = read_any(e.source).unwrap().0.exchange;
            let v = FirstView::of(&x);
            findings += v.arguments.len() + v.panes.iter().map(|p| p.lints.len()).sum::<usize>();
            assert_eq!(
                serde_json::from_str::<FirstView>(&v.to_script()).unwrap(),
                v,
                "{}",
                e.id
            );
        }
        assert!(findings > 0, "no example has a finding to read back");
    }
}
