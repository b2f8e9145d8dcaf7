import { MAX_ACCESS_CODE_FAILURES } from '../domain/signing/access-code.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { html } from '../web/html.ts';
import type { Translator } from '../i18n/translator.ts';
import { noticePage } from './signing-pages.ts';

/**
 * The page a signer with an access code sees first: nothing of the documents, only the sender's
 * subject and a labelled field. `failures` wrong codes so far (the message says how many are left).
 */
export function accessCodePage(tr: Translator, v: { base: string; csrf: string; subject: string; failures: number; wrong: boolean }): string {
  const { t } = tr;
  const left = MAX_ACCESS_CODE_FAILURES - v.failures;
  const message = v.wrong ? t('gate.accessWrong', { left }) : undefined;
  return noticePage(tr, t('gate.accessTitle'), t('gate.accessIntro', { subject: v.subject }), html`<form method="post" action="${v.base}/access-code" class="access-code">
${csrfInput(v.csrf)}
${errorBox(message)}
<label for="access-code">${t('gate.accessLabel')}</label>
<input id="access-code" name="accessCode" type="password" autocomplete="one-time-code" maxlength="50" required autofocus${message ? html` aria-invalid="true"` : ''}>
<button type="submit">${t('page.continue')}</button>
</form>`);
}

/** After MAX_ACCESS_CODE_FAILURES wrong codes. */
export function accessCodeLockedPage(tr: Translator): string {
  return noticePage(tr, tr.t('gate.lockedTitle'), tr.t('gate.accessLocked'));
}
