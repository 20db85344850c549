//! PLACEHOLDER: replaced by the real anthropic-xml codec.

/// PLACEHOLDER codec for `anthropic-xml`: replaced by the real one.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = "anthropic-xml";
    type Request = serde_json::Value;
    type Response = serde_json::Value;
    fn encode_request(_x: &crate::model::Exchange) -> (serde_json::Value, Vec<crate::model::Loss>) {
        (serde_json::Value::Null, Vec::new())
    }
    fn decode_request(
        _doc: serde_json::Value,
    ) -> Result<(crate::model::Exchange, Vec<crate::model::Loss>), crate::formats::DecodeError>
    {
        Err(crate::formats::DecodeError::at(
            Self::ID,
            "",
            "not implemented",
        ))
    }
    fn encode_response(
        _x: &crate::model::Exchange,
    ) -> (serde_json::Value, Vec<crate::model::Loss>) {
        (serde_json::Value::Null, Vec::new())
    }
    fn decode_response(
        _doc: serde_json::Value,
    ) -> Result<(crate::model::Exchange, Vec<crate::model::Loss>), crate::formats::DecodeError>
    {
        Err(crate::formats::DecodeError::at(
            Self::ID,
            "",
            "not implemented",
        ))
    }
    fn sniff(_v: &serde_json::Value) -> Option<(crate::formats::Kind, u8)> {
        None
    }
}
