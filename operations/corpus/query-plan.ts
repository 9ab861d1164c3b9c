// How a query is read against the per-locale indexes (search.ts): which locales' text it is matched against and with
// what weight, its words in each (a word no passage holds read as the nearest words they do, the last word of a
// query being typed also as a prefix, the related words each brings), and how much each word weighs in a record's
// confidence. A plan is made once per query; search.ts ranks with it.
import type { Locale } from '../contract/shared.ts';
import {
  analyse,
  analyseQueryWords,
  HAN_JOINERS,
  joinedAmpersands,
  isKeptApart,
  isStopWord,
  isTraditional,
  scriptOf,
  stopWords,
  wordSegments,
} from './analyse.ts';
import { isLightWord, lightSpellings } from './light-words.ts';
import { editDistance, Lexicon, oneSlipFrom } from './lexicon.ts';
import { heldTogether, type Bm25Index } from './bm25.ts';
import { relatedGroups, standIn, type RelatedTerms } from './related.ts';
import { isLanguageOrCountry } from './names.ts';
import { asksWhatSheDoesNow, asksWhereSheIs, isPlaceWord } from './place-question.ts';
import { asksHerTerms, termsStated } from './terms-question.ts';
import { CURRENT_JOB_WORDS, CURRENT_WORDS, localityNames } from './places.ts';
import type { PlaceTable } from '../content/schema.ts';

/** A related word weighs this much of the word it stands for in the ranking. */
const RELATED_WEIGHT = 0.5;
/**
 * A word of the same family as the query's (Lexicon.family) weighs this much of it in the ranking: it holds the word
 * in full, but ranks below its own form. Chosen on the development set as the middle of the weights (0.2 to 0.3) that
 * rank best there (MRR 0.85 → 0.86; the family's own word at 0.5 ranks the Spanish questions lower).
 */
const FAMILY_WEIGHT = 0.25;
/** Passages in English, when the query is in another language, weigh this much: they match, but the query's own language comes first. */
const ENGLISH_WEIGHT = 0.7;
/** Passages in another Chinese or Japanese locale than the query's (the same characters, once folded). */
const HAN_WEIGHT = 0.85;
/** A word spelt one or two letters away from the query's (a typo read as what was meant) weighs this much of it in the ranking. */
const TYPO_WEIGHT = 0.6;
/** A sure reading of a typo (one slip from the word as typed, Lexicon.readings) weighs this much: below the word spelt right, above a guess. */
const SURE_TYPO_WEIGHT = 0.8;
/**
 * How many of a question's known words an unknown word may weigh as one of: with one known word it weighs as much
 * ("salary expectations" is no match), with three half as much. Chosen on the development set as the middle of the
 * values (1.25 to 1.75) that keep every no-answer figure and lose least to a made-up word (eval, `npm run eval`).
 */
export const UNKNOWN_SHARE = 1.5;
/** A question's words of being placed (based, lives) weigh this much in the ranking when it asks where the person is (they are not what it asks for). */
const PLACE_CONTEXT_WEIGHT = 0.5;
/** A word the last word of a query being typed begins (search as you type) weighs this much of it in the ranking. */
const PREFIX_WEIGHT = 0.5;
/** How much of a word a record holds when it holds only a guess at what a typo of it meant. */
const TYPO_HOLD = 0.5;
/** A reading the word as typed begins with, but for at most this many letters, is an ending the stemmer did not cut (obtenus, obtenu). */
const INFLECTION = 3;

export interface LocaleIndex {
  engine: Bm25Index;
  /** local document → passage */
  passages: Int32Array;
  /** Its terms by spelling, for typos and prefixes (made at the first query that needs it). */
  lexicon?: Lexicon;
}

interface Concept {
  /** The tokens of one word of the query (a Han word's bigrams, or a single token). */
  own: string[];
  /** Related words or phrases that stand for the word, each as its tokens. */
  related: string[][];
  /** How much of the word a record holding only a related word holds: 1, or less when the word is known only as a typo's reading. */
  hold: number;
  /** Whether the word names a language or a country (names.ts): one no passage holds weighs in full. */
  named: boolean;
  /** Whether the word is light (light-words.ts's isLightWord: a verb of making, a word for a company, one that picks one of several): it weighs nothing in a record's confidence beside other words. */
  light: boolean;
}

