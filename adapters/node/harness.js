'use strict';
/**
 * harness.js — everything an autoreview adapter needs except the gate itself.
 *
 * No dependencies beyond Node.js (>= 20). It provides:
 *
 *  - the adapter protocol loop of spec/protocol.md (`serve`): hello / decide / stop as JSON lines on
 *    stdin/stdout, one line per reply, logs on stderr only; a decide that throws becomes an `error`
 *    reply and the run goes on;
 *  - a scenario reader (`normalizeScenario`) that applies the defaults of spec/scenario.md and
 *    refuses unknown members and out-of-range values, naming the member;
 *  - a scripted world built from one scenario (`createWorld`): a fake reviewer client, a downstream
 *    listener chain ending in allow, an approval service (spec chapter 6), the caller's and the
 *    lifecycle's abort controllers firing at the scenario's abort point (chapter 7), the tool's body,
 *    a virtual clock, and a recorder of the trace;
 *  - a tool runtime (`runToolCall`) that runs the gate as the first `tools/pre-execute` listener,
 *    asks the approval service for `ask` and materializes the decision (chapter 8);
 *  - `runScenario`, which drives all of that on the virtual clock and assembles the outcome object
 *    exactly as spec/scenario.md defines it.
 *
 * A gate is `(exec, next, env) => Promise<decision>`, in the style of a `tools/pre-execute`
 * listener:
 *
 *   exec  = { name, callId, kind: 'native'|'ptc-inner'|'run-code', parent, agent, signal, arguments }
 *           `agent` is undefined for a call without an agent, else { id, session };
 *           `parent` is set for a ptc-inner call (the program's run_code call), undefined otherwise;
 *           `signal` is the caller's AbortSignal.
 *   next  = () => Promise<decision>      the rest of the pre-execute chain (downstream).
 *   env   = the world the gate lives in:
 *     env.profile                         'baseline' | 'resilient' (the run's profile)
 *     env.config                          the resilient configuration, defaults applied (AR-RES-CONFIG-1)
 *     env.lifecycle.signal / .closing     the gate integration's lifecycle (admission, AR-ADMIT-1)
 *     env.lifecycle.migrated(session)     whether disposal moved this session out of Auto (it was
 *                                         listed and in Auto when the integration was disposed)
 *     env.permissionPresets.current(session)          'auto' | 'danger-full-access' | ...
 *     env.approval.overrideOf(session)                'ask' | 'never' | undefined
 *     env.approval.effectivePolicy(session)           'ask' | 'never'
 *     env.tools.headerSchemas(exec)       schemas with exec.name in the latest request header (for a
 *                                         ptc-inner call: the schemas bound when the program started)
 *     env.tools.registrySchemas(exec)     schemas with exec.name in the live tool registry
 *     env.llm.request(options)            one reviewer request; options = { provider, model, system,
 *                                         messages, temperature, signal }; resolves to an array of
 *                                         chunks (see below) or rejects with the scripted thrown value
 *     env.sessions.consecutiveFailures(session) / setConsecutiveFailures(session, n)
 *                                         the session's reviewer failures in a row (AR-RES-HINT-1)
 *     env.observe.reviewFailure({ class, message, implementationDefined })
 *                                         instrumentation: call it once when the review settles as a
 *                                         failure, BEFORE acting on it (see "abort points" below)
 *     env.clock.now() / setTimeout(fn, ms) / clearTimeout(id) / sleep(ms)
 *                                         the virtual clock; use it for deadlines, never real timers
 *     env.log(...args)                    writes to stderr
 *
 *   decision = { kind: 'allow' }
 *            | { kind: 'deny', reason, info? }
 *            | { kind: 'cancel' }
 *            | { kind: 'ask', reason?, displayReason?: { en, zh } }   (display_reason is accepted too)
 *
 * Reviewer chunks (what env.llm.request resolves to), in stream order:
 *   { type: 'block', block: { type: 'reasoning' | 'text' | 'tool-call', text } }
 *   { type: 'finish', reason: { kind: 'stop' | 'max-tokens' | ... } }
 *   { type: 'finish', reason: { kind: 'error' | 'aborted', failure: { code, message } } }
 *   { type: 'usage', usage: {...} }        only after the finish, when data_after_finish is scripted
 * A scripted {"hang": true} request never settles on its own. When its `signal` aborts it resolves
 * with an `aborted` finish whose failure is { code: 'ABORTED', message: <the abort reason's message> },
 * as an LLM runtime does when a request is cancelled.
 *
 * Abort points (scenario.md, spec chapter 7):
 *   caller-before-dispatch      the caller's signal is aborted before the stage; no listener runs.
 *   lifecycle-before-review     the lifecycle is aborted and closing before the call starts.
 *   caller-during-review        the caller aborts when the gate starts its first reviewer request;
 *   lifecycle-after-review      the lifecycle aborts at the same moment. When the review makes no
 *                               request (its route or schema did not resolve), both fire when the
 *                               gate reports the failure through env.observe.reviewFailure. For a
 *                               pass-through call, caller-during-review fires when downstream is
 *                               consulted.
 *   lifecycle-during-downstream the lifecycle aborts when the gate calls next().
 * Whenever the lifecycle aborts, the integration is being disposed as shipped: `closing` turns true,
 * then a session that is listed (scenario session.listed) and in Auto is moved to the preset
 * `danger-full-access` with the approval override `never` (env.lifecycle.migrated(session) then
 * says so), then the lifecycle signal aborts. The presets and the approval service read the
 * session's state at the moment they are asked.
 *
 * Time: everything runs on a virtual clock. After each step the harness lets pending promise jobs
 * run; when the call has not completed and no virtual timer is pending, nothing can ever happen
 * again, so the call is reported as never settling (`settled: false`) at once, without waiting.
 */

