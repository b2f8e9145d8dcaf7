import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@signet/kit';
import { signingMailFixture } from '../support/signing-mail-fixture.ts';

// The signing page in the recipient's language, in Chromium against the real server: one
// server, one SMTP listener and one browser for the file. (Every page and catalog key is
// src/signing/page-languages.test.ts; the mails are mail-languages.test.ts.)

const fx = signingMailFixture();
let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser.close();
});

/** A name with markup: it must stay text on the page. */
const HOSTILE = '<b>Grete</b> & <i>Müller</i>';

async function sendTo(email: string, language: string): Promise<string> {
  const at = { documentId: '1', pageNumber: '1' };
  const res = await fx.h.api('POST', '/envelopes', {
    emailSubject: 'Mietvertrag 12',
    documents: [{ documentId: '1', name: 'Mietvertrag.pdf', fileExtension: 'pdf', documentBase64: fx.pdf }],
    recipients: {
      signers: [{
        email, name: HOSTILE, recipientId: '1', routingOrder: '1', emailNotification: { supportedLanguage: language },
        tabs: {
          signHereTabs: [{ ...at, xPosition: '150', yPosition: '500' }],
          emailTabs: [{ ...at, xPosition: '150', yPosition: '200', tabLabel: 'Kontakt', tooltip: 'Kontakt' }],
          textTabs: [{ ...at, xPosition: '150', yPosition: '300', tabLabel: 'Kennung', tooltip: 'Kennung', maxLength: '8' }],
        },
      }],
    },
    status: 'sent',
  });
  assert.equal(res.status, 201, await res.clone().text());
  const [mail] = await fx.mailsTo(email, 1);
  return mail?.text?.split('\n').find((l) => l.startsWith(`${fx.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link');
}

/** The words of each language's page, written out here rather than read from the catalogs. */
const PAGES = [
  {
    language: 'de', lang: 'de', finish: 'Fertigstellen', decline: 'Ablehnen', signHere: 'Hier unterschreiben', adopt: 'Festlegen und unterschreiben',
    declineTitle: 'Unterschrift ablehnen', progress: '2 Felder auszufüllen oder zu korrigieren; 1 von 1 Unterschrift offen',
    badEmail: 'Geben Sie eine E-Mail-Adresse wie name@example.com ein.', required: 'Dieses Feld ist erforderlich.',
    allSet: 'Alles erledigt: Wählen Sie „Fertigstellen“.', done: 'Vielen Dank für Ihre Unterschrift',
    // Saved, or everyone signed once completion has run: whichever the page is rendered at.
    doneTexts: ['Ihre Unterschrift ist gespeichert.', 'Alle haben unterschrieben.'],
  },
  {
    language: 'ja', lang: 'ja', finish: '完了', decline: '辞退', signHere: 'ここに署名', adopt: '登録して署名',
    declineTitle: '署名を辞退', progress: '入力または修正が必要な項目が 2 件、署名 1 件のうち残り 1 件',
    badEmail: 'name@example.com のようなメールアドレスを入力してください。', required: 'この項目は必須です。',
    allSet: '準備完了です。「完了」を選択してください。', done: '署名ありがとうございました',
    doneTexts: ['署名は保存されました。', '全員が署名しました。'],
  },
] as const;

/** The English page's words, none of which a German or Japanese page may show. */
const ENGLISH = ['Finish', 'Decline', 'Sign here', 'Adopt your signature', 'Adopt and sign', 'Cancel', 'Decline to sign', 'Reason for declining',
  'Your name', 'Clear', 'This field is required', 'fields to complete or correct', 'signature left', 'Thank you', 'please review the documents'];

/** What a reader meets: the visible text, the title, the dialogs' words and every label and alternative text. */
async function readableText(page: Page): Promise<string> {
  const parts = [await page.locator('body').innerText(), await page.title(), ...(await page.locator('dialog').allTextContents())];
  for (const el of await page.locator('[aria-label], [alt], [placeholder]').all()) {
    for (const name of ['aria-label', 'alt', 'placeholder']) parts.push((await el.getAttribute(name)) ?? '');
  }
  return parts.join('\n');
}

for (const expected of PAGES) {
  test(`a ${expected.language} signer sees the page, its validation messages and the finish page in ${expected.language}`, async () => {
    const link = await sendTo(`signer-${expected.language}@example.com`, expected.language);
    const page = await browser.newPage();
    try {
      await page.goto(link);
      assert.equal(await page.locator('html').getAttribute('lang'), expected.lang);
      await page.getByRole('heading', { name: 'Mietvertrag 12', level: 1 }).waitFor();
      const finish = page.getByRole('button', { name: expected.finish, exact: true });
      assert.ok(await finish.isDisabled());
      assert.equal(await page.locator('#progress').textContent(), expected.progress);

      const text = await readableText(page);
      for (const english of ENGLISH) assert.ok(!new RegExp(`(?<!\\p{L})${english}(?!\\p{L})`, 'u').test(text), `${expected.language}: English "${english}" on the page`);
      // The name with markup is text: in the adopt dialog's field as typed, and no element made of it.
      assert.equal(await page.locator('#signature-text').inputValue(), HOSTILE);
      assert.equal(await page.locator('main b, main i, .bar b, dialog b').count(), 0);

      // Validation messages in the language, once a field is touched.
      const email = page.getByRole('textbox', { name: 'Kontakt' });
      await email.fill('nope');
      await email.blur();
      await page.getByText(expected.badEmail).waitFor();
      const code = page.getByRole('textbox', { name: 'Kennung' });
      await code.focus();
      await code.blur();
      await page.getByText(expected.required).waitFor();
      assert.equal(await code.getAttribute('aria-invalid'), 'true');

      // The decline dialog speaks it too (opened and closed).
      await page.getByRole('button', { name: expected.decline, exact: true }).click();
      await page.getByRole('heading', { name: expected.declineTitle }).waitFor();
      await page.locator('#decline-cancel').click();

      await email.fill('grete@example.com');
      await code.fill('A-17');
      await code.blur();
      await page.getByRole('button', { name: expected.signHere }).click();
      await page.getByRole('button', { name: expected.adopt }).click();
      assert.equal(await page.locator('#progress').textContent(), expected.allSet);
      await finish.click();
      await page.getByRole('heading', { name: expected.done }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), expected.lang);
      const said = (await page.locator('main.notice p').first().textContent()) ?? '';
      assert.ok(expected.doneTexts.some((t) => said.startsWith(t)), said);
    } finally {
      await page.close();
    }
  });
}
