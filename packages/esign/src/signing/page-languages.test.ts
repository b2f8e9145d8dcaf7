import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope, EnvelopeDocument, Recipient } from '../domain/envelope/envelope.ts';
import { SUPPORTED_LANGUAGES } from '../domain/language/languages.ts';
import { parseTabs } from '../domain/tabs/parse-tabs.ts';
import type { TabOnPage } from '../domain/tabs/tab-on-page.ts';
import { initialTabValue } from '../domain/tabs/values/initial-tab-value.ts';
import { CATALOGS } from '../i18n/catalogs.ts';
import { en, type MessageKey } from '../i18n/catalogs/en.ts';
import { translator, type Translator } from '../i18n/translator.ts';
import { WireReader } from '../wire/wire-reader.ts';
import { accessCodeLockedPage, accessCodePage } from './access-code-page.ts';
import { pageMessages } from './page-messages.ts';
import { passcodeLockedPage, passcodePage } from './passcode-page.ts';
import { recipientsPage } from './recipients-page.ts';
import { ceremonyPage, sessionEndPage } from './signing-pages.ts';
import { tabRules } from './tab-rule.ts';

// The pages a recipient sees, rendered as the routes render them, in each language.

/** The catalog keys of the recipient's pages (src/signing/). */
const PAGE_PREFIXES = ['page.', 'tab.', 'script.', 'check.', 'state.', 'gate.', 'supplement.', 'manage.'];
const PAGE_KEYS = (Object.keys(en) as MessageKey[]).filter((k) => PAGE_PREFIXES.some((p) => k.startsWith(p)));

/**
 * Messages that may read as in English: formats with no words, and words that are the same in
 * that language ("optional" and "Name" in German, "Documents" and "Date" in French, "Editor" in Spanish).
 */
const NEUTRAL: ReadonlySet<MessageKey> = new Set(['tab.autoFilled', 'manage.fixed', 'script.separator']);
const SAME_WORD: Readonly<Partial<Record<string, readonly MessageKey[]>>> = { de: ['tab.optional', 'manage.name'], fr: ['page.documents', 'tab.date'], es: ['manage.type.editor'] };

