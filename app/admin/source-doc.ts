// A content file's text is the one value the console edits: the form reads its fields out of the text and
// writes each change back into it, touching only the bytes of that change, so the raw view, the change set
// and git's diff all show exactly what the form did. Unknown keys, comments, key order, the quoting of
// untouched values and the Markdown body stay as written.
//
// Both formats are read for editing with `yaml`'s Document API (JSON is YAML's flow style), whose nodes know
// where they sit in the text: a change becomes splices at those places, not a re-serialised file.
import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, YAMLMap, YAMLSeq, Pair, LineCounter, type Node } from 'yaml';
import { isEmpty, isRecord, plain, sameValue, setIn, type Pointer } from './json-values.ts';

export type { Pointer } from './json-values.ts';

export interface SourceDoc {
  format: 'markdown' | 'json';
  /** The front matter (Markdown) or the whole object (JSON); absent when the text cannot be read. */
  data?: Record<string, unknown>;
  /** The Markdown after the front matter, exactly as written ('' for JSON). */
  body: string;
  error?: { message: string; line?: number };
}

export const formatOf = (path: string): SourceDoc['format'] => (path.endsWith('.json') ? 'json' : 'markdown');

// The same fences operations/content/front-matter.ts reads, so the console and the validator agree on the body.
const FENCE = /^---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

/** Offsets in the text: the YAML between the fences, and where the body starts. */
type FrontMatter = { yamlStart: number; yamlEnd: number; bodyStart: number };

function frontMatterOf(text: string): FrontMatter | 'no-fence' | 'not-closed' {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const open = FENCE.exec(text.slice(bom));
  if (!open) return 'no-fence';
  const yamlStart = bom + open[0].length;
  const close = CLOSE.exec(text.slice(yamlStart));
  if (!close) return 'not-closed';
  const yamlEnd = yamlStart + close.index;
  const after = yamlEnd + close[0].length;
  const bodyStart = text.startsWith('\r\n', after) ? after + 2 : text.startsWith('\n', after) ? after + 1 : after;
  return { yamlStart, yamlEnd, bodyStart };
}

const firstLine = (message: string) => message.split('\n')[0]!;

// The form reads the text on every keystroke and a change reads it again: the last few reads are kept.
const recent: Array<{ path: string; text: string; read: SourceDoc }> = [];

/** The value a file's text holds, or why it cannot be read (with the line when known). */
export function readSource(path: string, text: string): SourceDoc {
  const hit = recent.find((r) => r.text === text && formatOf(r.path) === formatOf(path));
  if (hit) return hit.read;
  const read = formatOf(path) === 'json' ? readJson(text) : readMarkdown(text);
  recent.unshift({ path, text, read });
  recent.length = Math.min(recent.length, 4);
  return read;
}

function readJson(text: string): SourceDoc {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message)?.[1];
    const line = Number(/line (\d+)/.exec(message)?.[1]) || (position && text.slice(0, Number(position)).split('\n').length);
    return { format: 'json', body: '', error: { message: `JSON: ${message}`, ...(line ? { line } : {}) } };
  }
  if (!isRecord(value)) return { format: 'json', body: '', error: { message: 'JSON: the file must hold one object ({ … })', line: 1 } };
  return { format: 'json', data: value, body: '' };
}

