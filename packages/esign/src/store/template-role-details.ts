import type { TemplateRole } from '../domain/templates/template.ts';

/** The fields of a template role that only some recipient types have (migration 170's details_json). */
type RoleDetails = Pick<TemplateRole, 'host' | 'witnessFor' | 'agentCanEditName' | 'agentCanEditEmail' | 'excludedDocuments'>;

/** The role's type-specific fields as stored: null when it has none (a signer or carbon copy of before). */
export function roleDetailsToJson(r: TemplateRole): string | null {
  const details: RoleDetails = {
    ...(r.host ? { host: { name: r.host.name, email: r.host.email } } : {}),
    ...(r.witnessFor !== undefined ? { witnessFor: r.witnessFor } : {}),
    ...(r.agentCanEditName === true ? { agentCanEditName: true } : {}),
    ...(r.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
    ...(r.excludedDocuments && r.excludedDocuments.length > 0 ? { excludedDocuments: [...r.excludedDocuments] } : {}),
  };
  return Object.keys(details).length > 0 ? JSON.stringify(details) : null;
}

export function roleDetailsFromJson(json: string | null): RoleDetails {
  if (json === null) return {};
  const d = JSON.parse(json) as RoleDetails;
  return {
    ...(d.host ? { host: { name: d.host.name, email: d.host.email } } : {}),
    ...(d.witnessFor !== undefined ? { witnessFor: d.witnessFor } : {}),
    ...(d.agentCanEditName === true ? { agentCanEditName: true } : {}),
    ...(d.agentCanEditEmail === true ? { agentCanEditEmail: true } : {}),
    ...(d.excludedDocuments && d.excludedDocuments.length > 0 ? { excludedDocuments: [...d.excludedDocuments] } : {}),
  };
}
