//! The Cost view's figures as HTML, written here so that the main wasm carries no view code for
//! them: it sets the markup and listens to clicks and pointer moves on `data-*` attributes
//! (`data-pick`: a model to show in detail, `data-count-exact`: a model to count with its
//! provider, `data-tool-index`: a tool to highlight everywhere).
//!
//! Every text from the exchange (model ids, tool names, methods) is escaped.

use serde_json::Value;
use std::fmt::Write;
use toolscope::cost::view::View;

/// Text for HTML content and double-quoted attribute values.
pub fn esc(s: &str) -> String {
    toolscope::formats::anthropic_xml::wire::escape(s)
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The families a provider counts for ("Count exactly"), by family id.
fn counts(family: &str) -> Option<&'static str> {
    match family {
        "openai" => Some("OpenAI"),
        "anthropic" => Some("Anthropic"),
        "gemini" => Some("Gemini"),
        _ => None,
    }
}

/// The rows, the tools' bars, the rounds chart and the caching note. `exact` holds the
/// providers' answers by model id: `{"count": n}`, `{"error": "…"}` or `{"asking": true}`.
pub fn cost(v: &View, exact: &Value) -> String {
    let mut h = String::new();
    let chosen = &v.detail.model;
    h.push_str(
        "<div class=\"cost-table-wrap\"><table class=\"cost-table\"><thead><tr>\
         <th scope=\"col\">Model</th><th scope=\"col\" class=\"num\">Total</th>\
         <th scope=\"col\" class=\"num\">Tools</th><th scope=\"col\" class=\"num\">Messages</th>\
         <th scope=\"col\">Count</th><th scope=\"col\">Provider's count</th></tr></thead><tbody>",
    );
    for r in &v.rows {
        let m = esc(&r.model);
        let (badge, label) = match (r.exact, r.margin) {
            (true, _) => ("badge clean", "exact".to_string()),
            (false, Some(n)) => ("badge lossy", format!("estimate ±{n}")),
            (false, None) => ("badge lossy", "estimate".to_string()),
        };
        let _ = write!(
            h,
            "<tr data-testid=\"cost-row\" data-model=\"{m}\" data-tools=\"{}\" data-messages=\"{}\" \
             data-total=\"{}\" data-exact=\"{}\"{}><th scope=\"row\"><button type=\"button\" \
             class=\"link mono\" data-pick=\"{m}\" title=\"Show this model in detail\">{m}</button> \
             <span class=\"muted small-text family\">{}</span></th><td class=\"num strong\" data-label=\"Total\">{}</td>\
             <td class=\"num\" data-label=\"Tools\">{}</td><td class=\"num\" data-label=\"Messages\">{}</td>\
             <td class=\"count\"><span class=\"{badge}\" title=\"{}\">{label}</span></td><td class=\"provider-count\">{}</td></tr>",
            r.tools,
            r.messages,
            r.total,
            r.exact,
            if &r.model == chosen {
                " class=\"chosen\""
            } else {
                ""
            },
            r.family,
            r.total,
            r.tools,
            r.messages,
            esc(&r.method),
            exact_cell(&r.model, r.family, r.total, &exact[&r.model]),
        );
    }
    h.push_str("</tbody></table></div>");
    tools(&mut h, v);
    rounds(&mut h, v);
    h
}

