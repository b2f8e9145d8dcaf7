/** One field of a parsed urlencoded form (the first value when repeated). */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/** True when a form field appears more than once (RFC 6749 §3.1: parameters must not repeat). */
export function fieldRepeated(body: unknown, name: string): boolean {
  if (typeof body !== 'object' || body === null) return false;
  return Array.isArray((body as Record<string, unknown>)[name]);
}
