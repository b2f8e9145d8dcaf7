import { EsignError } from '../../errors.ts';
import { normalizeEmail } from '../email-address.ts';
import { assertRecipientTransition } from '../envelope/envelope-transitions.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import type { EnvelopeChange } from '../envelope/ports.ts';
import { actsOnSigningPage, managesRecipients } from '../envelope/recipient-kinds.ts';
import { routeOn } from '../envelope/routing.ts';
import { assertWorkflowFits, stepsToCome } from '../envelope/assert-workflow-fits.ts';
import type { AuditActor, AuditEvent } from './audit-event.ts';
import { signerAccess } from './signer-access.ts';
import type { RoutingDeps } from './signing-changes.ts';

/**
 * What an agent, editor or intermediary may change (DocuSign's EnvelopeRecipients: an agent
 * "can add name and email information for recipients that appear after the agent in routing
 * order"; an intermediary the same, without having to; an editor has the sender's rights over
 * the remaining recipients, routing order included):
 *
 * - Only the recipients after their own routing order, up to the next agent, editor or
 *   intermediary (who then speaks for the ones after it), and only those routing has not
 *   reached: never themselves, an earlier or parallel recipient, or a recipient of another
 *   envelope (each link names one recipient of one envelope).
 * - An agent or intermediary fills in a name or e-mail left blank, and changes one given by the
 *   sender only where that recipient says agentCanEditName / agentCanEditEmail (Signer model);
 *   an editor changes both, and the routing order, to any order after its own, and sets an
 *   access code for a recipient who opens a page (DocuSign's Editor: "the same management and
 *   access rights for the envelope as the sender ... set authentication options"), as the
 *   sender's updateRecipients does. What else DocuSign lets an editor change (tabs, one-time
 *   passcodes) is not done here: the page offers no input for it and a posted one is refused.
 * - A recipient left without a name or e-mail cannot be reached: every blank in their scope must
 *   be filled before they finish.
 */
export type ManagedField = 'name' | 'email' | 'routingOrder' | 'accessCode';

/** One recipient the manager sees on their page, with what they may change of it. */
export type ManagedRecipient = { readonly recipient: Recipient; readonly editable: ReadonlySet<ManagedField> };

/**
 * What the page posted for one recipient: raw text, judged here. `accessCode` as typed (blank:
 * no change) with `accessCodeHash`, its hash made by the route before the change (never stored as typed).
 */
export type RecipientEdit = { readonly recipientId: string; readonly name?: string; readonly email?: string; readonly routingOrder?: string; readonly accessCode?: string; readonly accessCodeHash?: string };

// The create's bounds (restapi/envelopes/parse-envelope-definition.ts): 100-character names, routing orders 1-999, 50-character access codes.
const MAX_NAME = 100;
const MAX_ACCESS_CODE = 50;
const MAX_ROUTING_ORDER = 999;
// Control characters would reach mail headers and the certificate.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

const TYPE_WORDS: Record<string, string> = { agent: 'agent', editor: 'editor', intermediary: 'intermediary' };

/** The recipients `manager` speaks for, in routing order, each with what may change. */
export function recipientsManagedBy(envelope: Envelope, manager: Recipient): ManagedRecipient[] {
  if (!managesRecipients(manager)) return [];
  const nextManager = Math.min(...envelope.recipients.filter((r) => managesRecipients(r) && r.routingOrder > manager.routingOrder).map((r) => r.routingOrder), Infinity);
  return envelope.recipients
    .filter((r) => r.routingOrder > manager.routingOrder && r.routingOrder < nextManager && r.status === 'created')
    .sort((a, b) => a.routingOrder - b.routingOrder)
    .map((recipient) => ({ recipient, editable: editableFields(manager, recipient) }));
}

function editableFields(manager: Recipient, r: Recipient): ReadonlySet<ManagedField> {
  if (manager.type === 'editor') return new Set<ManagedField>(actsOnSigningPage(r) ? ['name', 'email', 'routingOrder', 'accessCode'] : ['name', 'email', 'routingOrder']);
  const fields = new Set<ManagedField>();
  if (r.name === '' || r.agentCanEditName === true) fields.add('name');
  if (r.email === '' || r.agentCanEditEmail === true) fields.add('email');
  return fields;
}

