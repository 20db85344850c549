//! The model editor: the exchange's own model, and the model each provider family is sent
//! (what the user set, else the exchange's model where that family takes it, else a current
//! default, shown as the placeholder). Every pane, snippet and live run uses these.

use super::state::use_state;
use crate::model::{ModelFamily, ModelOrigin};
use leptos::prelude::*;

/// The exchange's model and, folded, one input per provider family.
#[component]
pub fn ModelEditor() -> impl IntoView {
    let state = use_state();
    // How many families are sent something other than the exchange's own model.
    let substituted = Memo::new(move |_| {
        state.exchange.with(|x| {
            ModelFamily::ALL
                .into_iter()
                .filter(|f| x.model_for(*f).origin != ModelOrigin::Exchange)
                .count()
        })
    });
    // Memos: the fields are written only when their value changes, not on every keystroke.
    let model = Memo::new(move |_| {
        state
            .exchange
            .with(|x| x.options.model.clone().unwrap_or_default())
    });
    view! {
        <label class="field">
            <span>"Model"</span>
            <input type="text" data-testid="model" placeholder="provider default"
                title="The exchange's model: sent to every provider whose API takes that name"
                prop:value=model
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    state.edit(|x| x.set_model((!v.trim().is_empty()).then_some(v)));
                }
            />
        </label>
        <details class="field models" data-testid="models">
            <summary>
                {move || match substituted.get() {
                    0 => "Model per provider".to_string(),
                    n => format!("Model per provider ({n} differ)"),
                }}
            </summary>
            <div class="models-list">
                {ModelFamily::ALL.into_iter().map(|f| view! { <FamilyModel family=f /> }).collect_view()}
            </div>
        </details>
    }
}

/// One family's model: empty means "what applies without a setting", shown as placeholder.
#[component]
fn FamilyModel(family: ModelFamily) -> impl IntoView {
    let state = use_state();
    let id = family.id();
    let placeholder = Memo::new(move |_| {
        state.exchange.with(|x| {
            let m = x.fallback_model(family);
            if m.is_default() {
                format!("{} (default)", m.name)
            } else {
                m.name
            }
        })
    });
    let value = Memo::new(move |_| {
        state
            .exchange
            .with(|x| x.options.models.get(id).cloned().unwrap_or_default())
    });
    view! {
        <label class="field model-family">
            <span>{family.name()}</span>
            <input type="text" data-testid=format!("model-{id}")
                placeholder=placeholder
                prop:value=value
                on:input=move |ev| {
                    let v = event_target_value(&ev);
                    state.edit(|x| {
                        if v.trim().is_empty() {
                            x.options.models.remove(id);
                        } else {
                            x.options.models.insert(id.to_string(), v);
                        }
                    });
                }
            />
        </label>
    }
}
