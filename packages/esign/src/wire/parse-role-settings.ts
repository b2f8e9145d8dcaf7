import { ENFORCED_SETTINGS, REFUSED_SETTINGS, STORED_SETTINGS, type RoleSettings } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
import { WireReader } from './wire-reader.ts';

const BY_NAME = new Map<string, string>([...Object.keys(ENFORCED_SETTINGS), ...STORED_SETTINGS].map((n) => [n.toLowerCase(), n]));
const REFUSED = new Map(Object.entries(REFUSED_SETTINGS).map(([n, why]) => [n.toLowerCase(), why]));

/**
 * A permission profile's `settings` (DocuSign's AccountRoleSettings) into stored strings. The
 * enforced settings must hold one of their values; the other properties of the model are kept
 * as the text given (numbers and booleans too, as the SDK's examples send them). A property
 * that is neither enforced nor stored, a read-only `…Metadata` twin, or a name the model does not
 * have is refused by name, all of them at once, before anything is written.
 */
export function parseRoleSettings(reader: WireReader): RoleSettings {
  const object = reader.object();
  if (object === undefined) return {};
  const settings: Record<string, string> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (value === null || value === undefined) continue;
    const lower = key.toLowerCase();
    const refused = REFUSED.get(lower);
    if (refused !== undefined) {
      problems.push(`${key} (${refused})`);
      continue;
    }
    if (lower.endsWith('metadata')) {
      problems.push(`${key} (the …Metadata properties describe a setting and are read-only)`);
      continue;
    }
    const name = BY_NAME.get(lower);
    if (name === undefined) {
      problems.push(`${key} (not a setting of AccountRoleSettings)`);
      continue;
    }
    const text = new WireReader(`${reader.path}.${key}`, value).optionalString(100);
    if (text === undefined) continue;
    const allowed = (ENFORCED_SETTINGS as Record<string, readonly string[]>)[name];
    if (allowed !== undefined) {
      const found = allowed.find((a) => a === text.toLowerCase());
      if (found === undefined) throw new EsignError('INVALID_REQUEST_BODY', `${reader.path}.${key} must be one of ${allowed.join(', ')}, got "${text}".`);
      settings[name] = found;
    } else {
      settings[name] = text;
    }
  }
  if (problems.length > 0) throw new EsignError('INVALID_REQUEST_BODY', `AccountRoleSettings: not supported: ${problems.join('; ')}.`);
  return settings;
}
