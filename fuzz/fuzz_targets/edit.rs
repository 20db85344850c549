//! Typing into a pane: `edit::read_into` for the canonical editor and every format's pane, in
//! both views, over the gallery's largest example.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use toolscope::edit::read_into;
use toolscope::examples::EXAMPLES;
use toolscope::formats::{read_any, Format, Kind};
use toolscope::model::Exchange;

fn current() -> &'static Exchange {
    static CURRENT: OnceLock<Exchange> = OnceLock::new();
    CURRENT.get_or_init(|| {
        EXAMPLES
            .last()
            .and_then(|e| read_any(e.source).ok())
            .map(|(d, _)| d.exchange)
            .unwrap_or_default()
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let current = current();
    let panes = std::iter::once(None).chain(Format::ALL.into_iter().map(Some));
    for pane in panes {
        for kind in [Kind::Request, Kind::Response] {
            if let Ok(read) = read_into(pane, kind, &text, current) {
                // The page re-encodes every pane from what was read.
                let _ = Format::AnthropicXml.encode(&read.exchange, read.kind);
            }
        }
    }
});
