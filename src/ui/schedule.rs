//! Pane work in slices. A keystroke must not wait for eleven encodings: each pane's work is a
//! [`Job`] that is marked stale and run later, the panes in view first (after the next paint,
//! then task after task, as many per task as fit a time budget by what each took last time,
//! the effects it woke included), the others after them (while keys come, once no key came
//! for a moment), or as soon as they scroll into view. Keys typed meanwhile are handled
//! between the tasks; while keys come, the tasks are short and one per frame.
//! A job marked twice before it runs runs once, on the latest exchange: panes re-encode once
//! per frame at most.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function sched_later(cb, ms) {
  setTimeout(cb, ms);
}
// A task of its own, queued at once: setTimeout(0) is clamped to 4 ms once nested.
function taskQueue() {
  const channel = new MessageChannel();
  let next = null;
  channel.port1.onmessage = () => {
    const f = next;
    next = null;
    if (f) f();
  };
  return (cb) => {
    next = cb;
    channel.port2.postMessage(0);
  };
}
const nextTask = taskQueue();
const frameTask = taskQueue();
// The next task, without waiting for a frame.
export function sched_next_task(cb) {
  nextTask(cb);
}
// The first task after the next frame.
export function sched_after_frame(cb) {
  requestAnimationFrame(() => frameTask(cb));
}
// Which hosts are in view (with a 200 px margin), as an IntersectionObserver reports it:
// asking the layout per job (getBoundingClientRect) forced a layout of the page after each
// pane's new text, tens of milliseconds per task on a large exchange.
const shown = new WeakMap();
let observer = null;
let onShown = null;
export function sched_observe(el, cb) {
  if (!observer) {
    onShown = cb;
    observer = new IntersectionObserver((entries) => {
      let any = false;
      for (const e of entries) {
        shown.set(e.target, e.isIntersecting);
        any ||= e.isIntersecting;
      }
      if (any) onShown();
    }, { rootMargin: '200px' });
  }
  el.__schedRefs = (el.__schedRefs ?? 0) + 1;
  observer.observe(el);
}
export function sched_unobserve(el) {
  el.__schedRefs = (el.__schedRefs ?? 1) - 1;
  if (el.__schedRefs <= 0 && observer) {
    observer.unobserve(el);
    shown.delete(el);
  }
}
export function sched_in_view(el) {
  if (!el.isConnected) return false;
  const v = shown.get(el);
  if (v !== undefined) return v;
  // Not reported yet (just mounted): measured once.
  const r = el.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return false;
  return r.bottom > -200 && r.top < window.innerHeight + 200;
}
export function sched_now() {
  return performance.now();
}
// When keys come: the user's input events (a paste's keys and its input within 50 ms are one).
// The work an edit causes later (a large draft read in its turn, then the encodings it asks
// for) is not input: a paste then reads as one change, not as typing.
let inputAt = -Infinity;
let inputBefore = -Infinity;
let inputLast = -Infinity;
const onInput = () => {
  const now = performance.now();
  if (now - inputLast > 50) {
    inputBefore = inputAt;
    inputAt = now;
  }
  inputLast = now;
};
addEventListener('keydown', onInput, { capture: true, passive: true });
addEventListener('beforeinput', onInput, { capture: true, passive: true });
export function sched_quiet_for(typingMs, quietMs) {
  return inputAt - inputBefore < typingMs ? quietMs - (performance.now() - inputLast) : 0;
}
export function sched_since_input() {
  return performance.now() - inputLast;
}
"#)]
extern "C" {
    fn sched_later(cb: &JsValue, ms: f64);
    fn sched_next_task(cb: &JsValue);
    fn sched_after_frame(cb: &JsValue);
    fn sched_observe(el: &web_sys::Element, cb: &JsValue);
    fn sched_unobserve(el: &web_sys::Element);
    fn sched_in_view(el: &web_sys::Element) -> bool;
    fn sched_now() -> f64;
    fn sched_quiet_for(typing_ms: f64, quiet_ms: f64) -> f64;
    fn sched_since_input() -> f64;
}

/// Work per task before yielding to the page, in milliseconds. A job that took longer than
/// what is left of it last time waits for the next task; a single job is not split.
const BUDGET_MS: f64 = 12.0;
/// The budget while keys come (an input less than `TYPING_MS` ago): the next key may come
/// at any moment, and it waits for the task under way (then for the frame after it, which
/// draws what the task changed). Short tasks keep that wait under a few milliseconds.
const TYPING_BUDGET_MS: f64 = 4.0;

/// While keys come (inputs less than `TYPING_MS` apart), panes out of view wait until no key
/// came for this long: only the panes in view follow the keys, and a key never waits behind
/// an encoding nobody sees. A single change (a paste, a click) does not wait.
const QUIET_MS: f64 = 200.0;
/// Inputs closer than this are typing.
const TYPING_MS: f64 = 500.0;

struct Inner {
    stale: Cell<bool>,
    /// Runs after every other job (checks behind encodings).
    low: bool,
    /// Carries the user's text into the exchange: run at once when the page goes away.
    urgent: bool,
    run: Box<dyn Fn()>,
    host: RefCell<Option<web_sys::Element>>,
    /// How long its last run took (ms): whether it still fits in a task's budget.
    cost: Cell<f64>,
    /// Waits as if out of view (while keys come, until they stop).
    deferred: Cell<bool>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(el) = self.host.get_mut().take() {
            sched_unobserve(&el);
        }
    }
}

/// A unit of deferred work (one pane's encoding and checks). Dropping it cancels it.
pub struct Job(Rc<Inner>);

