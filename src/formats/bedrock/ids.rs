//! What Converse accepts as a call id.

use crate::model::IdRule;

impl IdRule {
    /// Bedrock `toolUseId`: 1 to 64 of `[a-zA-Z0-9_-]`. botocore's model also allows `.` and
    /// `:`; the stricter rule keeps ids valid for Anthropic models behind Bedrock too.
    pub const BEDROCK: IdRule = IdRule {
        provider: "Bedrock",
        max_len: 64,
        exact_len: None,
        allowed: IdRule::word_or_dash,
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
    };
}
