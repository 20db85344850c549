//! Schema checks through the public API on any readable document: argument validation, every
//! target's lints (with and without make-strict), and fix_all, whose result is linted again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::formats::read_any;
use toolscope::schema::{self, args::validate_arguments, LintOptions, Target};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok((decoded, _)) = read_any(&text) else {
        return;
    };
    let x = decoded.exchange;
    let _ = validate_arguments(&x);
    let targets = Target::all();
    for make_strict in [false, true] {
        let opts = LintOptions { make_strict };
        let _ = schema::check(&x, &targets, opts);
        for t in &targets {
            let (fixed, _) = schema::fix_all(&x, *t, opts);
            let _ = schema::lint(&fixed, *t, opts);
        }
    }
});
