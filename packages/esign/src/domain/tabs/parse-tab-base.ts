import type { TabBase, TabType } from './tab.ts';
import type { WireField } from './wire-field.ts';

// DocuSign's own bound on tab labels and values is 500 and 4000 characters.
const MAX_LABEL = 500;
/** The largest box: a US Legal page. */
const MAX_SIZE = 1008;

export type BaseOptions = {
  /** SignHere, InitialHere and SignerAttachment say `optional`; other tabs say `required`. */
  requiredFrom: 'optional' | 'required' | 'never';
  /** Whether the model has `locked`. */
  lockable: boolean;
  /** The recipient the tab sits under: a tab naming another recipientId is refused. */
  recipientId?: string;
  /** The field that labels the tab: tabLabel, or a radio group's groupName. */
  labelField?: 'tabLabel' | 'groupName';
};

/** What every tab type reads alike: label, name, tooltip, order, box, required/locked, condition. */
export function parseTabBase(tab: WireField, type: TabType, options: BaseOptions): TabBase {
  const tabLabel = tab.field(options.labelField ?? 'tabLabel').optionalString(MAX_LABEL);
  const name = tab.field('name').optionalString(MAX_LABEL);
  const tooltip = tab.field('tooltip').optionalString(MAX_LABEL);
  const tabOrder = tab.field('tabOrder').optionalInteger(0, 1_000_000);
  const size = (field: 'width' | 'height'): number | undefined => {
    const v = tab.field(field).optionalNumber();
    if (v !== undefined && (v <= 0 || v > MAX_SIZE)) tab.field(field).fail(`must be above 0 and at most ${MAX_SIZE} points.`);
    return v;
  };
  const width = size('width');
  const height = size('height');
  const recipientId = tab.field('recipientId').optionalString(100);
  if (recipientId !== undefined && options.recipientId !== undefined && recipientId !== options.recipientId) {
    tab.field('recipientId').fail(`is "${recipientId}" but the tab is listed under recipientId ${options.recipientId}.`);
  }
  const required = options.requiredFrom === 'optional' ? !tab.field('optional').boolean(false)
    : options.requiredFrom === 'required' ? tab.field('required').boolean(true) : false;
  const locked = options.lockable ? tab.field('locked').boolean(false) : false;
  const parentLabel = tab.field('conditionalParentLabel').optionalString(MAX_LABEL);
  const parentValue = tab.field('conditionalParentValue').optionalString(4000);
  if ((parentLabel === undefined) !== (parentValue === undefined)) tab.fail('conditionalParentLabel and conditionalParentValue go together.');
  return {
    type,
    ...(tabLabel !== undefined ? { tabLabel } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(tooltip !== undefined ? { tooltip } : {}),
    ...(tabOrder !== undefined ? { tabOrder } : {}),
    ...(width !== undefined ? { width } : {}),
    ...(height !== undefined ? { height } : {}),
    required,
    locked,
    ...(parentLabel !== undefined && parentValue !== undefined ? { conditional: { parentLabel, parentValue } } : {}),
  };
}