/** A word of the query resolved in one locale's index, once per query, for the confidence of each candidate. */
export interface ResolvedConcept {
  /**
   * Its tokens' mean idf (a token no passage holds weighs the most a token can); a word no token of which is known, the
   * known words' mean (less beside several), or the most a word can when it names a language or a country; a light
   * word beside other words, nothing.
   */
  weight: number;
  /** The documents holding each of its tokens (undefined: none does). */
  own: Array<Int32Array | undefined>;
  /** Per related word or phrase that some document could hold in full, the documents holding each of its tokens. */
  related: Int32Array[][];
  hold: number;
}

type QueryWord = ReturnType<typeof analyseQueryWords>[number];
/**
 * What a part's words are beside the question's: `context`, words that only rank (a question's own words when it is
 * read as the place it asks for); `naming`, the words are her name, kept (else the subject's name is dropped, as the
 * person words are).
 */
interface PartWords {
  context?: readonly QueryWord[];
  naming?: boolean;
}

export interface Part {
  locale: Locale;
  weight: number;
  /** Tokens and their weights in the ranking. */
  terms: Array<[string, number]>;
  concepts: Concept[];
  resolved: ResolvedConcept[];
}

/** What a search adds to the passages' own words: the related words, and the subject's name (a word a question uses for the person). */
export interface QueryWords {
  related?: RelatedTerms;
  /** The subject's name as written (site.json): its words, and spellings one letter from them, are stop words of a question. */
  name?: string;
  /** Her name as other scripts write it (related-terms.json's `names`, ja: ノア・カステラン): read as `name`, part by part. */
  names?: Partial<Record<Locale, string>>;
  /** Where the subject is (site.json's subject location, "Lisbon, Portugal"), and the places table that names it in each locale: what a question asking where she is asks for. */
  location?: string;
  places?: PlaceTable['places'];
}

