//! Round-trip property: for generated exchanges, `decode(encode(x))` equals `x` except under
//! the pointers of the losses reported by the encoder and the decoder; nothing panics.

use crate::common;

use proptest::prelude::*;
use toolscope::formats::{Format, Kind};
use toolscope::model::Exchange;

fn round_trip(format: Format, kind: Kind, x: &Exchange) -> Result<(), TestCaseError> {
    common::try_trip(format, x, kind)
        .map(drop)
        .map_err(TestCaseError::fail)
}

macro_rules! round_trip_tests {
    ($($name:ident: $format:expr;)*) => {$(
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(common::gen::config(256))]
                #[test]
                fn request_round_trip(x in common::gen::exchange()) {
                    round_trip($format, Kind::Request, &x)?;
                }
                #[test]
                fn response_round_trip(x in common::gen::response()) {
                    round_trip($format, Kind::Response, &x)?;
                }
            }
        }
    )*};
}

round_trip_tests! {
    openai_chat_roundtrip: Format::OpenAiChat;
    openai_responses_roundtrip: Format::OpenAiResponses;
    anthropic_roundtrip: Format::Anthropic;
    gemini_roundtrip: Format::Gemini;
    bedrock_roundtrip: Format::Bedrock;
    mcp_roundtrip: Format::Mcp;
    anthropic_xml_roundtrip: Format::AnthropicXml;
    deepseek_roundtrip: Format::DeepSeek;
    mistral_roundtrip: Format::Mistral;
    cohere_roundtrip: Format::Cohere;
    ollama_roundtrip: Format::Ollama;
    ai_sdk_roundtrip: Format::AiSdk;
}
