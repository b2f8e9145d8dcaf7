import { maskDestination, MAX_PASSCODE_FAILURES, PASSCODE_DIGITS, PASSCODE_TTL_MS, passcodeChannels, type PasscodeChannel, type RecipientPasscode } from '../domain/signing/passcode.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { html } from '../web/html.ts';
import { noticePage } from './signing-pages.ts';

const BUTTON: Record<PasscodeChannel, (to: string) => string> = {
  sms: (to) => `Text a code to ${to}`,
  voice: (to) => `Call ${to} with a code`,
  email: (to) => `E-mail a code to ${to}`,
};

/** What the page says above the forms: a code just went out, a wrong or stale one was typed, or sending failed. */
export type PasscodeNote = { kind: 'wrong' } | { kind: 'stale' } | { kind: 'send-failed' } | { kind: 'sent' } | undefined;

/**
 * The one-time passcode step: nothing of the documents, only the sender's subject. One button
 * per way the sender allowed (each number, masked, by text or call; or the e-mail), and, once
 * a code was sent and still works, the field to type it.
 */
export function passcodePage(v: { base: string; csrf: string; subject: string; passcode: RecipientPasscode; codeWaiting: boolean; note: PasscodeNote }): string {
  const left = MAX_PASSCODE_FAILURES - v.passcode.failures;
  const message = v.note?.kind === 'wrong' ? `That passcode is not correct. ${left} ${left === 1 ? 'try is' : 'tries are'} left.`
    : v.note?.kind === 'stale' ? 'No passcode is waiting for you, or it expired: send a new one.'
      : v.note?.kind === 'send-failed' ? 'The passcode could not be sent. Try again in a moment.'
        : undefined;
  const sends = v.passcode.destinations.flatMap((to, index) => passcodeChannels(v.passcode.method).map((channel) => html`<form method="post" action="${v.base}/passcode/send" class="passcode-send">
${csrfInput(v.csrf)}<input type="hidden" name="destination" value="${String(index)}"><input type="hidden" name="channel" value="${channel}">
<button type="submit"${v.codeWaiting ? html` class="secondary"` : ''}>${BUTTON[channel](maskDestination(to))}</button>
</form>`));
  const entry = v.codeWaiting ? html`<form method="post" action="${v.base}/passcode" class="passcode">
${csrfInput(v.csrf)}
${v.note?.kind === 'sent' ? html`<p role="status">A passcode was sent. It works once, for ${String(PASSCODE_TTL_MS / 60_000)} minutes.</p>` : ''}
<label for="passcode">Passcode</label>
<input id="passcode" name="passcode" inputmode="numeric" autocomplete="one-time-code" maxlength="${String(PASSCODE_DIGITS)}" pattern="[0-9]*" required autofocus${message ? html` aria-invalid="true"` : ''}>
<button type="submit">Verify</button>
</form>` : '';
  return noticePage('Verify it is you', `The sender asks for a one-time passcode before you see "${v.subject}".`, html`${errorBox(message)}${entry}${sends}`);
}

/** After MAX_PASSCODE_FAILURES wrong passcodes, or every allowed code sent. */
export function passcodeLockedPage(): string {
  return noticePage('Locked', 'Too many wrong passcodes were entered, or too many were sent, so these documents are locked for you. Ask the sender to send the envelope again.');
}
