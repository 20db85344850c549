//! A deferred memo: a value derived from the page's signals whose recomputation is scheduled
//! work ([`Job`]) instead of running on the keystroke. It follows its sources like a `Memo`
//! (a change marks it stale; it recomputes in its turn, panes in view first, once per frame at
//! most) and, like a `Memo`, notifies its readers only when the value changes.

use super::schedule::Job;
use leptos::prelude::*;

/// A value computed in its turn (see the module doc). Copy, like a signal.
pub struct Deferred<T: 'static> {
    value: RwSignal<T>,
    job: StoredValue<Job, LocalStorage>,
}

impl<T> Clone for Deferred<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Deferred<T> {}

impl<T: PartialEq + Send + Sync + 'static> Deferred<T> {
    /// Starts at `initial`; `compute` runs untracked in its turn and gives the new value, or
    /// `None` to keep the current one (its owner left the page, or there is nothing to
    /// compute yet).
    pub fn new(initial: T, compute: impl Fn() -> Option<T> + 'static) -> Self {
        Self::with_job(initial, compute, Job::new)
    }

    /// As [`Deferred::new`], its turn after the other jobs' (findings after encodings).
    pub fn later(initial: T, compute: impl Fn() -> Option<T> + 'static) -> Self {
        Self::with_job(initial, compute, Job::later)
    }

    fn with_job(
        initial: T,
        compute: impl Fn() -> Option<T> + 'static,
        job: fn(Box<dyn Fn()>) -> Job,
    ) -> Self {
        let value = RwSignal::new(initial);
        let run = move || {
            let Some(now) = compute() else {
                return;
            };
            if value.try_with_untracked(|old| *old != now) == Some(true) {
                value.set(now);
            }
        };
        Deferred {
            value,
            job: StoredValue::new_local(job(Box::new(run))),
        }
    }

    /// Recompute, in its turn, after each change of what `sources` reads (not at once: the
    /// caller decides the first computation with [`Deferred::run_now`] or
    /// [`Deferred::request`]).
    pub fn follow(self, sources: impl Fn() + 'static) -> Self {
        Effect::new(move |first: Option<()>| {
            sources();
            if first.is_some() {
                self.request();
            }
        });
        self
    }

    /// The value, to read (tracked like any signal).
    pub fn read(self) -> ReadSignal<T> {
        self.value.read_only()
    }

    /// Mark it stale: it recomputes in its turn.
    pub fn request(self) {
        self.job.with_value(Job::request);
    }

    /// Recompute now (cheap work: small exchanges, the first rendering).
    pub fn run_now(self) {
        self.job.with_value(Job::run_now);
    }

    /// Wait as work out of view does, while `deferred` (the pane being typed in).
    pub fn set_deferred(self, deferred: bool) {
        self.job.with_value(|j| j.set_deferred(deferred));
    }

    /// The element whose visibility orders its turn.
    pub fn set_host(self, el: Option<web_sys::Element>) {
        self.job.with_value(|j| j.set_host(el));
    }
}
