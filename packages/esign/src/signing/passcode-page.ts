import { maskDestination, MAX_PASSCODE_FAILURES, PASSCODE_DIGITS, PASSCODE_TTL_MS, passcodeChannels, type PasscodeChannel, type RecipientPasscode } from '../domain/signing/passcode.ts';
import { csrfInput, errorBox } from '../web/page-parts.ts';
import { html } from '../web/html.ts';
import type { MessageKey } from '../i18n/catalogs/en.ts';
import type { Translator } from '../i18n/translator.ts';
import { noticePage } from './signing-pages.ts';

// Each channel's button (catalog keys, i18n/catalogs): `{to}` is the masked number or address.
const BUTTON: Record<PasscodeChannel, MessageKey> = { sms: 'gate.sendSms', voice: 'gate.sendVoice', email: 'gate.sendEmail' };

/** What the page says above the forms: a code just went out, a wrong or stale one was typed, or sending failed. */
export type PasscodeNote = { kind: 'wrong' } | { kind: 'stale' } | { kind: 'send-failed' } | { kind: 'sent' } | undefined;

/**
 * The one-time passcode step: nothing of the documents, only the sender's subject. One button
 * per way the sender allowed (each number, masked, by text or call; or the e-mail), and, once
 * a code was sent and still works, the field to type it.
 */
export function passcodePage(tr: Translator, v: { base: string; csrf: string; subject: string; passcode: RecipientPasscode; codeWaiting: boolean; note: PasscodeNote }): string {
  const { t } = tr;
  const left = MAX_PASSCODE_FAILURES - v.passcode.failures;
  const message = v.note?.kind === 'wrong' ? t('gate.passcodeWrong', { left })
    : v.note?.kind === 'stale' ? t('gate.passcodeStale')
      : v.note?.kind === 'send-failed' ? t('gate.passcodeSendFailed')
        : undefined;
  const sends = v.passcode.destinations.flatMap((to, index) => passcodeChannels(v.passcode.method).map((channel) => html`<form method="post" action="${v.base}/passcode/send" class="passcode-send">
${csrfInput(v.csrf)}<input type="hidden" name="destination" value="${String(index)}"><input type="hidden" name="channel" value="${channel}">
<button type="submit"${v.codeWaiting ? html` class="secondary"` : ''}>${t(BUTTON[channel], { to: maskDestination(to) })}</button>
</form>`));
  const entry = v.codeWaiting ? html`<form method="post" action="${v.base}/passcode" class="passcode">
${csrfInput(v.csrf)}
${v.note?.kind === 'sent' ? html`<p role="status">${t('gate.passcodeSent', { minutes: PASSCODE_TTL_MS / 60_000 })}</p>` : ''}
<label for="passcode">${t('gate.passcodeLabel')}</label>
<input id="passcode" name="passcode" inputmode="numeric" autocomplete="one-time-code" maxlength="${String(PASSCODE_DIGITS)}" pattern="[0-9]*" required autofocus${message ? html` aria-invalid="true"` : ''}>
<button type="submit">${t('gate.verify')}</button>
</form>` : '';
  return noticePage(tr, t('gate.passcodeTitle'), t('gate.passcodeIntro', { subject: v.subject }), html`${errorBox(message)}${entry}${sends}`);
}

/** After MAX_PASSCODE_FAILURES wrong passcodes, or every allowed code sent. */
export function passcodeLockedPage(tr: Translator): string {
  return noticePage(tr, tr.t('gate.lockedTitle'), tr.t('gate.passcodeLocked'));
}
