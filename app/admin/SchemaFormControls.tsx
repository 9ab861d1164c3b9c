// The schema form's one-value controls (text, month, date, select, checkbox, nullable) and the pieces every
// field shares: its label, help, rules, English hint and problems, and the form's context.
import { createContext, useContext, type ReactNode } from 'react';
import { noneLabel, optionLabel, preview, rulesOf, widgetFor, type FieldPointer, type JsonSchema, type Vocabulary, type Widget } from './schema-widgets.ts';

export interface Placed {
  path: string[];
  message: string;
}
export interface FormContextValue {
  idPrefix: string;
  vocabulary: Vocabulary;
  readOnly: boolean;
  lang?: string;
  root: JsonSchema;
  change(pointer: FieldPointer, value: unknown): void;
  /** Focus the element with this id after the next render (a moved or added list item). */
  focusLater(id: string): void;
}
export const FormContext = createContext<FormContextValue | null>(null);
export const useForm = () => useContext(FormContext)!;

export interface FieldProps {
  pointer: FieldPointer;
  label: string;
  schema: JsonSchema;
  value: unknown;
  required: boolean;
  problems: readonly Placed[];
  english?: unknown;
  /** List items: the value is kept as typed (an empty item stays an empty string). */
  item?: boolean;
  /** What one item of this list is called, when not the label made singular. */
  noun?: string;
}

export type PartProps = FieldProps & { id: string; widget: Widget; own: readonly Placed[] };

