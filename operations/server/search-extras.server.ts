// What the model adds to a build's search, each part optional: hybrid search (EMBEDDING_MODEL: passages embedded
// once, kept by the hash of their text under DATA_DIR) and search by questions (SEARCH_QUESTIONS, on with a model:
// the questions each passage answers, generated once by the model and kept by the hash of what it read under
// DATA_DIR, never in content/). A build is made without them; they are added to it here, and a model that cannot
// be reached leaves its search as it was.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { branches, type Branch } from '../contract/shared.ts';
import type { Build } from '../corpus/corpus.ts';
import { slicer } from '../content/pause.ts';
import type { Passage } from '../corpus/search.ts';
import { openEmbeddingCache, VectorIndex, type EmbeddingCache } from '../corpus/embeddings.ts';
import { createHybridSearch } from '../corpus/hybrid.ts';
import { createQuestionSearch, openQuestionCache, type GenerateQuestions, type QuestionCache } from '../corpus/passage-questions.ts';
import type { Config } from './config.server.ts';
import { describeProviderError, type Models } from './models.server.ts';

export interface SearchExtras {
  /** Whether a build keeps its passages: either part needs them. */
  readonly keepPassages: boolean;
  /** Adds hybrid search to a build when embeddings are configured; a model that cannot be reached leaves BM25 alone. */
  withHybrid(build: Build): Promise<Build>;
  /**
   * The build with the questions the cache holds for its passages: a copy whose search also matches them, with an id
   * of its own (answers kept by build id, and their ETags, were made without them). The build itself when the cache
   * holds no questions for it, or the same ones it has. Asks the model nothing.
   */
  withQuestions(build: Build): Promise<Build>;
  /** Generates the questions the live builds lack, in the background, then serves a copy of each that holds them. */
  askLater(): void;
  /** After a deploy: asks for the new build's questions, and drops what no live build serves from the files. */
  deployed(): void;
  /** Resolves once the questions asked for so far are generated (or failed) and served. */
  settled(): Promise<void>;
  /** Drops the model's answers under way (what was kept stays) and asks for nothing more. */
  stop(): void;
}

/** What the parts share: the caches, the live builds they are added to, and what each build was given. */
interface ExtrasState {
  config: Pick<Config, 'EMBEDDING_MIN_SIMILARITY'>;
  models: Models | undefined;
  live: Map<Branch, Build>;
  log: (line: string) => void;
  embeddings: EmbeddingCache | undefined;
  questionCache: QuestionCache | undefined;
  /** A build's embeddings (hybrid search is fused again over a copy of it that holds questions). */
  vectorsOf: WeakMap<Build, VectorIndex>;
  /** A build with questions: the id of the build it was made from, and a digest of the questions its index holds. */
  questionsServed: WeakMap<Build, { baseId: string; digest: string }>;
  stopAsking: AbortController;
}

/** Opens the caches the configuration asks for; `live` is the map of live builds the questions are later added to. */
export async function openSearchExtras(
  config: Pick<Config, 'EMBEDDING_MIN_SIMILARITY' | 'searchQuestions'>,
  models: Models | undefined,
  dataDir: string,
  live: Map<Branch, Build>,
  log: (line: string) => void,
): Promise<SearchExtras> {
  const embeddings =
    models?.embedTexts && models.embeddingModel
      ? await openEmbeddingCache(join(dataDir, 'embeddings', `${safeFileName(models.embeddingModel)}.bin`), models.embeddingModel)
      : undefined;
  const questionCache =
    config.searchQuestions && models ? await openQuestionCache(join(dataDir, 'questions', `${safeFileName(models.questionsModel)}.json`)) : undefined;
  const state: ExtrasState = {
    config,
    models,
    live,
    log,
    embeddings,
    questionCache,
    vectorsOf: new WeakMap(),
    questionsServed: new WeakMap(),
    stopAsking: new AbortController(),
  };
  // The questions a live build's passages lack are generated after it goes live, in the background (a deploy never
  // waits for the model), one run at a time; then the live build is swapped for a copy whose search holds them.
  let asking: Promise<void> = Promise.resolve();
  const askLater = () => {
    const generate = models?.generateQuestions;
    if (!questionCache || !generate || state.stopAsking.signal.aborted) return;
    asking = asking
      .then(() => askLive(state, questionCache, generate))
      .catch((error: unknown) => log(`[vitae] the passages' questions could not be served: ${(error as Error).message}`));
  };
  return {
    keepPassages: Boolean(embeddings || questionCache),
    withHybrid: (build) => withHybrid(state, build),
    withQuestions: (build) => withQuestions(state, build),
    askLater,
    deployed() {
      compactEmbeddings(state);
      if (questionCache) {
        askLater(); // the questions the new build's passages lack
        compactQuestions(state, questionCache);
      }
    },
    async settled() {
      for (let seen: Promise<void> | undefined; seen !== asking;) await (seen = asking);
    },
    stop: () => state.stopAsking.abort(),
  };
}

