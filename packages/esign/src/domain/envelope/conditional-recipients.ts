import { EsignError } from '../../errors.ts';
import { labelOf } from '../tabs/check-tab-relations.ts';
import type { Recipient } from './envelope.ts';

/**
 * Conditional recipients (DocuSign's Advanced Recipient Routing; SDK models
 * ConditionalRecipientRule, ConditionalRecipientRuleCondition, ConditionalRecipientRuleFilter,
 * RecipientGroup, RecipientOption; docs/esign-workflow.md): a workflow step before a routing
 * order names, for a placeholder signer of that order, a group of possible people and the
 * conditions on earlier recipients' tab values that choose one. When routing reaches the order,
 * the first condition (by `order`) whose filters all hold names the signer; routing goes on.
 */

/** The operators a filter may use: DocuSign's comparisons of a tab's value. */
export const FILTER_OPERATORS = ['equals', 'notEquals', 'greaterThan', 'greaterThanEquals', 'lessThan', 'lessThanEquals'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** One person the placeholder may become (RecipientOption). */
export type RecipientOption = { readonly label: string; readonly name: string; readonly email: string; readonly roleName?: string };
/** A test on one tab of an earlier recipient (scope "tabs"). */
export type RuleFilter = { readonly recipientId: string; readonly tabLabel: string; readonly tabType?: string; readonly operator: FilterOperator; readonly value: string };
/** Every filter holds → the option labelled `recipientLabel`. */
export type RuleCondition = { readonly order: number; readonly recipientLabel: string; readonly filters: readonly RuleFilter[] };
export type ConditionalRecipientRule = {
  /** The placeholder signer the rule names. */
  readonly recipientId: string;
  readonly order: number;
  readonly groupName: string;
  readonly groupMessage?: string;
  readonly options: readonly RecipientOption[];
  readonly conditions: readonly RuleCondition[];
};

function invalid(message: string): EsignError {
  return new EsignError('INVALID_REQUEST_BODY', `workflow.workflowSteps.recipientRouting: ${message}`);
}

/**
 * Checks a step's rules against the envelope's recipients when the workflow is set: each names a
 * signer of the step's routing order, each condition an option of its group, and each filter a
 * labelled tab of a recipient who acts before that order (a later one's values are not known
 * yet when routing gets there).
 */
export function checkConditionalRules(rules: readonly ConditionalRecipientRule[], routingOrder: number, recipients: readonly Recipient[]): void {
  const named = new Set<string>();
  for (const rule of rules) {
    const target = recipients.find((r) => r.recipientId === rule.recipientId);
    if (target?.type !== 'signer' || target.routingOrder !== routingOrder) throw invalid(`recipientId ${rule.recipientId} is not a signer of routing order ${routingOrder}, the step's itemId.`);
    if (named.has(rule.recipientId)) throw invalid(`recipientId ${rule.recipientId} has more than one rule.`);
    named.add(rule.recipientId);
    if (rule.options.length === 0) throw invalid(`recipientId ${rule.recipientId}: recipientGroup.recipients is empty.`);
    if (rule.conditions.length === 0) throw invalid(`recipientId ${rule.recipientId}: conditions is empty.`);
    const labels = new Set(rule.options.map((o) => o.label));
    if (labels.size !== rule.options.length) throw invalid(`recipientId ${rule.recipientId}: a recipientLabel is repeated in recipientGroup.recipients.`);
    for (const condition of rule.conditions) {
      if (!labels.has(condition.recipientLabel)) throw invalid(`recipientId ${rule.recipientId}: condition ${condition.order} names recipientLabel "${condition.recipientLabel}", which is not in recipientGroup.recipients.`);
      if (condition.filters.length === 0) throw invalid(`recipientId ${rule.recipientId}: condition ${condition.order} has no filters.`);
      for (const filter of condition.filters) {
        const source = recipients.find((r) => r.recipientId === filter.recipientId);
        if (!source || source.routingOrder >= routingOrder) throw invalid(`a filter names recipientId ${filter.recipientId}, who does not act before routing order ${routingOrder}.`);
        const tab = source.tabs.find((t) => labelOf(t.tab) === filter.tabLabel);
        if (!tab) throw invalid(`a filter names tabLabel "${filter.tabLabel}", which recipient ${filter.recipientId} has no tab of.`);
        if (filter.tabType !== undefined && filter.tabType.toLowerCase() !== tab.tab.type.toLowerCase()) throw invalid(`a filter says tabType "${filter.tabType}", but "${filter.tabLabel}" is a ${tab.tab.type} tab.`);
      }
    }
  }
}

/** The value a filter compares: a checkbox is "true"/"false"; others as held (PlacedTab.value). */
function filterHolds(filter: RuleFilter, recipients: readonly Recipient[]): boolean {
  const source = recipients.find((r) => r.recipientId === filter.recipientId);
  const tab = source?.tabs.find((t) => labelOf(t.tab) === filter.tabLabel);
  if (!tab) return false;
  const value = tab.value.trim();
  const wanted = filter.value.trim();
  switch (filter.operator) {
    case 'equals':
      return value.toLowerCase() === wanted.toLowerCase();
    case 'notEquals':
      return value.toLowerCase() !== wanted.toLowerCase();
    default: {
      // Numbers only: a blank or non-numeric value meets no comparison.
      const [a, b] = [Number(value.replace(/,/g, '')), Number(wanted.replace(/,/g, ''))];
      if (value === '' || !Number.isFinite(a) || !Number.isFinite(b)) return false;
      if (filter.operator === 'greaterThan') return a > b;
      if (filter.operator === 'greaterThanEquals') return a >= b;
      if (filter.operator === 'lessThan') return a < b;
      return a <= b;
    }
  }
}

/**
 * The placeholders of `rules` named by the values their earlier recipients left: each becomes
 * its chosen option's name and e-mail. `unresolved` lists the placeholders no condition named.
 */
export function resolveConditionalRecipients(recipients: readonly Recipient[], rules: readonly ConditionalRecipientRule[]): { recipients: Recipient[]; unresolved: string[] } {
  const chosen: { recipientId: string; option: RecipientOption }[] = [];
  const unresolved: string[] = [];
  // Each rule names its own placeholder, so their order does not matter.
  for (const rule of rules) {
    const condition = [...rule.conditions].sort((a, b) => a.order - b.order).find((c) => c.filters.every((f) => filterHolds(f, recipients)));
    const option = condition && rule.options.find((o) => o.label === condition.recipientLabel);
    if (option) chosen.push({ recipientId: rule.recipientId, option });
    else unresolved.push(rule.recipientId);
  }
  const next = recipients.map((r) => {
    const pick = chosen.find((c) => c.recipientId === r.recipientId);
    return pick ? { ...r, name: pick.option.name, email: pick.option.email } : r;
  });
  return { recipients: next, unresolved };
}
