//! Schema checks: tool-call arguments validated against their tools' JSON Schemas, and per-target
//! lints of the tool definitions themselves, each with a reason and, where one exists, an
//! automatic fix expressed as data.
//!
//! Everything works on the canonical [`Exchange`] (tool schemas are JSON Schema there); pointers
//! are JSON pointers into the serialised exchange, like the pointers of a `Loss`.
//!
//! - [`validate_arguments`]: every call against its tool's `input_schema` (our own validator,
//!   [`validate`], the draft taken from `$schema`, 2020-12 by default), invalid argument JSON,
//!   unknown tool names, results answering no earlier call, schemas that are themselves invalid.
//! - [`lint`]: the rules of one target ([`Target`], named by format id): every family's
//!   tool-name rule ([`names`]), then the target's [`Dialect`] — an object root, a strict mode
//!   tools opt into, further checks of a tool. The dialects' rules live with their formats
//!   (`formats::<format>`), which build the targets; a narrower schema form some endpoints take
//!   is asked for apart, with [`fit_with`] applying its fixes.
//! - [`fix_all`]: apply every fix of a target's findings; the result lints clean of fixable
//!   findings, and fixing again changes nothing.
//! - [`fix_for_targets`]: one exchange that passes the checks of several targets at once (the
//!   fixes of every target applied until none is left), or a plain statement of which targets
//!   conflict and on what; [`side_effects`] says what one target's fix would bring up for the
//!   others before it is applied.
//!
//! Nothing here panics on hostile input: walkers stop at [`MAX_DEPTH`] and report it, `$ref`
//! inlining carries a recursion guard, and compile errors of a schema are findings.

pub mod args;
pub mod names;
pub mod validate;
pub mod walk;

pub use args::validate_arguments;

use crate::model::{Exchange, Tool};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::fmt;

/// How deep the lints and fixes walk a schema; deeper parts are reported, not walked (no
/// strict dialect accepts anything near this: strict structured outputs stop at 10 levels).
pub const MAX_DEPTH: usize = 64;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The provider rejects the request, or the call does not match its tool.
    Error,
    /// Accepted, but not as written (a keyword ignored, a fallback used).
    Warning,
    /// Worth knowing; nothing breaks.
    Info,
}

impl Severity {
    /// `error`, `warning`, `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// An automatic fix: a transformation of one tool (by index in `Exchange::tools`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fix {
    /// Replace the tool's `input_schema`.
    Schema {
        /// Tool index.
        tool: usize,
        /// The fixed schema.
        schema: Value,
    },
    /// Replace the schema and set `strict: true` (the opt-in "make strict" fix).
    MakeStrict {
        /// Tool index.
        tool: usize,
        /// The strict schema.
        schema: Value,
    },
    /// Rename the tool, and every call, result and `tool_choice` entry naming it.
    Rename {
        /// Tool index.
        tool: usize,
        /// The new name.
        to: String,
    },
    /// Set the tool's description.
    Description {
        /// Tool index.
        tool: usize,
        /// The new description.
        text: String,
    },
}

impl Fix {
    /// The tool this fix changes.
    pub fn tool(&self) -> usize {
        match self {
            Fix::Schema { tool, .. }
            | Fix::MakeStrict { tool, .. }
            | Fix::Rename { tool, .. }
            | Fix::Description { tool, .. } => *tool,
        }
    }
}

/// One problem found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// JSON pointer into the serialised exchange (`/tools/0/input_schema/properties/a`,
    /// `/messages/3/parts/1/arguments/city`).
    pub pointer: String,
    /// How bad it is.
    pub severity: Severity,
    /// Rule id (`openai.strict.required`, `args.schema`, …).
    pub rule: &'static str,
    /// What is wrong, for a person.
    pub message: String,
    /// For argument errors: where in the arguments (`/city`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_path: Option<String>,
    /// For argument errors: the failing keyword's path in the schema (`/properties/city/type`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_path: Option<String>,
    /// The automatic fix, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

