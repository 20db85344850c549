//! The top-level modules of `src/` form layers: a module imports only the modules below it, so
//! no two import each other. The code is read as text (comments, doc comments and
//! `#[cfg(test)]` items left out: a test may reach up a layer).

use std::collections::{BTreeMap, BTreeSet};
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

/// The UI modules that are no view: the store and the helpers views share. Everything else in
/// `src/ui/` (but `mod.rs`, the page that places the views) is a view.
const UI_HELPERS: &[&str] = &[
    "state",
    "shared",
    "tabs",
    "commands",
    "io",
    "lazy",
    "keys",
    "schedule",
    "deferred",
    "engine",
    "work",
    "cm",
    "virtual_list",
    "media",
    "draft",
    "mcp_client",
    "mcp_oauth",
];

/// The UI modules (`src/ui/<name>.rs`) and their code.
fn ui_modules() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().to_string();
            let code = without_tests(&code_of(&std::fs::read_to_string(&p).unwrap()));
            (name, code)
        })
        .filter(|(name, _)| name != "mod")
        .collect();
    out.sort();
    out
}

/// Each `super::<module>::<item>` path in `code`, as (module, item); the item is empty for
/// `super::<module>;` or a grouped `super::<module>::{…}`.
fn super_paths(code: &str) -> Vec<(String, String)> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    code.match_indices("super::")
        .map(|(i, _)| {
            let rest = &code[i + "super::".len()..];
            let module = ident(rest);
            let after = &rest[module.len()..];
            let item = after.strip_prefix("::").map(ident).unwrap_or_default();
            (module, item)
        })
        .filter(|(m, _)| !m.is_empty())
        .collect()
}

/// The components (`#[component] fn Name`) a module defines.
fn components(code: &str) -> BTreeSet<String> {
    code.match_indices("#[component]")
        .filter_map(|(i, _)| {
            let rest = &code[i..];
            let f = rest.find("fn ")?;
            Some(
                rest[f + 3..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn layers_the_store_imports_no_view() {
    // The UI's store holds state; views read it. Shared helpers live in modules of their own.
    let modules = ui_modules();
    let names: BTreeSet<&str> = modules.iter().map(|(n, _)| n.as_str()).collect();
    for h in UI_HELPERS {
        assert!(names.contains(h), "no src/ui/{h}.rs: update UI_HELPERS");
    }
    let (_, state) = modules.iter().find(|(n, _)| n == "state").unwrap();
    let views: Vec<String> = super_paths(state)
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| names.contains(m.as_str()) && !UI_HELPERS.contains(&m.as_str()))
        .collect();
    assert!(views.is_empty(), "ui/state.rs imports views: {views:?}");
}

#[test]
fn layers_views_share_helpers_not_each_other() {
    // A helper imports no view. A view imports helpers, and of another view only a component
    // it places on the page (composition); a helper two views need lives in a helper module.
    let modules = ui_modules();
    let comps: BTreeMap<&str, BTreeSet<String>> = modules
        .iter()
        .map(|(n, c)| (n.as_str(), components(c)))
        .collect();
    let mut wrong = Vec::new();
    for (name, code) in &modules {
        let helper = UI_HELPERS.contains(&name.as_str());
        for (m, item) in super_paths(code) {
            let Some(theirs) = comps.get(m.as_str()) else {
                continue; // an item of `ui/mod.rs`
            };
            if m == *name || UI_HELPERS.contains(&m.as_str()) {
                continue;
            }
            if helper || !theirs.contains(&item) {
                wrong.push(format!("ui/{name}.rs uses super::{m}::{item}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn layers_the_ui_reader_sees_paths_and_components() {
    let code = "use super::a::B;\nuse super::c;\nlet x = super::d::e(1);\nsuper::f();";
    assert_eq!(
        super_paths(code),
        vec![
            ("a".to_string(), "B".to_string()),
            ("c".to_string(), String::new()),
            ("d".to_string(), "e".to_string()),
            ("f".to_string(), String::new()),
        ]
    );
    let code = "#[component]\npub fn Pane(x: u8) -> impl IntoView {}\nfn helper() {}";
    assert_eq!(
        components(code).into_iter().collect::<Vec<_>>(),
        vec!["Pane"]
    );
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
