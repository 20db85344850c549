//! Golden files: every canonical exchange × every format × request and response, plus the
//! round trip of each golden document back to the model (differences only where a loss says).

use crate::common;

use toolscope::cli::describe;
use toolscope::formats::{Format, Kind};
use toolscope::model::diff::unexplained;

fn check(format: Format) {
    let mut failures = Vec::new();
    for (case, x) in common::cases() {
        for kind in [Kind::Request, Kind::Response] {
            let enc = format.encode(&x, kind);
            let dir = common::fixtures().join(format.id());
            let ext = if format.id() == "anthropic-xml" {
                "txt"
            } else {
                "json"
            };
            let doc_path = dir.join(format!("{case}.{}.{ext}", kind.as_str()));
            if let Some(f) = common::golden(&doc_path, &(enc.text.clone() + "\n")) {
                failures.push(f);
            }
            let losses: String = enc.losses.iter().map(|l| describe(l) + "\n").collect();
            let loss_path = dir.join(format!("{case}.{}.losses.txt", kind.as_str()));
            if let Some(f) = common::golden(&loss_path, &losses) {
                failures.push(f);
            }
            let expected = match kind {
                Kind::Request => x.request_view(),
                Kind::Response => x.response_view(),
            };
            match format.decode(&enc.text, kind) {
                Ok(dec) => {
                    let mut all = enc.losses.clone();
                    all.extend(dec.losses);
                    let left = unexplained(&expected, &dec.exchange, &all);
                    if !left.is_empty() {
                        failures.push(format!(
                            "{case} {}: round trip changed {left:?} without a loss",
                            kind.as_str()
                        ));
                    }
                }
                Err(e) => failures.push(format!(
                    "{case} {}: own output does not decode: {e}",
                    kind.as_str()
                )),
            }
            match Format::detect(&enc.text) {
                Ok((f, k)) if (f == format || f == format.protocol()) && k == kind => {}
                other => failures.push(format!("{case} {}: detected as {other:?}", kind.as_str())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

macro_rules! golden_tests {
    ($($name:ident: $format:expr;)*) => {$(
        #[test]
        fn $name() {
            check($format);
        }
    )*};
}

golden_tests! {
    openai_chat_golden: Format::OpenAiChat;
    openai_responses_golden: Format::OpenAiResponses;
    anthropic_golden: Format::Anthropic;
    gemini_golden: Format::Gemini;
    bedrock_golden: Format::Bedrock;
    mcp_golden: Format::Mcp;
    anthropic_xml_golden: Format::AnthropicXml;
    deepseek_golden: Format::DeepSeek;
    mistral_golden: Format::Mistral;
    cohere_golden: Format::Cohere;
    ollama_golden: Format::Ollama;
    ai_sdk_golden: Format::AiSdk;
}
