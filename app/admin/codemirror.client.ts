// The console's one CodeMirror 6 setup, composed as data: Markdown with YAML front matter (or JSON), lint
// marks from the server's problems, completions from the content schema, and the console's shortcuts; and
// the merge views (a diff to review, a proposal to accept or reject chunk by chunk). Browser only: Remix
// leaves `.client` modules out of the server build, and only console routes import it.
import { basicSetup, EditorView } from 'codemirror';
import { Compartment, EditorState, Prec, type Extension } from '@codemirror/state';
import { keymap } from '@codemirror/view';
// markdownLanguage, not markdown(): the latter brings HTML, CSS and JavaScript highlighting along (~60 kB gzip).
import { markdownLanguage } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { yaml, yamlFrontmatter } from '@codemirror/lang-yaml';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { autocompletion, type CompletionContext } from '@codemirror/autocomplete';
import { MergeView, unifiedMergeView, getChunks, acceptChunk } from '@codemirror/merge';
import { bodyHint } from './body-hint.client.ts';
import { bodyHint as hintOf } from './groups.ts';
import { completionsAt, kindOfPath, listContinuation, type LineProblem } from './schema-help.ts';
import { minimalChange } from './text-edits.ts';
import type { ContentSchemaOut } from './types.ts';

export interface Shortcuts {
  /** Mod-S: keep the text in the change set now. */
  save?(): void;
  /** Mod-Enter: go on to review and commit. */
  commit?(): void;
}

function language(path: string): Extension {
  // Markdown with its YAML front matter highlighted as YAML; JSON (the site file) read as YAML, which it is.
  return path.endsWith('.json') ? yaml() : yamlFrontmatter({ content: markdownLanguage });
}

/** Syntax colours from the console's palette, legible (WCAG AA) on its light and dark backgrounds. */
const highlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: [tags.propertyName, tags.definition(tags.propertyName), tags.keyword], color: 'var(--syntax-key)' },
    { tag: [tags.string, tags.special(tags.string)], color: 'var(--syntax-string)' },
    { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syntax-atom)' },
    { tag: [tags.comment, tags.meta, tags.processingInstruction, tags.contentSeparator], color: 'var(--syntax-muted)' },
    { tag: tags.heading, color: 'var(--syntax-key)', fontWeight: '700' },
    { tag: tags.emphasis, fontStyle: 'italic' },
    { tag: tags.strong, fontWeight: '700' },
    { tag: [tags.link, tags.url], color: 'var(--syntax-link)', textDecoration: 'underline' },
    { tag: tags.invalid, color: 'var(--danger)' },
  ]),
);

