// The og:image cards: how long one card takes to draw, in process. Cold is the first card after the font cache
// was emptied (font files read and parsed; the very first card of the process also starts satori's layout
// engine); warm is the median of later cards of the same locale with other titles (fonts held, nothing else cached).
import { performance } from 'node:perf_hooks';
import { locales } from '../app/i18n/locales.ts';
import { clearFontCache, fontCacheStats } from '../app/utils/og-fonts.server.ts';
import { ogImage, type OgCard } from '../app/utils/og-image.server.ts';
import { median, printTable } from './lib.ts';

const titles: Record<string, string> = {
  en: 'Concierge Copilot: an LLM assistant for hotel guests',
  zh: 'Concierge Copilot：面向酒店住客的 LLM 助手',
  'zh-hant': 'Concierge Copilot：服務飯店房客的 LLM 助理',
  ja: 'Concierge Copilot：ホテル宿泊客向けLLMアシスタント',
  fr: 'Concierge Copilot : un assistant LLM pour les clients des hôtels',
  es: 'Concierge Copilot: un asistente basado en LLM para huéspedes de hotel',
  eo: 'Juĝanto kaj mentoro de hakatono',
};

export async function benchOg(options: { runs: number }) {
  const card = (locale: OgCard['locale'], title: string): OgCard => ({
    locale,
    type: 'entry',
    eyebrow: 'Project',
    title,
    subtitle: 'Orbitale Travel · 2023 – 2024',
    name: 'Noa Castellan',
    headline: 'Head of AI at Orbitale Travel: applied LLM products for hospitality',
    host: 'vitae.example',
  });
  const time = async (given: OgCard) => {
    const start = performance.now();
    await ogImage(given);
    return performance.now() - start;
  };
  const first = await time(card('en', titles.en!));
  const rows: Array<Record<string, string | number>> = [{ measure: 'first card of the process (en)', value: `${first.toFixed(0)} ms` }];
  for (const locale of locales) {
    clearFontCache();
    const cold = await time(card(locale, titles[locale]!));
    const { files, bytes } = fontCacheStats();
    const warm: number[] = [];
    // Another title each run (a card is cached by the route, not here): the same characters in another order.
    for (let i = 0; i < options.runs; i++) warm.push(await time(card(locale, `${i} ${[...titles[locale]!].reverse().join('')}`)));
    rows.push({
      measure: `${locale}: cold / warm (median of ${options.runs}); fonts held`,
      value: `${cold.toFixed(0)} ms / ${median(warm).toFixed(0)} ms; ${files} files, ${(bytes / 1024).toFixed(0)} kB`,
    });
  }
  printTable('og:image cards: draw time per card (satori + resvg, in process)', rows);
}