/** Label, help, rules, English hint and problems around a control; the ids the control is described by. */
function useDescription({ id, schema, own, english, widget }: PartProps) {
  const rules = rulesOf(widget.kind === 'nullable' ? { ...schema, ...widget.inner } : schema);
  const help = [schema.description, ...rules].filter(Boolean).join(' · ');
  const hint =
    english === undefined || english === null ? '' : Array.isArray(english) ? `${english.length} items` : typeof english === 'object' ? '' : String(english);
  const describedBy = [help && `${id}-help`, hint && `${id}-en`, own.length && `${id}-problems`].filter(Boolean).join(' ') || undefined;
  const notes = (
    <>
      {help ? (
        <p className="sf-help" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {hint ? (
        <p className="sf-english" id={`${id}-en`}>
          <span className="sf-english-label">English:</span> <span lang="en">{hint}</span>
        </p>
      ) : null}
      {own.length ? <ProblemList id={`${id}-problems`} problems={own} /> : null}
    </>
  );
  return { describedBy, invalid: own.length > 0 || undefined, notes };
}

export function ProblemList({ id, problems }: { id: string; problems: readonly Placed[] }) {
  return (
    <ul className="sf-problems" id={id}>
      {problems.map((p, i) => (
        <li key={i}>
          {p.path.length ? <code>{p.path.join('/')}</code> : null}
          {p.path.length ? ' ' : ''}
          {p.message}
        </li>
      ))}
    </ul>
  );
}

export const Mark = ({ required }: { required: boolean }) =>
  required ? (
    <>
      <span className="sf-required" aria-hidden="true">
        {' '}
        *
      </span>
      <span className="visually-hidden"> (required)</span>
    </>
  ) : null;

export function LeafField(props: PartProps) {
  const form = useForm();
  const { id, widget, schema, value, pointer, required, item } = props;
  const { describedBy, invalid, notes } = useDescription(props);
  // Clearing an optional field removes its key; a required one (or a list item) keeps an empty value.
  const set = (next: unknown) => form.change(pointer, next === '' && !required && !item ? undefined : next);
  const locked = form.readOnly || schema.readOnly === true; // the whole form, or a field the schema marks readOnly
  const common = { id, disabled: locked, 'aria-describedby': describedBy, 'aria-invalid': invalid };
  const label = (
    <label htmlFor={id}>
      {props.label}
      <Mark required={required} />
    </label>
  );
  if (widget.kind === 'checkbox') {
    return (
      <div className="sf-field">
        <label className="sf-check" htmlFor={id}>
          <input
            type="checkbox"
            {...common}
            checked={value === true}
            onChange={(e) => set(e.target.checked ? true : required || item || schema.default === true ? false : undefined)}
          />
          {props.label}
          <Mark required={required} />
        </label>
        {notes}
      </div>
    );
  }
  if (widget.kind === 'nullable') {
    const none = value === null;
    return (
      <div className="sf-field sf-nullable">
        {label}
        <Control
          widget={widgetFor(widget.inner, form.vocabulary)}
          schema={widget.inner}
          value={none ? '' : value}
          common={{ ...common, disabled: locked || none }}
          set={set}
          required={required}
        />
        <label className="sf-check" htmlFor={`${id}-none`}>
          <input
            type="checkbox"
            id={`${id}-none`}
            disabled={locked}
            checked={none}
            onChange={(e) => set(e.target.checked ? null : required ? '' : undefined)}
          />
          {noneLabel(schema.description)}
        </label>
        {notes}
      </div>
    );
  }
  return (
    <div className="sf-field">
      {label}
      <Control widget={widget} schema={schema} value={value} common={common} set={set} required={required} />
      {notes}
    </div>
  );
}

type Common = { id: string; disabled: boolean; 'aria-describedby'?: string; 'aria-invalid'?: true };

/** The control itself for a one-value widget. */
function Control({
  widget,
  schema,
  value,
  common,
  set,
  required,
}: {
  widget: Widget;
  schema: JsonSchema;
  value: unknown;
  common: Common;
  set(v: unknown): void;
  required: boolean;
}) {
  const form = useForm();
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (widget.kind === 'month' || widget.kind === 'date') {
    const month = widget.kind === 'month';
    return (
      <input
        {...common}
        type={widget.kind}
        value={text}
        placeholder={month ? 'YYYY-MM' : 'YYYY-MM-DD'}
        pattern={month ? '\\d{4}-(0[1-9]|1[0-2])' : '\\d{4}-\\d{2}-\\d{2}'}
        onChange={(e) => set(e.target.value)}
      />
    );
  }
  if (widget.kind === 'select') {
    const labels = new Map(widget.vocabulary ? form.vocabulary[widget.vocabulary]?.map((v) => [v.value, v.label]) : []);
    const stray = text && !widget.options.includes(text);
    return (
      <select {...common} value={text} onChange={(e) => set(e.target.value)}>
        {!required || !text ? <option value="">{required ? 'Choose…' : '(none)'}</option> : null}
        {widget.options.map((o) => (
          <option key={o} value={o}>
            {optionLabel(o, labels.get(o))}
          </option>
        ))}
        {stray ? <option value={text}>{text} (not allowed)</option> : null}
      </select>
    );
  }
  if (widget.kind === 'number')
    return <input {...common} type="number" value={text} onChange={(e) => set(e.target.value === '' ? '' : Number(e.target.value))} />;
  if (widget.kind !== 'text') {
    return (
      <output id={common.id} className="sf-raw" aria-describedby={common['aria-describedby']}>
        <code>{preview(value)}</code> (a shape the form does not edit: change it in the raw view)
      </output>
    );
  }
  const counter = schema.maxLength !== undefined ? `${common.id}-count` : undefined;
  const describedBy = [common['aria-describedby'], counter].filter(Boolean).join(' ') || undefined;
  const prose = { spellCheck: widget.prose, lang: widget.prose ? form.lang : undefined };
  return (
    <>
      {widget.multiline ? (
        <textarea {...common} {...prose} aria-describedby={describedBy} rows={rowsFor(text, widget.rows)} value={text} onChange={(e) => set(e.target.value)} />
      ) : (
        <input {...common} {...prose} aria-describedby={describedBy} type={widget.input} value={text} onChange={(e) => set(e.target.value)} />
      )}
      {counter ? <Counter id={counter} length={text.length} max={schema.maxLength!} /> : null}
    </>
  );
}

function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  const over = length > max;
  return (
    <p className={`sf-count${over ? ' sf-over' : ''}`} id={id}>
      {length} / {max}
      <span className="visually-hidden"> characters</span>
      {over ? ` — ${length - max} too many` : ''}
    </p>
  );
}

/** Rows enough for the text at about 95 characters a line, so a short value looks like one line and grows as it is typed. */
const rowsFor = (text: string, least: number) =>
  Math.min(
    14,
    Math.max(
      least,
      text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / 95)), 0),
    ),
  );

/** A group of controls under a legend: objects, lists, choices and records. */
export function Group({ props, className, children }: { props: PartProps; className: string; children: ReactNode }) {
  const { describedBy, invalid, notes } = useDescription(props);
  return (
    <fieldset className={`sf-group ${className}`} id={props.id} aria-describedby={describedBy} aria-invalid={invalid}>
      <legend>
        {props.label}
        <Mark required={props.required} />
      </legend>
      {notes}
      {children}
    </fieldset>
  );
}

export function IconButton({ id, label, icon, disabled, onClick }: { id: string; label: string; icon: string; disabled: boolean; onClick(): void }) {
  return (
    <button type="button" id={id} className="sf-icon-button" title={label} disabled={disabled} onClick={onClick}>
      <span aria-hidden="true">{icon}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );
}

/** Values from a list (tags, lenses, skills…): the chosen ones in their order, and a checkbox per allowed one. */
