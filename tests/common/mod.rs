//! Shared test helpers: the canonical cases and the generator of arbitrary exchanges.
#![allow(dead_code)]

pub mod gen;

use std::path::{Path, PathBuf};
use toolscope::model::Exchange;

/// `tests/fixtures`.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The canonical exchanges of `tests/fixtures/exchanges/`, by case name, sorted.
pub fn cases() -> Vec<(String, Exchange)> {
    let mut out = Vec::new();
    let dir = fixtures().join("exchanges");
    for entry in std::fs::read_dir(&dir).expect("tests/fixtures/exchanges") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(&path).expect("read case");
            let x: Exchange =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let name = path
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((name, x));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Compare `actual` with the golden file at `path`. With `UPDATE_GOLDEN=1` the file is
/// (re)written; on a mismatch `<path>.actual` is written next to it for review and a
/// description of the mismatch is returned.
pub fn golden(path: &Path, actual: &str) -> Option<String> {
    let actual_path = PathBuf::from(format!("{}.actual", path.display()));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create golden dir");
        }
        std::fs::write(path, actual).expect("write golden");
        let _ = std::fs::remove_file(&actual_path);
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {
            let _ = std::fs::remove_file(&actual_path);
            None
        }
        Ok(_) => {
            std::fs::write(&actual_path, actual).expect("write .actual");
            Some(format!(
                "{} differs; see {}",
                path.display(),
                actual_path.display()
            ))
        }
        Err(_) => {
            std::fs::write(&actual_path, actual).expect("write .actual");
            Some(format!(
                "{} missing (UPDATE_GOLDEN=1 to create); see {}",
                path.display(),
                actual_path.display()
            ))
        }
    }
}
