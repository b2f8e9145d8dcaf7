/** A catalog row: the one place an error's HTTP status and message are written. */
export type ErrorRow = { readonly status: number; readonly message: string };
export type ErrorCatalog = Readonly<Record<string, ErrorRow>>;

/**
 * Base of every package's error class. Each package has one subclass over one catalog, and
 * each surface serialises it in its own dialect through `toBody()`.
 */
export abstract class AppError<C extends string = string> extends Error {
  abstract readonly status: number;
  readonly code: C;

  constructor(code: C, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }

  /** 4xx messages are client-facing; 5xx are answered with the catalog's generic text only. */
  get expose(): boolean {
    return this.status < 500;
  }

  /** The wire body in this surface's dialect. */
  abstract toBody(): Record<string, unknown>;
}

/** Checks a catalog's invariants (unique codes are given by the object; statuses 400-599). */
export function assertCatalog(catalog: ErrorCatalog): void {
  for (const [code, row] of Object.entries(catalog)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(code)) throw new TypeError(`error code ${code} is not SCREAMING_SNAKE`);
    if (!Number.isInteger(row.status) || row.status < 400 || row.status > 599) {
      throw new TypeError(`error code ${code} has status ${row.status}, not 400-599`);
    }
    if (row.message.trim() === '') throw new TypeError(`error code ${code} has no message`);
  }
}
