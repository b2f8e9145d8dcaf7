// The client's header lines as the upstream gets them once the route's plugins edited them
// (kong.service.request.set_header / clear_header): the lines scanned from the client, then
// the set headers. When no edited name is among the lines passed through (the usual case:
// X-Consumer-* and the like are new), the set headers are appended to the scanned block as
// is; otherwise the block is rebuilt from the raw headers, skipping the edited names.
import type { HeaderEdits } from '../plugins/header-edits.ts';
import { withheld, type ScannedRequestHeaders } from './scan-request-headers.ts';

/** Header lines (`Name: value\r\n`…) for the upstream with `edits` applied. */
export function upstreamHeaderLines(raw: readonly string[], scanned: ScannedRequestHeaders, edits: HeaderEdits | undefined): string {
  if (edits === undefined) return scanned.passthrough;
  let lines = scanned.passthrough;
  const names = scanned.names;
  const lowers = edits.lowers;
  for (let i = 0; i < lowers.length; i++) {
    if (!withheld(scanned, lowers[i]!) && names.includes(lowers[i]!)) {
      lines = withoutEdited(raw, scanned, edits);
      break;
    }
  }
  const list = edits.edits;
  for (let i = 0; i < list.length; i++) {
    const edit = list[i]!;
    if (edit === null) continue;
    const value = edit[1];
    if (typeof value === 'string') lines += edit[0] + ': ' + value + '\r\n';
    else for (const v of value) lines += edit[0] + ': ' + v + '\r\n';
  }
  return lines;
}

// The passed-through lines, in the client's order, without those an edit names.
function withoutEdited(raw: readonly string[], scanned: ScannedRequestHeaders, edits: HeaderEdits): string {
  let out = '';
  const names = scanned.names;
  for (let k = 0; k < names.length; k++) {
    const lower = names[k]!;
    if (!edits.has(lower) && !withheld(scanned, lower)) out += raw[2 * k]! + ': ' + raw[2 * k + 1]! + '\r\n';
  }
  return out;
}
