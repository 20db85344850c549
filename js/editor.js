// The code editor of every pane: CodeMirror 6, bundled by esbuild at build time
// (scripts/bundle-editor.mjs) and loaded lazily by the app after its first paint.
// The Rust side owns the text; this module only shows it, reports edits, cursor and hover,
// and draws what Rust computed: the parse error and the highlighted element ranges.
// Positions crossing this boundary are UTF-16 offsets (CodeMirror's unit).
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, Decoration, tooltips } from '@codemirror/view';
import { EditorState, StateEffect, StateField, Compartment } from '@codemirror/state';
import { foldGutter, foldKeymap, bracketMatching, syntaxHighlighting, indentOnInput,
  codeFolding } from '@codemirror/language';
import { defaultKeymap, history, historyKeymap, indentMore, indentLess } from '@codemirror/commands';
import { search, searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { json } from '@codemirror/lang-json';
import { xml } from '@codemirror/lang-xml';
import { classHighlighter } from '@lezer/highlight';

// Every editor listens to the document's selectionchange, which Chromium also fires (bubbling)
// for each key typed in a text field: a dozen editors ran their handler after every key in
// the conversation's fields, between the key's frame and the next task. A text field's
// selection is never an editor's (their content is contenteditable, not a form control), so
// the event stops before it reaches them.
addEventListener('selectionchange', (e) => {
  const t = e.target;
  if (t instanceof HTMLTextAreaElement || t instanceof HTMLInputElement) e.stopImmediatePropagation();
}, { capture: true });

const setMarks = StateEffect.define();
const markDeco = Decoration.mark({ class: 'cm-linked' });
const lineDeco = Decoration.line({ class: 'cm-linked-line' });

// The element ranges Rust asked to highlight (hover or selection elsewhere).
const marks = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setMarks)) {
        const ranges = [];
        const len = tr.state.doc.length;
        for (const [from, to] of e.value) {
          const a = Math.max(0, Math.min(from, len));
          const b = Math.max(a, Math.min(to, len));
          if (b > a) ranges.push(markDeco.range(a, b));
          const first = tr.state.doc.lineAt(a).number;
          const last = tr.state.doc.lineAt(b).number;
          for (let n = first; n <= last; n++) ranges.push(lineDeco.range(tr.state.doc.line(n).from));
        }
        value = Decoration.set(ranges, true);
      }
    }
    return value;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const languages = { json: () => json(), xml: () => xml(), text: () => [] };

/**
 * Create an editor in `parent`.
 * opts: { doc, lang: 'json'|'xml'|'text', readOnly, label, onChange(text), onCursor(pos), onHover(pos) }
 */
