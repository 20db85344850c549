//! A virtualised list: only the rows in (or near) the viewport exist in the page, between two
//! spacers that stand for the rest. Thousands of messages or tools then cost what a screenful
//! costs, on opening and on every keystroke.
//!
//! Rows are keyed by index (a row reads its own item by index, so a reorder re-renders only
//! what moved). Heights start as an estimate and are measured once a row has been drawn; the
//! page (the window) is the scroller, so the visible part is where the list meets the
//! viewport. Short lists are drawn whole: nothing to save, and every row stays reachable.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function vl_window(el) {
  const r = el.getBoundingClientRect();
  const gap = parseFloat(getComputedStyle(el).rowGap) || 0;
  return [-r.top, window.innerHeight - r.top, gap];
}
export function vl_measure(el) {
  const out = [];
  for (const c of el.children) {
    if (!c.classList.contains('vspacer')) out.push(c.getBoundingClientRect().height);
  }
  return out;
}
export function vl_on_scroll(cb) {
  let queued = false;
  let live = true;
  const f = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; if (live) cb(); });
  };
  addEventListener('scroll', f, { capture: true, passive: true });
  addEventListener('resize', f, { passive: true });
  return () => {
    live = false;
    removeEventListener('scroll', f, { capture: true });
    removeEventListener('resize', f);
  };
}
export function vl_next_frame(cb) {
  requestAnimationFrame(() => cb());
}
"#)]
extern "C" {
    /// The viewport in the list's coordinates (`[top, bottom]`) and the list's row gap.
    fn vl_window(el: &web_sys::Element) -> Vec<f64>;
    /// Heights of the rows drawn, in order (spacers left out).
    fn vl_measure(el: &web_sys::Element) -> Vec<f64>;
    /// Call `cb` once per frame while the page or any element scrolls or the window resizes;
    /// returns the function that stops it.
    fn vl_on_scroll(cb: &Closure<dyn FnMut()>) -> js_sys::Function;
    /// Call `cb` at the next frame.
    fn vl_next_frame(cb: &JsValue);
}

/// The scroll callback and the function that removes it.
type Listener = (Closure<dyn FnMut()>, js_sys::Function);

/// How much beyond the viewport is drawn, above and below, in pixels.
const MARGIN: f64 = 800.0;

/// Where the rows are: the range drawn and the spacers' heights.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Window {
    start: usize,
    end: usize,
    top: f64,
    bottom: f64,
}

/// The rows `[start, end)` to draw for the viewport `[top, bottom]` over rows of `pitch`es
/// (height plus gap), with the spacers' heights around them.
fn window_for(pitch: &[f64], view_top: f64, view_bottom: f64, gap: f64) -> Window {
    let (lo, hi) = (view_top - MARGIN, view_bottom + MARGIN);
    let mut start = pitch.len();
    let mut end = pitch.len();
    let mut y = 0.0;
    let mut top = 0.0;
    for (i, h) in pitch.iter().enumerate() {
        if start == pitch.len() && y + h > lo {
            start = i;
            top = y;
        }
        if y >= hi {
            end = i;
            break;
        }
        y += h;
    }
    if start >= end {
        // Nothing of the list is near the viewport: one spacer stands for all of it.
        let total: f64 = pitch.iter().sum();
        return Window {
            start: 0,
            end: 0,
            top: (total - gap).max(0.0),
            bottom: 0.0,
        };
    }
    let rest: f64 = pitch[end..].iter().sum();
    Window {
        start,
        end,
        // The spacer's own gap to the first row is part of the rows above.
        top: (top - gap).max(0.0),
        bottom: (rest - gap).max(0.0),
    }
}

/// A spacer's style: absent from the layout (and its gap) when it stands for nothing.
fn spacer_style(h: f64) -> String {
    if h <= 0.0 {
        "display:none".to_string()
    } else {
        format!("height:{h:.0}px")
    }
}

