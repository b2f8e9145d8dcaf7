// header_filter.lua parse_header: the upstream's report of what a response used, as
// `name=units` items. One header line is split on commas; several lines are one item each (as
// Kong reads a repeated header). Only configured names count; units are read as a base-10
// integer (LuaJIT's tonumber(s, 10)): anything else clears that name's increment, as Lua's nil
// does. An item without exactly one `=` is skipped.

/** Units per limit name the upstream reported; `limits` are the configured names. */
export function parseLimitHeader(values: readonly string[], limits: Readonly<Record<string, unknown>>): Map<string, number> {
  const increments = new Map<string, number>();
  const items = values.length === 1 ? values[0]!.split(',') : values;
  for (const item of items) {
    const parts = item.split('=');
    if (parts.length !== 2) continue;
    const name = parts[0]!.trim();
    if (!Object.hasOwn(limits, name)) continue;
    const units = parts[1]!.trim();
    if (/^-?\d+$/.test(units)) increments.set(name, Number(units));
    else increments.delete(name);
  }
  return increments;
}
