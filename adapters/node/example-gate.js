'use strict';
/**
 * example-gate.js — a small, readable Auto review gate implementing the `baseline` profile of
 * spec/auto-review.md (chapters 0-9). It is written against the `env` of harness.js; a real gate
 * would get the same things from its host (tool registry, LLM client, approval service, ...).
 *
 * Shape: `gate(exec, next, env) => Promise<decision>`, a `tools/pre-execute` listener placed first
 * in the chain. The tool runtime (materialization, approval) lives in harness.js.
 */

// ---- Texts (spec chapter 9) -----------------------------------------------------------------

const MSG = {
  finalDeny: (name) => `Auto review rejected tool "${name}"; its body was not executed`,
  askReview: (name) => `Auto review denied tool "${name}"`,
  askReviewReason: (name, reason) => `Auto review denied tool "${name}": ${reason}`,
  displayEn: 'Auto review denied this call.',
  displayEnReason: (reason) => `Auto review denied this call: ${reason}`,
  displayZh: 'Auto review 拒绝了此调用。',
  displayZhReason: (reason) => `Auto review 拒绝了此调用：${reason}`,
  failed: (name, error) => `Auto review of tool "${name}" failed; its body was not executed: ${error}`,
  // AR-MSG-2: reviewer failure messages.
  endedDetail: (kind, code, message) => `auto-review: reviewer ended with ${kind} ${code}: ${message}`,
  ended: (kind) => `auto-review: reviewer ended with ${kind}`,
  afterFinish: 'auto-review: reviewer emitted data after its terminal finish',
  blocks: 'auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block',
  notObject: 'auto-review: reviewer output must be one JSON object',
  repeated: 'auto-review: reviewer output repeats a JSON member',
  protocol: 'auto-review: reviewer output does not match the risk/decision protocol',
  schemaNative: 'auto-review: the pending native tool schema is missing or ambiguous',
  schemaPtc: 'auto-review: the pending PTC binding schema is missing or inconsistent',
  route: 'auto-review: no complete request-header route is available',
  // AR-PARSE-4: implementation-defined in its entirety.
  invalidJson: (detail) => `auto-review: reviewer output is not valid JSON (${detail})`,
};

const INFO_DENIED = { name: 'AutoReviewDeniedError', code: 'AUTO_REVIEW_DENIED' };

// Not observable (AR-REVIEW-3); a real gate sends its full review policy and the five partitions.
const REVIEW_POLICY =
  'REVIEW_POLICY\nYou are the final authorization reviewer for exactly one pending tool call. ' +
  'Return exactly one JSON object and no other text: one of the six risk/decision shapes.';

// ---- Failures --------------------------------------------------------------------------------

/** A review that obtained no decision: a failure class (AR-REVIEW-6) and a message (AR-REVIEW-5). */
class ReviewFailure {
  constructor(failureClass, message, implementationDefined = false) {
    this.class = failureClass;
    this.message = message;
    this.implementationDefined = implementationDefined;
  }
}

/** AR-REVIEW-7: classify a finish of kind `error` by its code, then its message. */
function classifyErrorFinish(code, messageText) {
  if (['TIMEOUT', 'DEADLINE_EXCEEDED'].includes(code)) return 'timeout';
  if (['QUOTA_EXCEEDED', 'RATE_LIMITED', 'INSUFFICIENT_QUOTA', 'HTTP_402', 'HTTP_429'].includes(code)) return 'quota';
  if (['TRANSPORT', 'CONNECTION', 'NETWORK'].includes(code)) return 'transport';
  const m = messageText.toLowerCase();
  const any = (patterns) => patterns.some((p) => m.includes(p));
  if (any(['http 402', 'http 429', 'status 402', 'status 429', 'quota', 'rate limit'])) return 'quota';
  if (any(['transport error', 'connection error', 'econnreset', 'econnrefused', 'socket hang up', 'network error'])) return 'transport';
  if (any(['timed out', 'timeout'])) return 'timeout';
  return 'provider';
}

// ---- The strict reader (chapter 4) -----------------------------------------------------------

/** The member names at the top level of a JSON object text, decoded, in order (for AR-PARSE-6). */
function topLevelMemberNames(text) {
  const names = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1) {
        let k = j + 1;
        while (k < text.length && /[ \t\n\r]/.test(text[k])) k++;
        if (text[k] === ':') names.push(JSON.parse(text.slice(i, j + 1)));
      }
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return names;
}

