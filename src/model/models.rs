//! Which model each provider is asked for.
//!
//! A model name belongs to one provider family: `gpt-4o` means nothing to the Messages API and
//! `claude-sonnet-4-5` nothing to Gemini. So the exchange has a model per family: the one the
//! user set for it ([`super::Options::models`]), else the exchange's own `options.model` when
//! that family's API takes it, else a current default of the family. The document's own model
//! is kept: a family takes its own names, the names of providers it also serves (a DeepSeek
//! model through OpenAI's API at api.deepseek.com, an Ollama `name:tag` through Ollama's
//! OpenAI-compatible API), and, for the compatible and local servers, a name no provider owns.
//! Only a model of another provider's family is replaced. Encoders send
//! [`Exchange::model_for`] their family and report a substitution as a rewrite
//! ([`encoder_model`]).

use super::{Exchange, LossKind, Losses};

/// A family of APIs that share model names: a provider of the table ([`crate::providers`]),
/// whose rows hold ids, names, default models and the one classifier of model names
/// ([`ModelFamily::of_name`], [`ModelFamily::accepts`]).
pub use crate::providers::Provider as ModelFamily;

/// Where the model [`Exchange::model_for`] chose comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelOrigin {
    /// Set for this family (`options.models`).
    Set,
    /// The exchange's own `options.model`, which this family takes.
    Exchange,
    /// The family's current default: nothing else applies.
    Default,
}

/// A model for one family and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChosenModel {
    /// The model name to send.
    pub name: String,
    /// Where it comes from.
    pub origin: ModelOrigin,
}

impl ChosenModel {
    /// True when it is the family's default (nothing set, and the exchange's model does not fit).
    pub fn is_default(&self) -> bool {
        self.origin == ModelOrigin::Default
    }
}

impl Exchange {
    /// The model to send to `family`: the one set for it (`options.models`), else
    /// `options.model` when the family takes that name, else the family's default.
    pub fn model_for(&self, family: ModelFamily) -> ChosenModel {
        if let Some(m) = self
            .options
            .models
            .get(family.id())
            .filter(|m| !m.trim().is_empty())
        {
            return ChosenModel {
                name: m.clone(),
                origin: ModelOrigin::Set,
            };
        }
        self.fallback_model(family)
    }

    /// Set the exchange's own model (`None` clears it): it goes to every family whose API takes
    /// the name, so the settings of those families give way to it.
    pub fn set_model(&mut self, model: Option<String>) {
        if let Some(m) = &model {
            self.options
                .models
                .retain(|k, _| ModelFamily::from_id(k).is_none_or(|f| !f.accepts(m)));
        }
        self.options.model = model;
    }

    /// Keep what `previous` sent each family when this exchange (decoded from one provider's
    /// document, say a pane's edited text) replaces it: its per-family settings, and its own
    /// model for the families that take that name but not this exchange's model. Editing the
    /// Anthropic pane, which shows an Anthropic model, leaves the OpenAI pane's `gpt-4o` alone.
    pub fn keep_models_from(&mut self, previous: &Exchange) {
        for (k, v) in &previous.options.models {
            self.options
                .models
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        let Some(old) = &previous.options.model else {
            return;
        };
        if self.options.model.as_ref() == Some(old) {
            return;
        }
        for f in ModelFamily::ALL {
            let new_fits = self.options.model.as_deref().is_some_and(|m| f.accepts(m));
            if f.accepts(old) && !new_fits {
                self.options
                    .models
                    .entry(f.id().to_string())
                    .or_insert_with(|| old.clone());
            }
        }
    }

    /// The model `family` gets when none is set for it: `options.model` when the family takes
    /// that name, else the family's default (what the model editor shows as placeholder).
    pub fn fallback_model(&self, family: ModelFamily) -> ChosenModel {
        match &self.options.model {
            Some(m) if family.accepts(m) => ChosenModel {
                name: m.clone(),
                origin: ModelOrigin::Exchange,
            },
            _ => ChosenModel {
                name: family.default_model().to_string(),
                origin: ModelOrigin::Default,
            },
        }
    }
}

/// The model an encoder for `family` writes at `target` in its document (`what` names the
/// field, `required_why` says why the format must name one), with a note when it is not the
/// exchange's own `options.model` (the exchange names a model of another family, or none):
/// each provider is sent a model it serves, which loses nothing.
pub fn encoder_model(
    x: &Exchange,
    family: ModelFamily,
    target: &str,
    what: &str,
    required_why: &str,
    losses: &mut Losses,
) -> String {
    let chosen = x.model_for(family);
    let fam = family.name();
    let source = |why: &str| match chosen.origin {
        ModelOrigin::Set => format!("{why}: the {fam} model set for this exchange is sent"),
        _ => format!("{why}: {fam}'s current default is sent (choose one per provider)"),
    };
    match &x.options.model {
        Some(m) if *m == chosen.name => {}
        Some(m) => {
            let whose = match ModelFamily::of_name(m) {
                Some(f) if f != family => format!("{m} is {}'s model, not {fam}'s", f.name()),
                _ => format!("the {fam} API does not serve {m}"),
            };
            losses
                .push(
                    LossKind::Note,
                    "/options/model",
                    format!("{what} {m:?} sent as {:?}", chosen.name),
                    source(&whose),
                )
                .at(target);
        }
        None => {
            losses
                .push(
                    LossKind::Note,
                    super::option_pointer(x, "model"),
                    format!("{what} {:?}", chosen.name),
                    source(required_why),
                )
                .at(target);
        }
    }
    chosen.name
}

#[cfg(test)]
mod tests {
    #[test]
    fn model_editing_one_pane_keeps_the_others() {
        let mut before = Exchange::default();
        before.options.model = Some("gpt-4o".into());
        // The Anthropic pane's text decodes with the model it showed.
        let mut after = Exchange::default();
        after.options.model = Some("claude-sonnet-4-5".into());
        after.keep_models_from(&before);
        assert_eq!(after.model_for(ModelFamily::OpenAi).name, "gpt-4o");
        assert_eq!(
            after.model_for(ModelFamily::Anthropic).name,
            "claude-sonnet-4-5"
        );
        // Typing a model in the exchange's field sends it wherever it is taken.
        after.set_model(Some("gpt-5".into()));
        assert_eq!(after.model_for(ModelFamily::OpenAi).name, "gpt-5");
        assert!(after.options.models.is_empty());
    }

