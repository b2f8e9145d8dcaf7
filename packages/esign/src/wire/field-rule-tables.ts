import type { ModelFieldRule } from './check-model-fields.ts';
import {
  AGENT_CORRECTION_FIELDS, AGENT_FIELDS, CARBON_COPY_CORRECTION_FIELDS, CARBON_COPY_FIELDS, CERTIFIED_DELIVERY_CORRECTION_FIELDS, IN_PERSON_SIGNER_CORRECTION_FIELDS, CERTIFIED_DELIVERY_FIELDS,
  DOCUMENT_FIELDS, EDITOR_CORRECTION_FIELDS, EDITOR_FIELDS, ENVELOPE_DEFINITION_FIELDS, ENVELOPE_UPDATE_FIELDS, IN_PERSON_SIGNER_FIELDS,
  INTERMEDIARY_CORRECTION_FIELDS, INTERMEDIARY_FIELDS, RECIPIENTS_FIELDS, SIGNER_CORRECTION_FIELDS, SIGNER_FIELDS, WITNESS_CORRECTION_FIELDS, WITNESS_FIELDS,
} from './envelope-field-rules.ts';

/** One SDK model (node_modules/docusign-esign/src/model/<model>.js) and how each of its fields is treated. */
export type FieldRuleTable = { readonly model: string; readonly rules: Readonly<Record<string, ModelFieldRule>>; /** The doc's heading when it is not the model's name alone. */ readonly heading?: string };

/**
 * Every request model whose fields are checked on the way in: the envelope definition and what it
 * holds (create), and the Envelope model (Envelopes::update). A test keeps each table equal to
 * the SDK's model, and docs/esign-envelope-fields.md equal to renderFieldRuleTables().
 */
export const FIELD_RULE_TABLES: readonly FieldRuleTable[] = [
  { model: 'EnvelopeDefinition', rules: ENVELOPE_DEFINITION_FIELDS },
  { model: 'Recipients', rules: RECIPIENTS_FIELDS },
  { model: 'Signer', rules: SIGNER_FIELDS },
  { model: 'CarbonCopy', rules: CARBON_COPY_FIELDS },
  { model: 'InPersonSigner', rules: IN_PERSON_SIGNER_FIELDS },
  { model: 'CertifiedDelivery', rules: CERTIFIED_DELIVERY_FIELDS },
  { model: 'Agent', rules: AGENT_FIELDS },
  { model: 'Editor', rules: EDITOR_FIELDS },
  { model: 'Intermediary', rules: INTERMEDIARY_FIELDS },
  { model: 'Witness', rules: WITNESS_FIELDS },
  { model: 'Document', rules: DOCUMENT_FIELDS },
];

/** The Envelopes::update body (the SDK's Envelope model). */
export const UPDATE_RULE_TABLE: FieldRuleTable = { model: 'Envelope', rules: ENVELOPE_UPDATE_FIELDS };

/** EnvelopesApi.updateRecipients: each recipient list's model, as a correction reads it (domain/envelope/correct-recipients.ts). */
const correction = (model: string, rules: Readonly<Record<string, ModelFieldRule>>): FieldRuleTable => ({ model, rules, heading: `${model} in EnvelopesApi.updateRecipients` });
export const CORRECTION_RULE_TABLES: readonly FieldRuleTable[] = [
  correction('Signer', SIGNER_CORRECTION_FIELDS), correction('CarbonCopy', CARBON_COPY_CORRECTION_FIELDS), correction('CertifiedDelivery', CERTIFIED_DELIVERY_CORRECTION_FIELDS),
  correction('InPersonSigner', IN_PERSON_SIGNER_CORRECTION_FIELDS),
  correction('Agent', AGENT_CORRECTION_FIELDS), correction('Editor', EDITOR_CORRECTION_FIELDS), correction('Intermediary', INTERMEDIARY_CORRECTION_FIELDS), correction('Witness', WITNESS_CORRECTION_FIELDS),
];

const cell = (text: string): string => text.replace(/\|/g, '\\|');

function treatment(rule: ModelFieldRule): [string, string] {
  switch (rule.rule) {
    case 'honoured': return ['supported', ''];
    case 'output': return ['output', 'written by the service; a value sent back is accepted and changes nothing'];
    case 'refused': return ['**refused**', rule.why];
    case 'limited': return [`only ${rule.allow.map((v) => `\`${v}\``).join(', ')}`, rule.why];
  }
}

/** One markdown table per model: every field, alphabetically, with how it is treated and why. */
export function renderFieldRuleTables(tables: readonly FieldRuleTable[] = [...FIELD_RULE_TABLES, UPDATE_RULE_TABLE, ...CORRECTION_RULE_TABLES]): string {
  const out: string[] = [];
  for (const { model, rules, heading } of tables) {
    const fields = Object.keys(rules).sort((a, b) => a.localeCompare(b, 'en'));
    const counts = { supported: 0, output: 0, refused: 0 };
    for (const f of fields) {
      const r = rules[f]!.rule;
      if (r === 'honoured' || r === 'limited') counts.supported++;
      else if (r === 'output') counts.output++;
      else counts.refused++;
    }
    out.push(`### ${heading ?? model}`, '', `${fields.length} fields: ${counts.supported} supported, ${counts.output} output only, ${counts.refused} refused.`, '',
      '| field | treatment | why |', '| --- | --- | --- |');
    for (const f of fields) {
      const [how, why] = treatment(rules[f]!);
      out.push(`| \`${f}\` | ${how} | ${cell(why)} |`);
    }
    out.push('');
  }
  return out.join('\n');
}
