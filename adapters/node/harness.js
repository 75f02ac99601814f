'use strict';
/**
 * harness.js — everything an autoreview adapter needs except the gate itself.
 *
 * No dependencies beyond Node.js (>= 20). It provides:
 *
 *  - the adapter protocol loop of spec/protocol.md (`serve`): hello / decide / stop as JSON lines on
 *    stdin/stdout, one line per reply, logs on stderr only; a decide that throws becomes an `error`
 *    reply and the run goes on. It speaks protocol 2: it names what the gate can observe
 *    (`observes`) and what its framework lacks (`lacks`), and asks for canonical scenarios
 *    (`canonical`), which the runner has already read and checked and sends as a session naming
 *    every member, so the kit only takes them apart (`decode`); a runner that says protocol 1 is
 *    answered 1, but sends scenarios as written, which the kit does not read. The runner's hello
 *    carries the run's rules, which the gate gets as `host.rules` and the world follows too: nothing
 *    in the kit decides by a profile's name (spec/protocol.md, "Rules");
 *  - a scripted world built from one canonical scenario and what the runner says its world
 *    answers (schema counts, session-log errors): one session (its preset, approval policy,
 *    sandbox, request header and session log), a permission-presets service with which the gate
 *    registers the Auto preset, a sandbox policy (whether the backend confines reads, the mode, a
 *    change of it that the scenario may reject), a fake reviewer client that records what each
 *    request carries, downstream listeners ending in allow, an approval service (spec chapter 6), the caller's abort signal
 *    and the integration's disposal at the scenario's abort points (chapter 7), the tool's body
 *    (the approval requests it raises and the presets it selects, AR-APPROVAL-7/8), a virtual
 *    clock, and a recorder of each call;
 *  - a tool runtime (`runToolCall`) that runs the gate's listener as the first `tools/pre-execute`
 *    listener (or no listener once the integration is gone), asks the approval service for `ask`
 *    and materializes the decision (chapter 8), or, where the run observes confinement, a throw out
 *    of the listener as the call's final result (AR-CONFINE-3);
 *  - `runInput`, which drives all of that on the virtual clock, call by call and event by event,
 *    and assembles the outcome exactly as spec/scenario.md defines it.
 *
 * The API, typed and documented member by member — what a gate is installed with and what it
 * receives, the abort points, sessions and events, the virtual clock — is harness.d.ts, beside
 * this file; README.md shows it in use.
 */

const readline = require('node:readline');

/** The newest protocol this harness speaks; it answers a protocol-1 runner with protocol 1. */
const PROTOCOL = 2;
const WHERE_RULES_ARE = 'the runner\'s hello carries them, and `autoreview profiles --json` lists each profile\'s `rules`';

/** A rules object as the runner's hello writes it, frozen; `what` says whose, for the error. */
function checkedRules(rules, what) {
  if (!isObject(rules)) throw new TypeError(`${what}: \`rules\` is ${JSON.stringify(rules)}, not the rules object (${WHERE_RULES_ARE})`);
  return Object.freeze({ ...rules, config: Object.freeze(Array.isArray(rules.config) ? [...rules.config] : []) });
}

/**
 * The rules to decide by, as given (the runner's hello carries them); none given is an error saying
 * where rules come from. `what` says whose, for the error.
 */
function rulesFor(rules, what) {
  if (rules !== undefined && rules !== null) return checkedRules(rules, what);
  throw new Error(`${what}: no \`rules\` given: a gate decides by the run's rules, not by a profile's name (${WHERE_RULES_ARE})`);
}
/** What a gate can declare it observes under protocol 2 (spec/protocol.md). */
const OBSERVABLES = ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream', 'confinement', 'body-approvals', 'json-retries'];
/**
 * What a framework can declare it lacks under protocol 2: a reason with a denial (`deny-reason`),
 * a reason with an approval request (`ask-reason`), an abort signal that is not a lifecycle one
 * (`abort-signal`). A case that needs one of them is not applicable to the gate.
 */
const CAPABILITIES = ['deny-reason', 'ask-reason', 'abort-signal'];
/**
 * The resilient profile's optional features (spec/protocol.md, "Optional features"): the failure
 * count and hint (`failure-hint`), the failure class in the outcome and INFO-FAILED
 * (`failure-class`). A hello without a list implements every one.
 */
const FEATURES = ['failure-hint', 'failure-class'];

// ---------------------------------------------------------------------------------------------
// Texts the tool runtime, the approval service, the presets service and the session log render
// (spec chapter 9). The gate's own texts belong to the gate, not here.
// ---------------------------------------------------------------------------------------------

