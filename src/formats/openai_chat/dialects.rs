//! PLACEHOLDER: the OpenAI-compatible dialects, replaced by the real ones.

/// PLACEHOLDER codec for `deepseek`: replaced by the real one.
pub struct DeepSeek;

impl crate::formats::Codec for DeepSeek {
    const ID: &'static str = "deepseek";
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
/// PLACEHOLDER codec for `mistral`: replaced by the real one.
pub struct Mistral;

impl crate::formats::Codec for Mistral {
    const ID: &'static str = "mistral";
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
/// PLACEHOLDER codec for `cohere`: replaced by the real one.
pub struct Cohere;

impl crate::formats::Codec for Cohere {
    const ID: &'static str = "cohere";
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
/// PLACEHOLDER codec for `ollama`: replaced by the real one.
pub struct Ollama;

impl crate::formats::Codec for Ollama {
    const ID: &'static str = "ollama";
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