/** AR-PARSE-1..7: read a reviewer response (its chunks) into a decision, or throw a ReviewFailure. */
function readStrict(chunks) {
  const blocks = [];
  let finish = null;
  let dataAfterFinish = false;
  for (const chunk of chunks) {
    if (finish) {
      dataAfterFinish = true;
      break;
    }
    if (chunk.type === 'finish') finish = chunk.reason;
    else if (chunk.type === 'block') blocks.push(chunk.block);
  }
  if (!finish) throw new ReviewFailure('protocol', 'auto-review: reviewer emitted no terminal finish');

  // AR-PARSE-1 (messages: AR-REVIEW-5; classes: AR-REVIEW-6/7)
  if (finish.kind === 'error' || finish.kind === 'aborted') {
    const { code, message } = finish.failure;
    const text = String(message); // JavaScript's String(value): an object becomes [object Object]
    const failureClass = finish.kind === 'aborted' ? 'aborted' : classifyErrorFinish(code, text);
    throw new ReviewFailure(failureClass, MSG.endedDetail(finish.kind, code, text));
  }
  if (finish.kind !== 'stop') throw new ReviewFailure('provider', MSG.ended(finish.kind));
  // AR-PARSE-2
  if (dataAfterFinish) throw new ReviewFailure('protocol', MSG.afterFinish);
  // AR-PARSE-3
  const last = blocks[blocks.length - 1];
  if (!last || last.type !== 'text' || blocks.slice(0, -1).some((b) => b.type !== 'reasoning')) {
    throw new ReviewFailure('protocol', MSG.blocks);
  }
  // AR-PARSE-4: exactly one JSON value; JSON.parse allows only JSON whitespace around it.
  let value;
  try {
    value = JSON.parse(last.text);
  } catch (error) {
    throw new ReviewFailure('protocol', MSG.invalidJson(error.message), true);
  }
  // AR-PARSE-5
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ReviewFailure('protocol', MSG.notObject);
  // AR-PARSE-6
  const names = topLevelMemberNames(last.text);
  if (new Set(names).size !== names.length) throw new ReviewFailure('protocol', MSG.repeated);
  // AR-PARSE-7: one of six shapes.
  const keys = Object.keys(value);
  const exactly = (...members) => keys.length === members.length && members.every((m) => keys.includes(m));
  const { risk, decision, reason } = value;
  if (exactly('risk', 'decision')) {
    if (decision === 'allow' && (risk === 'low' || risk === 'medium')) return { decision: 'allow' };
    if (decision === 'deny' && (risk === 'medium' || risk === 'high')) return { decision: 'deny' };
  }
  if (exactly('risk', 'decision', 'reason') && decision === 'deny' && (risk === 'medium' || risk === 'high') && typeof reason === 'string') {
    return { decision: 'deny', reason };
  }
  throw new ReviewFailure('protocol', MSG.protocol);
}

// ---- The review (chapter 3) ------------------------------------------------------------------

/** One review: resolves to { decision } or { failure }; never throws. At most one request. */
async function review(exec, agent, env, signal) {
  try {
    // AR-REVIEW-9: a complete route, checked before the schema as shipped.
    const { provider, model } = agent.session.route;
    if (!provider || !model) throw new ReviewFailure('route', MSG.route);
    // AR-REVIEW-2: the schema from the request header (ptc-inner: the binding), exactly one.
    if (env.tools.headerSchemas(exec).length !== 1) {
      throw new ReviewFailure('schema', exec.kind === 'ptc-inner' ? MSG.schemaPtc : MSG.schemaNative);
    }
    // AR-REVIEW-3: the session's own route, temperature 0, no tools.
    let chunks;
    try {
      chunks = await env.llm.request({
        provider,
        model,
        system: REVIEW_POLICY,
        messages: [{ role: 'user', content: [{ type: 'text', text: `PENDING_ACTION\n${JSON.stringify({ name: exec.name })}` }] }],
        temperature: 0,
        signal,
      });
    } catch (thrown) {
      // AR-REVIEW-5 item 3 / AR-REVIEW-7: a thrown value is `internal`, converted by String(value).
      throw new ReviewFailure('internal', String(thrown));
    }
    return { decision: readStrict(chunks) };
  } catch (error) {
    const failure = error instanceof ReviewFailure ? error : new ReviewFailure('internal', String(error && error.message));
    env.observe.reviewFailure(failure);
    return { failure };
  }
}

// ---- The gate (chapters 1, 2, 5) -------------------------------------------------------------

async function gate(exec, next, env) {
  const agent = exec.agent;
  // AR-SCOPE-1..3: pass-through calls; the transport is the tool run_code with no parent program.
  if (agent === undefined) return next();
  if (exec.parent === undefined && exec.name === 'run_code') return next();
  if (env.permissionPresets.current(agent.session) !== 'auto') return next();

  // AR-ADMIT-1/2: refused admission.
  if (env.lifecycle.closing || env.lifecycle.signal.aborted) return { kind: 'cancel' };

  const signal = AbortSignal.any([exec.signal, env.lifecycle.signal]);
  const outcome = await review(exec, agent, env, signal);

  // AR-CANCEL-3: a lifecycle abort during the review cancels, whatever the review said.
  if (env.lifecycle.signal.aborted) return { kind: 'cancel' };

  // AR-DECIDE-1: a failure denies at once, without downstream, whatever the policy.
  if (outcome.failure) return { kind: 'deny', reason: MSG.failed(exec.name, outcome.failure.message) };

  const { decision, reason } = outcome.decision;
  const hasReason = reason !== undefined;

  // AR-DECIDE-2: a denial under the recorded override `never` is final.
  if (decision === 'deny' && env.approval.overrideOf(agent.session) === 'never') {
    return { kind: 'deny', reason: MSG.finalDeny(exec.name), info: hasReason ? { ...INFO_DENIED, reason } : { ...INFO_DENIED } };
  }

  // AR-DECIDE-3: consult downstream exactly once.
  const downstream = await next();
  // AR-CANCEL-4
  if (env.lifecycle.signal.aborted) return { kind: 'cancel' };

  // AR-DECIDE-4 / first case of AR-DECIDE-5: downstream's decision unchanged.
  if (decision === 'allow' || downstream.kind !== 'allow') return downstream;

  // AR-DECIDE-5: ask the human, with the reviewer's reason when it gave one.
  return {
    kind: 'ask',
    reason: hasReason ? MSG.askReviewReason(exec.name, reason) : MSG.askReview(exec.name),
    displayReason: {
      en: hasReason ? MSG.displayEnReason(reason) : MSG.displayEn,
      zh: hasReason ? MSG.displayZhReason(reason) : MSG.displayZh,
    },
  };
}

module.exports = { gate, readStrict, classifyErrorFinish, profiles: ['baseline'] };
