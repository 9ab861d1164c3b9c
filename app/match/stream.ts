// Reads the match stream (`POST /api/v1/match` with `Accept: application/x-ndjson`): one JSON object a line,
// stages, requirements as each is checked, and a last `done` (the whole answer) or `error`. Lines are taken apart
// by hand, loosely: zod stays out of the page's bundle, and a type this client does not know yet is skipped.
import type { z } from 'zod';
import type { Requirement, RoleMatch } from '../../operations/contract/match.ts';

export type RoleMatchData = z.output<typeof RoleMatch>;
export type RequirementData = z.output<typeof Requirement>;
export type EvidenceData = RequirementData['evidence'][number];
export type MatchStage = 'reading' | 'searching' | 'checking';
export type MatchStatus = RequirementData['status'];

export type MatchEvent =
  | { type: 'stage'; stage: MatchStage }
  | { type: 'requirement'; index: number; requirement: RequirementData }
  | { type: 'done'; output: RoleMatchData }
  | { type: 'error'; code: string; message: string; errors?: Array<{ pointer?: string; message?: string }> };

const stages: readonly MatchStage[] = ['reading', 'searching', 'checking'];
const statuses: readonly MatchStatus[] = ['met', 'partial', 'gap'];

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

function evidenceOf(value: unknown): EvidenceData[] {
  if (!isObject(value)) return [];
  const [slug, title, url, quote] = [text(value.slug), text(value.title), text(value.url), text(value.quote)];
  return slug && url && quote !== undefined ? [{ slug, title: title || slug, url, quote }] : [];
}

/** A requirement as the wire carries it, or undefined when it lacks what a row needs. */
export function requirementOf(value: unknown): RequirementData | undefined {
  if (!isObject(value)) return undefined;
  const requirementText = text(value.text);
  const status = statuses.find((s) => s === value.status);
  if (!requirementText || !status) return undefined;
  const confidence = typeof value.confidence === 'number' && Number.isFinite(value.confidence) ? value.confidence : undefined;
  return {
    text: requirementText,
    kind: value.kind === 'nice' ? 'nice' : 'must',
    status,
    evidence: Array.isArray(value.evidence) ? value.evidence.flatMap(evidenceOf) : [],
    ...(confidence !== undefined ? { confidence } : {}),
    ...(text(value.note) ? { note: text(value.note) } : {}),
    ...(text(value.honestGap) ? { honestGap: text(value.honestGap) } : {}),
  };
}

/** The whole answer (the REST body, or a `done` line's output), or undefined when it is not one. */
export function roleMatchOf(value: unknown): RoleMatchData | undefined {
  if (!isObject(value) || !Array.isArray(value.requirements)) return undefined;
  const requirements = value.requirements.map(requirementOf).filter((r): r is RequirementData => r !== undefined);
  const lens = isObject(value.lens) && text(value.lens.id) && text(value.lens.url) ? value.lens : undefined;
  const counts = isObject(value.counts) ? value.counts : {};
  return {
    mode: value.mode === 'model' ? 'model' : 'search',
    locale: (text(value.locale) ?? 'en') as RoleMatchData['locale'],
    ...(text(value.title) ? { title: text(value.title) } : {}),
    requirements,
    summary: text(value.summary) ?? '',
    lens: lens ? ({ id: text(lens.id)!, title: text(lens.title) || text(lens.id)!, url: text(lens.url)! } as RoleMatchData['lens']) : null,
    gaps: Array.isArray(value.gaps) ? value.gaps.filter((g): g is string => typeof g === 'string' && g.trim() !== '') : [],
    counts: { met: count(counts.met), partial: count(counts.partial), gap: count(counts.gap) },
    removed: count(value.removed),
  };
}

/** One line of the stream as an event; undefined for a blank, malformed or unknown line. */
export function parseMatchEvent(line: string): MatchEvent | undefined {
  if (!line.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'stage': {
      const stage = stages.find((s) => s === value.stage);
      return stage ? { type: 'stage', stage } : undefined;
    }
    case 'requirement': {
      const requirement = requirementOf(value.requirement);
      const index = typeof value.index === 'number' && Number.isInteger(value.index) && value.index >= 0 ? value.index : undefined;
      return requirement && index !== undefined ? { type: 'requirement', index, requirement } : undefined;
    }
    case 'done': {
      const output = roleMatchOf(value.output);
      return output ? { type: 'done', output } : undefined;
    }
    case 'error':
      return {
        type: 'error',
        code: text(value.code) ?? 'internal',
        message: text(value.message) ?? '',
        ...(Array.isArray(value.errors) ? { errors: value.errors.filter(isObject).map((e) => ({ pointer: text(e.pointer), message: text(e.message) })) } : {}),
      };
    default:
      return undefined;
  }
}

/** Splits chunks into whole lines: a line cut by a chunk's end waits for the next chunk. */
export function createLineSplitter() {
  let pending = '';
  return {
    push(chunk: string): string[] {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      return lines;
    },
    /** The stream ended: what is left is a last line without its newline. */
    end(): string[] {
      const rest = pending;
      pending = '';
      return rest.trim() ? [rest] : [];
    },
  };
}

/** Reads a response body to its end, handing each event to `onEvent` as it arrives; rejects when aborted or cut. */
export async function readMatchStream(body: ReadableStream<Uint8Array>, onEvent: (event: MatchEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = createLineSplitter();
  const hand = (all: string[]) => {
    for (const line of all) {
      const event = parseMatchEvent(line);
      if (event) onEvent(event);
    }
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hand(lines.push(decoder.decode(value, { stream: true })));
  }
  hand([...lines.push(decoder.decode()), ...lines.end()]);
}
