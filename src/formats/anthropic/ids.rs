//! What the Messages API accepts as a call id.

use crate::model::IdRule;

impl IdRule {
    /// Anthropic `tool_use.id`: `^[a-zA-Z0-9_-]+$`, at most 64 characters.
    pub const ANTHROPIC: IdRule = IdRule {
        provider: "Anthropic",
        max_len: 64,
        exact_len: None,
        allowed: IdRule::word_or_dash,
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
    };
}
