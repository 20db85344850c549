//! Pane work in slices. A keystroke must not wait for eleven encodings: each pane's work is a
//! [`Job`] that is marked stale and run later, the panes in view first (after the next paint,
//! a few per task within a time budget), the others once no new work came for a moment (in
//! slices that yield, so keys typed meanwhile are handled between them) or when they scroll
//! into view.
//! A job marked twice before it runs runs once, on the latest exchange: panes re-encode once
//! per frame at most.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function sched_after_paint(cb) {
  requestAnimationFrame(() => setTimeout(cb, 0));
}
export function sched_later(cb, ms) {
  setTimeout(cb, ms);
}
export function sched_in_view(el) {
  if (!el.isConnected) return false;
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return false;
  return r.bottom > -200 && r.top < window.innerHeight + 200;
}
export function sched_now() {
  return performance.now();
}
export function sched_on_scroll(cb) {
  let queued = false;
  const f = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; cb(); });
  };
  addEventListener('scroll', f, { capture: true, passive: true });
  addEventListener('resize', f, { passive: true });
}
"#)]
extern "C" {
    fn sched_after_paint(cb: &JsValue);
    fn sched_later(cb: &JsValue, ms: f64);
    fn sched_in_view(el: &web_sys::Element) -> bool;
    fn sched_now() -> f64;
    fn sched_on_scroll(cb: &Closure<dyn FnMut()>);
}

/// Work per task before yielding to the page, in milliseconds. One job may run longer (a
/// single encoding is not split); the next waits for the next task.
const BUDGET_MS: f64 = 12.0;

/// While keys come (changes less than `TYPING_MS` apart), panes out of view wait until no
/// work was asked for this long: only the panes in view follow the keys, and a key never waits
/// behind an encoding nobody sees. A single change (a paste, a click) does not wait.
const QUIET_MS: f64 = 200.0;
/// Changes closer than this are typing.
const TYPING_MS: f64 = 500.0;
/// Requests closer than this belong to one change (a read, then the encodings it causes).
const SAME_CHANGE_MS: f64 = 50.0;

struct Inner {
    stale: Cell<bool>,
    /// Runs after every other job in view (checks behind encodings).
    low: bool,
    /// Carries the user's text into the exchange: run at once when the page goes away.
    urgent: bool,
    run: Box<dyn Fn()>,
    host: RefCell<Option<web_sys::Element>>,
}

/// A unit of deferred work (one pane's encoding and checks). Dropping it cancels it.
pub struct Job(Rc<Inner>);

thread_local! {
    static JOBS: RefCell<Vec<Weak<Inner>>> = const { RefCell::new(Vec::new()) };
    static AFTER_PAINT: Cell<bool> = const { Cell::new(false) };
    static LATER: Cell<bool> = const { Cell::new(false) };
    static LAST_REQUEST: Cell<f64> = const { Cell::new(0.0) };
    /// When the change before the last one began (see TYPING_MS).
    static CHANGE_BEFORE: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
    static CHANGE_AT: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

impl Job {
    /// A job that runs `run` when it is stale and its turn comes.
    pub fn new(run: impl Fn() + 'static) -> Self {
        Self::with_priority(run, false, false)
    }

    /// A job whose turn comes after the others' (findings after encodings).
    pub fn later(run: impl Fn() + 'static) -> Self {
        Self::with_priority(run, true, false)
    }

    /// A job that carries what the user typed: [`run_urgent`] runs it when the page is hidden
    /// or closed before its turn came.
    pub fn urgent(run: impl Fn() + 'static) -> Self {
        Self::with_priority(run, false, true)
    }

    fn with_priority(run: impl Fn() + 'static, low: bool, urgent: bool) -> Self {
        let inner = Rc::new(Inner {
            stale: Cell::new(false),
            low,
            urgent,
            run: Box::new(run),
            host: RefCell::new(None),
        });
        JOBS.with(|j| {
            let mut j = j.borrow_mut();
            j.retain(|w| w.strong_count() > 0);
            j.push(Rc::downgrade(&inner));
        });
        listen();
        Job(inner)
    }

    /// The element whose visibility decides the job's turn (none: treated as in view).
    pub fn set_host(&self, el: Option<web_sys::Element>) {
        *self.0.host.borrow_mut() = el;
    }

    /// Mark the job stale and make sure its turn comes.
    pub fn request(&self) {
        self.0.stale.set(true);
        let now = sched_now();
        if now - LAST_REQUEST.with(Cell::get) > SAME_CHANGE_MS {
            CHANGE_BEFORE.with(|b| b.set(CHANGE_AT.with(Cell::get)));
            CHANGE_AT.with(|c| c.set(now));
        }
        LAST_REQUEST.with(|t| t.set(now));
        schedule_soon();
    }

    /// Run now (cheap work: small exchanges keep the immediate update they always had).
    pub fn run_now(&self) {
        self.0.stale.set(false);
        (self.0.run)();
    }

    /// Not to run after all (what it would do was done another way).
    pub fn cancel(&self) {
        self.0.stale.set(false);
    }

    /// Still waiting for its turn.
    pub fn is_stale(&self) -> bool {
        self.0.stale.get()
    }
}

/// Run every urgent job still waiting (the page is going away); true when one ran.
pub fn run_urgent() -> bool {
    let waiting: Vec<Rc<Inner>> = JOBS.with(|j| {
        j.borrow()
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|i| i.urgent && i.stale.get())
            .collect()
    });
    for job in &waiting {
        job.stale.set(false);
        (job.run)();
    }
    !waiting.is_empty()
}