    use super::*;

    #[test]
    fn model_families_of_real_names() {
        for (name, family) in [
            ("gpt-4o", Some(ModelFamily::OpenAi)),
            ("o3-mini", Some(ModelFamily::OpenAi)),
            ("ft:gpt-4o-mini:acme::abc", Some(ModelFamily::OpenAi)),
            ("claude-sonnet-4-5-20250929", Some(ModelFamily::Anthropic)),
            ("gemini-2.5-flash", Some(ModelFamily::Gemini)),
            ("models/gemini-2.0-flash", Some(ModelFamily::Gemini)),
            (
                "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
                Some(ModelFamily::Bedrock),
            ),
            (
                "anthropic.claude-3-haiku-20240307-v1:0",
                Some(ModelFamily::Bedrock),
            ),
            ("mistral-large-latest", Some(ModelFamily::Mistral)),
            ("open-mixtral-8x22b", Some(ModelFamily::Mistral)),
            ("command-a-03-2025", Some(ModelFamily::Cohere)),
            ("deepseek-chat", Some(ModelFamily::DeepSeek)),
            ("qwen2.5:7b", Some(ModelFamily::Ollama)),
            ("llama3.1", None),
            ("meta-llama/Llama-3.1-8B-Instruct", None),
        ] {
            assert_eq!(ModelFamily::of_name(name), family, "{name}");
        }
        assert!(ModelFamily::Ollama.accepts("mistral"));
        assert!(ModelFamily::Ollama.accepts("gemma3"));
        assert!(ModelFamily::OpenAi.accepts("meta-llama/Llama-3.1-8B-Instruct"));
        assert!(!ModelFamily::Anthropic.accepts("gpt-4o"));
        assert!(!ModelFamily::OpenAi.accepts("claude-sonnet-4-5"));
    }

    #[test]
    fn a_documents_own_model_is_kept_in_its_own_format() {
        // DeepSeek on its OpenAI-compatible Responses endpoint, Ollama Cloud through OpenAI's
        // API: the OpenAI formats send the document's model as it is.
        for name in ["deepseek-chat", "gpt-oss:20b"] {
            let mut x = Exchange::default();
            x.options.model = Some(name.into());
            let m = x.model_for(ModelFamily::OpenAi);
            assert_eq!((m.name.as_str(), m.origin), (name, ModelOrigin::Exchange));
            let mut losses = Losses::new();
            let sent = encoder_model(&x, ModelFamily::OpenAi, "/model", "model", "", &mut losses);
            assert_eq!(sent, name);
            assert!(losses.into_vec().is_empty());
        }
        // A model of another provider's family is still replaced, and said.
        let mut x = Exchange::default();
        x.options.model = Some("claude-sonnet-4-5".into());
        let mut losses = Losses::new();
        let sent = encoder_model(&x, ModelFamily::OpenAi, "/model", "model", "", &mut losses);
        assert_eq!(sent, ModelFamily::OpenAi.default_model());
        assert_eq!(losses.into_vec().len(), 1);
        // An unknown name goes to the servers that take any name, not to a hosted API's.
        x.options.model = Some("llama3.1".into());
        assert_eq!(x.model_for(ModelFamily::OpenAi).name, "llama3.1");
        assert!(x.model_for(ModelFamily::Anthropic).is_default());
    }

    #[test]
    fn model_for_prefers_set_then_own_then_default() {
        let mut x = Exchange::default();
        assert!(x.model_for(ModelFamily::Anthropic).is_default());
        x.options.model = Some("gpt-4o".into());
        assert_eq!(x.model_for(ModelFamily::OpenAi).name, "gpt-4o");
        let a = x.model_for(ModelFamily::Anthropic);
        assert_eq!(
            (a.name.as_str(), a.origin),
            ("claude-sonnet-4-5", ModelOrigin::Default)
        );
        x.options
            .models
            .insert("anthropic".into(), "claude-opus-4-1".into());
        let a = x.model_for(ModelFamily::Anthropic);
        assert_eq!(
            (a.name.as_str(), a.origin),
            ("claude-opus-4-1", ModelOrigin::Set)
        );
    }
}