/// Read back only from the page's first-view data (`prerender::FirstView`, once per page). The
/// rule id is a `&'static str` (the checks' own constants), so one read back is kept for the
/// page's life: a handful of short strings, once.
impl<'de> Deserialize<'de> for Finding {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Data {
            pointer: String,
            severity: Severity,
            rule: String,
            message: String,
            #[serde(default)]
            instance_path: Option<String>,
            #[serde(default)]
            schema_path: Option<String>,
            #[serde(default)]
            fix: Option<Fix>,
        }
        let f = Data::deserialize(d)?;
        Ok(Finding {
            pointer: f.pointer,
            severity: f.severity,
            rule: Box::leak(f.rule.into_boxed_str()),
            message: f.message,
            instance_path: f.instance_path,
            schema_path: f.schema_path,
            fix: f.fix,
        })
    }
}

impl Finding {
    /// A finding without paths or fix.
    pub fn new(
        pointer: impl Into<String>,
        severity: Severity,
        rule: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Finding {
            pointer: pointer.into(),
            severity,
            rule,
            message: message.into(),
            instance_path: None,
            schema_path: None,
            fix: None,
        }
    }

    /// With this fix.
    pub fn with_fix(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix;
        self
    }
}

impl fmt::Display for Finding {
    /// `error /tools/0/input_schema: root must be an object [openai.strict.root-object]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {} [{}]",
            self.severity.as_str(),
            self.pointer,
            self.message,
            self.rule
        )
    }
}

/// True when some finding is an error.
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity == Severity::Error)
}

/// Which rule families a target runs: a provider's rules, from the provider table.
pub use crate::providers::Rules as Family;

/// The lints of one tool's schema: its index, the pointer of the schema.
pub type SchemaLints = fn(&Value, usize, &str) -> Vec<Finding>;

/// A strict mode that tools opt into (`strict: true`): its rules, and the opt-in offer to make
/// a tool strict.
#[derive(Debug, Clone, Copy)]
pub struct Strict {
    /// The strict rules of one schema.
    pub lint: SchemaLints,
    /// The "make strict" offer for a schema not marked strict.
    pub offer: SchemaLints,
}

/// The schema rules of a target beyond tool names: what its format's tool definitions must be.
/// Each format folder declares its own; [`Dialect::PLAIN`] has none.
#[derive(Debug, Clone, Copy)]
pub struct Dialect {
    /// The rule id of "the input schema is an object at the root" (`anthropic.root-object`),
    /// when the format asks it of every tool.
    pub root_object: Option<&'static str>,
    /// A strict mode tools opt into.
    pub strict: Option<Strict>,
    /// Further checks of one tool (by index) beyond its schema.
    pub tool: Option<fn(&Tool, usize) -> Vec<Finding>>,
}

impl Dialect {
    /// No rules beyond the names.
    pub const PLAIN: Dialect = Dialect {
        root_object: None,
        strict: None,
        tool: None,
    };

    /// The object root asked of every tool, under this rule id.
    pub const fn object_root(rule: &'static str) -> Dialect {
        Dialect {
            root_object: Some(rule),
            ..Dialect::PLAIN
        }
    }
}

/// A lint target: the rules one wire format's documents are checked against, named by the
/// format's id (`Format::lint_target` builds it; `Target::from_id` and `Target::all` read the
/// format registry).
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The format id (`openai-chat`).
    pub id: &'static str,
    /// The rule family: dialects lint as the protocol they speak.
    pub family: Family,
    /// A tool without `strict` is strict anyway (the Responses API's default): the strict
    /// rules apply to it as warnings.
    pub strict_by_default: bool,
    /// "Make strict" is offered for tools not marked `strict: true`.
    pub offers_strict: bool,
    /// The family's schema rules beyond names.
    pub dialect: Dialect,
}

/// Targets are one per format id; the dialect is the family's.
impl PartialEq for Target {
    fn eq(&self, other: &Target) -> bool {
        self.id == other.id
            && self.family == other.family
            && self.strict_by_default == other.strict_by_default
            && self.offers_strict == other.offers_strict
    }
}

impl Eq for Target {}

impl Target {
    /// The format id.
    pub fn id(self) -> &'static str {
        self.id
    }

    /// The rule family.
    pub fn family(self) -> Family {
        self.family
    }
}

/// Lint switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LintOptions {
    /// Where the target has a strict mode: also offer "make strict" for tools not marked
    /// `strict: true`.
    pub make_strict: bool,
}

impl LintOptions {
    /// The checks a pane of `target` runs: "make strict" where the target offers it.
    pub fn for_target(target: Target) -> LintOptions {
        LintOptions {
            make_strict: target.offers_strict,
        }
    }
}

