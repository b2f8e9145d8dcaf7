/**
 * An ArrayBuffer holding exactly `bytes` (what pkijs/asn1js take). A copy on purpose: a
 * Buffer's slice() is a view, and its .buffer may be Node's shared 8 KB pool with other data
 * around it (a digest computed over that is silently wrong).
 */
export const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer;
