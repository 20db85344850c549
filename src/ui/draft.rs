//! Text typed into an editor (a format pane or the canonical JSON) before and after it parses.
//!
//! While the text parses, every other pane follows it; while it does not, the error is marked
//! at its spot and the last good exchange stays everywhere else. The typed text is kept as the
//! editor's draft until the editor loses focus with valid text, or a whole new state is
//! loaded: nothing the user typed is replaced under their cursor.

use super::cm::CodeEditor;
use super::schedule::Job;
use super::state::{use_state, AppState, Origin};
use crate::anchors::{self, Element, Span};
use crate::edit::read_into;
use crate::formats::{json, DecodeError, Format, Kind, Source};
use leptos::prelude::*;

/// Drafts up to this size are read on the keystroke (microseconds); larger ones in their turn.
const READ_AT_ONCE: usize = 20_000;

/// How an editor takes part in highlighting: the ranges to mark, and what the pointer and the
/// cursor point at.
pub struct Links {
    /// Byte ranges of the hovered or selected element in the editor's text.
    pub marks: Signal<Vec<(usize, usize)>>,
    /// The pointer moved over a byte offset (or left).
    pub on_hover: Callback<Option<usize>>,
    /// The cursor moved to a byte offset.
    pub on_cursor: Callback<usize>,
}

/// An editor's draft and what reading it gave.
#[derive(Clone, Copy)]
pub struct Draft {
    /// The typed text, while it differs from the rendering.
    pub text: RwSignal<Option<String>>,
    /// Why the typed text does not read.
    pub error: RwSignal<Option<DecodeError>>,
    /// The draft is a document of another format than the editor's, read as this one.
    pub foreign: RwSignal<Option<Source>>,
    // The last change replaced the whole text (a paste of a new document, not an edit).
    replaced: StoredValue<bool>,
    origin: Origin,
    format: Option<Format>,
    // A large draft is read in its turn (after the keystroke's frame), once per frame however
    // many keys came: reading 150 KB of JSON per key kept each key from showing.
    reader: StoredValue<Option<Job>, LocalStorage>,
    // Held, not looked up: edits arrive from the editor's JavaScript callbacks, outside any
    // reactive owner, where the context is not reachable.
    state: AppState,
}

impl Draft {
    /// A draft for the editor `origin` reading text as `format` (`None`: any document).
    pub fn new(origin: Origin, format: Option<Format>) -> Self {
        let state = use_state();
        let d = Draft {
            text: RwSignal::new(None),
            error: RwSignal::new(None),
            foreign: RwSignal::new(None),
            replaced: StoredValue::new(false),
            origin,
            format,
            state,
            reader: StoredValue::new_local(None),
        };
        d.reader
            .set_value(Some(Job::urgent(move || d.read_pending())));
        // Another editor changed the exchange: a valid draft gives way to the new rendering;
        // a broken one stays (the user's text is not lost) with its error.
        Effect::new(move |_| {
            state.exchange.track();
            if state.origin.get_untracked() != origin
                && !d.waiting()
                && d.error.with_untracked(Option::is_none)
                && d.text.with_untracked(Option::is_some)
            {
                d.text.set(None);
                d.foreign.set(None);
            }
        });
        // A whole new state (example, link, file): every draft goes.
        Effect::new(move |prev: Option<u64>| {
            let g = state.generation.get();
            if prev.is_some_and(|p| p != g) {
                d.discard();
            }
            g
        });
        d
    }

    /// The text to show: the draft, else the rendering.
    pub fn shown(self, rendered: Signal<String>) -> Signal<String> {
        Signal::derive(move || self.text.get().unwrap_or_else(|| rendered.get()))
    }

    /// Take an edit: keep it as the draft (at once: the editor's text is never replaced under
    /// the cursor), and when it reads, make it the exchange (a large text in its turn).
    pub fn change(self, text: String) {
        let large = text.len() > READ_AT_ONCE;
        self.text.set(Some(text));
        if large {
            self.reader.with_value(|j| j.as_ref().map(Job::request));
        } else {
            self.read();
        }
    }

    /// The draft waits for its turn to be read.
    fn waiting(self) -> bool {
        self.reader
            .try_with_value(|j| j.as_ref().is_some_and(Job::is_stale))
            == Some(true)
    }

    /// Read a draft whose turn was still to come (the editor is left).
    pub fn flush(self) {
        if self.waiting() {
            self.read();
        }
    }

    /// The reader's turn: read the draft unless something read it meanwhile.
    fn read_pending(self) {
        if self.text.try_with_untracked(Option::is_some) == Some(true) {
            self.read();
        }
    }

