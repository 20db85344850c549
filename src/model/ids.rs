//! Call-id rules and the two rewrites every id-pairing encoder needs: giving ids to calls that
//! have none (Gemini, legacy XML) and making ids fit a provider's pattern. Both are
//! deterministic and keep each call and its results paired; both report what they changed.

use super::{Exchange, Loss, Losses, Part, Role};
use std::collections::{HashMap, HashSet};

/// What a provider accepts as a call id (each provider's rule is declared in its format's
/// folder, as an associated constant: `IdRule::<PROVIDER>`).
#[derive(Debug, Clone, Copy)]
pub struct IdRule {
    /// Provider name for messages.
    pub provider: &'static str,
    /// Longest id accepted.
    pub max_len: usize,
    /// When set, ids must have exactly this length.
    pub exact_len: Option<usize>,
    /// Characters allowed.
    pub allowed: fn(char) -> bool,
    /// The pattern as the provider documents it, for messages.
    pub pattern: &'static str,
}

impl IdRule {
    /// An ASCII letter, digit, `_` or `-` (`[a-zA-Z0-9_-]`).
    pub fn word_or_dash(c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || c == '-'
    }

    /// An ASCII letter or digit (`[a-zA-Z0-9]`).
    pub fn alphanumeric(c: char) -> bool {
        c.is_ascii_alphanumeric()
    }

    /// True when `id` is valid as it is.
    pub fn accepts(&self, id: &str) -> bool {
        let n = id.chars().count();
        let len_ok = match self.exact_len {
            Some(exact) => n == exact,
            None => n >= 1 && n <= self.max_len,
        };
        len_ok && id.chars().all(self.allowed)
    }

    /// A valid id derived from `id` alone (collisions are handled by [`rewrite_ids`]).
    fn derive(&self, id: &str, salt: u32) -> String {
        let hash = fnv1a(id, salt);
        if let Some(exact) = self.exact_len {
            return base62(hash, exact);
        }
        let mut clean: String = id
            .chars()
            .map(|c| if (self.allowed)(c) { c } else { '_' })
            .collect();
        if clean.is_empty() {
            clean.push_str("call");
        }
        let suffix = if salt > 0 || clean.chars().count() > self.max_len {
            format!("_{:08x}", hash as u32)
        } else {
            String::new()
        };
        let keep = self.max_len.saturating_sub(suffix.len());
        let head: String = clean.chars().take(keep).collect();
        head + &suffix
    }
}