/** Plans queries over `indexes` with the related words and the subject's name `words` gives. */
export function createQueryPlanner(indexes: ReadonlyMap<Locale, LocaleIndex>, words: QueryWords): (query: string, locale: Locale | undefined) => Part[] {
  const related = relatedGroups(words.related ?? {});
  const isName = nameMatcher(words.name ?? '');
  const fullName = words.name ?? '';
  const inLatin = latinName(fullName, words.names ?? {});

  /** Which locales' text to match, with what weight, and the query's tokens in each. */
  function plan(question: string, locale: Locale | undefined): Part[] {
    const query = inLatin(question);
    const script = scriptOf(query);
    const candidates: Locale[] =
      script === 'kana' ? ['ja'] : script === 'han' ? (isTraditional(query) ? ['zh-hant', 'zh', 'ja'] : ['zh', 'zh-hant', 'ja']) : ['en', 'fr', 'es', 'eo'];
    const analysed = new Map<Locale, QueryWord[]>();
    const wordsIn = (l: Locale) => {
      let words = analysed.get(l);
      if (!words) analysed.set(l, (words = analyseQueryWords(query, l)));
      return words;
    };
    // The last word of a query still being typed (no space or mark after it) is also looked up as a prefix.
    const typing = /[\p{L}\p{N}]$/u.test(question);
    // A question asking where she is ("Where is she based?") asks for her place: its words only rank.
    // (her city as the locale names it, or her country when no passage of the locale names the city so: the place as
    // one word of the question, "Greater Lisbon Area" held only where a passage holds all of it)
    const place =
      words.location && asksWhereSheIs(query, isName)
        ? (l: Locale): QueryWord | undefined => {
            for (const name of localityNames(words.location, words.places ?? {}, l)) {
              const named = heldTogether(
                analyseQueryWords(name, l).flatMap((w) => w.tokens),
                indexes.get(l)?.engine,
              );
              if (named) return named;
            }
            return undefined;
          }
        : undefined;
    // A question asking what she does now ("What does she do today?") asks for her job that has not ended (currentJob);
    // one about her terms of hire ("When could she start?"), for a passage stating them (termsStated).
    const present = !place && asksWhatSheDoesNow(query, isName) ? (l: Locale) => currentJob(indexes.get(l)?.engine, l) : undefined;
    const terms = !place && !present && asksHerTerms(query, isName) ? (l: Locale) => termsStated(indexes.get(l)?.engine, l) : undefined;
    let primary: Locale = locale && candidates.includes(locale) ? locale : candidates[0]!;
    if (candidates.length > 1 && (!locale || !candidates.includes(locale))) {
      const words = script === 'latin' ? latinWords(query) : [];
      let best = -1;
      for (const candidate of candidates) {
        const fit = languageFit(new Set(wordsIn(candidate).flatMap((w) => w.tokens)), words, query, candidate, indexes.get(candidate)?.engine);
        if (fit > best) [best, primary] = [fit, candidate];
      }
    }
    // A Latin query asked in a locale of another script (a product name on the Japanese site, say) is that
    // locale's text first: its pages hold such words too, and are the ones its reader should be shown.
    const other = script === 'latin' && locale !== undefined && !candidates.includes(locale) ? locale : undefined;
    // Typos are read in the query's own language only: in another, its words are unknown because they are foreign.
    const partOf = (words: QueryWord[], l: Locale, weight: number, spelling: { typing: boolean } | false, asked = query): Part => {
      const named = place?.(l);
      // (its words of being placed still rank: "based" finds "based in Lisbon" first)
      if (named) return part([named], l, weight, false, { context: words.filter((w) => w.written !== undefined && isPlaceWord(w.written)) });
      const job = present?.(l);
      if (job) return part([job], l, weight, false);
      if (terms) return part(terms(l), l, weight, false, { context: words });
      if (!words.length || !words.every((w) => w.typed !== undefined && isName(w.typed))) return part(words, l, weight, spelling);
      // A question whose only words are her name is asked again without it ("What is Noa's experience?" is "What is
      // her experience?"); one of her name alone ("Noa Castellan", "Who is Noa?") asks who she is: her whole name is
      // its words, held together where a passage introduces her.
      const rest = analyseQueryWords(withoutWords(asked, isName), l);
      return rest.length ? part(rest, l, weight, spelling) : part(analyseQueryWords(fullName, l), l, weight, false, { naming: true });
    };
    const parts: Part[] = other
      ? [partOf(wordsIn(other), other, 1, { typing }), partOf(wordsIn(primary), primary, ENGLISH_WEIGHT, { typing })]
      : [partOf(wordsIn(primary), primary, 1, { typing })];
    if (script === 'han' || script === 'kana')
      for (const other of candidates) if (other !== primary) parts.push(partOf(wordsIn(other), other, HAN_WEIGHT, false));
    if (primary !== 'en') {
      // The English text is matched by the query's words that are not stop words of its own language.
      const own = stopWords[primary as keyof typeof stopWords] as ReadonlySet<string> | undefined;
      const text = own ? query.replace(/[\p{L}\p{M}'’-]+/gu, (w) => (own.has(foldWord(w)) ? ' ' : w)) : query;
      parts.push(partOf(analyseQueryWords(text, 'en'), 'en', ENGLISH_WEIGHT, false, text));
    }
    return parts.filter((p) => indexes.has(p.locale) && p.concepts.length);
  }

  /** A part of the plan: the query's tokens in one locale's text, with the related words, corrected spellings and completions they bring. */
  /**
   * `spelling`: whether typos are read in this part (the query's own language), and whether its last word is being
   * typed. (PartWords: words that only rank, or her name.)
   */
  function part(
    all: readonly QueryWord[],
    locale: Locale,
    weight: number,
    spelling: { typing: boolean } | false,
    { context = [], naming = false }: PartWords = {},
  ): Part {
    // (the subject's name, as the person words are, says nothing of which record answers: "What has Noah built?")
    const words = kept(naming ? all : all.filter((w) => w.typed === undefined || !isName(w.typed)), locale, indexes.get(locale)?.engine, related.get(locale));
    const byKey = new Map<string, QueryWord>();
    for (const w of words) if (!byKey.has(w.tokens.join(' '))) byKey.set(w.tokens.join(' '), w);
    let unique = [...byKey.values()];
    const index = indexes.get(locale);
    const engine = index?.engine;
    // A Latin word no passage holds is read as the words the passages hold near it (a typo, as Meilisearch and
    // Typesense read one), or dropped when it is a stop word mistyped (or a word for the person or the frame); the
    // last word of a query being typed also stands for the words it begins; a word the index holds, for those of its
    // family the stemmer did not join ("ingeniería" for "ingenieros"): its `forms`, weighing `formWeight` in the ranking.
    const spellings = new Map<QueryWord, { typos: string[]; sure: boolean; forms: string[]; formWeight: number }>();
    // A verb of making or a word that picks one of several, mistyped by a slip ("hithest"), is one: the index may hold no spelling of it.
    const lightTypos = new Set<QueryWord>();
    if (index && engine && spelling) {
      const relatedHere = related.get(locale);
      const lexicon = (index.lexicon ??= lexiconOf(engine, relatedHere, analyseQueryWords(fullName, locale)));
      unique = unique.filter((word, i) => {
        if (word.typed === undefined) return true;
        const token = word.tokens[0]!;
        const known = engine.postings(token) !== undefined || relatedHere?.has(token);
        // A language or a country is spelt as meant ("alemán" is not a slip of "Alemania"): never read as a typo; nor is a
        // word the stem override keeps apart ("accounting" is no slip of "account").
        const spelt = known || isLanguageOrCountry(word.tokens, locale) || isKeptApart(word.typed, locale);
        if (!spelt && word.typed.length >= 5 && lightSpellings(locale).some((w) => oneSlipFrom(word.typed!, w))) {
          lightTypos.add(word);
          return true;
        }
        const readings = spelt ? { terms: [], sure: false } : lexicon.readings(word.typed, token, locale, word.written);
        if (readings === null) return false;
        // (a word the index holds whole is taken as finished: its completions would only add noise and time)
        const completions = spelling.typing && !spelt && i === unique.length - 1 ? lexicon.completions(token).filter((t) => t !== token) : [];
        const forms = formsOf(word, completions, engine, lexicon);
        if (readings.terms.length || forms.forms.length) spellings.set(word, { typos: readings.terms, sure: readings.sure, ...forms });
        return true;
      });
    }
    const concepts: Concept[] = unique.map((word) => ({
      own: word.tokens,
      related: [],
      hold: 1,
      named: isLanguageOrCountry(word.tokens, locale),
      light: isLightWord(word, locale) || lightTypos.has(word),
    }));
    // A word weighs one in the ranking, however many bigrams it has.
    const terms = new Map<string, number>();
    for (const { own } of concepts) for (const t of own) terms.set(t, Math.max(terms.get(t) ?? 0, 1 / own.length));
    for (const { tokens } of context) for (const t of tokens) if (!terms.has(t)) terms.set(t, PLACE_CONTEXT_WEIGHT / tokens.length);
    unique.forEach((word, i) => {
      const { typos = [], sure = false, forms = [], formWeight = 0 } = spellings.get(word) ?? {};
      // A reading the word as typed begins with, but for an ending, is the same word the stemmer cut otherwise
      // (obtenus, obtenu); so is a word one slip from the word as typed (formaations, formations). Another is a
      // guess that may be wrong ("salaire" read as "salari", employees; "automotive" as "automation"), and holds
      // less of the question.
      const inflected = typos.some((t) => word.typed!.startsWith(t) && word.typed!.length - t.length <= INFLECTION);
      if (typos.length) concepts[i]!.hold = sure || inflected ? 1 : TYPO_HOLD;
      // (a verb of making mistyped, surely, is one: "dévepoppé")
      if (sure && isLightWord({ tokens: [typos[0]!] }, locale)) concepts[i]!.light = true;
      typos.forEach((t, k) => {
        concepts[i]!.related.push([t]);
        if (!terms.has(t)) terms.set(t, sure && k === 0 ? SURE_TYPO_WEIGHT : TYPO_WEIGHT);
      });
      for (const t of forms) {
        concepts[i]!.related.push([t]);
        if (!terms.has(t)) terms.set(t, formWeight);
      }
    });
    // Related words come with the query's own words and with the spellings its typos were read as.
    const typoOf = new Map<string, Concept>();
    unique.forEach((word, i) => {
      for (const t of spellings.get(word)?.typos ?? []) typoOf.set(t, concepts[i]!);
    });
    const ownTokens = new Set([...concepts.flatMap((c) => c.own), ...typoOf.keys()]);
    const groups = new Set<string[][]>();
    for (const t of ownTokens) for (const group of related.get(locale)?.get(t) ?? []) groups.add(group);
    for (const group of groups) {
      const present = group.filter((member) => member.every((t) => ownTokens.has(t)));
      if (!present.length) continue;
      const others = group.filter((member) => !present.includes(member)).map(standIn);
      for (const member of present) {
        for (const concept of concepts) {
          // a related word stands for a whole word of the query (公司 does not stand for 航空公司)
          const stands = concept.own.every((t) => member.includes(t)) || (member.length === 1 && typoOf.get(member[0]!) === concept);
          if (stands) concept.related.push(...others.filter((other) => !concept.related.includes(other)));
        }
      }
      for (const t of others.flat()) if (!terms.has(t)) terms.set(t, RELATED_WEIGHT);
    }
    const resolved = engine ? resolveConcepts(concepts, engine) : [];
    return { locale, weight, terms: [...terms], concepts, resolved };
  }

  return plan;
}

/**
 * A job that has not ended, as one word of a question: the words such a job is found by (places.ts's CURRENT_WORDS and
 * CURRENT_JOB_WORDS), held together; undefined when no job of hers is ongoing (the question is read by its own words).
 */
const currentJob = (engine: Bm25Index | undefined, locale: Locale): QueryWord | undefined =>
  heldTogether(analyse(`${CURRENT_WORDS[locale]} ${CURRENT_JOB_WORDS[locale]}`, locale), engine);

/**
 * The other forms a query word stands for, and their weight in the ranking: the words it begins (`completions`, the last
 * word of a query being typed), else the words of its family the index holds (Lexicon.family) when it holds the word.
 */
function formsOf(word: QueryWord, completions: string[], engine: Bm25Index, lexicon: Lexicon): { forms: string[]; formWeight: number } {
  if (completions.length) return { forms: completions, formWeight: PREFIX_WEIGHT };
  const [token] = word.tokens;
  const family = word.tokens.length === 1 && engine.postings(token!) ? lexicon.family(token!).filter((t) => engine.postings(t)) : [];
  return { forms: family, formWeight: FAMILY_WEIGHT };
}

/** Whether a question's word (folded) is of her `name`, or a slip of it of 5+ letters, or one letter added: Noah, not Nora nor Goa. */
function nameMatcher(name: string): (typed: string) => boolean {
  const nameWords = name
    .split(/[\s\p{P}]+/u)
    .map((w) => foldWord(w))
    .filter((w) => w.length >= 3);
  return (typed) =>
    nameWords.some(
      (name) => typed === name || (name.length >= 5 ? editDistance(typed, name, 1) <= 1 : typed.length === name.length + 1 && typed.startsWith(name)),
    );
}

/**
 * The words a typo is read as: the index's, and the related words' (a recruiter's word the content lacks is known
 * through them, so "arteffarita" reads as "artefarita" and brings what it stands for); never her name ("Nora" is not
 * a slip of Noa).
 */
function lexiconOf(engine: Bm25Index, related: ReadonlyMap<string, unknown> | undefined, name: readonly QueryWord[]): Lexicon {
  const own = new Set(name.flatMap((w) => w.tokens));
  return new Lexicon(
    [...engine.toData().terms.filter((t) => !own.has(t)), ...[...(related?.keys() ?? [])].filter((t) => engine.postings(t) === undefined)],
    (t) => engine.postings(t) !== undefined || related?.has(t) === true,
    (t) => engine.postings(t)?.docs.length ?? 0,
  );
}

/**
 * Her name as other scripts write it, in a question, as her name in Latin letters: the whole name, and each of its
 * parts (split at a space or a middle dot, ノア・カステラン) as the part of `name` in the same place.
 */
function latinName(name: string, names: Partial<Record<Locale, string>>): (text: string) => string {
  const latin = name.split(/\s+/).filter(Boolean);
  const spellings = new Map<string, string>();
  for (const written of Object.values(names).map((n) => n.normalize('NFKC'))) {
    const parts = written.split(/[\s・·•‧]+/u).filter(Boolean);
    if (!parts.length || !latin.length) continue;
    spellings.set(written, name);
    parts.forEach((part, i) => latin[i] && !spellings.has(part) && spellings.set(part, latin[i]));
  }
  if (!spellings.size) return (text) => text;
  // (a spelling in kana or Latin letters is her name only where no letter of its script joins it: ノア, not カノア)
  const alternatives = [...spellings.keys()]
    .sort((a, b) => b.length - a.length)
    .map((w) => {
      const escaped = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const joins = /^[\p{Script=Katakana}ー]/u.test(w) ? '[\\p{Script=Katakana}ー]' : /^\p{Script=Latin}/u.test(w) ? '\\p{Script=Latin}' : '';
      return joins ? `(?<!${joins})${escaped}(?!${joins})` : escaped;
    });
  const pattern = new RegExp(alternatives.join('|'), 'gu');
  return (text) => text.normalize('NFKC').replace(pattern, (written) => ` ${spellings.get(written)} `);
}

/** `text` without the Latin words `drop` says (folded, without an elision: "Noa's"). */
function withoutWords(text: string, drop: (folded: string) => boolean): string {
  return text.replace(/[\p{Script=Latin}\p{M}'’-]+/gu, (word) => (drop(foldWord(word.split(/['’]/)[0]!)) ? ' ' : word));
}

