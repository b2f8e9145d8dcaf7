import assert from 'node:assert/strict';
import { GatewayError } from '../errors.ts';

/** The GatewayError `run` throws (the declarative tests' refusals); a test fails when it returns. */
export function rejectionOf(run: () => unknown): GatewayError {
  try {
    run();
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  assert.fail('expected the configuration to be rejected');
}
