'use strict';
/**
 * example-gate.js — a small, readable Auto review gate implementing every rule value of
 * spec/auto-review.md's profiles: the shipped gate's (chapters 0-9) and those of chapters 10 and 11
 * (a tolerant reader, bounded repairs and retries under one deadline, readable failure messages,
 * failures asked about, a recovery hint), and the 0.2.x gate's asking again after invalid JSON
 * (AR-JSON-RETRY-1..3). It never asks which profile a run uses: wherever profiles
 * differ it asks the run's rules (`host.rules`, as the runner's hello carries them; `RULES` lists the
 * values it implements), each where it matters, so a profile that recombines them is checked too.
 *
 * It is an integration, as a host installs one: `install(host, restored)` registers the Auto
 * preset and returns `{ listener, dispose, consecutiveFailures }`. The listener
 * `(exec, next, env) => Promise<decision>` is placed first in the `tools/pre-execute` chain; the
 * disposer stops admitting, moves the listed Auto sessions to Full access, aborts the lifecycle,
 * waits for the admitted calls and unregisters Auto (AR-DISPOSE-1, AR-DISPOSE-4). Under the rule
 * `body_approvals` `allowed-call` it also prepends an answerer to the approval service and a
 * `tools/post-execute` listener (`host.on`), so that a call it allowed answers the approvals its
 * body raises while it runs in Auto (AR-APPROVAL-7). What it keeps — whether it admits calls, which
 * sessions its disposal moved, each session's failures in a row, the allowed calls still running —
 * lives in the installation, so a session's calls carry it from one to the next and disposal drops
 * it with the integration (AR-SESSION-2, AR-RES-HINT-4). It is written against the `host` and `env`
 * of harness.js; a real gate gets the same things from its host (tool registry, LLM client,
 * approval service, presets, session store, ...). The tool runtime (materialization, approval)
 * lives in harness.js.
 */

// ---- Texts (spec chapter 9 and AR-RES-MSG-1) -------------------------------------------------

const MSG = {
  finalDeny: (name) => `Auto review rejected tool "${name}"; its body was not executed`,
  askReview: (name) => `Auto review denied tool "${name}"`,
  askReviewReason: (name, reason) => `Auto review denied tool "${name}": ${reason}`,
  displayEn: 'Auto review denied this call.',
  displayEnReason: (reason) => `Auto review denied this call: ${reason}`,
  displayZh: 'Auto review 拒绝了此调用。',
  displayZhReason: (reason) => `Auto review 拒绝了此调用：${reason}`,
  failed: (name, error) => `Auto review of tool "${name}" failed; its body was not executed: ${error}`,
  // Where failures ask (rules.failures): a failure asked about (AR-RES-FAIL-2), a combined ask
  // (AR-RES-ASK-1), the hint.
  askFailed: (name, error) => `Auto review of tool "${name}" failed: ${error}`,
  displayFailedEn: (error) => `Auto review could not complete for this call: ${error}`,
  displayFailedZh: (error) => `Auto review 未能完成对此调用的审查：${error}`,
  askCombined: (review, reason) => `${review}; a later listener also asks: ${reason}`,
  displayCombinedEn: (review, reason) => `${review}\nA later check also asks: ${reason}`,
  displayCombinedZh: (review, reason) => `${review}\n后续检查也请求确认：${reason}`,
  hint: (count, route) =>
    `Auto review has failed ${count} times in a row on route ${route}; configure a reviewer model ` +
    '(reviewer_route) or switch the permission mode, for example to workspace-write.',
  hintZh: (count, route) =>
    `Auto review 已在路由 ${route} 上连续失败 ${count} 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。`,
  repairInstruction:
    'Your previous reply could not be read as a decision. Review the same pending action again and reply ' +
    'with only the JSON object: exactly one of the six shapes in REVIEW_POLICY, with no Markdown, prose or tool call.',
  // Under the rule `asks_again` `json-retry` (AR-JSON-RETRY-1, -3): the reminder of a request after
  // invalid JSON, and the failure message of invalid JSON.
  jsonRetryReminder:
    'Your previous response was not valid JSON. Review the same pending action under REVIEW_POLICY. Return exactly ' +
    'one JSON object matching its risk/decision rules. Do not include analysis, Markdown, or surrounding prose.',
  notJson: 'auto-review: reviewer output must be valid JSON',

  // Reviewer failure messages (AR-MSG-2, AR-RES-MSG-1).
  endedDetail: (kind, code, message) => `auto-review: reviewer ended with ${kind} ${code}: ${message}`,
  ended: (kind) => `auto-review: reviewer ended with ${kind}`,
  noFinish: 'auto-review: reviewer emitted no terminal finish',
  afterFinish: 'auto-review: reviewer emitted data after its terminal finish',
  blocks: 'auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block',
  notObject: 'auto-review: reviewer output must be one JSON object',
  repeated: 'auto-review: reviewer output repeats a JSON member',
  protocol: 'auto-review: reviewer output does not match the risk/decision protocol',
  schemaNative: 'auto-review: the pending native tool schema is missing or ambiguous',
  schemaPtc: 'auto-review: the pending PTC binding schema is missing or inconsistent',
  noRoute: 'auto-review: no complete request-header route is available',
  noCwd: 'auto-review: the session has no working directory',
  // AR-PARSE-4: implementation-defined in its entirety.
  invalidJson: (detail) => `auto-review: reviewer output is not valid JSON (${detail})`,
  toolCall: 'auto-review: reviewer emitted a tool call instead of a decision',
  tooLarge: 'auto-review: reviewer output exceeds 1048576 bytes',
  noDecision: 'auto-review: reviewer output holds no decision object',
  ambiguous: 'auto-review: reviewer output is ambiguous: it holds differing decision objects',
  malformed: 'auto-review: reviewer output holds a malformed decision object',
  conflict: 'auto-review: reviewer output holds an allow beside other braces',
  allowProse: 'auto-review: reviewer output holds an allow beside prose',
  deadline: (ms) => `auto-review: the review did not finish within ${ms} ms`,

  // The integration's lifecycle (AR-MSG-5; the abort reason is not observable).
  closing: 'auto-review: integration is closing',
  disposed: 'auto-review integration disposed',
};

