import { FILTER_OPERATORS, type ConditionalRecipientRule, type RecipientOption, type RuleCondition, type RuleFilter } from '../domain/envelope/conditional-recipients.ts';
import { normalizeEmail } from '../domain/email-address.ts';
import { checkModelFields, type ModelFieldRule } from './check-model-fields.ts';
import type { WireReader } from './wire-reader.ts';

const honoured: ModelFieldRule = { rule: 'honoured' };
const refused = (why: string): ModelFieldRule => ({ rule: 'refused', why });

/** The SDK's RecipientRouting, RecipientRules, ConditionalRecipientRule* and RecipientGroup/Option models, field by field. */
const ROUTING_FIELDS = { rules: honoured };
const RULES_FIELDS = { conditionalRecipients: honoured };
const RULE_FIELDS = { conditions: honoured, order: honoured, recipientGroup: honoured, recipientId: honoured };
const CONDITION_FIELDS = { filters: honoured, order: honoured, recipientLabel: honoured };
// tabId: DocuSign's example sends a made-up one next to tabLabel; tabs are matched by label.
const FILTER_FIELDS = { operator: honoured, recipientId: honoured, scope: honoured, tabId: honoured, tabLabel: honoured, tabType: honoured, value: honoured };
const GROUP_FIELDS = { groupMessage: honoured, groupName: honoured, recipients: honoured };
const OPTION_FIELDS = { email: honoured, name: honoured, recipientLabel: honoured, roleName: honoured, signingGroupId: refused('signing groups are not supported') };

/** Our bounds: more than enough for any routing a person draws. */
const MAX_RULES = 20;
const MAX_ITEMS = 20;

function bounded(reader: WireReader, max: number): WireReader[] {
  const items = reader.items();
  if (items.length > max) reader.fail(`may hold at most ${max} items.`);
  return items;
}

function parseFilter(f: WireReader): RuleFilter {
  checkModelFields(f, 'ConditionalRecipientRuleFilter', FILTER_FIELDS);
  f.field('scope').oneOf(['tabs'], 'tabs');
  const operator = f.field('operator').oneOf(FILTER_OPERATORS, 'equals');
  const recipientId = f.field('recipientId').string(100);
  const tabLabel = f.field('tabLabel').string(500);
  const tabType = f.field('tabType').optionalString(50);
  // A checkbox's `false` arrives as a JSON boolean from the SDK's models; a blank value is "".
  const value = f.field('value').optionalString(4000) ?? '';
  return { recipientId, tabLabel, operator, value, ...(tabType !== undefined ? { tabType } : {}) };
}

function parseCondition(c: WireReader): RuleCondition {
  checkModelFields(c, 'ConditionalRecipientRuleCondition', CONDITION_FIELDS);
  return { order: c.field('order').optionalInteger(0, 1000) ?? 0, recipientLabel: c.field('recipientLabel').string(100), filters: bounded(c.field('filters'), MAX_ITEMS).map(parseFilter) };
}

function parseOption(o: WireReader): RecipientOption {
  checkModelFields(o, 'RecipientOption', OPTION_FIELDS);
  const label = o.field('recipientLabel').string(100);
  const rawEmail = o.field('email').string(254);
  let email: string;
  try {
    email = normalizeEmail(rawEmail);
  } catch {
    return o.field('email').fail(`is not an e-mail address: "${rawEmail}".`);
  }
  const roleName = o.field('roleName').optionalString(100);
  return { label, name: o.field('name').string(100), email, ...(roleName !== undefined ? { roleName } : {}) };
}

/**
 * A WorkflowStep's `recipientRouting` → its conditional recipient rules (domain/envelope/
 * conditional-recipients.ts); undefined when absent. What they refer to is checked with the
 * recipients (checkConditionalRules).
 */
export function parseRecipientRouting(reader: WireReader): ConditionalRecipientRule[] | undefined {
  if (!reader.present) return undefined;
  checkModelFields(reader, 'RecipientRouting', ROUTING_FIELDS);
  const rules = reader.field('rules');
  checkModelFields(rules, 'RecipientRules', RULES_FIELDS);
  const items = bounded(rules.field('conditionalRecipients'), MAX_RULES);
  if (items.length === 0) return undefined;
  return items.map((r) => {
    checkModelFields(r, 'ConditionalRecipientRule', RULE_FIELDS);
    const group = r.field('recipientGroup');
    checkModelFields(group, 'RecipientGroup', GROUP_FIELDS);
    const groupMessage = group.field('groupMessage').optionalString(1000);
    return {
      recipientId: r.field('recipientId').string(100),
      order: r.field('order').optionalInteger(0, 1000) ?? 0,
      groupName: group.field('groupName').optionalString(100) ?? '',
      ...(groupMessage !== undefined ? { groupMessage } : {}),
      options: bounded(group.field('recipients'), MAX_ITEMS).map(parseOption),
      conditions: bounded(r.field('conditions'), MAX_ITEMS).map(parseCondition),
    };
  });
}

/** The recipient ids a workflow's rules name: placeholders, which may come without name or e-mail. */
export function conditionalPlaceholders(steps: readonly { conditionalRecipients?: readonly ConditionalRecipientRule[] }[]): Set<string> {
  return new Set(steps.flatMap((s) => (s.conditionalRecipients ?? []).map((r) => r.recipientId)));
}
