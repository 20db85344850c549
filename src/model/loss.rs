//! Losses: what an encoding or decoding could not carry, as data.

use serde::{Deserialize, Serialize};

/// What happened to the reported element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossKind {
    /// Left out: the target cannot express it.
    Dropped,
    /// Carried, but changed (an id made valid, JSON turned into text, an error folded into text).
    Rewritten,
    /// Made up because the target requires it (a call id for a format that pairs by id).
    Added,
    /// Reasoning state left out because only the provider that issued it can verify it (a
    /// thinking signature, encrypted reasoning, a thought signature), or reasoning text the
    /// target has no place for. Counted as a loss and listed in a group of its own.
    Reasoning,
    /// Nothing lost, but worth knowing: the target was told something the exchange did not
    /// say in its words (the model chosen for this provider is sent instead of another
    /// provider's). Shown apart from the losses and never counted as one.
    Note,
}

/// One element an encoding dropped, rewrote or added, or a decoding normalised.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    /// JSON pointer into the serialised canonical [`Exchange`](super::Exchange): the element
    /// affected (`/messages/2/parts/0/is_error`).
    pub pointer: String,
    /// JSON pointer into the emitted document where the element went (or would have gone),
    /// when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Dropped, rewritten or added.
    pub kind: LossKind,
    /// What was affected, for a person (`is_error flag`).
    pub what: String,
    /// Why, for a person (`OpenAI tool messages have no error flag; folded into the text`).
    pub why: String,
}

/// A list of losses with short constructors, so encoders read as prose.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Losses(pub Vec<Loss>);

/// One [`Losses::push`] shorthand per loss kind: the same body, only the kind differs.
macro_rules! kind_shorthands {
    ($($(#[$doc:meta])* $name:ident => $kind:ident,)*) => {$(
        $(#[$doc])*
        pub fn $name(
            &mut self,
            pointer: impl Into<String>,
            what: impl Into<String>,
            why: impl Into<String>,
        ) -> &mut Loss {
            self.push(LossKind::$kind, pointer, what, why)
        }
    )*};
}

impl Losses {
    /// An empty list.
    pub fn new() -> Self {
        Losses(Vec::new())
    }
    /// Record a loss.
    pub fn push(
        &mut self,
        kind: LossKind,
        pointer: impl Into<String>,
        what: impl Into<String>,
        why: impl Into<String>,
    ) -> &mut Loss {
        self.0.push(Loss {
            pointer: pointer.into(),
            target: None,
            kind,
            what: what.into(),
            why: why.into(),
        });
        let last = self.0.len() - 1;
        &mut self.0[last]
    }
    kind_shorthands! {
        /// Record a dropped element.
        dropped => Dropped,
        /// Record a rewritten element.
        rewritten => Rewritten,
        /// Record an added element.
        added => Added,
        /// Record dropped reasoning.
        reasoning => Reasoning,
        /// Record a note (not a loss).
        note => Note,
    }
    /// How many of the entries are losses (notes left out).
    pub fn count(&self) -> usize {
        count_losses(&self.0)
    }
    /// Report every provider-only field group in `extra` that belongs to a format other than
    /// `own` (the target) as dropped (form markers, [`super::FORM_KEY`], are not data). `pointer` is the pointer of the element owning `extra`.
    pub fn foreign_extra(
        &mut self,
        extra: &super::Extra,
        own: &str,
        pointer: impl std::fmt::Display,
    ) {
        for (format, fields) in extra {
            let names: Vec<&str> = fields
                .keys()
                .map(String::as_str)
                .filter(|k| !super::is_form_key(k))
                .collect();
            if format != own && !names.is_empty() {
                self.dropped(
                    format!("{pointer}/extra/{}", crate::text::escape(format)),
                    format!("{format}-only fields {}", names.join(", ")),
                    format!("only {format} has them"),
                );
            }
        }
    }
    /// Append other losses.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Loss>) {
        self.0.extend(other);
    }
    /// The losses.
    pub fn into_vec(self) -> Vec<Loss> {
        self.0
    }
}

/// How many of `entries` are losses, not notes.
pub fn count_losses(entries: &[Loss]) -> usize {
    entries.iter().filter(|l| l.is_loss()).count()
}

impl Loss {
    /// False for a [`LossKind::Note`]: something to know, nothing lost.
    pub fn is_loss(&self) -> bool {
        self.kind != LossKind::Note
    }
    /// Set where in the emitted document the element went.
    pub fn at(&mut self, target: impl Into<String>) -> &mut Self {
        self.target = Some(target.into());
        self
    }
}
