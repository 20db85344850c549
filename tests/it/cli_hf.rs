//! `toolscope render --template` and `toolscope tokens --template --tokenizer`: a Hugging Face
//! model's own prompt and its count, offline.

use crate::common;

use serde_json::Value;
use toolscope::cli::run_with;

fn run(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let mut out = String::new();
    let mut err = String::new();
    let code = run_with(&args, || Ok(String::new()), &mut out, &mut err);
    (code, out, err)
}

fn path(name: &str) -> String {
    common::fixtures()
        .join("hf")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(path(name)).expect("fixture")
}

/// `render --template <fixture> exchange.json`.
fn render(template: &str) -> (i32, String, String) {
    run(&[
        "render",
        "--template",
        &path(template),
        &path("exchange.json"),
    ])
}

#[test]
fn render_prints_the_prompt_of_a_jinja_template() {
    let (code, out, err) = render("qwen.jinja");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, read("expected/qwen.txt"));
    assert!(err.contains("add_generation_prompt true"), "{err}");
}

#[test]
fn render_takes_special_tokens_from_the_config_or_the_command_line() {
    let (code, out, err) = render("tokenizer_config.json");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, read("expected/mistral.txt"));
    let (code, out, _) = run(&[
        "render",
        "--template",
        &path("hermes.jinja"),
        "--token",
        "bos_token=<s>",
        &path("exchange.json"),
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, read("expected/hermes.txt"));
}

#[test]
fn set_passes_keyword_arguments() {
    let dir = std::env::temp_dir().join(format!("toolscope-cli-hf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let t = dir.join("kw.jinja");
    std::fs::write(
        &t,
        "{{ enable_thinking }}|{{ tools_in_user_message is defined }}",
    )
    .expect("write");
    let (code, out, err) = run(&[
        "render",
        "--template",
        &t.to_string_lossy(),
        "--set",
        "enable_thinking=false",
        &path("exchange.json"),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "False|False");
}

#[test]
fn tokens_counts_with_the_models_tokenizer() {
    let (code, out, err) = run(&[
        "tokens",
        "--template",
        &path("qwen.jinja"),
        "--tokenizer",
        &path("tiny-bpe/tokenizer.json"),
        &path("exchange.json"),
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("model"), "{out}");
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(row[0], "qwen");
    assert_eq!(row[4], "exact");
    let (tools, messages, total): (u64, u64, u64) = (
        row[1].parse().unwrap(),
        row[2].parse().unwrap(),
        row[3].parse().unwrap(),
    );
    assert_eq!(tools + messages, total);
    assert!(lines[2].starts_with("  tool get_weather: "), "{out}");
    assert!(lines[3].starts_with("  tool search_flights: "), "{out}");

    let (code, json, _) = run(&[
        "tokens",
        "--template",
        &path("qwen.jinja"),
        "--tokenizer",
        &path("tiny-bpe/tokenizer.json"),
        "--json",
        &path("exchange.json"),
    ]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["family"], "huggingface");
    assert_eq!(v["total"], total);
    assert_eq!(v["tools"], tools);
    assert_eq!(v["exact"], true);
    assert_eq!(v["per_tool"][0]["name"], "get_weather");
}

#[test]
fn template_errors_name_the_file_and_line() {
    let (code, _, err) = run(&[
        "render",
        "--template",
        &path("llama.jinja"),
        &common::fixtures()
            .join("exchanges/parallel_calls.json")
            .to_string_lossy(),
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("llama.jinja: template line ")
            && err.contains("This model only supports single tool-calls at once!"),
        "{err}"
    );
    let (code, _, err) = run(&[
        "tokens",
        "--template",
        &path("qwen.jinja"),
        "--tokenizer",
        &path("qwen.jinja"),
        &path("exchange.json"),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("qwen.jinja: tokenizer.json line"), "{err}");
}

#[test]
fn usage_errors() {
    for args in [
        vec!["tokens", "--template", "x.jinja"],
        vec!["tokens", "--tokenizer", "t.json"],
        vec!["render", "--token", "bos_token"],
        vec!["render", "--template"],
        vec!["tokens", "--template", "x", "--tokenizer", "y", "--rounds"],
        vec!["render", "--set", "a=1"],
        vec!["render", "--template", "x", "--set", "a=not json"],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
    let (code, _, err) = run(&["render", "--template", "/no/such/file.jinja", "-"]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot read /no/such/file.jinja"), "{err}");
}
