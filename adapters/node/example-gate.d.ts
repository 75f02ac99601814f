// The API of example-gate.js, written by hand (see harness.d.ts).

import type { FailureClass, Feature, Install, Observable, ReviewerChunk, RuleOffer } from './harness';

/** A reviewer's decision, read from its response. */
export type ReviewerDecision = { decision: 'allow' } | { decision: 'deny'; reason?: string };

/**
 * Installs the example gate, which decides by the run's rules (`host.rules`), each where it
 * matters; under `confinement` it narrows through `host.sandboxPolicy` (AR-CONFINE-1..4); under
 * `body_approvals` `allowed-call` it prepends an answerer (`host.on('approval/request')`) that
 * answers `allowed-once` for the approvals a call it allowed raises while it runs in Auto, and a
 * `tools/post-execute` listener that forgets the call (AR-APPROVAL-7); under `asks_again`
 * `json-retry` it asks again only after a reply that is not valid JSON, with a reminder, up to
 * `config.max_json_retries` times (AR-JSON-RETRY-1..3).
 */
export declare const install: Install;
/**
 * The gate's texts, one per template of the spec (a string, or a function of the template's
 * placeholders): a gate that words them in its own way replaces them, and is checked with
 * `autoreview check --messages FILE`.
 */
export declare const MSG: Record<string, string | ((...args: string[]) => string)>;
/**
 * The strict reader (rule `reader` `strict`, chapter 4); throws the review's failure. `toText`
 * renders a provider's message (default `String`, rule `failure_text` `javascript`).
 */
export declare function readStrict(chunks: ReviewerChunk[], toText?: (value: unknown) => string): ReviewerDecision;
/**
 * The tolerant reader (rule `reader` `tolerant`, chapter 10); throws the review's failure.
 * `toText` renders a provider's message (default `textOf`, rule `failure_text` `normalized`).
 */
export declare function readTolerant(chunks: ReviewerChunk[], toText?: (value: unknown) => string): ReviewerDecision;
/** A failure message on one line, without hidden characters, at most 400 characters (AR-RES-NORM-2..4). */
export declare function normalizeMessage(text: string): string;
/** A provider message or thrown value as text (AR-RES-NORM-1). */
export declare function textOf(value: unknown): string;
/** The class of a finish of kind `error`, by its code, then its message (AR-REVIEW-7). */
export declare function classifyErrorFinish(code: string, messageText: string): FailureClass;
/** Every value of every rule the example gate implements (its hello's `rules`). */
export declare const rules: RuleOffer;
/** What the example gate observes. */
export declare const observes: Observable[];
/** The optional features the example gate implements: every one. */
export declare const features: Feature[];
