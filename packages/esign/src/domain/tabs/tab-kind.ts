import { FIELD_RULES, type FieldRule } from './tab-field-rules.ts';
import type { Tab } from './tab.ts';
import type { WireField } from './wire-field.ts';

/** What parsing one tab knows beyond the tab's own JSON. */
export type TabContext = { readonly recipientId?: string };

/**
 * One tab type: its SDK list and model, every field its model has with this service's rule, how
 * its JSON becomes a domain Tab, and what value a signer may give it. "Add a tab type" is one
 * kind in kinds/ and one line in tab-registry.ts.
 */
export type TabKind<T extends Tab = Tab> = {
  readonly type: T['type'];
  /** The Tabs property, e.g. textTabs. */
  readonly wireKey: string;
  /** The SDK model, e.g. Text (node_modules/docusign-esign/src/model/Text.js). */
  readonly model: string;
  /** Every field of the model (without its *Metadata twins), each with its rule. */
  readonly fields: Readonly<Record<string, FieldRule>>;
  /** Reads the JSON (already checked against `fields`) into the domain tab. */
  parse(tab: WireField, context: TabContext): T;
  /**
   * Why `value` (the signer's, as the wire carries it) does not suit this tab, or undefined when
   * it does. Blank is judged by `required` elsewhere; here only a non-blank value is checked.
   */
  findValueProblem(tab: T, value: string): string | undefined;
  /** Whether a signer gives this tab a value at all (false: signature, button and read-only types). */
  readonly takesValue: boolean;
};

/**
 * A kind's field table: the model's field names, each with FIELD_RULES' rule unless `overrides`
 * gives this model's own (e.g. value is output on a fullName tab: the service writes it).
 */
export function fieldTable(names: readonly string[], overrides: Readonly<Record<string, FieldRule>> = {}): Readonly<Record<string, FieldRule>> {
  const table: Record<string, FieldRule> = {};
  for (const name of names) {
    const rule = overrides[name] ?? FIELD_RULES[name];
    if (!rule) throw new TypeError(`tab field ${name} has no rule in FIELD_RULES`);
    table[name] = rule;
  }
  return table;
}

/**
 * Types a kind against its own tab type and hands it to the registry's list as any kind: its
 * methods are only ever called with tabs of its type (the registry finds kinds by type).
 */
export function defineKind<T extends Tab>(kind: TabKind<T>): TabKind {
  return kind;
}
