//! Round-trip property: for generated exchanges, `decode(encode(x))` equals `x` except under
//! the pointers of the losses reported by the encoder and the decoder; nothing panics.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use toolscope::formats::{Format, Kind};
use toolscope::model::diff::unexplained;
use toolscope::model::Exchange;

fn round_trip(format: Format, kind: Kind, x: &Exchange) -> Result<(), TestCaseError> {
    let enc = format.encode(x, kind);
    let dec = format.decode(&enc.text, kind).map_err(|e| {
        TestCaseError::fail(format!("own output does not decode: {e}\n{}", enc.text))
    })?;
    let mut losses = enc.losses.clone();
    losses.extend(dec.losses);
    let expected = match kind {
        Kind::Request => x.request_view(),
        Kind::Response => x.response_view(),
    };
    let left = unexplained(&expected, &dec.exchange, &losses);
    prop_assert!(
        left.is_empty(),
        "unreported differences {left:?}\nlosses: {losses:#?}\ndocument:\n{}\nback: {}",
        enc.text,
        serde_json::to_string_pretty(&dec.exchange).unwrap_or_default()
    );
    Ok(())
}

/// 256 cases per property from a fixed seed, so `make test` is deterministic; with
/// `PROPTEST_CASES` set (a deeper, exploratory run) that many cases from a random seed.
fn config() -> ProptestConfig {
    match std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(cases) => ProptestConfig::with_cases(cases),
        None => ProptestConfig {
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x7001_5c0e),
            ..ProptestConfig::with_cases(256)
        },
    }
}

macro_rules! round_trip_tests {
    ($($name:ident: $format:expr;)*) => {$(
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(super::config())]
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
