//! The page's commands that several places offer (the header's buttons, the keyboard, the
//! notices, Live): share, share without media, export, import, start anew.

use super::io;
use super::state::{AppState, Notice, Offer};
use crate::edit;
use crate::formats::Kind;
use crate::model::Exchange;
use crate::share::{self, media};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Above this many characters a link is too long for a chat message (chat apps cut messages
/// at 2,000–4,000 characters): Share says so and offers a file or a link without media.
pub const BIG_LINK: usize = 8_000;

/// Put the state into the URL fragment and copy the link.
pub fn share_now(state: AppState) {
    let mut snapshot = state.snapshot();
    let mut note = "";
    let made = match share::to_fragment(&snapshot) {
        // A replay too large for a link: share the rest, and say so.
        Err(share::ShareError::ReplayTooLarge { .. }) => {
            snapshot.replay = None;
            note = " The replayed stream is too large for a link and was left out: export the state as a file to keep it.";
            share::to_fragment(&snapshot)
        }
        other => other,
    };
    match made {
        Ok(f) => {
            io::set_fragment(&f);
            let link = io::link_with(&f);
            io::copy_text(&link);
            let n = link.chars().count();
            if n > BIG_LINK {
                let media = media::without_media(&snapshot.exchange).1;
                let without = if media > 0 {
                    format!(
                        " Share without media puts labelled placeholders in place of the {media} \
                         image{} or other media it carries inline.",
                        if media == 1 { "" } else { "s" },
                    )
                } else {
                    String::new()
                };
                state.notice.set(Some(Notice {
                    text: format!(
                        "Link copied, but it is {} characters long: chat apps cut messages at \
                         2,000–4,000 characters, so it may arrive broken. Export a file to \
                         send instead.{without}{note}",
                        thousands(n)
                    ),
                    offer: Some(Offer::BigLink),
                    ..Notice::default()
                }));
                return;
            }
            state.say(format!(
                "Link copied ({n} characters). Anyone opening it sees this exchange; nothing is stored on a server.{note}"
            ));
        }
        Err(e) => state.say_error(format!("Cannot share: {e}")),
    }
}

/// Copy a link to the state with every inline image, audio and document replaced by a
/// labelled placeholder (the page's own address and state stay as they are).
pub fn share_without_media(state: AppState) {
    let mut snapshot = state.snapshot();
    let (x, n) = media::without_media(&snapshot.exchange);
    snapshot.exchange = x;
    // The stream of a replay is no media, but a link this short has no room for a large one.
    let made = match share::to_fragment(&snapshot) {
        Err(share::ShareError::ReplayTooLarge { .. }) => {
            snapshot.replay = None;
            share::to_fragment(&snapshot)
        }
        other => other,
    };
    match made {
        Ok(f) => {
            let link = io::link_with(&f);
            io::copy_text(&link);
            let len = link.chars().count();
            let still = if len > BIG_LINK {
                " It is still long: export a file to send instead."
            } else {
                ""
            };
            state.notice.set(Some(Notice {
                text: format!(
                    "Link without media copied ({} characters): {n} placeholder{} stand{} for the media, which opens as placeholders.{still}",
                    thousands(len),
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "s" } else { "" },
                ),
                ..Notice::default()
            }));
        }
        Err(e) => state.say_error(format!("Cannot share: {e}")),
    }
}

/// `132379` → `132,379`.
fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Start from nothing: one empty tool and one empty user message (the work before stays in
/// History, with Undo), the focus in the tool's name.
pub fn new_exchange(state: AppState) {
    let mut x = Exchange::default();
    let i = edit::add_tool(&mut x);
    if let Some(t) = x.tools.get_mut(i) {
        t.name.clear();
        t.description = None;
    }
    edit::add_user(&mut x, "");
    state.replace_exchange(
        x,
        Kind::Request,
        "Started a new exchange: one empty tool and one empty user message.",
    );
    state.left_tab.set(super::tabs::LeftTab::Edit);
    super::keys::focus_testid("tool-0-name");
}

/// Download the state as a file.
pub fn export_now(state: AppState) {
    io::download("toolscope-state.json", &share::to_file(&state.snapshot()));
    state.say("Exported toolscope-state.json");
}

/// Open the file picker of the import button.
pub fn import_now() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("import-file"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        el.click();
    }
}