/**
 * The values of each rule (spec/protocol.md, "Rules") this gate implements: all of them, each
 * honoured on its own wherever it applies, so the gate can be checked against any profile that
 * recombines them.
 */
const RULES = Object.freeze(
  Object.fromEntries(
    Object.entries({
      reader: ['strict', 'tolerant'],
      failure_text: ['javascript', 'normalized'],
      asks_again: ['never', 'repair-and-retry', 'json-retry'],
      deadline: [false, true],
      counts_failures: [false, true],
      session_id_in_requests: [false, true],
      route: ['session', 'configured-first'],
      schema: ['header', 'registry-first'],
      working_directory: ['required', 'deployment-fallback'],
      failures: ['deny', 'ask'],
      preset_read: ['at-start', 'current'],
      confinement: [false, true],
      body_approvals: ['human', 'allowed-call'],
    }).map(([rule, values]) => [rule, Object.freeze(values)]),
  ),
);

const INFO_DENIED = { name: 'AutoReviewDeniedError', code: 'AUTO_REVIEW_DENIED' };
const INFO_FAILED = { name: 'AutoReviewFailedError', code: 'AUTO_REVIEW_FAILED' };

// Not observable (AR-REVIEW-3); a real gate sends its full review policy and the five partitions.
const REVIEW_POLICY =
  'REVIEW_POLICY\nYou are the final authorization reviewer for exactly one pending tool call. ' +
  'Return exactly one JSON object and no other text: one of the six risk/decision shapes.';

const MAX_TEXT_BYTES = 1048576; // AR-TOL-3
const MAX_MESSAGE_CHARS = 400; // AR-RES-NORM-4

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

/**
 * AR-RES-NORM-1: a provider message or thrown value as text. A string stays itself, an object
 * with a string `message` gives that (an Error included), anything else its compact JSON.
 */
function textOf(value) {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object' && typeof value.message === 'string') return value.message;
  return JSON.stringify(value);
}

// Whitespace in a failure message's sense (AR-RES-NORM-2): JavaScript's \s also takes U+FEFF,
// which a message escapes as a hidden character (AR-RES-NORM-3) instead.
const WHITESPACE_RUN = /[^\S\uFEFF]+/;
// AR-TOL-10: a fence's info string that is a plain language name, with whitespace (as trim()
// removes it) around it.
const PLAIN_INFO = /^\s*[A-Za-z0-9_+.-]*\s*$/;

// C0 and C1 controls, DEL, bidirectional marks, embeddings, overrides and isolates, zero-width
// characters and the byte-order mark (AR-RES-NORM-3).
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** AR-RES-NORM-2..4: one line, nothing that controls the terminal, at most 400 characters. */
function normalizeMessage(text) {
  const oneLine = text
    .split(WHITESPACE_RUN)
    .filter((word) => word !== '')
    .join(' ');
  const visible = oneLine.replace(HIDDEN, (c) => `\\u{${c.codePointAt(0).toString(16).padStart(4, '0')}}`);
  const chars = [...visible]; // Unicode scalar values, not UTF-16 units
  return chars.length > MAX_MESSAGE_CHARS ? `${chars.slice(0, MAX_MESSAGE_CHARS - 1).join('')}…` : visible;
}

// ---- The response ----------------------------------------------------------------------------

/** Split a reviewer response (its chunks) into content blocks, the terminal finish and what follows. */
function splitResponse(chunks) {
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
  // AR-PARSE-1 / AR-TOL-1: a stream cut before its terminal finish is a broken stream (AR-REVIEW-7).
  if (!finish) throw new ReviewFailure('transport', MSG.noFinish);
  return { blocks, finish, dataAfterFinish };
}

/**
 * AR-PARSE-1 / AR-TOL-1: a response that did not stop normally is a failure. `toText` turns the
 * provider's message into text, as the rule `failure_text` says: `String` for `javascript`
 * (AR-REVIEW-5), `textOf` for `normalized` (AR-RES-NORM-1); classes follow AR-REVIEW-6/7.
 */
function checkFinish(finish, toText) {
  if (finish.kind === 'error' || finish.kind === 'aborted') {
    const { code, message } = finish.failure;
    const text = toText(message);
    const failureClass = finish.kind === 'aborted' ? 'aborted' : classifyErrorFinish(code, text);
    throw new ReviewFailure(failureClass, MSG.endedDetail(finish.kind, code, text));
  }
  if (finish.kind !== 'stop') throw new ReviewFailure('provider', MSG.ended(finish.kind));
}

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

