//! Requests shaped like real provider traffic, one or more per provider (as their SDKs and
//! docs send them), for `tests/it/real_traffic.rs` and the SDK check in `tests/it/sdk.rs`.

use serde_json::{json, Value};
use toolscope::formats::{read_any, Format, Kind};

/// `(name, document)`: real-shaped requests of each provider.
pub fn real_requests() -> Vec<(&'static str, Value)> {
    let weather_params = json!({"type": "object", "properties": {"city": {"type": "string", "description": "City name"}, "unit": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]}}, "required": ["city", "unit"], "additionalProperties": false});
    vec![
        (
            "openai-chat",
            json!({
                "model": "gpt-4o-2024-08-06",
                "messages": [
                    {"role": "system", "content": "You are a weather bot."},
                    {"role": "user", "content": "Weather in Paris and Oslo?"},
                    {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
                        {"id": "call_a1B2c3D4e5F6g7H8", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"unit\":null}"}},
                        {"id": "call_Z9y8X7w6V5u4T3s2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\",\"unit\":\"celsius\"}"}}
                    ]},
                    {"role": "tool", "tool_call_id": "call_a1B2c3D4e5F6g7H8", "content": "{\"temp\": 18}"},
                    {"role": "tool", "tool_call_id": "call_Z9y8X7w6V5u4T3s2", "content": "{\"temp\": 4}"}
                ],
                "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Current weather", "strict": true, "parameters": weather_params}}],
                "tool_choice": "auto",
                "parallel_tool_calls": true
            }),
        ),
        (
            "openai-responses",
            json!({
                "model": "gpt-4.1",
                "instructions": "Answer briefly.",
                "input": [
                    {"role": "user", "content": "What is 12 * 7?"},
                    {"type": "function_call", "id": "fc_67ca09c5efe0819096d0511c92b8c890", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k", "name": "multiply", "arguments": "{\"a\":12,\"b\":7}", "status": "completed"},
                    {"type": "function_call_output", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k", "output": "84"}
                ],
                "tools": [{"type": "function", "name": "multiply", "description": "Multiply", "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"], "additionalProperties": false}, "strict": true}]
            }),
        ),
        (
            "anthropic",
            json!({
                "model": "claude-sonnet-4-5-20250929",
                "max_tokens": 1024,
                "tools": [{"name": "get_stock_price", "description": "Stock price", "input_schema": {"type": "object", "properties": {"ticker": {"type": "string"}, "currency": {"type": "string", "enum": ["USD", "EUR"]}}, "required": ["ticker"]}}],
                "messages": [
                    {"role": "user", "content": "Price of AAPL?"},
                    {"role": "assistant", "content": [
                        {"type": "text", "text": "Let me check."},
                        {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_stock_price", "input": {"ticker": "AAPL"}}
                    ]},
                    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9", "content": "189.84"}]}
                ]
            }),
        ),
        (
            "gemini",
            json!({
                "contents": [
                    {"role": "user", "parts": [{"text": "Turn on the lights in the kitchen"}]},
                    {"role": "model", "parts": [{"functionCall": {"name": "set_light", "args": {"room": "kitchen", "on": true, "brightness": 80}}}]},
                    {"role": "user", "parts": [{"functionResponse": {"name": "set_light", "response": {"output": {"ok": true}}}}]}
                ],
                "tools": [{"functionDeclarations": [{"name": "set_light", "description": "Switch a light", "parameters": {"type": "OBJECT", "properties": {"room": {"type": "STRING"}, "on": {"type": "BOOLEAN"}, "brightness": {"type": "INTEGER", "nullable": true}}, "required": ["room", "on"]}}]}],
                "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}
            }),
        ),
        (
            "bedrock",
            json!({
                "modelId": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                "messages": [
                    {"role": "user", "content": [{"text": "What's the top song on WZPZ?"}]},
                    {"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "top_song", "input": {"sign": "WZPZ"}}}]},
                    {"role": "user", "content": [{"toolResult": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "content": [{"json": {"song": "Elemental Hotel", "artist": "8 Storey Hike"}}]}}]}
                ],
                "toolConfig": {"tools": [{"toolSpec": {"name": "top_song", "description": "Get the most popular song played on a radio station.", "inputSchema": {"json": {"type": "object", "properties": {"sign": {"type": "string"}}, "required": ["sign"]}}}}]}
            }),
        ),
        (
            "mistral",
            json!({
                "model": "mistral-large-latest",
                "messages": [
                    {"role": "user", "content": "What's the status of my transaction T1001?"},
                    {"role": "assistant", "content": "", "tool_calls": [{"id": "D681PevKs", "function": {"name": "retrieve_payment_status", "arguments": "{\"transaction_id\": \"T1001\"}"}}]},
                    {"role": "tool", "name": "retrieve_payment_status", "content": "{\"status\": \"Paid\"}", "tool_call_id": "D681PevKs"}
                ],
                "tools": [{"function": {"name": "retrieve_payment_status", "description": "Get payment status of a transaction", "parameters": {"type": "object", "properties": {"transaction_id": {"type": "string", "description": "The transaction id."}}, "required": ["transaction_id"]}}}],
                "tool_choice": "any"
            }),
        ),
        (
            "cohere",
            json!({
                "model": "command-a-03-2025",
                "messages": [
                    {"role": "user", "content": "Sales on 2023-09-29?"},
                    {"role": "assistant", "tool_plan": "I will look up the sales.", "tool_calls": [{"id": "query_daily_sales_report_0", "type": "function", "function": {"name": "query_daily_sales_report", "arguments": "{\"day\":\"2023-09-29\"}"}}]},
                    {"role": "tool", "tool_call_id": "query_daily_sales_report_0", "content": [{"type": "document", "document": {"data": {"total_revenue": 10000}}}]}
                ],
                "tools": [{"type": "function", "function": {"name": "query_daily_sales_report", "description": "Daily sales", "parameters": {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}, "required": ["day"]}}}]
            }),
        ),
        (
            "ollama",
            json!({
                "model": "llama3.2",
                "stream": false,
                "messages": [
                    {"role": "user", "content": "What is the weather in Toronto?"},
                    {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_current_weather", "arguments": {"city": "Toronto"}}}]},
                    {"role": "tool", "content": "11 degrees celsius", "tool_name": "get_current_weather"}
                ],
                "tools": [{"type": "function", "function": {"name": "get_current_weather", "description": "Get the current weather for a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
            }),
        ),
    ]
}

/// `(name, document)`: real-shaped responses of each provider, each asking for tools.
pub fn real_responses() -> Vec<(&'static str, Value)> {
    vec![
        (
            "openai-chat",
            json!({
                "id": "chatcmpl-AbC123", "object": "chat.completion", "created": 1727000000, "model": "gpt-4o-2024-08-06",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
                    {"id": "call_a1B2c3D4e5F6g7H8", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"unit\":null}"}},
                    {"id": "call_Z9y8X7w6V5u4T3s2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Oslo\",\"unit\":\"celsius\"}"}}
                ]}, "logprobs": null, "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": 82, "completion_tokens": 51, "total_tokens": 133},
                "system_fingerprint": "fp_5050236cbd"
            }),
        ),
        (
            "openai-responses",
            json!({
                "id": "resp_67ca09c5efe0819096d0511c92b8c890", "object": "response", "created_at": 1741294021, "status": "completed",
                "model": "gpt-4.1-2025-04-14", "output": [
                    {"type": "function_call", "id": "fc_67ca09c6bedc8190a7abfec07b1a1332", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k", "name": "multiply", "arguments": "{\"a\":12,\"b\":7}", "status": "completed"}
                ],
                "parallel_tool_calls": true, "tool_choice": "auto", "tools": [], "error": null, "incomplete_details": null, "instructions": null, "metadata": {}, "temperature": 1.0, "top_p": 1.0,
                "usage": {"input_tokens": 291, "input_tokens_details": {"cache_write_tokens": 0, "cached_tokens": 0}, "output_tokens": 23, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 314}
            }),
        ),
        (
            "anthropic",
            json!({
                "id": "msg_01Aq9w938a90dw8q", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                "content": [{"type": "text", "text": "I'll check the price."}, {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_stock_price", "input": {"ticker": "AAPL", "currency": null}}],
                "stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 472, "output_tokens": 91}
            }),
        ),
        (
            "gemini",
            json!({
                "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "set_light", "args": {"room": "kitchen", "on": true, "brightness": null}}}]}, "finishReason": "STOP", "index": 0}],
                "usageMetadata": {"promptTokenCount": 120, "candidatesTokenCount": 18, "totalTokenCount": 138},
                "modelVersion": "gemini-2.5-flash", "responseId": "n3ZGaPqCBLqOmNAPxeS2sAo"
            }),
        ),
        (
            "bedrock",
            json!({
                "output": {"message": {"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "top_song", "input": {"sign": "WZPZ"}}}]}},
                "stopReason": "tool_use", "usage": {"inputTokens": 375, "outputTokens": 36, "totalTokens": 411}, "metrics": {"latencyMs": 2134}
            }),
        ),
        (
            "mistral",
            json!({
                "id": "cf79f7daaee244b1a0ae5c7b1444424a", "object": "chat.completion", "created": 1759500534, "model": "mistral-large-latest",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "", "tool_calls": [{"id": "D681PevKs", "function": {"name": "retrieve_payment_status", "arguments": "{\"transaction_id\": \"T1001\"}"}, "index": 0}]}, "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": 90, "completion_tokens": 22, "total_tokens": 112}
            }),
        ),
        (
            "cohere",
            json!({
                "id": "4ae8b4b9-3a5c-4b8f-9b54-0d1d9f6e2a11", "finish_reason": "TOOL_CALL",
                "message": {"role": "assistant", "tool_plan": "I will look up the sales.", "tool_calls": [{"id": "query_daily_sales_report_0", "type": "function", "function": {"name": "query_daily_sales_report", "arguments": "{\"day\":\"2023-09-29\"}"}}]},
                "usage": {"billed_units": {"input_tokens": 37, "output_tokens": 22}, "tokens": {"input_tokens": 1000, "output_tokens": 50}}
            }),
        ),
        (
            "ollama",
            json!({
                "model": "llama3.2", "created_at": "2025-05-01T10:00:00.000Z",
                "message": {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_current_weather", "arguments": {"city": "Toronto"}}}]},
                "done_reason": "stop", "done": true, "total_duration": 885095291, "prompt_eval_count": 122, "eval_count": 25
            }),
        ),
    ]
}

/// Every real request converted to every JSON format, as `<format>.request.<n>.json` files in
/// `dir`; returns how many.
pub fn write_conversions(dir: &std::path::Path) -> usize {
    let mut n = 0;
    for (kind, docs) in [
        (Kind::Request, real_requests()),
        (Kind::Response, real_responses()),
    ] {
        for (k, (_, doc)) in docs.into_iter().enumerate() {
            let x = read_any(&doc.to_string()).unwrap().0.exchange;
            for f in Format::ALL.into_iter().filter(|f| !f.is_text()) {
                let text = f.encode(&x, kind).text;
                let name = format!("{}.{}.real{k}.json", f.id(), kind.as_str());
                std::fs::write(dir.join(name), text).unwrap();
                n += 1;
            }
        }
    }
    n
}