const readline = require('node:readline');

const PROTOCOL = 1;
const PROFILES = ['baseline', 'resilient'];

// ---------------------------------------------------------------------------------------------
// Texts the tool runtime and the approval service render (spec chapter 9). The gate's own texts
// belong to the gate, not here.
// ---------------------------------------------------------------------------------------------

const RUNTIME_TEXT = {
  userRejected: (name) => `the user rejected tool "${name}"`,
  approvalCancelled: (name) => `approval for tool "${name}" was cancelled`,
  approvalUnavailable: (name) => `tool "${name}" requires approval, but no approval channel is available`,
  noAgent: (name) => `tool "${name}" requires approval, but the call has no agent to route it through`,
  abortedBeforeDispatch: 'tool call aborted before dispatch',
};
const INFO_ABORTED = Object.freeze({ name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH' });
// The thrown message of an approval request made outside an open turn (implementation-defined,
// AR-MSG-3); this is the shipped approval service's text.
const APPROVAL_THREW_MESSAGE =
  'approval.request() outside an open turn: the approval/asked + approval/decided audit pair must be ' +
  'turn-enclosed (a bare event between turns is crash-tail garbage on reload). Ask from inside the ' +
  'turn that needs the decision.';
const CALLER_ABORT_MESSAGE = 'the caller cancelled the call';
const LIFECYCLE_ABORT_MESSAGE = 'auto-review integration disposed';

// ---------------------------------------------------------------------------------------------
// Scenario reading (spec/scenario.md). Unknown members are errors; so are values out of range.
// ---------------------------------------------------------------------------------------------

class ScenarioError extends Error {}

function fail(path, message) {
  throw new ScenarioError(`${path}: ${message}`);
}
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function onlyKeys(obj, path, allowed) {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) fail(path ? `${path}.${key}` : key, `unknown member (allowed: ${allowed.join(', ')})`);
  }
}
function oneOf(value, path, values) {
  if (!values.includes(value)) fail(path, `${JSON.stringify(value)} is not one of ${values.join(', ')}`);
  return value;
}
function intIn(value, path, min, max) {
  if (!Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
    fail(path, `${JSON.stringify(value)} must be an integer ${max === undefined ? `>= ${min}` : `in ${min}..${max}`}`);
  }
  return value;
}
function str(value, path) {
  if (typeof value !== 'string') fail(path, 'must be a string');
  return value;
}
function route(value, path) {
  if (!isObject(value)) fail(path, 'must be {"provider", "model"}');
  onlyKeys(value, path, ['provider', 'model']);
  return { provider: str(value.provider, `${path}.provider`), model: str(value.model, `${path}.model`) };
}

const SCHEMA_COUNTS = ['present', 'missing', 'ambiguous'];

function normalizeAttempt(a, path) {
  if (!isObject(a)) fail(path, 'an attempt must be an object');
  const delay = (keys) => {
    onlyKeys(a, path, [...keys, 'delay_ms']);
    return has(a, 'delay_ms') ? intIn(a.delay_ms, `${path}.delay_ms`, 0) : 0;
  };
  if (has(a, 'hang')) {
    onlyKeys(a, path, ['hang']);
    if (a.hang !== true) fail(`${path}.hang`, 'must be true');
    return { shape: 'hang' };
  }
  if (has(a, 'text')) {
    const delay_ms = delay(['text']);
    return { shape: 'text', text: str(a.text, `${path}.text`), delay_ms };
  }
  if (has(a, 'blocks')) {
    const delay_ms = delay(['blocks', 'finish', 'data_after_finish']);
    if (!Array.isArray(a.blocks)) fail(`${path}.blocks`, 'must be an array');
    const blocks = a.blocks.map((b, i) => {
      const p = `${path}.blocks[${i}]`;
      if (!isObject(b)) fail(p, 'must be {"type", "text"}');
      onlyKeys(b, p, ['type', 'text']);
      return { type: oneOf(b.type, `${p}.type`, ['reasoning', 'text', 'tool-call']), text: str(b.text, `${p}.text`) };
    });
    const finish = has(a, 'finish') ? str(a.finish, `${path}.finish`) : 'stop';
    let data_after_finish = false;
    if (has(a, 'data_after_finish')) {
      if (typeof a.data_after_finish !== 'boolean') fail(`${path}.data_after_finish`, 'must be a boolean');
      data_after_finish = a.data_after_finish;
    }
    return { shape: 'blocks', blocks, finish, data_after_finish, delay_ms };
  }
  if (has(a, 'throw')) {
    const delay_ms = delay(['throw']);
    return { shape: 'throw', value: a.throw, delay_ms };
  }
  if (has(a, 'finish')) {
    const delay_ms = delay(['finish']);
    const f = a.finish;
    const p = `${path}.finish`;
    if (!isObject(f)) fail(p, 'a finish without blocks is {"kind": "error"|"aborted", "code": string, "message": any}');
    onlyKeys(f, p, ['kind', 'code', 'message']);
    if (!has(f, 'message')) fail(`${p}.message`, 'missing');
    return {
      shape: 'failed-finish',
      kind: oneOf(f.kind, `${p}.kind`, ['error', 'aborted']),
      code: str(f.code, `${p}.code`),
      message: f.message,
      delay_ms,
    };
  }
  fail(path, 'an attempt is one of {"text"}, {"blocks"}, {"finish"}, {"throw"}, {"hang": true}');
}