/// The lints of one target over every tool (not argument validation: see [`check`]).
pub fn lint(x: &Exchange, target: Target, opts: LintOptions) -> Vec<Finding> {
    let mut out = names::duplicates(x);
    out.extend(names::names(x, target));
    let dialect = target.dialect;
    for (i, tool) in x.tools.iter().enumerate() {
        let at = format!("/tools/{i}/input_schema");
        if let Some(rule) = dialect.root_object {
            out.extend(names::root_object(rule, &tool.input_schema, i, &at));
        }
        if let Some(strict) = dialect.strict {
            if tool.strict == Some(true) {
                out.extend((strict.lint)(&tool.input_schema, i, &at));
            } else if tool.strict.is_none() && target.strict_by_default {
                // `strict: null` leaves the Responses API's default, strict mode: the
                // same rules, as warnings (the tool does not ask for it explicitly).
                out.extend(
                    (strict.lint)(&tool.input_schema, i, &at)
                        .into_iter()
                        .map(|mut f| {
                            if f.severity == Severity::Error {
                                f.severity = Severity::Warning;
                            }
                            f.message
                                .push_str(" (the Responses API applies strict mode by default)");
                            f
                        }),
                );
            } else if opts.make_strict {
                out.extend((strict.offer)(&tool.input_schema, i, &at));
            }
        }
        if let Some(more) = dialect.tool {
            out.extend(more(tool, i));
        }
    }
    out
}

/// Apply the fixes of `lints`' findings (one per tool per round) until none is left or a few
/// rounds have passed; returns the exchange and what remains of `lints`. For a narrower schema
/// form asked for apart from [`lint`].
pub fn fit_with(
    x: &Exchange,
    lints: impl Fn(&Exchange) -> Vec<Finding>,
) -> (Exchange, Vec<Finding>) {
    let mut fixed = x.clone();
    for _ in 0..4 {
        let fixes: Vec<Fix> =
            lints(&fixed)
                .into_iter()
                .filter_map(|f| f.fix)
                .fold(Vec::new(), |mut v, f| {
                    if !v.iter().any(|g: &Fix| g.tool() == f.tool()) {
                        v.push(f);
                    }
                    v
                });
        if fixes.is_empty() {
            break;
        }
        for f in &fixes {
            apply(&mut fixed, f);
        }
    }
    let left = lints(&fixed);
    (fixed, left)
}

/// Argument validation plus the lints of each target, duplicates removed (the same rule at the
/// same spot from two formats of one family is reported once).
pub fn check(x: &Exchange, targets: &[Target], opts: LintOptions) -> Vec<Finding> {
    let mut out = validate_arguments(x);
    for t in targets {
        for f in lint(x, *t, opts) {
            let dup = out
                .iter()
                .any(|o| o.pointer == f.pointer && o.rule == f.rule && o.message == f.message);
            if !dup {
                out.push(f);
            }
        }
    }
    out
}

/// Apply one fix to the exchange.
pub fn apply(x: &mut Exchange, fix: &Fix) {
    let Some(tool) = x.tools.get_mut(fix.tool()) else {
        return;
    };
    match fix {
        Fix::Schema { schema, .. } => tool.input_schema = schema.clone(),
        Fix::MakeStrict { schema, .. } => {
            tool.input_schema = schema.clone();
            tool.strict = Some(true);
        }
        Fix::Description { text, .. } => tool.description = Some(text.clone()),
        Fix::Rename { to, .. } => {
            let from = std::mem::replace(&mut tool.name, to.clone());
            names::rename_uses(x, &from, to);
        }
    }
}

/// Apply every fix of the target's lints (make-strict included when `opts` asks) until none
/// is left; returns the fixed exchange and what remains (argument findings included, since a
/// schema fix can change them). Renames are computed together, so the new names are unique.
pub fn fix_all(x: &Exchange, target: Target, opts: LintOptions) -> (Exchange, Vec<Finding>) {
    let mut fixed = x.clone();
    // Schema fixes replace the whole schema, so two of one tool computed from the same schema
    // would undo each other: one per tool per round, the next round sees the result. Fixes only
    // ever remove what a rule flags, so this settles in a few rounds.
    for _ in 0..4 {
        let findings = lint(&fixed, target, opts);
        let mut fixes: Vec<&Fix> = Vec::new();
        for f in findings.iter().filter_map(|f| f.fix.as_ref()) {
            let schema = |f: &Fix| matches!(f, Fix::Schema { .. } | Fix::MakeStrict { .. });
            let clash = fixes
                .iter()
                .any(|g| *g == f || (schema(f) && schema(g) && g.tool() == f.tool()));
            if !clash {
                fixes.push(f);
            }
        }
        if fixes.is_empty() {
            break;
        }
        for f in fixes {
            apply(&mut fixed, f);
        }
    }
    let mut remaining = validate_arguments(&fixed);
    remaining.extend(lint(&fixed, target, opts));
    (fixed, remaining)
}

