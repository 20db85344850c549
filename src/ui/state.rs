//! AppState: the signals of the page, in context. Everything shown is derived from them.

use super::tabs::{LeftTab, RightTab};
use super::work;
use crate::anchors::Element;
use crate::examples::EXAMPLES;
use crate::formats::{read_any, Format, Kind};
use crate::history::{self, Entry, History};
use crate::model::{Exchange, Message, Tool};
use crate::schema::Finding;
use crate::share::{self, State};
use leptos::prelude::*;

/// The models picked in the Cost view (kept in share links).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CostChoice {
    /// The model shown in detail (`None`: the first row's).
    pub chosen: Option<String>,
    /// Models counted besides the exchange's and the representative ones.
    pub extra: Vec<String>,
    /// The Hugging Face model id of the open-weight section, if one was loaded.
    pub hf: Option<String>,
}

/// Which editor changed the exchange last: its own text is then kept as typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Loaded from outside (example, link, file, storage) or a structured edit.
    Outside,
    /// The canonical JSON editor.
    Canonical,
    /// A format pane.
    Pane(Format),
}

/// What a notice offers besides Undo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// The link just made is too long for a chat message: export a file instead, or share the
    /// link without the media it carries.
    BigLink,
}

/// A message in the banner under the top bar.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Notice {
    /// An error (red) or information (neutral).
    pub error: bool,
    /// What to say.
    pub text: String,
    /// The state before the action the notice reports (as [`crate::share::to_stored`] keeps
    /// it): the notice offers Undo.
    pub undo: Option<String>,
    /// Saved data that could not be restored is kept aside: the notice offers it as a file.
    pub rescue: bool,
    /// Another way on, as buttons.
    pub offer: Option<Offer>,
}

/// Which messages and tools the edits changed: a revision per item and an epoch for edits
/// that may have changed any of them. A row re-reads (and clones) its own item only when its
/// revision moves, so a keystroke in message 900 does not clone or compare the others.
#[derive(Debug, Default)]
pub struct Revisions {
    epoch: u64,
    messages: Vec<u64>,
    tools: Vec<u64>,
}

impl Revisions {
    fn bump(v: &mut Vec<u64>, i: usize) {
        if v.len() <= i {
            v.resize(i + 1, 0);
        }
        v[i] += 1;
    }

    /// Bump the items of `next` that differ from `current` (compared, never cloned).
    fn note_changes(&mut self, current: &Exchange, next: &Exchange) {
        let n = current.messages.len().max(next.messages.len());
        for i in 0..n {
            if current.messages.get(i) != next.messages.get(i) {
                Self::bump(&mut self.messages, i);
            }
        }
        let n = current.tools.len().max(next.tools.len());
        for i in 0..n {
            if current.tools.get(i) != next.tools.get(i) {
                Self::bump(&mut self.tools, i);
            }
        }
    }
}

/// The page's state.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The canonical exchange: the one truth every pane and editor shows. Written only through
    /// `AppState`'s methods, which keep `revisions` in step.
    pub exchange: RwSignal<Exchange>,
    /// What the last edits changed (see [`Revisions`]).
    revisions: StoredValue<Revisions>,
    /// Who changed `exchange` last.
    pub origin: RwSignal<Origin>,
    /// Request or response bodies in the panes.
    pub kind: RwSignal<Kind>,
    /// Visible format panes, in order.
    pub panes: RwSignal<Vec<Format>>,
    /// Two panes side by side instead of the grid.
    pub compare: RwSignal<Option<(Format, Format)>>,
    /// The element the user selected (sticky) and the one under the pointer.
    pub selected: RwSignal<Option<Element>>,
    /// The element under the pointer, anywhere on the page.
    pub hovered: RwSignal<Option<Element>>,
    /// Banner message.
    pub notice: RwSignal<Option<Notice>>,
    /// Keyboard help overlay open.
    pub help: RwSignal<bool>,
    /// The lazily loaded code editor is ready.
    pub editor_ready: RwSignal<bool>,
    /// Replay text carried by a link (kept so a re-share keeps it).
    pub replay: RwSignal<Option<String>>,
    /// The left column's tab (an editor).
    pub left_tab: RwSignal<LeftTab>,
    /// The right column's tab (a view).
    pub right_tab: RwSignal<RightTab>,
    /// Bumped when a whole new state is loaded, so editors drop their drafts.
    pub generation: RwSignal<u64>,
    /// Every call checked against its tool's schema: computed once, shown by the
    /// conversation editor and every pane.
    pub arguments: Memo<Vec<Finding>>,
    /// Whether the engine's part of the wasm is here (a split build loads it after mounting).
    pub engine: super::engine::Engine,
    /// This tab's id (its autosave slot).
    pub tab: StoredValue<String>,
    /// The kept states, shared by the tabs (localStorage).
    pub history: RwSignal<History>,
    /// The History panel is open.
    pub history_open: RwSignal<bool>,
    /// The example loaded last (id, title) and its exchange as loaded: the picker names it,
    /// "edited" once the exchange differs. `None` after any other load.
    pub example: RwSignal<Option<(&'static str, &'static str, Exchange)>>,
    /// The models picked in the Cost view.
    pub cost: RwSignal<CostChoice>,
}

