//! Hugging Face chat templates and tokenizers (`cost::hf`), against the references that
//! `scripts/hf_fixtures.py` recorded: the templates rendered by jinja2 in transformers'
//! chat-template environment, the token ids encoded by the `tokenizers` library.

use crate::common;

use serde_json::Value;
use std::path::PathBuf;
use toolscope::cost::hf::{self, RenderOptions, Template, Tokenizer};
use toolscope::model::{Exchange, Message, Part, Role, ToolCall};

/// 2025-03-14 12:00 UTC, the clock the references were rendered with.
const NOW: i64 = 1_741_953_600;

fn dir() -> PathBuf {
    common::fixtures().join("hf")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn exchange() -> Exchange {
    serde_json::from_str(&read("exchange.json")).expect("exchange.json")
}

fn at_noon() -> RenderOptions {
    RenderOptions {
        now: Some(NOW),
        ..RenderOptions::default()
    }
}

/// The special tokens each test template was rendered with (scripts/hf_fixtures.py TOKENS).
fn template(name: &str) -> Template {
    let mut t = Template::from_jinja(&read(&format!("{name}.jinja"))).expect(name);
    let tokens: &[(&str, &str)] = match name {
        "qwen" => &[("eos_token", "<|im_end|>")],
        "llama" => &[
            ("bos_token", "<|begin_of_text|>"),
            ("eos_token", "<|eot_id|>"),
        ],
        "hermes" => &[("bos_token", "<s>"), ("eos_token", "<|im_end|>")],
        "mistral" => &[("bos_token", "<s>"), ("eos_token", "</s>")],
        _ => &[],
    };
    for (k, v) in tokens {
        t = t.with_token(k, v);
    }
    t
}

const TEMPLATES: &[&str] = &["qwen", "llama", "hermes", "mistral", "chatml"];

#[test]
fn templates_render_as_transformers_does() {
    let x = exchange();
    for name in TEMPLATES {
        let t = template(name);
        let got = t.render_with(&x, &at_noon()).expect(name);
        assert_eq!(
            got,
            read(&format!("expected/{name}.txt")),
            "{name} with tools"
        );
        let bare = RenderOptions {
            without_tools: true,
            ..at_noon()
        };
        let got = t.render_with(&x, &bare).expect(name);
        assert_eq!(
            got,
            read(&format!("expected/{name}.notools.txt")),
            "{name} without tools"
        );
    }
}

#[test]
fn python_idioms_of_real_templates_render_as_jinja2_does() {
    let t = Template::from_jinja(&read("idioms.jinja")).expect("idioms");
    assert_eq!(
        t.render(&exchange()).expect("render"),
        read("expected/idioms.txt")
    );
}

#[test]
fn the_context_is_the_one_transformers_users_pass() {
    let x = exchange();
    let want: Value = serde_json::from_str(&read("messages.json")).expect("messages.json");
    assert_eq!(hf::template::messages(&x), want["messages"]);
    assert_eq!(hf::template::tools(&x), want["tools"]);
}

#[test]
fn tokenizer_config_picks_the_named_template_and_reads_added_token_dicts() {
    let t = Template::from_tokenizer_config(&read("tokenizer_config.json")).expect("config");
    assert_eq!(t.names().collect::<Vec<_>>(), ["default", "tool_use"]);
    // bos_token is an AddedToken dict in the config; eos_token a string.
    assert!(t.tokens().contains(&("bos_token".into(), "<s>".into())));
    assert!(t.tokens().contains(&("eos_token".into(), "</s>".into())));
    let x = exchange();
    assert_eq!(
        t.render_with(&x, &at_noon()).expect("tool_use"),
        read("expected/mistral.txt")
    );
    let mut bare = x.clone();
    bare.tools.clear();
    assert_eq!(
        t.render_with(&bare, &at_noon()).expect("default"),
        read("expected/chatml.notools.txt")
    );
}

#[test]
fn hub_files_a_jinja_file_wins_and_the_config_brings_the_tokens() {
    // A config without chat_template, as newer models ship it next to chat_template.jinja.
    let config =
        r#"{"bos_token": {"__type": "AddedToken", "content": "<s>"}, "eos_token": "</s>"}"#;
    let t = Template::from_files(Some(config), Some(&read("mistral.jinja"))).expect("files");
    assert_eq!(
        t.render_with(&exchange(), &at_noon()).expect("render"),
        read("expected/mistral.txt")
    );
    let t = Template::from_files(Some(&read("tokenizer_config.json")), None).expect("config");
    assert_eq!(t.names().count(), 2);
    assert!(Template::from_files(Some(config), None).is_err());
    assert!(Template::from_files(None, None).is_err());
}

#[test]
fn tokenizer_config_errors_say_what_is_missing() {
    let e = Template::from_tokenizer_config(r#"{"eos_token": "</s>"}"#).unwrap_err();
    assert!(e.message.contains("chat_template.jinja"), "{e}");
    let e = Template::from_tokenizer_config(r#"{"chat_template": []}"#).unwrap_err();
    assert!(e.message.contains("empty"), "{e}");
    let e = Template::from_tokenizer_config("{\n  \"chat_template\": [1,\n").unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    let e =
        Template::from_tokenizer_config(r#"{"chat_template": [{"name": "rag", "template": "x"}]}"#)
            .expect("one named template");
    // A lone named template renders whatever its name.
    assert_eq!(e.render(&Exchange::default()).expect("render"), "x");
    let two = r#"{"chat_template": [{"name": "rag", "template": "x"}, {"name": "tool_use", "template": "y"}]}"#;
    let e = Template::from_tokenizer_config(two)
        .expect("config")
        .render(&Exchange::default())
        .unwrap_err();
    assert!(e.message.contains("default"), "{e}");
}

#[test]
fn raise_exception_shows_the_templates_words_at_its_line() {
    // Llama 3.1 takes one call per turn; the fixture has two here.
    let mut x = exchange();
    x.messages[1].parts.push(Part::ToolCall(ToolCall::new(
        Some("call00009".into()),
        "get_weather",
        serde_json::json!({"location": "Bern"}),
    )));
    let src = read("llama.jinja");
    let line = src
        .lines()
        .position(|l| l.contains("only supports single tool-calls"))
        .expect("the raise")
        + 1;
    let e = template("llama").render_with(&x, &at_noon()).unwrap_err();
    assert_eq!(
        e.message,
        "This model only supports single tool-calls at once!"
    );
    assert_eq!(e.line, Some(line));
    assert_eq!(
        e.to_string(),
        format!("template line {line}: This model only supports single tool-calls at once!")
    );
}

#[test]
fn syntax_and_runtime_errors_point_at_their_line() {
    let e = Template::from_jinja("{% for m in messages %}\n{{ m.role }\n{% endfor %}").unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    let e = Template::from_jinja("ok\n\n{% if %}").unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    // Filters and names are looked up when the template runs.
    let t = Template::from_jinja("a\nb\n{{ messages | no_such_filter }}").expect("compiles");
    let e = t.render(&exchange()).unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.message.contains("no_such_filter"), "{e}");
    let t = Template::from_jinja("line 1\n{{ 1 + none_such.attr.deeper }}").expect("compiles");
    let e = t.render(&exchange()).unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
}

#[test]
fn values_print_as_python_prints_them() {
    let t = Template::from_jinja(
        r#"{{ none }} {{ true }} {{ false }} {{ 1.0 }} {{ 2 }} {{ {'a': [1, 2.5, none, "it's"], 'b': true} }} {{ undefined_name }}|"#,
    )
    .expect("template");
    assert_eq!(
        t.render(&Exchange::default()).expect("render"),
        r#"None True False 1.0 2 {'a': [1, 2.5, None, "it's"], 'b': True} |"#
    );
}

#[test]
fn tojson_takes_transformers_options() {
    let t = Template::from_jinja(concat!(
        "{% set v = {'b': 'é\"<', 'a': [1, 2.5, none, true]} %}",
        "{{ v|tojson }}\n",
        "{{ v|tojson(indent=2) }}\n",
        "{{ v|tojson(separators=(',', ':')) }}\n",
        "{{ v|tojson(sort_keys=true, ensure_ascii=true) }}\n",
        "{{ []|tojson(indent=2) }}{{ {}|tojson }}"
    ))
    .expect("template");
    assert_eq!(
        t.render(&Exchange::default()).expect("render"),
        concat!(
            "{\"b\": \"é\\\"<\", \"a\": [1, 2.5, null, true]}\n",
            "{\n  \"b\": \"é\\\"<\",\n  \"a\": [\n    1,\n    2.5,\n    null,\n    true\n  ]\n}\n",
            "{\"b\":\"é\\\"<\",\"a\":[1,2.5,null,true]}\n",
            "{\"a\": [1, 2.5, null, true], \"b\": \"\\u00e9\\\"<\"}\n",
            "[]{}"
        )
    );
}

#[test]
fn python_methods_and_generation_blocks_work() {
    let t = Template::from_jinja(concat!(
        "{{ '  x  '.strip() }}|{{ 'a,b'.split(',')|join('+') }}|{{ 'Tool'.startswith('To') }}|",
        "{% for k, v in {'p': 1, 'q': 2}.items() %}{{ k }}={{ v }};{% endfor %}|",
        "{{ {'p': 1}.get('p') }}{{ {'p': 1}.get('z', 0) }}|",
        "{%- generation -%} kept {%- endgeneration %}|",
        "{% for i in range(5) %}{% if i == 3 %}{% break %}{% endif %}{{ i }}{% endfor %}"
    ))
    .expect("template");
    assert_eq!(
        t.render(&Exchange::default()).expect("render"),
        "x|a+b|True|p=1;q=2;|10|kept|012"
    );
}

#[test]
fn strftime_now_formats_the_given_clock() {
    assert_eq!(
        hf::template::strftime("%d %b %Y|%B %-d, %y|%A %a|%H:%M:%S %j|%F %T %%", NOW),
        "14 Mar 2025|March 14, 25|Friday Fri|12:00:00 073|2025-03-14 12:00:00 %"
    );
    assert_eq!(hf::template::strftime("%d %b %Y", 0), "01 Jan 1970");
    // A leap day.
    assert_eq!(
        hf::template::strftime("%F %j", 951_825_600),
        "2000-02-29 060"
    );
}

#[test]
fn generation_prompt_follows_who_spoke_last() {
    let t = Template::from_jinja("{{ add_generation_prompt }}").expect("template");
    let mut x = exchange();
    assert_eq!(t.render(&x).expect("render"), "True");
    x.messages
        .push(Message::new(Role::Assistant, vec![Part::text("ok")]));
    assert_eq!(t.render(&x).expect("render"), "False");
    let forced = RenderOptions {
        add_generation_prompt: Some(true),
        ..RenderOptions::default()
    };
    assert_eq!(t.render_with(&x, &forced).expect("render"), "True");
}

#[test]
fn kwargs_reach_the_template_as_apply_chat_template_passes_them() {
    let t = Template::from_jinja(
        "{{ enable_thinking if enable_thinking is defined else 'unset' }} {{ bos_token }} {{ n.k if n is defined }}",
    )
    .expect("template")
    .with_token("bos_token", "<s>");
    assert_eq!(t.render(&exchange()).expect("render"), "unset <s> ");
    let mut o = RenderOptions::default();
    o.kwargs.insert("enable_thinking".into(), false.into());
    o.kwargs.insert("bos_token".into(), "<|bos|>".into());
    o.kwargs
        .insert("n".into(), serde_json::json!({"k": [1, 2]}));
    assert_eq!(
        t.render_with(&exchange(), &o).expect("render"),
        "False <|bos|> [1, 2]"
    );
}

#[test]
fn hostile_templates_stop_with_an_error() {
    let x = exchange();
    let cases = [
        // An endless amount of work.
        "{% for i in range(100000000) %}{{ i }}{% endfor %}",
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        // Unbounded recursion.
        "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
        // Output past the cap.
        "{% for i in range(100) %}{{ 'x' * 50000000 }}{% endfor %}",
        // Memory.
        "{% set s = 'x' * 90000000 %}{% set t = [s, s, s, s] | join %}{{ t | length }}",
    ];
    for src in cases {
        let t = Template::from_jinja(src).expect(src);
        let e = t.render(&x).expect_err(src);
        assert!(!e.message.is_empty(), "{src}");
    }
    let big = "x".repeat(hf::template::MAX_SOURCE + 1);
    assert!(Template::from_jinja(&big).is_err());
    // Deep nesting is refused by the parser, not by the stack.
    let deep = format!("{{{{ {}1{} }}}}", "(".repeat(50_000), ")".repeat(50_000));
    assert!(Template::from_jinja(&deep).is_err());
    let deep = format!(
        "{}{}",
        "{% if true %}".repeat(5_000),
        "{% endif %}".repeat(5_000)
    );
    assert!(Template::from_jinja(&deep).is_err());
}

#[test]
fn hostile_tokenizers_are_refused_or_bounded() {
    let mut j = base("tiny-bpe");
    j["model"]["vocab"]["far"] = 4_000_000u32.into();
    assert!(Tokenizer::from_json(&j.to_string())
        .unwrap_err()
        .contains("4000000"));
    // Every truncation of a real file is an error or a tokenizer, never a panic.
    let text = read("tiny-sp/tokenizer.json");
    for cut in (0..text.len()).step_by(997) {
        if text.is_char_boundary(cut) {
            let _ = Tokenizer::from_json(&text[..cut]);
        }
    }
    // A long piece without a merge boundary, odd bytes, added tokens at the edges.
    let tok = Tokenizer::from_json(&read("tiny-bpe/tokenizer.json")).expect("bpe");
    let long = "ab".repeat(200_000);
    assert!(tok.count(&long) > 0);
    let odd = "\u{0}\u{7f}\u{feff}<|im_end|><|im_end|\u{10ffff}<|im_start|>";
    assert_eq!(tok.decode(&tok.encode(odd)), odd);
}

// ---- tokenizers ---------------------------------------------------------------------------------

fn tokens_reference() -> Value {
    serde_json::from_str(&read("expected/tokens.json")).expect("tokens.json")
}

fn base(name: &str) -> Value {
    serde_json::from_str(&read(&format!("{name}/tokenizer.json"))).expect(name)
}

fn patched(name: &str, patch: &Value) -> String {
    let mut j = base(name);
    for (k, v) in patch.as_object().expect("patch") {
        j[k] = v.clone();
    }
    j.to_string()
}

#[test]
fn token_ids_match_the_tokenizers_library() {
    let r = tokens_reference();
    let strings: Vec<&str> = r["strings"]
        .as_array()
        .expect("strings")
        .iter()
        .map(|s| s.as_str().expect("string"))
        .collect();
    let mut checked = 0;
    for (name, variants) in r["tokenizers"].as_object().expect("tokenizers") {
        for (variant, v) in variants.as_object().expect("variants") {
            let tok = Tokenizer::from_json(&patched(name, &v["patch"]))
                .unwrap_or_else(|e| panic!("{name}/{variant}: {e}"));
            let ids = v["ids"].as_array().expect("ids");
            for (s, want) in strings.iter().zip(ids) {
                let want: Vec<u32> = serde_json::from_value(want.clone()).expect("ids");
                assert_eq!(tok.encode(s), want, "{name}/{variant}: {s:?}");
                assert_eq!(tok.count(s), want.len());
                checked += 1;
            }
        }
    }
    assert!(checked > 150, "{checked}");
}

#[test]
fn merges_as_strings_read_like_pairs() {
    let mut j = base("tiny-bpe");
    let pairs = j["model"]["merges"].as_array().expect("merges").clone();
    assert!(pairs[0].is_array(), "tokenizers writes pairs");
    j["model"]["merges"] = Value::Array(
        pairs
            .iter()
            .map(|p| {
                Value::String(format!(
                    "{} {}",
                    p[0].as_str().unwrap(),
                    p[1].as_str().unwrap()
                ))
            })
            .collect(),
    );
    let a = Tokenizer::from_json(&base("tiny-bpe").to_string()).expect("pairs");
    let b = Tokenizer::from_json(&j.to_string()).expect("strings");
    let text = read("expected/qwen.txt");
    assert_eq!(a.encode(&text), b.encode(&text));
}

#[test]
fn decode_gives_the_text_back() {
    let bpe = Tokenizer::from_json(&read("tiny-bpe/tokenizer.json")).expect("bpe");
    let sp = Tokenizer::from_json(&read("tiny-sp/tokenizer.json")).expect("sp");
    for s in [
        "Hello wörld 🙂",
        "<|im_start|>user\nhi<|im_end|>",
        "a  \n\n  b",
    ] {
        assert_eq!(bpe.decode(&bpe.encode(s)), s);
    }
    // SentencePiece-style: the prepended ▁ comes back as a leading space.
    assert_eq!(sp.decode(&sp.encode("Zürich 🙂 ok")), " Zürich 🙂 ok");
    assert!(bpe.token_id("<|im_start|>").is_some());
    assert!(bpe.special_tokens().any(|(t, _)| t == "<|im_end|>"));
    assert!(!bpe.special_tokens().any(|(t, _)| t == "<tool_call>"));
}

#[test]
fn bad_tokenizers_are_refused_with_a_reason() {
    let mut j = base("tiny-bpe");
    j["pre_tokenizer"] = serde_json::json!({
        "type": "Split", "pattern": {"Regex": "\\p{Han}+|\\S+"}, "behavior": "Isolated", "invert": false
    });
    let e = Tokenizer::from_json(&j.to_string()).unwrap_err();
    assert!(e.contains("\\p{Han}+"), "{e}");
    let mut j = base("tiny-bpe");
    j["model"]["type"] = "Unigram".into();
    assert!(Tokenizer::from_json(&j.to_string())
        .unwrap_err()
        .contains("Unigram"));
    let mut j = base("tiny-bpe");
    j["model"]["merges"][0] = serde_json::json!(["no-such-token", "x"]);
    assert!(Tokenizer::from_json(&j.to_string())
        .unwrap_err()
        .contains("no-such-token"));
    let e = Tokenizer::from_json("{\n\"model\": [\n").unwrap_err();
    assert!(e.contains("line"), "{e}");
    let huge = " ".repeat(hf::tokenizer::MAX_JSON + 1);
    assert!(Tokenizer::from_json(&huge).unwrap_err().contains("MiB"));
    // Possessive quantifiers spell the same split (tiktoken writes cl100k that way).
    let mut j = base("tiny-bpe");
    j["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s".into();
    assert!(Tokenizer::from_json(&j.to_string()).is_ok());
}

#[test]
fn counts_split_tools_from_messages() {
    let x = exchange();
    let tok = Tokenizer::from_json(&read("tiny-bpe/tokenizer.json")).expect("bpe");
    let t = template("qwen");
    let c = hf::count(&t, &tok, &x, &at_noon(), "tiny/qwen").expect("count");
    let full = tok.count(&read("expected/qwen.txt")) as u64;
    let bare = tok.count(&read("expected/qwen.notools.txt")) as u64;
    assert_eq!(c.total, full);
    assert_eq!(c.tools, full - bare);
    assert_eq!(c.messages, bare);
    assert_eq!(c.family, hf::FAMILY);
    assert!(c.exact, "{}", c.method);
    let per = hf::tool_counts(&t, &tok, &x, &at_noon()).expect("per tool");
    assert_eq!(per.len(), 2);
    assert_eq!(per[0].0, "get_weather");
    assert!(per.iter().all(|(_, n)| *n > 20), "{per:?}");
    // The tokenizer's NFC is applied: `e` + U+0301 counts as the composed `é`, exactly.
    let with = |text: &str| {
        let mut y = x.clone();
        y.messages
            .push(Message::new(Role::User, vec![Part::text(text)]));
        hf::count(&t, &tok, &y, &at_noon(), "tiny/qwen").expect("count")
    };
    let (decomposed, composed) = (with("cafe\u{301}"), with("caf\u{e9}"));
    assert!(decomposed.exact, "{}", decomposed.method);
    assert_eq!(decomposed.total, composed.total);
}
