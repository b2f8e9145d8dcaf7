import type { EnvelopeDeps } from '../envelope/ports.ts';
import type { TemplateStore } from './template-ports.ts';

/** What the template use cases run on: their store, and the envelope ports that prepare content. */
export type TemplateDeps = {
  readonly templates: TemplateStore;
  readonly envelopes: EnvelopeDeps;
};
