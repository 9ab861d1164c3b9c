// The comparison as a value: what the page shows while the stream runs and after it ends, and what a refused
// request means to the visitor. Shared by the browser (the stream) and the route's action (the form post).
import type { MatchEvent, MatchStage, RequirementData, RoleMatchData } from './stream.ts';

/** What went wrong, in terms the page words in its own language. */
export type MatchProblem =
  /** The input was refused: next to its field when the answer names one. */
  | { kind: 'invalid'; field?: 'description' | 'role'; reason?: 'empty' | 'too_long' | 'no_requirements'; message: string }
  /** Too many comparisons from this visitor: when they may try again (epoch ms). */
  | { kind: 'rate_limited'; until: number }
  /** The service could not answer (no answer, a 5xx, an error line in the stream). */
  | { kind: 'unavailable' }
  /** The site could not be reached, or the stream was cut. */
  | { kind: 'network' };

export interface MatchState {
  phase: 'idle' | 'streaming' | 'done' | 'stopped' | 'failed';
  stage?: MatchStage;
  /** The requirements checked so far, by their index in the answer (a slot may be empty until it arrives). */
  requirements: Array<RequirementData | undefined>;
  result?: RoleMatchData;
  problem?: MatchProblem;
}

export const idleMatch: MatchState = { phase: 'idle', requirements: [] };

export type MatchAction =
  | { type: 'start' }
  | { type: 'event'; event: MatchEvent }
  | { type: 'done'; result: RoleMatchData }
  | { type: 'stop' }
  | { type: 'fail'; problem: MatchProblem };

/** The most requirements an answer has (the contract's REQUIREMENTS_MAX): a wild index never grows the list. */
const SLOTS = 30;

export function matchReducer(state: MatchState, action: MatchAction): MatchState {
  switch (action.type) {
    case 'start':
      return { phase: 'streaming', requirements: [] };
    case 'done':
      return { phase: 'done', requirements: action.result.requirements, result: action.result };
    case 'stop':
      return state.phase === 'streaming' ? { ...state, phase: 'stopped', stage: undefined } : state;
    case 'fail':
      return { ...state, phase: 'failed', stage: undefined, problem: action.problem };
    case 'event': {
      if (state.phase !== 'streaming') return state;
      const { event } = action;
      switch (event.type) {
        case 'stage':
          return { ...state, stage: event.stage };
        case 'requirement': {
          if (event.index >= SLOTS) return state;
          const requirements = [...state.requirements];
          requirements[event.index] = event.requirement;
          return { ...state, requirements };
        }
        case 'done':
          return matchReducer(state, { type: 'done', result: event.output });
        case 'error':
          // A refusal that comes after the stream began (a description with nothing to compare) is said as one.
          return {
            ...state,
            phase: 'failed',
            stage: undefined,
            problem: event.code === 'bad_request' ? refusal(400, event, 0, 0) : { kind: 'unavailable' },
          };
      }
    }
  }
  return state;
}

/** The rows to show: those that arrived, in their order. */
export const shownRequirements = (state: Pick<MatchState, 'requirements'>): RequirementData[] =>
  state.requirements.filter((r): r is RequirementData => r !== undefined);

/** An error body as every surface sends it (`ErrorBody` in operations/contract/errors.ts). */
export interface ErrorBodyLike {
  code?: string;
  message?: string;
  errors?: Array<{ pointer?: string; message?: string }>;
}

/**
 * What a refused request means: a status and error body (from fetch, or an AppError in the action) and the
 * seconds of its Retry-After, at `now`.
 */
export function refusal(status: number, body: ErrorBodyLike, retryAfter: number, now: number): MatchProblem {
  if (status === 429 || body.code === 'rate_limited') return { kind: 'rate_limited', until: now + retryAfter * 1000 };
  if (status === 413 || body.code === 'payload_too_large') return { kind: 'invalid', field: 'description', reason: 'too_long', message: body.message ?? '' };
  if (status === 400 || body.code === 'bad_request') {
    const problem = body.errors?.find((e) => /^\/(jobDescription|title)\b/.test(e.pointer ?? '')) ?? body.errors?.[0];
    const field = /^\/title\b/.test(problem?.pointer ?? '') ? 'role' : /^\/jobDescription\b/.test(problem?.pointer ?? '') ? 'description' : undefined;
    const message = problem?.message ?? body.message ?? '';
    const reason =
      field === 'description' && /at most|too long|too_big/i.test(message)
        ? 'too_long'
        : field === 'description' && /no requirement/i.test(message)
          ? 'no_requirements'
          : field === 'description' && /empty|required|paste/i.test(message)
            ? 'empty'
            : undefined;
    return { kind: 'invalid', ...(field ? { field } : {}), ...(reason ? { reason } : {}), message };
  }
  return { kind: 'unavailable' };
}

/** Seconds left before a rate-limited visitor may try again (0 when they may now). */
export const secondsLeft = (problem: MatchProblem | undefined, now: number): number =>
  problem?.kind === 'rate_limited' ? Math.max(0, Math.ceil((problem.until - now) / 1000)) : 0;
