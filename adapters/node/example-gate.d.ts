// The API of example-gate.js, written by hand (see harness.d.ts).

import type { FailureClass, Feature, Install, Observable, Profile, ReviewerChunk } from './harness';

/** A reviewer's decision, read from its response. */
export type ReviewerDecision = { decision: 'allow' } | { decision: 'deny'; reason?: string };

/** Installs the example gate: both profiles, chosen by `host.profile`. */
export declare const install: Install;
/**
 * The gate's texts, one per template of the spec (a string, or a function of the template's
 * placeholders): a gate that words them in its own way replaces them, and is checked with
 * `autoreview check --messages FILE`.
 */
export declare const MSG: Record<string, string | ((...args: string[]) => string)>;
/** The baseline's strict reader (chapter 4); throws the review's failure. */
export declare function readStrict(chunks: ReviewerChunk[]): ReviewerDecision;
/** The resilient profile's tolerant reader (chapter 10); throws the review's failure. */
export declare function readTolerant(chunks: ReviewerChunk[]): ReviewerDecision;
/** A failure message on one line, without hidden characters, at most 400 characters (AR-RES-NORM-2..4). */
export declare function normalizeMessage(text: string): string;
/** A provider message or thrown value as text (AR-RES-NORM-1). */
export declare function textOf(value: unknown): string;
/** The class of a finish of kind `error`, by its code, then its message (AR-REVIEW-7). */
export declare function classifyErrorFinish(code: string, messageText: string): FailureClass;
/** The profiles the example gate implements. */
export declare const profiles: Profile[];
/** What the example gate observes. */
export declare const observes: Observable[];
/** The optional features the example gate implements: every one. */
export declare const features: Feature[];
