//! Share links and state files: the input as a fragment, as a file, as the base64url of raw
//! DEFLATE bytes (the inflater) and as the document inside a well-formed link (the reader).
//! Every state read back makes a link and a file that open to the same state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::share::{self, base64url, State};

fn round_trip(s: &State) {
    if let Ok(link) = share::to_fragment(s) {
        match share::from_fragment(&link) {
            Ok(back) => assert_eq!(&back, s, "a link we made opens to another state"),
            Err(e) => panic!("a link we made does not open: {e}"),
        }
    }
    let file = share::to_file(s);
    if file.len() <= share::MAX_EXPANDED {
        match share::from_file(&file) {
            Ok(back) => assert_eq!(&back, s, "a file we wrote reads as another state"),
            Err(e) => panic!("a file we wrote does not read: {e}"),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(s) = share::from_fragment(&text) {
        round_trip(&s);
    }
    if let Ok(s) = share::from_file(&text) {
        round_trip(&s);
    }
    // The inflater on arbitrary bytes.
    let _ = share::from_fragment(&format!("#v1.{}", base64url::encode(data)));
    // The reader on arbitrary documents, behind a valid link.
    let packed = miniz_oxide::deflate::compress_to_vec(data, 1);
    if let Ok(s) = share::from_fragment(&format!("v1.{}", base64url::encode(&packed))) {
        round_trip(&s);
    }
});