/**
 * AR-PARSE-6/7: a parsed object (and its source text, for repeated names) as one of the six
 * legal shapes, or a protocol failure.
 */
function decisionOf(value, source) {
  const names = topLevelMemberNames(source);
  if (new Set(names).size !== names.length) throw new ReviewFailure('protocol', MSG.repeated);
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

// ---- The strict reader (chapter 4, baseline) -------------------------------------------------

/**
 * AR-PARSE-1..7: read a reviewer response (its chunks) into a decision, or throw a ReviewFailure.
 * `toText` renders a provider's message (default `String`, so an object becomes [object Object]).
 */
function readStrict(chunks, toText = String) {
  const { blocks, finish, dataAfterFinish } = splitResponse(chunks);
  checkFinish(finish, toText); // AR-PARSE-1
  if (dataAfterFinish) throw new ReviewFailure('protocol', MSG.afterFinish); // AR-PARSE-2
  // AR-PARSE-3
  const last = blocks[blocks.length - 1];
  if (!last || last.type !== 'text' || blocks.slice(0, -1).some((b) => b.type !== 'reasoning')) {
    throw new ReviewFailure('protocol', MSG.blocks);
  }
  // AR-PARSE-4: exactly one JSON value; JSON.parse allows only JSON whitespace around it. The
  // failure says it is one of invalid JSON, after which `json-retry` asks again (AR-JSON-RETRY-1).
  let value;
  try {
    value = JSON.parse(last.text);
  } catch (error) {
    const failure = new ReviewFailure('protocol', MSG.invalidJson(error.message), true);
    failure.notJson = true;
    throw failure;
  }
  // AR-PARSE-5
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ReviewFailure('protocol', MSG.notObject);
  return decisionOf(value, last.text); // AR-PARSE-6/7
}

// ---- The tolerant reader (chapter 10, resilient) ---------------------------------------------

/**
 * AR-TOL-4: one outer fence (``` or ~~~) around the whole text is removed with the rest of its
 * opening line (the info string), unless that line holds a `{`. Returns the text inside, where
 * it starts in `text`, and the info string when a fence was removed.
 */
function unwrapFence(text) {
  const isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\f' || c === '\r'; // ASCII only
  let from = 0;
  let to = text.length;
  while (from < to && isSpace(text[from])) from++;
  while (to > from && isSpace(text[to - 1])) to--;
  const trimmed = text.slice(from, to);
  for (const marker of ['```', '~~~']) {
    if (trimmed.length < 2 * marker.length || !trimmed.startsWith(marker) || !trimmed.endsWith(marker)) continue;
    const between = trimmed.slice(marker.length, -marker.length);
    const newline = between.indexOf('\n');
    const info = newline < 0 ? '' : between.slice(0, newline);
    if (info.includes('{')) break;
    const bodyStart = newline < 0 ? 0 : newline + 1;
    return { inner: between.slice(bodyStart), start: from + marker.length + bodyStart, info };
  }
  return { inner: text, start: 0, info: null };
}

/**
 * AR-TOL-5: the balanced top-level `{...}` spans of `text`, as [start, end) pairs, in one pass.
 * Outside a span quotes are prose; inside one, strings and their escapes are tracked so that
 * braces in strings do not count. A span still open at the end is not a span.
 */
function topLevelSpans(text) {
  const spans = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '{') {
      if (depth++ === 0) start = i;
    } else if (depth > 0) {
      if (c === '"') inString = true;
      else if (c === '}' && --depth === 0) spans.push([start, i + 1]);
    }
  }
  return spans;
}

/** The parts of `text` outside the given spans (sorted, disjoint [start, end) pairs). */
function outside(text, spans) {
  const parts = [];
  let from = 0;
  for (const [start, end] of spans) {
    parts.push(text.slice(from, start));
    from = end;
  }
  parts.push(text.slice(from));
  return parts;
}

/** AR-TOL-4..10: find the one decision object in a reviewer's text. */
function readDecisionText(text) {
  const whole = text.startsWith('\uFEFF') ? text.slice(1) : text; // one byte-order mark
  const { inner, start: offset } = unwrapFence(whole);

  let candidate = null;
  const taken = []; // candidate spans, in `inner`
  for (const [start, end] of topLevelSpans(inner)) {
    const source = inner.slice(start, end);
    let value;
    try {
      value = JSON.parse(source);
    } catch {
      if (source.includes('decision')) throw new ReviewFailure('protocol', MSG.malformed); // AR-TOL-7
      continue;
    }
    if (!Object.hasOwn(value, 'decision')) continue; // AR-TOL-5: an object without a decision is prose
    if (candidate !== null && candidate.source !== source) throw new ReviewFailure('protocol', MSG.ambiguous); // AR-TOL-6
    candidate ??= { source, value };
    taken.push([start, end]);
  }
  if (candidate === null) throw new ReviewFailure('protocol', MSG.noDecision);

  const decision = decisionOf(candidate.value, candidate.source); // AR-TOL-8
  if (decision.decision === 'allow') {
    // AR-TOL-9: no brace anywhere outside the candidates, fence lines included.
    const inWhole = taken.map(([start, end]) => [offset + start, offset + end]);
    if (outside(whole, inWhole).some((part) => /[{}]/.test(part))) throw new ReviewFailure('protocol', MSG.conflict);
    // AR-TOL-10: an allow stands alone, so words around it cannot hide a refusal.
    if (!standsAlone(text, candidate.source)) throw new ReviewFailure('protocol', MSG.allowProse);
  }
  return decision;
}

