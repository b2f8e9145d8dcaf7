// The header lines of the lean leg's responses, remembered by position. Consecutive responses of
// a route carry mostly the same fields at the same places (the upstream's Server and
// Content-Type, Via, a plugin's CORS and rate-limit names), so a field equal to the one last
// seen at its position reuses that line, already checked, instead of two regular expressions
// and three concatenations: the per-field cost that made a route's plugins (ten more fields)
// dear (bench/gateway/observe-overhead.ts). A memo only: a line is a function of its name and
// value, so a miss is just the full path.

/** What a field means for the framing (node's _storeHeader looks at the same names). */
export const SEEN_DATE = 1;
export const SEEN_CONNECTION = 2;
export const SEEN_LENGTH = 4;
export const SEEN_TE = 8;
/** A Connection field naming `close`. */
export const CLOSES = 16;
/** A Transfer-Encoding field naming `chunked`. */
export const CHUNKED = 32;

// node's checks on outgoing fields (lib/_http_common.js checkIsHttpToken, checkInvalidHeaderChar):
// a CR or LF in a value a plugin set must never split the response.
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const CLOSE_TOKEN = /(?:^|\W)close(?:$|\W)/i;
const CHUNKED_TOKEN = /(?:^|\W)chunked(?:$|\W)/i;

/** An outgoing field node would refuse (ERR_INVALID_HTTP_TOKEN / ERR_INVALID_CHAR). */
export class InvalidHeaderError extends Error {}

/** One checked field: its line (`Name: value\r\n`) and framing flags. Mutable: a slot is reused. */
export type FieldLine = { name: string; value: string; line: string; flags: number };

const POSITIONS = 64;
// `line` stays '' until a slot holds a checked field: an empty line is never a hit.
const slots: FieldLine[] = Array.from({ length: POSITIONS }, () => ({ name: '', value: '', line: '', flags: 0 }));
const scratch: FieldLine = { name: '', value: '', line: '', flags: 0 };

function flagsOf(name: string, value: string): number {
  switch (name.length) {
    case 4:
      return name.toLowerCase() === 'date' ? SEEN_DATE : 0;
    case 10:
      return name.toLowerCase() === 'connection' ? SEEN_CONNECTION | (CLOSE_TOKEN.test(value) ? CLOSES : 0) : 0;
    case 14:
      return name.toLowerCase() === 'content-length' ? SEEN_LENGTH : 0;
    case 17:
      return name.toLowerCase() === 'transfer-encoding' ? SEEN_TE | (CHUNKED_TOKEN.test(value) ? CHUNKED : 0) : 0;
    default:
      return 0;
  }
}

/**
 * The checked line of field number `position` of a head; throws InvalidHeaderError for a field
 * node would refuse. The result is valid until the next call (it is a reused slot).
 */
export function fieldLine(position: number, name: string, value: string): FieldLine {
  const slot = position < POSITIONS ? slots[position]! : scratch;
  if (slot.name === name && slot.value === value && slot.line !== '') return slot;
  if (!TOKEN.test(name)) throw new InvalidHeaderError(`invalid header name ${JSON.stringify(name)}`);
  if (INVALID_VALUE.test(value)) throw new InvalidHeaderError(`invalid character in header ${name}`);
  slot.name = name;
  slot.value = value;
  slot.line = name + ': ' + value + '\r\n';
  slot.flags = flagsOf(name, value);
  return slot;
}