thread_local! {
    static JOBS: RefCell<Vec<Weak<Inner>>> = const { RefCell::new(Vec::new()) };
    static NEXT_TASK: Cell<bool> = const { Cell::new(false) };
    static AFTER_FRAME: Cell<bool> = const { Cell::new(false) };
    static LATER: Cell<bool> = const { Cell::new(false) };
    /// Called when an observed host comes into view (lives as long as the page).
    static ON_SHOWN: JsValue = {
        let cb = Closure::<dyn FnMut()>::new(|| {
            if stale_jobs().iter().any(|i| in_view(i)) {
                schedule_soon();
            }
        });
        cb.into_js_value()
    };
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
            cost: Cell::new(0.0),
            deferred: Cell::new(false),
        });
        JOBS.with(|j| {
            let mut j = j.borrow_mut();
            j.retain(|w| w.strong_count() > 0);
            j.push(Rc::downgrade(&inner));
        });
        Job(inner)
    }

    /// The element whose visibility decides the job's turn (none: treated as in view).
    pub fn set_host(&self, el: Option<web_sys::Element>) {
        if let Some(el) = &el {
            ON_SHOWN.with(|cb| sched_observe(el, cb));
        }
        if let Some(old) = self.0.host.replace(el) {
            sched_unobserve(&old);
        }
    }

    /// Wait as a job out of view does, in view or not (the pane being typed in: its own
    /// rendering is not what it shows).
    pub fn set_deferred(&self, deferred: bool) {
        self.0.deferred.set(deferred);
    }

    /// Mark the job stale and make sure its turn comes.
    pub fn request(&self) {
        self.0.stale.set(true);
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

/// Some job still waits for its turn (work that can wait, such as the autosave, waits too).
pub fn busy() -> bool {
    !stale_jobs().is_empty()
}

fn in_view(job: &Inner) -> bool {
    !job.deferred.get() && job.host.borrow().as_ref().is_none_or(sched_in_view)
}

/// The stale jobs.
fn stale_jobs() -> Vec<Rc<Inner>> {
    JOBS.with(|j| {
        j.borrow()
            .iter()
            .filter_map(Weak::upgrade)
            .filter(|i| i.stale.get())
            .collect()
    })
}

/// The job to run next: encodings before checks, panes in view first; panes out of view only
/// when `unseen` (not while keys come). `None`: nothing that may run now.
fn next_job(unseen: bool) -> Option<Rc<Inner>> {
    stale_jobs()
        .into_iter()
        .map(|i| (i.low, !in_view(&i), i))
        .filter(|(_, out, _)| unseen || !out)
        .min_by_key(|(low, out, _)| (*low, *out))
        .map(|(_, _, i)| i)
}

/// Run stale jobs until the budget is spent, then go on in the next task (panes in view) or
/// once keys stop coming (panes out of view). While keys come, the budget is short and the
/// next slice waits for the next frame: a slice never straddles a frame, and the frame after
/// it draws (and CodeMirror measures) only what one short slice changed.
fn run_some() {
    let typing = sched_since_input() < TYPING_MS;
    let slice = Slice {
        start: sched_now(),
        budget: if typing { TYPING_BUDGET_MS } else { BUDGET_MS },
        // Out of view waits for a quiet moment while keys come (see QUIET_MS).
        unseen: quiet_for() <= 0.0,
        typing,
    };
    slice.step(false);
}

/// One task's share of the work.
#[derive(Clone, Copy)]
struct Slice {
    start: f64,
    budget: f64,
    unseen: bool,
    typing: bool,
}

impl Slice {
    /// Run the next job if it fits (the first always runs: a single job is not split).
    fn step(self, ran: bool) {
        let Some(job) = next_job(self.unseen) else {
            return self.done();
        };
        let at = sched_now();
        // A job that will not fit in what is left waits for the next task.
        if ran && at - self.start + job.cost.get() > self.budget {
            return self.done();
        }
        job.stale.set(false);
        (job.run)();
        // What the job changed reaches the page in the effects it woke, queued as microtasks
        // of this task: its cost (and the slice's) is known once they ran, after which the
        // next job runs in the same task when it still fits.
        wasm_bindgen_futures::spawn_local(async move {
            let end = sched_now();
            job.cost.set(end - at);
            if end - self.start > self.budget {
                self.done();
            } else {
                self.step(true);
            }
        });
    }

    /// Go on in the next task (after the next frame while keys come), or once the keys stop.
    fn done(self) {
        let stale = stale_jobs();
        if stale.iter().any(|i| self.unseen || in_view(i)) {
            if self.typing {
                schedule_after_frame();
            } else {
                schedule_next_task();
            }
        } else if !stale.is_empty() {
            schedule_later();
        }
    }
}

/// After the next paint: the keystroke that made the work shows first. The same queue as a
/// typing slice's next turn, so one frame is followed by one slice, however the work came.
fn schedule_soon() {
    schedule_after_frame();
}

/// In the next task: input that came meanwhile is handled first, without waiting for a frame.
fn schedule_next_task() {
    run_once_by(&NEXT_TASK, sched_next_task);
}

/// In the first task after the next frame (typing: one slice per frame).
fn schedule_after_frame() {
    run_once_by(&AFTER_FRAME, sched_after_frame);
}

/// `run_some` through `sched`, unless `pending` says that a run through it is coming already.
fn run_once_by(pending: &'static std::thread::LocalKey<Cell<bool>>, sched: fn(&JsValue)) {
    if pending.with(|s| s.replace(true)) {
        return;
    }
    sched(&Closure::once_into_js(move || {
        pending.with(|s| s.set(false));
        run_some();
    }));
}

/// How long work out of view must still wait: while keys come, until `QUIET_MS` after the
/// last key; otherwise not at all.
fn quiet_for() -> f64 {
    sched_quiet_for(TYPING_MS, QUIET_MS)
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
            run_some();
        }),
        quiet_for().max(0.0),
    );
}
