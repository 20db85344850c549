//! The worked example of `docs/adding-a-provider.md` is the code: every fenced block of the
//! page is quoted, as it is, from the file named in the line above it ("From `<path>`:"), and
//! the test file it walks through is compiled and run in this binary.

use std::path::Path;

/// The test that declares the page's dialect.
const WORKED: &str = "tests/it/worked_dialect.rs";

#[test]
fn docs_adding_a_provider_quotes_the_code_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/adding-a-provider.md")).unwrap();
    let mut quoted = Vec::new();
    let mut lines = page.lines().peekable();
    let mut from: Option<String> = None;
    while let Some(line) = lines.next() {
        if let Some(path) = line
            .strip_prefix("From `")
            .and_then(|r| r.strip_suffix("`:"))
        {
            from = Some(path.to_string());
        } else if line.starts_with("```") {
            let path = from.take().unwrap_or_else(|| {
                panic!("a code block names its file on the line above it: {line}")
            });
            let mut block = String::new();
            for l in lines.by_ref() {
                if l == "```" {
                    break;
                }
                block.push_str(l);
                block.push('\n');
            }
            let file = std::fs::read_to_string(root.join(&path))
                .unwrap_or_else(|e| panic!("docs/adding-a-provider.md quotes {path}: {e}"));
            assert!(
                file.contains(&block),
                "docs/adding-a-provider.md quotes {path} as it is not:\n{block}"
            );
            quoted.push(path);
        } else if !line.trim().is_empty() {
            from = None;
        }
    }
    let worked = quoted.iter().filter(|p| *p == WORKED).count();
    assert!(worked >= 5, "{worked} blocks of {WORKED} in {quoted:?}");
    let main = std::fs::read_to_string(root.join("tests/it/main.rs")).unwrap();
    assert!(
        main.lines().any(|l| l == "mod worked_dialect;"),
        "{WORKED} is not run"
    );
}