const RUNTIME_TEXT = {
  refused: (message) => `Error: ${message}`, // MSG-ERROR-PREFIX
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
// What the shell around a bare listener (`shellAround`) says, as the shipped integration does.
const LIFECYCLE_ABORT_MESSAGE = 'auto-review integration disposed';
const INTEGRATION_CLOSING = 'auto-review: integration is closing';

/**
 * The deployment's presets besides Auto, and the approval policy selecting each one writes.
 * MSG-ERR-NO-AUTO is worded by the deployment (AR-DISPOSE-4): this world's presets service throws
 * as the shipped service's `set` does.
 */
const PRESET_TABLE = Object.freeze({ 'read-only': 'ask', 'workspace-write': 'ask', 'danger-full-access': 'never' });
/**
 * The sandbox mode selecting each of those presets writes beside its policy (the presets service
 * writes a preset's bundle). Auto's is the registered Auto preset's (`registerAuto(admit, { sandbox
 * })`), `danger-full-access` unless it says otherwise (AR-SCOPE-5).
 */
const PRESET_MODES = Object.freeze({ 'read-only': 'read-only', 'workspace-write': 'workspace-write', 'danger-full-access': 'danger-full-access' });
const FULL_ACCESS = 'danger-full-access';
/** The sandbox modes an Auto session can hold (spec/scenario.md, "Sandbox"). */
const SANDBOX_MODES = ['danger-full-access', 'workspace-write'];
/** A session's sandbox when the canonical scenario names none (`session.sandbox` is written only off it). */
const DEFAULT_SANDBOX = Object.freeze({ mode: FULL_ACCESS, confines_reads: false, narrowing: 'accepted' });
const AUTO = 'auto';
const NO_AUTO_PREFIX = 'permission: unknown preset "auto" (known: ';
const PRESET_TEXT = {
  unknown: (name) => `permission: unknown preset "${name}" (known: ${Object.keys(PRESET_TABLE).join(', ')})`,
  autoRegistered: 'permission: preset "auto" is already registered',
};

/**
 * What a reviewer request asks, for telling a repair from a retry (AR-REVIEW-12, AR-RES-RETRY-2):
 * its system text and its messages. A retry repeats the review's first request unchanged; a repair
 * asks the reviewer to repair its answer, in whatever words, so what it asks differs.
 */
const promptOf = (options) => JSON.stringify([options.system ?? null, options.messages ?? null]);

/** The working directories the world knows: the request header's, and the deployment's (AR-RES-CWD-1). */
const HEADER_DIRECTORY = '/home/user/project';
const DEPLOYMENT_DIRECTORY = '/srv/agent';

// ---------------------------------------------------------------------------------------------
// Canonical scenarios (spec/protocol.md, "Canonical scenarios"). The runner has read and checked
// each scenario and sends it as a session naming every member, so decoding is taking it apart:
// no defaults, no rules. A line that is not one is the runner's defect, reported in one line.
// ---------------------------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const LIFECYCLE_ABORTS = ['lifecycle-before-review', 'lifecycle-after-review', 'lifecycle-during-downstream'];

/**
 * A canonical scenario's items, each `{ call }` or `{ event }`; a call carries what the world
 * answers for it (`world`, the decide line's member of that name: schema counts, session-log error).
 */
function decode(scenario, world) {
  if (!isObject(scenario) || !Array.isArray(scenario.calls) || !isObject(scenario.session) || !Array.isArray(world) || world.length !== scenario.calls.length) {
    throw new Error(`not a canonical scenario with its world (the runner sends those to an adapter whose hello says "canonical": true): ${JSON.stringify(scenario)?.slice(0, 200)}`);
  }
  let earlier = false; // whether a call came before this item
  const items = scenario.calls.map((item, i) => {
    if (has(item, 'event')) return { event: item };
    const call = { ...item, body: decodeBody(item, `calls[${i}]`, earlier), world: world[i] };
    earlier = true;
    return { call };
  });
  return { ...scenario, config: decodeConfig(scenario.config), items };
}

/** `config.max_json_retries` when the canonical form leaves it out (it writes it only off 1). */
const DEFAULT_MAX_JSON_RETRIES = 1;
/** The most requests after invalid JSON a scenario scripts (AR-RES-CONFIG-1). */
const MOST_JSON_RETRIES = 5;

/**
 * The scenario's `config`, with `max_json_retries` (AR-JSON-RETRY-1) always named: the canonical
 * form writes it only when it is not 1, so it is 1 when absent, and a whole number from 0 to 5
 * otherwise. The other members are the runner's, passed on as named.
 */
function decodeConfig(config) {
  if (!isObject(config)) throw new Error(`not a canonical scenario: config: expected an object, got ${json(config)}`);
  if (!has(config, 'max_json_retries')) return { ...config, max_json_retries: DEFAULT_MAX_JSON_RETRIES };
  const retries = config.max_json_retries;
  if (!Number.isInteger(retries) || retries < 0 || retries > MOST_JSON_RETRIES) {
    throw new Error(`not a canonical scenario: config.max_json_retries: expected a whole number from 0 to ${MOST_JSON_RETRIES}, got ${json(retries)}`);
  }
  return { ...config };
}

// ---------------------------------------------------------------------------------------------
// A call's body (spec/scenario.md, "Body"): what the tool's body does when, and only when, it runs.
// ---------------------------------------------------------------------------------------------

/** Which call a body's approval request names (`raise.call_id`). */
const RAISED_CALL_IDS = ['own', 'none', 'unreviewed', 'finished'];
/** What the human may answer a body's request. */
const RAISE_ANSWERS = ['allowed-once', 'rejected', 'cancelled', 'unavailable'];
/** The presets a body may select, leaving Auto (`leave_auto`). */
const LEFT_PRESETS = ['workspace-write', 'danger-full-access'];
/** The call id of a body's request that names a call no call of the session has (`unreviewed`). */
const UNREVIEWED_CALL_ID = 'call-unreviewed';
const json = (v) => (v === undefined ? 'nothing' : JSON.stringify(v));
const oneOf = (values) => values.map((v) => JSON.stringify(v)).join(', ');

/**
 * A call's `body` (default `[]`: the canonical form writes it only when non-empty), each step
 * checked: exactly one of `{"raise": {call_id, reason, answer?}}` and `{"leave_auto": preset}`,
 * with nothing else. A body the runtime could not run is refused as the runner refuses it: any step
 * in a call without an agent, a raise where the call's `approval` is `throws` (RZ-12), a raise
 * naming a finished call where no call came before (`earlier`, RZ-11). `where` names the call, for
 * the error.
 */
function decodeBody(call, where, earlier) {
  if (!has(call, 'body')) return [];
  const fail = (at, what) => {
    throw new Error(`not a canonical scenario: ${where}.body${at}: ${what}`);
  };
  const body = call.body;
  if (!Array.isArray(body)) fail('', `expected an array of steps ({"raise": {...}} or {"leave_auto": ...}), got ${json(body)}`);
  return body.map((step, j) => {
    const at = `[${j}]`;
    const keys = isObject(step) ? Object.keys(step) : [];
    if (!isObject(step) || keys.length !== 1 || !['raise', 'leave_auto'].includes(keys[0])) {
      fail(at, `expected an object with exactly one member, "raise" or "leave_auto", got ${json(step)}`);
    }
    // RZ-12: a body acts through its call's agent and session; a call without one has no steps.
    if (call.agent === false) fail(at, 'a call without an agent has no body steps: there is no session to select a preset for, nor an agent to route a request through (RZ-12)');
    if (has(step, 'leave_auto')) {
      if (!LEFT_PRESETS.includes(step.leave_auto)) fail(`${at}.leave_auto`, `expected one of ${oneOf(LEFT_PRESETS)}, got ${json(step.leave_auto)}`);
      return { leave_auto: step.leave_auto };
    }
    const raise = step.raise;
    if (!isObject(raise)) fail(`${at}.raise`, `expected an object {"call_id", "reason", "answer"?}, got ${json(raise)}`);
    const unknown = Object.keys(raise).filter((k) => !['call_id', 'reason', 'answer'].includes(k));
    if (unknown.length > 0) fail(`${at}.raise`, `unknown member ${json(unknown[0])}; expected only "call_id", "reason" and "answer"`);
    if (!RAISED_CALL_IDS.includes(raise.call_id)) fail(`${at}.raise.call_id`, `expected one of ${oneOf(RAISED_CALL_IDS)}, got ${json(raise.call_id)}`);
    if (typeof raise.reason !== 'string') fail(`${at}.raise.reason`, `expected a string, got ${json(raise.reason)}`);
    if (has(raise, 'answer') && !RAISE_ANSWERS.includes(raise.answer)) fail(`${at}.raise.answer`, `expected one of ${oneOf(RAISE_ANSWERS)}, got ${json(raise.answer)}`);
    // What the runner refuses as unrealizable, refused here too rather than run some other way.
    if (call.approval === 'throws') fail(`${at}.raise`, 'the call\'s "approval" is "throws": no turn is open, so its body raises no request (RZ-12)');
    if (raise.call_id === 'finished' && !earlier) fail(`${at}.raise.call_id`, '"finished" names the session\'s most recent earlier call, and no call comes before this one (RZ-11)');
    const out = { call_id: raise.call_id, reason: raise.reason };
    if (has(raise, 'answer')) out.answer = raise.answer;
    return { raise: out };
  });
}

/** Which of the five attempts an attempt is (a `blocks` attempt names `finish` too). */
const shapeOf = (attempt) => ['hang', 'text', 'blocks', 'throw', 'finish'].find((k) => has(attempt, k));

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
// The scripted world: one session, the host's services, the integration and each call
// ---------------------------------------------------------------------------------------------

const clone = (v) => (v === undefined ? undefined : structuredClone(v));

/** `count` schemas of the name `name`. */
function fakeSchemas(name, count) {
  return Array.from({ length: count }, (_, i) => ({
    name,
    description: `scripted schema of ${JSON.stringify(name)}${count > 1 ? ` (${i + 1} of ${count})` : ''}`,
    parameters: { type: 'object', properties: {} },
  }));
}

function chunksOf(attempt) {
  switch (shapeOf(attempt)) {
    case 'text':
      return [
        { type: 'block', block: { type: 'text', text: attempt.text } },
        { type: 'finish', reason: { kind: 'stop' } },
      ];
    case 'blocks': {
      const chunks = attempt.blocks.map((b) => ({ type: 'block', block: { type: b.type, text: b.text } }));
      // `finish: null`: the stream ends after its blocks without a terminal finish (AR-PARSE-1).
      if (attempt.finish !== null) chunks.push({ type: 'finish', reason: { kind: attempt.finish ?? 'stop' } });
      if (attempt.data_after_finish) chunks.push({ type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } });
      return chunks;
    }
    case 'finish': {
      const { kind, code, message } = attempt.finish;
      return [{ type: 'finish', reason: { kind, failure: { code, message: clone(message) } } }];
    }
    default:
      throw new Error(`no chunks for a ${shapeOf(attempt)} attempt`);
  }
}

