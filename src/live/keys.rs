//! API keys, each bound to the origin (scheme, host, port) it was typed for.
//!
//! A key is looked up for a run's own target, never for whatever the form shows now, and only
//! when the target's origin is the one the key was typed for: a key typed for
//! `https://api.openai.com` is not sent to `https://gateway.example` until the user confirms
//! that it may go there ([`KeyRing::confirm`]).

use super::{Provider, Target, Url};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One kept key and the origin it may be sent to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyEntry {
    /// The key as typed.
    pub key: String,
    /// `scheme://host[:port]` it was typed for (default ports left out).
    pub origin: String,
}

/// The keys of the page, one per provider.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct KeyRing(pub BTreeMap<String, KeyEntry>);

/// What the key ring holds for a target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyFor {
    /// No key for this provider.
    Missing,
    /// A key bound to the target's origin: it may be sent.
    Bound(String),
    /// A key typed for another origin: it is not sent there until the user confirms.
    Elsewhere {
        /// Where the key was typed for.
        typed_for: String,
        /// Where the target points now (empty when its base URL does not parse).
        now: String,
    },
}

/// `scheme://host[:port]` of an http(s) URL, lower case, default ports left out; `None` when
/// the text is not an absolute http(s) URL without credentials.
pub fn origin_of(url: &str) -> Option<String> {
    let u = Url::parse(url)?;
    let text = url.trim();
    let after = &text[text.find("://")? + 3..];
    let authority = &after[..after.find(['/', '?', '#']).unwrap_or(after.len())];
    let port = if authority.starts_with('[') {
        authority
            .rsplit_once("]:")
            .map(|(_, p)| p.to_string())
            .unwrap_or_default()
    } else {
        authority
            .split_once(':')
            .map(|(_, p)| p.to_string())
            .unwrap_or_default()
    };
    let default = if u.scheme == "https" { "443" } else { "80" };
    let host = u.host.to_ascii_lowercase();
    Some(if port.is_empty() || port == default {
        format!("{}://{host}", u.scheme)
    } else {
        format!("{}://{host}:{port}", u.scheme)
    })
}

impl KeyRing {
    /// Keep `key` for `provider`, bound to the origin of `base_url` (an empty key forgets it).
    /// A key typed while the base URL does not parse is bound to nothing and never sent.
    pub fn set(&mut self, provider: Provider, key: &str, base_url: &str) {
        if key.is_empty() {
            self.0.remove(provider.id());
            return;
        }
        let origin = origin_of(base_url).unwrap_or_default();
        self.0.insert(
            provider.id().to_string(),
            KeyEntry {
                key: key.to_string(),
                origin,
            },
        );
    }

    /// The kept entry of `provider`.
    pub fn entry(&self, provider: Provider) -> Option<&KeyEntry> {
        self.0.get(provider.id())
    }

    /// The key `target` may be sent with.
    pub fn for_target(&self, target: &Target) -> KeyFor {
        let Some(e) = self.entry(target.provider) else {
            return KeyFor::Missing;
        };
        let now = origin_of(&target.base_url).unwrap_or_default();
        if !e.origin.is_empty() && e.origin == now {
            KeyFor::Bound(e.key.clone())
        } else {
            KeyFor::Elsewhere {
                typed_for: e.origin.clone(),
                now,
            }
        }
    }

    /// The user confirmed that `provider`'s key may go to the origin of `base_url`.
    pub fn confirm(&mut self, provider: Provider, base_url: &str) {
        if let (Some(e), Some(o)) = (self.0.get_mut(provider.id()), origin_of(base_url)) {
            e.origin = o;
        }
    }

    /// Read kept keys: this form, or the earlier `{provider: key}` map, whose keys are bound
    /// to each provider's default origin (where they were typed for unless a base URL was
    /// changed, in which case the user confirms once).
    pub fn from_stored(text: &str) -> Option<KeyRing> {
        if let Ok(r) = serde_json::from_str::<KeyRing>(text) {
            return Some(r);
        }
        let old: BTreeMap<String, String> = serde_json::from_str(text).ok()?;
        let mut ring = KeyRing::default();
        for (id, key) in old {
            if let Some(p) = Provider::from_id(&id) {
                ring.set(p, &key, p.default_base_url());
            }
        }
        Some(ring)
    }
}

impl KeyFor {
    /// Why the key is not sent, for the form (None when it may be sent or there is none).
    pub fn problem(&self) -> Option<String> {
        match self {
            KeyFor::Elsewhere { typed_for, now } if typed_for.is_empty() => Some(format!(
                "This key was typed while the base URL was not a valid address; confirm that it \
                 may be sent to {}.",
                if now.is_empty() { "the base URL" } else { now }
            )),
            KeyFor::Elsewhere { typed_for, now } => Some(format!(
                "This key was typed for {typed_for}; the base URL now points at {}. It is not \
                 sent there until you confirm.",
                if now.is_empty() {
                    "an address that does not parse"
                } else {
                    now
                }
            )),
            _ => None,
        }
    }
}

/// Bearer tokens of MCP servers (typed, or obtained by OAuth), one per server URL, each bound
/// to the origin of the URL it was given for. Deliberately not serializable: tokens live in
/// memory only and cannot reach storage, a link or an export by way of this type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ServerTokens(BTreeMap<String, KeyEntry>);

impl ServerTokens {
    /// Keep `token` for `server` (an empty token forgets it), bound to the server's origin.
    pub fn set(&mut self, server: &str, token: &str) {
        let server = server.trim();
        if token.trim().is_empty() {
            self.0.remove(server);
            return;
        }
        self.0.insert(
            server.to_string(),
            KeyEntry {
                key: token.trim().to_string(),
                origin: origin_of(server).unwrap_or_default(),
            },
        );
    }

    /// The token typed for `server`, as typed (for its form field).
    pub fn typed(&self, server: &str) -> Option<&str> {
        self.0.get(server.trim()).map(|e| e.key.as_str())
    }

    /// The token a request to `url` for `server` may carry: only when `url` is on the origin
    /// the token was given for (a server that points elsewhere gets none).
    pub fn for_request(&self, server: &str, url: &str) -> KeyFor {
        let Some(e) = self.0.get(server.trim()) else {
            return KeyFor::Missing;
        };
        let now = origin_of(url).unwrap_or_default();
        if !e.origin.is_empty() && e.origin == now {
            KeyFor::Bound(e.key.clone())
        } else {
            KeyFor::Elsewhere {
                typed_for: e.origin.clone(),
                now,
            }
        }
    }

    /// Forget every token of `server`.
    pub fn forget(&mut self, server: &str) {
        self.0.remove(server.trim());
    }
}

#[cfg(test)]
mod server_token_tests {
    use super::*;

    #[test]
    fn a_token_goes_only_to_its_origin() {
        let mut t = ServerTokens::default();
        t.set("http://127.0.0.1:9000/mcp", "secret-token");
        assert_eq!(
            t.for_request("http://127.0.0.1:9000/mcp", "http://127.0.0.1:9000/mcp"),
            KeyFor::Bound("secret-token".into())
        );
        assert!(matches!(
            t.for_request("http://127.0.0.1:9000/mcp", "http://127.0.0.1:9001/mcp"),
            KeyFor::Elsewhere { .. }
        ));
        assert_eq!(
            t.for_request("http://other/mcp", "http://other/mcp"),
            KeyFor::Missing
        );
        t.set("http://127.0.0.1:9000/mcp", "");
        assert_eq!(t.typed("http://127.0.0.1:9000/mcp"), None);
    }
}
