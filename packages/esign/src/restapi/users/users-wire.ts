import { EsignError } from '../../errors.ts';
import type { ModelFieldRule } from '../../wire/check-model-fields.ts';
import { WireReader } from '../../wire/wire-reader.ts';

// What the user, profile, group and authorization parsers share: their field rules and the
// one shape every body must have.

export const HONOURED: ModelFieldRule = { rule: 'honoured' };
export const OUTPUT: ModelFieldRule = { rule: 'output' };
export const refused = (why: string): ModelFieldRule => ({ rule: 'refused', why });
/** The most items one list in these bodies takes (users, groups, authorizations). */
export const MAX_ITEMS = 100;

/** The body as a reader, or INVALID_REQUEST_BODY when it is not a JSON object of `model`. */
export function modelBody(body: unknown, model: string): WireReader {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', `The body must be a JSON ${model} object.`);
  return new WireReader('', body);
}
