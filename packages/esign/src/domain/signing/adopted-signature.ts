/** A signature as adopted on the signing page, stored with the Finish that used it. */
export type AdoptedSignature = {
  readonly kind: 'typed' | 'image';
  readonly typedText?: string;
  readonly image?: Uint8Array;
  readonly signedTabIds: readonly string[];
  readonly adoptedAt: Date;
};
