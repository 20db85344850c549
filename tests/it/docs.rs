//! The worked example of `docs/adding-a-provider.md` is the code: every Rust block of the page
//! is quoted, as it is, from the file named in the line above it ("From `<path>`:").

use std::path::Path;

#[test]
fn docs_adding_a_provider_quotes_the_code_as_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/adding-a-provider.md")).unwrap();
    let mut quoted = 0;
    let mut lines = page.lines().peekable();
    let mut from: Option<String> = None;
    while let Some(line) = lines.next() {
        if let Some(path) = line
            .strip_prefix("From `")
            .and_then(|r| r.strip_suffix("`:"))
        {
            from = Some(path.to_string());
        } else if line == "```rust" {
            let path = from
                .take()
                .expect("a Rust block names its file on the line above it");
            let mut block = String::new();
            for l in lines.by_ref() {
                if l == "```" {
                    break;
                }
                block.push_str(l);
                block.push('\n');
            }
            let file = std::fs::read_to_string(root.join(&path)).unwrap();
            assert!(
                file.contains(&block),
                "docs/adding-a-provider.md quotes {path} as it is not:\n{block}"
            );
            quoted += 1;
        }
    }
    assert!(quoted >= 4, "{quoted} blocks");
}