/**
 * What one reviewer request carried, as the outcome records it (AR-REVIEW-12). `firstPrompt` is
 * what the review's first request asked (`promptOf`), or null for the first request itself: a
 * later request that asks something else is a repair.
 */
function requestRecord(options, firstPrompt) {
  let tools = 0;
  if (Array.isArray(options.tools)) tools = options.tools.length;
  else if (isObject(options.tools)) tools = Object.keys(options.tools).length;
  return {
    route: `${options.provider}/${options.model}`,
    temperature: typeof options.temperature === 'number' ? options.temperature : null,
    tools,
    session_id: typeof options.sessionId === 'string' ? options.sessionId : null,
    repair: firstPrompt !== null && promptOf(options) !== firstPrompt,
  };
}

/**
 * A hook of the gate's (an `approval/request` or `tools/post-execute` listener) threw or answered
 * something that is not an answer: the decide fails, saying so, as for a listener's bad decision.
 */
class GateDefect extends Error {}

const messageOf = (error) => (error instanceof Error ? error.message : String(error));
const describe = (error) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * The world of one canonical scenario (`sc`, with `decode`'s `items`): one session,
 * the host's services, and the integration `install` makes. Returns `{ runCall, runEvent }`, which
 * run the session's items one after the other.
 */
function openSession(sc, profile, rules, install, options = {}) {
  const log = options.log || ((...args) => console.error(...args));
  const observes = options.observes || OBSERVABLES;
  const clock = new VirtualClock();

  // The session's permission state. It is read whenever asked: selecting a preset and disposal
  // write it.
  const knobs = { preset: sc.preset, override: sc.policy.override };
  let admitAuto = null; // the admission hook of the registered Auto preset; null while none is
  let autoMode = null; // the registered Auto preset's `sandbox(session)`, or null: Full access's mode

  // The session's sandbox (spec/scenario.md, "Sandbox"): the mode it runs its calls under, whether
  // its backend confines reads (a `backend` event changes it), and what a change of the mode meets.
  const stated = { ...DEFAULT_SANDBOX, ...(isObject(sc.session.sandbox) ? sc.session.sandbox : {}) };
  const sandbox = { mode: stated.mode, confinesReads: stated.confines_reads === true, narrowing: stated.narrowing };

  const logErrors = new Map(); // call id -> what finding that call in the session log throws
  const session = {
    id: sc.session.id,
    route: { ...sc.session.route },
    workingDirectory: sc.session.working_directory ? HEADER_DIRECTORY : undefined,
    log: {
      /** Find the pending call in the session log (AR-REVIEW-11): its logged action, or why not. */
      pendingAction(exec) {
        const error = logErrors.get(exec.callId) ?? null;
        if (error !== null) throw new Error(error);
        return { name: exec.name, arguments: clone(exec.arguments) };
      },
    },
  };

  /** The permission-presets service: the deployment's table, plus Auto while an integration registers it. */
  const permissionPresets = {
    current: (_session) => (knobs.preset === AUTO && admitAuto === null ? 'custom' : knobs.preset),
    set(_session, name, options = {}) {
      if (name === AUTO) {
        if (admitAuto === null) throw new Error(PRESET_TEXT.unknown(name)); // AR-DISPOSE-4
        admitAuto(session); // AR-DISPOSE-5: the integration may refuse
        // AR-SCOPE-5: selecting Auto writes its mode (the registered preset's, Full access's
        // unless it says otherwise) and `ask`.
        const mode = autoMode === null ? FULL_ACCESS : autoMode(session);
        if (!SANDBOX_MODES.includes(mode)) throw new Error(`the Auto preset's sandbox(session) returned ${JSON.stringify(mode)}, not one of ${SANDBOX_MODES.join(', ')}`);
        sandbox.mode = mode;
        knobs.override = 'ask';
      } else {
        if (!has(PRESET_TABLE, name)) throw new Error(PRESET_TEXT.unknown(name));
        sandbox.mode = PRESET_MODES[name]; // the preset's bundle: its mode and its policy,
        // unless the session keeps its policy (AR-CONFINE-5: disposal's move of a confined session)
        if (!(isObject(options) && options.keepPolicy === true)) knobs.override = PRESET_TABLE[name];
      }
      knobs.preset = name;
    },
    registerAuto(admit, preset = {}) {
      if (admitAuto !== null) throw new Error(PRESET_TEXT.autoRegistered);
      const hook = typeof admit === 'function' ? admit : () => {};
      const mode = isObject(preset) && typeof preset.sandbox === 'function' ? preset.sandbox : null;
      admitAuto = hook;
      autoMode = mode;
      return () => {
        if (admitAuto === hook) {
          admitAuto = null;
          autoMode = null;
        }
      };
    },
  };
  const overrideOf = (_session) => knobs.override ?? undefined;
  const effectivePolicy = (_session) => knobs.override ?? sc.policy.default;

  /**
   * The hooks an integration registers on (`host.on`), each a list run in order: the answerers of
   * approval requests (`approval/request`, before the human), and what runs once a call's result
   * is produced (`tools/post-execute`). `prepend` puts a listener first. Each registration returns
   * its own removal.
   */
  const hooks = { 'approval/request': [], 'tools/post-execute': [] };
  const on = (event, listener, options = {}) => {
    const list = has(hooks, event) ? hooks[event] : null;
    if (list === null) throw new TypeError(`host.on: unknown event ${JSON.stringify(event)}; known: ${Object.keys(hooks).join(', ')}`);
    if (typeof listener !== 'function') throw new TypeError(`host.on(${JSON.stringify(event)}, listener): the listener is ${typeof listener}, not a function`);
    const entry = { listener };
    if (isObject(options) && options.prepend === true) list.unshift(entry);
    else list.push(entry);
    return () => {
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
    };
  };

  /**
   * The approval service (spec chapter 6) answering `request` (`{ agent, callId, toolName, reason,
   * signal, ... }`); `human()` is the scripted human's answer. In order (AR-APPROVAL-8): the
   * service's own answers — an aborted caller `cancelled`, the session's effective policy `never`
   * (read now) `rejected` — then each `approval/request` answerer in turn (one passes the request
   * on by calling `next()`), then the human. Resolves to `{ answer, by }`, `by` being `service`,
   * `gate` (an answerer answered; the human was not asked) or `human`.
   */
  const answerApproval = async (request, human) => {
    if (request.signal && request.signal.aborted) return { answer: 'cancelled', by: 'service' };
    if (effectivePolicy(session) === 'never') return { answer: 'rejected', by: 'service' };
    const answerers = hooks['approval/request'].map((entry) => entry.listener);
    let humanAsked = false;
    const ask = async (i) => {
      if (i === answerers.length) {
        humanAsked = true;
        return human();
      }
      let passed = false;
      const next = () => {
        if (passed) return Promise.reject(new GateDefect('an approval/request listener called next() twice'));
        passed = true;
        return ask(i + 1);
      };
      let answer;
      try {
        answer = await answerers[i](request, next);
      } catch (error) {
        if (error instanceof GateDefect) throw error;
        throw new GateDefect(`an approval/request listener threw: ${describe(error)}`);
      }
      if (!RAISE_ANSWERS.includes(answer)) throw new GateDefect(`an approval/request listener answered ${json(answer)}, not one of ${oneOf(RAISE_ANSWERS)}`);
      return answer;
    };
    const answer = await ask(0);
    return { answer, by: humanAsked ? 'human' : 'gate' };
  };

  /**
   * Run the `tools/post-execute` listeners for `exec`, whose result is `result`, in order (one
   * passes on by calling `next()`); undefined when none is registered.
   */
  const postExecute = (exec, result) => {
    const listeners = hooks['tools/post-execute'].map((entry) => entry.listener);
    if (listeners.length === 0) return undefined;
    const run = async (i) => {
      if (i === listeners.length) return;
      let passed = false;
      const next = () => {
        if (passed) return Promise.reject(new GateDefect('a tools/post-execute listener called next() twice'));
        passed = true;
        return run(i + 1);
      };
      try {
        await listeners[i](exec, clone(result), next);
      } catch (error) {
        if (error instanceof GateDefect) throw error;
        throw new GateDefect(`a tools/post-execute listener threw: ${describe(error)}`);
      }
    };
    return run(0);
  };

  /**
   * The sandbox policy (AR-CONFINE-1..4): the backend's fact, the session's mode, and a change of
   * the mode, which throws the scenario's rejection verbatim (`narrowing: {"rejected": message}`)
   * and keeps the mode. Writing the mode the session already has changes nothing, so meets nothing.
   */
  const sandboxPolicy = {
    confinesReads: (_session) => sandbox.confinesReads,
    modeOf: (_session) => sandbox.mode,
    setSandboxMode(_session, mode) {
      if (!SANDBOX_MODES.includes(mode)) throw new TypeError(`setSandboxMode: ${JSON.stringify(mode)} is not a sandbox mode (${SANDBOX_MODES.join(', ')})`);
      if (mode === sandbox.mode) return;
      if (isObject(sandbox.narrowing) && has(sandbox.narrowing, 'rejected')) throw new Error(String(sandbox.narrowing.rejected));
      sandbox.mode = mode;
    },
  };

  const host = Object.freeze({
    profile,
    rules,
    config: Object.freeze({ ...sc.config }),
    clock: Object.freeze({
      now: () => clock.now(),
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (id) => clock.clearTimeout(id),
      sleep: (ms) => new Promise((resolve) => clock.setTimeout(resolve, ms)),
    }),
    permissionPresets: Object.freeze(permissionPresets),
    approval: Object.freeze({ overrideOf, effectivePolicy }),
    on,
    sandboxPolicy: Object.freeze(sandboxPolicy),
    sessions: Object.freeze({
      list: () => (sc.session.listed ? [session] : []),
      route: (s) => ({ ...(s || session).route }),
    }),
    workingDirectory: Object.freeze({ ensure: (s) => (s || session).workingDirectory ?? DEPLOYMENT_DIRECTORY }),
    log,
  });

  // The integration: installed, being disposed of, or gone (null).
  let installed = null; // { integration, restored }
  let disposal = null; // the settling of a disposal under way
  const installNow = (restored) => {
    const integration = install(host, restored);
    if (!isObject(integration) || typeof integration.listener !== 'function' || typeof integration.dispose !== 'function') {
      throw new Error('install(host, restored) must return { listener, dispose }');
    }
    installed = { integration, restored };
    disposal = null;
  };
  /** Start disposing of the installed integration, once; its effects happen while dispose() runs. */
  const beginDisposal = () => {
    if (installed === null || disposal !== null) return;
    try {
      disposal = Promise.resolve(installed.integration.dispose());
    } catch (error) {
      disposal = Promise.reject(error);
    }
    disposal.catch(() => {}); // reported by finishDisposal
  };
  /** Let the disposal settle; the integration is gone afterwards. */
  const finishDisposal = async () => {
    beginDisposal();
    if (disposal === null) return;
    const state = await drive(disposal, clock);
    if (state.failed) throw new Error(`dispose() failed: ${describe(state.error)}`);
    if (!state.done) log('[adapter] dispose() never settled; the integration is dropped anyway');
    installed = null;
    disposal = null;
  };
  /** The failures in a row the integration counts for the session (AR-RES-HINT-1); 0 with none installed. */
  const countOf = (used) => {
    if (used === null) return 0;
    if (typeof used.integration.consecutiveFailures !== 'function') return used.restored.consecutiveFailures.get(session.id) ?? 0;
    const n = used.integration.consecutiveFailures(session);
    if (!Number.isInteger(n) || n < 0) throw new Error(`consecutiveFailures(session) returned ${JSON.stringify(n)}, not a count`);
    return n;
  };

  installNow({ consecutiveFailures: new Map([[session.id, sc.session.consecutive_failures]]) });

  // The session's agent: every call with an agent is this one's, as a host's calls of one agent
  // share it (a gate may key what it keeps by it).
  const agent = { id: 'agent-1', session };
  let calls = 0;

  /** The world of one call: its recorder, signals, services and the rest of the chain. */
  function callWorld(call) {
    const n = ++calls;
    const rec = {
      trace: [],
      attempts: 0,
      routes: [],
      requests: [], // what each reviewer request carried (AR-REVIEW-12)
      firstPrompt: null, // what the review's first request asked (promptOf)
      signalEnded: new Set(), // indexes of requests a caller abort or the disposal ended
      failure: null, // { class, message, implementationDefined } as the gate reported it
      gateReturned: false,
      listener: null,
      approval: null,
      approvalThrew: false,
      result: null,
      sandboxBefore: sandbox.mode, // the session's mode when the call arrived
      bodyApprovals: [], // what each approval request the body raised came to (AR-APPROVAL-7/8)
    };

    const caller = new AbortController();
    const abortCaller = () => {
      if (!caller.signal.aborted) caller.abort(new Error(CALLER_ABORT_MESSAGE));
    };
    let disposedDuringCall = false;
    const dispose = () => {
      disposedDuringCall = true;
      beginDisposal();
    };
    if (call.abort === 'caller-before-dispatch') abortCaller();
    if (call.abort === 'lifecycle-before-review') dispose();

    let reviewAbortFired = false;
    /** caller-during-review / lifecycle-after-review: fire once, while the review is in flight. */
    const fireDuringReview = () => {
      if (reviewAbortFired) return;
      reviewAbortFired = true;
      if (call.abort === 'caller-during-review') abortCaller();
      if (call.abort === 'lifecycle-after-review') dispose();
    };

    const exec = {
      name: call.tool.name,
      callId: `call-${n}`,
      kind: call.tool.call,
      parent: call.tool.call === 'ptc-inner' ? { name: 'run_code', callId: `program-${n}` } : undefined,
      agent: call.agent ? agent : undefined,
      signal: caller.signal,
      arguments: {},
    };
    logErrors.set(exec.callId, call.world.log_error ?? null);

    // The reviewer client.
    const llm = {
      request(opts = {}) {
        const index = rec.attempts++;
        rec.trace.push('review');
        rec.routes.push(`${opts.provider}/${opts.model}`);
        if (index === 0) rec.firstPrompt = promptOf(opts);
        rec.requests.push(requestRecord(opts, index === 0 ? null : rec.firstPrompt));
        const signal = opts.signal;
        const attempt = call.reviewer[Math.min(index, call.reviewer.length - 1)];
        const promise = new Promise((resolve, reject) => {
          if (shapeOf(attempt) === 'hang') {
            // Never settles on its own; only its signal ends it.
            if (!signal) return;
            const end = () => {
              if (caller.signal.aborted || disposedDuringCall) rec.signalEnded.add(index);
              resolve([
                { type: 'finish', reason: { kind: 'aborted', failure: { code: 'ABORTED', message: messageOf(signal.reason) } } },
              ]);
            };
            if (signal.aborted) end();
            else signal.addEventListener('abort', end, { once: true });
            return;
          }
          // Every other attempt settles with what the script says after delay_ms, whatever the
          // signal does meanwhile (AR-CANCEL-5: the review still settles with what the reviewer produced).
          clock.setTimeout(() => {
            if (shapeOf(attempt) === 'throw') reject(clone(attempt.throw));
            else resolve(chunksOf(attempt));
          }, attempt.delay_ms, 0);
        });
        fireDuringReview();
        return promise;
      },
    };

    // The approval service (spec chapter 6), asked by the tool runtime.
    const approval = {
      overrideOf,
      effectivePolicy,
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
        if (call.approval === 'throws') {
          // Thrown before the service checks the signal or the policy (AR-APPROVAL-4).
          record.answer = 'throws';
          rec.approvalThrew = true;
          throw new Error(APPROVAL_THREW_MESSAGE);
        }
        // The service's own answers, then its answerers, then the human (AR-APPROVAL-8).
        const { answer, by } = await answerApproval(req, async () => call.approval);
        record.prompted = by !== 'service';
        record.answer = answer;
        return record.answer;
      },
    };

    // The rest of the pre-execute chain, ending in allow.
    const next = () => {
      rec.trace.push('downstream');
      if (call.abort === 'lifecycle-during-downstream') dispose();
      // A pass-through call: the caller aborts while the pre-execute stage runs.
      if (call.abort === 'caller-during-review') fireDuringReview();
      const { info, ...decision } = clone(call.downstream);
      if (info !== null) decision.info = info;
      return Promise.resolve().then(() => decision);
    };

    const env = {
      ...host,
      approval,
      tools: {
        headerSchemas: (e) => fakeSchemas((e || exec).name, call.world.header_schemas),
        registrySchemas: (e) => fakeSchemas((e || exec).name, call.world.registry_schemas),
      },
      llm,
      observe: {
        reviewFailure(failure) {
          rec.failure = {
            class: String(failure.class),
            message: String(failure.message),
            implementationDefined: Boolean(failure.implementationDefined),
          };
          // A review that fails without any request (its route, session or schema did not
          // resolve) ends here: the during-review abort points fire now, before the gate acts on
          // the failure.
          if (rec.attempts === 0) fireDuringReview();
        },
      },
    };

    /**
     * The tool's body, run when (and only when) the call is dispatched: its steps in order
     * (spec/scenario.md, "Body"). `leave_auto` selects a preset for the session through the
     * presets service (its mode and policy with it); `raise` asks the approval service, as a tool
     * does, with the call id the step names, and records what it came to where the run observes
     * `body-approvals` (a `raised` step in the trace, an entry of `body_approvals`).
     */
    const recordsRaises = observes.includes('body-approvals');
    const callIdOf = (named) => {
      switch (named) {
        case 'own':
          return exec.callId;
        case 'none':
          return undefined;
        case 'unreviewed':
          return UNREVIEWED_CALL_ID;
        default:
          return `call-${n - 1}`; // finished: the session's most recent earlier call
      }
    };
    const runSteps = async () => {
      for (const step of call.body) {
        if (has(step, 'leave_auto')) {
          permissionPresets.set(session, step.leave_auto);
          continue;
        }
        const { call_id: named, reason } = step.raise;
        const human = has(step.raise, 'answer') ? step.raise.answer : call.approval;
        const request = { agent: exec.agent, callId: callIdOf(named), toolName: exec.name, reason, signal: exec.signal };
        const { answer, by } = await answerApproval(request, async () => human);
        if (!recordsRaises) continue;
        rec.trace.push('raised');
        rec.bodyApprovals.push({ call_id: named, reason, answered_by: by, answer });
      }
    };
    const body = () => {
      rec.trace.push('body');
      return call.body.length === 0 ? undefined : runSteps();
    };

    // A throw out of the listener is the call's final result (AR-CONFINE-3), where the run
    // observes confinement; elsewhere the decide fails, as in kits before it.
    const materializesThrows = observes.includes('confinement');
    return {
      call,
      profile,
      rules,
      exec,
      next,
      env,
      rec,
      body,
      // The `tools/post-execute` listeners, once the call's result is produced.
      postExecute: () => postExecute(exec, rec.result),
      materializesThrows,
      log,
    };
  }

  /** Run one call: the listener of the integration installed now, or none once it is gone. */
  async function runCall(call) {
    const used = installed;
    const world = callWorld(call);
    const listener = used === null ? null : (exec, next, env) => used.integration.listener(exec, next, env);
    const state = await drive(runToolCall(world, listener), clock);
    if (state.failed) throw state.error;
    const outcome = assembleOutcome(world, {
      // AR-RES-HINT-1: the count is reported where the rules count failures, and only there.
      consecutiveFailures: rules.counts_failures ? countOf(used) : null,
      requests: observes.includes('requests'),
    });
    // AR-SESSION-2: a call with a lifecycle abort point leaves the integration disposed of.
    if (LIFECYCLE_ABORTS.includes(call.abort)) await finishDisposal();
    // The session's mode when the call arrived and when it settled (AR-CONFINE-1..4), read once
    // the disposal its lifecycle abort point stands for has run, reached during the call or not
    // (AR-DISPOSE-1, AR-SESSION-2). A call without an agent has no session, so no mode.
    if (observes.includes('confinement') && call.agent) recordSandbox(outcome, { before: world.rec.sandboxBefore, after: sandbox.mode });
    return outcome;
  }

  /** Run one lifecycle event; report the error a selection of Auto met, or null. */
  async function runEvent({ event, reselect, confines_reads: confinesReads }) {
    let error = null;
    const selectAuto = () => {
      try {
        permissionPresets.set(session, AUTO);
      } catch (thrown) {
        error = messageOf(thrown);
      }
    };
    switch (event) {
      case 'dispose':
        beginDisposal();
        if (reselect) selectAuto(); // an observer of the migration, while the integration closes
        await finishDisposal();
        break;
      case 'install':
        installNow({ consecutiveFailures: new Map() }); // AR-INSTALL-1, AR-RES-HINT-4
        break;
      case 'select-auto':
        selectAuto();
        break;
      case 'backend':
        // The session's backend starts or stops confining reads from now on (AR-CONFINE-1, -2).
        sandbox.confinesReads = confinesReads === true;
        break;
      default:
        throw new Error(`unknown event ${JSON.stringify(event)}`);
    }
    const outcome = { event, error };
    // The presets Auto is not among are the deployment's (AR-DISPOSE-4, AR-CONV-3).
    if (error !== null && error.startsWith(NO_AUTO_PREFIX)) outcome.prefix_only = { '/error': 0 };
    return outcome;
  }

  return { runCall, runEvent };
}

