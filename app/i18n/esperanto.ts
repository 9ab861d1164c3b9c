// Esperanto's dates and numbers, written by the project rather than by ICU: Node's ICU has Esperanto data and
// Chromium's has none (it falls back to English), so a page formatted by Intl would differ between the server's
// HTML and the browser's first render, and React would throw the page away on hydration.

/** The months as Esperanto writes them in running text ("18 majo 2026"): lower case, nominative. */
export const esperantoMonths = [
  'januaro',
  'februaro',
  'marto',
  'aprilo',
  'majo',
  'junio',
  'julio',
  'aŭgusto',
  'septembro',
  'oktobro',
  'novembro',
  'decembro',
] as const;

/** A UTC day as "18 majo 2026". */
export function esperantoDay(date: Date): string {
  return `${date.getUTCDate()} ${esperantoMonths[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** The signs Esperanto writes where English writes "," and ".". */
const esperantoSigns: Partial<Record<Intl.NumberFormatPartTypes, string>> = { group: '\u202f', decimal: ',' };

/**
 * A number format with Esperanto's signs ("20 000", "3,5", "45%"), built on English, which every ICU has:
 * the two differ only in the group and decimal signs.
 */
export class EsperantoNumberFormat extends Intl.NumberFormat {
  constructor(options?: Intl.NumberFormatOptions) {
    super('en', options);
  }

  override formatToParts(value: number | bigint): Intl.NumberFormatPart[] {
    return super.formatToParts(value).map((part) => ({ ...part, value: esperantoSigns[part.type] ?? part.value }));
  }

  override format(value: number | bigint): string {
    return this.formatToParts(value)
      .map((part) => part.value)
      .join('');
  }
}
