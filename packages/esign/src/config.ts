import { isAbsolute, resolve } from 'node:path';

/**
 * The esign process settings: one schema, defaults in one place (`DEFAULTS`), validated in full
 * before anything listens. Only cli.ts reads the environment; everything else gets this object.
 */
export type EsignConfig = {
  /** TCP port of the HTTP listener (0 = any free port). */
  readonly port: number;
  /** Interface the listener binds; loopback unless you mean it. */
  readonly host: string;
  /** The URL every link points at (the gateway by default), with no trailing slash. */
  readonly publicUrl: string;
  /** Runtime state: the SQLite file lives here when DATABASE_URL is unset. */
  readonly dataDir: string;
  /** postgres://… to use PostgreSQL instead of the SQLite file. */
  readonly databaseUrl: string | undefined;
  /** smtp://host:port for mail delivery; unset, mail goes to the dev mailbox. */
  readonly smtpUrl: string | undefined;
  /** PKCS#12 file that seals completed envelopes; unset → a development seal generated in DATA_DIR. */
  readonly sealP12File: string | undefined;
  /** Its passphrase (empty when unset). */
  readonly sealP12Passphrase: string | undefined;
  /**
   * The RFC 3161 timestamp authority that makes seals PAdES B-T and up (TSA_URL, with optional
   * TSA_USERNAME/TSA_PASSWORD for HTTP Basic); unset → seals stay at B-B (docs/pdf.md).
   */
  readonly tsa: { readonly url: string; readonly username?: string; readonly password?: string } | undefined;
  /** The PAdES level seals are raised to (SEAL_LEVEL): B-LTA by default with a TSA, B-B without. */
  readonly sealLevel: SealLevel;
  /** Connect listeners may use plain http (CONNECT_ALLOW_HTTP; default: https only). */
  readonly connectAllowHttp: boolean;
  /** Connect listeners may be loopback/private addresses (CONNECT_ALLOW_PRIVATE; default: refused, SSRF). */
  readonly connectAllowPrivate: boolean;
  /** 32-byte key sealing Connect HMAC secrets (CONNECT_SECRET_KEY, base64); unset → a key file in DATA_DIR. */
  readonly connectSecretKey: Uint8Array | undefined;
  /**
   * How many recipients an account's sends, resends and corrections may reach by e-mail in any
   * 24 hours (SEND_ALLOWANCE; store/send-allowance.ts): past it, DocuSign's
   * ENVELOPE_ALLOWANCE_EXCEEDED. An open sign-up must not make a mail relay.
   */
  readonly sendAllowance: number;
};

/** PAdES baseline levels (docs/pdf.md). */
export type SealLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';
const SEAL_LEVELS: readonly SealLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

/** Every default, in one place. */
export const DEFAULTS = {
  port: 3000,
  host: '127.0.0.1',
  publicUrl: 'https://localhost:8443',
  dataDir: 'var',
  sendAllowance: 10_000,
} as const;

/** The raw settings as strings, as they come from the environment or flags. */
export type RawEsignSettings = {
  PORT?: string | undefined;
  HOST?: string | undefined;
  PUBLIC_URL?: string | undefined;
  DATA_DIR?: string | undefined;
  DATABASE_URL?: string | undefined;
  SMTP_URL?: string | undefined;
  SEAL_P12_FILE?: string | undefined;
  SEAL_P12_PASSPHRASE?: string | undefined;
  TSA_URL?: string | undefined;
  TSA_USERNAME?: string | undefined;
  TSA_PASSWORD?: string | undefined;
  SEAL_LEVEL?: string | undefined;
  CONNECT_ALLOW_HTTP?: string | undefined;
  CONNECT_ALLOW_PRIVATE?: string | undefined;
  CONNECT_SECRET_KEY?: string | undefined;
  SEND_ALLOWANCE?: string | undefined;
};

/** A bad setting; the message names it. */
export class EsignConfigError extends Error {
  override name = 'EsignConfigError';
}

function present(raw: string | undefined): raw is string {
  return raw !== undefined && raw.trim() !== '';
}