impl AppState {
    /// Fresh state showing the first example and every pane.
    pub fn new() -> Self {
        let first = EXAMPLES
            .first()
            .and_then(|e| read_any(e.source).ok())
            .map(|(d, _)| d.exchange)
            .unwrap_or_default();
        let engine = super::engine::Engine::new(&first);
        let exchange = RwSignal::new(first);
        AppState {
            arguments: Memo::new(move |_| {
                exchange.with(|x| {
                    engine
                        .arguments(x)
                        .unwrap_or_else(|| crate::schema::validate_arguments(x))
                })
            }),
            engine,
            exchange,
            revisions: StoredValue::new(Revisions::default()),
            origin: RwSignal::new(Origin::Outside),
            kind: RwSignal::new(Kind::Request),
            panes: RwSignal::new(Format::ALL.to_vec()),
            compare: RwSignal::new(None),
            selected: RwSignal::new(None),
            hovered: RwSignal::new(None),
            notice: RwSignal::new(None),
            help: RwSignal::new(false),
            editor_ready: RwSignal::new(false),
            replay: RwSignal::new(None),
            left_tab: RwSignal::new(LeftTab::Edit),
            right_tab: RwSignal::new(RightTab::Formats),
            generation: RwSignal::new(0),
            tab: StoredValue::new(String::new()),
            history: RwSignal::new(History::default()),
            history_open: RwSignal::new(false),
            cost: RwSignal::new(Default::default()),
            example: RwSignal::new(EXAMPLES.first().and_then(|e| {
                let x = read_any(e.source).ok()?.0.exchange;
                Some((e.id, e.title, x))
            })),
        }
    }

    /// The element to highlight: the hovered one, else the selected one.
    pub fn focus(&self) -> Option<Element> {
        self.hovered.get().or_else(|| self.selected.get())
    }

    /// Apply a structured edit to the exchange (any part of it may change).
    pub fn edit(&self, f: impl FnOnce(&mut Exchange)) {
        self.edit_noting(|r| r.epoch += 1, f);
    }

    /// Apply an edit to message `m` alone (nothing when it is gone): only its row re-reads it.
    pub fn edit_message(&self, m: usize, f: impl FnOnce(&mut Message)) {
        self.edit_noting(
            |r| Revisions::bump(&mut r.messages, m),
            |x| x.messages.get_mut(m).map_or((), f),
        );
    }

    /// Apply an edit to tool `i` alone (nothing when it is gone): only its card re-reads it.
    pub fn edit_tool(&self, i: usize, f: impl FnOnce(&mut Tool)) {
        self.edit_noting(
            |r| Revisions::bump(&mut r.tools, i),
            |x| x.tools.get_mut(i).map_or((), f),
        );
    }

    /// A structured edit `f`, with `note` saying in the revisions what it changes.
    fn edit_noting(&self, note: impl FnOnce(&mut Revisions), f: impl FnOnce(&mut Exchange)) {
        self.supersede();
        self.revisions.update_value(note);
        self.set_origin(Origin::Outside);
        self.exchange.update(f);
    }

    /// Message `m`'s revision, tracked: it changes when an edit may have changed that message.
    pub fn message_revision(&self, m: usize) -> (u64, u64) {
        self.exchange.track();
        self.revisions
            .with_value(|r| (r.epoch, r.messages.get(m).copied().unwrap_or(0)))
    }

    /// Tool `i`'s revision, tracked (see [`AppState::message_revision`]).
    pub fn tool_revision(&self, i: usize) -> (u64, u64) {
        self.exchange.track();
        self.revisions
            .with_value(|r| (r.epoch, r.tools.get(i).copied().unwrap_or(0)))
    }

