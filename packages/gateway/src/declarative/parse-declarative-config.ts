import type { Snapshot } from './types.ts';
import { GatewayError } from '../errors.ts';

/** Options of parseDeclarativeConfig. */
export type ParseOptions = {
  /** Named in human error lines (`kong.yml:3:7: …`); default "kong.yml". */
  readonly fileName?: string;
  /** created_at/updated_at in seconds; default the current time. */
  readonly now?: number;
  /** Random ids (certificates, unnamed services/routes); default crypto.randomUUID. */
  readonly randomId?: () => string;
};

/** Parses kong.yml text into a frozen Snapshot, or throws GatewayError('DECLARATIVE_CONFIG') with every problem. */
export function parseDeclarativeConfig(text: string, options: ParseOptions = {}): Snapshot {
  // Being implemented under issue 3; the signature above is the contract.
  throw new GatewayError('DECLARATIVE_CONFIG', {
    message: `declarative config is invalid: parser not implemented yet (${options.fileName ?? 'kong.yml'}, ${text.length} bytes)`,
  });
}