export function create(parent, opts) {
  const language = new Compartment();
  const editable = new Compartment();
  let quiet = false; // set while Rust replaces the text, so the change is not echoed back
  const extensions = [
    lineNumbers(),
    highlightActiveLineGutter(),
    foldGutter(),
    codeFolding(),
    drawSelection(),
    history(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search({ top: true }),
    lintGutter(),
    syntaxHighlighting(classHighlighter),
    marks,
    language.of((languages[opts.lang] ?? languages.text)()),
    editable.of([EditorState.readOnly.of(!!opts.readOnly), EditorView.editable.of(!opts.readOnly)]),
    EditorView.lineWrapping,
    // tabindex: a read-only editor is reachable by keyboard too, to scroll and read it.
    EditorView.contentAttributes.of({ 'aria-label': opts.label ?? 'Code', spellcheck: 'false', tabindex: '0' }),
    // Tab and Shift+Tab move the focus through the page, as everywhere else (no keyboard
    // trap): lines are indented with Ctrl+] / Ctrl+[ (Cmd on a Mac), named in the `?` help.
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...foldKeymap,
      { key: 'Mod-]', run: indentMore }, { key: 'Mod-[', run: indentLess }]),
    // Tooltips (the parse error's message) live on the page's body: inside the pane they
    // were clipped by its containment into a thin bar at its edge.
    tooltips({ position: 'fixed', parent: document.body }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged && !quiet && opts.onChange) opts.onChange(u.state.doc.toString());
      if (u.selectionSet && opts.onCursor && u.view.hasFocus) opts.onCursor(u.state.selection.main.head);
    }),
    EditorView.domEventHandlers({
      mousemove(event, v) {
        if (!opts.onHover) return false;
        const pos = v.posAtCoords({ x: event.clientX, y: event.clientY });
        opts.onHover(pos ?? -1);
        return false;
      },
      mouseleave() {
        if (opts.onHover) opts.onHover(-1);
        return false;
      },
    }),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: opts.doc ?? '', extensions }) });
  // Editors out of sight keep their updates pending until they scroll into view: a keystroke
  // then costs the two or three visible panes, not all eleven (each CodeMirror update reads
  // layout, and eleven of them in one frame re-layout the page eleven times).
  let visible = true;
  let pendingDoc = null;
  let pendingMarks = null;
  let marked = false;
  let errorShown = false;
  const observer = new IntersectionObserver((entries) => {
    visible = entries[entries.length - 1].isIntersecting;
    if (!visible) return;
    if (pendingDoc !== null) {
      const t = pendingDoc;
      pendingDoc = null;
      handle.setDoc(t);
    }
    if (pendingMarks !== null) {
      const m = pendingMarks;
      pendingMarks = null;
      handle.setMarks(m, true);
    }
  }, { rootMargin: '200px' });
  observer.observe(parent);
  // Bring a highlighted range into the editor's own view when none of it shows. Only the
  // editor's scroller moves: the page never jumps under the pointer.
  function scrollToRange(from, to) {
    view.requestMeasure({
      read() {
        const len = view.state.doc.length;
        const top = view.lineBlockAt(Math.min(from, len)).top;
        const bottom = view.lineBlockAt(Math.min(to, len)).bottom;
        const s = view.scrollDOM;
        const shown = bottom > s.scrollTop && top < s.scrollTop + s.clientHeight;
        return shown ? null : Math.max(0, top - 24);
      },
      write(target) {
        if (target !== null) view.scrollDOM.scrollTop = target;
      },
    });
  }
  const handle = {
    view,
    getDoc: () => pendingDoc ?? view.state.doc.toString(),
    /** Replace the text (not echoed to onChange); keeps the cursor where it can. */
    setDoc(text) {
      if (!visible && !view.hasFocus) {
        pendingDoc = text;
        return;
      }
      pendingDoc = null;
      const current = view.state.doc.toString();
      if (current === text) return;
      // Replace only the span that differs: CodeMirror then re-parses and re-draws that much,
      // which keeps a keystroke re-rendering eleven panes well inside a frame.
      let start = 0;
      const max = Math.min(current.length, text.length);
      while (start < max && current.charCodeAt(start) === text.charCodeAt(start)) start++;
      let end = 0;
      while (end < max - start
        && current.charCodeAt(current.length - 1 - end) === text.charCodeAt(text.length - 1 - end)) end++;
      // A large replacement (a pane's first rendering of a big exchange, a paste) starts a
      // fresh state: a change mapped onto the old viewport of an editor CodeMirror deems out
      // of view would stretch that viewport over the whole new text, and draw all of it.
      if ((current.length - end - start) + (text.length - end - start) > 20000) {
        view.setState(EditorState.create({ doc: text, extensions }));
        return;
      }
      quiet = true;
      try {
        view.dispatch({ changes: { from: start, to: current.length - end, insert: text.slice(start, text.length - end) } });
      } finally {
        quiet = false;
      }
    },
    /** Replace [from, to) by `insert` (not echoed) when the editor shows a text of `length`
     * now; false when it cannot (out of view with a text pending, another text, a large
     * change): Rust then sends the whole text to setDoc. */
    patch(from, to, insert, length) {
      if ((!visible && !view.hasFocus) || pendingDoc !== null) return false;
      if (view.state.doc.length !== length || from > to || to > length) return false;
      if ((to - from) + insert.length > 20000) return false;
      if (from === to && insert === '') return true;
      quiet = true;
      try {
        view.dispatch({ changes: { from, to, insert } });
      } finally {
        quiet = false;
      }
      return true;
    },
    /** Mark a parse error at [from, to) with its message; from < 0 clears it. */
    setError(from, to, message) {
      if (from < 0 && !errorShown) return;
      errorShown = from >= 0;
      const len = view.state.doc.length;
      const diagnostics = [];
      if (from >= 0) {
        const a = Math.min(from, len);
        const b = Math.min(Math.max(to, a + 1), len);
        diagnostics.push({ from: a, to: Math.max(a, b), severity: 'error', message });
      }
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    /** Highlight these ranges: a flat array [from0, to0, from1, to1, …]; scrolls the first into view. */
    setMarks(flat, scroll) {
      if (flat.length === 0 && !marked && pendingMarks === null) return;
      if (!visible) {
        pendingMarks = flat;
        return;
      }
      marked = flat.length > 0;
      const pairs = [];
      for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
      view.dispatch({ effects: [setMarks.of(pairs)] });
      if (scroll && pairs.length) scrollToRange(pairs[0][0], pairs[0][1]);
    },
    setReadOnly(ro) {
      view.dispatch({ effects: editable.reconfigure([EditorState.readOnly.of(ro), EditorView.editable.of(!ro)]) });
    },
    setLanguage(lang) {
      view.dispatch({ effects: language.reconfigure((languages[lang] ?? languages.text)()) });
    },
    hasFocus: () => view.hasFocus,
    focus: () => view.focus(),
    destroy: () => {
      observer.disconnect();
      view.destroy();
    },
  };
  // Tests and the console reach the editor through its host element.
  parent.toolscopeEditor = handle;
  return handle;
}