fn in_view(job: &Inner) -> bool {
    job.host.borrow().as_ref().is_none_or(sched_in_view)
}

/// The stale jobs, those in view first.
fn stale_jobs() -> (Vec<Rc<Inner>>, Vec<Rc<Inner>>) {
    let all: Vec<Rc<Inner>> = JOBS.with(|j| {
        j.borrow()
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|i| i.stale.get())
            .collect()
    });
    let (mut seen, unseen): (Vec<_>, Vec<_>) = all.into_iter().partition(|i| in_view(i));
    seen.sort_by_key(|i| i.low);
    (seen, unseen)
}

/// Run stale jobs until the budget is spent; `visible_only`: leave the others for later.
fn run_some(visible_only: bool) {
    let start = sched_now();
    // Out of view waits for a quiet moment while keys come (see QUIET_MS).
    let quiet = quiet_for() <= 0.0;
    loop {
        let (seen, unseen) = stale_jobs();
        let next = seen.into_iter().next().or_else(|| {
            (!visible_only && quiet)
                .then(|| unseen.into_iter().next())
                .flatten()
        });
        let Some(job) = next else { break };
        job.stale.set(false);
        (job.run)();
        if sched_now() - start > BUDGET_MS {
            break;
        }
    }
    let (seen, unseen) = stale_jobs();
    if !seen.is_empty() {
        schedule_soon();
    } else if !unseen.is_empty() {
        schedule_later();
    }
}

/// After the next paint: the keystroke that made the work shows first.
fn schedule_soon() {
    if AFTER_PAINT.with(|s| s.replace(true)) {
        return;
    }
    sched_after_paint(&Closure::once_into_js(|| {
        AFTER_PAINT.with(|s| s.set(false));
        run_some(true);
    }));
}

/// How long work out of view must still wait: while keys come, until `QUIET_MS` after the
/// last request; otherwise not at all.
fn quiet_for() -> f64 {
    let typing = CHANGE_AT.with(Cell::get) - CHANGE_BEFORE.with(Cell::get) < TYPING_MS;
    if typing {
        QUIET_MS - (sched_now() - LAST_REQUEST.with(Cell::get))
    } else {
        0.0
    }
}

/// In a task of its own once the work asked for has been quiet (panes out of view): input
/// queued meanwhile goes first.
fn schedule_later() {
    if LATER.with(|s| s.replace(true)) {
        return;
    }
    sched_later(
        &Closure::once_into_js(|| {
            LATER.with(|s| s.set(false));
            run_some(false);
        }),
        quiet_for().max(0.0),
    );
}

/// A stale pane that scrolls into view gets its turn right away.
fn listen() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    let cb = Closure::<dyn FnMut()>::new(|| {
        if !stale_jobs().0.is_empty() {
            schedule_soon();
        }
    });
    sched_on_scroll(&cb);
    // Lives as long as the page.
    cb.forget();
}
