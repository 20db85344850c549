//! Every format × request/response decoder on the input; every decoded exchange re-encoded in
//! every format and kind (encoders must take any exchange a decoder produced), and the first
//! one's encodings decoded again (what we write, we read).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::formats::{Format, Kind};

const KINDS: [Kind; 2] = [Kind::Request, Kind::Response];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut first = true;
    for from in Format::ALL {
        for kind in KINDS {
            let Ok(decoded) = from.decode(&text, kind) else {
                continue;
            };
            for to in Format::ALL {
                for out_kind in KINDS {
                    let encoded = to.encode(&decoded.exchange, out_kind);
                    if first {
                        if let Err(e) = to.decode(&encoded.text, out_kind) {
                            panic!(
                                "{} {} decoded from {} {} does not read back: {e}\n{}",
                                to.id(),
                                out_kind.as_str(),
                                from.id(),
                                kind.as_str(),
                                encoded.text
                            );
                        }
                    }
                }
            }
            first = false;
        }
    }
});
