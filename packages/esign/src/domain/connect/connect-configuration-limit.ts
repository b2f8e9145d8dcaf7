import { EsignError } from '../../errors.ts';

/**
 * Connect configurations one account may have. Ours: DocuSign publishes no number. Each
 * configuration is a listener the delivery worker may serve, so a tenant with many slow ones
 * once took every listener slot of an instance (40 configurations held another tenant's
 * message 28 s); the worker's per-account share bounds that, this bounds the backlog behind it.
 * 20 leaves room for one per integration and environment, well past what integrations use.
 */
export const MAX_CONNECT_CONFIGURATIONS = 20;

/** Refuses one more configuration when the account already has `count`. */
export function assertRoomForConnectConfiguration(count: number): void {
  if (count >= MAX_CONNECT_CONFIGURATIONS) {
    throw new EsignError('CONNECT_CONFIGURATION_LIMIT_EXCEEDED', `The limit is ${MAX_CONNECT_CONFIGURATIONS} per account; delete one to add another.`);
  }
}
