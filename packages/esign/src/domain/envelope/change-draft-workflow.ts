import { EsignError } from '../../errors.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';
import { newWorkflow, workflowDraftOf, type WorkflowDraft } from './workflow.ts';

/**
 * The workflow endpoints' edits (EnvelopesApi.updateEnvelopeWorkflowDefinition, …StepDefinition,
 * …ScheduledSendingDefinition, …DelayedRoutingDefinition and their deletes): `edit` turns the
 * draft's workflow as asked into the new one, checked as at create. Only a draft's: DocuSign
 * also lets a sent envelope's pending steps change; here a sent envelope's workflow is refused,
 * never half-changed (docs/esign-workflow.md).
 */
export function changeDraftWorkflow(deps: EnvelopeDeps, accountId: string, envelopeId: string, edit: (current: WorkflowDraft) => WorkflowDraft): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => {
    if (current.status !== 'created') throw new EsignError('ENVELOPE_INVALID_STATUS', `Only a draft's workflow can be changed here; this envelope is ${current.status}.`);
    const workflow = newWorkflow(edit(workflowDraftOf(current.workflow)), current.recipients, () => deps.random.uuid());
    return { envelope: { ...current, workflow, version: current.version + 1 }, signingTokens: [], mails: [] };
  });
}
