// The words a recruiter's question uses for the person it asks about and to frame itself: stop words of a question,
// not of the content (analyse.ts drops them from a question before it is matched).

/** The languages of Latin-script questions (analyse.ts's LatinLanguage). */
type Language = 'en' | 'fr' | 'es' | 'eo';
// (each word with its accents folded, as analyse.ts's `fold` does)
const words = (list: string) =>
  new Set(
    list
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w.normalize('NFKD').replace(/\p{M}+/gu, '')),
  );

/**
 * Words a question uses for the person it asks about ("the candidate", "this person", 候选人): every record is
 * about her, so they say nothing of which one answers; and as the content never uses them, they would count as
 * words the profile does not hold. Stop words of a question, not of the content. (she, her, he and the like are
 * stop words of the language already.)
 */
export const PERSON_WORDS: Record<Language, ReadonlySet<string>> & { han: readonly string[] } = {
  en: words('candidate candidates subject person individual applicant applicants interviewee jobseeker herself himself themselves someone somebody'),
  fr: words('candidat candidate candidats candidates personne sujet postulant postulante intéressé intéressée concernée concerné'),
  es: words('candidato candidata candidatos candidatas persona sujeto postulante aspirante interesado interesada'),
  eo: words('kandidato kandidatino kandidaton kandidatinon persono personon kandidatoj ulo ulino viro virino'),
  han: '候选人 候選人 应聘者 應聘者 求职者 求職者 应征者 應徵者 这个人 這個人 这位 這位 此人 本人 候補者 応募者 この人 この方 彼女 彼'.split(' '),
};

/**
 * Words that frame a recruiter's question rather than say what it is about ("Any experience in the … sector?",
 * "Has she worked in … industry?"): every record of a career is experience and work, so they say nothing of which
 * one answers; held by many, they made a question about a sector the profile lacks look half answered. Stop words
 * of a question, as PERSON_WORDS are.
 */
export const FRAME_WORDS: Record<Language, ReadonlySet<string>> & { han: readonly string[] } = {
  en: words(
    'experience experiences experienced background worked working sector sectors industry industries field fields domain familiar familiarity exposure ' +
      'hold holds held holding possess possesses possessed years ' +
      // (a job advertisement's requirements: "Strong SQL skills required")
      'required requirement requirements skill skills proficiency proficient expertise ability abilities strong solid proven excellent demonstrated ' +
      // (and what it would only like: "Background in hospitality is a plus")
      'plus bonus preferred preferably desirable advantage advantageous asset ideally',
  ),
  fr: words(
    'expérience expériences expérimentée expérimenté expérimentés expérimentées travaillé travaillée travaillant secteur secteurs industrie industries ' +
      'domaine domaines parcours formation formations familière familier familiers familières familiarisée familiarisé ' +
      'possède possèdent posséder possédé détient détiennent détenir détenu ans années ' +
      'requis requise requises exigé exigée exigés compétence compétences solide solides excellente excellent ' +
      'atout apprécié appréciée appréciés souhaité souhaitée souhaitable idéalement',
  ),
  es: words(
    'experiencia experiencias experimentada experimentado experimentadas experimentados trabajado trabajando sector sectores industria industrias ' +
      'ámbito ámbitos campo campos trayectoria formación formaciones familiarizada familiarizado familiarizadas familiarizados ' +
      'posee poseen poseer poseído años ' +
      'requisito requisitos requerido requerida requeridos requeridas imprescindible imprescindibles valorable valorables habilidad habilidades competencia competencias dominio sólido sólida sólidos sólidas ' +
      'deseable deseables preferible plus ventaja idealmente valora valoran valorará valorarán valorado valorada',
  ),
  eo: words(
    'sperto spertoj sperton spertojn sperta sperte laboris laborinta sektoro sektoron sektoroj industrio industrion kampo kampon fono fonon ' +
      'posedas posedis posedi jarojn jaroj ' +
      'postulata postulataj postulato postulatoj lerto lertoj lerton kapablo kapabloj kapablon solida solidan ' +
      'avantaĝo avantaĝon dezirinda dezirindaj prefere',
  ),
  // (experience, hands-on, sector, industry, field, working in it, background, familiar with, how many years, please tell me; and
  // what gives an example, "like Zendesk", "such as": in Chinese and Japanese)
  han: (
    '经验 經驗 経験 行业 行業 产业 產業 業界 业界 领域 領域 从业 從業 勤務 背景 経歴 熟悉 何年 具备 具備 相关 相關 教えてください 教えて下さい ' +
    '例如 诸如 諸如 之类 之類 例えば 実務 实务 實務 技能 熟练 熟練 精通 スキル ' +
    // (and what it would only like: 优先, 加分, 尚可, 歓迎, 優遇)
    '优先 優先 加分 尚可 歓迎 優遇'
  ).split(' '),
};
// Frame words cut only where they end a phrase (holding a post: 任職 but not 任職期間; having, after its object's
// particle: 資格をお持ちですか, but not お持ち帰り or 受け持って; the kind of experience asked for, before the word for it:
// 实际的会计工作经验, 実践的な経験; what gives an example, not inside a word: 类似 but not 类似度, 比如 but not 对比如何)
export const FRAME_IN_PLACE = [
  '(?:类似|類似)(?![度性于於])',
  '(?<![对對])比如',
  '任[职職](?=[于於过過的吗嗎？?\\s]|$)',
  '(?<=[をはがも]|^)(?:お持ち(?=[での？?]|$)|持って(?=[いおま]))',
  '(?:实际|實際|实战|實戰|実践|実戦)(?=[^，。？?、,]{0,12}(?:经验|經驗|経験))',
];

