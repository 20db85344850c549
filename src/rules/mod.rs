//! Will the provider accept it? The mechanism of the providers' conversation rules, checked on
//! the request body in the provider's own format (the document a pane shows and `toolscope
//! lint` reads), before anything is sent.
//!
//! A [`Rule`] is data: an id, the provider, how bad breaking it is, the provider's own error
//! text (quoted from its docs or from a user's report, with the link), a check over the wire
//! document and, where the repair is mechanical, a fix that rewrites the document. Findings
//! point into the document by JSON pointer, so the pane can show the element and the command
//! line can print the spot.
//!
//! The rules themselves live with their format, in its folder (`formats/<format>/rules.rs`),
//! and read the provider's spelling directly (`tool_use`, `functionCall`, `toolUse`, …) and
//! nothing of the canonical model: they judge the bytes that would be sent. A format lists its
//! rules as a [`RuleSet`] in its `Spec`; `Format::rules` is how every caller finds them. This
//! module holds what they share: the runner over a set ([`RuleSet::check`],
//! [`RuleSet::fix_all`], [`RuleSet::match_error`]), the fixes' application, the pointer and
//! value helpers, and the checks of signed reasoning blocks ([`thinking`]) that two block
//! formats spell differently. Every check is one pass over the document (ids are looked up in
//! hash sets), so running a format's rules costs about what reading it does.

pub mod thinking;

use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// What the text of a result written by a fix says (a call answered with an error result).
pub const NO_RESULT: &str =
    "Error: this call has no recorded result (answered by Toolscope's fix).";

/// How bad breaking a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The provider rejects the request (HTTP 400 or 404).
    Error,
    /// Accepted, but the answer degrades (documented by the provider).
    Warning,
}

impl Severity {
    /// `error`, `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a rule comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "url", rename_all = "snake_case")]
pub enum Source {
    /// The provider's documentation says so.
    Docs(&'static str),
    /// Users reported the provider's error; the link is to one such report.
    Reported(&'static str),
}

impl Source {
    /// The link.
    pub fn url(self) -> &'static str {
        match self {
            Source::Docs(u) | Source::Reported(u) => u,
        }
    }

    /// `docs` or `reported`.
    pub fn label(self) -> &'static str {
        match self {
            Source::Docs(_) => "docs",
            Source::Reported(_) => "reported",
        }
    }
}

/// A check: every finding of one rule in a wire document.
pub type Check = fn(&Value) -> Vec<Finding>;

/// A fix: rewrite the document so that this finding goes; false when it could not.
pub type FixFn = fn(&mut Value, &Finding) -> bool;

/// One provider rule.
pub struct Rule {
    /// `anthropic/tool-result-first`.
    pub id: &'static str,
    /// The provider, for a person (`Anthropic`).
    pub provider: &'static str,
    /// Error when the provider rejects the request, warning when it only degrades.
    pub severity: Severity,
    /// The provider's own error text, quoted from the source (one real instance: ids and
    /// indices in it are the reporter's). `None` when no exact text was found.
    pub error: Option<&'static str>,
    /// Stable pieces of the provider's error text: a 400 whose body holds every one of them
    /// is this rule's.
    pub matches: &'static [&'static str],
    /// Where the rule comes from.
    pub source: Source,
    /// What to do (the fix's label when there is one, else what to do instead).
    pub advice: &'static str,
    /// The check.
    pub check: Check,
    /// The mechanical fix, when there is one.
    pub fix: Option<FixFn>,
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rule").field("id", &self.id).finish()
    }
}

/// The rules a format's requests are checked against: its rule lists, in order (a dialect's
/// after its protocol's). A format with no rules has [`RuleSet::NONE`].
#[derive(Debug, Clone, Copy)]
pub struct RuleSet(pub &'static [&'static [Rule]]);

impl RuleSet {
    /// No rules.
    pub const NONE: RuleSet = RuleSet(&[]);

