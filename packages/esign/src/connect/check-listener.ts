import { EsignError } from '../errors.ts';
import { assertListener, systemResolve, type ResolveHost } from './guarded-lookup.ts';
import { ListenerRefused, type ListenerPolicy } from './listener-address-policy.ts';

/** Checks a listener URL at configuration time; throws a DocuSign-style 400 naming the field. */
export type CheckListener = (url: string, field: string) => Promise<void>;

/** The configuration-time SSRF check (URL rules, then DNS) in the REST surface's words. */
export function buildCheckListener(policy: ListenerPolicy, resolveHost: ResolveHost = systemResolve): CheckListener {
  return async (url, field) => {
    try {
      await assertListener(url, policy, resolveHost);
    } catch (err) {
      if (err instanceof ListenerRefused) throw new EsignError('INVALID_REQUEST_BODY', `${field}: ${err.message}`);
      throw err;
    }
  };
}
