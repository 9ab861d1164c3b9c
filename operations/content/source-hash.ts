// The `source` hash a translation records: a digest of the English fields it was made from.
// A translation whose `source` differs from the current hash is stale and is served in English.
import { createHash } from 'node:crypto';
import { translatableFields, type FileKind } from './schema.ts';

export function sourceHash(kind: FileKind, fields: Record<string, unknown>, body: string): string {
  const values = translatableFields[kind].map((name) => fields[name] ?? null);
  return createHash('sha256').update(JSON.stringify([values, body.trim()])).digest('hex').slice(0, 16);
}