/** A question's words without its joins' noise, its unknown asides and its stop words in capitals the profile never uses (withoutJoins, withoutAsides, withoutShouted). */
function kept(words: readonly QueryWord[], locale: Locale, engine: Bm25Index | undefined, related: ReadonlyMap<string, unknown> | undefined): QueryWord[] {
  return withoutShouted(withoutAsides(withoutJoins(words, engine, related), engine, related), locale, engine, related);
}

/**
 * The words without the stop words written in capitals (kept by analyse.ts as an abbreviation might be: IT, AI in
 * French) that neither the index nor the related words hold: emphasis or a question half in capitals ("WHAT IS HER
 * EXPERIENCE WITH Python?", "¿Tiene experiencia DE soporte?"), not a word the profile lacks. Unless no word is left.
 */
function withoutShouted(words: QueryWord[], locale: Locale, engine: Bm25Index | undefined, related: ReadonlyMap<string, unknown> | undefined): QueryWord[] {
  if (!engine) return words;
  const kept = words.filter(
    (w) => w.typed === undefined || !isStopWord(w.typed, locale) || w.tokens.some((t) => engine.postings(t) !== undefined || related?.has(t)),
  );
  return kept.length ? kept : words;
}

/**
 * The words without their Han bigrams across a joining character (或, 与, 和…) that neither the index nor the related
 * words hold: noise of the segmentation ("生或" of "实习生或指导"), not a word the profile lacks.
 */
