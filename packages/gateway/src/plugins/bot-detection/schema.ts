// kong/plugins/bot-detection/schema.lua, as data.
import type { Field } from '../../declarative/schema.ts';
import { pcreToJsSource } from '../../declarative/pcre-regex.ts';
import type { PluginSchema } from '../plugin-schema.ts';

/** A user's pattern as ngx.re would take it, in JS; throws when it does not compile. */
export const compileAgentPattern = (pcre: string): RegExp => new RegExp(pcreToJsSource(pcre));

// Kong's `is_regex` validator: "not a valid regex: <value>".
const REGEX: Field = {
  type: 'string',
  custom: (v: string) => {
    try {
      compileAgentPattern(v);
      return undefined;
    } catch {
      return `not a valid regex: ${v}`;
    }
  },
};

/** bot-detection: refuse known bots and denied User-Agents. */
export const BOT_DETECTION_SCHEMA: PluginSchema = {
  name: 'bot-detection',
  priority: 2500,
  consumerScoped: false,
  config: {
    fields: [
      // Patterns matched against the User-Agent; a match lets the request through before any other check.
      ['allow', { type: 'array', elements: REGEX, default: [] }],
      // Patterns refused (403) after allow, before the known-bot list.
      ['deny', { type: 'array', elements: REGEX, default: [] }],
    ],
  },
};
