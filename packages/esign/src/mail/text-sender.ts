/**
 * One text message or voice call carrying a one-time passcode (domain/signing/passcode.ts).
 * `to` is the number as the sender gave it, `+` and digits (E.164 when the sender gave a
 * country code). A voice sender reads `body` aloud.
 */
export type TextMessage = {
  readonly channel: 'sms' | 'voice';
  readonly to: string;
  readonly body: string;
  /** The envelope it is about, for the dev outbox and operators. */
  readonly envelopeId?: string;
};

/**
 * Where passcodes sent by text or call go. The service ships only the development outbox
 * (mail/dev-text-outbox.ts, shown in the dev mailbox); a real provider implements this one
 * method — docs/esign-signing.md, "One-time passcodes", describes a Twilio-style HTTP sender.
 * `send` resolves once the provider accepted the message and rejects when it did not: the
 * signer is told and may ask again.
 */
export interface TextSender {
  send(message: TextMessage): Promise<void>;
}