/** AR-TOL-10: the trimmed text is the allow object, or one plain fence around it and whitespace. */
function standsAlone(text, object) {
  const t = text.trim();
  if (t === object) return true;
  const fence = /^(```|~~~)([^\n]*)\n([\s\S]*)(```|~~~)$/.exec(t);
  return fence !== null && fence[1] === fence[4] && PLAIN_INFO.test(fence[2]) && fence[3].trim() === object;
}

/**
 * AR-TOL-1..3, then the text: read a reviewer response tolerantly, or throw a ReviewFailure.
 * `toText` renders a provider's message (default `textOf`, AR-RES-NORM-1).
 */
function readTolerant(chunks, toText = textOf) {
  const { blocks, finish } = splitResponse(chunks); // data after the finish is not read (AR-TOL-2)
  checkFinish(finish, toText);
  if (blocks.some((b) => b.type === 'tool-call')) throw new ReviewFailure('protocol', MSG.toolCall);
  const text = blocks
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
  if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) throw new ReviewFailure('protocol', MSG.tooLarge);
  return readDecisionText(text);
}

// ---- The review (chapter 3; AR-RES-SCHEMA/ROUTE/RETRY/NORM/HINT) -----------------------------

/**
 * One reviewer request (AR-REVIEW-3, AR-REVIEW-12): at the review's temperature (none at all for
 * `provider-default`), no tools, the review policy (with `reminder` appended after a blank line:
 * the repair instruction for a repair, AR-RES-RETRY-2, or the reminder after invalid JSON,
 * AR-JSON-RETRY-1), and the session's id when the request is attributed to it (AR-RES-REQUEST-1).
 */
function reviewRequest(exec, route, signal, { cwd, action, sessionId, temperature, reminder = null }) {
  const text = ['ENVIRONMENT', JSON.stringify({ cwd }), 'PENDING_ACTION', JSON.stringify({ ...action, mode: exec.kind })].join('\n\n');
  return {
    provider: route.provider,
    model: route.model,
    system: reminder === null ? REVIEW_POLICY : `${REVIEW_POLICY}\n\n${reminder}`,
    messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    ...(temperature === 'provider-default' ? {} : { temperature }),
    ...(sessionId === undefined ? {} : { sessionId }),
    signal,
  };
}

/** AR-REVIEW-11: the pending call as the session log holds it, or a `session` failure saying why not. */
function pendingAction(exec, session) {
  try {
    return session.log.pendingAction(exec);
  } catch (error) {
    throw new ReviewFailure('session', textOf(error));
  }
}

const schemaFailure = (exec) => new ReviewFailure('schema', exec.kind === 'ptc-inner' ? MSG.schemaPtc : MSG.schemaNative);

/**
 * How a failure's message renders the provider's values and thrown values (the rule
 * `failure_text`): as JavaScript's String() does (AR-REVIEW-5), or readable (AR-RES-NORM-1).
 */
const textRule = (rules) => (rules.failure_text === 'normalized' ? textOf : String);

/**
 * The reviewer's requests of one review, each as `request` says, until one obtains a decision
 * (AR-REVIEW-1, AR-RES-RETRY-1..5). Resolves to the decision or throws a ReviewFailure, marked
 * `bySignal` when the caller's or the lifecycle's signal ended the request (AR-CANCEL-6). The rules:
 *   asks_again  `never`: one request; `repair-and-retry`: repairs after protocol failures and
 *               retries after transport failures, within config.repair_attempts and
 *               config.transport_retries; `json-retry`: another request after invalid JSON
 *               only, with a reminder, within config.max_json_retries (AR-JSON-RETRY-1..3);
 *   deadline    one deadline for all requests, config.review_timeout_ms after the first starts;
 *   reader      the strict reader (chapter 4) or the tolerant one (chapter 10);
 *   failure_text  how a provider's message and a thrown value become text.
 */
