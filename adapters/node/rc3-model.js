#!/usr/bin/env node
'use strict';
/**
 * rc3-model.js — a small, independent model of the Auto review gate shipped in
 * @deepseek-ai/dsh-experimental-auto-review 0.2.1-rc.3, as the field report
 * (its title: "Reviewer technical failures return a terminal deny") describes it.
 *
 *   autoreview check --profile baseline    -- node adapters/node/rc3-model.js   # passes
 *   autoreview check --profile resilient   -- node adapters/node/rc3-model.js   # fails, by design
 *   autoreview check --profile shipped-0.2 -- node adapters/node/rc3-model.js   # fails where rc.3 predates 0.2.x
 *
 * The shipped-0.2 profile is the later 0.2.x code. rc.3 predates it on the JSON retry: the report
 * quotes its parser as `JSON.parse(text)` with "no single format-correction retry", and its logged
 * failures carry the parser's own words (`Unexpected token '<', "<tool_call"...`), which the 0.2.x
 * gate replaces by `reviewer output must be valid JSON` (AR-JSON-RETRY-1..3). The report says nothing
 * of a session without a working directory, so the model keeps 0.1.7-rc.2's refusal there
 * (AR-REVIEW-10, where 0.2.x takes the deployment's, AR-RES-CWD-1). Those are the only cases it
 * fails under shipped-0.2 (tests/external/adapters.rs holds it to that).
 *
 * The shipped gate is what the baseline profile specifies, so it passes the baseline. It knows
 * nothing of the resilient profile and behaves the same under it; its hello lists both profiles so
 * that the resilient run shows, case by case, the five defects the report names:
 *
 *   (1) failure precedes delegation: `if (!review.ok) return failed(...)` runs before `await next()`,
 *       so a reviewer failure is a terminal deny and no human is ever asked;
 *   (2) zero-tolerance parser: `JSON.parse(text)` on the raw text (no fence stripping, no
 *       extraction, no repair request), the last block must be text and all others reasoning,
 *       repeated members refused via topLevelMemberCount;
 *   (3) the reviewer route is the session's route (snapshot provider/model), no override;
 *   (4) the pending native schema is looked up in the latest request header only, exactly one match;
 *   (5) diagnostics use template stringification: an object message becomes [object Object].
 *
 * Also as shipped: `failed()` carries no structured info (no failure code), there is no
 * consecutive-failure count or hint, no retries, no deadline (a hanging reviewer hangs the call),
 * and requests carry no session id. The outer transport is recognised by name
 * (`exec.parent === undefined && exec.name === 'run_code'`); the session is read in the shipped
 * order — an incomplete request-header route, then a header without a working directory, then the
 * pending call's facts in the session log — before the schema lookup; and the listener checks the
 * preset before admission: once disposal has moved a listed session from Auto to
 * `danger-full-access`, its calls pass through unreviewed under the approval override `never`.
 *
 * The integration is installed as shipped (`apply`): the listener, the Auto preset registered with
 * an admission hook that refuses while closing, and a disposer that stops admitting, moves every
 * live Auto session to `danger-full-access`, aborts the lifecycle and waits for the admitted calls;
 * the contribution is then removed, so Auto is unknown until the integration is installed again.
 *
 * The only thing this model adds to the shipped code is instrumentation for the harness: it reports
 * each failure's class (AR-REVIEW-6, computed by `observedClass` below — the shipped gate computes
 * none) through env.observe.reviewFailure.
 */

const { serve } = require('./harness.js');

const AUTO_PRESET = 'auto';
const RUN_CODE_NAME = 'run_code';
const AUTO_REVIEW_DENIED_ERROR_NAME = 'AutoReviewDeniedError';
const AUTO_REVIEW_DENIED_CODE = 'AUTO_REVIEW_DENIED';

// The shipped REVIEW_POLICY is long and not observable here (AR-REVIEW-3); its opening suffices.
const REVIEW_POLICY =
  'REVIEW_POLICY\nYou are the final authorization reviewer for exactly one pending tool call. Your decision ' +
  'replaces human approval for this call. If you allow it, the call executes immediately with full host ' +
  'access and no later confirmation.\n\nReturn exactly one JSON object and no other text.';