/// An `<ol>` of `count` rows drawn by `row(index)` (each an `<li>`); only those near the
/// viewport once there are more than `whole` of them. `estimate`: a row's height in pixels
/// before it is measured.
#[component]
pub fn VirtualList<F, V>(
    /// How many rows.
    #[prop(into)]
    count: Signal<usize>,
    /// Draw row `i`.
    row: F,
    /// Estimated row height in pixels, until measured.
    estimate: f64,
    /// Up to this many rows, every row is drawn.
    whole: usize,
    /// Class of the `<ol>`.
    class: &'static str,
    /// `data-testid` of the `<ol>`.
    #[prop(optional)]
    testid: &'static str,
) -> impl IntoView
where
    F: Fn(usize) -> V + Clone + Send + Sync + 'static,
    V: IntoView + 'static,
{
    let list = NodeRef::<leptos::html::Ol>::new();
    // A long list starts empty: its first window is placed once it is laid out (before the
    // first paint), rather than drawing rows that may be far from view.
    let first = count.get_untracked();
    let win = RwSignal::new(Window {
        start: 0,
        end: if first <= whole { first } else { 0 },
        top: 0.0,
        bottom: 0.0,
    });
    // Row pitches (height + gap), measured or estimated.
    let pitch: StoredValue<Vec<f64>> = StoredValue::new(Vec::new());
    // Frames in a row spent settling (a measurement moved the window): capped, so estimates
    // that never match cannot keep the page busy.
    let settling = StoredValue::new(0u8);

    let update = move || {
        // Disposed (the list left the page) or not mounted yet: nothing to place.
        let (Some(Some(el)), Some(n)) = (list.try_get_untracked(), count.try_get_untracked())
        else {
            return;
        };
        let el: &web_sys::Element = &el;
        if n <= whole {
            let w = Window {
                start: 0,
                end: n,
                top: 0.0,
                bottom: 0.0,
            };
            if win.get_untracked() != w {
                win.set(w);
            }
            return;
        }
        let v = vl_window(el);
        let (view_top, view_bottom, gap) = (
            v.first().copied().unwrap_or(0.0),
            v.get(1).copied().unwrap_or(0.0),
            v.get(2).copied().unwrap_or(0.0),
        );
        let current = win.get_untracked();
        let heights = vl_measure(el);
        let next = pitch
            .try_update_value(|p| {
                p.resize(n, estimate + gap);
                if heights.len() == current.end.saturating_sub(current.start) {
                    for (k, h) in heights.iter().enumerate() {
                        if let Some(slot) = p.get_mut(current.start + k) {
                            *slot = h + gap;
                        }
                    }
                }
                window_for(p, view_top, view_bottom, gap)
            })
            .unwrap_or(current);
        if next != current {
            win.set(next);
        }
    };

    // Settle after a change: draw, measure what was drawn, adjust (a few frames at most).
    let settle = move || {
        settling.set_value(0);
        fn step(update: impl Fn() + Clone + 'static, win: RwSignal<Window>, n: StoredValue<u8>) {
            let again = update.clone();
            let cb = Closure::once_into_js(move || {
                let Some(before) = win.try_get_untracked() else {
                    return;
                };
                again();
                let moved = win.try_get_untracked().is_some_and(|w| w != before);
                let k = n.try_get_value().unwrap_or(u8::MAX);
                if moved && k < 4 {
                    n.set_value(k + 1);
                    step(again, win, n);
                }
            });
            vl_next_frame(&cb);
        }
        step(update, win, settling);
    };

    // Count changes (load, add, remove) and the first mount: place the window.
    Effect::new(move |_| {
        count.track();
        update();
        settle();
    });

    let on_scroll = Closure::<dyn FnMut()>::new(update);
    let stop = vl_on_scroll(&on_scroll);
    let keep: StoredValue<Option<Listener>, LocalStorage> =
        StoredValue::new_local(Some((on_scroll, stop)));
    on_cleanup(move || {
        if let Some((_cb, stop)) = keep.try_update_value(Option::take).flatten() {
            let _ = stop.call0(&JsValue::NULL);
        }
    });

    let rows = move || {
        let n = count.get();
        if n <= whole {
            return 0..n;
        }
        // The window may lag a removal by a frame: never draw past the end.
        let w = win.get();
        w.start.min(n)..w.end.min(n)
    };
    view! {
        <ol class=class data-testid=(!testid.is_empty()).then_some(testid) node_ref=list>
            <li class="vspacer" aria-hidden="true" style=move || spacer_style(win.get().top)></li>
            <For each=rows key=|i| *i children=row />
            <li class="vspacer" aria-hidden="true" style=move || spacer_style(win.get().bottom)></li>
        </ol>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_covers_the_viewport_and_a_margin() {
        let pitch = vec![100.0; 1000];
        let w = window_for(&pitch, 5000.0, 5600.0, 0.0);
        assert_eq!(w.start, 42);
        assert_eq!(w.end, 64);
        assert_eq!(w.top, 4200.0);
        assert_eq!(w.bottom, 93600.0);
    }

    #[test]
    fn a_list_far_below_draws_nothing() {
        let pitch = vec![100.0; 10];
        let w = window_for(&pitch, -5000.0, -4000.0, 8.0);
        assert_eq!((w.start, w.end), (0, 0));
    }
}