fn exact_cell(model: &str, family: &str, offline: u64, answer: &Value) -> String {
    let Some(provider) = counts(family) else {
        return "<span class=\"muted small-text\" title=\"This provider has no token-counting \
                endpoint\">—</span>"
            .into();
    };
    // A Bedrock id (`us.anthropic.claude-…`) names no model of the provider's own counting
    // endpoint, and Bedrock's CountTokens needs AWS request signing, which the page does not do.
    if toolscope::model::ModelFamily::of_name(model) == Some(toolscope::model::ModelFamily::Bedrock)
    {
        return "<span class=\"muted small-text\" title=\"Bedrock's CountTokens needs AWS \
                request signing, which this page does not do; the figure is counted offline\">—</span>"
            .into();
    }
    let m = esc(model);
    let button = |label: &str, testid: &str| {
        format!(
            "<button type=\"button\" class=\"ghost small\" data-testid=\"{testid}\" \
             data-count-exact=\"{m}\" data-family=\"{family}\" title=\"Ask {provider} for its \
             count (the Live tab's settings and key)\">{label}</button>"
        )
    };
    if let Some(n) = answer["count"].as_u64() {
        let d = n as i64 - offline as i64;
        format!(
            "<span class=\"cost-exact\"><span data-testid=\"count-exact-result\" data-count=\"{n}\" \
             class=\"num strong\">{n}</span><span class=\"diff\" title=\"{provider}'s count minus \
             the offline figure\">{d:+}</span></span>"
        )
    } else if let Some(e) = answer["error"].as_str() {
        format!(
            "<span class=\"cost-exact\"><span class=\"error small-text\" \
             data-testid=\"count-exact-error\" title=\"{}\">failed</span>{}</span>",
            esc(e),
            button("Retry", "count-exact-retry")
        )
    } else if answer["asking"].as_bool() == Some(true) {
        "<span class=\"muted small-text\">asking…</span>".into()
    } else {
        button("Count exactly", "count-exact")
    }
}

fn tools(h: &mut String, v: &View) {
    let d = &v.detail;
    let _ = write!(
        h,
        "<div class=\"cost-block\"><h3>Per tool — {}</h3>",
        esc(&d.model)
    );
    if d.tools.is_empty() {
        h.push_str("<p class=\"muted\">This request has no tools.</p></div>");
        return;
    }
    // One scale for the tools and the fixed part.
    let fixed = d.fixed.max(0) as u64;
    let max = d
        .tools
        .iter()
        .map(|t| t.tokens)
        .max()
        .unwrap_or(1)
        .max(fixed)
        .max(1);
    h.push_str("<ol class=\"cost-tools\" data-testid=\"cost-tools\">");
    for t in &d.tools {
        let pct = (t.tokens as f64 * 100.0 / max as f64).max(1.0);
        let name = esc(&t.name);
        let _ = write!(
            h,
            "<li data-testid=\"cost-tool\" data-tool=\"{name}\" data-tool-index=\"{}\" \
             data-tokens=\"{}\"><span class=\"mono name\" title=\"{name}\">{name}</span>\
             <span class=\"bar\" aria-hidden=\"true\"><span style=\"width:{pct:.1}%\"></span></span>\
             <span class=\"num\">{}</span></li>",
            t.index, t.tokens, t.tokens
        );
    }
    // The rest of the Tools figure, as a visible row (a tooltip would be lost on a phone).
    let _ = write!(
        h,
        "<li class=\"fixed\" data-testid=\"cost-fixed\" data-tokens=\"{}\"><span class=\"name\">\
         Fixed part</span><span class=\"bar\" aria-hidden=\"true\"><span style=\"width:{:.1}%\">\
         </span></span><span class=\"num\">{}</span></li></ol>\
         <p class=\"cost-tools-sum\" data-testid=\"cost-tools-sum\">Tools column: <span class=\"num strong\">{}</span> \
         = the tools above + the fixed part ({}): {}.</p>",
        d.fixed,
        (fixed as f64 * 100.0 / max as f64).max(1.0),
        d.fixed,
        d.tools_total,
        d.fixed,
        esc(&d.fixed_what),
    );
    h.push_str("<p class=\"muted\">Tokens of each tool's text as the model reads it; hover one to find it in the editors, the panes and the text below.</p></div>");
}

