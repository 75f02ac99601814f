#!/usr/bin/env node
// An adapter for a gate whose only gap is one MUST requirement: the example gate, installed as
// adapters/node/skeleton.js installs it, except that every reviewer request it sends goes out
// without the session id (AR-RES-REQUEST-1), as a gate that forgot it would send it:
//   node no-session-id.js
// The request is tampered with on its way to the harness's LLM client (env.llm.request), not the
// outcome: the harness records the request as sent, so every other member of the outcome is the
// example gate's own.
'use strict';
const path = require('node:path');

const kit = path.join(__dirname, '..', '..', 'adapters', 'node');
const { serve } = require(path.join(kit, 'harness.js'));
const gate = require(path.join(kit, 'example-gate.js'));

/** `env` with an LLM client that drops the session id of every request. */
function withoutSessionId(env) {
  const llm = Object.create(env.llm);
  llm.request = (options) => {
    const { sessionId, ...rest } = options || {};
    return env.llm.request(rest);
  };
  return { ...env, llm };
}

/** The example gate, its listener given the tampered client. */
function install(host, restored) {
  const integration = gate.install(host, restored);
  const wrapped = Object.create(integration);
  wrapped.listener = (exec, next, env) => integration.listener(exec, next, withoutSessionId(env));
  return wrapped;
}

serve({
  implementation: {
    name: 'example-gate-without-session-id',
    version: '0.2.0',
    language: 'javascript',
  },
  profiles: ['baseline', 'resilient'],
  observes: ['sessions', 'requests', 'session-log'],
  install,
});
