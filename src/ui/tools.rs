//! The tool editor: name, description, parameters (JSON Schema, edited as JSON), strict flag;
//! add, remove, reorder.

use super::cm::CodeEditor;
use super::shared::Mover;
use super::state::use_state;
use super::virtual_list::VirtualList;
use crate::anchors::Element;
use crate::edit;
use crate::formats::json;
use leptos::prelude::*;

/// A tool card's height before it is measured, in pixels.
const TOOL_HEIGHT: f64 = 420.0;
/// Up to this many tools every card is drawn; beyond, only those near the viewport (each card
/// holds a code editor: a thousand of them froze the page for seconds).
const WHOLE: usize = 12;

/// Every tool of the exchange, one card each.
#[component]
pub fn ToolsEditor() -> impl IntoView {
    let state = use_state();
    let count = Memo::new(move |_| state.exchange.with(|x| x.tools.len()));
    view! {
        <section class="block" aria-labelledby="tools-title" data-testid="tools-editor">
            <div class="block-head">
                <h3 id="tools-title">{move || format!("Tools ({})", count.get())}</h3>
                <button type="button" class="ghost small" data-testid="add-tool"
                    on:click=move |_| {
                        let mut i = 0;
                        state.edit(|x| i = edit::add_tool(x));
                        super::keys::focus_soon(
                            format!("[data-testid=\"tool-{i}-name\"]"),
                            Some(".tool-list"),
                        );
                    }>
                    "+ Tool"
                </button>
            </div>
            <VirtualList
                count=count
                row=|i| view! { <ToolCard i=i /> }
                estimate=TOOL_HEIGHT
                whole=WHOLE
                class="tool-list"
            />
        </section>
    }
}

#[component]
fn ToolCard(i: usize) -> impl IntoView {
    let state = use_state();
    // This card's tool, re-read only when its revision moves: a keystroke elsewhere clones,
    // compares and re-renders nothing here.
    let revision = Memo::new(move |_| state.tool_revision(i));
    let tool = Memo::new(move |_| {
        // Read, not only tracked: a memo computes (and subscribes) when read.
        let _ = revision.get();
        state.exchange.with_untracked(|x| x.tools.get(i).cloned())
    });
    let read = move |f: fn(&crate::model::Tool) -> String| {
        move || tool.with(|t| t.as_ref().map(f).unwrap_or_default())
    };
    let name = read(|t| t.name.clone());
    let description = read(|t| t.description.clone().unwrap_or_default());
    let strict = move || tool.with(|t| t.as_ref().and_then(|t| t.strict) == Some(true));

    // The schema as typed: kept while it is not JSON, with the error at its spot.
    let draft: RwSignal<Option<String>> = RwSignal::new(None);
    let error: RwSignal<Option<(usize, usize, String)>> = RwSignal::new(None);
    let rendered = Memo::new(move |_| {
        tool.with(|t| {
            t.as_ref()
                .map(|t| json::pretty(&t.input_schema))
                .unwrap_or_default()
        })
    });
    // Set while this editor's own edit is on its way, so its text is not reformatted.
    let mine = StoredValue::new(false);
    let shown = Signal::derive(move || draft.get().unwrap_or_else(|| rendered.get()));
    let on_schema =
        Callback::new(
            move |t: String| match json::parse::<serde_json::Value>("schema", &t) {
                Ok(v) => {
                    error.set(None);
                    draft.set(Some(t));
                    mine.set_value(true);
                    state.edit_tool(i, |tool| tool.input_schema = v);
                }
                Err(e) => {
                    let at = match (e.line, e.column) {
                        (Some(l), Some(c)) => super::cm::offset_of(&t, l, c),
                        _ => 0,
                    };
                    error.set(Some((at, at + 1, e.to_string())));
                    draft.set(Some(t));
                }
            },
        );
    // Another edit (a lint fix, an example) replaces a valid draft.
    Effect::new(move |_| {
        rendered.track();
        if mine.get_value() {
            mine.set_value(false);
        } else if error.with_untracked(Option::is_none) && draft.with_untracked(Option::is_some) {
            draft.set(None);
        }
    });
    let el = Some(Element::Tool(i));
    view! {
        <li
            class="card tool"
            class:linked=move || state.focus() == el
            data-testid=format!("tool-{i}")
            on:mouseenter=move |_| state.hovered.set(el)
            on:mouseleave=move |_| state.hovered.set(None)
        >
            <div class="row">
                <label class="field grow">
                    <span>"Name"</span>
                    <input
                        type="text"
                        data-testid=format!("tool-{i}-name")
                        form=format!("tool-{i}-form")
                        prop:value=name
                        on:input=super::on_text(move |v| state.edit(|x| edit::rename_tool(x, i, &v)))
                    />
                </label>
                <label class="check" title=format!("{} strict mode: arguments always match the schema", super::shared::strict_owner())>
                    <input
                        type="checkbox"
                        data-testid=format!("tool-{i}-strict")
                        form=format!("tool-{i}-form")
                        prop:checked=strict
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            state.edit_tool(i, |t| t.strict = on.then_some(true));
                        }
                    />
                    "strict"
                </label>
                <Mover
                    label="tool"
                    id=format!("tool-{i}")
                    up=move || state.edit(|x| edit::shift(&mut x.tools, i, true))
                    down=move || state.edit(|x| edit::shift(&mut x.tools, i, false))
                    remove=move || state.remove(state.exchange.with_untracked(|x| x.tools.get(i).map_or_else(|| format!("tool {}", i + 1), |t| format!("tool {}", t.name))), |x| edit::remove_tool(x, i))
                />
            </div>
            <label class="field">
                <span>"Description"</span>
                <textarea
                    rows="2"
                    data-testid=format!("tool-{i}-description")
                    form=format!("tool-{i}-form")
                    prop:value=description
                    on:input=super::on_text(move |v| state.edit_tool(i, |t| t.description = (!v.is_empty()).then_some(v)))
                ></textarea>
            </label>
            <div class="field">
                <span>"Parameters (JSON Schema)"</span>
                <CodeEditor
                    text=shown
                    lang="json"
                    label=format!("Parameters of tool {}", i + 1)
                    testid=format!("tool-{i}-schema")
                    on_change=on_schema
                    error=Signal::derive(move || error.get())
                />
                <Show when=move || error.with(Option::is_some)>
                    <p class="field-error" role="alert">{move || error.get().map(|e| e.2)}</p>
                </Show>
            </div>
            {super::card_form(format!("tool-{i}-form"))}
        </li>
    }
}