async function askReviewer(exec, route, env, signal, request, rules) {
  const { config, clock } = env;
  const toText = textRule(rules);
  const read = rules.reader === 'tolerant' ? readTolerant : readStrict;
  const again = rules.asks_again === 'repair-and-retry';
  let repairs = again ? config.repair_attempts : 0;
  let retries = again ? config.transport_retries : 0;
  // AR-JSON-RETRY-1: config.max_json_retries where the rules read it, else its default, 1.
  const jsonRetry = rules.asks_again === 'json-retry';
  let jsonRetries = jsonRetry ? (rules.config.includes('max_json_retries') ? config.max_json_retries : 1) : 0;
  let reminder = null; // what the next request appends to the review policy
  // AR-REVIEW-3, AR-RES-CONFIG-1: the configured temperature where the rules read it, else 0.
  const temperature = rules.config.includes('temperature') ? (config.temperature ?? 0) : 0;

  // AR-RES-RETRY-4: one deadline for all requests, from the first request's start. A request
  // still running then is abandoned (its signal aborts) and no other starts.
  let expired = false;
  let timer = null;
  let expiry = null;
  let requestSignal = signal;
  if (rules.deadline) {
    const deadline = new AbortController();
    expiry = new Promise((resolve) => {
      timer = clock.setTimeout(() => {
        expired = true;
        resolve();
        deadline.abort(new Error('the review deadline passed'));
      }, config.review_timeout_ms);
    });
    requestSignal = AbortSignal.any([signal, deadline.signal]);
  }

  try {
    for (;;) {
      let failure;
      try {
        const sent = env.llm.request(reviewRequest(exec, route, requestSignal, { ...request, temperature, reminder })).catch((thrown) => {
          // AR-REVIEW-5 item 3 / AR-REVIEW-7: a thrown value is always `internal`.
          throw new ReviewFailure('internal', toText(thrown));
        });
        const chunks = expiry === null ? await sent : await Promise.race([sent, expiry]);
        if (expired) throw new ReviewFailure('timeout', MSG.deadline(config.review_timeout_ms));
        return read(chunks, toText);
      } catch (error) {
        if (!(error instanceof ReviewFailure)) throw error;
        failure = error;
      }
      // AR-JSON-RETRY-3: under `json-retry` invalid JSON has a message of its own, in full.
      if (jsonRetry && failure.notJson) {
        failure.message = MSG.notJson;
        failure.implementationDefined = false;
      }
      // AR-CANCEL-6: a request our own signal ended is the gate's doing, not the reviewer's, and
      // its message implementation-defined (AR-MSG-3): the runtime's report of the cancellation
      // and the provider's own aborted finish cannot be told apart.
      failure.bySignal = signal.aborted && failure.class === 'aborted';
      if (failure.bySignal) failure.implementationDefined = true;
      if (expired || signal.aborted) throw failure; // AR-RES-RETRY-4/5: final
      if (failure.class === 'protocol' && repairs > 0) {
        repairs--;
        reminder = MSG.repairInstruction;
      } else if (failure.notJson && jsonRetries > 0) {
        // AR-JSON-RETRY-1/2: only invalid JSON asks again, the same request with the reminder.
        jsonRetries--;
        reminder = MSG.jsonRetryReminder;
      } else if (failure.class === 'transport' && retries > 0) {
        // A transport retry repeats the request unchanged: a retried repair is still a repair
        // (AR-RES-RETRY-2).
        retries--;
      } else {
        throw failure;
      }
    }
  } finally {
    if (timer !== null) clock.clearTimeout(timer);
  }
}

/**
 * One review (chapter 3). Resolves to { decision, hint: null } or { failure, hint }; never throws.
 * The rules:
 *   route              `session`: the session's route (AR-REVIEW-3); `configured-first`:
 *                      config.reviewer_route when set (AR-RES-ROUTE-1);
 *   working_directory  `required`: none in the header fails the review (AR-REVIEW-10);
 *                      `deployment-fallback`: the deployment's stands in (AR-RES-CWD-1);
 *   schema             `header`: the request header's (AR-REVIEW-2); `registry-first`: the live
 *                      registry's, then the header's (AR-RES-SCHEMA-1);
 *   session_id_in_requests  every request names the session (AR-RES-REQUEST-1);
 *   failure_text       `normalized`: the failure message made readable (AR-RES-NORM-1..4);
 *   counts_failures    the session's failures in a row, kept in `state.failures`
 *                      (AR-RES-HINT-1), and the hint when due (AR-RES-HINT-2).
 */
async function review(exec, session, env, signal, state) {
  const { rules } = state;
  const { config } = env;
  const route = rules.route === 'configured-first' ? (config.reviewer_route ?? session.route) : session.route;
  try {
    if (!route.provider || !route.model) throw new ReviewFailure('route', MSG.noRoute); // AR-REVIEW-9
    const cwd = rules.working_directory === 'deployment-fallback' ? env.workingDirectory.ensure(session) : session.workingDirectory;
    if (cwd === undefined) throw new ReviewFailure('session', MSG.noCwd);
    const action = pendingAction(exec, session); // AR-REVIEW-11
    // The pending tool's schema (ptc-inner: the binding's in the header), exactly one.
    const one = (schemas) => schemas.length === 1;
    const inRegistry = rules.schema === 'registry-first' && one(env.tools.registrySchemas(exec));
    if (!inRegistry && !one(env.tools.headerSchemas(exec))) throw schemaFailure(exec);
    const sessionId = rules.session_id_in_requests ? session.id : undefined;
    const decision = await askReviewer(exec, route, env, signal, { cwd, action, sessionId }, rules);
    if (rules.counts_failures) state.failures.set(session.id, 0);
    return { decision, hint: null };
  } catch (error) {
    const raw = error instanceof ReviewFailure ? error : new ReviewFailure('internal', rules.failure_text === 'normalized' ? textOf(error) : String(error && error.message));
    const failure = rules.failure_text === 'normalized' ? new ReviewFailure(raw.class, normalizeMessage(raw.message), raw.implementationDefined) : raw;
    env.observe.reviewFailure(failure);
    if (!rules.counts_failures || raw.bySignal) return { failure, hint: null }; // a signal's failure is not the reviewer's (AR-RES-HINT-1)
    const count = (state.failures.get(session.id) ?? 0) + 1;
    state.failures.set(session.id, count);
    if (count < config.failure_hint_after) return { failure, hint: null };
    // Every request of a review uses one route: the last request's, or the one a request would use.
    const routeName = `${route.provider}/${route.model}`;
    return { failure, hint: { en: MSG.hint(count, routeName), zh: MSG.hintZh(count, routeName) } };
  }
}