/**
 * How long an experience a question or a requirement asks for ("5+ years of Python", "3-5 ans", "al menos 4 años",
 * "5年以上"): its number says nothing of which record answers (the word for years is a frame word), and matched
 * "out of 5" in a rating. A question's text, before it is split into words.
 */
export const DURATION =
  /(?<![\p{Script=Latin}\p{N}.,])\d{1,2}(?:\s*(?:-|–|to|à|a|al)\s*\d{1,2})?\s*(?:\+?\s*(?=(?:years?|yrs?|ans|années|años|anos|jaroj?n?)(?!\p{L}))|年(?:以上|半)?)/giu;

/**
 * Words that say what kind of experience a question asks for ("practical experience", "expérience pratique",
 * "experiencia práctica", "praktika sperto"): frame words beside a word for experience, and only there ("practical
 * AI" keeps its word). A question's text, before it is split into words.
 */
export const EXPERIENCE_KINDS: Record<Language, RegExp> = {
  en: new RegExp(
    '(?<![\\p{L}-])(?:hands[- ]on|practical|professional|real[- ]world|relevant|prior|previous|proven|solid|direct|extensive|strong)(?=\\s+(?:experiences?|background|exposure)(?!\\p{L})(?!\\s+design))',
    'giu',
  ),
  fr: new RegExp(
    loose('(?<=(?<!\\p{L})(?:expériences?|parcours)\\s+)(?:pratiques?|professionnel(?:le)?s?|concrètes?|solides?|significatives?|réelles?)(?!\\p{L})'),
    'giu',
  ),
  es: new RegExp(
    loose('(?<=(?<!\\p{L})(?:experiencias?|trayectoria)\\s+)(?:prácticas?|profesional(?:es)?|demostrables?|sólidas?|reales?|previas?|relevantes?)(?!\\p{L})'),
    'giu',
  ),
  eo: new RegExp('(?<!\\p{L})(?:praktik|profesi|real|konkret|solid)aj?n?(?=\\s+(?:sperto|fono)j?n?(?!\\p{L}))', 'giu'),
};
/** A pattern whose accented letters also match the letter without its accent (a question typed without accents). */
function loose(pattern: string): string {
  return pattern.replace(/[áàâéèêíóú]/g, (c) => `[${c}${c.normalize('NFKD')[0]}]`);
}