    /// The rules, in order.
    pub fn iter(self) -> impl Iterator<Item = &'static Rule> {
        self.0.iter().flat_map(|s| s.iter())
    }

    /// The rule of this set with this id.
    pub fn find(self, id: &str) -> Option<&'static Rule> {
        self.iter().find(|r| r.id == id)
    }

    /// Every finding of the rules in the request body `doc`, in document order per rule.
    pub fn check(self, doc: &Value) -> Vec<Finding> {
        let mut out = Vec::new();
        for r in self.iter() {
            for mut f in (r.check)(doc) {
                f.severity = r.severity;
                f.def = Some(r);
                out.push(f);
            }
        }
        out
    }

    /// Apply every mechanical fix of the rules until none is left: the rules that were fixed
    /// (one entry per fix applied). Each fix can move what the others point at, so the rules
    /// run again after each; the loop ends because a fix that changes nothing stops it.
    pub fn fix_all(self, doc: &mut Value) -> Vec<&'static str> {
        let mut applied = Vec::new();
        let budget = self.check(doc).len() * 4 + 16;
        for _ in 0..budget {
            let found = self.check(doc);
            let Some(f) = found
                .iter()
                .find(|f| f.rule().is_some_and(|r| r.fix.is_some()))
            else {
                break;
            };
            if !apply(doc, f) {
                break;
            }
            applied.push(f.rule);
        }
        applied
    }

    /// The rule a provider's error answer (its body as text) names, among these rules.
    pub fn match_error(self, body: &str) -> Option<&'static Rule> {
        self.iter()
            .find(|r| !r.matches.is_empty() && r.matches.iter().all(|m| body.contains(m)))
    }
}

/// One broken rule in a document.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// JSON pointer into the wire document (`/messages/2/content/0`).
    pub pointer: String,
    /// The rule's id.
    pub rule: &'static str,
    /// The rule's severity (set by [`RuleSet::check`]).
    pub severity: Severity,
    /// What is wrong here, for a person.
    pub message: String,
    /// The id (or name) the finding is about, when a fix needs it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The rule itself (set by [`RuleSet::check`]).
    #[serde(skip)]
    def: Option<&'static Rule>,
}

/// Two findings are equal when they say the same thing at the same spot (the rule is named by
/// its id).
impl PartialEq for Finding {
    fn eq(&self, other: &Self) -> bool {
        self.pointer == other.pointer
            && self.rule == other.rule
            && self.severity == other.severity
            && self.message == other.message
            && self.subject == other.subject
    }
}

impl Finding {
    /// A finding of `rule` at `pointer` (severity set by [`RuleSet::check`]).
    pub fn new(rule: &'static str, pointer: String, message: impl Into<String>) -> Self {
        Finding {
            pointer,
            rule,
            severity: Severity::Error,
            message: message.into(),
            subject: None,
            def: None,
        }
    }

    /// About this id or name.
    pub fn about(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// The rule this finding breaks (known once [`RuleSet::check`] has found it).
    pub fn rule(&self) -> Option<&'static Rule> {
        self.def
    }
}

impl fmt::Display for Finding {
    /// `error /messages/2/content/0: … [anthropic/tool-result-first]`, with the provider's
    /// words when the rule has them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.severity.as_str(),
            self.pointer,
            self.message
        )?;
        if let Some(r) = self.rule() {
            match r.error {
                Some(e) => write!(f, " ({} says: \"{}\")", r.provider, e)?,
                None => write!(f, " ({})", r.provider)?,
            }
            write!(f, "; {}", r.advice)?;
        }
        write!(f, " [{}]", self.rule)
    }
}

/// True when a finding is an error (the provider rejects the request).
pub fn has_errors(found: &[Finding]) -> bool {
    found.iter().any(|f| f.severity == Severity::Error)
}

/// Apply the fix of one finding; false when its rule has none or it could not be applied.
pub fn apply(doc: &mut Value, f: &Finding) -> bool {
    match f.rule().and_then(|r| r.fix) {
        Some(fix) => fix(doc, f),
        None => false,
    }
}

// ---- Helpers the rule files share -------------------------------------------------------

/// One pointer segment, escaped (`~` → `~0`, `/` → `~1`).
pub(crate) fn esc(s: &str) -> String {
    if s.contains(['~', '/']) {
        s.replace('~', "~0").replace('/', "~1")
    } else {
        s.to_string()
    }
}

