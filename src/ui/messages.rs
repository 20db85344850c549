//! The messages of the conversation editor: text, tool calls (name + arguments, parallel
//! calls) and tool results (linked to their call, error flag); reorder and delete.
//!
//! Built for thousands of messages: the list is virtualised (only the rows near the viewport
//! exist), each row reads only its own message (a keystroke re-renders that row alone), the
//! tool names are one shared `<datalist>`, and a result's call picker lists every call only
//! while it is in use.

use super::media::{MediaChip, RawChip};
use super::shared::{remove_block, Mover};
use super::state::{use_state, AppState};
use super::virtual_list::VirtualList;
use crate::anchors::Element;
use crate::edit;
use crate::model::{Block, Message, Part, ResultContent, Role, ToolCall, ToolResult};
use crate::share::media;
use leptos::prelude::*;

/// A message row's height before it is measured, in pixels.
const MESSAGE_HEIGHT: f64 = 120.0;
/// Up to this many messages every row is drawn.
const WHOLE: usize = 40;
/// The `id` of the shared datalist of tool names.
const TOOL_NAMES: &str = "tool-names";

/// What every row shares, computed once per change of the exchange rather than once per row.
#[derive(Clone, Copy)]
struct Shared {
    /// Every call with an id: `(id, tool name)`, for the result pickers.
    calls: Memo<Vec<(String, String)>>,
}

/// The messages, virtualised.
#[component]
pub fn MessageList(
    /// How many messages.
    #[prop(into)]
    count: Signal<usize>,
) -> impl IntoView {
    let state = use_state();
    let names = Memo::new(move |_| {
        state
            .exchange
            .with(|x| x.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>())
    });
    provide_context(Shared {
        calls: Memo::new(move |_| state.exchange.with(edit::all_calls)),
    });
    view! {
        <datalist id=TOOL_NAMES>
            <For each=move || names.get().into_iter().enumerate() key=|(i, n)| (*i, n.clone()) let:item>
                <option value=item.1></option>
            </For>
        </datalist>
        <VirtualList
            count=count
            row=|m| view! { <MessageCard m=m /> }
            estimate=MESSAGE_HEIGHT
            whole=WHOLE
            class="messages"
            testid="messages"
        />
    }
}

/// The `id` of message `m`'s form (`super::card_form`), named by each of its fields.
fn form_of(m: usize) -> String {
    format!("message-{m}-form")
}

/// Change part `p` of message `m` in place (nothing when it is gone): only that row re-reads.
fn edit_part(state: AppState, m: usize, p: usize, f: impl FnOnce(&mut Part)) {
    state.edit_message(m, |msg| {
        if let Some(part) = msg.parts.get_mut(p) {
            f(part);
        }
    });
}

