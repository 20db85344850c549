//! The history of the user's work: the last [`MAX_ENTRIES`] distinct states, each with its
//! time, a one-line summary and why it was kept, and the per-tab autosave slots. Pure data:
//! the page keeps both in localStorage (`ui::work`), so they survive reloads and are shared by
//! the tabs of one browser.
//!
//! A state is kept in the compact form of a share link ([`crate::share::to_stored`]): a kept
//! state is one that is known to restore, since the same limits are checked when it is made.

use crate::model::{Exchange, Part, Role};
use serde::{Deserialize, Serialize};

/// Most states kept.
pub const MAX_ENTRIES: usize = 50;
/// Most characters of kept states in all (localStorage holds about 5 M characters per origin,
/// shared with the autosave slots and the settings).
pub const MAX_CHARS: usize = 2_500_000;

/// One kept state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// When it was kept, ms since the Unix epoch.
    pub at: f64,
    /// What it held: "3 messages · 2 tools (get_weather, …) · “What is the weather…”".
    pub summary: String,
    /// Why it was kept: "before opening a shared link", "autosave", …
    pub why: String,
    /// The tab that kept it.
    pub tab: String,
    /// The state, as [`crate::share::to_stored`] writes it.
    pub state: String,
}

/// The kept states, oldest first.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct History {
    /// Oldest first.
    pub entries: Vec<Entry>,
}

impl History {
    /// Read the stored history; anything unreadable starts an empty one.
    pub fn from_stored(text: Option<&str>) -> History {
        text.and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default()
    }

    /// The stored form.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{\"entries\":[]}".into())
    }

    /// Keep `e` as the newest entry. The same state kept before moves up instead of being
    /// kept twice. Returns false when the state alone is over [`MAX_CHARS`] (not kept).
    pub fn push(&mut self, e: Entry) -> bool {
        if e.state.len() > MAX_CHARS {
            return false;
        }
        self.entries.retain(|old| old.state != e.state);
        self.entries.push(e);
        self.trim();
        true
    }

    /// Add what another tab kept meanwhile (entries with a state not kept here), in time order.
    pub fn merge(&mut self, other: History) {
        for e in other.entries {
            if !self.entries.iter().any(|old| old.state == e.state) {
                self.entries.push(e);
            }
        }
        self.entries.sort_by(|a, b| a.at.total_cmp(&b.at));
        self.trim();
    }

    /// Drop the oldest entries beyond the count and size limits.
    fn trim(&mut self) {
        let over = self.entries.len().saturating_sub(MAX_ENTRIES);
        self.entries.drain(..over);
        let mut total: usize = self.entries.iter().map(|e| e.state.len()).sum();
        while total > MAX_CHARS && self.entries.len() > 1 {
            total -= self.entries.remove(0).state.len();
        }
    }

    /// Drop the oldest entry (to make room in storage); false when there is none.
    pub fn drop_oldest(&mut self) -> bool {
        if self.entries.is_empty() {
            return false;
        }
        self.entries.remove(0);
        true
    }

    /// The newest entry.
    pub fn newest(&self) -> Option<&Entry> {
        self.entries.last()
    }
}

/// One tab's autosaved work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    /// When it was saved, ms since the Unix epoch.
    pub at: f64,
    /// What it holds (see [`summary`]).
    pub summary: String,
    /// The state, as [`crate::share::to_stored`] writes it.
    pub state: String,
}

impl Slot {
    /// Read a stored slot.
    pub fn from_stored(text: &str) -> Option<Slot> {
        serde_json::from_str(text).ok()
    }

    /// The stored form.
    pub fn to_stored(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Most characters of the first user text quoted in a summary.
const QUOTE: usize = 48;

/// A one-line summary of an exchange: counts, the first tools' names and the first user words.
pub fn summary(x: &Exchange) -> String {
    let n = x.messages.len();
    let mut s = format!("{n} message{}", if n == 1 { "" } else { "s" });
    let t = x.tools.len();
    s.push_str(&format!(" · {t} tool{}", if t == 1 { "" } else { "s" }));
    if t > 0 {
        let names: Vec<&str> = x.tools.iter().take(2).map(|t| t.name.as_str()).collect();
        s.push_str(&format!(
            " ({}{})",
            names.join(", "),
            if t > 2 { ", …" } else { "" }
        ));
    }
    let first = x
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .flat_map(|m| m.parts.iter())
        .find_map(|p| match p {
            Part::Text { text, .. } if !text.trim().is_empty() => Some(text.as_str()),
            _ => None,
        });
    if let Some(text) = first {
        let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut quoted: String = one_line.chars().take(QUOTE).collect();
        if one_line.chars().count() > QUOTE {
            quoted.push('…');
        }
        s.push_str(&format!(" · “{quoted}”"));
    }
    s
}

/// What replacing `before` with `after` removes, for the notice ("removes 2 messages and 1
/// tool"); `None` when nothing the user had is lost.
pub fn removed(before: &Exchange, after: &Exchange) -> Option<String> {
    let m = before.messages.len().saturating_sub(after.messages.len());
    let t = before.tools.len().saturating_sub(after.tools.len());
    let mut parts = Vec::new();
    if m > 0 {
        parts.push(format!("{m} message{}", if m == 1 { "" } else { "s" }));
    }
    if t > 0 {
        parts.push(format!("{t} tool{}", if t == 1 { "" } else { "s" }));
    }
    (!parts.is_empty()).then(|| parts.join(" and "))
}
