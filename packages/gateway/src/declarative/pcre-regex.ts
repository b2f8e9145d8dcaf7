// Kong's route regexes are PCRE (ngx.re); the router here runs JS RegExp. The common PCRE
// spellings are translated; anything JS cannot compile is reported as Kong reports a PCRE error:
// "invalid regex: '<re>' (PCRE returned: <reason>)" (typedefs.lua validate_path_with_regexes).

/** Translates PCRE-only syntax to JS: `(?P<n>` and `(?<n>` groups, `(?P=n)`, `\A`, `\z`, `\Z`. */
export function pcreToJsSource(pcre: string): string {
  return pcre
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/(^|[^\\])\\A/g, '$1^')
    .replace(/(^|[^\\])\\z/g, '$1$')
    .replace(/(^|[^\\])\\Z/g, '$1(?=\\n?$)');
}

/** Compiles a route regex path (without its `~`) anchored at the start, as Kong's router does. */
export function compileRouteRegex(pcre: string): RegExp {
  let source = pcre;
  let flags = '';
  // A leading inline (?i) is PCRE's way to ask for case-insensitivity; JS wants a flag.
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline !== null && inline[1] !== undefined && !inline[1].includes('x')) {
    flags = inline[1];
    source = source.slice(inline[0].length);
  }
  return new RegExp(`^(?:${pcreToJsSource(source)})`, flags);
}

/** Kong's error text for a regex JS cannot compile, or undefined when it compiles. */
export function validateRouteRegex(pcre: string): string | undefined {
  try {
    compileRouteRegex(pcre);
    return undefined;
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '') : String(e);
    return `invalid regex: '${pcre}' (PCRE returned: ${reason})`;
  }
}

/** Compiles a route header value regex (the part after `~*`): case-insensitive, unanchored. */
export function compileHeaderRegex(pcre: string): RegExp {
  return new RegExp(pcreToJsSource(pcre), 'i');
}

/** Kong-style error text for a header regex JS cannot compile, or undefined. */
export function validateHeaderRegex(pcre: string): string | undefined {
  try {
    compileHeaderRegex(pcre);
    return undefined;
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '') : String(e);
    return `invalid regex: '${pcre}' (PCRE returned: ${reason})`;
  }
}