// ---- The gate (chapters 1, 2, 5, 7; AR-RES-DECIDE/FAIL/ASK) ----------------------------------

const cancel = () => ({ kind: 'cancel' });

/** AR-DECIDE-2 / AR-RES-DECIDE-1: a final reviewer denial. */
function finalDenial(name, reason) {
  return { kind: 'deny', reason: MSG.finalDeny(name), info: reason === undefined ? { ...INFO_DENIED } : { ...INFO_DENIED, reason } };
}

/** AR-DECIDE-5: the question after a reviewer denial: { reason, en, zh }. */
function deniedQuestion(name, reason) {
  if (reason === undefined) return { reason: MSG.askReview(name), en: MSG.displayEn, zh: MSG.displayZh };
  return { reason: MSG.askReviewReason(name, reason), en: MSG.displayEnReason(reason), zh: MSG.displayZhReason(reason) };
}

/** AR-RES-FAIL-2: the question after a reviewer failure. */
function failedQuestion(name, failure) {
  const error = failure.message;
  return { reason: MSG.askFailed(name, error), en: MSG.displayFailedEn(error), zh: MSG.displayFailedZh(error) };
}

/** AR-RES-ASK-1: the gate's question followed by downstream's. */
function combinedQuestion(own, downstreamReason) {
  return {
    reason: MSG.askCombined(own.reason, downstreamReason),
    en: MSG.displayCombinedEn(own.en, downstreamReason),
    zh: MSG.displayCombinedZh(own.zh, downstreamReason),
  };
}

/** An ask decision, with the hint (AR-RES-HINT-2) as its last line when one is due. */
function ask(question, hint = null) {
  const line = (text, hintLine) => (hint ? `${text}\n${hintLine}` : text);
  return {
    kind: 'ask',
    reason: line(question.reason, hint?.en),
    displayReason: { en: line(question.en, hint?.en), zh: line(question.zh, hint?.zh) },
  };
}

/**
 * AR-ADMIT-1..3: run an admitted call's review and decision, tracked until its decision is
 * returned so that disposal waits for it. The call is tracked before anything is awaited.
 */
async function admitted(state, work) {
  let release;
  const done = new Promise((resolve) => {
    release = resolve;
  });
  state.admitted.add(done);
  try {
    return await work();
  } finally {
    state.admitted.delete(done);
    release();
  }
}

/** Whether this installation refuses admission: it is closing, or its lifecycle ended (AR-ADMIT-1). */
const closing = (state) => !state.accepting || state.lifecycle.signal.aborted;

// ---- Confinement (AR-CONFINE-1..4; the rule `confinement`) -----------------------------------

const FULL_ACCESS = 'danger-full-access';
const CONFINED = 'workspace-write';

/**
 * The mode selecting Auto writes (AR-SCOPE-5): under the rule `confinement`, the confined mode on
 * a backend that confines reads; otherwise Full access's.
 */
const autoMode = (host, session) => (host.rules.confinement && host.sandboxPolicy.confinesReads(session) ? CONFINED : FULL_ACCESS);

/**
 * AR-CONFINE-1, -2, -4: narrow an Auto session that still has full access on a backend that
 * confines reads, while the integration admits calls; never widen. A rejected change throws out
 * of here and out of the listener, on purpose (AR-CONFINE-3): the call must not run under the mode
 * it failed to leave, and the tool runtime fails it with the rejection's own message.
 */
function confine(session, env, state) {
  if (!state.rules.confinement) return; // the baseline never changes a session's mode
  if (env.permissionPresets.current(session) !== 'auto') return;
  if (closing(state)) return; // AR-CONFINE-4: unloading keeps the session's mode
  if (env.sandboxPolicy.modeOf(session) !== FULL_ACCESS) return; // AR-CONFINE-2
  if (!env.sandboxPolicy.confinesReads(session)) return;
  env.sandboxPolicy.setSandboxMode(session, CONFINED);
}

// ---- Approvals raised inside an allowed body (AR-APPROVAL-7; the rule `body_approvals`) -------

/**
 * Under the rule `body_approvals` `allowed-call`: remember, per agent, a call the reviewer allowed
 * and downstream allowed, which the listener is about to allow: it will run, and the allow stands
 * in for the user on the approvals its body raises while it runs. Called on exactly that branch:
 * never for a pass-through, a reviewer denial a human then allows, a downstream ask or a failure.
 */
function allowCall(exec, state) {
  if (!state.answersBodies) return;
  const calls = state.allowedCalls.get(exec.agent) ?? new Set();
  calls.add(exec.callId);
  state.allowedCalls.set(exec.agent, calls);
}

