//! The conversation editor: system prompt, model, tool choice and parallel calls; messages
//! with text, tool calls (name + arguments, parallel calls) and tool results (linked to their
//! call, error flag); reorder and delete.

use super::state::use_state;
use super::tools::Mover;
use crate::anchors::Element;
use crate::edit;
use crate::model::{Exchange, Part, ResultContent, Role};
use leptos::prelude::*;

/// Settings and messages.
#[component]
pub fn ConversationEditor() -> impl IntoView {
    let state = use_state();
    let count = Memo::new(move |_| state.exchange.with(|x| x.messages.len()));
    let tool_names = move || {
        state
            .exchange
            .with(|x| x.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    };
    view! {
        <section class="block" aria-labelledby="conv-title" data-testid="conversation-editor">
            <div class="block-head">
                <h3 id="conv-title">"Conversation"</h3>
            </div>
            <div class="settings">
                <label class="field">
                    <span>"System prompt"</span>
                    <textarea rows="2" data-testid="system"
                        prop:value=move || state.exchange.with(|x| x.system.clone().unwrap_or_default())
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
                            prop:value=move || state.exchange.with(edit::choice_value)
                            on:change=move |ev| {
                                let v = event_target_value(&ev);
                                state.edit(|x| edit::set_choice(x, &v));
                            }
                        >
                            <option value="default">"provider default"</option>
                            <option value="auto">"auto"</option>
                            <option value="none">"none"</option>
                            <option value="required">"required (any tool)"</option>
                            <option value="validated">"validated (Gemini)"</option>
                            {move || tool_names().into_iter().map(|n| {
                                let v = format!("tool:{n}");
                                view! { <option value=v.clone()>{format!("force {n}")}</option> }
                            }).collect_view()}
                        </select>
                    </label>
                    <label class="field">
                        <span>"Parallel calls"</span>
                        <select data-testid="parallel"
                            prop:value=move || state.exchange.with(|x| match x.parallel_tool_calls {
                                None => "default", Some(true) => "yes", Some(false) => "no" })
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
            <ol class="messages">
                {move || (0..count.get()).map(|m| view! { <MessageCard m=m /> }).collect_view()}
            </ol>
            <div class="add-row" role="group" aria-label="Add to the conversation">
                <button type="button" class="ghost small" data-testid="add-user"
                    on:click=move |_| state.edit(|x| edit::add_user(x, ""))>"+ User"</button>
                <button type="button" class="ghost small" data-testid="add-assistant"
                    on:click=move |_| state.edit(|x| edit::add_assistant_text(x, ""))>"+ Assistant text"</button>
                <button type="button" class="ghost small" data-testid="add-call"
                    title="A call in the last assistant turn (a parallel call), or a new turn"
                    on:click=move |_| state.edit(|x| { edit::add_call(x); })>"+ Tool call"</button>
                <button type="button" class="ghost small" data-testid="add-result"
                    title="The result of the oldest unanswered call"
                    on:click=move |_| state.edit(|x| { edit::add_result(x); })>"+ Result"</button>
            </div>
        </section>
    }
}

fn role_of(x: &Exchange, m: usize) -> Option<Role> {
    x.messages.get(m).map(|msg| msg.role)
}

#[component]
fn MessageCard(m: usize) -> impl IntoView {
    let state = use_state();
    let role = Memo::new(move |_| state.exchange.with(|x| role_of(x, m)));
    let parts = Memo::new(move |_| {
        state
            .exchange
            .with(|x| x.messages.get(m).map_or(0, |msg| msg.parts.len()))
    });
    let role_value = move || match role.get() {
        Some(Role::User) => "user",
        Some(Role::Assistant) => "assistant",
        Some(Role::Tool) => "tool",
        None => "",
    };
    view! {
        <li class="card message" data-role=role_value data-testid=format!("message-{m}")>
            <div class="row">
                <select class="role" aria-label=format!("Role of message {}", m + 1) data-testid=format!("message-{m}-role")
                    prop:value=role_value
                    on:change=move |ev| {
                        let r = match event_target_value(&ev).as_str() {
                            "assistant" => Role::Assistant,
                            "tool" => Role::Tool,
                            _ => Role::User,
                        };
                        state.edit(|x| edit::set_role(x, m, r));
                    }
                >
                    <option value="user">"user"</option>
                    <option value="assistant">"assistant"</option>
                    <option value="tool">"tool results"</option>
                </select>
                <span class="grow"></span>
                <Show when=move || role.get() != Some(Role::Tool)>
                    <button type="button" class="ghost small" data-testid=format!("add-text-{m}") on:click=move |_| state.edit(|x| edit::add_text_to(x, m))>"+ text"</button>
                </Show>
                <Show when=move || role.get() == Some(Role::Assistant)>
                    <button type="button" class="ghost small" data-testid=format!("add-call-{m}")
                        title="Another call in this turn (parallel)"
                        on:click=move |_| state.edit(|x| edit::add_call_to(x, m))>"+ call"</button>
                </Show>
                <Mover
                    label="message"
                    id=format!("message-{m}")
                    up=move || state.edit(|x| edit::shift(&mut x.messages, m, true))
                    down=move || state.edit(|x| edit::shift(&mut x.messages, m, false))
                    remove=move || state.remove(format!("message {}", m + 1), |x| edit::remove_message(x, m))
                />
            </div>
            {move || (0..parts.get()).map(|p| view! { <PartRow m=m p=p /> }).collect_view()}
        </li>
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Text,
    Call,
    Result,
    Raw,
    Gone,
}

#[component]
fn PartRow(m: usize, p: usize) -> impl IntoView {
    let state = use_state();
    let shape = Memo::new(move |_| {
        state.exchange.with(
            |x| match x.messages.get(m).and_then(|msg| msg.parts.get(p)) {
                Some(Part::Text { .. }) => Shape::Text,
                Some(Part::ToolCall(_)) => Shape::Call,
                Some(Part::ToolResult(_)) => Shape::Result,
                Some(Part::Raw { .. }) => Shape::Raw,
                None => Shape::Gone,
            },
        )
    });
    let mover = move || {
        view! {
            <Mover
                label="part"
                id=format!("part-{m}-{p}")
                up=move || state.edit(|x| if let Some(msg) = x.messages.get_mut(m) { edit::shift(&mut msg.parts, p, true) })
                down=move || state.edit(|x| if let Some(msg) = x.messages.get_mut(m) { edit::shift(&mut msg.parts, p, false) })
                remove=move || state.remove(format!("part {} of message {}", p + 1, m + 1), |x| edit::remove_part(x, m, p))
            />
        }
    };
    move || {
        match shape.get() {
        Shape::Text => view! { <div class="part text">{mover()}<TextPart m=m p=p /></div> }.into_any(),
        Shape::Call => view! { <CallPart m=m p=p mover=mover().into_any() /> }.into_any(),
        Shape::Result => view! { <ResultPart m=m p=p mover=mover().into_any() /> }.into_any(),
        Shape::Raw => view! {
            <div class="part raw">
                {mover()}
                <code>{move || state.exchange.with(|x| match x.messages.get(m).and_then(|msg| msg.parts.get(p)) {
                    Some(Part::Raw { format, value }) => format!("{format} block: {value}"),
                    _ => String::new(),
                })}</code>
            </div>
        }.into_any(),
        Shape::Gone => ().into_any(),
    }
    }
}

#[component]
fn TextPart(m: usize, p: usize) -> impl IntoView {
    let state = use_state();
    view! {
        <textarea rows="2" aria-label=format!("Text of message {}", m + 1) data-testid=format!("text-{m}-{p}")
            prop:value=move || state.exchange.with(|x| match x.messages.get(m).and_then(|msg| msg.parts.get(p)) {
                Some(Part::Text { text, .. }) => text.clone(),
                _ => String::new(),
            })
            on:input=move |ev| {
                let v = event_target_value(&ev);
                state.edit(|x| {
                    if let Some(Part::Text { text, .. }) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) {
                        *text = v;
                    }
                });
            }
        ></textarea>
    }
}

/// Arguments as the editor shows them: compact JSON, or the raw text when it is not JSON.
fn arguments_text(x: &Exchange, m: usize, p: usize) -> String {
    match x.messages.get(m).and_then(|msg| msg.parts.get(p)) {
        Some(Part::ToolCall(c)) => c.arguments_text(),
        _ => String::new(),
    }
}

#[component]
fn CallPart(m: usize, p: usize, mover: AnyView) -> impl IntoView {
    let state = use_state();
    let findings = state.arguments;
    let call = move |f: fn(&crate::model::ToolCall) -> String| {
        move || {
            state.exchange.with(
                |x| match x.messages.get(m).and_then(|msg| msg.parts.get(p)) {
                    Some(Part::ToolCall(c)) => f(c),
                    _ => String::new(),
                },
            )
        }
    };
    let at = format!("/messages/{m}/parts/{p}/");
    let problems = move || {
        findings.with(|fs| {
            fs.iter()
                .filter(|f| f.pointer.starts_with(&at))
                .map(|f| f.message.clone())
                .collect::<Vec<_>>()
        })
    };
    let el = Some(Element::Call {
        message: m,
        part: p,
    });
    let names = move || {
        state
            .exchange
            .with(|x| x.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    };
    let list_id = format!("tool-names-{m}-{p}");
    view! {
        <div class="part call" class:linked=move || state.focus() == el data-testid=format!("call-{m}-{p}")
            on:mouseenter=move |_| state.hovered.set(el)
            on:mouseleave=move |_| state.hovered.set(None)
            on:click=move |_| state.selected.set(el)
        >
            {mover}
            <div class="row wrap">
                <span class="tag">"call"</span>
                <label class="field">
                    <span>"Tool"</span>
                    <input type="text" list=list_id.clone() data-testid=format!("call-{m}-{p}-name")
                        prop:value=call(|c| c.name.clone())
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            state.edit(|x| if let Some(Part::ToolCall(c)) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) { c.name = v; });
                        }
                    />
                    <datalist id=list_id>{move || names().into_iter().map(|n| view! { <option value=n></option> }).collect_view()}</datalist>
                </label>
                <label class="field">
                    <span>"Id"</span>
                    <input type="text" class="mono" data-testid=format!("call-{m}-{p}-id")
                        prop:value=call(|c| c.id.clone().unwrap_or_default())
                        on:input=move |ev| {
                            let v = event_target_value(&ev);
                            state.edit(|x| if let Some(Part::ToolCall(c)) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) { c.id = (!v.is_empty()).then_some(v); });
                        }
                    />
                </label>
            </div>
            <label class="field">
                <span>"Arguments (JSON)"</span>
                <textarea class="mono" rows="2" data-testid=format!("call-{m}-{p}-args")
                    prop:value=move || state.exchange.with(|x| arguments_text(x, m, p))
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        state.edit(|x| if let Some(Part::ToolCall(c)) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) {
                            // Valid JSON is stored as a value (no spelling to keep); anything else
                            // stays raw, so the panes show what each provider does with it.
                            match serde_json::from_str::<serde_json::Value>(&v) {
                                Ok(val) => { c.arguments = val; c.arguments_raw = None; }
                                Err(_) => c.set_arguments_text(&v),
                            }
                        });
                    }
                ></textarea>
            </label>
            <ul class="problems" data-testid=format!("call-{m}-{p}-problems")>
                {move || problems().into_iter().map(|msg| view! { <li>{msg}</li> }).collect_view()}
            </ul>
        </div>
    }
}

