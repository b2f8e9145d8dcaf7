import type { Kysely } from 'kysely';
import type { ConditionalRecipientRule } from '../domain/envelope/conditional-recipients.ts';
import type { DelayRule, EnvelopeWorkflow, HoldStatus, ScheduledSending, WorkflowStep } from '../domain/envelope/workflow.ts';
import type { Migration } from './migrations.ts';
import type { Database } from './schema.ts';

/**
 * An envelope's workflow (domain/envelope/workflow.ts), one row per envelope that has one. The
 * scheduler finds due holds through envelope_notifications.next_due_at, which the notification
 * repository derives from the whole envelope, workflow included; this table only keeps it.
 */
export type EnvelopeWorkflowRow = { envelope_id: string; workflow_json: string };

export type WorkflowTables = { envelope_workflows: EnvelopeWorkflowRow };

export const WORKFLOW_TABLES_MIGRATION: Migration = {
  version: 83,
  name: 'envelope workflows: scheduled sending, pauses, delayed routing',
  async up(db) {
    await db.schema.createTable('envelope_workflows')
      .addColumn('envelope_id', 'text', (c) => c.primaryKey().references('envelopes.id'))
      .addColumn('workflow_json', 'text', (c) => c.notNull())
      .execute();
  },
};

type StoredRule = { delayMs: number } | { resumeAt: string };
type StoredHold = { status: HoldStatus; resumeAt?: string; completedAt?: string };
type StoredWorkflow = {
  scheduled?: StoredHold & { rule: StoredRule };
  // Conditional rules are plain data: kept as the domain holds them.
  steps: (StoredHold & { id: string; routingOrder: number; delay?: StoredRule; triggeredAt?: string; conditional?: ConditionalRecipientRule[] })[];
};

const iso = (d: Date | undefined) => d?.toISOString();
const date = (s: string | undefined) => (s === undefined ? undefined : new Date(s));
const rule = (r: DelayRule): StoredRule => (r.kind === 'delay' ? { delayMs: r.delayMs } : { resumeAt: r.at.toISOString() });
const fromRule = (r: StoredRule): DelayRule => ('delayMs' in r ? { kind: 'delay', delayMs: r.delayMs } : { kind: 'resumeDate', at: new Date(r.resumeAt) });
/** Drops undefined fields, so optional properties stay absent (exactOptionalPropertyTypes). */
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function toJson(w: EnvelopeWorkflow): string {
  const s = w.scheduledSending;
  const stored: StoredWorkflow = {
    ...(s ? { scheduled: defined({ rule: rule(s.rule), status: s.status, resumeAt: iso(s.resumeAt), completedAt: iso(s.completedAt) }) } : {}),
    steps: w.steps.map((t) => defined({ id: t.workflowStepId, routingOrder: t.routingOrder, delay: t.delay ? rule(t.delay) : undefined, status: t.status, triggeredAt: iso(t.triggeredAt), resumeAt: iso(t.resumeAt), completedAt: iso(t.completedAt), conditional: t.conditionalRecipients ? [...t.conditionalRecipients] : undefined })),
  };
  return JSON.stringify(stored);
}

function fromJson(json: string): EnvelopeWorkflow {
  const stored = JSON.parse(json) as StoredWorkflow;
  const s = stored.scheduled;
  const scheduledSending: ScheduledSending | undefined = s ? defined({ rule: fromRule(s.rule), status: s.status, resumeAt: date(s.resumeAt), completedAt: date(s.completedAt) }) : undefined;
  const steps: WorkflowStep[] = stored.steps.map((t) => defined({ workflowStepId: t.id, routingOrder: t.routingOrder, delay: t.delay ? fromRule(t.delay) : undefined, status: t.status, triggeredAt: date(t.triggeredAt), resumeAt: date(t.resumeAt), completedAt: date(t.completedAt), conditionalRecipients: t.conditional }));
  return { ...(scheduledSending ? { scheduledSending } : {}), steps };
}

/**
 * Writes the envelope's workflow inside the caller's transaction (create and every versioned
 * update). An envelope without one writes nothing: a workflow, once set, is never removed
 * (a removed one is an empty workflow), so most envelopes cost no query here.
 */
export async function saveEnvelopeWorkflow(trx: Kysely<Database>, envelopeId: string, workflow: EnvelopeWorkflow | undefined): Promise<void> {
  if (workflow === undefined) return;
  const workflow_json = toJson(workflow);
  await trx.insertInto('envelope_workflows').values({ envelope_id: envelopeId, workflow_json }).onConflict((oc) => oc.column('envelope_id').doUpdateSet({ workflow_json })).execute();
}

/** The workflows of several envelopes, by envelope id. */
export async function loadEnvelopeWorkflows(k: Kysely<Database>, envelopeIds: readonly string[]): Promise<Map<string, EnvelopeWorkflow>> {
  if (envelopeIds.length === 0) return new Map();
  const rows = await k.selectFrom('envelope_workflows').selectAll().where('envelope_id', 'in', [...envelopeIds]).execute();
  return new Map(rows.map((r) => [r.envelope_id, fromJson(r.workflow_json)]));
}
