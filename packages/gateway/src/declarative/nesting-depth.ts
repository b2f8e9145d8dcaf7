// How deeply a configuration text nests, measured before it is parsed. The YAML composer (and
// then toJS, validation, JSON.stringify) recurses about 13 stack frames per level: near 800
// levels it overflows the stack, and a second overflow in the same process ended it with a fatal
// V8 out-of-memory (200,000 `[` in a 400 KB POST /config body). Kong's libyaml refuses past 1000
// levels (yaml_set_max_nest_level); our bound is lower to stay clear of that overflow, and still
// far above what a kong.yml needs (a plugin's config nests about 6 levels).
import { CST, Lexer } from 'yaml';

/** The deepest nesting a configuration document may have. */
export const MAX_NESTING = 256;

/**
 * The offset of the first opening `[`/`{` past `max` levels in JSON text, or undefined.
 * Exact for valid JSON (strings are skipped, escapes included); meant for text JSON.parse took.
 */
export function jsonTooDeep(text: string, max = MAX_NESTING): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}

const isBlank = (token: string): boolean => token[0] === ' ' || token[0] === '\t' || token[0] === '\n' || token[0] === '\r';

/**
 * The offset of the first token past `max` levels in YAML text, or undefined. It reads the
 * YAML library's own lexer (iterative, and about a fifth of a parse), so quoted and block
 * scalars and comments are skipped exactly as the parser skips them. Flow collections are
 * counted exactly; block collections from their indentation: a `-` or `?` indicator, or a key
 * before `:`, opens a level at its column, and a line starting at or left of a level's column
 * closes it. That can over-count a little (never under-count a nested chain), which a bound
 * this far above real configurations absorbs.
 */
export function yamlTooDeep(text: string, max = MAX_NESTING): number | undefined {
  let flow = 0;
  const block: number[] = [];
  let offset = 0;
  let col = 0;
  let lineStart = true;
  let keyCol = -1;
  for (const token of new Lexer().lex(text)) {
    // Control tokens mark structure; they are not in the source.
    if (token === CST.DOCUMENT || token === CST.SCALAR || token === CST.FLOW_END) continue;
    const start = offset;
    const startCol = col;
    offset += token.length;
    const newline = token.lastIndexOf('\n');
    col = newline === -1 ? col + token.length : token.length - newline - 1;
    if (isBlank(token) || token[0] === '#') {
      if (newline !== -1) lineStart = true;
      continue;
    }
    if (token === '[' || token === '{') flow++;
    else if (token === ']' || token === '}') flow = Math.max(0, flow - 1);
    else if (flow === 0) {
      if (lineStart) while (block.length > 0 && (block.at(-1) ?? 0) >= startCol) block.pop();
      if (token === '-' || token === '?') block.push(startCol);
      else if (token === ':') {
        if (keyCol >= 0 && !(block.length > 0 && (block.at(-1) ?? 0) >= keyCol)) block.push(keyCol);
      } else keyCol = startCol;
    }
    if (flow + block.length > max) return start;
    lineStart = token.endsWith('\n');
  }
  return undefined;
}
