//! The *MCP servers* section of the Live tab: connect to servers (the client and its state are
//! `mcp_client.rs`), show what each offers, bring its tools into the exchange, call a tool by
//! hand, and answer the live loop's calls.

use super::io;
use super::mcp_client::{call, connect, edit, use_mcp, Conn, McpState, Server};
use super::state::{use_state, AppState, Origin};
use crate::formats::json;
use crate::live::form;
use crate::live::mcp::call::{CallResult, Content, Structured};
use crate::live::mcp::tools::ServerTool;
use crate::model::{Message, Part, Role, ToolCall};
use leptos::prelude::*;
use serde_json::Value;

/// Bring a server's tools into the exchange: added, or put in place of the ones it brought
/// before (with Undo), each under a provider-safe name.
fn use_tools(state: AppState, mcp: McpState, url: &str) {
    let Some(tools) = mcp
        .servers
        .with_untracked(|s| s.iter().find(|s| s.url == url).map(|s| s.tools.clone()))
    else {
        return;
    };
    let before: Vec<String> = mcp.map.with_untracked(|m| {
        m.entries
            .iter()
            .filter(|e| e.server == url)
            .map(|e| e.name.clone())
            .collect()
    });
    let mut x = state.exchange.get_untracked();
    let replaced = x.tools.iter().filter(|t| before.contains(&t.name)).count();
    x.tools.retain(|t| !before.contains(&t.name));
    let taken: Vec<String> = x.tools.iter().map(|t| t.name.clone()).collect();
    let mut map = mcp.map.get_untracked();
    let added = map.add(url, &tools, &taken);
    let n = added.len();
    x.tools.extend(added);
    mcp.map.set(map);
    let undo = state.checkpoint("before bringing in an MCP server's tools");
    state.set_from(Origin::Outside, x);
    let name = mcp
        .servers
        .with_untracked(|s| {
            s.iter()
                .find(|s| s.url == url)
                .and_then(|s| s.info().map(|i| i.name.clone()))
        })
        .unwrap_or_else(|| url.to_string());
    state.tell(
        if replaced > 0 {
            format!("Replaced {replaced} tools of {name} with its {n} current tools; every pane shows them.")
        } else {
            format!("Added the {n} tools of {name} to the exchange; every pane shows them.")
        },
        undo,
    );
}

/// Append a hand-made call and its result to the conversation as a turn (with Undo).
fn add_to_conversation(state: AppState, mcp: McpState, url: &str, tool: &str) {
    let Some(Ok((args, result))) = mcp.servers.with_untracked(|s| {
        s.iter()
            .find(|s| s.url == url)
            .and_then(|s| s.calls.get(tool).cloned())
    }) else {
        return;
    };
    let name = mcp
        .map
        .with_untracked(|m| {
            m.entries
                .iter()
                .find(|e| e.server == url && e.tool == tool)
                .map(|e| e.name.clone())
        })
        .unwrap_or_else(|| tool.to_string());
    let mut x = state.exchange.get_untracked();
    let id = format!("call_mcp_{}", x.messages.len() + 1);
    let call = ToolCall::new(Some(id.clone()), name.clone(), args);
    let mut part = result.part.clone();
    part.call_id = Some(id);
    part.name = Some(name);
    x.messages
        .push(Message::new(Role::Assistant, vec![Part::ToolCall(call)]));
    x.messages
        .push(Message::new(Role::Tool, vec![Part::ToolResult(part)]));
    let undo = state.checkpoint("before adding an MCP call to the conversation");
    state.set_from(Origin::Outside, x);
    state.tell(
        format!("Added the call of {tool} and its result to the conversation."),
        undo,
    );
}

