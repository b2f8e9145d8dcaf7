import { MAX_ACCESS_CODE_FAILURES } from '../domain/signing/access-code.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { html } from '../web/html.ts';
import { noticePage } from './signing-pages.ts';

/**
 * The page a signer with an access code sees first: nothing of the documents, only the sender's
 * subject and a labelled field. `failures` wrong codes so far (the message says how many are left).
 */
export function accessCodePage(v: { base: string; csrf: string; subject: string; failures: number; wrong: boolean }): string {
  const left = MAX_ACCESS_CODE_FAILURES - v.failures;
  const message = v.wrong ? `That access code is not correct. ${left} ${left === 1 ? 'try is' : 'tries are'} left.` : undefined;
  return noticePage('Enter your access code', `The sender protected "${v.subject}" with an access code. They give it to you themselves; it is never in the e-mail.`, html`<form method="post" action="${v.base}/access-code" class="access-code">
${csrfInput(v.csrf)}
${errorBox(message)}
<label for="access-code">Access code</label>
<input id="access-code" name="accessCode" type="password" autocomplete="one-time-code" maxlength="50" required autofocus${message ? html` aria-invalid="true"` : ''}>
<button type="submit">Continue</button>
</form>`);
}

/** After MAX_ACCESS_CODE_FAILURES wrong codes. */
export function accessCodeLockedPage(): string {
  return noticePage('Locked', 'Too many wrong access codes were entered, so these documents are locked for you. Ask the sender to send the envelope again.');
}
