// The source view's placeholder for a Markdown body: while nothing but blank lines follows the front matter, what
// the body holds ("How the subject uses it (Markdown).") is shown where it starts. Like @codemirror/view's
// `placeholder` (which only shows in an empty document, and a new file's front matter is not empty), it is a widget,
// never text: it cannot be typed over, kept in the change set or committed.
import { StateField, type EditorState, type Extension } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';

// The same fences as source-doc.ts (and operations/content/front-matter.ts) read.
const FENCE = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

/** Where an empty body starts (the line after the closing fence), or null when the body has text or there is none. */
export function emptyBodyAt(text: string): number | null {
  const open = FENCE.exec(text);
  if (!open) return null;
  const close = CLOSE.exec(text.slice(open[0].length));
  if (!close) return null;
  const after = open[0].length + close.index + close[0].length;
  const bodyStart = text.startsWith('\r\n', after) ? after + 2 : text.startsWith('\n', after) ? after + 1 : -1;
  return bodyStart >= 0 && !text.slice(bodyStart).trim() ? bodyStart : null;
}

class Hint extends WidgetType {
  constructor(readonly text: string) {
    super();
  }
  override eq(other: Hint) {
    return other.text === this.text;
  }
  toDOM() {
    const span = document.createElement('span');
    span.className = 'cm-body-hint';
    span.textContent = this.text;
    // The editor's label names the file; the hint is seen, as a form field's placeholder is, not read as text.
    span.setAttribute('aria-hidden', 'true');
    span.style.pointerEvents = 'none';
    return span;
  }
  override ignoreEvent() {
    return false;
  }
}

/** Shows `hint` at the start of the body while the body is empty. */
export function bodyHint(hint: string): Extension {
  const widget = Decoration.widget({ widget: new Hint(hint), side: 1 });
  const decorations = (state: EditorState): DecorationSet => {
    const at = emptyBodyAt(state.doc.toString());
    return at === null ? Decoration.none : Decoration.set([widget.range(at)]);
  };
  return StateField.define<DecorationSet>({
    create: decorations,
    update: (value, tr) => (tr.docChanged ? decorations(tr.state) : value),
    provide: (field) => EditorView.decorations.from(field),
  });
}
