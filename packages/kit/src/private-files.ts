import { chmodSync, closeSync, mkdirSync, openSync, statSync, writeFileSync } from 'node:fs';

/**
 * The data directory holds the TLS key (in kong.yml), the SQLite files with every envelope and
 * the seal: readable by its owner only. Modes are set explicitly, not left to the umask, and an
 * existing directory or file with looser modes is tightened at start.
 */
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** Why a data path could not be made private (another owner, a read-only mount): stops the start. */
export class PrivatePathError extends Error {
  constructor(path: string, cause: unknown) {
    super(`${path} holds private data and cannot be made readable by its owner only (${(cause as Error).message})`, { cause });
    this.name = 'PrivatePathError';
  }
}

function tighten(path: string, mode: number): void {
  try {
    if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
  } catch (err) {
    throw new PrivatePathError(path, err);
  }
}

/** Creates `dir` (and its parents) if missing; makes it 0700 either way. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Writes `path` as 0600, also when it existed with another mode. */
export function writePrivateFile(path: string, content: string | Uint8Array): void {
  writeFileSync(path, content, { mode: PRIVATE_FILE_MODE });
  tighten(path, PRIVATE_FILE_MODE);
}

/**
 * Creates `path` empty as 0600 if it is missing, else tightens it: done before SQLite opens its
 * file, because SQLite gives the -wal and -shm files it creates the main file's mode.
 */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  tighten(path, PRIVATE_FILE_MODE);
}
