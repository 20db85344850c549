//! What the chat dialects with their own call-id rule accept as a call id.

use crate::model::IdRule;

impl IdRule {
    /// Mistral `tool_call_id`: exactly 9 characters `[a-zA-Z0-9]`.
    pub const MISTRAL: IdRule = IdRule {
        provider: "Mistral",
        max_len: 9,
        exact_len: Some(9),
        allowed: IdRule::alphanumeric,
        pattern: "^[a-zA-Z0-9]{9}$",
    };
}
