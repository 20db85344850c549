//! AppState: the signals of the page, in context. Everything shown is derived from them.

use crate::anchors::Element;
use crate::examples::EXAMPLES;
use crate::formats::{read_any, Format, Kind};
use crate::model::Exchange;
use crate::schema::Finding;
use crate::share::State;
use leptos::prelude::*;

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

/// A message in the banner under the top bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// An error (red) or information (neutral).
    pub error: bool,
    /// What to say.
    pub text: String,
}

/// The page's state.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The canonical exchange: the one truth every pane and editor shows.
    pub exchange: RwSignal<Exchange>,
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
    /// Left column tab: `edit` (structured) or `json` (canonical JSON).
    pub left_tab: RwSignal<&'static str>,
    /// Right column: `formats` (the panes), `replay` (a stream step by step) or `streams`
    /// (the stream each provider would send).
    pub right_tab: RwSignal<&'static str>,
    /// Bumped when a whole new state is loaded, so editors drop their drafts.
    pub generation: RwSignal<u64>,
    /// Every call checked against its tool's schema: computed once, shown by the
    /// conversation editor and every pane.
    pub arguments: Memo<Vec<Finding>>,
}

impl AppState {
    /// Fresh state showing the first example and every pane.
    pub fn new() -> Self {
        let first = EXAMPLES
            .first()
            .and_then(|e| read_any(e.source).ok())
            .map(|(d, _)| d.exchange)
            .unwrap_or_default();
        let exchange = RwSignal::new(first);
        AppState {
            arguments: Memo::new(move |_| exchange.with(crate::schema::validate_arguments)),
            exchange,
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
            left_tab: RwSignal::new("edit"),
            right_tab: RwSignal::new("formats"),
            generation: RwSignal::new(0),
        }
    }

    /// The element to highlight: the hovered one, else the selected one.
    pub fn focus(&self) -> Option<Element> {
        self.hovered.get().or_else(|| self.selected.get())
    }

    /// Apply a structured edit to the exchange.
    pub fn edit(&self, f: impl FnOnce(&mut Exchange)) {
        self.origin.set(Origin::Outside);
        self.exchange.update(f);
    }

    /// Replace the exchange from an editor's text.
    pub fn set_from(&self, origin: Origin, x: Exchange) {
        self.origin.set(origin);
        self.exchange.set(x);
    }

    /// Load a whole exchange from outside (example, file, paste on the page).
    pub fn load(&self, x: Exchange, kind: Kind) {
        self.selected.set(None);
        self.hovered.set(None);
        self.origin.set(Origin::Outside);
        self.kind.set(kind);
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
                self.load(d.exchange, Kind::Request);
                self.notice.set(None);
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
            self.right_tab.set("replay");
        }
        self.replay.set(s.replay);
        self.load(s.exchange, s.kind);
    }

    /// Say something in the banner.
    pub fn say(&self, text: impl Into<String>) {
        self.notice.set(Some(Notice {
            error: false,
            text: text.into(),
        }));
    }

    /// Report a problem in the banner.
    pub fn say_error(&self, text: impl Into<String>) {
        self.notice.set(Some(Notice {
            error: true,
            text: text.into(),
        }));
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

/// The state in context (provided by `App`).
pub fn use_state() -> AppState {
    expect_context::<AppState>()
}
