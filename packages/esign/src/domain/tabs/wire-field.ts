/**
 * What the tab parsers need of a wire reader: the lenient DocuSign readers of restapi's
 * WireReader (strings, numbers and booleans all read; null as absent; every problem names the
 * field's path and throws INVALID_REQUEST_BODY). Declared here so the domain does not import
 * restapi: the REST layer passes its WireReader, which has exactly this shape.
 */
export interface WireField {
  readonly path: string;
  readonly value: unknown;
  readonly present: boolean;
  fail(problem: string): never;
  field(name: string): WireField;
  object(): Record<string, unknown> | undefined;
  items(): WireField[];
  optionalString(maxLength?: number): string | undefined;
  string(maxLength?: number): string;
  optionalNumber(): number | undefined;
  optionalInteger(min: number, max: number): number | undefined;
  boolean(fallback: boolean): boolean;
  oneOf<T extends string>(allowed: readonly T[], fallback: T): T;
}
