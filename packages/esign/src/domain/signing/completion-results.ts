import type { CompletionProblem } from './completion-retry.ts';

/**
 * What the envelope reads need of completion: a completed envelope's stamped documents, served
 * instead of the originals, and why a signed envelope is not completed yet (shown to API
 * clients as errorDetails). completion/ implements it; server.ts builds it once and hands it to
 * the routes, so the REST folder never reaches into completion's tables.
 */
export type CompletionResults = {
  signedDocument(envelopeId: string, documentId: string): Promise<Uint8Array | undefined>;
  problem(envelopeId: string): Promise<CompletionProblem | undefined>;
};