function withoutJoins(words: readonly QueryWord[], engine: Bm25Index | undefined, related: ReadonlyMap<string, unknown> | undefined): QueryWord[] {
  if (!engine) return [...words];
  const noise = (t: string) => t.length === 2 && (HAN_JOINERS.has(t[0]!) || HAN_JOINERS.has(t[1]!)) && !engine.postings(t) && !related?.has(t);
  const out: QueryWord[] = [];
  for (const word of words) {
    if (word.typed !== undefined || !word.tokens.some(noise)) out.push(word);
    else if (word.tokens.some((t) => !noise(t))) out.push({ tokens: word.tokens.filter((t) => !noise(t)) });
  }
  return out;
}

/**
 * The words without those within brackets that neither the index nor the related words hold, unless no other word is
 * left: an aside glosses the words before it ("開發者體驗（DX）", "developer experience (DX)"), and an abbreviation the
 * profile never uses is not a word it lacks. (One it holds is a word of the question.)
 */
export function withoutAsides(words: QueryWord[], engine: Bm25Index | undefined, related: ReadonlyMap<string, unknown> | undefined): QueryWord[] {
  if (!engine || !words.some((w) => w.aside)) return words;
  const kept = words.filter((w) => !w.aside || w.tokens.some((t) => engine.postings(t) !== undefined || related?.has(t)));
  return kept.length ? kept : words;
}

