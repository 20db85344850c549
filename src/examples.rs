//! The built-in examples: the canonical exchanges of `tests/fixtures/exchanges/`, so the page
//! offers exactly what the golden files test.

/// One example: id, title for the picker, canonical JSON.
pub struct Example {
    /// File stem (`weather`).
    pub id: &'static str,
    /// Shown in the picker.
    pub title: &'static str,
    /// The canonical exchange as JSON.
    pub json: &'static str,
}

macro_rules! example {
    ($id:literal, $title:literal) => {
        Example {
            id: $id,
            title: $title,
            json: include_str!(concat!("../tests/fixtures/exchanges/", $id, ".json")),
        }
    };
}

/// Every example, first one shown on a fresh page.
pub const EXAMPLES: &[Example] = &[
    example!("weather", "Weather lookup"),
    example!("parallel_calls", "Two cities in parallel"),
    example!("error_result", "Tool error and recovery"),
    example!("forced_choice", "Forced tool choice (strict)"),
    example!("nested_schema", "send_email: nested schema"),
    example!("no_args", "Tool without arguments"),
    example!("multi_turn", "Multi-turn travel booking"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_valid_canonical_exchanges() {
        for e in EXAMPLES {
            let x: crate::model::Exchange =
                serde_json::from_str(e.json).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            assert!(!x.messages.is_empty(), "{}", e.id);
        }
        let on_disk = std::fs::read_dir(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/exchanges"
        ))
        .map(|d| d.count())
        .unwrap_or(0);
        assert_eq!(
            on_disk,
            EXAMPLES.len(),
            "every canonical case is offered as an example"
        );
    }
}