/// The strings of an array value (none when `v` is absent or not an array; other items skipped).
pub(crate) fn str_items(v: Option<&Value>) -> impl Iterator<Item = &str> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// A JSON pointer token, escaped (`a/b` → `a~1b`).
pub(crate) fn esc(token: &str) -> String {
    crate::text::escape(token)
}

/// A problem for the purpose of fixing: an error or a warning (infos are suggestions).
fn is_problem(f: &Finding) -> bool {
    f.severity != Severity::Info
}

/// The findings (errors and warnings) that `fix` would bring up for `others` that are not there
/// now: what a one-click fix for one format does to the other visible formats, said before it
/// is applied. Each comes with the target it is for.
pub fn side_effects(
    x: &Exchange,
    fix: &Fix,
    others: &[Target],
    opts: LintOptions,
) -> Vec<(Target, Finding)> {
    let mut after = x.clone();
    apply(&mut after, fix);
    let mut out = Vec::new();
    for t in others {
        let before = lint(x, *t, opts);
        for f in lint(&after, *t, opts).into_iter().filter(is_problem) {
            let old = before
                .iter()
                .any(|b| b.rule == f.rule && b.pointer == f.pointer && b.severity == f.severity);
            if !old {
                out.push((*t, f));
            }
        }
    }
    out
}

/// Two targets whose fixes undo each other on one tool.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    /// The target whose fix it is.
    pub target: Target,
    /// The finding that fix would settle.
    pub finding: Finding,
    /// What the fix brings up for the other targets.
    pub breaks: Vec<(Target, Finding)>,
}

impl fmt::Display for Conflict {
    /// `gemini wants /tools/0/input_schema/additionalProperties removed (…) but then
    /// openai-responses: … [rule]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} and {} conflict on {}: fixing \"{}\" [{}] for {} brings up ",
            self.target.id(),
            self.breaks
                .iter()
                .map(|(t, _)| t.id())
                .fold(Vec::<&str>::new(), |mut v, id| {
                    if !v.contains(&id) {
                        v.push(id);
                    }
                    v
                })
                .join(", "),
            self.finding.pointer,
            self.finding.message,
            self.finding.rule,
            self.target.id(),
        )?;
        let said: Vec<String> = self
            .breaks
            .iter()
            .map(|(t, b)| format!("{}: \"{}\" [{}]", t.id(), b.message, b.rule))
            .collect();
        f.write_str(&said.join("; "))
    }
}

/// What [`fix_for_targets`] did.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetsFixed {
    /// The fixed exchange.
    pub exchange: Exchange,
    /// The fixes applied, with the target that asked for each, in order.
    pub applied: Vec<(Target, Fix)>,
    /// Fixes left out because they bring back another target's finding (empty when one
    /// exchange passes every target).
    pub conflicts: Vec<Conflict>,
    /// What remains, per target (argument findings under the first target), infos included.
    pub remaining: Vec<(Target, Finding)>,
}

impl TargetsFixed {
    /// True when no error or warning remains for any target.
    pub fn clean(&self) -> bool {
        !self.remaining.iter().any(|(_, f)| is_problem(f))
    }

    /// For a person: what was done, and what conflicts.
    pub fn summary(&self) -> String {
        let mut tools: Vec<usize> = self.applied.iter().map(|(_, f)| f.tool()).collect();
        tools.sort_unstable();
        tools.dedup();
        let mut out = match self.applied.len() {
            0 => "Nothing to fix for these formats".to_string(),
            n => format!(
                "Applied {n} fix{} to {} tool{}",
                if n == 1 { "" } else { "es" },
                tools.len(),
                if tools.len() == 1 { "" } else { "s" }
            ),
        };
        let problems = self.remaining.iter().filter(|(_, f)| is_problem(f)).count();
        if self.conflicts.is_empty() && problems == 0 {
            out.push_str("; every shown format's checks pass");
        } else if problems > 0 {
            out.push_str(&format!("; {problems} finding(s) remain"));
        }
        for c in &self.conflicts {
            out.push_str(". ");
            out.push_str(&c.to_string());
        }
        out
    }
}