/** The concepts resolved in one locale's index: their documents and weights (a word no passage holds weighs the known words' mean). */
function resolveConcepts(concepts: readonly Concept[], engine: Bm25Index): ResolvedConcept[] {
  const resolved = concepts.map(({ own, related, hold }): ResolvedConcept => {
    const postings = own.map((t) => engine.postings(t));
    // a phrase stands for the word only where all its words are ("business model" is not "large language model")
    const standIns = related.flatMap((member) => {
      const docs = member.map((t) => engine.postings(t));
      return docs.every((d) => d !== undefined) ? [docs] : [];
    });
    const known = postings.some((p) => p !== undefined) || standIns.length > 0;
    // a word known only through its stand-ins (a typo's corrections) weighs what they do
    const weight = postings.some((p) => p !== undefined)
      ? postings.reduce((sum, p) => sum + (p ? p.idf : engine.maxIdf), 0) / own.length
      : known
        ? Math.max(...standIns.map((docs) => docs.reduce((sum, p) => sum + p.idf, 0) / docs.length))
        : Number.NaN;
    return { weight, own: postings.map((p) => p?.docs), related: standIns.map((docs) => docs.map((p) => p.docs)), hold };
  });
  // A word no passage of this locale holds (nor any spelling near it) weighs what the question's known words do on
  // average, not the most a word can: it does not veto a question ("the subject", a misspelt name), but a question
  // whose known words are not more than its unknown ones ("salary expectations") is still no match. The more known
  // words a question has, the less an unknown one is likely to be what it asks about: past UNKNOWN_SHARE known words,
  // an unknown word weighs UNKNOWN_SHARE of their mean over their number ("Which degrees has she obtained, zyqvarn?").
  // A light word (a verb of making, a word for a company, one that picks one of several) weighs nothing beside the
  // question's other words: it says nothing of which record answers.
  if (concepts.some((c) => !c.light)) concepts.forEach((c, i) => c.light && (resolved[i]!.weight = 0));
  const knownWeights = resolved.filter((r, i) => !Number.isNaN(r.weight) && !concepts[i]!.light).map((r) => r.weight);
  const unknownWeight = knownWeights.length
    ? (knownWeights.reduce((a, b) => a + b, 0) / knownWeights.length) * Math.min(1, UNKNOWN_SHARE / knownWeights.length)
    : engine.maxIdf;
  // A language or a country no passage holds is what the question asks about, named as meant: it weighs what a
  // word no passage holds weighs in BM25, the most a word can ("Does she speak Korean?" of a profile without it is no match).
  resolved.forEach((r, i) => {
    if (Number.isNaN(r.weight)) r.weight = concepts[i]!.named ? engine.maxIdf : unknownWeight;
  });
  return resolved;
}

const LATIN_HINTS: Partial<Record<Locale, RegExp>> = {
  eo: /[ĉĝĥĵŝŭ]|\b[cghjsu]x|\b(?:cxu|ĉu)\b/i,
  es: /[ñ¿¡]/,
  fr: /[çœèêëîïû]|\b(?:qu|l|d|j|n|c)['’]\p{L}/iu,
};

const foldWord = (word: string) =>
  word
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
/** The words of a Latin-script query, lowercased and without accents (segmented in windows; P&L one word, not French's "l"). */
function latinWords(query: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of wordSegments(joinedAmpersands(query), 'en')) if (isWordLike) out.push(foldWord(segment));
  return out;
}

/** How well a query fits a language: its tokens that the language's text holds, its stop words, its letters. */
function languageFit(tokens: Iterable<string>, words: readonly string[], query: string, locale: Locale, engine: Bm25Index | undefined): number {
  let fit = 0;
  if (engine) for (const token of tokens) if (engine.postings(token)) fit++;
  const stops = stopWords[locale as keyof typeof stopWords] as ReadonlySet<string> | undefined;
  if (stops) for (const word of words) if (stops.has(word)) fit++;
  if (LATIN_HINTS[locale]?.test(query)) fit += 2;
  return fit;
}
