// Every locale's message table, for the server: the root loader sends one of them to the browser, and the
// resource routes (Markdown twins, feed, llms.txt) format with them directly.
import type { Locale } from './locales.ts';
import { translator, type Messages, type Translate } from './messages.ts';
import en from './messages/en.json';
import zh from './messages/zh.json';
import zhHant from './messages/zh-hant.json';
import ja from './messages/ja.json';
import fr from './messages/fr.json';
import es from './messages/es.json';
import eo from './messages/eo.json';
import { entrySections } from '../../operations/contract/entry-sections.ts';
import { labels } from '../../operations/contract/labels.ts';

const own = { en, zh, 'zh-hant': zhHant, ja, fr, es, eo };
/** Each locale's messages, with the headings of an entry's sections and the labels the contract keeps for every door. */
export const messageTables: Readonly<Record<Locale, Messages>> = Object.fromEntries(
  Object.entries(own).map(([locale, table]) => [locale, { ...table, ...entrySections[locale as Locale], ...labels[locale as Locale] }]),
) as Record<Locale, Messages>;

export function messagesFor(locale: Locale): Messages {
  return messageTables[locale];
}

const translators = new Map<Locale, Translate>();

/** The server's `t` for a locale (compiled messages are kept for the life of the process). */
export function translatorFor(locale: Locale): Translate {
  let t = translators.get(locale);
  if (!t) translators.set(locale, (t = translator(locale, messageTables[locale])));
  return t;
}
