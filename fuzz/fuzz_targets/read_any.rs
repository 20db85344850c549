//! `formats::read_any` and `Format::detect` on any bytes (as lossy UTF-8): what the canonical
//! editor and `toolscope convert` do with a paste.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::formats::{read_any, Format, Source};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let detected = Format::detect(&text);
    if let Ok((decoded, source)) = read_any(&text) {
        // A wire document was read as the format detection names.
        if let Source::Wire(f, k) = source {
            assert_eq!(detected.ok(), Some((f, k)), "read_any and detect disagree");
        }
        let _ = decoded.exchange.request_view();
        let _ = decoded.exchange.response_view();
    }
});