/** On the console's colours, so the dark theme reaches the gutters, the cursor and the selection too. */
const theme = EditorView.theme({
  '&': { fontSize: '14px', height: '100%', color: 'var(--ink)', backgroundColor: 'var(--surface)' },
  '.cm-scroller': { fontFamily: 'var(--mono, ui-monospace, SFMono-Regular, Menlo, monospace)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--ink)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--ink)' },
  '.cm-gutters': { backgroundColor: 'var(--surface-2)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--focus) 18%, var(--surface-2))', color: 'var(--ink)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--focus) 7%, transparent)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'color-mix(in srgb, var(--focus) 30%, transparent) !important',
  },
  '.cm-tooltip': { backgroundColor: 'var(--surface)', color: 'var(--ink)', border: '1px solid var(--line)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': { backgroundColor: 'var(--focus)', color: '#fff' },
  '.cm-completionDetail': { color: 'inherit', opacity: '0.85', fontStyle: 'normal', marginLeft: '0.75em' },
  '.cm-panels': { backgroundColor: 'var(--surface-2)', color: 'var(--ink)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--surface-2)', color: 'var(--ink)', border: '1px solid var(--line)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-body-hint': { color: 'var(--muted)', fontStyle: 'italic' },
});

function keys(shortcuts: Shortcuts): Extension {
  return keymap.of([
    { key: 'Mod-s', preventDefault: true, run: () => (shortcuts.save?.(), true) },
    { key: 'Mod-Enter', preventDefault: true, run: () => (shortcuts.commit ? (shortcuts.commit(), true) : false) },
  ]);
}

export interface SourceEditor {
  view: EditorView;
  setProblems(problems: LineProblem[]): void;
  /**
   * Makes the text `text` (an accepted AI edit, a change made in the form) as one undoable change of only the
   * part that differs, so the cursor and the undo history around it stay where they were.
   */
  replace(text: string): void;
  setReadOnly(readOnly: boolean): void;
  goToLine(line: number): void;
  destroy(): void;
}

export function createSourceEditor(options: {
  parent: HTMLElement;
  doc: string;
  path: string;
  schema: ContentSchemaOut;
  label: string;
  /** The language the text is written in, for the browser's spell-check of prose. */
  lang?: string;
  readOnly?: boolean;
  onChange(text: string): void;
  shortcuts: Shortcuts;
}): SourceEditor {
  const { path, schema } = options;
  // Offered while typing (a letter, or right after `key: `, `[`, `, ` or `- `), not only on Ctrl+Space.
  const complete = (context: CompletionContext) => {
    const result = completionsAt(schema, path, context.state.doc.toString(), context.pos);
    if (!result || (result.from === context.pos && !context.explicit && !/[:\s[,-]$/.test(context.state.sliceDoc(context.pos - 1, context.pos)))) return null;
    return {
      from: result.from,
      options: result.options.map((o) => ({
        label: o.label,
        detail: o.detail,
        info: o.info || undefined,
        apply: o.apply,
        type: o.apply ? 'property' : 'enum',
      })),
      validFor: /^[\w-]*$/,
    };
  };
  // Enter after `contributions:` starts the list, Enter after an item starts the next, Enter on an empty item ends it.
  const continueList = Prec.high(
    keymap.of([
      {
        key: 'Enter',
        run(view) {
          const { main } = view.state.selection;
          if (!main.empty || view.state.readOnly) return false;
          const edit = listContinuation(schema, path, view.state.doc.toString(), main.head);
          if (!edit) return false;
          view.dispatch({ changes: edit, selection: { anchor: edit.from + edit.insert.length }, scrollIntoView: true, userEvent: 'input' });
          return true;
        },
      },
    ]),
  );
  const editable = new Compartment();
  const editability = (readOnly: boolean) => [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
  // A file written with CRLF keeps its line endings (CodeMirror joins lines with \n unless told otherwise).
  const lineEndings = options.doc.includes('\r\n') ? [EditorState.lineSeparator.of('\r\n')] : [];
  // A Markdown file's empty body shows what it is for (a new file's body starts empty: groups.ts templateFor).
  const body = path.endsWith('.md') ? kindOfPath(schema, path)?.kind.body : undefined;
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        ...lineEndings,
        keys(options.shortcuts),
        continueList,
        basicSetup,
        language(path),
        highlight,
        autocompletion({ override: [complete], activateOnTyping: true }),
        lintGutter(),
        theme,
        EditorView.lineWrapping,
        body ? bodyHint(hintOf(body)) : [],
        editable.of(editability(Boolean(options.readOnly))),
        // tabindex: the editor is reachable by Tab like any field (and so its scroller holds a focusable element).
        // spellcheck: the browser marks misspelt prose in the file's own language.
        EditorView.contentAttributes.of({
          'aria-label': options.label,
          tabindex: '0',
          spellcheck: 'true',
          ...(options.lang ? { lang: options.lang } : {}),
        }),
        EditorView.updateListener.of((update) => {
          // sliceDoc joins lines with the file's own line ending (doc.toString() always with \n).
          if (update.docChanged) options.onChange(update.state.sliceDoc());
        }),
      ],
    }),
  });
  return {
    view,
    setProblems(problems) {
      const doc = view.state.doc;
      const diagnostics: Diagnostic[] = problems.map((p) => {
        const line = doc.line(Math.min(Math.max(1, p.line), doc.lines));
        return { from: line.from, to: line.to, severity: 'error', message: p.message, source: 'validate' };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
    replace(text) {
      // Positions count a line break as one, whatever the file's line ending: compare in that space.
      const change = minimalChange(view.state.doc.toString(), text.replace(/\r\n/g, '\n'));
      if (change) view.dispatch({ changes: change });
    },
    setReadOnly(readOnly) {
      view.dispatch({ effects: editable.reconfigure(editability(readOnly)) });
    },
    goToLine(line) {
      const target = view.state.doc.line(Math.min(Math.max(1, line), view.state.doc.lines));
      view.dispatch({ selection: { anchor: target.from }, effects: EditorView.scrollIntoView(target.from, { y: 'center' }) });
      view.focus();
    },
    destroy: () => view.destroy(),
  };
}

/** A read-only view, named for assistive technology (each side of a diff is a text of its own). */
const readOnly = (path: string, label: string): Extension[] => [
  basicSetup,
  language(path),
  highlight,
  theme,
  EditorView.lineWrapping,
  EditorState.readOnly.of(true),
  EditorView.editable.of(false),
  EditorView.contentAttributes.of({ 'aria-label': label, tabindex: '0' }),
];

/** A read-only diff of two texts, side by side or unified. */
export function createDiffView(options: { parent: HTMLElement; before: string; after: string; path: string; layout: 'split' | 'unified'; label: string }): {
  destroy(): void;
} {
  if (options.layout === 'split') {
    const merge = new MergeView({
      parent: options.parent,
      a: { doc: options.before, extensions: readOnly(options.path, `${options.label}: before`) },
      b: { doc: options.after, extensions: readOnly(options.path, `${options.label}: after`) },
      collapseUnchanged: { margin: 3, minSize: 6 },
      gutter: true,
    });
    return { destroy: () => merge.destroy() };
  }
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.after,
      extensions: [
        ...readOnly(options.path, options.label),
        unifiedMergeView({ original: options.before, mergeControls: false, collapseUnchanged: { margin: 3, minSize: 6 }, gutter: true }),
      ],
    }),
  });
  return { destroy: () => view.destroy() };
}