#[component]
fn ResultPart(m: usize, p: usize, mover: AnyView) -> impl IntoView {
    let state = use_state();
    let result = move |f: fn(&crate::model::ToolResult) -> String| {
        move || {
            state.exchange.with(
                |x| match x.messages.get(m).and_then(|msg| msg.parts.get(p)) {
                    Some(Part::ToolResult(r)) => f(r),
                    _ => String::new(),
                },
            )
        }
    };
    let is_error = move || {
        state.exchange.with(|x| matches!(x.messages.get(m).and_then(|msg| msg.parts.get(p)), Some(Part::ToolResult(r)) if r.is_error))
    };
    let calls = move || state.exchange.with(edit::all_calls);
    let el = Some(Element::Result {
        message: m,
        part: p,
    });
    view! {
        <div class="part result" class:linked=move || state.focus() == el data-testid=format!("result-{m}-{p}")
            on:mouseenter=move |_| state.hovered.set(el)
            on:mouseleave=move |_| state.hovered.set(None)
            on:click=move |_| state.selected.set(el)
        >
            {mover}
            <div class="row wrap">
                <span class="tag">"result"</span>
                <label class="field grow">
                    <span>"For call"</span>
                    <select data-testid=format!("result-{m}-{p}-call")
                        prop:value=result(|r| r.call_id.clone().unwrap_or_default())
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            state.edit(|x| edit::link_result(x, m, p, &v));
                        }
                    >
                        <option value="">"(no id)"</option>
                        {move || calls().into_iter().map(|(id, name)| {
                            view! { <option value=id.clone()>{format!("{id} — {name}")}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="check">
                    <input type="checkbox" data-testid=format!("result-{m}-{p}-error")
                        prop:checked=is_error
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            state.edit(|x| if let Some(Part::ToolResult(r)) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) { r.is_error = on; });
                        }
                    />
                    "error"
                </label>
            </div>
            <label class="field">
                <span>"Content"</span>
                <textarea rows="2" data-testid=format!("result-{m}-{p}-content")
                    prop:value=result(|r| match &r.content {
                        ResultContent::Json(v) => serde_json::to_string(v).unwrap_or_default(),
                        c => c.to_text(),
                    })
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        state.edit(|x| if let Some(Part::ToolResult(r)) = x.messages.get_mut(m).and_then(|msg| msg.parts.get_mut(p)) {
                            // JSON stays JSON when it was JSON; text stays text.
                            r.content = match (&r.content, serde_json::from_str::<serde_json::Value>(&v)) {
                                (ResultContent::Json(_), Ok(val)) => ResultContent::Json(val),
                                _ => ResultContent::Text(v),
                            };
                        });
                    }
                ></textarea>
            </label>
        </div>
    }
}