/// The section.
#[component]
pub fn McpServers() -> impl IntoView {
    let state = use_state();
    let mcp = use_mcp();
    let urls = Memo::new(move |_| {
        mcp.servers
            .with(|s| s.iter().map(|s| s.url.clone()).collect::<Vec<_>>())
    });
    let go = move || {
        let url = mcp.url.get_untracked().trim().to_string();
        if url.is_empty() {
            state.say_error("Type the server's URL first (for example http://127.0.0.1:8000/mcp).");
            return;
        }
        let token = mcp.token.get_untracked();
        if io::framed() {
            // Another site's frame could watch what is typed: no token is taken or sent here.
            mcp.token.set(String::new());
            state.say_error("This page is shown inside another site's frame: MCP servers are not connected here. Open Toolscope in its own tab.");
            return;
        }
        if !token.trim().is_empty() {
            mcp.tokens.update(|t| t.set(&url, &token));
            mcp.token.set(String::new());
        }
        connect(state, mcp, url);
    };
    view! {
        <section class="card mcp" aria-labelledby="mcp-title" data-testid="mcp">
            <div class="block-head">
                <h3 id="mcp-title">"MCP servers"</h3>
                <span class="muted small-text">"Connect over Streamable HTTP from this page; tokens stay in this tab's memory."</span>
            </div>
            <form class="row wrap" on:submit=move |ev| { ev.prevent_default(); go(); }>
                <label class="field grow">
                    <span>"Server URL"</span>
                    <input type="url" class="mono" data-testid="mcp-url" spellcheck="false"
                        placeholder="http://127.0.0.1:8000/mcp"
                        prop:value=move || mcp.url.get()
                        on:input=move |ev| mcp.url.set(event_target_value(&ev)) />
                </label>
                <label class="field">
                    <span>"Bearer token (optional)"</span>
                    <input type="password" class="mono" data-testid="mcp-token" autocomplete="off" spellcheck="false"
                        placeholder="sent only in Authorization"
                        prop:value=move || mcp.token.get()
                        on:input=move |ev| mcp.token.set(event_target_value(&ev)) />
                </label>
                <button type="submit" class="primary" data-testid="mcp-connect">"Connect"</button>
            </form>
            // Keyed by URL: another server connecting keeps this one's open tools and forms.
            <For each=move || urls.get() key=|u| u.clone() let:u>
                <ServerView url=u />
            </For>
        </section>
    }
}