test('every page message is translated: no non-English catalog keeps an English page message', () => {
  assert.ok(PAGE_KEYS.length > 140);
  for (const language of SUPPORTED_LANGUAGES.filter((l) => l !== 'en')) {
    const same = PAGE_KEYS.filter((k) => CATALOGS[language][k] === en[k] && !NEUTRAL.has(k) && !(SAME_WORD[language] ?? []).includes(k));
    assert.deepEqual(same, [], `${language} keeps English for these keys`);
  }
});

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });
const TABS = parseTabs(new WireReader('tabs', {
  textTabs: [{ ...at(72, 100), tabLabel: 'Kundennummer', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$' }, { ...at(300, 100), tabLabel: 'Bemerkung', required: 'false' }],
  numericalTabs: [{ ...at(72, 160), tabLabel: 'Menge', minNumericalValue: '1', maxNumericalValue: '9' }],
  dateTabs: [at(72, 190)], emailTabs: [at(72, 220)], zipTabs: [at(72, 250)], ssnTabs: [at(200, 250)],
  checkboxTabs: [{ ...at(72, 290), tabLabel: 'Bedingungen', required: 'true' }],
  radioGroupTabs: [{ groupName: 'Tarif', documentId: '1', radios: [{ pageNumber: '1', xPosition: '72', yPosition: '330', value: 'basis' }] }],
  listTabs: [{ ...at(72, 370), tabLabel: 'Farbe', listItems: [{ text: 'Rot', value: 'rot' }] }],
  fullNameTabs: [at(72, 440)], dateSignedTabs: [at(300, 440)],
  signHereTabs: [at(72, 600), { ...at(200, 600), optional: 'true' }], initialHereTabs: [at(300, 600)],
  approveTabs: [at(72, 650)], declineTabs: [at(150, 650)], viewTabs: [{ ...at(250, 650), requiredRead: 'true' }],
  signerAttachmentTabs: [at(72, 700)],
}), { recipientId: '1' });
const tabsOnPage: TabOnPage[] = TABS.map((tab, i) => {
  const place = (p: { kind: string; pageNumber?: number; xPosition?: number; yPosition?: number }) => ({ documentId: '1', pageNumber: p.pageNumber ?? 1, xPosition: p.xPosition ?? 0, yPosition: p.yPosition ?? 0 });
  return { tabId: `t${i + 1}`, tab, places: tab.type === 'radioGroup' ? tab.radios.map((r) => place(r.place)) : [place(tab.place)], value: initialTabValue(tab) };
});

const HOSTILE = '<img src=x onerror=alert(1)>Eve & "Co"';
const recipient = { recipientId: '1', type: 'inPersonSigner', name: HOSTILE, email: 'eve@example.com', routingOrder: 1, host: { name: 'Hanna Gast', email: 'host@example.com' } } as unknown as Recipient;
const supplement = { documentId: '2', name: 'AGB', pageCount: 2, supplement: { display: 'modal' } } as unknown as EnvelopeDocument;
const envelope = { envelopeId: 'e1', emailSubject: 'Mietvertrag 12', recipients: [recipient] } as unknown as Envelope;

/** Every page of the signing flow that does not need the server, in one language. */
function allPages(tr: Translator): string {
  const passcode = { method: 'phone' as const, destinations: ['+4915112345678'], askedAs: { kind: 'idCheck' as const }, failures: 1, sends: 1 };
  return [
    ceremonyPage(tr, { base: '/s', csrf: 'c', envelope, recipient, tabs: tabsOnPage, documents: [{ documentId: '1', name: 'Vertrag', sizes: [{ width: 612, height: 792 }] }], supplements: [{ document: supplement, pageCount: 2, viewed: false, due: { documentId: '2', name: 'AGB', view: true, accept: true } }], now: new Date('2026-11-21T10:00:00Z'), error: 'INVALID_TAB_VALUE: tab 1' }),
    accessCodePage(tr, { base: '/s', csrf: 'c', subject: 'Mietvertrag 12', failures: 1, wrong: true }),
    accessCodeLockedPage(tr),
    passcodePage(tr, { base: '/s', csrf: 'c', subject: 'Mietvertrag 12', passcode, codeWaiting: true, note: { kind: 'wrong' } }),
    passcodePage(tr, { base: '/s', csrf: 'c', subject: 'Mietvertrag 12', passcode, codeWaiting: true, note: { kind: 'sent' } }),
    passcodeLockedPage(tr),
    recipientsPage(tr, { base: '/s', csrf: 'c', envelope, manager: { ...recipient, type: 'agent' }, managed: [{ recipient: { ...recipient, type: 'signer', email: '' }, editable: new Set(['email']) }], documents: [], error: 'RECIPIENT_UPDATE_FAILED: x' }),
    sessionEndPage(tr, { ancestors: ['https://app.example'], messageOrigins: ['https://app.example'] }, 'decline', 'https://app.example/back'),
  ].join('\n');
}

/** What a reader meets: text outside tags, the labels and alternative texts, and the script's data. */
function readable(html: string): string {
  const attributes = [...html.matchAll(/\s(?:aria-label|alt|placeholder|title)="([^"]*)"/g)].map((m) => m[1]);
  return `${html.replace(/<[^>]*>/g, ' ')}\n${attributes.join('\n')}`;
}

/** The words of an English message between its placeholders (formatted with stand-ins, split at them). */
function englishFragments(key: MessageKey): string[] {
  const stub = '§';
  const values = new Proxy({}, { get: (_t, name) => (['count', 'total', 'left', 'minutes', 'mb', 'page', 'pages', 'order'].includes(String(name)) ? 7 : stub), has: () => true });
  const text = translator('en').t(key, values);
  return text.split(/§|7/).map((s) => s.trim()).filter((s) => s.length >= 4 && /[A-Za-z]{3}/.test(s));
}

test('the German pages hold none of the English chrome, and say lang="de"', () => {
  const html = allPages(translator('de'));
  const text = readable(html);
  assert.ok(!/lang="en"/.test(html));
  assert.equal(html.match(/<html lang="de">/g)?.length, 8);
  const english = PAGE_KEYS.filter((k) => !NEUTRAL.has(k) && !(SAME_WORD.de ?? []).includes(k)).flatMap((k) => englishFragments(k).map((f) => ({ k, f })));
  assert.ok(english.length > 150);
  const on = (page: string, f: string) => new RegExp(`(?<!\\p{L})${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u').test(page);
  for (const { k, f } of english) assert.ok(!on(text, f), `English "${f}" (${k}) on the German page`);
  // The same search finds the English pages' words on the English pages: it would see them.
  const englishText = readable(allPages(translator('en')));
  const seen = english.filter(({ f }) => on(englishText, f)).length;
  assert.ok(seen > 80, `${seen} of ${english.length}`);
  // Spot checks, written out rather than read from the catalogs.
  for (const phrase of ['Fertigstellen', 'Hier unterschreiben', 'Festlegen und unterschreiben', 'Unterschrift ablehnen', 'Ergänzende Dokumente', 'Zugangscode', 'Einmalcode', 'Sie sind der Bevollmächtigte', 'Empfänger 1: Unterzeichner', 'Abgelehnt', 'Unterschrift vor Ort: Hanna Gast leitet']) {
    assert.ok(text.includes(phrase), phrase);
  }
});

test('every language renders every page; a name with markup stays text in each', () => {
  for (const language of SUPPORTED_LANGUAGES) {
    const tr = translator(language);
    const html = allPages(tr);
    assert.ok(html.includes(`<html lang="${tr.locale}">`), language);
    assert.ok(!html.includes('<img src=x'), `${language}: the name is escaped`);
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;Eve &amp; &quot;Co&quot;'), `${language}: the name is shown as text`);
    // The script's data cannot close its element: no raw < inside the JSON blocks.
    for (const [, json] of html.matchAll(/<script type="application\/json" id="[^"]+">([^<]*)<\/script>/g)) assert.doesNotThrow(() => JSON.parse(json ?? ''), language);
    assert.equal([...html.matchAll(/<script type="application\/json"/g)].length, 2, language);
  }
});

test('the page script\'s counts are whole messages per count, by the language\'s plural rules', () => {
  const supplements = [{ document: supplement, pageCount: 2, viewed: false, due: { documentId: '2', name: 'AGB', view: true, accept: true } }];
  const de = pageMessages(translator('de'), tabsOnPage, supplements);
  const ja = pageMessages(translator('ja'), tabsOnPage, supplements);
  const enM = pageMessages(translator('en'), tabsOnPage, supplements);
  // Two required signature tabs (one sign here, one initial); the optional one does not count.
  assert.deepEqual(enM.signatures, ['', '1 of 2 signatures left', '2 of 2 signatures left']);
  assert.deepEqual(de.signatures, ['', '1 von 2 Unterschriften offen', '2 von 2 Unterschriften offen']);
  assert.deepEqual(ja.signatures, ['', '署名 2 件のうち残り 1 件', '署名 2 件のうち残り 2 件']);
  assert.equal(de.fields[1], '1 Feld auszufüllen oder zu korrigieren');
  assert.equal(de.fields[3], '3 Felder auszufüllen oder zu korrigieren');
  assert.equal(enM.fields.length, tabsOnPage.length + 1);
  assert.deepEqual(de.toView, ['', '1 Dokument anzusehen', '2 Dokumente anzusehen']);
  assert.deepEqual(de.toAccept, ['', '1 Dokument zu akzeptieren']);
  assert.equal(ja.fileTooLarge, 'ファイルが 5 MB を超えています。');
  assert.equal(ja.separator, '、');
});

test('each tab\'s validation messages are in the recipient\'s language, the sender\'s own message as written', () => {
  const tabs = parseTabs(new WireReader('tabs', {
    textTabs: [{ ...at(1, 1), tabLabel: 'A', maxLength: '4', validationPattern: '^\\d+$', validationMessage: 'Nur Ziffern' }],
    emailTabs: [at(1, 1)],
    numericalTabs: [{ ...at(1, 1), minNumericalValue: '1', maxNumericalValue: '1000', validationType: 'Currency', localePolicy: { cultureName: 'de-DE' } }],
    radioGroupTabs: [{ groupName: 'R', documentId: '1', radios: [{ pageNumber: '1', xPosition: '1', yPosition: '1', value: 'a' }, { pageNumber: '1', xPosition: '9', yPosition: '1', value: 'b' }] }],
  }), { recipientId: '1' });
  const [text, email, number, radio] = tabRules(tabs, translator('de'));
  assert.deepEqual(text?.messages, { required: 'Dieses Feld ist erforderlich.', tooLong: 'Geben Sie höchstens 4 Zeichen ein.', pattern: 'Nur Ziffern' });
  assert.equal(email?.messages.format, 'Geben Sie eine E-Mail-Adresse wie name@example.com ein.');
  assert.equal(number?.messages.number, 'Geben Sie eine Zahl ein, zum Beispiel 1.234,5.');
  assert.equal(number?.messages.min, 'Geben Sie eine Zahl von mindestens 1 ein.');
  assert.equal(number?.messages.currency, 'Geben Sie einen Betrag mit höchstens zwei Nachkommastellen ein.');
  assert.equal(radio?.messages.choice, 'Wählen Sie eines von a, b.');
  const [jaText] = tabRules(tabs, translator('ja'));
  assert.equal(jaText?.messages.tooLong, '4 文字以内で入力してください。');
  assert.equal(jaText?.messages.required, 'この項目は必須です。');
});
