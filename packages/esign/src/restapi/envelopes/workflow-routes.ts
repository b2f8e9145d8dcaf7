import type { FastifyInstance } from 'fastify';
import { changeDraftWorkflow } from '../../domain/envelope/change-draft-workflow.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import type { Envelope } from '../../domain/envelope/envelope.ts';
import type { WorkflowDraft, WorkflowStep, WorkflowStepDraft } from '../../domain/envelope/workflow.ts';
import { EsignError } from '../../errors.ts';
import { parseDelayedRouting, parseScheduledSending, parseWorkflow, parseWorkflowStep } from '../../wire/parse-workflow.ts';
import { toWireScheduledSending, toWireWorkflow, toWireWorkflowStep } from '../../wire/to-wire-workflow.ts';
import { WireReader } from '../../wire/wire-reader.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };
type StepParams = EnvelopeParams & { workflowStepId: string };

const PATH = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/workflow';

function stepOf(envelope: Envelope, workflowStepId: string): WorkflowStep {
  const step = envelope.workflow?.steps.find((s) => s.workflowStepId === workflowStepId);
  if (!step) throw new EsignError('INVALID_REQUEST_PARAMETER', `The envelope's workflow has no step "${workflowStepId}".`);
  return step;
}

/** The draft with step `id` replaced by what `edit` makes of it (undefined: removed). */
function editStep(w: WorkflowDraft, id: string, edit: (step: WorkflowStepDraft) => WorkflowStepDraft | undefined): WorkflowDraft {
  if (!w.steps.some((s) => s.workflowStepId === id)) throw new EsignError('INVALID_REQUEST_PARAMETER', `The envelope's workflow has no step "${id}".`);
  return { ...w, steps: w.steps.flatMap((s) => (s.workflowStepId === id ? (edit(s) ?? []) : [s])) };
}

/** A body the SDK sends as the named model; `{}` when the SDK sent none. */
const body = (name: string, value: unknown) => new WireReader(name, value ?? {});

/**
 * EnvelopesApi's workflow definition endpoints (…/envelopes/{envelopeId}/workflow…): reads on
 * any envelope; writes on a draft (changeDraftWorkflow). The SDK's models answer: Workflow,
 * WorkflowStep, ScheduledSending, DelayedRouting; deletes answer an empty 200.
 */
export function registerWorkflowRoutes(app: FastifyInstance, deps: { envelopes: EnvelopeDeps }): void {
  const d = deps.envelopes;
  const load = (p: EnvelopeParams) => getEnvelope(d, p.accountId, p.envelopeId);
  const change = (p: EnvelopeParams, edit: Parameters<typeof changeDraftWorkflow>[3]) => changeDraftWorkflow(d, p.accountId, p.envelopeId, edit);

  app.get<{ Params: EnvelopeParams }>(PATH, async (request) => toWireWorkflow((await load(request.params)).workflow));
  app.put<{ Params: EnvelopeParams }>(PATH, async (request) => {
    const asked = parseWorkflow(body('workflow', request.body)) ?? { steps: [] };
    return toWireWorkflow((await change(request.params, () => asked)).workflow);
  });
  app.delete<{ Params: EnvelopeParams }>(PATH, async (request) => {
    await change(request.params, () => ({ steps: [] }));
    return '';
  });

  app.get<{ Params: EnvelopeParams }>(`${PATH}/scheduledSending`, async (request) => {
    const scheduled = (await load(request.params)).workflow?.scheduledSending;
    return scheduled ? toWireScheduledSending(scheduled) : {};
  });
  app.put<{ Params: EnvelopeParams }>(`${PATH}/scheduledSending`, async (request) => {
    const rule = parseScheduledSending(body('scheduledSending', request.body)) ?? body('scheduledSending', request.body).fail('needs rules.');
    const saved = await change(request.params, (w) => ({ ...w, scheduledSending: rule }));
    return toWireScheduledSending(saved.workflow!.scheduledSending!);
  });
  app.delete<{ Params: EnvelopeParams }>(`${PATH}/scheduledSending`, async (request) => {
    await change(request.params, ({ steps }) => ({ steps }));
    return '';
  });

  app.post<{ Params: EnvelopeParams }>(`${PATH}/steps`, async (request) => {
    const step = parseWorkflowStep(body('workflowStep', request.body));
    const saved = await change(request.params, (w) => ({ ...w, steps: [...w.steps, step] }));
    const added = step.workflowStepId !== undefined ? stepOf(saved, step.workflowStepId) : saved.workflow!.steps.find((s) => s.routingOrder === step.routingOrder)!;
    return toWireWorkflowStep(added);
  });
  app.get<{ Params: StepParams }>(`${PATH}/steps/:workflowStepId`, async (request) => toWireWorkflowStep(stepOf(await load(request.params), request.params.workflowStepId)));
  app.put<{ Params: StepParams }>(`${PATH}/steps/:workflowStepId`, async (request) => {
    const id = request.params.workflowStepId;
    const step = parseWorkflowStep(body('workflowStep', request.body));
    const saved = await change(request.params, (w) => editStep(w, id, () => ({ ...step, workflowStepId: id })));
    return toWireWorkflowStep(stepOf(saved, id));
  });
  app.delete<{ Params: StepParams }>(`${PATH}/steps/:workflowStepId`, async (request) => {
    const id = request.params.workflowStepId;
    await change(request.params, (w) => editStep(w, id, () => undefined));
    return '';
  });

  app.get<{ Params: StepParams }>(`${PATH}/steps/:workflowStepId/delayedRouting`, async (request) => {
    const step = stepOf(await load(request.params), request.params.workflowStepId);
    return (toWireWorkflowStep(step).delayedRouting) ?? {};
  });
  app.put<{ Params: StepParams }>(`${PATH}/steps/:workflowStepId/delayedRouting`, async (request) => {
    const id = request.params.workflowStepId;
    const delay = parseDelayedRouting(body('delayedRouting', request.body)) ?? body('delayedRouting', request.body).fail('needs rules.');
    const saved = await change(request.params, (w) => editStep(w, id, (s) => ({ ...s, delay })));
    return toWireWorkflowStep(stepOf(saved, id)).delayedRouting;
  });
  app.delete<{ Params: StepParams }>(`${PATH}/steps/:workflowStepId/delayedRouting`, async (request) => {
    const id = request.params.workflowStepId;
    await change(request.params, (w) => editStep(w, id, (s) => ({ routingOrder: s.routingOrder, workflowStepId: id })));
    return '';
  });
}
