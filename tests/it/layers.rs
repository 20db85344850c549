//! The top-level modules of `src/` form layers: a module imports only the modules below it, so
//! no two import each other. The code is read as text (comments, doc comments and
//! `#[cfg(test)]` items left out: a test may reach up a layer).

use std::collections::BTreeSet;
use std::path::Path;

/// Every top-level module, lowest first. A module imports only modules listed before it; a new
/// module is placed here or this test fails.
const LAYERS: &[&str] = &[
    "text",
    "providers",
    "model",
    // The mechanism of the providers' conversation rules: it reads wire JSON and names no
    // format; each format's rules live in its folder.
    "rules",
    "schema",
    "stream",
    "redact",
    "formats",
    "examples",
    "anchors",
    "edit",
    "history",
    "share",
    "replay",
    "synth",
    "snippets",
    "present",
    "prerender",
    "live",
    "cost",
    "cli",
    "ui",
];

/// The code of a Rust file: comments removed (string literals kept as they are).
fn code_of(src: &str) -> String {
    let b = src.as_bytes();
    let (mut out, mut i) = (String::with_capacity(src.len()), 0);
    while i < b.len() {
        if src[i..].starts_with("//") {
            i = src[i..].find('\n').map_or(b.len(), |j| i + j);
        } else if src[i..].starts_with("/*") {
            let mut depth = 0;
            while i < b.len() {
                if src[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if src[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push_str(&src[start..i]);
        } else {
            let c = src[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `code` without its `#[cfg(test)]` items (the attribute, then the item to its closing brace
/// or its `;`).
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The top-level modules `code` names through `crate::` (or `$crate::`).
fn imports(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .map(|(i, _)| {
            code[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|m| !m.is_empty())
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn layers_no_module_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut wrong = Vec::new();
    let mut modules = BTreeSet::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        modules.insert(module.clone());
        let Some(rank) = LAYERS.iter().position(|m| *m == module) else {
            wrong.push(format!("{module}: not placed in LAYERS"));
            continue;
        };
        let code = without_tests(&code_of(&std::fs::read_to_string(f).unwrap()));
        for used in imports(&code) {
            if used == module {
                continue;
            }
            match LAYERS.iter().position(|m| *m == used) {
                Some(r) if r < rank => {}
                _ => wrong.push(format!("{}: {module} imports {used}", rel.display())),
            }
        }
    }
    assert!(modules.len() > 10, "{modules:?}");
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn layers_the_store_imports_no_view() {
    // The UI's store holds state; views read it. Shared helpers live in modules of their own.
    let state = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui/state.rs");
    let code = without_tests(&code_of(&std::fs::read_to_string(state).unwrap()));
    let helpers = [
        "work", "engine", "schedule", "keys", "draft", "models", "shared",
    ];
    let views: Vec<&str> = code
        .match_indices("super::")
        .map(|(i, _)| {
            let rest = &code[i + "super::".len()..];
            &rest[..rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(rest.len())]
        })
        .filter(|m| !m.is_empty() && !helpers.contains(m))
        .collect();
    assert!(views.is_empty(), "ui/state.rs imports views: {views:?}");
}

#[test]
fn layers_the_reader_sees_code_only() {
    let code = code_of("use crate::a; // crate::b\n/* crate::c */ let s = \"// crate::d\";");
    assert_eq!(
        imports(&code).into_iter().collect::<Vec<_>>(),
        vec!["a".to_string(), "d".to_string()]
    );
    let code = without_tests("use crate::a;\n#[cfg(test)]\nmod tests { use crate::b; }\nfn f() {}");
    assert_eq!(imports(&code).into_iter().collect::<Vec<_>>(), vec!["a"]);
}
