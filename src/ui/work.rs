//! The user's work in localStorage: one autosave slot per tab, the shared history of kept
//! states, and the rules that keep them (`crate::history` is the data, this is the storage).
//!
//! - Each tab has an id in sessionStorage (it survives the tab's reloads) and saves its own
//!   slot, so two tabs never overwrite each other's work; a new tab starts from the work saved
//!   last by any tab.
//! - What is saved is known to restore ([`share::to_stored`] checks the same limits its reader
//!   does); a state that cannot be kept is not saved, and the user is told.
//! - A slot that cannot be read back is never overwritten: it moves aside, and the page offers
//!   it as a file.

use super::io;
use crate::history::{self, Entry, History, Slot};
use crate::share::{self, State};

/// localStorage key of the shared history.
pub const HISTORY_KEY: &str = "toolscope.history.v1";
/// localStorage key prefix of the per-tab slots (`toolscope.work.<tab>`).
const SLOT_PREFIX: &str = "toolscope.work.";
/// localStorage key of the earlier single autosave slot, read once when no slot exists.
const OLD_KEY: &str = io::STORAGE_KEY;
/// localStorage key where unreadable saved data is moved, so nothing overwrites it.
pub const RESCUE_KEY: &str = "toolscope.unreadable";
/// sessionStorage key of this tab's id.
const TAB_KEY: &str = "toolscope.tab";
/// Slots older than the newest this many are dropped (their work is in the history first).
const MAX_SLOTS: usize = 8;