function readMarkdown(text: string): SourceDoc {
  const fm = frontMatterOf(text);
  if (fm === 'no-fence')
    return { format: 'markdown', body: text.replace(/^\uFEFF/, ''), error: { message: 'must start with YAML front matter between "---" lines', line: 1 } };
  if (fm === 'not-closed') return { format: 'markdown', body: '', error: { message: 'front matter is not closed: add a line with "---" after it', line: 1 } };
  const body = text.slice(fm.bodyStart);
  const lineCounter = new LineCounter();
  const doc = parseDocument(text.slice(fm.yamlStart, fm.yamlEnd), { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  // +1 for the opening fence.
  if (error) return { format: 'markdown', body, error: { message: `YAML: ${firstLine(error.message)}`, line: lineCounter.linePos(error.pos[0]).line + 1 } };
  if (doc.contents !== null && !isMap(doc.contents))
    return { format: 'markdown', body, error: { message: 'YAML: the front matter must be keys with values', line: 2 } };
  return { format: 'markdown', data: (doc.toJS() as Record<string, unknown> | null) ?? {}, body };
}

/** The Markdown text with its body replaced; the front matter is kept byte for byte. */
export function withBody(text: string, body: string): string {
  const fm = frontMatterOf(text);
  if (fm === 'no-fence') return body;
  if (fm === 'not-closed') throw new Error('The front matter is not closed, so the body cannot be told from it.');
  const head = text.slice(0, fm.bodyStart);
  return head.endsWith('\n') || body === '' ? head + body : `${head}${eolOf(text)}${body}`;
}

/**
 * The text with the value at `pointer` set (or removed, with `undefined`), changed as little as possible. A
 * new top-level key goes after the nearest key before it in `order` (the schema's order) that the file has.
 * A list is changed by an item's pointer or by passing the whole new list: kept items keep their text even
 * when they move. Throws when the text cannot be read (edit it in the raw view first).
 */
export function withField(path: string, text: string, pointer: Pointer, value: unknown, order?: readonly string[]): string {
  const read = readSource(path, text);
  if (!read.data) throw new Error(`The file cannot be read, so its fields cannot be changed: ${read.error?.message ?? 'no data'}`);
  const next = setIn(read.data, pointer, plain(value)) as Record<string, unknown>;
  if (sameValue(next, read.data)) return text;
  const json = read.format === 'json';
  const fm = json ? undefined : (frontMatterOf(text) as FrontMatter);
  const [start, end] = fm ? [fm.yamlStart, fm.yamlEnd] : [0, text.length];
  const region = text.slice(start, end);
  // Finest first; each coarser way is tried only if the finer one did not give exactly the new value.
  for (const depth of [Infinity, 1]) {
    try {
      const candidate = text.slice(0, start) + spliced(region, read.data, next, { json, order, depth }) + text.slice(end);
      const again = readSource(path, candidate);
      if (again.data && sameValue(again.data, next) && again.body === read.body) return candidate;
    } catch (error) {
      if (!(error instanceof Unplaceable)) throw error;
    }
  }
  return json ? `${JSON.stringify(next, null, 2)}\n` : text.slice(0, start) + (isEmpty(next) ? '' : yamlText(next)) + text.slice(end);
}

/** A shape this module does not edit in place (duplicate keys, anchors, odd layout): a coarser way is tried. */
class Unplaceable extends Error {}

type Edit = { from: number; to: number; insert: string };
/** `depth`: below it a changed value is written whole. */
type Options = { json: boolean; order?: readonly string[]; depth: number };

const eolOf = (text: string) => (text.includes('\r\n') ? '\r\n' : '\n');
const TO_STRING = { lineWidth: 0, flowCollectionPadding: false } as const;
/** Months and days are quoted, as the content's conventions ask, so that no YAML reader takes them for dates. */
const DATE_LIKE = /^\d{4}-\d{2}(-\d{2})?$/;

function spliced(src: string, old: Record<string, unknown>, next: Record<string, unknown>, options: Options): string {
  const doc = parseDocument(src, { uniqueKeys: true, keepSourceTokens: false });
  if (doc.errors.length) unplaceable('the text does not parse as YAML');
  const edits: Edit[] = [];
  const s = new Splicer(src, options, edits);
  const root = doc.contents;
  // Empty front matter: the new keys are all there is.
  if (root === null) edits.push({ from: src.length, to: src.length, insert: (src === '' || src.endsWith('\n') ? '' : s.eol) + s.lines(yamlText(next)) });
  else s.patch(root, old, next, 0, options.json, () => edits.push({ from: 0, to: src.length, insert: isEmpty(next) ? '' : s.lines(yamlText(next)) }));
  return applyEdits(src, edits);
}

function applyEdits(src: string, edits: Edit[]): string {
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.from - b.from || a.to - b.to || a.i - b.i);
  let [out, at] = ['', 0];
  for (const edit of sorted) {
    out += (edit.from < at ? unplaceable('edits overlap') : src.slice(at, edit.from)) + edit.insert;
    at = edit.to;
  }
  return out + src.slice(at);
}

function unplaceable(why: string): never {
  throw new Unplaceable(why);
}
const rangeOf = (node: Node | null | undefined) => node?.range ?? unplaceable('a node without a place in the text');

class Splicer {
  readonly eol: string;
  constructor(
    private readonly src: string,
    private readonly options: Options,
    private readonly edits: Edit[],
  ) {
    this.eol = eolOf(src);
  }

  lines = (text: string) => (this.eol === '\n' ? text : text.replace(/\r?\n/g, this.eol));
  private lineStart = (pos: number) => this.src.lastIndexOf('\n', pos - 1) + 1;
  /** The end of the line `pos` is on, after its newline (or `pos` itself when it already starts a line). */
  private lineEnd = (pos: number) => (pos > 0 && this.src[pos - 1] === '\n' ? pos : this.src.indexOf('\n', pos) + 1 || this.src.length);
  private startsLine = (pos: number) => this.src.slice(this.lineStart(pos), pos).trim() === '';
  private column = (pos: number) => pos - this.lineStart(pos);
  private indentOfLine = (pos: number) => /^[ \t]*/.exec(this.src.slice(this.lineStart(pos)))![0].length;
  private edit = (from: number, to: number, insert: string): void => {
    this.edits.push({ from, to, insert: this.lines(insert) });
  };

  /** Changes `node` (which holds `old`, inside a flow collection or not) to hold `next`; `replace` writes the entry whole. */
  patch(node: Node, old: unknown, next: unknown, depth: number, inFlow: boolean, replace: () => void): void {
    if (sameValue(old, next)) return;
    if (depth >= this.options.depth) return replace();
    if (isMap(node) && isRecord(old) && isRecord(next) && !isEmpty(next)) return this.patchMap(node, old, next, depth);
    if (isSeq(node) && Array.isArray(old) && Array.isArray(next) && next.length && node.items.length) return this.patchSeq(node, old, next, depth);
    if (isScalar(node) && (next === null || typeof next !== 'object') && this.replaceScalar(node, next, inFlow)) return;
    replace();
  }

  /** A one-line scalar replaced by another in place, so a comment or spacing after it stays. */
  private replaceScalar(node: Scalar, value: unknown, inFlow: boolean): boolean {
    const [from, to] = rangeOf(node);
    if (from === to || node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED) return false;
    const bare = Object.assign(new Scalar(node.value), { type: node.type }); // its comment stays where it is
    const pair = this.options.json || inFlow ? '' : pairText('k', null, value, bare);
    if (pair && (!pair.startsWith('k: ') || pair.indexOf('\n') !== pair.length - 1)) return false;
    this.edit(from, to, this.options.json ? JSON.stringify(value) : inFlow ? flowYaml(value, bare) : pair.slice(3, -1));
    return true;
  }

  // -- maps --

  private keyOf(pair: Pair): string {
    if (!isScalar(pair.key) || pair.key.value === null || typeof pair.key.value === 'object') unplaceable('a key that is not plain text');
    return String(pair.key.value);
  }

  /** A block map entry's extent: from its line (or its key, after "- ") to the end of its value's line. */
  private pairSpan(pair: Pair): [number, number] {
    const key = rangeOf(pair.key as Node)[0];
    const valueEnd = rangeOf((pair.value ?? pair.key) as Node)[2];
    return [this.startsLine(key) ? this.lineStart(key) : key, this.lineEnd(valueEnd)];
  }

  private patchMap(node: YAMLMap, old: Record<string, unknown>, next: Record<string, unknown>, depth: number): void {
    const pairs = node.items;
    const keys = pairs.map((p) => this.keyOf(p));
    if (new Set(keys).size !== keys.length) unplaceable('duplicate keys');
    const flow = Boolean(node.flow) || this.options.json;
    pairs.forEach((pair, i) => {
      const key = keys[i]!;
      if (!Object.hasOwn(next, key)) return this.removeEntry(node, i, flow);
      const value = pair.value as Node | null;
      const replace = () => (flow ? this.replaceFlowValue(value ?? (pair.key as Node), next[key], value) : this.replacePair(node, pair, next[key]));
      if (value) this.patch(value, old[key], next[key], depth + 1, flow, replace);
      else if (!sameValue(old[key], next[key])) replace();
    });
    const added = Object.keys(next).filter((k) => !keys.includes(k));
    if (!added.length) return;
    const order = depth === 0 && this.options.order ? this.options.order : Object.keys(next);
    const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : Infinity);
    for (const key of added.sort((a, b) => rank(a) - rank(b))) {
      const at = rank(key);
      const before = at === Infinity ? -1 : keys.findLastIndex((k) => rank(k) < at && Object.hasOwn(next, k));
      const after = at === Infinity || before >= 0 ? -1 : keys.findIndex((k) => rank(k) > at && rank(k) !== Infinity && Object.hasOwn(next, k));
      const anchor = before >= 0 ? before : after >= 0 ? after : keys.findLastIndex((k) => Object.hasOwn(next, k));
      if (anchor < 0) unplaceable('no key left to place a new one beside');
      if (flow) this.insertFlowPair(node, anchor, after >= 0 && before < 0, key, next[key]);
      else this.insertPair(node, anchor, after >= 0 && before < 0, key, next[key]);
    }
  }

  private replacePair(node: YAMLMap, pair: Pair, value: unknown): void {
    const [from, to] = this.pairSpan(pair);
    const indent = this.column(rangeOf((node.items[0] as Pair).key as Node)[0]);
    const text = pairText(this.keyOf(pair), pair.key as Scalar, value, pair.value as Node | null);
    this.edit(from, to, indented(text, indent, this.startsLine(rangeOf(pair.key as Node)[0])));
  }

  private insertPair(node: YAMLMap, anchor: number, beforeAnchor: boolean, key: string, value: unknown): void {
    const pairs = node.items;
    const indent = this.column(rangeOf(pairs[0]!.key as Node)[0]);
    const text = pairText(key, null, value, null);
    const [from, to] = this.pairSpan(pairs[anchor]!);
    const keyStart = rangeOf(pairs[anchor]!.key as Node)[0];
    if (!beforeAnchor) this.edit(to, to, (this.src[to - 1] === '\n' ? '' : '\n') + indented(text, indent, true));
    else if (this.startsLine(keyStart)) this.edit(from, from, indented(text, indent, true));
    else this.edit(keyStart, keyStart, indented(text, indent, false) + ' '.repeat(indent)); // the first key of a list item
  }

  private insertFlowPair(node: YAMLMap, anchor: number, beforeAnchor: boolean, key: string, value: unknown): void {
    const pairs = node.items;
    const sep = this.separator(node);
    const keyStart = rangeOf(pairs[anchor]!.key as Node)[0];
    const inline = !this.src.slice(rangeOf(node)[0], rangeOf(node)[1]).includes('\n');
    const text = this.options.json
      ? `${JSON.stringify(key)}: ${inline ? compactJson(value) : jsonText(value, this.indentOfLine(keyStart), this.column(keyStart) + key.length + 4)}`
      : `${flowYaml(key, null)}: ${flowYaml(value, null)}`;
    if (beforeAnchor) return this.edit(keyStart, keyStart, text + sep);
    const end = rangeOf((pairs[anchor]!.value ?? pairs[anchor]!.key) as Node)[1];
    this.edit(end, end, sep + text);
  }

  // -- flow collections: entries between brackets, separated by commas --

  private itemStart = (item: Node | Pair) => rangeOf((item instanceof Pair ? item.key : item) as Node)[0];
  private itemEnd = (item: Node | Pair) => rangeOf((item instanceof Pair ? (item.value ?? item.key) : item) as Node)[1];

  /** The text between two entries of a flow collection (", " or ",\n    "), from the collection itself. */
  private separator(node: YAMLMap | YAMLSeq): string {
    const items = node.items as Array<Node | Pair>;
    const lead = items.length ? this.src.slice(rangeOf(node)[0] + 1, this.itemStart(items[0]!)) : '';
    const sep = items.length >= 2 ? this.src.slice(this.itemEnd(items[0]!), this.itemStart(items[1]!)) : lead.includes('\n') ? `,${lead}` : ', ';
    return /^\s*,\s*$/.test(sep) ? sep : unplaceable('an entry separator with comments');
  }

  private replaceFlowValue(node: Node, value: unknown, hint: Node | null): void {
    const [from, to] = rangeOf(node);
    const json = isPrimitive(value) ? JSON.stringify(value) : jsonText(value, this.indentOfLine(from), this.column(from));
    this.edit(from, to, this.options.json ? json : flowYaml(value, hint, true));
  }

  private removeEntry(node: YAMLMap | YAMLSeq, index: number, flow: boolean): void {
    const items = node.items as Array<Node | Pair>;
    const item = items[index]!;
    if (!flow && !(item instanceof Pair)) unplaceable('block list items are rebuilt, not removed one by one');
    if (!flow && this.startsLine(this.itemStart(item))) return this.edit(...this.pairSpan(item as Pair), '');
    // The first key of a list item ("- label: …") or a flow entry: up to the next entry, or from the one before.
    if (!flow && items[index + 1]) return this.edit(this.itemStart(item), this.itemStart(items[index + 1]!), '');
    if (!flow) unplaceable('the only entry of a list item');
    if (index > 0) return this.edit(this.itemEnd(items[index - 1]!), this.itemEnd(items[index]!), '');
    if (items[1]) return this.edit(this.itemStart(items[0]!), this.itemStart(items[1]), '');
    unplaceable('the only entry of a collection');
  }

  // -- lists --

  private patchSeq(node: YAMLSeq, old: unknown[], next: unknown[], depth: number): void {
    const items = node.items as Node[];
    if (items.length !== old.length) unplaceable('a list the parser reads differently');
    const flow = Boolean(node.flow) || this.options.json;
    // An item moved (it is found elsewhere in the old list) means the list is written again; else item by item.
    const moved = next.some((v, i) => !sameValue(v, old[i]) && old.some((o, j) => j !== i && sameValue(o, v)));
    if (old.length === next.length && !moved) {
      items.forEach((item, i) =>
        this.patch(item, old[i], next[i], depth + 1, flow, () => (flow ? this.replaceFlowValue(item, next[i], item) : this.replaceItem(node, i, next[i]))),
      );
      return;
    }
    // Added, removed or moved items: the list is written again, each kept item with its own text.
    const texts = flow ? items.map((item) => this.src.slice(rangeOf(item)[0], rangeOf(item)[1])) : items.map((_, i) => this.itemSpan(node, i));
    const used = new Set<number>();
    const reuse = (value: unknown, at: number) => {
      const j = !used.has(at) && at < old.length && sameValue(old[at], value) ? at : old.findIndex((o, k) => !used.has(k) && sameValue(o, value));
      if (j >= 0) used.add(j);
      return j;
    };
    const hint = items.find((item) => isScalar(item)) ?? items[0] ?? null;
    if (flow) {
      const [open, close] = [rangeOf(node)[0], rangeOf(node)[1] - 1];
      if (this.src[close] !== ']') unplaceable('a list without its closing bracket');
      const first = rangeOf(items[0])[0];
      const last = rangeOf(items[items.length - 1])[1];
      const inline = !this.src.slice(open, close).includes('\n');
      const sep = this.separator(node);
      const parts = next.map((value, i) => {
        const j = reuse(value, i);
        if (j >= 0) return texts[j] as string;
        if (!this.options.json) return flowYaml(value, hint);
        // Inline among inline items (["a", "b"] or { "label": … } on one line each), else indented as JSON is.
        return inline || texts.every((t) => !String(t).includes('\n')) ? compactJson(value) : jsonText(value, this.indentOfLine(first), this.column(first));
      });
      return this.edit(first, last, parts.join(sep));
    }
    const spans = texts as Array<[number, number]>;
    const from = spans[0]![0];
    const to = spans[spans.length - 1]![1];
    const indent = this.column(rangeOf(node)[0]);
    const parts = next.map((value, i) => {
      const j = reuse(value, i);
      const text = j >= 0 ? this.src.slice(...spans[j]!) : indented(itemText(value, hint, false), indent, true);
      return text.endsWith('\n') ? text : text + this.eol;
    });
    const joined = parts.join('');
    this.edit(from, to, this.src.slice(from, to).endsWith('\n') ? joined : joined.replace(/\r?\n$/, ''));
  }

  /** A block list item's extent: its "- " line to the next item's, the last one to the end of its value's line. */
  private itemSpan(node: YAMLSeq, index: number): [number, number] {
    const items = node.items as Node[];
    const start = this.lineStart(rangeOf(items[index])[0]);
    if (!/^[ \t]*-/.test(this.src.slice(start, rangeOf(items[index])[0]))) unplaceable('a list item not on its own line');
    return [start, items[index + 1] ? this.lineStart(rangeOf(items[index + 1])[0]) : this.lineEnd(rangeOf(items[index])[2])];
  }

  private replaceItem(node: YAMLSeq, index: number, value: unknown): void {
    const [from, to] = this.itemSpan(node, index);
    const indent = this.column(rangeOf(node)[0]);
    const item = (node.items as Node[])[index]!;
    // Comment lines after the item belong to its span; they stay.
    const valueEnd = this.lineEnd(rangeOf(item)[2]);
    this.edit(from, Math.min(to, valueEnd), indented(itemText(value, item, true), indent, true));
  }
}