function refuse(recipientId: string, why: string): EsignError {
  return new EsignError('RECIPIENT_UPDATE_FAILED', `recipientId "${recipientId}": ${why}`);
}

/** A posted name: trimmed, 1 to 100 characters, no control characters. */
function judgeName(recipientId: string, raw: string): string {
  const name = raw.trim();
  if (name === '' || name.length > MAX_NAME || CONTROL.test(name)) throw new EsignError('INVALID_REQUEST_PARAMETER', `recipientId "${recipientId}": a name of 1 to ${MAX_NAME} characters is required.`);
  return name;
}

function judgeEmail(recipientId: string, raw: string): string {
  try {
    return normalizeEmail(raw);
  } catch {
    throw new EsignError('INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', `recipientId ${recipientId} ("${raw.slice(0, 254)}")`);
  }
}

function judgeRoutingOrder(recipientId: string, raw: string, manager: Recipient): number {
  const order = /^\d{1,3}$/u.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(order) || order < 1 || order > MAX_ROUTING_ORDER) throw new EsignError('INVALID_REQUEST_PARAMETER', `recipientId "${recipientId}": routingOrder must be a whole number from 1 to ${MAX_ROUTING_ORDER}.`);
  if (order <= manager.routingOrder) throw refuse(recipientId, `routingOrder ${order} is not after the editor's own (${manager.routingOrder}).`);
  return order;
}

/**
 * The manager finished on their page: each changed field of each recipient they speak for is
 * judged and applied, audited one line per recipient ('Recipient Changed'), then the manager is
 * `completed` (no signedDateTime: they sign nothing) and routing goes on in the same change.
 * Anything refused (a recipient out of scope, a field their flags forbid, an invalid address or
 * name, a blank left) throws, so nothing is written. Undefined when the manager had already
 * finished; throws for one whose turn it is not.
 */
