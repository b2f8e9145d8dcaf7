/** US ZIP codes: five digits, or ZIP+4, written with its dash when the tab says useDash4. */
export function findZipProblem(value: string, useDash4: boolean): string | undefined {
  const ok = useDash4 ? /^\d{5}(-\d{4})?$/.test(value) : /^\d{5}(\d{4})?$/.test(value);
  return ok ? undefined : useDash4 ? 'Enter a ZIP code as 12345 or 12345-6789.' : 'Enter a ZIP code as 12345 or 123456789.';
}

/** US social security numbers: nine digits, with or without the dashes (123-45-6789). */
export function findSsnProblem(value: string): string | undefined {
  return /^\d{3}-?\d{2}-?\d{4}$/.test(value) ? undefined : 'Enter a social security number as 123-45-6789.';
}

// One @, no spaces, a dot in the domain: the shape DocuSign's signing page asks of an e-mail tab.
const EMAIL = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

export function findEmailProblem(value: string): string | undefined {
  return value.length <= 254 && EMAIL.test(value) ? undefined : 'Enter an e-mail address such as name@example.com.';
}