/**
 * The answerer the integration prepends to the approval service's (`approval/request`): a request
 * naming a call of its agent that the gate allowed and that still runs, while the session is in
 * Auto, is answered `allowed-once`; every other request goes on to the next answerer and the
 * human — no call id, another call's id, a call the reviewer denied or nobody reviewed, a finished
 * call, a session that left Auto. The service's own answers (an aborted caller, `never`) come
 * before any answerer (AR-APPROVAL-8).
 */
function answerRaised(request, next, host, state) {
  if (request.callId === undefined || state.allowedCalls.get(request.agent)?.has(request.callId) !== true) return next();
  if (host.permissionPresets.current(request.agent.session) !== 'auto') return next();
  return Promise.resolve('allowed-once');
}

/** `tools/post-execute`, prepended: a call whose result is produced is no longer covered. */
function forgetFinished(exec, next, state) {
  if (exec.agent !== undefined) state.allowedCalls.get(exec.agent)?.delete(exec.callId);
  return next();
}

/** A failure's reason, with the hint (AR-RES-HINT-2) as its last line when one is due. */
const withHint = (reason, hint) => (hint ? `${reason}\n${hint.en}` : reason);

/**
 * The rule `failures` `deny`: a failure is a denial, before downstream, whatever the policy
 * (AR-DECIDE-1); a reviewer denial is final under the recorded override `never` (AR-DECIDE-2);
 * otherwise downstream is consulted once (AR-DECIDE-3) and its decision stands, except that a
 * reviewer denial turns its `allow` into a question (AR-DECIDE-4, AR-DECIDE-5).
 */
async function decideDeny(exec, session, next, env, state, outcome) {
  if (outcome.failure) return { kind: 'deny', reason: withHint(MSG.failed(exec.name, outcome.failure.message), outcome.hint) };
  const { decision, reason } = outcome.decision;
  if (decision === 'deny' && env.approval.overrideOf(session) === 'never') return finalDenial(exec.name, reason);
  const downstream = await next();
  if (state.lifecycle.signal.aborted) return cancel(); // AR-CANCEL-4
  if (decision === 'allow') {
    // A downstream ask is that listener's own decision: only a call that will run is covered.
    if (downstream.kind === 'allow') allowCall(exec, state);
    return downstream;
  }
  if (downstream.kind !== 'allow') return downstream;
  return ask(deniedQuestion(exec.name, reason));
}

/**
 * The rule `failures` `ask`: the effective policy decides (AR-RES-DECIDE-1, AR-RES-FAIL-1).
 * A failure under `never`, or with config.on_failure `deny`, is denied before downstream, naming
 * its class (AR-RES-FAIL-3); otherwise it is asked about like a reviewer denial (AR-RES-FAIL-2),
 * a downstream `ask` joining the question (AR-RES-ASK-1).
 */
async function decideAsk(exec, session, next, env, state, outcome) {
  const never = env.approval.effectivePolicy(session) === 'never';
  let question = null; // what the gate would ask the human, when the reviewer did not allow
  if (outcome.failure) {
    if (never || env.config.on_failure === 'deny') {
      return {
        kind: 'deny',
        reason: withHint(MSG.failed(exec.name, outcome.failure.message), outcome.hint),
        info: { ...INFO_FAILED, failure: outcome.failure.class },
      };
    }
    question = failedQuestion(exec.name, outcome.failure);
  } else if (outcome.decision.decision === 'deny') {
    if (never) return finalDenial(exec.name, outcome.decision.reason);
    question = deniedQuestion(exec.name, outcome.decision.reason);
  }
  const downstream = await next();
  if (state.lifecycle.signal.aborted) return cancel(); // AR-CANCEL-4
  if (question === null) {
    // The reviewer allowed: covered only where downstream allowed too, so the call will run.
    if (downstream.kind === 'allow') allowCall(exec, state);
    return downstream;
  }
  if (downstream.kind === 'deny' || downstream.kind === 'cancel') return downstream;
  if (downstream.kind === 'ask') return ask(combinedQuestion(question, downstream.reason), outcome.hint);
  return ask(question, outcome.hint);
}

/**
 * The listener (chapters 1, 2, 5, 7 and their replacements in 10 and 11). Where profiles differ it
 * asks the run's rules (`state.rules`, the host's), never a profile's name:
 *   confinement  `true`: an Auto session with full access on a backend that confines reads is
 *                narrowed first (confine, AR-CONFINE-1..4); `false`: the mode is never changed;
 *   preset_read  `at-start`: the preset is read before admission, so a session disposal moved
 *                passes through (AR-DISPOSE-2); `current`: while closing, a call in a session
 *                disposal moved out of Auto is refused admission first (AR-RES-DISPOSE-1);
 *   failures     what the settled review comes to (decideDeny, decideAsk);
 * and the review asks the others (review, askReviewer).
 */
async function gate(exec, next, env, state) {
  const agent = exec.agent;
  // AR-SCOPE-1..3: pass-through calls; the outer transport is the tool run_code with no parent.
  if (agent === undefined) return next();
  const session = agent.session;
  // AR-CONFINE-1: before anything else the gate does for an Auto session's call, the outer
  // run_code's included (its process runs under the same mode). Outside any try: a rejection
  // ends the call (AR-CONFINE-3).
  confine(session, env, state);
  if (exec.parent === undefined && exec.name === 'run_code') return next();
  if (state.rules.preset_read === 'current' && closing(state) && state.movedByDisposal.has(session.id)) return cancel();
  if (env.permissionPresets.current(session) !== 'auto') return next();
  if (closing(state)) return cancel(); // AR-ADMIT-2

  return admitted(state, async () => {
    const signal = AbortSignal.any([exec.signal, state.lifecycle.signal]);
    const outcome = await review(exec, session, env, signal, state);
    // AR-CANCEL-3: a lifecycle abort during the review cancels, whatever the review said.
    if (state.lifecycle.signal.aborted) return cancel();
    const decide = state.rules.failures === 'ask' ? decideAsk : decideDeny;
    return decide(exec, session, next, env, state, outcome);
  });
}