/// The fixes of `target`'s problems (errors and warnings; "make strict" too when `opts` asks)
/// to apply in one round: one schema fix per tool (two computed from the same schema would
/// undo each other), no duplicates.
fn round_fixes(x: &Exchange, target: Target, opts: LintOptions) -> Vec<Fix> {
    let mut fixes: Vec<Fix> = Vec::new();
    for f in lint(x, target, opts) {
        let wanted =
            is_problem(&f) || (opts.make_strict && matches!(f.fix, Some(Fix::MakeStrict { .. })));
        let Some(fix) = f.fix.filter(|_| wanted) else {
            continue;
        };
        let schema = |f: &Fix| matches!(f, Fix::Schema { .. } | Fix::MakeStrict { .. });
        let clash = fixes
            .iter()
            .any(|g| *g == fix || (schema(&fix) && schema(g) && g.tool() == fix.tool()));
        if !clash {
            fixes.push(fix);
        }
    }
    fixes
}

/// Fix for every target at once: the fixes of every target's errors and warnings applied, round
/// after round, until none is left — one exchange that passes every target's checks where one
/// exists. When the fixes of two targets undo each other (the same tool going back and forth),
/// the best exchange seen is kept and each such fix is reported as a [`Conflict`]: which
/// targets, on which element, and what the fix would bring back. Fixing the result again
/// changes nothing.
pub fn fix_for_targets(x: &Exchange, targets: &[Target], opts: LintOptions) -> TargetsFixed {
    let problems = |x: &Exchange| -> usize {
        targets
            .iter()
            .map(|t| lint(x, *t, opts).iter().filter(|f| is_problem(f)).count())
            .sum()
    };
    let mut fixed = x.clone();
    let mut applied: Vec<(Target, Fix)> = Vec::new();
    let mut seen: Vec<String> = vec![serde_json::to_string(&fixed.tools).unwrap_or_default()];
    let mut best = (problems(&fixed), fixed.clone(), 0usize);
    let mut cycled = false;
    // Each round fixes every target in turn; fixes only remove what a rule flags, so without a
    // conflict this settles in a few rounds.
    for _ in 0..8 {
        let mut changed = false;
        for t in targets {
            for fix in round_fixes(&fixed, *t, opts) {
                apply(&mut fixed, &fix);
                applied.push((*t, fix));
                changed = true;
            }
        }
        if !changed {
            break;
        }
        let n = problems(&fixed);
        if n < best.0 {
            best = (n, fixed.clone(), applied.len());
        }
        let state = serde_json::to_string(&fixed.tools).unwrap_or_default();
        if seen.contains(&state) {
            cycled = true;
            break;
        }
        seen.push(state);
    }
    let settled = !cycled
        && targets
            .iter()
            .all(|t| round_fixes(&fixed, *t, opts).is_empty());
    if !settled {
        fixed = best.1;
        applied.truncate(best.2);
    }
    // What is left to fix now brings something back elsewhere: say so.
    let mut conflicts = Vec::new();
    if !settled {
        for t in targets {
            for f in lint(&fixed, *t, opts).into_iter().filter(is_problem) {
                let Some(fix) = &f.fix else { continue };
                let mut breaks = side_effects(&fixed, fix, targets, opts);
                breaks.retain(|(bt, _)| bt != t);
                if !breaks.is_empty() {
                    conflicts.push(Conflict {
                        target: *t,
                        finding: f.clone(),
                        breaks,
                    });
                }
            }
        }
    }
    let mut remaining: Vec<(Target, Finding)> = Vec::new();
    if let Some(first) = targets.first() {
        remaining.extend(validate_arguments(&fixed).into_iter().map(|f| (*first, f)));
    }
    for t in targets {
        remaining.extend(lint(&fixed, *t, opts).into_iter().map(|f| (*t, f)));
    }
    TargetsFixed {
        exchange: fixed,
        applied,
        conflicts,
        remaining,
    }
}