export function finishManaging(deps: RoutingDeps, envelope: Envelope, recipientId: string, edits: readonly RecipientEdit[], now: Date, actor: AuditActor): EnvelopeChange | undefined {
  const access = signerAccess(envelope, recipientId);
  if (access.kind === 'finished') return undefined;
  if (access.kind !== 'sign') throw new EsignError('ENVELOPE_INVALID_STATUS', `The recipient cannot act now (${access.kind}).`);
  const manager = access.recipient;
  if (!managesRecipients(manager)) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${recipientId}" does not manage recipients.`);
  const scope = new Map(recipientsManagedBy(envelope, manager).map((m) => [m.recipient.recipientId, m]));
  const seen = new Set<string>();
  const changed = new Map<string, Recipient>();
  const audit: AuditEvent[] = [];
  const by = `${manager.name} (${TYPE_WORDS[manager.type] ?? manager.type})`;
  for (const edit of edits) {
    if (seen.has(edit.recipientId)) throw new EsignError('INVALID_REQUEST_BODY', `recipientId "${edit.recipientId}" is listed twice.`);
    seen.add(edit.recipientId);
    const managed = scope.get(edit.recipientId);
    if (!managed) throw refuse(edit.recipientId, `not a recipient this ${TYPE_WORDS[manager.type] ?? manager.type} may change (only recipients of this envelope after routing order ${manager.routingOrder} that have not been reached).`);
    const current = managed.recipient;
    const name = edit.name === undefined ? undefined : judgeName(edit.recipientId, edit.name);
    const email = edit.email === undefined ? undefined : judgeEmail(edit.recipientId, edit.email);
    const moves = edit.routingOrder !== undefined && edit.routingOrder.trim() !== String(current.routingOrder);
    if (moves && !managed.editable.has('routingOrder')) throw refuse(edit.recipientId, `its routing order may be changed only by an editor, not an ${TYPE_WORDS[manager.type] ?? manager.type}.`);
    const routingOrder = moves ? judgeRoutingOrder(edit.recipientId, edit.routingOrder ?? '', manager) : undefined;
    const changes: string[] = [];
    let next = current;
    if (name !== undefined && name !== current.name) {
      if (!managed.editable.has('name')) throw refuse(edit.recipientId, 'its name may not be changed by an agent (agentCanEditName is not true).');
      changes.push(current.name === '' ? `name set to "${name}"` : `name "${current.name}" → "${name}"`);
      next = { ...next, name };
    }
    if (email !== undefined && email !== current.email) {
      if (!managed.editable.has('email')) throw refuse(edit.recipientId, 'its e-mail may not be changed by an agent (agentCanEditEmail is not true).');
      changes.push(current.email === '' ? `e-mail set to ${email}` : `e-mail ${current.email} → ${email}`);
      next = { ...next, email };
    }
    if (routingOrder !== undefined) {
      changes.push(`routing order ${current.routingOrder} → ${routingOrder}`);
      next = { ...next, routingOrder };
    }
    if (edit.accessCode !== undefined && edit.accessCode !== '') {
      if (!managed.editable.has('accessCode')) throw refuse(edit.recipientId, manager.type === 'editor' ? `a ${current.type} opens no signing page, so an access code would guard nothing.` : `its access code may be set only by an editor, not an ${TYPE_WORDS[manager.type] ?? manager.type}.`);
      if (edit.accessCode.length > MAX_ACCESS_CODE || CONTROL.test(edit.accessCode)) throw new EsignError('INVALID_REQUEST_PARAMETER', `recipientId "${edit.recipientId}": an access code of 1 to ${MAX_ACCESS_CODE} characters is required.`);
      if (edit.accessCodeHash === undefined) throw new TypeError(`no hash for recipientId ${edit.recipientId}'s access code`);
      // The code itself never reaches the audit trail.
      changes.push('access code set');
      next = { ...next, accessCode: { hash: edit.accessCodeHash, failures: 0 } };
    }
    if (changes.length === 0) continue;
    changed.set(next.recipientId, next);
    audit.push({ ...actor, envelopeId: envelope.envelopeId, at: now, action: 'Recipient Changed', envelopeStatus: envelope.status, source: 'web', name: manager.name, email: manager.email, recipientId: manager.recipientId, message: `${by} changed recipient ${current.recipientId}: ${changes.join(', ')}.` });
  }
  // A conditional recipient's placeholder is named by its workflow rule, not by the manager.
  const conditional = new Set(stepsToCome(envelope.workflow).flatMap((step) => (step.conditionalRecipients ?? []).map((rule) => rule.recipientId)));
  const blank = [...scope.values()].map((m) => changed.get(m.recipient.recipientId) ?? m.recipient).filter((r) => (r.name === '' || r.email === '') && !conditional.has(r.recipientId));
  if (blank.length > 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `Give a name and an e-mail address to ${blank.map((r) => `recipient ${r.recipientId}`).join(', ')} before finishing.`);
  assertRecipientTransition(manager.status, 'completed');
  const done: Recipient = { ...manager, status: 'completed', deliveredAt: manager.deliveredAt ?? now, completedAt: now };
  const recipients = envelope.recipients.map((r) => (r.recipientId === manager.recipientId ? done : changed.get(r.recipientId) ?? r));
  // An editor's new routing orders must leave the workflow's steps to come runnable, as a sender's correction must.
  assertWorkflowFits(stepsToCome(envelope.workflow), recipients, `this ${TYPE_WORDS[manager.type] ?? manager.type}'s change`);
  const routed = routeOn(deps, { ...envelope, recipients }, now, 'system');
  const next = { ...routed.envelope, version: envelope.version + 1 };
  const own: AuditEvent = {
    ...actor, envelopeId: envelope.envelopeId, at: now, action: 'Recipients Specified', envelopeStatus: next.status, source: 'web', name: manager.name, email: manager.email, recipientId: manager.recipientId,
    message: `${by} finished: ${changed.size === 0 ? 'no recipient changed' : `${changed.size} recipient${changed.size === 1 ? '' : 's'} changed`}.`,
  };
  return { envelope: next, signingTokens: routed.signingTokens, mails: routed.mails, audit: [...audit, own, ...routed.audit] };
}