export interface ProposalView {
  /** The text as the editor has decided so far: accepted chunks in, rejected ones out. */
  text(): string;
  /** Chunks still waiting for accept or reject. */
  pending(): number;
  acceptAll(): void;
  destroy(): void;
}

/** Accept and reject as real buttons: reachable by Tab, pressed by Enter or Space (CodeMirror's own answer mouse presses only). */
function chunkButton(type: 'accept' | 'reject', action: (event: MouseEvent) => void): HTMLElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.name = type;
  button.className = `chunk-${type}`;
  button.textContent = type === 'accept' ? 'Accept' : 'Reject';
  button.setAttribute('aria-label', type === 'accept' ? 'Accept this proposed change' : 'Reject this proposed change');
  button.addEventListener('click', (event) => action(event));
  return button;
}

/**
 * A model's proposal over the current text, with accept and reject on each chunk (CodeMirror's unified merge
 * view). Rejecting a chunk puts the current text back; accepting keeps the proposal.
 */
export function createProposalView(options: {
  parent: HTMLElement;
  current: string;
  proposed: string;
  path: string;
  label: string;
  onChange(pending: number): void;
}): ProposalView {
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.proposed,
      extensions: [
        basicSetup,
        language(options.path),
        highlight,
        theme,
        EditorView.lineWrapping,
        unifiedMergeView({ original: options.current, mergeControls: chunkButton, gutter: true, allowInlineDiffs: false }),
        EditorView.contentAttributes.of({ 'aria-label': options.label, tabindex: '0' }),
        EditorView.updateListener.of(() => options.onChange(getChunks(view.state)?.chunks.length ?? 0)),
      ],
    }),
  });
  return {
    text: () => view.state.doc.toString(),
    pending: () => getChunks(view.state)?.chunks.length ?? 0,
    acceptAll() {
      for (let chunks = getChunks(view.state)?.chunks ?? []; chunks.length; chunks = getChunks(view.state)?.chunks ?? []) {
        if (!acceptChunk(view, chunks[0]!.fromB)) break;
      }
      options.onChange(0);
    },
    destroy: () => view.destroy(),
  };
}