// ---- instrumentation (not part of the shipped gate) -------------------------------------------

/** Tag an error with the failure class the harness reports; the shipped gate has no classes. */
function tagged(error, failureClass) {
  error.observedClass = failureClass;
  return error;
}

function classOfErrorFinish(code, message) {
  if (code === 'TIMEOUT' || code === 'DEADLINE_EXCEEDED') return 'timeout';
  if (['QUOTA_EXCEEDED', 'RATE_LIMITED', 'INSUFFICIENT_QUOTA', 'HTTP_402', 'HTTP_429'].includes(code)) return 'quota';
  if (code === 'TRANSPORT' || code === 'CONNECTION' || code === 'NETWORK') return 'transport';
  const m = `${message}`.toLowerCase();
  if (/http 402|http 429|status 402|status 429|quota|rate limit/.test(m)) return 'quota';
  if (/transport error|connection error|econnreset|econnrefused|socket hang up|network error/.test(m)) return 'transport';
  if (/timed out|timeout/.test(m)) return 'timeout';
  return 'provider';
}

function observe(env, error, signal) {
  const message = error instanceof Error ? error.message : String(error);
  let failureClass = 'internal'; // a thrown value, whatever it says
  if (error instanceof SyntaxError) failureClass = 'protocol'; // JSON.parse's own error
  else if (error && typeof error === 'object' && typeof error.observedClass === 'string') failureClass = error.observedClass;
  env.observe.reviewFailure({
    class: failureClass,
    message,
    // JSON.parse's messages are the engine's own (AR-PARSE-4: implementation-defined), and so is
    // an aborted finish after the review's signal aborted (AR-CANCEL-6, AR-MSG-3).
    implementationDefined: error instanceof SyntaxError || (failureClass === 'aborted' && signal.aborted),
  });
}

// ---- the shipped helpers ------------------------------------------------------------------------

/** Materialize a reviewer failure as its own error rather than a denial. (Still a deny; no info.) */
function failed(exec, error) {
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'deny',
    reason: `Auto review of tool "${exec.name}" failed; its body was not executed: ${message}`,
  };
}

function denied(exec, reason) {
  return {
    kind: 'deny',
    reason: `Auto review rejected tool "${exec.name}"; its body was not executed`,
    info: {
      name: AUTO_REVIEW_DENIED_ERROR_NAME,
      code: AUTO_REVIEW_DENIED_CODE,
      ...(reason === undefined ? {} : { reason }),
    },
  };
}

/** Ask the user to decide one call the reviewer denied. */
function askUser(exec, reason) {
  const denial = `Auto review denied tool "${exec.name}"`;
  return {
    kind: 'ask',
    reason: reason === undefined ? denial : `${denial}: ${reason}`,
    displayReason:
      reason === undefined
        ? { en: 'Auto review denied this call.', zh: 'Auto review 拒绝了此调用。' }
        : { en: `Auto review denied this call: ${reason}`, zh: `Auto review 拒绝了此调用：${reason}` },
  };
}

/** Count top-level members by removing string literals and counting `:` at depth 1. */
function topLevelMemberCount(text) {
  const bare = text.replace(/"(?:\\.|[^"\\])*"/gs, '""');
  let depth = 0;
  let count = 0;
  for (const c of bare) {
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === ':' && depth === 1) count++;
  }
  return count;
}

/** Defect (2): raw JSON.parse, then the closed six-shape protocol. */
function parseDecision(text) {
  const value = JSON.parse(text); // SyntaxError propagates: its engine message is the failure text
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw tagged(new Error('auto-review: reviewer output must be one JSON object'), 'protocol');
  }
  const record = value;
  const keys = Object.keys(record);
  if (topLevelMemberCount(text) !== keys.length) {
    throw tagged(new Error('auto-review: reviewer output repeats a JSON member'), 'protocol');
  }
  const has = (k) => Object.prototype.hasOwnProperty.call(record, k);
  if (keys.length === 2 && has('risk') && record.decision === 'allow' && (record.risk === 'low' || record.risk === 'medium')) {
    return { risk: record.risk, decision: 'allow' };
  }
  if (keys.length === 2 && has('risk') && record.decision === 'deny' && (record.risk === 'medium' || record.risk === 'high')) {
    return { risk: record.risk, decision: 'deny' };
  }
  if (
    keys.length === 3 &&
    record.decision === 'deny' &&
    (record.risk === 'medium' || record.risk === 'high') &&
    has('reason') &&
    typeof record.reason === 'string'
  ) {
    return { risk: record.risk, decision: 'deny', reason: record.reason };
  }
  throw tagged(new Error('auto-review: reviewer output does not match the risk/decision protocol'), 'protocol');
}

