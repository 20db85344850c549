//! Incremental newline-delimited JSON framing (Ollama's `/api/chat`, and the one-event-per-line
//! form of recorded fixtures): push bytes in chunks of any size, get one event per non-blank
//! line. CRLF is accepted; a last line without its newline comes out at `finish`.

use super::sse::{each_byte, keep_byte, take_line};
use super::Event;

/// The framer's state between chunks.
#[derive(Debug, Clone, Default)]
pub struct NdjsonFramer {
    line: Vec<u8>,
    /// Lines cut at [`MAX_LINE`](super::sse::MAX_LINE).
    pub truncated: usize,
}

impl NdjsonFramer {
    /// A framer at the start of a stream.
    pub fn new() -> Self {
        NdjsonFramer::default()
    }

    /// Feed bytes; returns the lines completed by them.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Event> {
        each_byte(bytes, |b, out| {
            if b == b'\n' {
                self.end_line(out);
            } else {
                keep_byte(&mut self.line, &mut self.truncated, b);
            }
        })
    }

    /// End of input: the last line, if it had no newline.
    pub fn finish(mut self) -> Vec<Event> {
        let mut out = Vec::new();
        self.end_line(&mut out);
        out
    }

    fn end_line(&mut self, out: &mut Vec<Event>) {
        let line = take_line(&mut self.line);
        let line = line.trim_matches(|c: char| c == '\r' || c == '\u{feff}' || c.is_whitespace());
        if !line.is_empty() {
            out.push(Event::data(line));
        }
    }
}

/// Frame a whole text at once.
pub fn frame(text: &str) -> Vec<Event> {
    let mut f = NdjsonFramer::new();
    let mut events = f.push(text.as_bytes());
    events.extend(f.finish());
    events
}

/// Render events as JSON lines.
pub fn render(events: &[Event]) -> String {
    let mut s = String::new();
    for e in events {
        s.push_str(&e.data);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ndjson_lines_across_chunks_with_crlf_and_blank_lines() {
        let mut f = NdjsonFramer::new();
        let mut out = f.push(b"{\"a\":1}\r\n\n{\"b\"");
        out.extend(f.push(b":2}\n{\"c\":3}"));
        out.extend(f.finish());
        let data: Vec<&str> = out.iter().map(|e| e.data.as_str()).collect();
        assert_eq!(data, ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"]);
    }
}
