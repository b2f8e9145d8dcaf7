import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// AES-256-GCM (NIST SP 800-38D): a 96-bit random IV per secret and a 128-bit tag.
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts HMAC secrets at rest. They must be stored recoverably (each delivery signs with
 * them), unlike client secrets, which are only ever compared by hash. The key comes from
 * config (CONNECT_SECRET_KEY, or a key file generated in DATA_DIR); a database dump alone
 * reveals no usable secret. Sealed form: "v1." + base64(iv | tag | ciphertext).
 */
export class SecretBox {
  readonly #key: Buffer;
  constructor(key: Uint8Array) {
    if (key.byteLength !== 32) throw new TypeError('SecretBox needs a 32-byte key');
    this.#key = Buffer.from(key);
  }

  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Throws when the value was sealed under another key or altered. */
  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new TypeError('unknown sealed secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    if (raw.byteLength < IV_BYTES + TAG_BYTES) throw new TypeError('sealed secret too short');
    // The tag length is fixed: GCM would otherwise accept a truncated (forgeable) tag.
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