/** The stream reader: one terminal finish, nothing after it, reasoning* then exactly one text. */
function readDecision(chunks) {
  const blocks = [];
  let finished = false;
  for (const chunk of chunks) {
    if (finished) throw tagged(new Error('auto-review: reviewer emitted data after its terminal finish'), 'protocol');
    if (chunk.type === 'finish') {
      finished = true;
      const reason = chunk.reason;
      if (reason.kind === 'error' || reason.kind === 'aborted') {
        // Defect (5): template stringification — an object message becomes [object Object].
        const { code, message } = reason.failure;
        throw tagged(
          new Error(`auto-review: reviewer ended with ${reason.kind} ${code}: ${message}`),
          reason.kind === 'aborted' ? 'aborted' : classOfErrorFinish(code, message),
        );
      }
      if (reason.kind !== 'stop') throw tagged(new Error(`auto-review: reviewer ended with ${reason.kind}`), 'provider');
    } else if (chunk.type === 'block') {
      blocks.push(chunk.block);
    }
  }
  // A stream cut before its terminal finish is a broken stream: class transport (AR-REVIEW-7).
  if (!finished) throw tagged(new Error('auto-review: reviewer emitted no terminal finish'), 'transport');
  const final = blocks[blocks.length - 1];
  if (final === undefined || final.type !== 'text' || blocks.slice(0, -1).some((b) => b.type !== 'reasoning')) {
    throw tagged(
      new Error('auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block'),
      'protocol',
    );
  }
  return parseDecision(final.text);
}

/**
 * One reviewer request; no retry, no repair, no deadline. `temperature` is the gate's configured
 * one (0.2.x; default 0).
 */
async function classifyRisk(env, agent, exec, signal, temperature) {
  // Defect (3): the route is the session's latest request header; there is no reviewer route. An
  // incomplete one is refused before anything else, the schema lookup included.
  const session = agent.session;
  const snapshot = session.route;
  if (!snapshot.provider || !snapshot.model) {
    throw tagged(new Error('auto-review: no complete request-header route is available'), 'route');
  }
  // The header's working directory (the review's ENVIRONMENT), then the call in the session log.
  const cwd = session.workingDirectory;
  if (cwd === undefined) throw tagged(new Error('auto-review: the session has no working directory'), 'session');
  let logged;
  try {
    logged = session.log.pendingAction(exec);
  } catch (error) {
    throw tagged(error, 'session');
  }
  // Defect (4): the schema from the latest request header only, exactly one match required.
  const schemas = env.tools.headerSchemas(exec);
  const candidate = schemas[0];
  if (exec.parent !== undefined) {
    if (candidate === undefined || schemas.length !== 1) {
      throw tagged(new Error('auto-review: the pending PTC binding schema is missing or inconsistent'), 'schema');
    }
  } else if (candidate === void 0 || schemas.length !== 1) {
    throw tagged(new Error('auto-review: the pending native tool schema is missing or ambiguous'), 'schema');
  }
  const options = {
    provider: snapshot.provider,
    model: snapshot.model,
    system: REVIEW_POLICY,
    messages: [
      {
        role: 'user',
        content: [{ type: 'text', text: `ENVIRONMENT\n\n${JSON.stringify({ cwd }, null, 2)}\n\nPENDING_ACTION\n\n${JSON.stringify({ mode: exec.parent ? 'ptc-inner' : 'native', name: exec.name, description: candidate.description, parameters: candidate.parameters, arguments: logged.arguments }, null, 2)}` }],
      },
    ],
    // 0.2.x: the configured reviewer temperature; `provider-default` leaves it out.
    ...temperatureOption(temperature),
    signal,
  };
  const chunks = await env.llm.request(options); // a thrown value reaches failed() as is
  return readDecision(chunks);
}