/// 64-bit FNV-1a: tiny, stable across platforms and releases (unlike `DefaultHasher`).
fn fnv1a(s: &str, salt: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes().chain(salt.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn base62(mut n: u64, len: usize) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(len);
    for _ in 0..len {
        out.push(char::from(DIGITS[(n % 62) as usize]));
        n /= 62;
    }
    out
}

/// Rewrite every call id (and the `call_id` of its results) that `rule` rejects into one it
/// accepts. The same original id always maps to the same new id, distinct originals never
/// share one, and valid ids are left alone. Each rewrite is reported.
pub fn rewrite_ids(x: &Exchange, rule: &IdRule) -> (Exchange, Vec<Loss>) {
    let mut used: HashSet<String> = HashSet::new();
    for msg in &x.messages {
        for part in &msg.parts {
            match part {
                Part::ToolCall(c) => used.extend(c.id.iter().filter(|i| rule.accepts(i)).cloned()),
                Part::ToolResult(r) => {
                    used.extend(r.call_id.iter().filter(|i| rule.accepts(i)).cloned())
                }
                _ => {}
            }
        }
    }
    let mut map: HashMap<String, String> = HashMap::new();
    let mut fresh = |old: &str, used: &mut HashSet<String>| -> String {
        if let Some(new) = map.get(old) {
            return new.clone();
        }
        let mut salt = 0;
        let mut new = rule.derive(old, salt);
        while used.contains(&new) {
            salt += 1;
            new = rule.derive(old, salt);
        }
        used.insert(new.clone());
        map.insert(old.to_string(), new.clone());
        new
    };
    let mut out = x.clone();
    let mut losses = Losses::new();
    let why = format!(
        "{} requires call ids matching {}",
        rule.provider, rule.pattern
    );
    for (mi, msg) in out.messages.iter_mut().enumerate() {
        for (pi, part) in msg.parts.iter_mut().enumerate() {
            let (slot, field) = match part {
                Part::ToolCall(c) => (&mut c.id, "id"),
                Part::ToolResult(r) => (&mut r.call_id, "call_id"),
                _ => continue,
            };
            if let Some(old) = slot.as_deref() {
                if !rule.accepts(old) {
                    let new = fresh(old, &mut used);
                    losses.rewritten(
                        format!("/messages/{mi}/parts/{pi}/{field}"),
                        format!("call id {old:?} sent as {new:?}"),
                        why.clone(),
                    );
                    *slot = Some(new);
                }
            }
        }
    }
    (out, losses.into_vec())
}

/// [`assign_missing_ids`] then, with a `rule`, [`rewrite_ids`], borrowing the exchange when
/// neither would change it (every call has an id, every result its `call_id`, and the rule
/// accepts them all: the common case, which then costs no copy of the exchange).
pub fn settle_ids<'a>(
    x: &'a Exchange,
    why: &str,
    rule: Option<&IdRule>,
) -> (std::borrow::Cow<'a, Exchange>, Vec<Loss>) {
    let fits = |id: Option<&str>| id.is_some_and(|id| rule.is_none_or(|r| r.accepts(id)));
    let settled = x.messages.iter().flat_map(|m| &m.parts).all(|p| match p {
        Part::ToolCall(c) => fits(c.id.as_deref()),
        Part::ToolResult(r) => fits(r.call_id.as_deref()),
        _ => true,
    });
    if settled {
        return (std::borrow::Cow::Borrowed(x), Vec::new());
    }
    let (with_ids, mut losses) = assign_missing_ids(x, why);
    let Some(rule) = rule else {
        return (std::borrow::Cow::Owned(with_ids), losses);
    };
    let (out, rewritten) = rewrite_ids(&with_ids, rule);
    losses.extend(rewritten);
    (std::borrow::Cow::Owned(out), losses)
}

