//! HAR import: the entry list of any JSON, the default pick, each entry replayed, the base64
//! decoder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::stream::har;
use toolscope::replay::{LoadOptions, Replay};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = har::decode_base64(&text);
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return;
    };
    let _ = har::is_har(&v);
    let Ok(entries) = har::entries(&v) else {
        return;
    };
    let picked = har::pick(&entries);
    if let Some(i) = picked {
        assert!(i < entries.len(), "pick returned an index out of range");
    }
    for e in &entries {
        let _ = e.streamed();
    }
    let _ = Replay::load(&text, LoadOptions::default());
    for i in 0..entries.len().min(4) + 1 {
        let opts = LoadOptions {
            protocol: None,
            har_entry: Some(i),
        };
        if let Ok(r) = Replay::load(&text, opts) {
            let _ = r.snapshot(r.len() / 2);
        }
    }
});