#[component]
fn MessageCard(m: usize) -> impl IntoView {
    let state = use_state();
    // This row's message, re-read only when its revision moves (an edit of this message, or
    // one that may have moved any): a keystroke elsewhere clones and compares nothing here.
    let revision = Memo::new(move |_| state.message_revision(m));
    let msg: Memo<Option<Message>> = Memo::new(move |_| {
        // Read, not only tracked: a memo computes (and subscribes) when read.
        let _ = revision.get();
        state
            .exchange
            .with_untracked(|x| x.messages.get(m).cloned())
    });
    let role = Memo::new(move |_| msg.with(|x| x.as_ref().map(|x| x.role)));
    let parts = Memo::new(move |_| msg.with(|x| x.as_ref().map_or(0, |x| x.parts.len())));
    let role_value = move || match role.get() {
        Some(Role::User) => "user",
        Some(Role::Assistant) => "assistant",
        Some(Role::Tool) => "tool",
        None => "",
    };
    view! {
        <li class="card message" data-role=role_value data-testid=format!("message-{m}")>
            <div class="row">
                <select class="role" aria-label=format!("Role of message {}", m + 1) data-testid=format!("message-{m}-role") form=form_of(m)
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
                    <button type="button" class="ghost small" data-testid=format!("add-text-{m}") on:click=move |_| {
                        state.edit(|x| edit::add_text_to(x, m));
                        let p = state.exchange.with_untracked(|x| x.messages.get(m).map_or(0, |x| x.parts.len().saturating_sub(1)));
                        super::shared::focus_field(format!("text-{m}-{p}"));
                    }>"+ text"</button>
                </Show>
                <Show when=move || role.get() == Some(Role::Assistant)>
                    <button type="button" class="ghost small" data-testid=format!("add-call-{m}")
                        title="Another call in this turn (parallel)"
                        on:click=move |_| {
                            state.edit(|x| edit::add_call_to(x, m));
                            let p = state.exchange.with_untracked(|x| x.messages.get(m).map_or(0, |x| x.parts.len().saturating_sub(1)));
                            super::shared::focus_field(format!("call-{m}-{p}-name"));
                        }>"+ call"</button>
                </Show>
                <Mover
                    label="message"
                    id=format!("message-{m}")
                    up=move || state.edit(|x| edit::shift(&mut x.messages, m, true))
                    down=move || state.edit(|x| edit::shift(&mut x.messages, m, false))
                    remove=move || state.remove(format!("message {}", m + 1), |x| edit::remove_message(x, m))
                />
            </div>
            {move || (0..parts.get()).map(|p| view! { <PartRow m=m p=p msg=msg /> }).collect_view()}
            {super::card_form(form_of(m))}
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
fn PartRow(m: usize, p: usize, msg: Memo<Option<Message>>) -> impl IntoView {
    let state = use_state();
    let part: Memo<Option<Part>> =
        Memo::new(move |_| msg.with(|x| x.as_ref().and_then(|x| x.parts.get(p).cloned())));
    let shape = Memo::new(move |_| {
        part.with(|x| match x {
            Some(Part::Text { .. }) => Shape::Text,
            Some(Part::ToolCall(_)) => Shape::Call,
            Some(Part::ToolResult(_)) => Shape::Result,
            Some(Part::Raw { .. } | Part::Reasoning(_) | Part::Hosted(_)) => Shape::Raw,
            None => Shape::Gone,
        })
    });
    // An image, audio or document part is moved and removed by that name.
    let noun = Memo::new(move |_| {
        part.with(|x| match x {
            Some(Part::Raw { value, .. }) => media::of_value(value).map_or("part", |m| m.label()),
            _ => "part",
        })
    });
    let mover = move || {
        view! {
            <Mover
                label=noun.get_untracked()
                id=format!("part-{m}-{p}")
                up=move || state.edit(|x| if let Some(msg) = x.messages.get_mut(m) { edit::shift(&mut msg.parts, p, true) })
                down=move || state.edit(|x| if let Some(msg) = x.messages.get_mut(m) { edit::shift(&mut msg.parts, p, false) })
                remove=move || state.remove(format!("part {} of message {}", p + 1, m + 1), |x| edit::remove_part(x, m, p))
            />
        }
    };
    move || match shape.get() {
        Shape::Text => {
            view! { <div class="part text">{mover()}<TextPart m=m p=p part=part /></div> }
                .into_any()
        }
        Shape::Call => view! { <CallPart m=m p=p part=part mover=mover().into_any() /> }.into_any(),
        Shape::Result => {
            view! { <ResultPart m=m p=p part=part mover=mover().into_any() /> }.into_any()
        }
        Shape::Raw => {
            // Again when the part changes (a reorder, an edit in a pane), not only its shape.
            let chip = move || {
                part.with(|x| match x {
                Some(Part::Raw { format, value }) => match media::of_value(value) {
                    Some(md) => view! { <MediaChip media=md testid=format!("media-{m}-{p}") /> }
                        .into_any(),
                    None => view! {
                        <RawChip format=format.clone() value=value.clone() testid=format!("raw-{m}-{p}") />
                    }
                    .into_any(),
                },
                // Labelled by who issued it: `anthropic reasoning · 4.4 kB`.
                Some(x @ Part::Reasoning(r)) => view! {
                    <RawChip format=r.opaque.as_ref().map_or("model", |o| o.provider.as_str()).to_string() value=serde_json::to_value(x).unwrap_or_default() testid=format!("reasoning-{m}-{p}") />
                }
                .into_any(),
                Some(Part::Hosted(h)) => view! {
                    <RawChip format=h.what() value=h.value.clone() testid=format!("hosted-{m}-{p}") />
                }
                .into_any(),
                _ => ().into_any(),
            })
            };
            view! { <div class="part raw">{move || { noun.track(); mover() }}{chip}</div> }
                .into_any()
        }
        Shape::Gone => ().into_any(),
    }
}

#[component]
fn TextPart(m: usize, p: usize, part: Memo<Option<Part>>) -> impl IntoView {
    let state = use_state();
    view! {
        <textarea rows="2" aria-label=format!("Text of message {}", m + 1) data-testid=format!("text-{m}-{p}") form=form_of(m)
            prop:value=move || part.with(|x| match x {
                Some(Part::Text { text, .. }) => text.clone(),
                _ => String::new(),
            })
            on:input=super::on_text(move |v| edit_part(state, m, p, |part| if let Part::Text { text, .. } = part { *text = v; }))
        ></textarea>
    }
}

/// A call or result part: linked to its place in the panes (hover, click), its mover, its tag
/// and `head` in one row, then `rest`.
fn part_card(
    state: AppState,
    kind: &'static str,
    el: Option<Element>,
    testid: String,
    mover: AnyView,
    head: impl IntoView + 'static,
    rest: impl IntoView + 'static,
) -> impl IntoView {
    view! {
        <div class=format!("part {kind}") class:linked=move || state.focus() == el data-testid=testid
            on:mouseenter=move |_| state.hovered.set(el)
            on:mouseleave=move |_| state.hovered.set(None)
            on:click=move |_| state.selected.set(el)
        >
            {mover}
            <div class="row wrap">
                <span class="tag">{kind}</span>
                {head}
            </div>
            {rest}
        </div>
    }
}

/// A field of the call in `part`, as text.
fn call_field(part: Memo<Option<Part>>, f: fn(&ToolCall) -> String) -> impl Fn() -> String {
    move || {
        part.with(|x| match x {
            Some(Part::ToolCall(c)) => f(c),
            _ => String::new(),
        })
    }
}

#[component]
fn CallPart(m: usize, p: usize, part: Memo<Option<Part>>, mover: AnyView) -> impl IntoView {
    let state = use_state();
    let findings = state.arguments;
    let at = format!("/messages/{m}/parts/{p}/");
    let problems = Memo::new(move |_| {
        findings.with(|fs| {
            fs.iter()
                .filter(|f| f.pointer.starts_with(&at))
                .map(|f| f.message.clone())
                .collect::<Vec<_>>()
        })
    });
    let el = Some(Element::Call {
        message: m,
        part: p,
    });
    let head = view! {
        <label class="field">
            <span>"Tool"</span>
            <input type="text" list=TOOL_NAMES data-testid=format!("call-{m}-{p}-name") form=form_of(m)
                prop:value=call_field(part, |c| c.name.clone())
                on:input=super::on_text(move |v| edit_part(state, m, p, |part| if let Part::ToolCall(c) = part { c.name = v; }))
            />
        </label>
        <label class="field">
            <span>"Id"</span>
            <input type="text" class="mono" data-testid=format!("call-{m}-{p}-id") form=form_of(m)
                prop:value=call_field(part, |c| c.id.clone().unwrap_or_default())
                on:input=super::on_text(move |v| edit_part(state, m, p, |part| if let Part::ToolCall(c) = part { c.id = (!v.is_empty()).then_some(v); }))
            />
        </label>
    };
    let rest = view! {
        <label class="field">
            <span>"Arguments (JSON)"</span>
            <textarea class="mono" rows="2" data-testid=format!("call-{m}-{p}-args") form=form_of(m)
                prop:value=call_field(part, ToolCall::arguments_text)
                on:input=super::on_text(move |v| {
                    edit_part(state, m, p, |part| if let Part::ToolCall(c) = part {
                        // Valid JSON is stored as a value (no spelling to keep); anything else
                        // stays raw, so the panes show what each provider does with it.
                        match serde_json::from_str::<serde_json::Value>(&v) {
                            Ok(val) => { c.arguments = val; c.arguments_raw = None; }
                            Err(_) => c.set_arguments_text(&v),
                        }
                    });
                })
            ></textarea>
        </label>
        <ul class="problems" data-testid=format!("call-{m}-{p}-problems")>
            {move || problems.get().into_iter().map(|msg| view! { <li>{msg}</li> }).collect_view()}
        </ul>
    };
    part_card(
        state,
        "call",
        el,
        format!("call-{m}-{p}"),
        mover,
        head,
        rest,
    )
}

/// A field of the result in `part`.
fn result_field<T: Default>(part: Memo<Option<Part>>, f: fn(&ToolResult) -> T) -> impl Fn() -> T {
    move || {
        part.with(|x| match x {
            Some(Part::ToolResult(r)) => f(r),
            _ => T::default(),
        })
    }
}

#[component]
fn ResultPart(m: usize, p: usize, part: Memo<Option<Part>>, mover: AnyView) -> impl IntoView {
    let state = use_state();
    let shared = expect_context::<Shared>();
    let call_id = Memo::new(move |_| {
        part.with(|x| match x {
            Some(Part::ToolResult(r)) => r.call_id.clone().unwrap_or_default(),
            _ => String::new(),
        })
    });
    // The picker lists every call only once it is used (focus, pointer, key): thousands of
    // options per result made opening a long conversation quadratic.
    let open = RwSignal::new(false);
    let options = move || {
        let current = call_id.get();
        let all = if open.get() {
            shared.calls.get()
        } else if current.is_empty() {
            Vec::new()
        } else {
            let name = shared.calls.with(|cs| {
                cs.iter()
                    .find(|(id, _)| *id == current)
                    .map(|(_, n)| n.clone())
            });
            match name {
                Some(n) => vec![(current.clone(), n)],
                None => Vec::new(),
            }
        };
        all.into_iter()
            .map(|(id, name)| {
                let selected = id == current;
                view! { <option value=id.clone() selected=selected>{format!("{id} — {name}")}</option> }
            })
            .collect_view()
    };
    let el = Some(Element::Result {
        message: m,
        part: p,
    });
    let head = view! {
        <label class="field grow">
            <span>"For call"</span>
            <select data-testid=format!("result-{m}-{p}-call") form=form_of(m)
                on:focus=move |_| open.set(true)
                on:pointerdown=move |_| open.set(true)
                on:keydown=move |_| open.set(true)
                prop:value=move || call_id.get()
                on:change=super::on_text(move |v| state.edit(|x| edit::link_result(x, m, p, &v)))
            >
                <option value="" selected=move || call_id.with(String::is_empty)>"(no id)"</option>
                {options}
            </select>
        </label>
        <label class="check">
            <input type="checkbox" data-testid=format!("result-{m}-{p}-error") form=form_of(m)
                prop:checked=result_field(part, |r| r.is_error)
                on:change=move |ev| {
                    let on = event_target_checked(&ev);
                    edit_part(state, m, p, |part| if let Part::ToolResult(r) = part { r.is_error = on; });
                }
            />
            "error"
        </label>
    };
    let rest = view! {
        <label class="field">
            <span>"Content"</span>
            <textarea rows="2" data-testid=format!("result-{m}-{p}-content") form=form_of(m)
                prop:value=result_field(part, |r| match &r.content {
                    ResultContent::Json(v) => serde_json::to_string(v).unwrap_or_default(),
                    c => c.to_text(),
                })
                on:input=super::on_text(move |v| {
                    edit_part(state, m, p, |part| if let Part::ToolResult(r) = part {
                        // JSON stays JSON when it was JSON; text stays text; images and other
                        // blocks stay where they are.
                        r.content = match (&mut r.content, serde_json::from_str::<serde_json::Value>(&v)) {
                            (ResultContent::Json(_), Ok(val)) => ResultContent::Json(val),
                            (ResultContent::Blocks(bs), _) if bs.iter().any(|b| !matches!(b, Block::Text { .. })) => {
                                ResultContent::Blocks(with_text(std::mem::take(bs), v))
                            }
                            _ => ResultContent::Text(v),
                        };
                    });
                })
            ></textarea>
        </label>
        <ResultBlocks m=m p=p part=part />
    };
    part_card(
        state,
        "result",
        el,
        format!("result-{m}-{p}"),
        mover,
        head,
        rest,
    )
}

/// `blocks` with `text` as their text: in the first text block's place (the other text blocks
/// go, as the field shows them joined), or first when there was none; no text block when empty.
fn with_text(blocks: Vec<Block>, text: String) -> Vec<Block> {
    let at = blocks
        .iter()
        .position(|b| matches!(b, Block::Text { .. }))
        .unwrap_or(0);
    let mut out: Vec<Block> = blocks
        .into_iter()
        .filter(|b| !matches!(b, Block::Text { .. }))
        .collect();
    if !text.is_empty() {
        out.insert(at.min(out.len()), Block::Text { text });
    }
    out
}

/// The blocks of a result that are not text (images, documents, a format's own blocks), each
/// a chip with its remove button.
#[component]
fn ResultBlocks(m: usize, p: usize, part: Memo<Option<Part>>) -> impl IntoView {
    let state = use_state();
    let blocks = Memo::new(move |_| {
        part.with(|x| match x {
            Some(Part::ToolResult(ToolResult {
                content: ResultContent::Blocks(bs),
                ..
            })) => bs
                .iter()
                .enumerate()
                .filter(|(_, b)| !matches!(b, Block::Text { .. }))
                .map(|(i, b)| (i, b.clone()))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        })
    });
    move || {
        let bs = blocks.get();
        (!bs.is_empty()).then(|| {
            let chips = bs
                .into_iter()
                .map(|(k, b)| {
                    let testid = format!("result-{m}-{p}-block-{k}");
                    let noun = media::of_block(&b).map_or("block", |md| md.label());
                    let remove = Callback::new(move |()| {
                        state.remove(
                            format!("the {noun} of the result in message {}", m + 1),
                            move |x| remove_block(x, m, p, k),
                        )
                    });
                    match (media::of_block(&b), b) {
                        (Some(md), _) => view! { <MediaChip media=md testid=testid remove=remove /> }
                            .into_any(),
                        (None, Block::Raw { format, value }) => view! {
                            <div class="raw-row">
                                <RawChip format=format value=value testid=testid.clone() />
                                <button type="button" class="icon danger" aria-label="Remove block" title="Remove"
                                    data-testid=format!("{testid}-remove") on:click=move |_| remove.run(())>"✕"</button>
                            </div>
                        }
                        .into_any(),
                        (None, _) => ().into_any(),
                    }
                })
                .collect_view();
            view! { <div class="media-list" role="group" aria-label="Images and other blocks of the result">{chips}</div> }
        })
    }
}