function normalizeDownstream(d) {
  const path = 'downstream';
  if (!isObject(d)) fail(path, 'must be an object');
  switch (d.kind) {
    case 'allow':
    case 'cancel':
      onlyKeys(d, path, ['kind']);
      return { kind: d.kind };
    case 'deny': {
      onlyKeys(d, path, ['kind', 'reason', 'info']);
      const out = { kind: 'deny', reason: str(d.reason, `${path}.reason`) };
      if (has(d, 'info') && d.info !== null) {
        if (!isObject(d.info)) fail(`${path}.info`, 'must be an object or null');
        out.info = d.info;
      }
      return out;
    }
    case 'ask':
      onlyKeys(d, path, ['kind', 'reason']);
      return { kind: 'ask', reason: str(d.reason, `${path}.reason`) };
    default:
      return fail(`${path}.kind`, `${JSON.stringify(d.kind)} is not one of allow, deny, cancel, ask`);
  }
}

const CONFIG_DEFAULTS = Object.freeze({
  on_failure: 'ask',
  repair_attempts: 1,
  transport_retries: 1,
  review_timeout_ms: 60000,
  reviewer_route: null,
  failure_hint_after: 3,
});

function normalizeConfig(c) {
  if (c === undefined) return { ...CONFIG_DEFAULTS };
  if (!isObject(c)) fail('config', 'must be an object');
  onlyKeys(c, 'config', Object.keys(CONFIG_DEFAULTS));
  const out = { ...CONFIG_DEFAULTS };
  if (has(c, 'on_failure')) out.on_failure = oneOf(c.on_failure, 'config.on_failure', ['ask', 'deny']);
  if (has(c, 'repair_attempts')) out.repair_attempts = intIn(c.repair_attempts, 'config.repair_attempts', 0, 5);
  if (has(c, 'transport_retries')) out.transport_retries = intIn(c.transport_retries, 'config.transport_retries', 0, 5);
  if (has(c, 'review_timeout_ms')) out.review_timeout_ms = intIn(c.review_timeout_ms, 'config.review_timeout_ms', 1);
  if (has(c, 'reviewer_route') && c.reviewer_route !== null) {
    out.reviewer_route = route(c.reviewer_route, 'config.reviewer_route');
    // A configured reviewer route is complete, or the configuration is wrong (AR-RES-CONFIG-1).
    if (out.reviewer_route.provider === '' || out.reviewer_route.model === '') {
      fail('config.reviewer_route', 'a configured reviewer route names a non-empty provider and model (AR-RES-CONFIG-1)');
    }
  }
  if (has(c, 'failure_hint_after')) out.failure_hint_after = intIn(c.failure_hint_after, 'config.failure_hint_after', 1);
  return out;
}

/**
 * Refuse calls the real runtime cannot produce (scenario.md, rules RZ-1..3): the transport is the
 * tool `run_code` with no parent program, no other tool can be named `run_code`, and a program
 * binds one schema per tool or none.
 */
function refuseUnrealizable(tool, schema) {
  if (tool.call === 'run-code' && tool.name !== 'run_code') {
    fail('tool.name', 'unrealizable (RZ-1): a run-code call is the transport tool itself, so it must be named "run_code"');
  }
  if (tool.call !== 'run-code' && tool.name === 'run_code') {
    fail('tool.name', `unrealizable (RZ-2): a ${tool.call} call cannot be named "run_code"; the runtime reserves that name for the transport`);
  }
  if (tool.call === 'ptc-inner' && schema.header === 'ambiguous') {
    fail('schema.header', 'unrealizable (RZ-3): a ptc-inner call\'s bound schema is one schema or none, never "ambiguous"');
  }
}

