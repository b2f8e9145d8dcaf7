import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { SUPPORTED_LANGUAGES } from '../domain/language/languages.ts';
import { CATALOGS } from './catalogs.ts';
import { en, type MessageKey } from './catalogs/en.ts';
import { translator } from './translator.ts';

const KEYS = Object.keys(en).sort() as MessageKey[];

/** The placeholders a message uses, by name and kind (argument, number/plural, date). */
function placeholders(elements: MessageFormatElement[], into = new Map<string, TYPE>()): Map<string, TYPE> {
  for (const e of elements) {
    if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date) into.set(e.value, e.type);
    if (e.type === TYPE.plural || e.type === TYPE.select) {
      into.set(e.value, e.type === TYPE.plural ? TYPE.number : TYPE.argument);
      for (const option of Object.values(e.options)) placeholders(option.value, into);
    }
  }
  return into;
}

function sampleValues(names: Map<string, TYPE>): Record<string, string | number | Date> {
  const sample = (name: string, type: TYPE): string | number | Date =>
    type === TYPE.date ? new Date('2026-03-07T12:00:00Z') : type === TYPE.number ? 2 : `«${name}»`;
  return Object.fromEntries([...names].map(([name, type]) => [name, sample(name, type)]));
}

test('every catalog has exactly the keys of English', () => {
  assert.deepEqual([...SUPPORTED_LANGUAGES].sort(), Object.keys(CATALOGS).sort());
  for (const language of SUPPORTED_LANGUAGES) assert.deepEqual(Object.keys(CATALOGS[language]).sort(), KEYS, language);
});

test('every message parses, uses the placeholders of its English message and formats with them', () => {
  for (const language of SUPPORTED_LANGUAGES) {
    const { t } = translator(language);
    for (const key of KEYS) {
      const expected = placeholders(parse(en[key], { ignoreTag: true }));
      const actual = placeholders(parse(CATALOGS[language][key], { ignoreTag: true }));
      assert.deepEqual(actual, expected, `${language} ${key}`);
      const values = sampleValues(expected);
      const out = t(key, values);
      for (const [name, type] of expected) if (type === TYPE.argument) assert.ok(out.includes(`«${name}»`), `${language} ${key} shows {${name}}: ${out}`);
      assert.ok(!/[{}]/.test(out), `${language} ${key} leaves no braces: ${out}`);
    }
  }
});

test('dates and plurals are formatted by Intl in the language', () => {
  const at = new Date('2026-03-07T23:30:00Z');
  assert.equal(translator('en').t('reminder.expiresOn', { expiresAt: at }), 'The envelope expires on March 7, 2026.');
  assert.equal(translator('de').t('reminder.expiresOn', { expiresAt: at }), 'Der Umschlag läuft am 7. März 2026 ab.');
  assert.equal(translator('ja').t('reminder.expiresOn', { expiresAt: at }), 'このエンベロープの有効期限は 2026年3月7日 です。');
  assert.equal(translator('pt_BR').locale, 'pt-BR');
  assert.match(translator('pt_BR').t('reminder.expiresOn', { expiresAt: at }), /7 de março de 2026/);
  assert.equal(translator('fr').t('passcode.validity', { minutes: 1 }), 'Il fonctionne une fois, pendant 1 minute.');
  assert.equal(translator('fr').t('passcode.validity', { minutes: 10 }), 'Il fonctionne une fois, pendant 10 minutes.');
});

test('a value is inserted as text: markup in a name stays as typed, for the HTML part to escape', () => {
  const out = translator('de').t('declined.body', { name: '<b>Eve</b>', email: 'e@x.test', subject: '{x}' });
  assert.equal(out, '<b>Eve</b> <e@x.test> hat die Unterschrift von „{x}“ abgelehnt. Der Umschlag ist geschlossen.');
});