/** A model's name as a file name. */
const safeFileName = (name: string) => name.replace(/[^\w.-]+/g, '_');

/** What a passage is embedded as (hybrid search). */
const embeddingText = (p: Passage) => [p.title, p.meta, p.text].filter(Boolean).join('\n');

function hybridOver({ config, log }: ExtrasState, build: Build, vectors: VectorIndex, embed: NonNullable<Models['embedTexts']>) {
  return createHybridSearch({
    bm25: build.questions ?? build.search,
    passages: build.passages!,
    vectors,
    embedQuery: embed,
    onFailure: (error) => log(`[vitae] the embeddings model failed; search answered with BM25 alone: ${describeProviderError(error)}`),
    minSimilarity: config.EMBEDDING_MIN_SIMILARITY,
  });
}

async function withHybrid(state: ExtrasState, build: Build): Promise<Build> {
  const embed = state.models?.embedTexts;
  if (!state.embeddings || !embed || !build.passages) return build;
  try {
    const vectors = new VectorIndex(await state.embeddings.vectorsOf(build.passages.map(embeddingText), embed));
    state.vectorsOf.set(build, vectors);
    build.hybrid = hybridOver(state, build, vectors, embed);
  } catch (error) {
    state.log(`[vitae] the passages of ${build.commit.slice(0, 7)} could not be embedded (${describeProviderError(error)}): its search is BM25 alone`);
  }
  return build;
}

async function withQuestions(state: ExtrasState, build: Build): Promise<Build> {
  const cache = state.questionCache;
  if (!cache || !build.passages) return build;
  const hash = createHash('sha256');
  let count = 0;
  for (const passage of build.passages) {
    const questions = cache.questionsOf(passage);
    if (!questions) continue;
    count++;
    hash.update(`${passage.url}\0${questions.join('\n')}\0`);
  }
  const digest = hash.digest('hex');
  if (!count || state.questionsServed.get(build)?.digest === digest) return build;
  try {
    const questions = await createQuestionSearch({
      main: build.search,
      passages: build.passages,
      questionsOf: (passage) => cache.questionsOf(passage),
      related: build.model.relatedTerms,
      pause: slicer(),
    });
    const baseId = state.questionsServed.get(build)?.baseId ?? build.id;
    const next: Build = { ...build, id: createHash('sha256').update(`${baseId}\n${digest}`).digest('hex').slice(0, 20), questions };
    state.questionsServed.set(next, { baseId, digest });
    const vectors = state.vectorsOf.get(build);
    if (vectors && state.models?.embedTexts) {
      state.vectorsOf.set(next, vectors);
      next.hybrid = hybridOver(state, next, vectors, state.models.embedTexts);
    }
    return next;
  } catch (error) {
    state.log(
      `[vitae] the questions of the passages of ${build.commit.slice(0, 7)} could not be indexed (${(error as Error).message}); its search is as it was`,
    );
    return build;
  }
}

/** One run: the questions each live build's passages lack, then each build swapped for a copy that holds them. */
async function askLive(state: ExtrasState, cache: QuestionCache, generate: GenerateQuestions): Promise<void> {
  const { live, stopAsking } = state;
  let failed = false;
  for (const branch of branches) {
    const build = live.get(branch);
    if (!build?.passages || stopAsking.signal.aborted) return;
    const missing = failed ? [] : cache.missing(build.passages);
    if (missing.length) {
      try {
        await cache.fill(missing, generate, { signal: stopAsking.signal });
      } catch (error) {
        if (stopAsking.signal.aborted) return;
        failed = true; // logged once a run: the other branch's passages are not asked for after a failure
        state.log(
          `[vitae] the model could not write the questions of ${missing.length} passages of ${build.commit.slice(0, 7)} (${describeProviderError(error)}); search goes on without them, and they are asked for again at the next build`,
        );
      }
    }
    const next = await withQuestions(state, build);
    if (next !== build && live.get(branch) === build) live.set(branch, next);
  }
}

/** The vectors of text no longer served leave the embeddings file (once they are most of it). */
function compactEmbeddings({ embeddings, live, log }: ExtrasState): void {
  if (!embeddings) return;
  const served = [...live.values()].flatMap((b) => b.passages?.map(embeddingText) ?? []);
  void embeddings.compact(served).catch((error: unknown) => log(`[vitae] the embeddings file could not be compacted: ${(error as Error).message}`));
}

/** The questions of passages no longer served leave the file (once they are most of it). */
function compactQuestions({ live, log }: ExtrasState, cache: QuestionCache): void {
  const served = [...live.values()].flatMap((b) => b.passages ?? []);
  void cache.compact(served).catch((error: unknown) => log(`[vitae] the questions file could not be compacted: ${(error as Error).message}`));
}
