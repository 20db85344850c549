//! The conversation editor: system prompt, model, tool choice and parallel calls, then the
//! messages (`messages.rs`).

use super::messages::MessageList;
use super::shared::focus_field;
use super::state::{use_state, AppState};
use crate::edit;
use crate::formats::Format;
use leptos::prelude::*;

/// Settings and messages.
#[component]
pub fn ConversationEditor() -> impl IntoView {
    let state = use_state();
    let count = Memo::new(move |_| state.exchange.with(|x| x.messages.len()));
    // A memo: the options are rebuilt when a name changes, not on every keystroke.
    let tool_names = Memo::new(move |_| {
        state
            .exchange
            .with(|x| x.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    });
    // Memos: the fields are written only when their value changes, not on every keystroke.
    let system = Memo::new(move |_| {
        state
            .exchange
            .with(|x| x.system.clone().unwrap_or_default())
    });
    let choice = Memo::new(move |_| state.exchange.with(edit::choice_value));
    let parallel = Memo::new(move |_| {
        state.exchange.with(|x| match x.parallel_tool_calls {
            None => "default",
            Some(true) => "yes",
            Some(false) => "no",
        })
    });
    view! {
        <section class="block" aria-labelledby="conv-title" data-testid="conversation-editor">
            <div class="block-head">
                <h3 id="conv-title">"Conversation"</h3>
            </div>
            <div class="settings">
                <label class="field">
                    <span>"System prompt"</span>
                    <textarea rows="2" data-testid="system"
                        prop:value=system
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            state.edit(|x| x.system = (!v.is_empty()).then_some(v));
                        }
                    ></textarea>
                </label>
                <div class="row wrap">
                    <super::models::ModelEditor />
                    <label class="field">
                        <span>"Tool choice"</span>
                        <select data-testid="tool-choice"
                            prop:value=move || {
                                // Again once the options change: the value may name a new one.
                                let _ = tool_names.with(Vec::len);
                                choice.get()
                            }
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                state.edit(|x| edit::set_choice(x, &v));
                            }
                        >
                            <option value="default">"provider default"</option>
                            <option value="auto">"auto"</option>
                            <option value="none">"none"</option>
                            <option value="required">"required (any tool)"</option>
                            <option value="validated">{format!("validated ({})", super::shared::providers_of(Format::VALIDATED_CHOICE.iter().copied()))}</option>
                            // Keyed: renaming one tool replaces one option, not all of them.
                            <For each=move || tool_names.get().into_iter().enumerate() key=|(i, n)| (*i, n.clone()) let:item>
                                <option value=format!("tool:{}", item.1)>{format!("force {}", item.1)}</option>
                            </For>
                        </select>
                    </label>
                    <label class="field">
                        <span>"Parallel calls"</span>
                        <select data-testid="parallel"
                            prop:value=parallel
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                state.edit(|x| x.parallel_tool_calls = match v.as_str() {
                                    "yes" => Some(true), "no" => Some(false), _ => None });
                            }
                        >
                            <option value="default">"provider default"</option>
                            <option value="yes">"allowed"</option>
                            <option value="no">"one call per turn"</option>
                        </select>
                    </label>
                </div>
            </div>
            <MessageList count=count />
            <div class="add-row" role="group" aria-label="Add to the conversation">
                <button type="button" class="ghost small" data-testid="add-user"
                    on:click=move |_| {
                        state.edit(|x| edit::add_user(x, ""));
                        focus_field(format!("text-{}-0", last_message(state)));
                    }>"+ User"</button>
                <button type="button" class="ghost small" data-testid="add-assistant"
                    on:click=move |_| {
                        state.edit(|x| edit::add_assistant_text(x, ""));
                        focus_field(format!("text-{}-0", last_message(state)));
                    }>"+ Assistant text"</button>
                <button type="button" class="ghost small" data-testid="add-call"
                    title="A call in the last assistant turn (a parallel call), or a new turn"
                    on:click=move |_| {
                        let mut at = (0, 0);
                        state.edit(|x| at = edit::add_call(x));
                        focus_field(format!("call-{}-{}-name", at.0, at.1));
                    }>"+ Tool call"</button>
                <button type="button" class="ghost small" data-testid="add-result"
                    title="The result of the oldest unanswered call"
                    on:click=move |_| {
                        let mut at = (0, 0);
                        state.edit(|x| at = edit::add_result(x));
                        focus_field(format!("result-{}-{}-content", at.0, at.1));
                    }>"+ Result"</button>
            </div>
        </section>
    }
}

/// The index of the last message.
fn last_message(state: AppState) -> usize {
    state
        .exchange
        .with_untracked(|x| x.messages.len().saturating_sub(1))
}