    /// Who edits (set only when it changes: a set notifies even with the same value).
    fn set_origin(&self, o: Origin) {
        if self.origin.get_untracked() != o {
            self.origin.set(o);
        }
    }

    /// Replace the exchange from an editor's text. An edit that removes messages or tools
    /// keeps the state before it in the history and says so, with Undo.
    pub fn set_from(&self, origin: Origin, x: Exchange) {
        self.supersede();
        self.set_keeping_notice(origin, x);
    }

    /// A live run's conversation growing by its own turns: not a new action of the user's, so
    /// the notice stays (an MCP server's failure told during the run is still up when the model
    /// answers).
    pub fn extend_from_run(&self, x: Exchange) {
        self.set_keeping_notice(Origin::Outside, x);
    }

    fn set_keeping_notice(&self, origin: Origin, x: Exchange) {
        let before = self.exchange.with_untracked(|c| history::removed(c, &x));
        let undo = before
            .as_ref()
            .and_then(|_| self.checkpoint("before an edit removed part of the work"));
        self.revisions
            .update_value(|r| self.exchange.with_untracked(|c| r.note_changes(c, &x)));
        self.set_origin(origin);
        self.exchange.set(x);
        if let Some(what) = before {
            let by = match origin {
                Origin::Pane(f) => format!("Your edit in the {} pane", f.name()),
                Origin::Canonical => "Your edit of the canonical JSON".into(),
                Origin::Outside => "The live run".into(),
            };
            self.tell(format!("{by} removed {what}."), undo);
        }
    }

    /// Apply a structured edit that removes something (`what`: "message 3", "tool get_weather"):
    /// the state before it is kept in the history and the notice offers Undo.
    pub fn remove(&self, what: String, f: impl FnOnce(&mut Exchange)) {
        let undo = self.checkpoint(&format!("before removing {what}"));
        self.edit(f);
        self.tell(format!("Removed {what}."), undo);
    }

    /// Keep the current state in the shared history (`why` says what came next) and return its
    /// stored form, for Undo. `None` when the state cannot be kept (over a limit).
    pub fn checkpoint(&self, why: &str) -> Option<String> {
        let snap = self.snapshot();
        let stored = work::stored(&snap)?;
        let h = work::keep(Entry {
            at: work::now(),
            summary: history::summary(&snap.exchange),
            why: why.to_string(),
            tab: self.tab.get_value(),
            state: stored.clone(),
        });
        self.history.set(h);
        Some(stored)
    }

    /// Replace the whole state (a link, a state file): what it replaces is kept in the history
    /// and the notice says what happened, with Undo.
    pub fn replace(&self, s: State, said: impl Into<String>) {
        let (mut text, undo) = self.before_replacing(&s.exchange, said.into());
        text.push_str(" Your previous work is in History.");
        self.restore(s);
        self.tell(text, undo);
    }

    /// Replace the exchange (an example, a pasted or dropped document, a replay's request) as
    /// [`AppState::replace`] does.
    pub fn replace_exchange(&self, x: Exchange, kind: Kind, said: impl Into<String>) {
        let (text, undo) = self.before_replacing(&x, said.into());
        self.load(x, kind);
        self.tell(text, undo);
    }

    /// Keep the current state before `next` replaces it; the notice's text (`said`, and what
    /// the replacement removes) and the Undo it offers.
    fn before_replacing(&self, next: &Exchange, said: String) -> (String, Option<String>) {
        let lost = self.exchange.with_untracked(|c| history::removed(c, next));
        let undo = self.checkpoint(&format!("before: {}", first_clause_lower(&said)));
        let mut text = said;
        if let Some(l) = lost {
            text.push_str(&format!(" It replaced your work ({l} more than it has)."));
        }
        (text, undo)
    }

    /// Go back to a kept state; the state left is kept too, so Undo of the Undo works.
    pub fn undo(&self, stored: &str) {
        self.back_to(stored, "before Undo", "Undone: the previous state is back.");
    }

    /// Open a kept state (History, another tab's work), keeping the current one (`why` it was
    /// kept), with Undo.
    pub fn back_to(&self, stored: &str, why: &str, said: &str) {
        match share::from_stored(stored) {
            Ok(s) => {
                let redo = self.checkpoint(why);
                self.restore(s);
                self.tell(said.to_string(), redo);
            }
            Err(e) => self.say_error(format!("That state cannot be restored: {e}")),
        }
    }