    /// Read the draft: when it reads, make it the exchange.
    fn read(self) {
        // Read now: the reader's turn, if still to come, has nothing left to do.
        self.reader.try_with_value(|j| j.as_ref().map(Job::cancel));
        let state = self.state;
        let Some(read) = self.text.with_untracked(|t| {
            let t = t.as_deref()?;
            Some(
                state
                    .exchange
                    .with_untracked(|x| read_into(self.format, state.kind.get_untracked(), t, x)),
            )
        }) else {
            return;
        };
        match read {
            Ok(r) => {
                self.error.set(None);
                let foreign = match (self.format, r.source) {
                    (Some(f), Source::Wire(g, _)) if g.protocol() != f.protocol() => Some(r.source),
                    (None, Source::Wire(..)) => Some(r.source),
                    _ => None,
                };
                let kind_changed = r.kind != state.kind.get_untracked();
                let replaced = self
                    .replaced
                    .try_update_value(std::mem::take)
                    .unwrap_or(false);
                // A document of another format, or of the other body kind, changes more than
                // the user typed: say what it was read as and what it changed, with Undo. Once
                // per document, not per keystroke.
                let notable = (foreign.is_some() && self.foreign.get_untracked() != foreign)
                    || kind_changed
                    || replaced;
                if self.foreign.get_untracked() != foreign {
                    self.foreign.set(foreign);
                }
                if !notable {
                    if kind_changed {
                        state.kind.set(r.kind);
                    }
                    state.set_from(self.origin, r.exchange);
                    return;
                }
                let lost = state
                    .exchange
                    .with_untracked(|c| crate::history::removed(c, &r.exchange));
                let undo = state.checkpoint("before a pasted document was read");
                // The example named in the picker is no longer what is shown.
                if state.example.with_untracked(Option::is_some) {
                    state.example.set(None);
                }
                if kind_changed {
                    state.kind.set(r.kind);
                }
                state.set_from(self.origin, r.exchange);
                state.tell(
                    self.read_as_text(r.source, r.kind, kind_changed, lost),
                    undo,
                );
            }
            Err(e) => self.error.set(Some(e)),
        }
    }

    /// One line: what the text was read as and what that changed.
    fn read_as_text(
        self,
        source: Source,
        kind: Kind,
        kind_changed: bool,
        lost: Option<String>,
    ) -> String {
        let place = match self.format {
            Some(f) => format!("the {} pane", f.name()),
            None => "the canonical JSON editor".into(),
        };
        let what = match source {
            Source::Wire(f, k) => format!("{} {}", f.name(), k.as_str()),
            Source::Canonical => "canonical JSON".into(),
        };
        let changed = match kind {
            Kind::Response => "it replaced the conversation's last answer".to_string(),
            Kind::Request => match lost {
                Some(l) => format!("it replaced the tools and conversation ({l} fewer)"),
                None => "it replaced the tools and conversation".to_string(),
            },
        };
        let view = if kind_changed {
            format!("; the view switched to {}", kind.as_str())
        } else {
            String::new()
        };
        let article = if what.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("Read the text in {place} as {article} {what}: {changed}{view}.")
    }

    /// Highlighting through the element spans of the editor's rendering; off while a draft is
    /// shown (the spans describe the rendering, not the typed text).
    pub fn links(self, spans: Memo<Vec<(Element, Span)>>) -> Links {
        let state = self.state;
        let marks = Signal::derive(move || {
            if self.text.with(Option::is_some) {
                return Vec::new();
            }
            let Some(el) = state.focus() else {
                return Vec::new();
            };
            spans.with(|s| {
                s.iter()
                    .filter(|(e, _)| *e == el)
                    .map(|(_, sp)| (sp.start, sp.end))
                    .collect()
            })
        });
        let element_at = move |offset: usize| -> Option<Element> {
            if self.text.with_untracked(Option::is_some) {
                return None;
            }
            spans.with_untracked(|s| anchors::element_at(s, offset))
        };
        Links {
            marks,
            on_hover: Callback::new(move |at: Option<usize>| {
                let el = at.and_then(element_at);
                if state.hovered.get_untracked() != el {
                    state.hovered.set(el);
                }
            }),
            on_cursor: Callback::new(move |at: usize| {
                if let Some(el) = element_at(at) {
                    state.selected.set(Some(el));
                }
            }),
        }
    }

    /// The editor lost focus: valid text gives way to the canonical rendering.
    pub fn settle(self) {
        self.flush();
        if self.error.with_untracked(Option::is_none) && self.text.with_untracked(Option::is_some) {
            self.text.set(None);
        }
        if self.error.with_untracked(Option::is_none)
            && self.foreign.with_untracked(Option::is_some)
        {
            self.foreign.set(None);
        }
    }

    /// Throw the broken draft away and show the last good state again. (Signals are set only
    /// when they change: a set always notifies, and every pane's editor would redraw.)
    pub fn discard(self) {
        self.reader.try_with_value(|j| j.as_ref().map(Job::cancel));
        if self.text.with_untracked(Option::is_some) {
            self.text.set(None);
        }
        if self.error.with_untracked(Option::is_some) {
            self.error.set(None);
        }
        if self.foreign.with_untracked(Option::is_some) {
            self.foreign.set(None);
        }
    }

    /// The code editor over `shown` that feeds this draft and marks its error and `links`.
    pub fn editor(
        self,
        shown: Signal<String>,
        links: Links,
        lang: &'static str,
        label: String,
        testid: String,
    ) -> impl IntoView {
        view! {
            <CodeEditor
                text=shown
                lang=lang
                label=label
                testid=testid
                on_change=Callback::new(move |t: String| {
                    let replaced = shown.with_untracked(|before| crate::edit::is_replacement(before, &t));
                    self.replaced.set_value(replaced);
                    self.change(t)
                })
                error=self.error_range()
                marks=links.marks
                on_hover=links.on_hover
                on_cursor=links.on_cursor
            />
        }
    }

    /// The error's byte range in the draft and its message, for the editor to mark.
    pub fn error_range(self) -> Signal<Option<(usize, usize, String)>> {
        Signal::derive(move || {
            let e = self.error.get()?;
            let text = self.text.get().unwrap_or_default();
            let from = match (e.line, e.column, &e.pointer) {
                (Some(l), Some(c), _) => super::cm::offset_of(&text, l, c),
                (_, _, Some(p)) => json::locate(&text, p).unwrap_or(0),
                _ => 0,
            };
            let to = text[from.min(text.len())..]
                .char_indices()
                .nth(1)
                .map_or(text.len(), |(i, _)| from + i);
            Some((from, to.max(from), e.to_string()))
        })
    }
}
