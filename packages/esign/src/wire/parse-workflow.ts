import type { DelayRule, WorkflowDraft, WorkflowStepDraft } from '../domain/envelope/workflow.ts';
import { checkModelFields, type ModelFieldRule } from './check-model-fields.ts';
import { parseRecipientRouting } from './parse-recipient-routing.ts';
import type { WireReader } from './wire-reader.ts';

const honoured: ModelFieldRule = { rule: 'honoured' };
const output: ModelFieldRule = { rule: 'output' };
const refused = (why: string): ModelFieldRule => ({ rule: 'refused', why });

/** The SDK's Workflow, WorkflowStep, ScheduledSending, DelayedRouting and EnvelopeDelayRule, field by field. */
const WORKFLOW_FIELDS = {
  scheduledSending: honoured, workflowSteps: honoured, workflowStatus: honoured,
  currentWorkflowStepId: output, resumeDate: output,
  overwriteUpdateMode: refused('overwrite modes are not supported: a workflow is set whole'),
};
const STEP_FIELDS = {
  action: honoured, itemId: honoured, triggerOnItem: honoured, delayedRouting: honoured, workflowStepId: honoured,
  completedDate: output, status: output, triggeredDate: output,
  recipientRouting: honoured,
};
const SCHEDULED_FIELDS = { rules: honoured, resumeDate: output, status: output, bulkListId: refused('scheduled sending of a bulk send list is not supported yet') };
const DELAYED_FIELDS = { rules: honoured, resumeDate: output, status: output };
const RULE_FIELDS = { delay: honoured, resumeDate: honoured };

/** Our bound on a delay. */
export const MAX_DELAY_DAYS = 365;
const DAY_MS = 86_400_000;
/** Our bound on a workflow's steps (one per routing order is all that makes sense). */
export const MAX_WORKFLOW_STEPS = 100;

/**
 * A request's `workflow` → the draft the domain starts (newWorkflow), undefined when it holds
 * nothing. Refuses (INVALID_REQUEST_BODY, naming the field)
 * what this service does not do: signing groups, bulk lists, actions other than
 * pause_before and triggers other than routing_order, more than one delay rule.
 */
export function parseWorkflow(reader: WireReader): WorkflowDraft | undefined {
  if (!reader.present) return undefined;
  checkModelFields(reader, 'Workflow', WORKFLOW_FIELDS);
  // in_progress is what a new workflow is; "paused" cannot be asked for: use a step.
  reader.field('workflowStatus').oneOf(['in_progress'], 'in_progress');
  const scheduledSending = parseScheduledSending(reader.field('scheduledSending'));
  const stepItems = reader.field('workflowSteps').items();
  if (stepItems.length > MAX_WORKFLOW_STEPS) reader.field('workflowSteps').fail(`may hold at most ${MAX_WORKFLOW_STEPS} steps.`);
  const steps = stepItems.map(parseWorkflowStep);
  if (!scheduledSending && steps.length === 0) return undefined;
  return { ...(scheduledSending ? { scheduledSending } : {}), steps };
}

/** A ScheduledSending object → its rule; undefined when absent. */
export function parseScheduledSending(reader: WireReader): DelayRule | undefined {
  if (!reader.present) return undefined;
  checkModelFields(reader, 'ScheduledSending', SCHEDULED_FIELDS);
  return parseRules(reader.field('rules'));
}

/** A DelayedRouting object → its rule; undefined when absent. */
export function parseDelayedRouting(reader: WireReader): DelayRule | undefined {
  if (!reader.present) return undefined;
  checkModelFields(reader, 'DelayedRouting', DELAYED_FIELDS);
  return parseRules(reader.field('rules'));
}

/** One WorkflowStep: a pause before a routing order, perhaps delayed. */
export function parseWorkflowStep(item: WireReader): WorkflowStepDraft {
  if (item.object() === undefined) item.fail('must be a WorkflowStep object.');
  checkModelFields(item, 'WorkflowStep', STEP_FIELDS);
  requiredWord(item.field('action'), 'pause_before');
  requiredWord(item.field('triggerOnItem'), 'routing_order');
  const routingOrder = item.field('itemId').optionalInteger(1, 999) ?? item.field('itemId').fail('is required: the routing order to pause before.');
  const delay = parseDelayedRouting(item.field('delayedRouting'));
  const workflowStepId = item.field('workflowStepId').optionalString(100);
  const conditionalRecipients = parseRecipientRouting(item.field('recipientRouting'));
  // A conditional step that finds nobody holds until the sender names them; a delay would end it without them.
  if (conditionalRecipients && delay) item.field('delayedRouting').fail('cannot be combined with recipientRouting (conditional recipients).');
  return { routingOrder, ...(workflowStepId !== undefined ? { workflowStepId } : {}), ...(delay ? { delay } : {}), ...(conditionalRecipients ? { conditionalRecipients } : {}) };
}

