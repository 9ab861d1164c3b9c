// Reading a job description without a model: its requirements from its bullets (or, in prose, from the sentences
// that ask something of the candidate), must-haves and nice-to-haves told apart by the headings and words a job
// advertisement uses for them in each locale, and the sections about the employer or the offer left out.
import { REQUIREMENT_MAX, REQUIREMENTS_MAX } from '../contract/match.ts';
import { isStopWord } from '../corpus/analyse.ts';
import { locales } from '../contract/shared.ts';

export interface ReadRequirement {
  text: string;
  kind: 'must' | 'nice';
}

/** Words of a heading or an item that make it a nice-to-have, in every locale (lower case, accents kept). */
const NICE =
  /nice[ -]to[ -]have|\bbonus|\bpreferred\b|\bpreferably\b|\bideally\b|\ba plus\b|is a plus|are a plus|would be (great|nice|a plus)|\bdesirable\b|\b(?:an|is an|are) assets?\b|un plus|un atout|\batouts?\b|idéalement|apprécié|souhaité|serait un plus|se valorar|valorable|deseable|es un plus|preferiblemente|idealmente|plusaĵ|\bprefere\b|avantaĝ|estus bonvena|优先|加分|更佳|者佳|尤佳|歓迎|尚可|望ましい|優遇|加分項/u;
/** Headings of sections that describe the employer, the offer or how to apply: not requirements. */
const SKIP =
  /about (us|the (company|team|role))|who we are|what we offer|we offer|benefits|perks|compensation|salary|how to apply|to apply|our (company|mission|values)|à propos|qui sommes|nous offrons|nous proposons|avantages|rémunération|pour postuler|sobre nosotros|quiénes somos|ofrecemos|beneficios|salario|cómo aplicar|pri ni|ni proponas|ni ofertas|avantaĝoj por vi|salajro|kiel kandidatiĝi|关于我们|公司简介|公司介紹|關於我們|福利|待遇|薪资|薪資|薪酬|我们提供|我們提供|应聘方式|應徵方式|会社概要|私たちについて|福利厚生|給与|待遇|応募方法|当社について/u;
/** Words of a sentence that asks something of the candidate (for descriptions written as prose). */
const ASKS =
  /\b(you|your|must|should|required?|experience|experienced|ability|able to|knowledge|skills?|years?|proven|track record|familiar|fluent|degree|vous|votre|expérience|maîtris|connaissance|compétences?|capacité|savoir|ans\b|diplôme|usted|tú|tu |experiencia|conocimiento|habilidad|capacidad|años|dominio|titulación|vi |via |sperto|scio|kapabl|jaroj|lingv)|经验|經驗|经历|經歷|背景|経歴|能力|熟悉|熟练|熟練|精通|掌握|具备|具備|年以上|学历|學歷|経験|スキル|能力|知識|理解|年以上|資格|できる|ある方|求め/iu;

/**
 * A label that opens a requirement and says which kind it is ("Must have: Kubernetes", "Nice: a hospitality
 * background", "Atout : …", "必須：…"): the requirement is what follows it; `must` or `nice` is the label's group.
 */
const LABEL =
  /^(?:(?<must>must[- ]haves?|must have|requirements?|required|essential|mandatory|exigences?|requis|obligatoire|indispensable|requisitos?|imprescindible|obligatorio|postuloj?|deviga|必须|必須|必要条件|必須条件|任职要求|任職要求)|(?<nice>nice[- ]to[- ]haves?|nice|bonus|plus|preferred|desirable|optional|atouts?|un plus|souhaité|apprécié|deseable|valorable|se valora|plusaĵoj?|dezirinda|加分项?|加分項|优先|優先|歓迎|尚可))\s*[:：]\s*/iu;

/** A requirement without the label that opens it, and the kind the label names (undefined: no label). */
function unlabelled(text: string): { text: string; kind?: 'must' | 'nice' } {
  const label = LABEL.exec(text);
  if (!label || label[0].length === text.length) return { text };
  return { text: text.slice(label[0].length), kind: label.groups!.nice ? 'nice' : 'must' };
}

/** A list item's mark: ASCII marks and numbers take a space after them; the typographic ones (・ in Japanese) need none. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

const BULLET = /^\s*(?:[-*+–—]\s+|[•·・●▪◦‣■□◆◇※]\s*|[0-9０-９]{1,2}[.)]\s+|[0-9０-９]{1,2}[、．）]\s*|[a-z][.)]\s+|[（(][0-9０-９]{1,2}[)）]\s*)/u;
const HEADING = /^\s*(?:#{1,6}\s+(.+?)\s*#*\s*$|\*\*(.+?)\*\*:?\s*$|__(.+?)__:?\s*$)/u;

/** A line's text without its Markdown marks. */
function clean(text: string): string {
  return text
    .replace(BULLET, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Cut at a word (or, without spaces, at a character) so the requirement fits its field. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '');
}

/**
 * The name of a section: a Markdown heading, a short line ending with a colon, or a short line without a final mark
 * that opens a block (after a blank line, or first) and is followed by a list or by more text ("What you'll do").
 */