/// Give an id to every call that has none and pair every result that has no `call_id` with a
/// call: by name among the calls not yet answered, else the oldest unanswered call. New ids are
/// `call_1`, `call_2`, … in order, skipping ids already present. Each change is reported.
pub fn assign_missing_ids(x: &Exchange, why: &str) -> (Exchange, Vec<Loss>) {
    let mut taken: HashSet<String> = HashSet::new();
    for msg in &x.messages {
        for call in msg.tool_calls() {
            taken.extend(call.id.iter().cloned());
        }
    }
    let mut out = x.clone();
    let mut losses = Losses::new();
    let mut next = 1usize;
    // Calls not yet answered: (id, name), oldest first.
    let mut pending: Vec<(String, String)> = Vec::new();
    for (mi, msg) in out.messages.iter_mut().enumerate() {
        if msg.role == Role::Assistant {
            pending.clear();
        }
        for (pi, part) in msg.parts.iter_mut().enumerate() {
            match part {
                Part::ToolCall(c) => {
                    let id = match &c.id {
                        Some(id) => id.clone(),
                        None => {
                            let mut id = format!("call_{next}");
                            while taken.contains(&id) {
                                next += 1;
                                id = format!("call_{next}");
                            }
                            next += 1;
                            taken.insert(id.clone());
                            losses.added(
                                format!("/messages/{mi}/parts/{pi}/id"),
                                format!("call id {id:?} for {}", c.name),
                                why.to_string(),
                            );
                            c.id = Some(id.clone());
                            id
                        }
                    };
                    pending.push((id, c.name.clone()));
                }
                Part::ToolResult(r) => match &r.call_id {
                    Some(id) => pending.retain(|(p, _)| p != id),
                    None => {
                        let by_name = r
                            .name
                            .as_ref()
                            .and_then(|n| pending.iter().position(|(_, pn)| pn == n));
                        let pick = by_name.or(if pending.is_empty() { None } else { Some(0) });
                        if let Some(k) = pick {
                            let (id, name) = pending.remove(k);
                            losses.added(
                                format!("/messages/{mi}/parts/{pi}/call_id"),
                                format!("result paired with call {id:?} ({name})"),
                                why.to_string(),
                            );
                            r.call_id = Some(id);
                        }
                    }
                },
                _ => {}
            }
        }
    }
    (out, losses.into_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Message, ResultContent, ToolCall, ToolResult};
    use serde_json::json;

    fn call(id: Option<&str>, name: &str) -> Part {
        Part::ToolCall(ToolCall::new(id.map(Into::into), name, json!({})))
    }
    fn result(id: Option<&str>, name: Option<&str>) -> Part {
        let mut r = ToolResult::new(id.map(Into::into), ResultContent::Text("ok".into()));
        r.name = name.map(Into::into);
        Part::ToolResult(r)
    }
    fn exchange(msgs: Vec<Message>) -> Exchange {
        Exchange {
            messages: msgs,
            ..Default::default()
        }
    }

    #[test]
    fn model_rewrite_ids_keeps_pairs_and_reports() {
        let long = "x".repeat(80);
        let x = exchange(vec![
            Message::new(
                Role::Assistant,
                vec![
                    call(Some("functions.Bash:0"), "a"),
                    call(Some(&long), "b"),
                    call(Some("ok_1"), "c"),
                ],
            ),
            Message::new(
                Role::Tool,
                vec![
                    result(Some("functions.Bash:0"), None),
                    result(Some(&long), None),
                    result(Some("ok_1"), None),
                ],
            ),
        ]);
        let (y, losses) = rewrite_ids(&x, &IdRule::ANTHROPIC);
        let calls: Vec<_> = y.messages[0]
            .tool_calls()
            .map(|c| c.id.clone().unwrap())
            .collect();
        let results: Vec<_> = y.messages[1]
            .tool_results()
            .map(|r| r.call_id.clone().unwrap())
            .collect();
        assert_eq!(calls, results);
        assert_eq!(calls[0], "functions_Bash_0");
        assert_eq!(calls[1].len(), 64);
        assert_eq!(calls[2], "ok_1");
        assert!(calls.iter().all(|c| IdRule::ANTHROPIC.accepts(c)));
        assert_eq!(losses.len(), 4);
        // Deterministic.
        assert_eq!(rewrite_ids(&x, &IdRule::ANTHROPIC).0, y);
    }

    #[test]
    fn model_rewrite_ids_avoids_collisions() {
        let x = exchange(vec![Message::new(
            Role::Assistant,
            vec![
                call(Some("a.b"), "f"),
                call(Some("a:b"), "f"),
                call(Some("a_b"), "f"),
            ],
        )]);
        let (y, _) = rewrite_ids(&x, &IdRule::ANTHROPIC);
        let ids: HashSet<_> = y.messages[0]
            .tool_calls()
            .map(|c| c.id.clone().unwrap())
            .collect();
        assert_eq!(ids.len(), 3);
    }

    #[test]
    fn model_mistral_ids_are_nine_alphanumerics() {
        let x = exchange(vec![Message::new(
            Role::Assistant,
            vec![call(Some("call_abc123"), "f")],
        )]);
        let (y, losses) = rewrite_ids(&x, &IdRule::MISTRAL);
        let id = y.messages[0]
            .tool_calls()
            .next()
            .unwrap()
            .id
            .clone()
            .unwrap();
        assert!(IdRule::MISTRAL.accepts(&id), "{id}");
        assert_eq!(losses.len(), 1);
    }

    #[test]
    fn model_assign_missing_ids_pairs_by_name_then_order() {
        let x = exchange(vec![
            Message::new(
                Role::Assistant,
                vec![call(None, "weather"), call(None, "time")],
            ),
            Message::new(
                Role::Tool,
                vec![result(None, Some("time")), result(None, None)],
            ),
        ]);
        let (y, losses) = assign_missing_ids(&x, "test");
        let calls: Vec<_> = y.messages[0]
            .tool_calls()
            .map(|c| c.id.clone().unwrap())
            .collect();
        assert_eq!(calls, ["call_1", "call_2"]);
        let results: Vec<_> = y.messages[1]
            .tool_results()
            .map(|r| r.call_id.clone().unwrap())
            .collect();
        assert_eq!(results, ["call_2", "call_1"]);
        assert_eq!(losses.len(), 4);
    }
}
