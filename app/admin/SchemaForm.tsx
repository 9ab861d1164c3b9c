// The form view of a content file, generated from its kind's JSON Schema (the zod schemas as admin_schema
// describes them): labels and help from the schema, one widget per shape, list controls, problems beside
// their fields. No form is written per kind: a field added to a zod schema appears here by itself, as
// Keystatic's editors follow their schema. The value comes from the file's text and each change goes back
// into it (source-doc.ts), so this view and the raw one are two views of one buffer.
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  FormContext,
  Group,
  IconButton,
  LeafField,
  ProblemList,
  useForm,
  type FieldProps,
  type FormContextValue,
  type PartProps,
  type Placed,
} from './SchemaFormControls.tsx';
import {
  emptyValue,
  humanise,
  idFor,
  isRecord,
  optionLabel,
  pointerSegments,
  preview,
  resolve,
  singular,
  widgetFor,
  type FieldPointer,
  type FormProblem,
  type JsonSchema,
  type Vocabulary,
  type Widget,
} from './schema-widgets.ts';
import { sameValue } from './json-values.ts';

export type { FieldPointer, FormProblem, JsonSchema, Vocabulary } from './schema-widgets.ts';

export interface SchemaFormProps {
  /** Prefix of every element id (one form per page, or one per file side by side). */
  idPrefix: string;
  /**
   * An object schema: a kind's front matter, or a JSON file. Keep it and `vocabulary` the same objects from one
   * render to the next (memoise them): fields are compared by them, so a keystroke re-renders only its field.
   */
  schema: JsonSchema;
  /** Values and titles of the lists `x-vocabulary` names: `{ tags: [{ value: 'ai', label: 'AI' }, …], … }`. */
  vocabulary: Vocabulary;
  value: Record<string, unknown>;
  /** A field set, or removed with `undefined`; lists change by an item's pointer or as a whole. */
  onChange(pointer: FieldPointer, value: unknown): void;
  /** The Markdown body, edited under the fields. */
  body?: { value: string; label: string; onChange(body: string): void; /** Shown while the body is empty; never part of the text. */ placeholder?: string };
  problems: readonly FormProblem[];
  readOnly?: boolean;
  /** The file's language, for spell-check and `lang`. */
  lang?: string;
  /** For a translation: the English values, shown beside each field. */
  english?: Record<string, unknown>;
}

const NONE: readonly Placed[] = [];
/** Problems under `key`, with the path below it. */
const under = (problems: readonly Placed[], key: string | number) => {
  const found = problems.filter((p) => p.path[0] === String(key)).map((p) => ({ ...p, path: p.path.slice(1) }));
  return found.length ? found : NONE;
};

export function SchemaForm({ idPrefix, schema, vocabulary, value, onChange, body, problems, readOnly = false, lang, english }: SchemaFormProps) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const pendingFocus = useRef<string | null>(null);
  const context = useMemo<FormContextValue>(
    () => ({
      idPrefix,
      vocabulary,
      readOnly,
      lang,
      root: schema,
      change: (pointer, next) => onChangeRef.current(pointer, next),
      focusLater: (id) => (pendingFocus.current = id),
    }),
    [idPrefix, vocabulary, readOnly, lang, schema],
  );
  useEffect(() => {
    if (!pendingFocus.current) return;
    // A new object item's id is its fieldset's: focus goes to its first control.
    const target = document.getElementById(pendingFocus.current);
    (target?.matches('input, textarea, select, button') ? target : target?.querySelector<HTMLElement>('input, textarea, select, button'))?.focus();
    pendingFocus.current = null;
  });
  const placed = useMemo(() => problems.map((p) => ({ path: pointerSegments(p.pointer), message: p.message })), [problems]);
  const known = new Set(Object.keys(schema.properties ?? {}));
  const loose = placed.filter((p) => !p.path.length || !known.has(p.path[0]!));
  return (
    <FormContext.Provider value={context}>
      <div className="schema-form">
        {/* Screen readers hear "required" in each label instead. */}
        <p className="sf-note" aria-hidden="true">
          Fields marked * are required.
        </p>
        {loose.length ? <ProblemList id={`${idPrefix}-file-problems`} problems={loose} /> : null}
        <ObjectFields pointer={[]} schema={schema} value={value} problems={placed} english={english} />
        {body ? (
          <div className="sf-field sf-body">
            <label htmlFor={`${idPrefix}-body`}>{body.label}</label>
            <textarea
              id={`${idPrefix}-body`}
              value={body.value}
              placeholder={body.placeholder}
              rows={18}
              spellCheck
              lang={lang}
              disabled={readOnly}
              onChange={(e) => body.onChange(e.target.value)}
            />
          </div>
        ) : null}
      </div>
    </FormContext.Provider>
  );
}