/** Apply scenario.md's defaults and validate. Throws a ScenarioError naming the member. */
function normalizeScenario(raw) {
  if (!isObject(raw)) fail('scenario', 'must be a JSON object');
  onlyKeys(raw, '', ['id', 'tool', 'agent', 'preset', 'policy', 'schema', 'reviewer', 'downstream', 'approval', 'abort', 'session', 'config']);

  const id = has(raw, 'id') && raw.id !== null ? str(raw.id, 'id') : null;

  if (!isObject(raw.tool)) fail('tool', 'required: {"name": string, "call"?: ...}');
  onlyKeys(raw.tool, 'tool', ['name', 'call']);
  const tool = {
    name: str(raw.tool.name, 'tool.name'),
    call: has(raw.tool, 'call') ? oneOf(raw.tool.call, 'tool.call', ['native', 'ptc-inner', 'run-code']) : 'native',
  };

  let agent = true;
  if (has(raw, 'agent')) {
    if (typeof raw.agent !== 'boolean') fail('agent', 'must be a boolean');
    agent = raw.agent;
  }
  const preset = has(raw, 'preset')
    ? oneOf(raw.preset, 'preset', ['auto', 'danger-full-access', 'workspace-write', 'read-only'])
    : 'auto';

  let policy = { override: null, default: 'ask' };
  if (has(raw, 'policy')) {
    const p = raw.policy;
    if (typeof p === 'string') policy = { override: oneOf(p, 'policy', ['ask', 'never']), default: 'ask' };
    else if (isObject(p)) {
      onlyKeys(p, 'policy', ['override', 'default']);
      policy = {
        override: has(p, 'override') && p.override !== null ? oneOf(p.override, 'policy.override', ['ask', 'never']) : null,
        default: has(p, 'default') ? oneOf(p.default, 'policy.default', ['ask', 'never']) : 'ask',
      };
    } else fail('policy', 'must be "ask", "never" or {"override", "default"}');
  }

  let schema = { header: 'present', registry: 'present' };
  if (has(raw, 'schema')) {
    const s = raw.schema;
    if (typeof s === 'string') {
      oneOf(s, 'schema', ['present', 'missing', 'ambiguous', 'registry-only']);
      schema = s === 'registry-only' ? { header: 'missing', registry: 'present' } : { header: s, registry: s };
    } else if (isObject(s)) {
      onlyKeys(s, 'schema', ['header', 'registry']);
      schema = {
        header: has(s, 'header') ? oneOf(s.header, 'schema.header', SCHEMA_COUNTS) : 'present',
        registry: has(s, 'registry') ? oneOf(s.registry, 'schema.registry', SCHEMA_COUNTS) : 'present',
      };
    } else fail('schema', 'must be a string or {"header", "registry"}');
  }

  if (!has(raw, 'reviewer')) fail('reviewer', 'required');
  const script = Array.isArray(raw.reviewer) ? raw.reviewer : [raw.reviewer];
  if (script.length === 0) fail('reviewer', 'must script at least one attempt');
  const reviewer = script.map((a, i) => normalizeAttempt(a, Array.isArray(raw.reviewer) ? `reviewer[${i}]` : 'reviewer'));

  const downstream = has(raw, 'downstream') ? normalizeDownstream(raw.downstream) : { kind: 'allow' };
  const approval = has(raw, 'approval')
    ? oneOf(raw.approval, 'approval', ['allowed-once', 'rejected', 'cancelled', 'unavailable', 'throws'])
    : 'unavailable';
  const abort = has(raw, 'abort')
    ? oneOf(raw.abort, 'abort', [
        'none',
        'lifecycle-before-review',
        'lifecycle-after-review',
        'lifecycle-during-downstream',
        'caller-before-dispatch',
        'caller-during-review',
      ])
    : 'none';

  // The session's route may be incomplete (an empty provider or model): the review then fails.
  const session = { route: { provider: 'default', model: 'default' }, consecutive_failures: 0, listed: true };
  if (has(raw, 'session')) {
    if (!isObject(raw.session)) fail('session', 'must be an object');
    onlyKeys(raw.session, 'session', ['route', 'consecutive_failures', 'listed']);
    if (has(raw.session, 'route')) session.route = route(raw.session.route, 'session.route');
    if (has(raw.session, 'consecutive_failures')) {
      session.consecutive_failures = intIn(raw.session.consecutive_failures, 'session.consecutive_failures', 0);
    }
    if (has(raw.session, 'listed')) {
      if (typeof raw.session.listed !== 'boolean') fail('session.listed', 'must be a boolean');
      session.listed = raw.session.listed;
    }
  }
  refuseUnrealizable(tool, schema);

  const config = normalizeConfig(raw.config);
  return { id, tool, agent, preset, policy, schema, reviewer, downstream, approval, abort, session, config };
}

// ---------------------------------------------------------------------------------------------
// Virtual clock
// ---------------------------------------------------------------------------------------------

