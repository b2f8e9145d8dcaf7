/**
 * A file name for an archive entry made from a document's name: ASCII letters, digits, space,
 * dot, dash and underscore only (no path separators, so an entry can never name a folder or
 * climb out of one: "../../etc/passwd" becomes "etc_passwd.pdf"), no leading dots, at most 100
 * characters, ending in .pdf (every stored document is a PDF whatever was uploaded).
 */
export function safeEntryName(name: string): string {
  const base = name
    .replace(/[^A-Za-z0-9 ._-]+/g, '_')
    .replace(/^[\s._-]+/, '')
    .replace(/\.[A-Za-z0-9]{1,10}$/, '')
    .trim()
    .slice(0, 100)
    .trim();
  return `${base === '' ? 'document' : base}.pdf`;
}

/** Entry names made unique within one archive, case-insensitively (Windows and macOS unzip to one file otherwise): "a.pdf", "a (2).pdf". */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = name.replace(/\.pdf$/, ` (${n}).pdf`);
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
