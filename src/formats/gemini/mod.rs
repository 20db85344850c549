//! PLACEHOLDER: replaced by the real gemini codec.

use crate::formats::{DecodeError, Kind};
use crate::model::{Exchange, Loss};
use serde_json::Value;

/// The gemini codec.
pub struct Codec;

impl crate::formats::Codec for Codec {
    const ID: &'static str = "gemini";
    type Request = Value;
    type Response = Value;
    fn encode_request(_x: &Exchange) -> (Value, Vec<Loss>) {
        (Value::Null, Vec::new())
    }
    fn decode_request(_doc: Value) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        Err(DecodeError::at(Self::ID, "", "not implemented"))
    }
    fn encode_response(_x: &Exchange) -> (Value, Vec<Loss>) {
        (Value::Null, Vec::new())
    }
    fn decode_response(_doc: Value) -> Result<(Exchange, Vec<Loss>), DecodeError> {
        Err(DecodeError::at(Self::ID, "", "not implemented"))
    }
    fn sniff(_v: &Value) -> Option<(Kind, u8)> {
        None
    }
}