    /// A new edit makes the notice about an earlier action stale: it goes (what it offered to
    /// undo stays in History). Saved data kept aside stays offered until dismissed.
    pub fn supersede(&self) {
        if self
            .notice
            .with_untracked(|n| n.as_ref().is_some_and(|n| !n.rescue))
        {
            self.notice.set(None);
        }
    }

    /// Say `text`, offering Undo when `undo` holds the state before.
    pub fn tell(&self, text: String, undo: Option<String>) {
        self.notice.set(Some(Notice {
            text,
            undo,
            ..Notice::default()
        }));
    }

    /// Load a whole exchange from outside (example, file, paste on the page).
    pub fn load(&self, x: Exchange, kind: Kind) {
        self.selected.set(None);
        self.hovered.set(None);
        self.set_origin(Origin::Outside);
        self.kind.set(kind);
        self.revisions.update_value(|r| r.epoch += 1);
        let example = matching_example(&x);
        if example.is_some() || self.example.with_untracked(Option::is_some) {
            self.example.set(example);
        }
        self.exchange.set(x);
        self.generation.update(|g| *g += 1);
    }

    /// Load an example by id.
    pub fn load_example(&self, id: &str) {
        let Some(e) = crate::examples::example(id) else {
            return;
        };
        match read_any(e.source) {
            Ok((d, _)) => {
                let loaded = d.exchange.clone();
                self.replace_exchange(
                    d.exchange,
                    Kind::Request,
                    format!("Opened the example {}: {}", e.title, e.blurb),
                );
                self.example.set(Some((e.id, e.title, loaded)));
            }
            Err(err) => self.say_error(format!("Example {id} does not read: {err}")),
        }
    }

    /// The state a link, a file or localStorage keeps.
    pub fn snapshot(&self) -> State {
        State {
            exchange: self.exchange.get_untracked(),
            kind: self.kind.get_untracked(),
            panes: self
                .panes
                .get_untracked()
                .iter()
                .map(|f| f.id().to_string())
                .collect(),
            compare: self
                .compare
                .get_untracked()
                .map(|(a, b)| (a.id().to_string(), b.id().to_string())),
            replay: self.replay.get_untracked(),
            cost: self.cost.with_untracked(|c| {
                let open = self.right_tab.get_untracked() == RightTab::Cost;
                (open || *c != Default::default()).then(|| share::CostState {
                    open,
                    model: c.chosen.clone(),
                    models: c.extra.clone(),
                    hf: c.hf.clone(),
                })
            }),
        }
    }

    /// Restore a kept state.
    pub fn restore(&self, s: State) {
        let panes: Vec<Format> = s
            .panes
            .iter()
            .filter_map(|id| Format::from_id(id))
            .collect();
        self.panes.set(if panes.is_empty() {
            Format::ALL.to_vec()
        } else {
            panes
        });
        self.compare.set(
            s.compare
                .and_then(|(a, b)| Some((Format::from_id(&a)?, Format::from_id(&b)?))),
        );
        if s.replay.is_some() {
            self.right_tab.set(RightTab::Replay);
        }
        let cost = s.cost.unwrap_or_default();
        if cost.open {
            self.right_tab.set(RightTab::Cost);
        }
        self.cost.set(CostChoice {
            chosen: cost.model,
            extra: cost.models,
            hf: cost.hf,
        });
        self.replay.set(s.replay);
        self.load(s.exchange, s.kind);
    }

    /// Say something in the banner.
    pub fn say(&self, text: impl Into<String>) {
        self.tell(text.into(), None);
    }

    /// Report a problem in the banner.
    pub fn say_error(&self, text: impl Into<String>) {
        self.notice.set(Some(Notice {
            error: true,
            text: text.into(),
            ..Notice::default()
        }));
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

/// The example `x` is, unchanged (a restored state, a link), to name it in the picker.
fn matching_example(x: &Exchange) -> Option<(&'static str, &'static str, Exchange)> {
    // Examples are a few messages long: a longer exchange is none of them.
    if x.messages.len() > 40 {
        return None;
    }
    EXAMPLES.iter().find_map(|e| {
        let ex = read_any(e.source).ok()?.0.exchange;
        (ex == *x).then_some((e.id, e.title, ex))
    })
}

/// "before: …" for the history: the notice's first clause ("Two cities in parallel: …" →
/// "two cities in parallel"), its first letter lower-cased.
fn first_clause_lower(s: &str) -> String {
    let s = s.split([':', '.']).next().unwrap_or(s).trim();
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The state in context (provided by `App`).
pub fn use_state() -> AppState {
    expect_context::<AppState>()
}
