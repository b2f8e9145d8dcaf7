import { EsignError } from '../errors.ts';

/**
 * Lenient readers for DocuSign request bodies. The SDK's models declare nearly every scalar a
 * String, but callers who assign properties directly send raw numbers and booleans
 * (docs/esign-envelopes.md, "Routes": `"routingOrder": 2`, `"anchorIgnoreIfNotPresent": true`), and DocuSign
 * accepts them: so strings, numbers and booleans are all read. A JSON `null` is read as absent,
 * as DocuSign does. Every problem names the field's path.
 */
export class WireReader {
  constructor(readonly path: string, readonly value: unknown) {}

  /** Throws INVALID_REQUEST_BODY naming this field. */
  fail(problem: string): never {
    throw new EsignError('INVALID_REQUEST_BODY', `${this.path} ${problem}`);
  }

  get present(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  /**
   * A nested field of this object (absent fields read as undefined). Names match
   * case-insensitively, as DocuSign matches them (its examples send `DocumentId`, `Signers`);
   * the exact spelling wins when both are present.
   */
  field(name: string): WireReader {
    const obj = this.object();
    const path = this.path === '' ? name : `${this.path}.${name}`;
    if (obj === undefined) return new WireReader(path, undefined);
    if (Object.hasOwn(obj, name)) return new WireReader(path, obj[name]);
    const lower = name.toLowerCase();
    const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
    return new WireReader(path, key === undefined ? undefined : obj[key]);
  }

  /** The value as a plain object, undefined when absent. */
  object(): Record<string, unknown> | undefined {
    if (!this.present) return undefined;
    if (typeof this.value !== 'object' || Array.isArray(this.value)) this.fail('must be an object.');
    return this.value as Record<string, unknown>;
  }

  /** The elements of an array (an absent array is empty). */
  items(): WireReader[] {
    if (!this.present) return [];
    if (!Array.isArray(this.value)) this.fail('must be an array.');
    return (this.value as unknown[]).map((v, i) => new WireReader(`${this.path}[${i}]`, v));
  }

  /** A string, number or boolean as text; undefined when absent or blank. */
  optionalString(maxLength = 10_000): string | undefined {
    if (!this.present) return undefined;
    const v = this.value;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') this.fail('must be a string.');
    const text = String(v).trim();
    if (text.length > maxLength) this.fail(`must be at most ${maxLength} characters long.`);
    return text === '' ? undefined : text;
  }

  string(maxLength?: number): string {
    return this.optionalString(maxLength) ?? this.fail('is required.');
  }

  /** A finite number given as a number or a numeric string. */
  optionalNumber(): number | undefined {
    const text = this.optionalString(64);
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text) || !Number.isFinite(n)) this.fail(`must be a number, got "${text}".`);
    return n;
  }

  /** An integer within [min, max], given as a number or a numeric string. */
  optionalInteger(min: number, max: number): number | undefined {
    const n = this.optionalNumber();
    if (n === undefined) return undefined;
    if (!Number.isInteger(n) || n < min || n > max) this.fail(`must be an integer from ${min} to ${max}, got ${n}.`);
    return n;
  }

  /** true/false as booleans or the strings "true"/"false" (any case); absent → `fallback`. */
  boolean(fallback: boolean): boolean {
    const text = this.optionalString(16);
    if (text === undefined) return fallback;
    const lower = text.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    return this.fail(`must be true or false, got "${text}".`);
  }

  /** One of the allowed words, compared case-insensitively; absent → `fallback`. */
  oneOf<T extends string>(allowed: readonly T[], fallback: T): T {
    const text = this.optionalString(64);
    if (text === undefined) return fallback;
    const found = allowed.find((a) => a.toLowerCase() === text.toLowerCase());
    return found ?? this.fail(`must be one of ${allowed.join(', ')}, got "${text}".`);
  }
}
