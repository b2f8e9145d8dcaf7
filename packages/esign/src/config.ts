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
  /** Connect listeners may use plain http (CONNECT_ALLOW_HTTP; default: https only). */
  readonly connectAllowHttp: boolean;
  /** Connect listeners may be loopback/private addresses (CONNECT_ALLOW_PRIVATE; default: refused, SSRF). */
  readonly connectAllowPrivate: boolean;
  /** 32-byte key sealing Connect HMAC secrets (CONNECT_SECRET_KEY, base64); unset → a key file in DATA_DIR. */
  readonly connectSecretKey: Uint8Array | undefined;
};

/** Every default, in one place. */
export const DEFAULTS = {
  port: 3000,
  host: '127.0.0.1',
  publicUrl: 'https://localhost:8443',
  dataDir: 'var',
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
  CONNECT_ALLOW_HTTP?: string | undefined;
  CONNECT_ALLOW_PRIVATE?: string | undefined;
  CONNECT_SECRET_KEY?: string | undefined;
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

  if (problems.length > 0) throw new EsignConfigError(problems.join('; '));
  return Object.freeze({ port, host, publicUrl, dataDir, databaseUrl, smtpUrl, sealP12File, sealP12Passphrase, connectAllowHttp, connectAllowPrivate, connectSecretKey });
}

/**
 * The OAuth host as the SDK names it: PUBLIC_URL without its scheme (`localhost:8443`,
 * `127.0.0.1:PORT/prefix`). The SDK puts it in front of /oauth/* and uses it as the JWT `aud`
 * (docusign-esign src/ApiClient.js requestJWTUserToken).
 */
export function authHostOf(publicUrl: string): string {
  return publicUrl.replace(/^https?:\/\//, '');
}