/// The array at `key` of `v`, or an empty slice.
pub(crate) fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// The string at `key` of `v`.
pub(crate) fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Edit the array `items` of entry `n` of the array `list` of `doc` (the blocks of a message,
/// the parts of a turn), and drop the entry when that leaves it empty: false when either is
/// missing or `edit` changed nothing.
pub(crate) fn edit_items(
    doc: &mut Value,
    list: &str,
    n: usize,
    items: &str,
    edit: impl FnOnce(&mut Vec<Value>) -> bool,
) -> bool {
    let Some(entries) = doc.get_mut(list).and_then(Value::as_array_mut) else {
        return false;
    };
    let Some(inner) = entries
        .get_mut(n)
        .and_then(|e| e.get_mut(items))
        .and_then(Value::as_array_mut)
    else {
        return false;
    };
    if !edit(inner) {
        return false;
    }
    if inner.is_empty() {
        entries.remove(n);
    }
    true
}

/// Drop the block a finding points at (`/messages/n/content/j`), and the message when that
/// leaves it empty.
pub(crate) fn drop_block(doc: &mut Value, f: &Finding) -> bool {
    let (Some(n), Some(j)) = (seg(&f.pointer, 1), seg(&f.pointer, 3)) else {
        return false;
    };
    edit_items(doc, "messages", n, "content", |content| {
        if j >= content.len() {
            return false;
        }
        content.remove(j);
        true
    })
}

/// The `n`th segment of a pointer, as an index (`/messages/3/content/1`, 1 → 3).
pub(crate) fn seg(pointer: &str, n: usize) -> Option<usize> {
    pointer.split('/').nth(n + 1)?.parse().ok()
}

/// A role's content as blocks: a string content becomes one text block of `text_key` spelling
/// (`{"type": "text", "text": …}` for Anthropic).
pub(crate) fn blocks_mut(
    msg: &mut Value,
    text_block: impl Fn(String) -> Value,
) -> Option<&mut Vec<Value>> {
    if let Some(s) = msg.get("content").and_then(Value::as_str) {
        let s = s.to_string();
        msg["content"] = Value::Array(if s.is_empty() {
            vec![]
        } else {
            vec![text_block(s)]
        });
    }
    msg.get_mut("content").and_then(Value::as_array_mut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_found_by_its_id_and_cites_a_source() {
        for r in crate::formats::all_rules() {
            assert_eq!(crate::formats::rule(r.id).map(|x| x.id), Some(r.id));
            assert!(r.source.url().starts_with("https://"), "{}", r.id);
            assert!(!r.advice.is_empty(), "{}", r.id);
            if let Some(e) = r.error {
                for m in r.matches {
                    assert!(e.contains(m), "{}: {m:?} is not in its error text", r.id);
                }
            }
        }
    }

    /// A made-up rule: no message may say "no".
    const TOY: &[Rule] = &[Rule {
        id: "toy/no-no",
        provider: "Toy",
        severity: Severity::Warning,
        error: Some("messages.1: no is not allowed"),
        matches: &["is not allowed"],
        source: Source::Docs("https://example.com/toy"),
        advice: "fix: drop the message",
        check: |d| {
            arr(d, "messages")
                .iter()
                .enumerate()
                .filter(|(_, m)| m == &"no")
                .map(|(i, _)| Finding::new("toy/no-no", format!("/messages/{i}"), "says no"))
                .collect()
        },
        fix: Some(|d, f| {
            let i = seg(&f.pointer, 1).unwrap_or(usize::MAX);
            match d.get_mut("messages").and_then(Value::as_array_mut) {
                Some(m) if i < m.len() => {
                    m.remove(i);
                    true
                }
                _ => false,
            }
        }),
    }];

    #[test]
    fn a_rule_set_runs_fixes_and_matches_its_rules() {
        let set = RuleSet(&[TOY]);
        let mut doc = serde_json::json!({"messages": ["yes", "no", "no"]});
        let found = set.check(&doc);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].severity, Severity::Warning);
        assert_eq!(found[1].rule().map(|r| r.id), Some("toy/no-no"));
        assert!(!has_errors(&found));
        assert_eq!(
            found[0].to_string(),
            "warning /messages/1: says no (Toy says: \"messages.1: no is not allowed\"); \
             fix: drop the message [toy/no-no]"
        );
        assert_eq!(set.fix_all(&mut doc), ["toy/no-no", "toy/no-no"]);
        assert_eq!(doc, serde_json::json!({"messages": ["yes"]}));
        assert_eq!(
            set.match_error("{\"error\": \"messages.4: no is not allowed\"}")
                .map(|r| r.id),
            Some("toy/no-no")
        );
        assert!(RuleSet::NONE.check(&doc).is_empty());
        // A finding made outside a set knows no rule, so it has no fix to apply.
        assert!(!apply(
            &mut doc,
            &Finding::new("toy/no-no", "/messages/0".into(), "x")
        ));
    }

    #[test]
    fn pointer_segments_escape() {
        assert_eq!(esc("a/b~c"), "a~1b~0c");
        assert_eq!(seg("/messages/3/content/1", 1), Some(3));
        assert_eq!(seg("/messages/3/content/1", 3), Some(1));
    }
}