fn rounds(h: &mut String, v: &View) {
    let rs = &v.detail.rounds;
    h.push_str("<div class=\"cost-block\"><h3>Per round of the tool loop</h3>");
    if let Some(last) = rs.last() {
        let (w, ht, pad) = (600.0, 160.0, 12.0);
        let top = rs.iter().map(|r| r.prompt).max().unwrap_or(1).max(1) as f64;
        let total = last.running_total.max(1) as f64;
        let slot = (w - 2.0 * pad) / rs.len() as f64;
        let bw = (slot * 0.6).min(48.0);
        let y = |v: f64, of: f64| ht - pad - (ht - 2.0 * pad) * v / of;
        let _ = write!(
            h,
            "<div class=\"cost-chart-labels muted\"><span>prompt per round (max {})</span>\
             <span>running total {}</span></div>",
            top, last.running_total
        );
        let _ = write!(
            h,
            "<svg class=\"cost-chart\" viewBox=\"0 0 {w} {ht}\" role=\"img\" data-testid=\"cost-chart\" \
             aria-label=\"Prompt tokens over {} rounds; running total {}\">\
             <line class=\"axis\" x1=\"{pad}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\"/>",
            rs.len(),
            last.running_total,
            b = ht - pad,
            r = w - pad,
        );
        let mut line = Vec::with_capacity(rs.len());
        for (k, r) in rs.iter().enumerate() {
            let x = pad + slot * k as f64 + (slot - bw) / 2.0;
            let bar = |class: &str, v: f64| {
                let top_y = y(v, top);
                format!(
                    "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{top_y:.1}\" width=\"{bw:.1}\" height=\"{:.1}\"/>",
                    (ht - pad - top_y).max(0.0)
                )
            };
            let _ = write!(
                h,
                "<g data-testid=\"cost-round\" data-prompt=\"{}\" data-tools=\"{}\" data-cached=\"{}\">\
                 <title>round {}: prompt {} tokens, tools {}, cached {}, running total {}</title>{}{}{}</g>",
                r.prompt,
                r.tools,
                r.cached,
                r.round,
                r.prompt,
                r.tools,
                r.cached,
                r.running_total,
                bar("msg", r.prompt as f64),
                bar("tools", r.tools as f64),
                if r.cached > 0 {
                    bar("cached", r.cached as f64)
                } else {
                    String::new()
                },
            );
            line.push(format!(
                "{:.1},{:.1}",
                pad + slot * k as f64 + slot / 2.0,
                y(r.running_total as f64, total)
            ));
        }
        let _ = write!(
            h,
            "<polyline class=\"running\" points=\"{}\"/></svg>",
            line.join(" ")
        );
    }
    h.push_str(
        "<p class=\"legend muted\"><span class=\"key tools\"></span>tool definitions \
         <span class=\"key msg\"></span>messages <span class=\"key cached\"></span>served from the \
         prompt cache <span class=\"key running\"></span>running total</p>",
    );
    let _ = match &v.detail.caching {
        Some(c) if c.cached == 0 => write!(
            h,
            "<p class=\"muted\" data-testid=\"cost-caching\">{} — nothing cached here: no round \
             repeats a prefix that long.</p>",
            esc(&c.rule)
        ),
        Some(c) => write!(
            h,
            "<p class=\"muted\" data-testid=\"cost-caching\">{} — cached over every round: {} tokens; \
             saves about {} tokens at full price.</p>",
            esc(&c.rule),
            c.cached,
            c.saved
        ),
        None => write!(
            h,
            "<p class=\"muted\" data-testid=\"cost-caching\">No prompt caching modelled for this model.</p>"
        ),
    };
    h.push_str("</div>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_escaped_and_answers_shown() {
        let mut x = toolscope::model::Exchange::default();
        x.tools.push(toolscope::model::Tool {
            name: "<img src=x onerror=alert(1)>".into(),
            description: Some("d".into()),
            input_schema: json!({"type": "object"}),
            strict: None,
            output_schema: None,
            annotations: None,
            hosted: None,
            custom: None,
            extra: Default::default(),
        });
        let v = toolscope::cost::view::view(
            &x,
            &["gpt-4o".into(), "mistral-large-latest".into()],
            "gpt-4o",
            &Default::default(),
        );
        let h = cost(&v, &json!({ "gpt-4o": { "count": 3 } }));
        assert!(!h.contains("<img"));
        assert!(h.contains("&lt;img src=x onerror=alert(1)&gt;"));
        assert!(h.contains("data-count=\"3\""));
        assert!(h.contains("This provider has no token-counting endpoint"));
    }

    #[test]
    fn a_bedrock_id_is_not_sent_to_anthropic_to_count() {
        let bedrock = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
        let cell = exact_cell(bedrock, "anthropic", 10, &Value::Null);
        assert!(!cell.contains("data-count-exact"), "{cell}");
        assert!(cell.contains("AWS request signing"));
        let claude = exact_cell("claude-sonnet-4-5", "anthropic", 10, &Value::Null);
        assert!(
            claude.contains("data-count-exact=\"claude-sonnet-4-5\""),
            "{claude}"
        );
    }
}