function headingOf(line: string, opensBlock: boolean, next: string | undefined): string | undefined {
  const marked = HEADING.exec(line);
  if (marked) return (marked[1] ?? marked[2] ?? marked[3])!.trim();
  const text = line.trim();
  // "■必須スキル" over a list of "・" items names the list, though ■ marks an item elsewhere
  if (/^\s*[■◆]/.test(line) && text.length <= 40 && next !== undefined && BULLET.test(next) && !/^\s*[■◆]/.test(next)) return text.replace(/^[■◆]\s*/, '');
  if (BULLET.test(line)) return undefined;
  const short = text.length <= 60 && text.split(/\s+/).length <= 8;
  if (/[:：]$/.test(text) && short) return text.replace(/[:：]$/, '');
  if (opensBlock && short && next !== undefined && !/[.!?。！？;；,，、]$/.test(text) && (BULLET.test(next) || next.trim() === '' || /^[【[]/.test(text)))
    return text;
  if (/^【.+】$|^\[.+\]$/.test(text) && short) return text.replace(/^[【[]|[】\]]$/g, '');
  return undefined;
}

const sentencesOf = (paragraph: string) =>
  paragraph
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{Lo}“"«¿¡])|(?<=[。！？])/u)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * A long Chinese or Japanese sentence as its clauses: such prose lists several requirements in one sentence, apart by
 * commas and semicolons ("五年以上经验，熟悉 Python；有团队管理经历。").
 */
function clausesOf(sentence: string): string[] {
  if (!CJK.test(sentence) || sentence.length <= 40) return [sentence];
  const clauses = sentence
    .split(/[，；;]/u)
    .map((c) => c.trim())
    .filter(Boolean);
  return clauses.every((c) => c.length >= 6) ? clauses : [sentence];
}

/** How many list items lie in sections that are read (not about the employer or the offer). */
function bulletsOutsideSkipped(lines: string[]): number {
  let skipped = false;
  let n = 0;
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    const heading = headingOf(line, !lines[i - 1]?.trim(), lines[i + 1]);
    if (heading !== undefined) skipped = SKIP.test(heading.toLowerCase());
    else if (BULLET.test(line) && !skipped) n++;
  }
  return n;
}

/** The requirements of a job description, in its order, at most REQUIREMENTS_MAX. */
export function readRequirements(description: string): ReadRequirement[] {
  const lines = description.replace(/\r\n?/g, '\n').split('\n');
  // Prose is read when the requirements are not a list; a list of benefits or perks (a section left out) does not count.
  const hasBullets = bulletsOutsideSkipped(lines) >= 2;
  const items: Array<ReadRequirement & { bullet: boolean }> = [];
  let section: 'must' | 'nice' | 'skip' = 'must';
  let paragraph: string[] = [];

  const flushParagraph = () => {
    if (!paragraph.length) return;
    const text = clean(paragraph.join(' '));
    paragraph = [];
    if (section === 'skip' || hasBullets) return;
    for (const written of sentencesOf(text)) {
      // a sentence that asks something, says what would be a plus, or is labelled as a requirement
      const { text: sentence, kind } = unlabelled(written);
      if (!kind && !ASKS.test(sentence) && !NICE.test(sentence.toLowerCase())) continue;
      for (const clause of clausesOf(sentence)) {
        items.push({ text: clause, kind: kind ?? (section === 'nice' || NICE.test(clause.toLowerCase()) ? 'nice' : 'must'), bullet: false });
      }
    }
  };

  for (const [i, line] of lines.entries()) {
    if (!line.trim()) {
      flushParagraph();
      continue;
    }
    const heading = headingOf(line, !paragraph.length && !lines[i - 1]?.trim(), lines[i + 1]);
    if (heading !== undefined) {
      flushParagraph();
      const lower = heading.toLowerCase();
      section = SKIP.test(lower) ? 'skip' : NICE.test(lower) ? 'nice' : 'must';
      continue;
    }
    if (BULLET.test(line)) {
      flushParagraph();
      if (section === 'skip') continue;
      const { text, kind } = unlabelled(clean(line));
      if (text) items.push({ text, kind: kind ?? (section === 'nice' || NICE.test(text.toLowerCase()) ? 'nice' : 'must'), bullet: true });
      continue;
    }
    // An indented line right after an item continues it.
    const last = items.at(-1);
    if (/^\s{2,}\S/.test(line) && last?.bullet && !paragraph.length) {
      last.text = `${last.text} ${clean(line)}`;
      continue;
    }
    paragraph.push(line);
  }
  flushParagraph();

  const seen = new Set<string>();
  const out: ReadRequirement[] = [];
  for (const { text, kind } of items) {
    const key = text.toLowerCase();
    if (text.length < 3 || seen.has(key)) continue;
    seen.add(key);
    out.push({ text: cutAtWord(text, REQUIREMENT_MAX), kind });
    if (out.length === REQUIREMENTS_MAX) break;
  }
  return out;
}

/**
 * The content words of a text, for telling which sentence of a passage (or which honest gap) a requirement is
 * about: Latin words without accents or stop words, cut to five letters (a crude stem that holds across endings);
 * Chinese and Japanese as pairs of characters.
 */
export function contentWords(text: string): Set<string> {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const out = new Set<string>();
  for (const word of folded.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (CJK.test(word)) {
      for (const run of word.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu) ?? []) {
        for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
      }
      continue;
    }
    if (word.length < 3 || locales.some((l) => l !== 'zh' && l !== 'zh-hant' && l !== 'ja' && isStopWord(word, l))) continue;
    out.add(word.slice(0, 5));
  }
  return out;
}

/** How many of `words` the text holds. */
export function shared(words: ReadonlySet<string>, text: string): number {
  let n = 0;
  for (const word of contentWords(text)) if (words.has(word)) n++;
  return n;
}