// ---- The integration (AR-DISPOSE-1..5, AR-INSTALL-1) -----------------------------------------

/**
 * Install the gate: register the Auto preset and return the integration. `restored` carries the
 * failures in a row each session had before (the host's record; empty for a fresh installation,
 * which counts from 0, AR-RES-HINT-4). `host.rules`, the run's rules, decide wherever profiles
 * differ.
 */
function install(host, restored = {}) {
  if (host.rules === null || typeof host.rules !== 'object') {
    throw new TypeError('install: host.rules is missing: the example gate decides by the run\'s rules, which the kit (0.2.0 and later) passes');
  }
  const state = {
    rules: host.rules,
    accepting: true,
    lifecycle: new AbortController(),
    admitted: new Set(), // the admitted calls not yet decided (AR-ADMIT-3)
    movedByDisposal: new Set(), // ids of the sessions disposal moved out of Auto
    failures: new Map(restored.consecutiveFailures ?? []), // session id -> failures in a row
    // The rule `body_approvals` (missing: `human`): whether the gate answers the approvals an
    // allowed call's body raises (AR-APPROVAL-7), and the calls it allowed that still run, per agent.
    answersBodies: host.rules.body_approvals === 'allowed-call',
    allowedCalls: new WeakMap(),
  };
  // AR-DISPOSE-5: once disposal began, selecting Auto is refused, so nothing that observes the
  // migration can put a session back under a gate that is going away.
  // Selecting Auto writes the mode autoMode says (AR-SCOPE-5, the rule `confinement`).
  const unregisterAuto = host.permissionPresets.registerAuto(
    () => {
      if (!state.accepting) throw new Error(MSG.closing);
    },
    { sandbox: (session) => autoMode(host, session) },
  );
  // Under `allowed-call`, the answerer goes first among the approval service's, and the call is
  // forgotten first thing once its result is produced; under `human` neither is registered.
  const stopAnswering = state.answersBodies ? host.on('approval/request', (request, next) => answerRaised(request, next, host, state), { prepend: true }) : () => {};
  const stopForgetting = state.answersBodies ? host.on('tools/post-execute', (exec, _result, next) => forgetFinished(exec, next, state), { prepend: true }) : () => {};
  return {
    listener: (exec, next, env) => gate(exec, next, env, state),

    /**
     * AR-DISPOSE-1: stop admitting, move live Auto sessions, abort, wait; then Auto is gone. Full
     * access writes its mode and the policy `never`. Under the rule `confinement` a confined
     * session moves to Workspace Write instead, keeping its mode and its own policy (a delegated
     * child pinned to `never` stays so; AR-CONFINE-2, AR-CONFINE-5). The answerer and the
     * post-execute listener go last, as the shipped integration's effect unwinds.
     */
    async dispose() {
      state.accepting = false;
      for (const session of host.sessions.list()) {
        if (host.permissionPresets.current(session) !== 'auto') continue;
        state.movedByDisposal.add(session.id);
        if (state.rules.confinement && host.sandboxPolicy.modeOf(session) === CONFINED) {
          host.permissionPresets.set(session, 'workspace-write', { keepPolicy: true });
        } else {
          host.permissionPresets.set(session, 'danger-full-access');
        }
      }
      state.lifecycle.abort(new Error(MSG.disposed));
      await Promise.allSettled([...state.admitted]);
      unregisterAuto(); // AR-DISPOSE-4
      stopForgetting();
      stopAnswering();
    },

    /** The session's failures in a row (AR-RES-HINT-1); kept only where the rules count them. */
    consecutiveFailures: (session) => state.failures.get(session.id) ?? 0,
  };
}

module.exports = {
  install,
  // The gate's texts, one per template of the spec: a gate that words them in its own way, checked
  // with `autoreview check --messages FILE`, replaces them (tests/adapters/own-wording.js).
  MSG,
  readStrict,
  readTolerant,
  normalizeMessage,
  textOf,
  classifyErrorFinish,
  // Every value of every rule the gate implements: a profile that recombines them is checked too.
  rules: RULES,
  observes: ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream', 'confinement', 'body-approvals', 'json-retries'],
  // The resilient profile's optional features this gate implements (spec/protocol.md).
  features: ['failure-hint', 'failure-class'],
};

// Run directly, this module would exit at once, and a check would only see an adapter that ended
// before answering hello: say what to run instead.
if (require.main === module) {
  const path = require('node:path');
  const adapter = path.relative(process.cwd(), path.join(__dirname, 'skeleton.js'));
  process.stderr.write(
    `example-gate.js is a module (the gate an adapter requires), not an adapter: run \`node ${adapter}\` instead\n`,
  );
  process.exitCode = 2;
}