/**
 * The integration the harness installs around a bare listener `gate(exec, next, env)`, doing
 * what the shipped integration does around its own: Auto registered with an admission hook that
 * refuses while closing, listed Auto sessions moved to `danger-full-access` on disposal, the
 * lifecycle aborted, admitted calls awaited (AR-DISPOSE-1). Under the rule `confinement` it
 * registers Auto with the confined mode on a backend that confines reads and moves a confined
 * session to `workspace-write` instead, keeping its mode and its policy (AR-CONFINE-2, -5); narrowing a call's session is the
 * listener's own (AR-CONFINE-1). Under the rule `body_approvals` `allowed-call` it answers, as the
 * shipped integration does, the approval requests a covered call's body raises while its session
 * is in Auto, and forgets the call once its result is produced (AR-APPROVAL-7); which calls are
 * covered is the listener's to say, with env.allowCall(exec) (a no-op under `human`). The listener
 * sees env.lifecycle ({ signal, closing, migrated(session) }) and
 * env.sessions.consecutiveFailures(session) / setConsecutiveFailures(session, n), a count this
 * installation keeps.
 */
function shellAround(gate) {
  return function install(host, restored) {
    const failures = new Map(restored.consecutiveFailures);
    const lifecycle = new AbortController();
    const migrated = new Set();
    const active = new Set();
    let closing = false;
    // Under the rule `confinement`, Auto on a backend that confines reads is selected with the
    // confined mode, and disposal keeps a session's mode (AR-CONFINE-2); otherwise Full access's.
    const confines = host.rules.confinement === true;
    const unregisterAuto = host.permissionPresets.registerAuto(
      () => {
        if (closing) throw new Error(INTEGRATION_CLOSING);
      },
      { sandbox: (s) => (confines && host.sandboxPolicy.confinesReads(s) ? 'workspace-write' : FULL_ACCESS) },
    );
    // AR-APPROVAL-7 (rule `body_approvals`, missing: `human`): the calls the listener said it
    // allowed after a review the reviewer and downstream allowed, per agent, until their result.
    const answers = host.rules.body_approvals === 'allowed-call';
    const allowedCalls = new WeakMap();
    const cover = (exec) => {
      const calls = allowedCalls.get(exec.agent) ?? new Set();
      calls.add(exec.callId);
      allowedCalls.set(exec.agent, calls);
    };
    const stopAnswering = answers
      ? host.on(
          'approval/request',
          (request, next) => {
            if (request.callId === undefined || allowedCalls.get(request.agent)?.has(request.callId) !== true) return next();
            if (host.permissionPresets.current(request.agent.session) !== AUTO) return next();
            return Promise.resolve('allowed-once');
          },
          { prepend: true },
        )
      : () => {};
    const stopForgetting = answers
      ? host.on(
          'tools/post-execute',
          (exec, _result, next) => {
            if (exec.agent !== undefined) allowedCalls.get(exec.agent)?.delete(exec.callId);
            return next();
          },
          { prepend: true },
        )
      : () => {};
    const lifecycleView = Object.freeze({
      signal: lifecycle.signal,
      get closing() {
        return closing;
      },
      migrated: (s) => migrated.has(s?.id),
    });
    const sessions = {
      ...host.sessions,
      consecutiveFailures: (s) => failures.get(s?.id) ?? 0,
      setConsecutiveFailures: (s, n) => {
        failures.set(s?.id, n);
      },
    };
    return {
      listener(exec, next, env) {
        // env.allowCall(exec): the listener says the reviewer and downstream allowed this call; it
        // is covered once the listener returns allow for it.
        let allowed = false;
        const allowCall = () => {
          allowed = answers && exec.agent !== undefined;
        };
        const decision = Promise.resolve(gate(exec, next, { ...env, lifecycle: lifecycleView, sessions, allowCall })).then((d) => {
          if (allowed && isObject(d) && d.kind === 'allow') cover(exec);
          return d;
        });
        const settled = decision.then(
          () => {},
          () => {},
        );
        active.add(settled);
        settled.then(() => active.delete(settled));
        return decision;
      },
      async dispose() {
        closing = true;
        for (const s of host.sessions.list()) {
          if (host.permissionPresets.current(s) === AUTO) {
            if (confines && host.sandboxPolicy.modeOf(s) === 'workspace-write') host.permissionPresets.set(s, 'workspace-write', { keepPolicy: true });
            else host.permissionPresets.set(s, FULL_ACCESS);
            migrated.add(s.id);
          }
        }
        lifecycle.abort(new Error(LIFECYCLE_ABORT_MESSAGE));
        await Promise.allSettled([...active]);
        unregisterAuto();
        stopForgetting();
        stopAnswering();
      },
      consecutiveFailures: (s) => failures.get(s.id) ?? 0,
    };
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

/**
 * Run one call through the pre-execute stage and materialize its decision. `listener` is the
 * first listener (the gate's), or null once the integration is gone: the rest of the chain then
 * decides alone (AR-DISPOSE-4).
 */
async function runToolCall(world, listener) {
  const { exec, env, rec, next, body } = world;
  const refuse = (text, info) => {
    rec.result = { executed: false, text, info: info ? clone(info) : null };
  };
  const abortedBeforeDispatch = () => refuse(RUNTIME_TEXT.refused(RUNTIME_TEXT.abortedBeforeDispatch), INFO_ABORTED);
  const ran = () => {
    rec.result = { executed: true, text: null, info: null };
  };
  const dispatch = () => {
    if (exec.signal.aborted) return abortedBeforeDispatch(); // AR-RESULT-1
    // A body with steps runs them (its approval requests are answered asynchronously) before its
    // result is produced; an empty one is done at once.
    const running = body();
    return running && typeof running.then === 'function' ? running.then(ran) : ran();
  };

  // AR-CANCEL-1: the caller aborted before the stage: no listener runs.
  if (exec.signal.aborted) return abortedBeforeDispatch();

  let decision;
  try {
    decision = await (listener === null ? next() : listener(exec, next, env));
  } catch (error) {
    if (!world.materializesThrows) throw new Error(`the gate threw: ${describe(error)}`);
    // A throw in the pre-execute stage is the call's final result (AR-CONFINE-3), as a tool
    // runtime materializes one: `Error: <message>`, no info; the listener returned no decision
    // and nothing else runs.
    if (typeof world.log === 'function') world.log(`[adapter] the pre-execute listener of ${exec.callId} threw: ${describe(error)}`);
    return refuse(RUNTIME_TEXT.refused(messageOf(error)), null);
  }
  rec.listener = listenerRecord(decision);
  rec.gateReturned = true;

  // The decision materialized (chapter 8); then, its result produced, the `tools/post-execute`
  // listeners run (a throw out of the stage, above, bypasses them).
  const materializing = materialize(world, { refuse, abortedBeforeDispatch, dispatch });
  if (materializing && typeof materializing.then === 'function') await materializing;
  const after = typeof world.postExecute === 'function' ? world.postExecute() : undefined;
  if (after && typeof after.then === 'function') await after;
}

/**
 * Materialize the pre-execute stage's decision (`rec.listener`, as recorded): run the body, or
 * refuse the call (chapter 8), by the runtime's ways to end it.
 */
function materialize({ exec, env, rec }, { refuse, abortedBeforeDispatch, dispatch }) {
  const decision = rec.listener;
  switch (decision.kind) {
    case 'allow':
      return dispatch();
    case 'deny':
      return refuse(RUNTIME_TEXT.refused(decision.reason), decision.info); // AR-RESULT-2
    case 'cancel':
      return abortedBeforeDispatch(); // AR-RESULT-4
    case 'ask':
      // AR-APPROVAL-1: nobody to ask for a call without an agent.
      if (!exec.agent) return refuse(RUNTIME_TEXT.refused(RUNTIME_TEXT.noAgent(exec.name)), null);
      return askThenMaterialize();
    default:
      throw new Error('unreachable');
  }

  async function askThenMaterialize() {
    let answer;
    try {
      answer = await env.approval.request({
        agent: exec.agent,
        toolName: exec.name,
        callId: exec.callId,
        reason: decision.reason,
        displayReason: decision.display_reason,
        signal: exec.signal,
      });
    } catch (error) {
      // A hook of the gate's that misbehaved fails the decide; the service's own throw is the
      // call's result (AR-APPROVAL-4 / AR-RESULT-5).
      if (error instanceof GateDefect) throw error;
      return refuse(RUNTIME_TEXT.refused(messageOf(error)), null);
    }
    switch (answer) {
      case 'allowed-once':
        return dispatch();
      case 'rejected':
        return refuse(RUNTIME_TEXT.refused(RUNTIME_TEXT.userRejected(exec.name)), null);
      case 'cancelled':
        if (exec.signal.aborted) return abortedBeforeDispatch(); // AR-RESULT-3
        return refuse(RUNTIME_TEXT.refused(RUNTIME_TEXT.approvalCancelled(exec.name)), null);
      default:
        return refuse(RUNTIME_TEXT.refused(RUNTIME_TEXT.approvalUnavailable(exec.name)), null);
    }
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

/**
 * The outcome of one call (spec/scenario.md). `consecutiveFailures` is the count to report (null
 * in the baseline); `requests` whether to report each reviewer request (the run observes them).
 */
function assembleOutcome(world, { consecutiveFailures = null, requests = true } = {}) {
  const { call: sc, rec } = world;
  const settled = rec.result !== null;
  const listener = rec.gateReturned ? rec.listener : null;
  const result = settled ? rec.result : { executed: false, text: null, info: null };
  const review = {
    attempts: rec.attempts,
    failure: rec.failure ? { class: rec.failure.class, message: rec.failure.message } : null,
    routes: rec.routes.slice(),
  };
  if (requests) review.requests = rec.requests.slice();
  review.consecutive_failures = consecutiveFailures;
  const outcome = {
    id: sc.id,
    settled,
    listener,
    approval: rec.approval,
    result,
    review,
    trace: rec.trace.slice(),
  };
  // What each approval request the body raised came to (where the run observes `body-approvals`),
  // left out when it raised none, as the reference writes it.
  if (rec.bodyApprovals.length > 0) outcome.body_approvals = rec.bodyApprovals.map((entry) => ({ ...entry }));

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
  if (rec.approvalThrew && typeof result.text === 'string') {
    // The thrown message is implementation-defined: what the refusal puts before it is normative.
    prefixOnly['/result/text'] = scalarLength(RUNTIME_TEXT.refused('\u0000').split('\u0000')[0]);
  }
  if (Object.keys(prefixOnly).length > 0) {
    outcome.prefix_only = Object.fromEntries(Object.keys(prefixOnly).sort().map((k) => [k, prefixOnly[k]]));
  }
  // A copy: a call left pending may still move later (a disposal ends its request), after its
  // outcome was taken.
  return clone(outcome);
}

/**
 * A call outcome's `sandbox`, `{ before, after }` (where the run observes confinement), left out
 * when full access throughout, as the reference writes it.
 */
function recordSandbox(outcome, { before, after }) {
  if (before !== FULL_ACCESS || after !== FULL_ACCESS) outcome.sandbox = { before, after };
}

/** The installer for `serve`'s or `runInput`'s options: `install`, or a bare `gate` in a shell. */
function installerOf({ install, gate } = {}) {
  if (typeof install === 'function') return install;
  if (typeof gate === 'function') return shellAround(gate);
  throw new TypeError('give install(host, restored) => { listener, dispose }, or a listener gate(exec, next, env)');
}

/**
 * Decide one canonical scenario (spec/protocol.md, "Canonical scenarios") with the integration
 * `install` makes, as harness.d.ts documents: `options` holds the profile's rules (as the runner's
 * hello carries them; required) and its name (optional, for logs), what the run observes
 * (default: all) and the decide line's `reply` and `world`.
 */
async function runInput(raw, install, options = {}) {
  const profile = options.profile || undefined;
  const rules = rulesFor(options.rules, 'runInput');
  const observes = options.observes || OBSERVABLES;
  const scenario = decode(raw, options.world);
  const world = openSession(scenario, profile, rules, install, { ...options, profile, observes });
  const outcomes = [];
  for (const item of scenario.items) {
    outcomes.push(item.call ? await world.runCall(item.call) : await world.runEvent(item.event));
  }
  return options.reply === 'call' ? outcomes[0] : { id: scenario.id, calls: outcomes };
}

/** `runInput` for a bare listener gate (the protocol-1 form). */
function runScenario(raw, gate, options = {}) {
  return runInput(raw, shellAround(gate), options);
}

// ---------------------------------------------------------------------------------------------
// The protocol loop (spec/protocol.md)
// ---------------------------------------------------------------------------------------------

/**
 * Serve a gate over the adapter protocol on stdin/stdout, with the options of `ServeOptions` in
 * harness.d.ts (skeleton.js shows each one).
 *
 * `observes` lists what the gate can express, and only that: a case that needs something left out
 * is not applicable to it (never sent, never a pass). `lacks` (default none: the hello then has no
 * `lacks` member) names what the gate's framework cannot express, among CAPABILITIES; a case that
 * needs it is not applicable either. `features` (default absent: the hello then has no `features`
 * member, which the runner reads as every feature) lists the optional features the gate
 * implements, among FEATURES; a member only an unlisted one governs is not compared. A runner
 * speaking protocol 1 is answered with protocol 1, observes nothing beyond it and hears of no
 * `lacks` and no `features`.
 *
 * `rules` (protocol 2) lists, for each rule, the values the gate implements (spec/protocol.md,
 * "Rules"): the runner then checks it against any profile whose every rule value is listed, whether
 * or not `profiles` names it. `profiles` (default none) names profiles the gate claims by name; a
 * gate that names none and lists no rules is refused by the runner, which says so.
 *
 * Each `decide` is run under the rules the runner's hello carried (`host.rules`); a hello without
 * them (a runner older than the rules) gets an error reply to each `decide`, saying so.
 *
 * `node adapter.js --decide` instead reads lines `{ "rules", "reply", "world", "scenario" }` on
 * stdin (a decide line's members and the run's rules, as each line of spec/fixtures/replay.jsonl
 * holds them) and prints one outcome per line, for debugging (with everything the gate observes).
 * A line without `rules` is answered with an error saying where to get them. A word after
 * `--decide` (a profile's name) labels lines without their own `profile`; it never decides.
 */
function serve({ implementation, profiles, rules: offered, observes = [], lacks = [], features, install, gate, log: userLog } = {}) {
  const installer = installerOf({ install, gate });
  if (offered !== undefined) {
    const bad = isObject(offered)
      ? Object.entries(offered).find(([, values]) => !Array.isArray(values) || values.some((v) => typeof v !== 'string' && typeof v !== 'boolean'))
      : [];
    if (bad !== undefined) {
      throw new TypeError(`serve: rules must map each rule to the values the gate implements, e.g. { reader: ['strict', 'tolerant'], deadline: [false, true] }; got ${JSON.stringify(bad.length === 0 ? offered : Object.fromEntries([bad]))}`);
    }
  }
  const named = profiles === undefined ? [] : profiles;
  const unknown = observes.filter((o) => !OBSERVABLES.includes(o));
  if (unknown.length > 0) throw new TypeError(`serve: observes names ${unknown.join(', ')}; known: ${OBSERVABLES.join(', ')}`);
  const declared = OBSERVABLES.filter((o) => observes.includes(o));
  const unknownLacks = lacks.filter((c) => !CAPABILITIES.includes(c));
  if (unknownLacks.length > 0) throw new TypeError(`serve: lacks names ${unknownLacks.join(', ')}; known: ${CAPABILITIES.join(', ')}`);
  const lacked = CAPABILITIES.filter((c) => lacks.includes(c));
  const unknownFeatures = (features || []).filter((f) => !FEATURES.includes(f));
  if (unknownFeatures.length > 0) throw new TypeError(`serve: features names ${unknownFeatures.join(', ')}; known: ${FEATURES.join(', ')}`);
  const implemented = features === undefined ? undefined : FEATURES.filter((f) => features.includes(f));
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
  const direct = decideFlag >= 0;
  // `--decide <profile>`: the name given to lines without their own `profile` (a label only).
  const directProfile = direct && process.argv[decideFlag + 1] !== undefined && !process.argv[decideFlag + 1].startsWith('-') ? process.argv[decideFlag + 1] : undefined;
  let profile; // the run's profile, as the runner's hello names it
  let rules; // the run's rules, as the runner's hello carries them
  let observed = direct ? declared : []; // what this run observes
  /** The rule values of `wanted` the gate's `rules` does not list, as `name value`. */
  const unmet = (wanted) =>
    Object.entries(wanted)
      .filter(([name]) => name !== 'config')
      .filter(([name, value]) => !(Array.isArray(offered[name]) && offered[name].includes(value)))
      .map(([name, value]) => `${name} ${JSON.stringify(value)}`);

  const handle = async (line) => {
    if (line.trim() === '') return;
    let message;
    try {
      message = JSON.parse(line);
    } catch (error) {
      log(`[adapter] ignoring a line that is not JSON: ${error.message}`);
      return;
    }
    if (direct) {
      try {
        const lineRules = isObject(message) ? message.rules : undefined;
        if (lineRules === undefined || lineRules === null) {
          throw new Error(`--decide: this line has no \`rules\`; add the run's rules object beside "scenario" (each line of spec/fixtures/replay.jsonl has one, and \`autoreview profiles --json\` lists each profile's \`rules\`)`);
        }
        const lineProfile = isObject(message) && typeof message.profile === 'string' ? message.profile : directProfile;
        write(await runInput(message.scenario, installer, { rules: lineRules, profile: lineProfile, observes: observed, reply: message.reply, world: message.world, log }));
      } catch (error) {
        write({ error: error && error.message ? error.message : String(error) });
      }
      return;
    }
    switch (message && message.type) {
      case 'hello': {
        // Protocol 2 to a runner that speaks it (or a newer one), protocol 1 otherwise.
        const speaks = Number.isInteger(message.protocol) && message.protocol >= PROTOCOL ? PROTOCOL : 1;
        if (message.protocol !== speaks) log(`[adapter] the runner speaks protocol ${message.protocol}; this adapter answers ${speaks}`);
        profile = message.profile;
        try {
          rules = rulesFor(message.rules, 'the runner\'s hello');
        } catch (error) {
          rules = undefined; // each decide says why
          log(`[adapter] ${error.message}`);
        }
        if (!named.includes(profile)) {
          const among = `profile ${profile} is not among ${named.join(', ') || 'the profiles the gate names (none)'}`;
          if (offered === undefined || rules === undefined) log(`[adapter] ${among}`);
          else if (speaks < 2) log(`[adapter] ${among}, and a protocol-1 hello cannot list the gate's rules`);
          else if (unmet(rules).length > 0) log(`[adapter] ${among}, and the gate's rules lack ${unmet(rules).join(', ')}`);
        }
        observed = speaks >= 2 ? declared : [];
        const hello = { type: 'hello', protocol: speaks, implementation, profiles: named };
        if (speaks >= 2 && offered !== undefined) hello.rules = offered;
        if (speaks >= 2) hello.observes = declared;
        if (speaks >= 2 && lacked.length > 0) hello.lacks = lacked;
        if (speaks >= 2 && implemented !== undefined) hello.features = implemented;
        if (speaks >= 2) hello.canonical = true;
        write(hello);
        return;
      }
      case 'decide':
        try {
          if (rules === undefined) {
            throw new Error(`no rules to decide by: the runner's hello carried none this kit could read (a runner that sends none is older than the kit: update autoreview; the adapter's log says more)`);
          }
          const outcome = await runInput(message.scenario, installer, { rules, profile, observes: observed, reply: message.reply, world: message.world, log });
          write({ type: 'outcome', seq: message.seq, outcome });
        } catch (error) {
          log(`[adapter] decide ${message.seq} failed: ${error && error.stack ? error.stack : String(error)}`);
          write({ type: 'error', seq: message.seq, message: messageOf(error) });
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
  OBSERVABLES,
  CAPABILITIES,
  FEATURES,
  RUNTIME_TEXT,
  INFO_ABORTED,
  PRESET_TABLE,
  VirtualClock,
  runToolCall,
  runInput,
  runScenario,
  shellAround,
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
