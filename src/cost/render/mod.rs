//! The tool definitions as each model family reads them, with how much of that text is known:
//! the family's [`Reader`](crate::formats::prompt::Reader), kept in its format's folder.

use super::{Family, Model};
use crate::model::{ChoiceMode, Exchange};

pub use crate::formats::prompt::Known;

/// The tools of a request as a model reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendering {
    /// The model rendered for.
    pub model: String,
    /// Its family.
    pub family: Family,
    /// The text (empty when the request has no tools).
    pub text: String,
    /// How much of it is known.
    pub known: Known,
    /// Where it comes from and what is assumed, for a person.
    pub note: String,
    /// How the tool choice reaches the model, when it is not the default.
    pub choice: Option<String>,
}

/// The tool definitions of `x` as `model` reads them.
pub fn render(x: &Exchange, model: &str) -> Rendering {
    let m = Model::parse(model);
    let r = m.family.reader().render(x, &m.id);
    Rendering {
        model: m.id.clone(),
        family: m.family,
        text: r.text,
        known: r.known,
        note: r.note,
        choice: choice_note(x, &m),
    }
}

/// How the tool choice reaches the model, when it is not the default.
fn choice_note(x: &Exchange, m: &Model) -> Option<String> {
    let c = x.tool_choice.as_ref()?;
    let what = match (c.mode, c.tools.as_slice()) {
        (ChoiceMode::Auto, []) => return None,
        (ChoiceMode::None, _) => "none".to_string(),
        (ChoiceMode::Required, [one]) => format!("forced tool {one}"),
        (ChoiceMode::Required, _) => "required".to_string(),
        (ChoiceMode::Validated, _) => "validated".to_string(),
        (ChoiceMode::Auto, names) => format!("auto, limited to {}", names.join(", ")),
    };
    let how = m.family.reader().choice(c.mode, c.tools.len());
    Some(format!("tool choice {what}: {how}"))
}