function parseUrl(name: string, raw: string, protocols: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EsignConfigError(`${name} is not a URL: "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new EsignConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return url;
}

/**
 * Validates every setting and returns a frozen config; all problems are reported at once.
 * `cwd` resolves a relative DATA_DIR.
 */
export function loadEsignConfig(raw: RawEsignSettings, cwd: string): EsignConfig {
  const problems: string[] = [];
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof EsignConfigError)) throw err;
      problems.push(err.message);
      return fallback;
    }
  };

  const port = attempt(() => {
    if (!present(raw.PORT)) return DEFAULTS.port;
    const n = Number(raw.PORT);
    if (!/^\d+$/.test(raw.PORT.trim()) || n > 65535) throw new EsignConfigError(`PORT must be a port number (0-65535), got "${raw.PORT}"`);
    return n;
  }, DEFAULTS.port);

  const host = present(raw.HOST) ? raw.HOST.trim() : DEFAULTS.host;

  const publicUrl = attempt(() => {
    const value = present(raw.PUBLIC_URL) ? raw.PUBLIC_URL.trim() : DEFAULTS.publicUrl;
    const url = parseUrl('PUBLIC_URL', value, ['https:', 'http:']);
    if (url.search !== '' || url.hash !== '') throw new EsignConfigError(`PUBLIC_URL must not carry a query or fragment, got "${value}"`);
    // base_uri must not end in "/" or the SDK sends /restapi//v2.1 (callApi in docusign-esign
    // src/ApiClient.js uses the base path verbatim).
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  }, DEFAULTS.publicUrl);

  const dataDirRaw = present(raw.DATA_DIR) ? raw.DATA_DIR.trim() : DEFAULTS.dataDir;
  const dataDir = isAbsolute(dataDirRaw) ? dataDirRaw : resolve(cwd, dataDirRaw);

  const databaseUrl = attempt(
    () => (present(raw.DATABASE_URL) ? (parseUrl('DATABASE_URL', raw.DATABASE_URL.trim(), ['postgres:', 'postgresql:']), raw.DATABASE_URL.trim()) : undefined),
    undefined,
  );
  const smtpUrl = attempt(
    () => (present(raw.SMTP_URL) ? (parseUrl('SMTP_URL', raw.SMTP_URL.trim(), ['smtp:', 'smtps:']), raw.SMTP_URL.trim()) : undefined),
    undefined,
  );

  const sealP12File = present(raw.SEAL_P12_FILE) ? (isAbsolute(raw.SEAL_P12_FILE.trim()) ? raw.SEAL_P12_FILE.trim() : resolve(cwd, raw.SEAL_P12_FILE.trim())) : undefined;
  if (sealP12File === undefined && present(raw.SEAL_P12_PASSPHRASE)) problems.push('SEAL_P12_PASSPHRASE is set but SEAL_P12_FILE is not');
  const sealP12Passphrase = raw.SEAL_P12_PASSPHRASE !== undefined && sealP12File !== undefined ? raw.SEAL_P12_PASSPHRASE : undefined;

  const tsa = attempt(() => {
    if (!present(raw.TSA_URL)) {
      if (present(raw.TSA_USERNAME) || present(raw.TSA_PASSWORD)) throw new EsignConfigError('TSA_USERNAME/TSA_PASSWORD are set but TSA_URL is not');
      return undefined;
    }
    const url = parseUrl('TSA_URL', raw.TSA_URL.trim(), ['https:', 'http:']);
    // Credentials belong in TSA_USERNAME/TSA_PASSWORD, never in a URL that ends up in logs.
    if (url.username !== '' || url.password !== '') throw new EsignConfigError('TSA_URL must not carry credentials: use TSA_USERNAME and TSA_PASSWORD');
    if (!present(raw.TSA_USERNAME) && present(raw.TSA_PASSWORD)) throw new EsignConfigError('TSA_PASSWORD is set but TSA_USERNAME is not');
    // HTTP Basic in clear text would give the TSA account to anyone on the path; loopback is this machine.
    if (present(raw.TSA_USERNAME) && url.protocol === 'http:' && !['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)) {
      throw new EsignConfigError('TSA_USERNAME/TSA_PASSWORD need an https: TSA_URL (or a loopback http one): Basic credentials over http are readable on the way');
    }
    return Object.freeze({
      url: url.href,
      ...(present(raw.TSA_USERNAME) ? { username: raw.TSA_USERNAME.trim(), password: raw.TSA_PASSWORD ?? '' } : {}),
    });
  }, undefined);

  const sealLevel = attempt((): SealLevel => {
    if (!present(raw.SEAL_LEVEL)) return present(raw.TSA_URL) ? 'B-LTA' : 'B-B';
    const level = SEAL_LEVELS.find((l) => l === raw.SEAL_LEVEL?.trim().toUpperCase());
    if (!level) throw new EsignConfigError(`SEAL_LEVEL must be one of ${SEAL_LEVELS.join(', ')}, got "${raw.SEAL_LEVEL}"`);
    if (level !== 'B-B' && !present(raw.TSA_URL)) throw new EsignConfigError(`SEAL_LEVEL ${level} needs a timestamp authority: set TSA_URL`);
    return level;
  }, 'B-B');

  const flag = (name: 'CONNECT_ALLOW_HTTP' | 'CONNECT_ALLOW_PRIVATE') => attempt(() => {
    const value = raw[name]?.trim().toLowerCase();
    if (!present(value)) return false;
    if (value === '1' || value === 'true') return true;
    if (value === '0' || value === 'false') return false;
    throw new EsignConfigError(`${name} must be 1/true or 0/false, got "${raw[name]}"`);
  }, false);
  const connectAllowHttp = flag('CONNECT_ALLOW_HTTP');
  const connectAllowPrivate = flag('CONNECT_ALLOW_PRIVATE');
  const connectSecretKey = attempt(() => {
    if (!present(raw.CONNECT_SECRET_KEY)) return undefined;
    const text = raw.CONNECT_SECRET_KEY.trim();
    const key = Buffer.from(text, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.byteLength !== 32) throw new EsignConfigError('CONNECT_SECRET_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)');
    return new Uint8Array(key);
  }, undefined);

  const sendAllowance = attempt(() => {
    if (!present(raw.SEND_ALLOWANCE)) return DEFAULTS.sendAllowance;
    const text = raw.SEND_ALLOWANCE.trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || n < 1 || !Number.isSafeInteger(n)) throw new EsignConfigError(`SEND_ALLOWANCE must be a whole number of recipients per 24 hours (at least 1), got "${raw.SEND_ALLOWANCE}"`);
    return n;
  }, DEFAULTS.sendAllowance);

  if (problems.length > 0) throw new EsignConfigError(problems.join('; '));
  return Object.freeze({ port, host, publicUrl, dataDir, databaseUrl, smtpUrl, sealP12File, sealP12Passphrase, tsa, sealLevel, connectAllowHttp, connectAllowPrivate, connectSecretKey, sendAllowance });
}

/**
 * The OAuth host as the SDK names it: PUBLIC_URL without its scheme (`localhost:8443`,
 * `127.0.0.1:PORT/prefix`). The SDK puts it in front of /oauth/* and uses it as the JWT `aud`
 * (docusign-esign src/ApiClient.js requestJWTUserToken).
 */
export function authHostOf(publicUrl: string): string {
  return publicUrl.replace(/^https?:\/\//, '');
}