thread_local! {
    /// This page load has pruned the slots already.
    static PRUNED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn session() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn local() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Milliseconds since the Unix epoch.
pub fn now() -> f64 {
    js_sys::Date::now()
}

/// This tab's id: kept in sessionStorage, made on the tab's first load.
pub fn tab_id() -> String {
    if let Some(id) = session().and_then(|s| s.get_item(TAB_KEY).ok().flatten()) {
        if !id.is_empty() {
            return id;
        }
    }
    let id = format!(
        "{:x}{:06x}",
        now() as u64,
        (js_sys::Math::random() * 16_777_216.0) as u64
    );
    if let Some(s) = session() {
        let _ = s.set_item(TAB_KEY, &id);
    }
    id
}

/// The storage key of a tab's slot.
pub fn slot_key(tab: &str) -> String {
    format!("{SLOT_PREFIX}{tab}")
}

/// Every slot in localStorage: (key, slot), newest first. Unreadable ones are left out.
fn slots() -> Vec<(String, Slot)> {
    let Some(s) = local() else { return Vec::new() };
    let n = s.length().unwrap_or(0);
    let mut out = Vec::new();
    for i in 0..n {
        let Some(k) = s.key(i).ok().flatten() else {
            continue;
        };
        if !k.starts_with(SLOT_PREFIX) {
            continue;
        }
        if let Some(slot) = s
            .get_item(&k)
            .ok()
            .flatten()
            .and_then(|t| Slot::from_stored(&t))
        {
            out.push((k, slot));
        }
    }
    out.sort_by(|a, b| b.1.at.total_cmp(&a.1.at));
    out
}

/// What the page should open with.
pub enum Saved {
    /// Nothing saved.
    Nothing,
    /// This tab's own work (a reload), or the newest work of another tab (a new tab).
    Work {
        /// The state.
        state: Box<State>,
        /// True when it came from another tab.
        from_other_tab: bool,
    },
    /// Saved data that does not restore: it was moved to [`RESCUE_KEY`].
    Unreadable {
        /// Why it does not restore.
        error: String,
    },
}

/// The saved work this tab opens with.
pub fn saved(tab: &str) -> Saved {
    let own = io::load(&slot_key(tab));
    let (text, key, other) = match own {
        Some(t) => (t, slot_key(tab), false),
        None => match slots().into_iter().next() {
            Some((k, slot)) => (slot.to_stored(), k, true),
            None => match io::load(OLD_KEY) {
                Some(t) => (t, OLD_KEY.to_string(), true),
                None => return Saved::Nothing,
            },
        },
    };
    // A slot wraps the state; the old key held a bare state file.
    let state_text = Slot::from_stored(&text).map_or(text.clone(), |s| s.state);
    match share::from_stored(&state_text) {
        Ok(s) => Saved::Work {
            state: Box::new(s),
            from_other_tab: other,
        },
        Err(e) => {
            // Keep the data where no save reaches it, then let the slot go.
            io::save(RESCUE_KEY, &state_text);
            if !other || key == OLD_KEY {
                io::remove(&key);
            }
            Saved::Unreadable {
                error: e.to_string(),
            }
        }
    }
}

/// Why a state was not saved.
pub enum NotSaved {
    /// Over a limit its reader enforces: saving it would make a save that does not restore.
    TooLarge(String),
    /// The browser refused (quota, private mode).
    Refused,
}

/// Save this tab's work. Made room for by dropping the oldest history entries and the
/// oldest other tabs' slots (their work goes into the history first) when storage is full.
pub fn save(tab: &str, s: &State) -> Result<Slot, NotSaved> {
    let stored = share::to_stored(s).map_err(|e| NotSaved::TooLarge(e.to_string()))?;
    let slot = Slot {
        at: now(),
        summary: history::summary(&s.exchange),
        state: stored,
    };
    let text = slot.to_stored();
    let key = slot_key(tab);
    if io::save(&key, &text) {
        // Only a tab's first save can add a slot: the slots are read and pruned once per page
        // load, not after each pause in typing.
        if !PRUNED.with(|p| p.replace(true)) {
            prune_slots(tab);
        }
        return Ok(slot);
    }
    // Full: history first, oldest entries one by one, then the other tabs' oldest slots.
    let mut h = load_history();
    while h.drop_oldest() {
        store_history(&h);
        if io::save(&key, &text) {
            return Ok(slot);
        }
    }
    for (k, _) in slots().into_iter().rev() {
        if k != key {
            io::remove(&k);
            if io::save(&key, &text) {
                return Ok(slot);
            }
        }
    }
    Err(NotSaved::Refused)
}

/// Keep at most [`MAX_SLOTS`] slots; the work of a dropped slot goes into the history.
fn prune_slots(tab: &str) {
    let all = slots();
    if all.len() <= MAX_SLOTS {
        return;
    }
    let own = slot_key(tab);
    for (k, slot) in all.into_iter().skip(MAX_SLOTS) {
        if k == own {
            continue;
        }
        keep(Entry {
            at: slot.at,
            summary: slot.summary,
            why: "a closed tab's last work".into(),
            tab: k.trim_start_matches(SLOT_PREFIX).to_string(),
            state: slot.state,
        });
        io::remove(&k);
    }
}

/// The shared history as stored now.
pub fn load_history() -> History {
    History::from_stored(io::load(HISTORY_KEY).as_deref())
}

fn store_history(h: &History) -> bool {
    io::save(HISTORY_KEY, &h.to_stored())
}

/// Keep `e` in the shared history (merged with what other tabs kept meanwhile); on a full
/// storage the oldest entries make room. Returns the history as kept.
pub fn keep(e: Entry) -> History {
    let mut h = load_history();
    h.push(e);
    while !store_history(&h) {
        if !h.drop_oldest() {
            break;
        }
    }
    h
}

/// The state as kept in the history or a slot, for `s`; `None` when it cannot be kept.
pub fn stored(s: &State) -> Option<String> {
    share::to_stored(s).ok()
}

/// The last work of every other tab, newest first.
pub fn other_slots(tab: &str) -> Vec<Slot> {
    let own = slot_key(tab);
    slots()
        .into_iter()
        .filter(|(k, _)| *k != own)
        .map(|(_, s)| s)
        .collect()
}

/// The tab that saved a slot key, for storage events.
pub fn slot_tab(key: &str) -> Option<&str> {
    key.strip_prefix(SLOT_PREFIX)
}
