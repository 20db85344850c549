// The code editor of every pane: CodeMirror 6, bundled by esbuild at build time
// (scripts/bundle-editor.mjs) and loaded lazily by the app after its first paint.
// The Rust side owns the text; this module only shows it, reports edits, cursor and hover,
// and draws what Rust computed: the parse error and the highlighted element ranges.
// Positions crossing this boundary are UTF-16 offsets (CodeMirror's unit).
import { EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter,
  drawSelection, Decoration } from '@codemirror/view';
import { EditorState, StateEffect, StateField, Compartment } from '@codemirror/state';
import { foldGutter, foldKeymap, bracketMatching, syntaxHighlighting, indentOnInput,
  codeFolding } from '@codemirror/language';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { search, searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { json } from '@codemirror/lang-json';
import { xml } from '@codemirror/lang-xml';
import { classHighlighter } from '@lezer/highlight';

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
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.doc ?? '',
      extensions: [
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
        EditorView.contentAttributes.of({ 'aria-label': opts.label ?? 'Code', spellcheck: 'false' }),
        keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...foldKeymap, indentWithTab]),
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
      ],
    }),
  });
  const handle = {
    view,
    getDoc: () => view.state.doc.toString(),
    /** Replace the text (not echoed to onChange); keeps the cursor where it can. */
    setDoc(text) {
      const current = view.state.doc.toString();
      if (current === text) return;
      quiet = true;
      try {
        const head = Math.min(view.state.selection.main.head, text.length);
        view.dispatch({ changes: { from: 0, to: current.length, insert: text }, selection: { anchor: head } });
      } finally {
        quiet = false;
      }
    },
    /** Mark a parse error at [from, to) with its message; from < 0 clears it. */
    setError(from, to, message) {
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
      const pairs = [];
      for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
      const effects = [setMarks.of(pairs)];
      if (scroll && pairs.length) {
        effects.push(EditorView.scrollIntoView(Math.min(pairs[0][0], view.state.doc.length), { y: 'nearest' }));
      }
      view.dispatch({ effects });
    },
    setReadOnly(ro) {
      view.dispatch({ effects: editable.reconfigure([EditorState.readOnly.of(ro), EditorView.editable.of(!ro)]) });
    },
    setLanguage(lang) {
      view.dispatch({ effects: language.reconfigure((languages[lang] ?? languages.text)()) });
    },
    hasFocus: () => view.hasFocus,
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
  // Tests and the console reach the editor through its host element.
  parent.toolscopeEditor = handle;
  return handle;
}