/** The request option for a reviewer temperature: none for `provider-default`. */
function temperatureOption(temperature) {
  return temperature === 'provider-default' ? {} : { temperature };
}

// ---- the integration: apply(ctx) ----------------------------------------------------------------

/**
 * Install the integration as shipped: the prepended listener, the Auto preset with its admission
 * hook, and the disposer. `ctx` is the harness's host (the shipped plugin injects approval, llm,
 * permissionPresets, sessions and tools); the per-call services come with each call's `env`.
 */
function apply(ctx) {
  const permissionPresets = ctx.permissionPresets;
  // The deployment configures the gate with the members the run's profile reads (`rules.config`);
  // where it reads no temperature, the gate keeps its default, 0.
  const configured = new Set(ctx.rules?.config ?? []);
  const temperatureOf = (env) => (configured.has('temperature') ? (env.config?.temperature ?? 0) : 0);
  let accepting = true;
  const active = new Set();
  const lifecycle = new AbortController();

  async function listener(exec, next, env) {
    const agent = exec.agent;
    if (agent === undefined || (exec.parent === undefined && exec.name === RUN_CODE_NAME)) return next();
    if (permissionPresets.current(agent.session) !== AUTO_PRESET) return next();
    if (!accepting || lifecycle.signal.aborted) return { kind: 'cancel' };

    // Synchronous admission: tracked before the first await, so disposal waits for this call.
    let release;
    const admitted = new Promise((resolve) => {
      release = resolve;
    });
    active.add(admitted);
    try {
      const signal = AbortSignal.any([exec.signal, lifecycle.signal]);
      const review = await classifyRisk(env, agent, exec, signal, temperatureOf(env)).then(
        (decision) => ({ ok: true, decision }),
        (error) => {
          observe(env, error, signal);
          return { ok: false, error };
        },
      );
      if (lifecycle.signal.aborted) return { kind: 'cancel' };

      // Defect (1): a failure returns BEFORE await next(); the approval path is never reached.
      if (!review.ok) return failed(exec, review.error);

      const decision = review.decision;
      // The recorded override, not the effective policy (AR-DECIDE-6).
      if (decision.decision === 'deny' && env.approval.overrideOf(agent.session) === 'never') {
        return denied(exec, decision.reason);
      }
      const downstream = await next();
      if (lifecycle.signal.aborted) return { kind: 'cancel' };
      if (decision.decision === 'allow' || downstream.kind !== 'allow') return downstream;
      return askUser(exec, decision.reason);
    } finally {
      active.delete(admitted);
      release();
    }
  }

  const unregisterAuto = permissionPresets.registerAuto(() => {
    if (!accepting) throw new Error('auto-review: integration is closing');
  });

  async function dispose() {
    accepting = false;
    try {
      for (const session of ctx.sessions.list()) {
        if (permissionPresets.current(session) === AUTO_PRESET) permissionPresets.set(session, 'danger-full-access');
      }
    } finally {
      lifecycle.abort(new Error('auto-review integration disposed'));
      await Promise.allSettled([...active]);
    }
    unregisterAuto(); // the effect removes the contribution with the listener
  }

  return { listener, dispose };
}

if (require.main === module) {
  serve({
    implementation: {
      name: '@deepseek-ai/dsh-experimental-auto-review (model)',
      version: '0.2.1-rc.3',
      language: 'javascript',
    },
    // The shipped gate, checked against both: it passes the baseline and shows its defects under
    // the resilient profile. It behaves the same under both.
    profiles: ['baseline', 'resilient', 'shipped-0.2'],
    // It keeps its state across a session's calls, reports what each request carries, and reads
    // the session's header and log as shipped.
    observes: ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream'],
    install: apply,
  });
}

module.exports = { apply, readDecision, parseDecision, topLevelMemberCount };