/// One server: identity, protocol, tools, mappings, cost, history.
#[component]
fn ServerView(url: String) -> impl IntoView {
    let state = use_state();
    let mcp = use_mcp();
    let key = StoredValue::new(url.clone());
    let url = Memo::new(move |_| url.clone());
    let find = move |s: &Vec<Server>| -> Option<usize> {
        key.with_value(|k| s.iter().position(|s| &s.url == k))
    };
    let conn = Memo::new(move |_| {
        mcp.servers
            .with(|s| find(s).and_then(|i| s.get(i)).map(|s| s.conn.clone()))
    });
    let head = move || {
        mcp.servers.with(|s| {
            let s = find(s).and_then(|i| s.get(i))?;
            Some(match s.info() {
                Some(info) => format!(
                    "{} {}",
                    info.title.clone().unwrap_or_else(|| info.name.clone()),
                    info.version
                ),
                None => s.url.clone(),
            })
        })
    };
    let protocol = move || {
        mcp.servers.with(|s| {
            let s = find(s).and_then(|i| s.get(i))?;
            s.client
                .generation()
                .map(|g| format!("Protocol {}", g.label(s.client.protocol_version())))
        })
    };
    let instructions = move || {
        mcp.servers.with(|s| {
            find(s)
                .and_then(|i| s.get(i))
                .and_then(|s| s.info().and_then(|i| i.instructions.clone()))
        })
    };
    let tool_count = Memo::new(move |_| {
        mcp.servers
            .with(|s| find(s).and_then(|i| s.get(i)).map_or(0, |s| s.tools.len()))
    });
    let cost = move || {
        mcp.servers.with(|s| {
            let s = find(s).and_then(|i| s.get(i))?;
            if s.cost.is_empty() {
                return None;
            }
            let n = s.tools.len();
            Some(
                s.cost
                    .iter()
                    .map(|(m, t)| {
                        format!("This server's {n} tools cost {t} tokens per request on {m}.")
                    })
                    .collect::<Vec<_>>(),
            )
        })
    };
    let mappings = move || {
        let u = url.get();
        mcp.map.with(|m| {
            m.entries
                .iter()
                .filter(|e| e.server == u && e.renamed())
                .map(|e| format!("{} → {}", e.tool, e.name))
                .collect::<Vec<_>>()
        })
    };
    let export = move |_| {
        let text = mcp.servers.with_untracked(|s| {
            find(s).and_then(|i| s.get(i)).map(|s| {
                let h = s.client.history();
                let v = serde_json::json!({
                    "server": crate::live::record::redact_url(&s.url),
                    "dropped": h.dropped,
                    "messages": h.entries,
                });
                let text = serde_json::to_string_pretty(&v).unwrap_or_default();
                crate::redact::plain_text(&text).0
            })
        });
        if let Some(t) = text {
            io::download("toolscope-mcp-history.json", &t);
            state.say(
                "Exported the server's JSON-RPC history (tokens and credential headers redacted).",
            );
        }
    };
    let history = move || {
        mcp.servers.with(|s| {
            find(s)
                .and_then(|i| s.get(i))
                .map(|s| {
                    s.client
                        .history()
                        .entries
                        .iter()
                        .rev()
                        .take(50)
                        .map(|e| {
                            format!(
                                "{} {}",
                                if e.outgoing { "→" } else { "←" },
                                serde_json::to_string(&e.message).unwrap_or_default()
                            )
                        })
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
    };
    let history_len = move || {
        mcp.servers.with(|s| {
            find(s)
                .and_then(|i| s.get(i))
                .map_or(0, |s| s.client.history().entries.len())
        })
    };
    view! {
        <article class="mcp-server" data-testid="mcp-server" aria-label=move || format!("MCP server {}", url.get())>
            <div class="block-head">
                <h4 data-testid="mcp-server-name">{head}</h4>
                <Show when=move || mcp.servers.with(|s| find(s).and_then(|i| s.get(i)).is_some_and(|s| s.info().is_some()))>
                    <span class="muted small-text mono">{move || url.get()}</span>
                </Show>
            </div>
            <p class="small-text" data-testid="mcp-protocol">{move || match conn.get() {
                Some(Conn::Connecting) => "Connecting…".to_string(),
                Some(Conn::Ready) => protocol().unwrap_or_default(),
                _ => String::new(),
            }}</p>
            {move || match conn.get() {
                Some(Conn::Failed(m)) => Some(view! {
                    <div class="live-error" role="alert" data-testid="mcp-error"><p>{m}</p></div>
                }.into_any()),
                Some(Conn::NeedsAuth(meta)) => Some(view! {
                    <div class="warn-note" role="alert" data-testid="mcp-needs-auth">
                        <p>{"The server answered 401: it wants a token. Type one above and Connect again"}
                            {meta.is_some().then_some(", or sign in with OAuth")}"."</p>
                        {meta.map(|m| {
                            let u = url.get_untracked();
                            view! {
                                <button type="button" class="primary small" data-testid="mcp-oauth"
                                    on:click=move |_| super::mcp_oauth::start(state, mcp, u.clone(), Some(m.clone()))>"Sign in with OAuth"</button>
                            }
                        })}
                    </div>
                }.into_any()),
                _ => None,
            }}
            {move || instructions().map(|t| view! { <p class="muted" data-testid="mcp-instructions">{t}</p> })}
            <div class="row wrap live-actions">
                <button type="button" class="primary small" data-testid="mcp-use"
                    disabled=move || conn.get() != Some(Conn::Ready) || tool_count.get() == 0
                    on:click=move |_| use_tools(state, mcp, &url.get_untracked())>
                    {move || format!("Use these tools ({})", tool_count.get())}</button>
                <button type="button" class="ghost small" data-testid="mcp-reconnect"
                    on:click=move |_| connect(state, mcp, url.get_untracked())>"Connect again"</button>
                <button type="button" class="ghost small" data-testid="mcp-history-export" on:click=export>"Export history"</button>
                <button type="button" class="ghost small" data-testid="mcp-remove"
                    on:click=move |_| {
                        let u = url.get_untracked();
                        mcp.servers.update(|s| s.retain(|s| s.url != u));
                        mcp.map.update(|m| m.remove_server(&u));
                        mcp.tokens.update(|t| t.forget(&u));
                    }>"Remove"</button>
            </div>
            {move || cost().map(|lines| view! {
                <ul class="small-text mcp-cost" data-testid="mcp-cost">
                    {lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ul>
            })}
            {move || {
                let m = mappings();
                (!m.is_empty()).then(|| view! {
                    <div class="small-text" data-testid="mcp-mappings">
                        <p class="muted">"Renamed for the providers (a dot, a leading digit, more than 64 characters, or a name another tool has):"</p>
                        <ul>{m.into_iter().map(|l| view! { <li class="mono">{l}</li> }).collect_view()}</ul>
                    </div>
                })
            }}
            <div class="mcp-tools">
                <For each=move || mcp.servers.with(|s| find(s).and_then(|i| s.get(i)).map(|s| s.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>()).unwrap_or_default())
                    key=|n| n.clone() let:name>
                    <ToolView url=url.get_untracked() name=name />
                </For>
            </div>
            <details class="mcp-history">
                <summary>{move || format!("JSON-RPC history ({} messages, newest first)", history_len())}</summary>
                <ol class="small-code mono" data-testid="mcp-history">
                    {move || history().into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}
                </ol>
            </details>
        </article>
    }
}

/// The four annotation hints, as badges.
fn hints(t: &ServerTool) -> Vec<&'static str> {
    let mut out = Vec::new();
    if t.read_only() {
        out.push("read-only");
    } else if t.destructive() {
        out.push("destructive");
    } else {
        out.push("not read-only");
    }
    if t.idempotent() {
        out.push("idempotent");
    }
    if t.open_world() {
        out.push("open world");
    }
    out
}

/// One tool: what it is, its form, the last call's result.
#[component]
fn ToolView(url: String, name: String) -> impl IntoView {
    let state = use_state();
    let mcp = use_mcp();
    let Some(t) = mcp.servers.with_untracked(|s| {
        s.iter()
            .find(|s| s.url == url)?
            .tools
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }) else {
        return ().into_any();
    };
    let fields = form::fields(&t.input_schema);
    let n = fields.as_ref().map_or(1, Vec::len);
    let texts = RwSignal::new(
        fields
            .as_ref()
            .map(|f| f.iter().map(|f| f.default.clone()).collect::<Vec<_>>())
            .unwrap_or_else(|| vec!["{}".to_string()]),
    );
    let problems = RwSignal::new(Vec::<String>::new());
    let schema = t.input_schema.clone();
    let server_url = url.clone();
    let fields_for_read = fields.clone();
    // The call by hand: its result is kept with the server; `pending` while it runs.
    let call_tool = {
        let url = url.clone();
        let name = name.clone();
        Action::new_unsync(move |args: &Value| {
            let (url, name, args) = (url.clone(), name.clone(), args.clone());
            async move {
                let (r, _) = call(mcp, &url, &name, &args, None).await;
                edit(mcp, &url, |s| {
                    s.calls.insert(name.clone(), r.map(|r| (args, r)));
                });
            }
        })
    };
    let busy = call_tool.pending();
    let run = move || {
        let args = match &fields_for_read {
            Some(f) => texts.with_untracked(|x| form::read(f, x)),
            None => texts.with_untracked(|x| {
                serde_json::from_str::<Value>(x.first().map_or("{}", String::as_str))
                    .map_err(|e| format!("not JSON: {e}"))
            }),
        };
        let args = match args {
            Ok(a) => a,
            Err(e) => {
                problems.set(vec![e]);
                return;
            }
        };
        let errors = form::check(&schema, &args);
        if !errors.is_empty() {
            problems.set(errors);
            return;
        }
        problems.set(Vec::new());
        call_tool.dispatch(args);
    };
    let result = {
        let name = t.name.clone();
        let url = server_url.clone();
        Memo::new(move |_| {
            mcp.servers.with(|s| {
                s.iter()
                    .find(|s| s.url == url)
                    .and_then(|s| s.calls.get(&name).cloned())
            })
        })
    };
    let tool_name = t.name.clone();
    let icons: Vec<String> = t
        .icons
        .iter()
        .filter_map(|i| i.get("src").and_then(Value::as_str))
        .filter(|s| s.starts_with("data:image/"))
        .map(str::to_string)
        .collect();
    view! {
        <details class="mcp-tool" data-testid=format!("mcp-tool-{}", t.name)>
            <summary>
                {icons.into_iter().map(|src| view! { <img class="mcp-icon" src=src alt="" width="16" height="16" /> }).collect_view()}
                <strong>{t.display_name().to_string()}</strong>
                " "<span class="mono muted">{t.name.clone()}</span>
                {hints(&t).into_iter().map(|h| view! { <span class=format!("badge hint-{}", h.replace(' ', "-"))>{h}</span> }).collect_view()}
            </summary>
            {t.description.clone().map(|d| view! { <p>{d}</p> })}
            <details>
                <summary>"Input schema"</summary>
                <pre class="small-code mono">{json::pretty(&t.input_schema)}</pre>
            </details>
            {t.output_schema.clone().map(|s| view! {
                <details>
                    <summary>"Output schema"</summary>
                    <pre class="small-code mono">{json::pretty(&s)}</pre>
                </details>
            })}
            {t.annotations.clone().map(|a| view! {
                <details>
                    <summary>"Annotations"</summary>
                    <pre class="small-code mono">{json::pretty(&a)}</pre>
                </details>
            })}
            <form class="mcp-call" on:submit=move |ev| { ev.prevent_default(); run(); }>
                {match fields {
                    Some(fields) => fields.into_iter().enumerate().map(|(k, f)| {
                        let label = format!("{}{}", f.name, if f.required { " (required)" } else { "" });
                        let value = move || texts.with(|x| x.get(k).cloned().unwrap_or_default());
                        let set = move |v: String| texts.update(|x| { if x.len() < n { x.resize(n, String::new()); } x[k] = v; });
                        let input = match f.kind.clone() {
                            form::Kind::Choice(options) => view! {
                                <select aria-label=label.clone() on:change=move |ev| set(event_target_value(&ev))>
                                    <option value="">"—"</option>
                                    {options.into_iter().map(|o| {
                                        let shown = o.clone();
                                        let o2 = o.clone();
                                        view! { <option value=o selected=move || value() == o2>{shown}</option> }
                                    }).collect_view()}
                                </select>
                            }.into_any(),
                            form::Kind::Boolean => view! {
                                <select aria-label=label.clone() on:change=move |ev| set(event_target_value(&ev))>
                                    <option value="">"—"</option>
                                    <option value="true" selected=move || value() == "true">"true"</option>
                                    <option value="false" selected=move || value() == "false">"false"</option>
                                </select>
                            }.into_any(),
                            form::Kind::Json => view! {
                                <textarea class="mono" rows="2" aria-label=label.clone() spellcheck="false"
                                    prop:value=value on:input=move |ev| set(event_target_value(&ev))></textarea>
                            }.into_any(),
                            kind => view! {
                                <input type=if matches!(kind, form::Kind::Text) { "text" } else { "number" }
                                    class="mono" aria-label=label.clone() spellcheck="false"
                                    prop:value=value on:input=move |ev| set(event_target_value(&ev)) />
                            }.into_any(),
                        };
                        view! {
                            <label class="field">
                                <span>{label.clone()}</span>
                                {input}
                                {(!f.help.is_empty()).then(|| view! { <span class="muted small-text">{f.help.clone()}</span> })}
                            </label>
                        }
                    }).collect_view().into_any(),
                    None => view! {
                        <label class="field">
                            <span>"Arguments (JSON)"</span>
                            <textarea class="mono" rows="3" spellcheck="false"
                                prop:value=move || texts.with(|x| x.first().cloned().unwrap_or_default())
                                on:input=move |ev| texts.set(vec![event_target_value(&ev)])></textarea>
                        </label>
                    }.into_any(),
                }}
                <ul class="arg-errors" data-testid="mcp-arg-errors" hidden=move || problems.with(Vec::is_empty)>
                    {move || problems.get().into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}
                </ul>
                <button type="submit" class="ghost small" data-testid="mcp-call" disabled=move || busy.get()>
                    {move || if busy.get() { "Calling…" } else { "Call" }}</button>
            </form>
            {move || result.get().map(|r| match r {
                Err(e) => view! { <div class="live-error" role="alert" data-testid="mcp-call-error"><p>{e}</p></div> }.into_any(),
                Ok((_, r)) => {
                    let u = server_url.clone();
                    let name = tool_name.clone();
                    view! {
                        <div class="mcp-result" data-testid="mcp-result">
                            <ResultView r=r />
                            <button type="button" class="ghost small" data-testid="mcp-add-turn"
                                on:click=move |_| add_to_conversation(state, mcp, &u, &name)>"Add to the conversation"</button>
                        </div>
                    }.into_any()
                }
            })}
        </details>
    }
    .into_any()
}

/// A `tools/call` result: its blocks, its structured content and check, `isError`.
#[component]
pub fn ResultView(r: CallResult) -> impl IntoView {
    let blocks = r
        .content
        .into_iter()
        .map(|c| match c {
            Content::Text { text } => view! { <pre class="small-code mono" data-block="text">{text}</pre> }.into_any(),
            Content::Image { mime_type, data } => view! {
                <img class="mcp-image" data-block="image" alt=format!("image ({mime_type}) returned by the tool")
                    src=format!("data:{mime_type};base64,{data}") />
            }
            .into_any(),
            Content::Audio { mime_type, data } => view! {
                <p class="small-text" data-block="audio">{format!("Audio ({mime_type}), {} bytes", data.len() / 4 * 3)}</p>
            }
            .into_any(),
            Content::ResourceLink { uri, name, mime_type } => view! {
                <p class="small-text" data-block="resource_link">{format!("Resource link: {name} ")}<span class="mono">{uri}</span>{mime_type.map(|m| format!(" ({m})"))}</p>
            }
            .into_any(),
            Content::Resource { uri, mime_type, text, blob } => view! {
                <div class="small-text" data-block="resource">
                    <p>{"Embedded resource "}<span class="mono">{uri}</span>{mime_type.map(|m| format!(" ({m})"))}</p>
                    {text.map(|t| view! { <pre class="small-code mono">{t}</pre> })}
                    {blob.map(|b| view! { <p class="muted">{format!("{} bytes of binary data", b.len() / 4 * 3)}</p> })}
                </div>
            }
            .into_any(),
            Content::Other { value } => view! { <pre class="small-code mono" data-block="other">{json::pretty(&value)}</pre> }.into_any(),
        })
        .collect_view();
    let check = match &r.structured {
        Structured::Absent => None,
        Structured::Unchecked => Some((
            "muted",
            "Structured content (the tool declares no output schema).".to_string(),
        )),
        Structured::Valid => Some((
            "ok-note",
            "Structured content matches the output schema.".to_string(),
        )),
        Structured::Invalid { errors } => Some((
            "warn-note",
            format!(
                "Structured content does not match the output schema: {}",
                errors
                    .iter()
                    .map(|e| format!("{} {}", e.instance_path, e.message))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        )),
        Structured::BadSchema { message } => Some((
            "warn-note",
            format!("The output schema does not compile: {message}"),
        )),
        Structured::Missing => Some((
            "warn-note",
            "The tool declares an output schema but sent no structured content.".to_string(),
        )),
    };
    view! {
        {r.is_error.then(|| view! { <p class="warn-note" data-testid="mcp-is-error">"isError: the tool ran and failed"</p> })}
        {blocks}
        {check.map(|(class, text)| view! { <p class=format!("small-text {class}") data-testid="mcp-structured">{text}</p> })}
        {r.structured_content.map(|v| view! { <pre class="small-code mono">{json::pretty(&v)}</pre> })}
    }
}