/** `text`'s lines indented by `indent` spaces (the first only when it starts a line); empty lines stay empty. */
const indented = (text: string, indent: number, first: boolean) => text.replace(/^(?=.)/gm, (_, at: number) => (at === 0 && !first ? '' : ' '.repeat(indent)));

/** A YAML node for `value`, styled like the node it replaces or sits beside (quoting, block or flow). */
function styled(doc: Document, value: unknown, hint: Node | null | undefined, own: boolean): Node {
  const node = doc.createNode(value) as Node;
  styleLike(node, hint, own);
  return node;
}

/** Whether a string had to be quoted to read back as itself (YAML would quote it if written plainly). */
const neededQuotes = (scalar: Scalar) =>
  typeof scalar.value === 'string' &&
  (scalar.type === Scalar.QUOTE_DOUBLE || scalar.type === Scalar.QUOTE_SINGLE) &&
  /^["']/.test(new Document(scalar.value).toString());

/** `own`: the hint is the node being replaced (its comment stays), not a neighbour. */
function styleLike(node: Node, hint: Node | null | undefined, own: boolean): void {
  if (isScalar(node)) {
    // Quotes the old value needed (an empty string, a trailing space typed a moment ago) are not a style to keep:
    // only quotes chosen where plain text would do carry over to the new value.
    if (isScalar(hint) && typeof hint.value === typeof node.value && hint.type && !neededQuotes(hint)) {
      node.type = hint.type;
      if (own && hint.comment) node.comment = hint.comment;
    }
    if (typeof node.value === 'string' && DATE_LIKE.test(node.value) && (!node.type || node.type === Scalar.PLAIN)) node.type = Scalar.QUOTE_DOUBLE;
  } else if (isSeq(node)) {
    const hints = isSeq(hint) ? (hint.items as Node[]) : [];
    if (isSeq(hint) && hint.flow && node.items.every((item) => isScalar(item))) node.flow = true;
    node.items.forEach((item, i) => styleLike(item as Node, hints[i] ?? hints.find((h) => isScalar(h)) ?? null, own && i < hints.length));
  } else if (isMap(node)) {
    for (const pair of node.items) styleLike(pair.value as Node, isMap(hint) ? hint.get(pair.key, true) : null, own);
  }
}

/** YAML for `value` (a node made by `make` when given): a file's front matter, `key: value`, or `- value`. */
function yamlText(value: unknown, make?: (doc: Document) => Node): string {
  const doc = new Document();
  doc.contents = make ? make(doc) : styled(doc, value, null, false);
  return doc.toString(TO_STRING);
}
const pairText = (key: string, keyHint: Scalar | null, value: unknown, hint: Node | null) =>
  yamlText(value, (doc) =>
    Object.assign(new YAMLMap(), { items: [new Pair(Object.assign(new Scalar(key), { type: keyHint?.type }), styled(doc, value, hint, true))] }),
  );
const listOf = (doc: Document, value: unknown, hint: Node | null, own: boolean) => Object.assign(new YAMLSeq(), { items: [styled(doc, value, hint, own)] });
const itemText = (value: unknown, hint: Node | null, own: boolean) => yamlText(value, (doc) => listOf(doc, value, hint, own));

/** A value written inside a YAML flow collection (where ", " and "]" end a plain word). */
function flowYaml(value: unknown, hint: Node | null, own = false): string {
  const toFlow = (n: unknown): void => {
    if (!isSeq(n) && !isMap(n)) return;
    n.flow = true;
    for (const item of n.items) toFlow(item instanceof Pair ? item.value : item);
  };
  const text = yamlText(value, (doc) => {
    const seq = listOf(doc, value, hint, own);
    toFlow(seq);
    return seq;
  });
  return text.trimEnd().slice(1, -1); // without the list's brackets
}

const WIDTH = 160; // the repository's print width
const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** JSON at `column` of a line indented by `indent`, as the content writes it: plain lists and objects on one line
 * when they fit (`["a", "b"]`, `{ "label": "…", "url": "…" }`), the rest over lines indented by 2. */
function jsonText(value: unknown, indent: number, column: number): string {
  const flat = compactJson(value);
  const simple = Array.isArray(value) ? value.every(isPrimitive) : isRecord(value) ? Object.values(value).every(isPrimitive) : true;
  if (simple && column + flat.length < WIDTH) return flat;
  const [pad, inner] = [' '.repeat(indent), ' '.repeat(indent + 2)];
  if (Array.isArray(value)) return `[\n${value.map((v) => inner + jsonText(v, indent + 2, indent + 2)).join(',\n')}\n${pad}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => {
    const key = `${JSON.stringify(k)}: `;
    return inner + key + jsonText(v, indent + 2, indent + 2 + key.length);
  });
  return `{\n${entries.join(',\n')}\n${pad}}`;
}

function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  const entries = isRecord(value) ? Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`) : [];
  return !isRecord(value) ? JSON.stringify(value) : entries.length ? `{ ${entries.join(', ')} }` : '{}';
}
