// A small kong.yml whose aliases copy one large anchored node many times (the review's 643 KB
// document that ended the admin process once expanded).
/** One anchored list of `paths` long paths, aliased by `routes` routes. */
export function aliasBomb(paths: number, routes: number): string {
  const lines = ['_format_version: "3.0"', 'services:', '  - name: s', '    host: example.test', '    routes:', '      - name: r0', '        paths: &p'];
  for (let i = 0; i < paths; i++) lines.push(`          - /${String(i).padStart(4, '0')}${'a'.repeat(100)}`);
  for (let i = 1; i <= routes; i++) lines.push(`      - {name: r${i}, paths: *p}`);
  return lines.join('\n') + '\n';
}
