//! The legacy-XML prompt and completion parsers directly; what parses renders, and what
//! renders parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope::formats::anthropic_xml::wire::{
    parse_completion, parse_prompt, render_completion, render_prompt, unescape,
};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = parse_prompt(&text) {
        let rendered = render_prompt(&p);
        if let Err(e) = parse_prompt(&rendered) {
            panic!("rendered prompt does not parse: {e}\n{rendered}");
        }
    }
    if let Ok(c) = parse_completion(&text) {
        let rendered = render_completion(&c);
        if let Err(e) = parse_completion(&rendered) {
            panic!("rendered completion does not parse: {e}\n{rendered}");
        }
    }
    let _ = unescape(&text);
});