/** Envelopes::update's Workflow: only the sender's unpause is a change it makes. */
const WORKFLOW_UPDATE_FIELDS = {
  workflowStatus: honoured, currentWorkflowStepId: output, resumeDate: output,
  scheduledSending: refused('change a workflow with EnvelopesApi.updateEnvelopeWorkflowDefinition'),
  workflowSteps: refused('change a workflow with EnvelopesApi.updateEnvelopeWorkflowDefinition'),
  overwriteUpdateMode: refused('change a workflow with EnvelopesApi.updateEnvelopeWorkflowDefinition'),
};

/**
 * Envelopes::update's `workflow` (DocuSign's unpause: workflowStatus "in_progress"): true when
 * it asks to resume. "paused" is refused: routing pauses only before a step's routing order.
 */
export function parseWorkflowUpdate(reader: WireReader): boolean {
  if (!reader.present) return false;
  checkModelFields(reader, 'Workflow', WORKFLOW_UPDATE_FIELDS);
  const status = reader.field('workflowStatus');
  if (!status.present) return false;
  if (status.optionalString(32)?.toLowerCase() === 'paused') status.fail('cannot be set to paused: routing pauses before the routing order of a pause_before workflow step.');
  status.oneOf(['in_progress'], 'in_progress');
  return true;
}

/** The one value this service implements for a field that must be given. */
function requiredWord(reader: WireReader, word: string): void {
  if (!reader.present) reader.fail(`is required: ${word}.`);
  reader.oneOf([word], word);
}

/** Exactly one EnvelopeDelayRule, with a delay or a resumeDate (not both). */
function parseRules(rules: WireReader): DelayRule {
  const items = rules.items();
  if (items.length !== 1) rules.fail(`must hold exactly one rule (a delay or a resumeDate), got ${items.length}.`);
  const rule = items[0]!;
  checkModelFields(rule, 'EnvelopeDelayRule', RULE_FIELDS);
  const delay = rule.field('delay').optionalString(32);
  const resumeDate = rule.field('resumeDate').optionalString(64);
  if ((delay === undefined) === (resumeDate === undefined)) rule.fail('must have either delay or resumeDate.');
  if (delay !== undefined) return { kind: 'delay', delayMs: parseDelay(rule.field('delay'), delay) };
  return { kind: 'resumeDate', at: parseResumeDate(rule.field('resumeDate'), resumeDate!) };
}

/** DocuSign's delay: `[d.]hh:mm:ss`, hours 00-23, minutes and seconds 00-59. */
export function parseDelay(reader: WireReader, text: string): number {
  const m = /^(?:(\d{1,3})\.)?(\d{1,2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return reader.fail(`must be [d.]hh:mm:ss (e.g. "1.02:00:00" for a day and two hours), got "${text}".`);
  const [days, hours, minutes, seconds] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3]), Number(m[4])];
  if (hours > 23 || minutes > 59 || seconds > 59) reader.fail(`must be [d.]hh:mm:ss with hours 00-23 and minutes and seconds 00-59, got "${text}".`);
  const ms = (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
  if (ms > MAX_DELAY_DAYS * DAY_MS) reader.fail(`must be at most ${MAX_DELAY_DAYS} days.`);
  return ms;
}

/**
 * A resumeDate: an ISO 8601 date-time with its time zone ("2026-04-10T17:00:00Z"), as DocuSign's
 * EnvelopeDelayRule documents it, or a date alone ("2026-11-29"), which DocuSign's scheduledSending
 * example sends from its form's date input: that day's start, 00:00 UTC (docs/esign-workflow.md).
 * A time already past resumes at once. A day that is not in the calendar (2026-02-30) is refused,
 * rather than rolled over into the next month.
 */
function parseResumeDate(reader: WireReader, text: string): Date {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const dateTime = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(text);
  const day = dateOnly ?? dateTime;
  const at = dateOnly ? Date.UTC(Number(dateOnly[1]), Number(dateOnly[2]) - 1, Number(dateOnly[3])) : Date.parse(text);
  if (!day || Number.isNaN(at) || !isCalendarDay(Number(day[1]), Number(day[2]), Number(day[3]))) {
    return reader.fail(`must be an ISO 8601 date and time with its time zone (e.g. "2026-04-10T17:00:00Z"), or a date (e.g. "2026-04-10", read as 00:00 UTC), got "${text}".`);
  }
  return new Date(at);
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}
