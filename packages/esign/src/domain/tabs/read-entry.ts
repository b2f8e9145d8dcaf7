import { EsignError } from '../../errors.ts';
import { compileSafePattern, type SafePattern } from './safe-pattern.ts';
import type { WireField } from './wire-field.ts';

/** DocuSign's default and largest maxLength of a tab a signer types into. */
export const MAX_VALUE_LENGTH = 4000;

export type Entry = { value: string; maxLength: number; validation?: { pattern: SafePattern; message?: string } };

/** value, maxLength and (when the model has it) validationPattern/validationMessage of a typed-in tab. */
export function readEntry(tab: WireField, withValidation: boolean): Entry {
  const maxLength = tab.field('maxLength').optionalInteger(1, MAX_VALUE_LENGTH) ?? MAX_VALUE_LENGTH;
  const value = tab.field('value').optionalString(MAX_VALUE_LENGTH) ?? '';
  if (value.length > maxLength) throw new EsignError('INVALID_TAB_VALUE', `${tab.path}.value is ${value.length} characters long; its maxLength is ${maxLength}.`);
  const source = withValidation ? tab.field('validationPattern').optionalString(1000) : undefined;
  const message = withValidation ? tab.field('validationMessage').optionalString(500) : undefined;
  const pattern = source === undefined ? undefined : compileSafePattern(source, maxLength, `${tab.path}.validationPattern`);
  return { value, maxLength, ...(pattern ? { validation: { pattern, ...(message !== undefined ? { message } : {}) } } : {}) };
}

/** The value rules every typed-in tab shares: its length, then the sender's pattern. */
export function findEntryProblem(entry: { maxLength: number; validation?: { pattern: SafePattern; message?: string } }, value: string): string | undefined {
  if (value.length > entry.maxLength) return `Enter at most ${entry.maxLength} characters.`;
  if (entry.validation && !entry.validation.pattern.regex.test(value)) return entry.validation.message ?? 'The value does not have the required format.';
  return undefined;
}

/** A value the sender prefilled must satisfy the tab's own rules, as a signer's would. */
export function assertPrefill(tab: WireField, value: string, problem: string | undefined): void {
  if (value !== '' && problem !== undefined) throw new EsignError('INVALID_TAB_VALUE', `${tab.path}.value "${value.slice(0, 100)}": ${problem}`);
}
