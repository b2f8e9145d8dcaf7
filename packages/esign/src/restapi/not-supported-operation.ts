import type { HTTPMethods } from 'fastify';

/** An SDK operation this service does not do: where the SDK sends it, and why it is refused. */
export type NotSupportedOperation = {
  /** The SDK's name for it (docusign-esign src/api/<Api>.js), as the refusal names it. */
  readonly operation: string;
  readonly method: HTTPMethods;
  /** The SDK's path under /restapi, in Fastify's `:param` form. */
  readonly url: string;
  readonly why: string;
};

/** Where the SDK's account operations live; every table's paths start here. */
export const ACCOUNT = '/restapi/v2.1/accounts/:accountId';

export function op(operation: string, method: HTTPMethods, url: string, why: string): NotSupportedOperation {
  return { operation, method, url, why };
}