/** An object's fields in schema order, then the keys the schema does not know. */
function ObjectFields({
  pointer,
  schema,
  value,
  problems,
  english,
}: {
  pointer: FieldPointer;
  schema: JsonSchema;
  value: unknown;
  problems: readonly Placed[];
  english?: unknown;
}) {
  const object = isRecord(value) ? value : {};
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const unknown = Object.keys(object).filter((k) => !(k in properties));
  const hints = isRecord(english) ? english : undefined;
  return (
    <>
      {Object.entries(properties).map(([name, property]) => (
        <Field
          key={name}
          pointer={[...pointer, name]}
          label={property.title ?? humanise(name)}
          schema={property}
          value={object[name]}
          required={required.has(name)}
          problems={under(problems, name)}
          english={hints?.[name]}
        />
      ))}
      {unknown.length ? (
        <div className="sf-unknown">
          <p className="sf-unknown-title">Other keys (kept; edit them in the raw view)</p>
          <ul>
            {unknown.map((k) => (
              <li key={k}>
                <code>{k}</code>: <span className="sf-preview">{preview(object[k])}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}

/** The moved item's button to keep focus on: the same direction, unless the item reached the end it moved to. */
const arrowAfterMove = (from: number, to: number, last: number) => (from < to ? (to === last ? 'up' : 'down') : to === 0 ? 'down' : 'up');

const sameProblems = (a: readonly Placed[], b: readonly Placed[]) =>
  a === b || (a.length === b.length && a.every((p, i) => p.message === b[i]!.message && p.path.join('/') === b[i]!.path.join('/')));

/** One field; re-rendered only when its own value, problems or hint change (the form re-renders on every key). */
const Field = memo(
  function Field(props: FieldProps) {
    const form = useForm();
    const schema = resolve(props.schema, form.root);
    const widget = widgetFor(schema, form.vocabulary);
    const id = idFor(form.idPrefix, props.pointer);
    // A container shows the problems no part of it shows (its own, a missing item's); a leaf shows all under it.
    const value = props.value;
    const shown =
      widget.kind === 'object'
        ? Object.keys(schema.properties ?? {})
        : widget.kind === 'list'
          ? (Array.isArray(value) ? value : []).map((_, i) => String(i))
          : widget.kind === 'record'
            ? Object.keys(isRecord(value) ? value : {})
            : undefined;
    const own = shown ? props.problems.filter((p) => !p.path.length || !shown.includes(p.path[0]!)) : props.problems;
    const parts = { ...props, id, widget, schema, own };
    if (widget.kind === 'object') return <ObjectField {...parts} />;
    if (widget.kind === 'list') return <ListField {...parts} itemSchema={widget.item} />;
    if (widget.kind === 'record') return <RecordField {...parts} widget={widget} />;
    if (widget.kind === 'choices') return <ChoicesField {...parts} widget={widget} />;
    return <LeafField {...parts} />;
  },
  (a, b) =>
    a.schema === b.schema &&
    a.label === b.label &&
    a.required === b.required &&
    a.item === b.item &&
    a.noun === b.noun &&
    a.pointer.join('/') === b.pointer.join('/') &&
    sameValue(a.value, b.value) &&
    sameProblems(a.problems, b.problems) &&
    sameValue(a.english, b.english),
);

function ObjectField(props: PartProps) {
  return (
    <Group props={props} className="sf-object">
      <ObjectFields pointer={props.pointer} schema={props.schema} value={props.value} problems={props.problems} english={props.english} />
    </Group>
  );
}

function ListField(props: PartProps & { itemSchema: JsonSchema }) {
  const form = useForm();
  const { pointer, schema, itemSchema, value, problems, english } = props;
  const items = Array.isArray(value) ? value : [];
  const noun = props.noun ?? singular(props.label);
  const lower = noun.charAt(0).toLowerCase() + noun.slice(1);
  const itemId = (i: number, what: string) => `${idFor(form.idPrefix, [...pointer, i])}-${what}`;
  const setList = (next: unknown[]) => form.change(pointer, next.length || props.required || props.item ? next : undefined);
  const move = (from: number, to: number) => {
    const next = items.slice();
    next.splice(to, 0, ...next.splice(from, 1));
    form.focusLater(itemId(to, arrowAfterMove(from, to, items.length - 1)));
    setList(next);
  };
  const full = schema.maxItems !== undefined && items.length >= schema.maxItems;
  const resolved = resolve(itemSchema, form.root);
  return (
    <Group props={props} className="sf-list">
      {items.length ? (
        <ol className="sf-items">
          {items.map((item, i) => (
            <li key={i} className="sf-item">
              <Field
                pointer={[...pointer, i]}
                label={`${noun} ${i + 1}`}
                schema={itemSchema}
                value={item}
                required={false}
                item
                problems={under(problems, i)}
                english={Array.isArray(english) ? english[i] : undefined}
              />
              <div className="sf-item-actions">
                <IconButton
                  id={itemId(i, 'up')}
                  label={`Move ${lower} ${i + 1} up`}
                  disabled={form.readOnly || i === 0}
                  onClick={() => move(i, i - 1)}
                  icon="↑"
                />
                <IconButton
                  id={itemId(i, 'down')}
                  label={`Move ${lower} ${i + 1} down`}
                  disabled={form.readOnly || i === items.length - 1}
                  onClick={() => move(i, i + 1)}
                  icon="↓"
                />
                <IconButton
                  id={itemId(i, 'remove')}
                  label={`Remove ${lower} ${i + 1}`}
                  disabled={form.readOnly}
                  onClick={() => {
                    form.focusLater(items.length > 1 ? itemId(Math.min(i, items.length - 2), 'remove') : `${props.id}-add`);
                    setList(items.filter((_, j) => j !== i));
                  }}
                  icon="✕"
                />
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="sf-empty">No {/s$/.test(props.label) ? props.label.toLowerCase() : 'items'} yet.</p>
      )}
      <button
        type="button"
        id={`${props.id}-add`}
        className="button ghost sf-add"
        disabled={form.readOnly || full}
        onClick={() => {
          form.focusLater(idFor(form.idPrefix, [...pointer, items.length]));
          setList([...items, emptyValue(resolved, form.root)]);
        }}
      >
        Add {lower}
      </button>
    </Group>
  );
}

function ChoicesField(props: PartProps & { widget: Extract<Widget, { kind: 'choices' }> }) {
  const form = useForm();
  const [filter, setFilter] = useState('');
  const { widget, pointer, value } = props;
  const chosen = Array.isArray(value) ? value.map(String) : [];
  const labels = new Map(widget.vocabulary ? form.vocabulary[widget.vocabulary]?.map((v) => [v.value, v.label]) : []);
  const title = (v: string) => labels.get(v) ?? v;
  const set = (next: string[]) => form.change(pointer, next.length || props.required ? next : undefined);
  const many = widget.options.length > 12;
  const needle = filter.trim().toLowerCase();
  const shown = widget.options.filter((o) => !needle || o.toLowerCase().includes(needle) || title(o).toLowerCase().includes(needle));
  const noun = props.label.toLowerCase();
  const move = (from: number, to: number) => {
    const next = chosen.slice();
    next.splice(to, 0, ...next.splice(from, 1));
    form.focusLater(`${props.id}-chosen-${to}-${arrowAfterMove(from, to, chosen.length - 1)}`);
    set(next);
  };
  return (
    <Group props={props} className="sf-choices">
      {chosen.length ? (
        <ol className="sf-chosen" aria-label={`Chosen ${noun}, in order`}>
          {chosen.map((v, i) => (
            <li key={`${v}-${i}`}>
              <span className="sf-choice-title">{title(v)}</span> <code>{v}</code>
              {widget.options.includes(v) ? null : <span className="sf-stray"> (not in the list)</span>}
              <IconButton
                id={`${props.id}-chosen-${i}-up`}
                label={`Move ${title(v)} up`}
                disabled={form.readOnly || i === 0}
                onClick={() => move(i, i - 1)}
                icon="↑"
              />
              <IconButton
                id={`${props.id}-chosen-${i}-down`}
                label={`Move ${title(v)} down`}
                disabled={form.readOnly || i === chosen.length - 1}
                onClick={() => move(i, i + 1)}
                icon="↓"
              />
              <IconButton
                id={`${props.id}-chosen-${i}-remove`}
                label={`Remove ${title(v)}`}
                disabled={form.readOnly}
                onClick={() => set(chosen.filter((c) => c !== v))}
                icon="✕"
              />
            </li>
          ))}
        </ol>
      ) : (
        <p className="sf-empty">None chosen yet.</p>
      )}
      {many ? (
        <label className="sf-filter">
          Filter {noun}
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} disabled={form.readOnly} />
        </label>
      ) : null}
      <ul className="sf-options" aria-label={`All ${noun}`}>
        {shown.map((o) => (
          <li key={o}>
            <label className="sf-check">
              <input
                type="checkbox"
                checked={chosen.includes(o)}
                disabled={form.readOnly}
                onChange={(e) => set(e.target.checked ? [...chosen, o] : chosen.filter((c) => c !== o))}
              />
              <span className="sf-option-text">
                <span>{title(o)}</span> {title(o) !== o ? <code>{o}</code> : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
      {many && shown.length < widget.options.length ? (
        <p className="sf-help" role="status">
          {shown.length} of {widget.options.length} shown
        </p>
      ) : null}
    </Group>
  );
}

/** A map from chosen keys (locales…) to values of one schema: a section per key, opened on demand. */
function RecordField(props: PartProps & { widget: Extract<Widget, { kind: 'record' }> }) {
  const form = useForm();
  const { widget, pointer, problems, english } = props;
  const object = isRecord(props.value) ? props.value : {};
  const present = Object.keys(object);
  const labels = new Map(widget.keyVocabulary ? form.vocabulary[widget.keyVocabulary]?.map((v) => [v.value, v.label]) : []);
  const missing = (widget.keys ?? []).filter((k) => !present.includes(k));
  const [choice, setChoice] = useState(missing[0] ?? '');
  const adding = missing.includes(choice) ? choice : (missing[0] ?? '');
  const [added, setAdded] = useState<string | null>(null);
  const noun = singular(props.label);
  return (
    <Group props={props} className="sf-record">
      {present.map((key) => (
        <Section
          key={key}
          summary={optionLabel(key, labels.get(key))}
          problems={under(problems, key).length}
          open={present.length === 1 || key === added}
          onRemove={form.readOnly ? undefined : () => form.change([...pointer, key], undefined)}
        >
          <Field
            pointer={[...pointer, key]}
            label={`${props.label}: ${optionLabel(key, labels.get(key))}`}
            noun={noun}
            schema={widget.value}
            value={object[key]}
            required={false}
            problems={under(problems, key)}
            english={isRecord(english) ? english[key] : undefined}
          />
        </Section>
      ))}
      {missing.length ? (
        <div className="sf-add-key">
          <label htmlFor={`${props.id}-new-key`}>Add a section</label>
          <select id={`${props.id}-new-key`} value={adding} disabled={form.readOnly} onChange={(e) => setChoice(e.target.value)}>
            {missing.map((k) => (
              <option key={k} value={k}>
                {optionLabel(k, labels.get(k))}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button ghost sf-add"
            disabled={form.readOnly}
            onClick={() => {
              setAdded(adding);
              form.change([...pointer, adding], emptyValue(resolve(widget.value, form.root), form.root));
            }}
          >
            Add
          </button>
        </div>
      ) : null}
    </Group>
  );
}

/** A collapsible section whose content is rendered only once opened (a locale of related terms holds hundreds of fields). */
function Section(props: { summary: string; open: boolean; problems: number; onRemove?: () => void; children: ReactNode }) {
  const [open, setOpen] = useState(props.open);
  return (
    <details className="sf-section" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {props.summary}
        {props.problems ? <span className="sf-section-problems"> ({props.problems === 1 ? '1 problem' : `${props.problems} problems`})</span> : null}
      </summary>
      {open ? props.children : null}
      {open && props.onRemove ? (
        <button type="button" className="button ghost danger sf-add" onClick={props.onRemove}>
          Remove the {props.summary} section
        </button>
      ) : null}
    </details>
  );
}

/** A new list item's or section's starting value: what the schema requires, empty. */
