import { IntlMessageFormat } from 'intl-messageformat';
import type { Language } from '../domain/language/languages.ts';
import { CATALOGS } from './catalogs.ts';
import type { MessageKey } from './catalogs/en.ts';

/** DocuSign's `pt_BR` as the BCP 47 tag Intl and HTML's `lang` take (`pt-BR`). */
export function localeOf(language: Language): string {
  return language.replace('_', '-');
}

/**
 * Named date and time styles the catalogs use (`{at, date, day}`, `{at, date, numeric}`, `{at, time, utc}`). Days are UTC, as every date this
 * service mails or prints: the recipient's time zone is unknown.
 */
const FORMATS = {
  date: { day: { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }, numeric: { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' } },
  time: { utc: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone: 'UTC', timeZoneName: 'short' } },
} as const;

export type MessageValues = Record<string, string | number | Date>;

/** Messages of one language: ICU MessageFormat, plural rules and dates by Intl in that locale. */
export type Translator = {
  readonly language: Language;
  /** The BCP 47 tag (for `<html lang>`). */
  readonly locale: string;
  readonly t: (key: MessageKey, values?: MessageValues) => string;
};

const compiled = new Map<string, IntlMessageFormat>();

function formatOf(language: Language, key: MessageKey): IntlMessageFormat {
  const id = `${language}\u0000${key}`;
  let format = compiled.get(id);
  if (!format) {
    // ignoreTag: a `<` in a message (`<{email}>`) is text, never rich-text markup.
    format = new IntlMessageFormat(CATALOGS[language][key], localeOf(language), FORMATS, { ignoreTag: true });
    compiled.set(id, format);
  }
  return format;
}

export function translator(language: Language): Translator {
  const locale = localeOf(language);
  return {
    language,
    locale,
    t: (key, values) => {
      const out = formatOf(language, key).format(values);
      if (typeof out !== 'string') throw new TypeError(`message ${key} (${language}) did not format to text`);
      return out;
    },
  };
}