class VirtualClock {
  constructor() {
    this._now = 0;
    this._seq = 0;
    this._timers = new Map();
  }
  now() {
    return this._now;
  }
  /**
   * `priority` orders timers due at the same instant: the scripted world's own events (a reviewer
   * response, priority 0) come before the gate's timers (priority 1), so a request that settles
   * exactly at a deadline has settled in time (AR-RES-RETRY-4).
   */
  setTimeout(fn, ms = 0, priority = 1) {
    const id = ++this._seq;
    const delay = Number.isFinite(Number(ms)) ? Math.max(0, Number(ms)) : 0;
    this._timers.set(id, { at: this._now + delay, priority, id, fn });
    return id;
  }
  clearTimeout(id) {
    this._timers.delete(id);
  }
  /** Fire the earliest pending timer (ties: priority, then creation order); false when none is pending. */
  fireNext() {
    const before = (a, b) => a.at < b.at || (a.at === b.at && (a.priority < b.priority || (a.priority === b.priority && a.id < b.id)));
    let first = null;
    for (const t of this._timers.values()) {
      if (first === null || before(t, first)) first = t;
    }
    if (first === null) return false;
    this._timers.delete(first.id);
    this._now = first.at;
    first.fn();
    return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The scripted world around one call
// ---------------------------------------------------------------------------------------------

const clone = (v) => (v === undefined ? undefined : structuredClone(v));

function abortMessage(reason) {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}

function fakeSchemas(name, count) {
  const one = (variant) => ({
    name,
    description: `scripted schema of ${JSON.stringify(name)}${variant ? ` (${variant})` : ''}`,
    parameters: { type: 'object', properties: {} },
  });
  if (count === 'present') return [one('')];
  if (count === 'ambiguous') return [one('first'), one('second')];
  return [];
}

function chunksOf(attempt) {
  switch (attempt.shape) {
    case 'text':
      return [
        { type: 'block', block: { type: 'text', text: attempt.text } },
        { type: 'finish', reason: { kind: 'stop' } },
      ];
    case 'blocks': {
      const chunks = attempt.blocks.map((b) => ({ type: 'block', block: { type: b.type, text: b.text } }));
      chunks.push({ type: 'finish', reason: { kind: attempt.finish } });
      if (attempt.data_after_finish) chunks.push({ type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } });
      return chunks;
    }
    case 'failed-finish':
      return [{ type: 'finish', reason: { kind: attempt.kind, failure: { code: attempt.code, message: clone(attempt.message) } } }];
    default:
      throw new Error(`no chunks for a ${attempt.shape} attempt`);
  }
}

/**
 * Build the world of one scenario. Returns { scenario, profile, exec, next, env, clock, rec, ... }.
 * `rec` is the recorder the outcome is assembled from.
 */
function createWorld(rawScenario, profile, options = {}) {
  const sc = normalizeScenario(rawScenario);
  const log = options.log || ((...args) => console.error(...args));
  const clock = new VirtualClock();

  const rec = {
    trace: [],
    attempts: 0,
    routes: [],
    requests: [], // the options of each reviewer request (without the signal), for debugging
    signalEnded: new Set(), // indexes of requests a caller/lifecycle signal ended
    failure: null, // { class, message, implementationDefined } as the gate reported it
    gateReturned: false,
    listener: null,
    approval: null,
    approvalThrew: false,
    result: null,
  };

  // The session's permission state. The preset and the approval override are read when asked:
  // disposal changes them.
  let preset = sc.preset;
  let override = sc.policy.override;
  let migrated = false;

  // Signals.
  const caller = new AbortController();
  const lifecycle = new AbortController();
  let closing = false;
  const abortCaller = () => {
    if (!caller.signal.aborted) caller.abort(new Error(CALLER_ABORT_MESSAGE));
  };
  /**
   * The integration is disposed, as shipped: it stops admitting, moves every listed session that
   * is in Auto to `danger-full-access` (which writes the approval override `never`), then aborts
   * its lifecycle.
   */
  const abortLifecycle = () => {
    if (closing) return;
    closing = true;
    if (sc.session.listed && preset === 'auto') {
      preset = 'danger-full-access';
      override = 'never';
      migrated = true;
    }
    lifecycle.abort(new Error(LIFECYCLE_ABORT_MESSAGE));
  };
  if (sc.abort === 'caller-before-dispatch') abortCaller();
  if (sc.abort === 'lifecycle-before-review') abortLifecycle();

  let reviewAbortFired = false;
  /** caller-during-review / lifecycle-after-review: fire once, while the review is in flight. */
  const fireDuringReview = () => {
    if (reviewAbortFired) return;
    reviewAbortFired = true;
    if (sc.abort === 'caller-during-review') abortCaller();
    if (sc.abort === 'lifecycle-after-review') abortLifecycle();
  };

  // The session and the call.
  const session = { id: 'session-1', route: { ...sc.session.route } };
  let consecutiveFailures = sc.session.consecutive_failures;
  const exec = {
    name: sc.tool.name,
    callId: 'call-1',
    kind: sc.tool.call,
    parent: sc.tool.call === 'ptc-inner' ? { name: 'run_code', callId: 'call-0' } : undefined,
    agent: sc.agent ? { id: 'agent-1', session } : undefined,
    signal: caller.signal,
    arguments: {},
  };

  // The reviewer client.
  const llm = {
    request(opts = {}) {
      const index = rec.attempts++;
      rec.trace.push('review');
      rec.routes.push(`${opts.provider}/${opts.model}`);
      const { signal, ...rest } = opts;
      rec.requests.push(rest);
      const attempt = sc.reviewer[Math.min(index, sc.reviewer.length - 1)];
      const promise = new Promise((resolve, reject) => {
        if (attempt.shape === 'hang') {
          // Never settles on its own; only its signal ends it.
          if (!signal) return;
          const end = () => {
            if (caller.signal.aborted || lifecycle.signal.aborted) rec.signalEnded.add(index);
            resolve([
              { type: 'finish', reason: { kind: 'aborted', failure: { code: 'ABORTED', message: abortMessage(signal.reason) } } },
            ]);
          };
          if (signal.aborted) end();
          else signal.addEventListener('abort', end, { once: true });
          return;
        }
        // Every other attempt settles with what the script says after delay_ms, whatever the
        // signal does meanwhile (AR-CANCEL-5: the review still settles with what the reviewer produced).
        clock.setTimeout(() => {
          if (attempt.shape === 'throw') reject(clone(attempt.value));
          else resolve(chunksOf(attempt));
        }, attempt.delay_ms, 0);
      });
      fireDuringReview();
      return promise;
    },
  };

  // The approval service (spec chapter 6).
  const overrideOf = () => (override === null ? undefined : override);
  const effectivePolicy = () => override ?? sc.policy.default ?? 'ask';
  const approval = {
    overrideOf: (_session) => overrideOf(),
    effectivePolicy: (_session) => effectivePolicy(),
    /** AR-APPROVAL-2/4. Resolves to 'allowed-once' | 'rejected' | 'cancelled' | 'unavailable'. */
    async request(req = {}) {
      rec.trace.push('approval');
      const record = {
        reason: typeof req.reason === 'string' ? req.reason : null,
        display_reason: displayReasonOf(req.displayReason ?? req.display_reason),
        answer: null,
        prompted: false,
      };
      rec.approval = record;
      if (sc.approval === 'throws') {
        // Thrown before the service checks the signal or the policy (AR-APPROVAL-4).
        record.answer = 'throws';
        rec.approvalThrew = true;
        throw new Error(APPROVAL_THREW_MESSAGE);
      }
      if (req.signal && req.signal.aborted) record.answer = 'cancelled';
      else if (effectivePolicy() === 'never') record.answer = 'rejected';
      else {
        record.prompted = true;
        record.answer = sc.approval;
      }
      await null;
      return record.answer;
    },
  };

  // The rest of the pre-execute chain, ending in allow.
  const next = () => {
    rec.trace.push('downstream');
    if (sc.abort === 'lifecycle-during-downstream') abortLifecycle();
    // A pass-through call: the caller aborts while the pre-execute stage runs.
    if (sc.abort === 'caller-during-review') fireDuringReview();
    const decision = clone(sc.downstream);
    return Promise.resolve().then(() => decision);
  };

  const env = {
    profile,
    config: Object.freeze({ ...sc.config }),
    clock: {
      now: () => clock.now(),
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (id) => clock.clearTimeout(id),
      sleep: (ms) => new Promise((resolve) => clock.setTimeout(resolve, ms)),
    },
    lifecycle: {
      signal: lifecycle.signal,
      get closing() {
        return closing;
      },
      migrated: (_session) => migrated,
    },
    permissionPresets: { current: (_session) => preset },
    approval,
    tools: {
      headerSchemas: (e) => fakeSchemas((e || exec).name, sc.schema.header),
      registrySchemas: (e) => fakeSchemas((e || exec).name, sc.schema.registry),
    },
    llm,
    sessions: {
      route: (s) => ({ ...(s || session).route }),
      consecutiveFailures: (_session) => consecutiveFailures,
      setConsecutiveFailures: (_session, n) => {
        consecutiveFailures = n;
      },
    },
    observe: {
      reviewFailure(failure) {
        rec.failure = {
          class: String(failure.class),
          message: String(failure.message),
          implementationDefined: Boolean(failure.implementationDefined),
        };
        // A review that fails without any request (its schema did not resolve) ends here: the
        // during-review abort points fire now, before the gate acts on the failure.
        if (rec.attempts === 0) fireDuringReview();
      },
    },
    log,
  };

  const body = () => {
    rec.trace.push('body');
  };

  return {
    scenario: sc,
    profile,
    exec,
    next,
    env,
    clock,
    rec,
    body,
    session,
    getConsecutiveFailures: () => consecutiveFailures,
  };
}

function displayReasonOf(d) {
  if (d === undefined || d === null) return null;
  if (!isObject(d) || typeof d.en !== 'string') throw new Error(`invalid display reason: ${JSON.stringify(d)}`);
  return { en: d.en, zh: typeof d.zh === 'string' ? d.zh : d.en };
}

/** Check a listener decision and convert it to the outcome's form. */
function listenerRecord(d) {
  if (!isObject(d)) throw new Error(`the gate returned ${JSON.stringify(d)}, not a decision object`);
  switch (d.kind) {
    case 'allow':
      return { kind: 'allow' };
    case 'cancel':
      return { kind: 'cancel' };
    case 'deny': {
      if (typeof d.reason !== 'string') throw new Error('the gate returned a deny without a string reason');
      const out = { kind: 'deny', reason: d.reason };
      if (d.info !== undefined && d.info !== null) {
        if (!isObject(d.info)) throw new Error('the gate returned a deny whose info is not an object');
        out.info = clone(d.info);
      }
      return out;
    }
    case 'ask': {
      const out = { kind: 'ask' };
      if (d.reason !== undefined && d.reason !== null) {
        if (typeof d.reason !== 'string') throw new Error('the gate returned an ask whose reason is not a string');
        out.reason = d.reason;
      }
      const display = displayReasonOf(d.displayReason ?? d.display_reason);
      if (display !== null) out.display_reason = display;
      return out;
    }
    default:
      throw new Error(`the gate returned a decision of unknown kind ${JSON.stringify(d.kind)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The tool runtime (spec chapters 5-8)
// ---------------------------------------------------------------------------------------------

/** Run one call through the pre-execute stage (the gate first) and materialize its decision. */
async function runToolCall(world, gate) {
  const { exec, env, rec, next, body } = world;
  const refuse = (text, info) => {
    rec.result = { executed: false, text, info: info ? clone(info) : null };
  };
  const abortedBeforeDispatch = () => refuse(`Error: ${RUNTIME_TEXT.abortedBeforeDispatch}`, INFO_ABORTED);
  const dispatch = () => {
    if (exec.signal.aborted) return abortedBeforeDispatch(); // AR-RESULT-1
    body();
    rec.result = { executed: true, text: null, info: null };
  };

  // AR-CANCEL-1: the caller aborted before the stage: no listener runs.
  if (exec.signal.aborted) return abortedBeforeDispatch();

  let decision;
  try {
    decision = await gate(exec, next, env);
  } catch (error) {
    throw new Error(`the gate threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
  rec.listener = listenerRecord(decision);
  rec.gateReturned = true;

  switch (rec.listener.kind) {
    case 'allow':
      return dispatch();
    case 'deny':
      return refuse(`Error: ${rec.listener.reason}`, rec.listener.info); // AR-RESULT-2
    case 'cancel':
      return abortedBeforeDispatch(); // AR-RESULT-4
    case 'ask': {
      // AR-APPROVAL-1: nobody to ask for a call without an agent.
      if (!exec.agent) return refuse(`Error: ${RUNTIME_TEXT.noAgent(exec.name)}`, null);
      let answer;
      try {
        answer = await env.approval.request({
          agent: exec.agent,
          toolName: exec.name,
          callId: exec.callId,
          reason: rec.listener.reason,
          displayReason: rec.listener.display_reason,
          signal: exec.signal,
        });
      } catch (error) {
        // AR-APPROVAL-4 / AR-RESULT-5
        return refuse(`Error: ${error instanceof Error ? error.message : String(error)}`, null);
      }
      switch (answer) {
        case 'allowed-once':
          return dispatch();
        case 'rejected':
          return refuse(`Error: ${RUNTIME_TEXT.userRejected(exec.name)}`, null);
        case 'cancelled':
          if (exec.signal.aborted) return abortedBeforeDispatch(); // AR-RESULT-3
          return refuse(`Error: ${RUNTIME_TEXT.approvalCancelled(exec.name)}`, null);
        default:
          return refuse(`Error: ${RUNTIME_TEXT.approvalUnavailable(exec.name)}`, null);
      }
    }
    default:
      throw new Error('unreachable');
  }
}

// ---------------------------------------------------------------------------------------------
// Driving the virtual clock and assembling the outcome
// ---------------------------------------------------------------------------------------------

const MAX_TIMER_STEPS = 100000;

async function flushJobs() {
  // Promise jobs all run before a macrotask; three turns also cover a gate that hops through
  // setImmediate/queueMicrotask on its own.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Run `promise` to completion on `clock`; `{ done: false }` when it can never complete. */
async function drive(promise, clock) {
  const state = { done: false, error: undefined, failed: false };
  promise.then(
    () => {
      state.done = true;
    },
    (error) => {
      state.done = true;
      state.failed = true;
      state.error = error;
    },
  );
  for (let step = 0; step <= MAX_TIMER_STEPS; step++) {
    await flushJobs();
    if (state.done) return state;
    if (!clock.fireNext()) return state; // nothing pending: it never settles
  }
  throw new Error(`the call was still running after ${MAX_TIMER_STEPS} virtual timers`);
}

function scalarLength(s) {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function assembleOutcome(world) {
  const { scenario: sc, rec, profile } = world;
  const settled = rec.result !== null;
  const listener = rec.gateReturned ? rec.listener : null;
  const result = settled ? rec.result : { executed: false, text: null, info: null };
  const outcome = {
    id: sc.id,
    settled,
    listener,
    approval: rec.approval,
    result,
    review: {
      attempts: rec.attempts,
      failure: rec.failure ? { class: rec.failure.class, message: rec.failure.message } : null,
      routes: rec.routes.slice(),
      consecutive_failures: profile === 'resilient' ? world.getConsecutiveFailures() : null,
    },
    trace: rec.trace.slice(),
  };

  // prefix_only (AR-CONV-3): texts whose tail is implementation-defined.
  const prefixOnly = {};
  const lastSignalEnded = rec.attempts > 0 && rec.signalEnded.has(rec.attempts - 1);
  if (rec.failure && (rec.failure.implementationDefined || lastSignalEnded) && rec.failure.message !== '') {
    const m = rec.failure.message;
    prefixOnly['/review/failure/message'] = 0;
    const texts = [
      ['/listener/reason', listener && listener.reason],
      ['/listener/display_reason/en', listener && listener.display_reason && listener.display_reason.en],
      ['/listener/display_reason/zh', listener && listener.display_reason && listener.display_reason.zh],
      ['/approval/reason', rec.approval && rec.approval.reason],
      ['/approval/display_reason/en', rec.approval && rec.approval.display_reason && rec.approval.display_reason.en],
      ['/approval/display_reason/zh', rec.approval && rec.approval.display_reason && rec.approval.display_reason.zh],
      ['/result/text', result.text],
    ];
    for (const [pointer, text] of texts) {
      if (typeof text !== 'string') continue;
      const at = text.indexOf(m);
      if (at >= 0) prefixOnly[pointer] = scalarLength(text.slice(0, at));
    }
  }
  if (rec.approvalThrew && typeof result.text === 'string') prefixOnly['/result/text'] = scalarLength('Error: ');
  if (Object.keys(prefixOnly).length > 0) {
    outcome.prefix_only = Object.fromEntries(Object.keys(prefixOnly).sort().map((k) => [k, prefixOnly[k]]));
  }
  return outcome;
}

/**
 * Decide one scenario with `gate` under `profile`. Resolves to the outcome of scenario.md;
 * rejects when the scenario is invalid or the gate throws or returns something that is not a
 * decision.
 */
async function runScenario(rawScenario, gate, options = {}) {
  const profile = options.profile || 'baseline';
  const world = createWorld(rawScenario, profile, options);
  const state = await drive(runToolCall(world, gate), world.clock);
  if (state.failed) throw state.error;
  return assembleOutcome(world);
}

// ---------------------------------------------------------------------------------------------
// The protocol loop (spec/protocol.md)
// ---------------------------------------------------------------------------------------------

/**
 * Serve `gate` over the adapter protocol on stdin/stdout.
 *
 *   serve({
 *     implementation: { name, version, language, homepage? },
 *     profiles: ['baseline'],            // the profiles the gate can be checked against
 *     gate,                              // (exec, next, env) => Promise<decision>
 *   })
 *
 * `node adapter.js --decide <profile>` instead reads scenarios (one JSON object per line) on stdin
 * and prints one outcome per line, like `autoreview decide`, for debugging a single scenario.
 */
function serve({ implementation, profiles = ['baseline'], gate, log: userLog } = {}) {
  if (typeof gate !== 'function') throw new TypeError('serve: gate must be a function (exec, next, env) => Promise<decision>');
  const log = userLog || ((...args) => process.stderr.write(`${args.map(String).join(' ')}\n`));
  process.on('unhandledRejection', (error) => log(`[adapter] unhandled rejection: ${error && error.stack ? error.stack : String(error)}`));

  // A lone surrogate (which JSON.parse accepts in a reviewer's text, AR-PARSE-4) travels as
  // U+FFFD, as outcome texts carry it; the runner would read a `\ud800` escape the same way.
  const write = (message) => {
    process.stdout.write(`${JSON.stringify(message, (_key, value) => (typeof value === 'string' ? value.toWellFormed() : value))}\n`);
  };

  // Exit once everything written so far has been flushed.
  const exit = () => process.stdout.write('', () => process.exit(0));

  const decideFlag = process.argv.indexOf('--decide');
  const directProfile = decideFlag >= 0 ? process.argv[decideFlag + 1] || 'baseline' : null;
  let profile = directProfile;

  const handle = async (line) => {
    if (line.trim() === '') return;
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      log(`[adapter] ignoring a line that is not JSON: ${error.message}`);
      return;
    }
    if (directProfile !== null) {
      try {
        write(await runScenario(message, gate, { profile: directProfile, log }));
      } catch (error) {
        write({ error: error && error.message ? error.message : String(error) });
      }
      return;
    }
    switch (message && message.type) {
      case 'hello':
        if (message.protocol !== PROTOCOL) log(`[adapter] the runner speaks protocol ${message.protocol}; this adapter speaks ${PROTOCOL}`);
        profile = message.profile;
        if (!profiles.includes(profile)) log(`[adapter] profile ${profile} is not among ${profiles.join(', ')}`);
        write({ type: 'hello', protocol: PROTOCOL, implementation, profiles: profiles.filter((p) => PROFILES.includes(p)) });
        return;
      case 'decide':
        try {
          const outcome = await runScenario(message.scenario, gate, { profile: profile || 'baseline', log });
          write({ type: 'outcome', seq: message.seq, outcome });
        } catch (error) {
          log(`[adapter] decide ${message.seq} failed: ${error && error.stack ? error.stack : String(error)}`);
          const text = error instanceof ScenarioError ? `invalid scenario: ${error.message}` : error && error.message ? error.message : String(error);
          write({ type: 'error', seq: message.seq, message: text });
        }
        return;
      case 'stop':
        exit();
        return;
      default:
        log(`[adapter] ignoring a message of unknown type ${JSON.stringify(message && message.type)}`);
    }
  };

  // One request at a time, in order.
  let queue = Promise.resolve();
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  rl.on('line', (line) => {
    queue = queue.then(() => handle(line)).catch((error) => log(`[adapter] ${error && error.stack ? error.stack : error}`));
  });
  rl.on('close', () => {
    queue.then(exit);
  });
}

module.exports = {
  PROTOCOL,
  RUNTIME_TEXT,
  INFO_ABORTED,
  CONFIG_DEFAULTS,
  ScenarioError,
  normalizeScenario,
  VirtualClock,
  createWorld,
  runToolCall,
  runScenario,
  assembleOutcome,
  serve,
};

// Run directly, this module would exit at once, and a check would only see an adapter that ended
// before answering hello: say what to run instead.
if (require.main === module) {
  const path = require('node:path');
  const adapter = path.relative(process.cwd(), path.join(__dirname, 'skeleton.js'));
  process.stderr.write(
    `harness.js is a module (what an adapter requires to serve its gate), not an adapter: run \`node ${adapter}\` instead\n`,
  );
  process.exitCode = 2;
}
