// JSON-like values as the form and the text editor exchange them: equality, a copy with one value set at a pointer,
// JSON's view of a value. Plain functions over plain data, shared by source-doc.ts and the form.

export type Pointer = ReadonlyArray<string | number>;

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON's view of a value: keys holding undefined dropped. */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : plain(v)));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, plain(v)]])));
  return value;
}

/** Deep equality of JSON-like values (key order aside). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

export const isEmpty = (value: unknown) => (Array.isArray(value) ? value.length === 0 : isRecord(value) && Object.keys(value).length === 0);
const isIndex = (key: string | number | undefined) => typeof key === 'number' || (typeof key === 'string' && /^\d+$/.test(key));

/** A copy of `base` with `value` at `pointer`: undefined removes a key or a list item; missing parents are made. */
export function setIn(base: unknown, pointer: Pointer, value: unknown): unknown {
  if (!pointer.length) return value;
  const [head, ...rest] = pointer as [string | number, ...Array<string | number>];
  if (Array.isArray(base) && isIndex(head)) {
    const index = Number(head);
    if (index >= base.length && value === undefined) return base;
    if (index > base.length) throw new RangeError(`No item ${index} in a list of ${base.length}`);
    const copy = base.slice();
    if (!rest.length && value === undefined) copy.splice(index, 1);
    else copy[index] = setIn(copy[index], rest, value);
    return copy;
  }
  const object: Record<string, unknown> = isRecord(base) ? { ...base } : {};
  if (value === undefined && !(String(head) in object)) return base;
  if (!rest.length && value === undefined) delete object[String(head)];
  else object[String(head)] = setIn(object[String(head)] ?? (isIndex(rest[0]) ? [] : undefined), rest, value);
  return object;
}
