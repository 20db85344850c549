//! Incremental server-sent-events framing (the WHATWG `text/event-stream` rules): push bytes
//! in chunks of any size, get complete events out.
//!
//! Lines end in LF, CRLF or a lone CR (also when the CR and LF arrive in different chunks);
//! `data:` lines of one event are joined with LF; one space after the colon is dropped;
//! `event:` names the event; lines starting with `:` are comments; `id:`/`retry:` and unknown
//! fields are ignored; a blank line dispatches. `finish` handles a last line without its
//! newline and an event without its blank line (streams cut mid-event). `[DONE]` is an
//! ordinary data payload here; the OpenAI assembler reads it as the end.

use super::Event;

/// Longest line kept; longer lines are cut there (bounded memory on hostile input) and the
/// cut is counted in [`SseFramer::truncated`].
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// Keeps byte `b` of the line being framed, up to [`MAX_LINE`]; one byte past the limit marks
/// the line cut, so each cut line counts once in `truncated`.
pub(crate) fn keep_byte(line: &mut Vec<u8>, truncated: &mut usize, b: u8) {
    if line.len() < MAX_LINE {
        line.push(b);
    } else if line.len() == MAX_LINE {
        line.push(b);
        *truncated += 1;
    }
}

/// Runs a framer's `step` over each byte of a chunk; returns the events it completed.
pub(crate) fn each_byte(bytes: &[u8], mut step: impl FnMut(u8, &mut Vec<Event>)) -> Vec<Event> {
    let mut out = Vec::new();
    for &b in bytes {
        step(b, &mut out);
    }
    out
}

/// The line framed so far, cut at [`MAX_LINE`] (invalid UTF-8 replaced), leaving it empty.
pub(crate) fn take_line(line: &mut Vec<u8>) -> String {
    let mut bytes = std::mem::take(line);
    bytes.truncate(MAX_LINE);
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The framer's state between chunks.
#[derive(Debug, Clone, Default)]
pub struct SseFramer {
    line: Vec<u8>,
    after_cr: bool,
    data: Option<String>,
    name: Option<String>,
    /// Lines cut at [`MAX_LINE`].
    pub truncated: usize,
}

impl SseFramer {
    /// A framer at the start of a stream.
    pub fn new() -> Self {
        SseFramer::default()
    }

    /// Feed bytes; returns the events completed by them.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Event> {
        each_byte(bytes, |b, out| {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    return;
                }
            }
            match b {
                b'\n' => self.end_line(out),
                b'\r' => {
                    self.end_line(out);
                    self.after_cr = true;
                }
                _ => keep_byte(&mut self.line, &mut self.truncated, b),
            }
        })
    }

    /// End of input: the last line and the pending event, if any.
    pub fn finish(mut self) -> Vec<Event> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut out);
        }
        self.dispatch(&mut out);
        out
    }

    fn end_line(&mut self, out: &mut Vec<Event>) {
        let line = take_line(&mut self.line);
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line.starts_with(':') {
            return;
        }
        let (field, value) = match line.find(':') {
            Some(i) => {
                let (f, v) = line.split_at(i);
                let v = v.get(1..).unwrap_or("");
                (f, v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line.as_str(), ""),
        };
        match field {
            "data" => match &mut self.data {
                Some(d) => {
                    d.push('\n');
                    d.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            },
            "event" => self.name = Some(value.to_string()),
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<Event>) {
        let name = self.name.take();
        if let Some(data) = self.data.take() {
            out.push(Event { name, data });
        }
    }
}

/// Frame a whole text at once.
pub fn frame(text: &str) -> Vec<Event> {
    let mut f = SseFramer::new();
    let mut events = f.push(text.as_bytes());
    events.extend(f.finish());
    events
}

/// True when the text looks like SSE: some line starts with `data:` or `event:`.
pub fn looks_like_sse(text: &str) -> bool {
    text.lines().take(64).any(|l| {
        let l = l.trim_start_matches('\u{feff}');
        l.starts_with("data:") || l.starts_with("event:")
    })
}

/// Render events as SSE text (`event:` when named, one `data:` line per payload line).
pub fn render(events: &[Event]) -> String {
    let mut s = String::new();
    for e in events {
        if let Some(n) = &e.name {
            s.push_str("event: ");
            s.push_str(n);
            s.push('\n');
        }
        for line in e.data.split('\n') {
            s.push_str("data: ");
            s.push_str(line);
            s.push('\n');
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(name: Option<&str>, data: &str) -> Event {
        Event {
            name: name.map(str::to_string),
            data: data.into(),
        }
    }

    #[test]
    fn sse_frames_names_multiline_data_and_comments() {
        let text = ": keep-alive\nevent: ping\ndata: {\"a\":\ndata:1}\n\ndata:[DONE]\n\n";
        assert_eq!(
            frame(text),
            vec![ev(Some("ping"), "{\"a\":\n1}"), ev(None, "[DONE]")]
        );
    }

    #[test]
    fn sse_crlf_split_across_chunks() {
        let mut f = SseFramer::new();
        let mut out = f.push(b"data: x\r");
        out.extend(f.push(b"\n\r"));
        out.extend(f.push(b"\ndata: y\r\r"));
        out.extend(f.finish());
        assert_eq!(out, vec![ev(None, "x"), ev(None, "y")]);
    }

    #[test]
    fn sse_trailing_partial_line_at_finish() {
        let mut f = SseFramer::new();
        assert!(f.push(b"data: {\"a\":1}\n\ndata: {\"b\"").len() == 1);
        assert_eq!(f.finish(), vec![ev(None, "{\"b\"")]);
    }

    #[test]
    fn sse_utf8_split_inside_a_character() {
        let bytes = "data: é\n\n".as_bytes();
        let mut f = SseFramer::new();
        let mut out = Vec::new();
        for b in bytes {
            out.extend(f.push(std::slice::from_ref(b)));
        }
        assert_eq!(out, vec![ev(None, "é")]);
    }

    #[test]
    fn sse_render_then_frame_round_trips() {
        let events = vec![ev(Some("message_start"), "{}"), ev(None, "a\nb")];
        assert_eq!(frame(&render(&events)), events);
    }
}
