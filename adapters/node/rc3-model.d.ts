// The API of rc3-model.js, written by hand (see harness.d.ts).

import type { Host, Integration, ReviewerChunk } from './harness';

/** A decision of the shipped six-shape protocol. */
export type ShippedDecision =
  | { risk: 'low' | 'medium'; decision: 'allow' }
  | { risk: 'medium' | 'high'; decision: 'deny'; reason?: string };

/** Installs the model of the shipped 0.2.1-rc.3 integration: listener, Auto preset, disposer. */
export declare function apply(ctx: Host): Integration;
/** The shipped stream reader; throws the review's failure. */
export declare function readDecision(chunks: ReviewerChunk[]): ShippedDecision;
/** The shipped parser: raw `JSON.parse`, then the six shapes; throws the review's failure. */
export declare function parseDecision(text: string): ShippedDecision;
/** The shipped count of top-level members. */
export declare function topLevelMemberCount(text: string): number;
