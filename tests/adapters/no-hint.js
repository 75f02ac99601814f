#!/usr/bin/env node
// An adapter for a gate without one optional feature, `failure-hint` (AR-RES-HINT-1..4): the
// example gate, installed as adapters/node/skeleton.js installs it, except that it keeps no count
// of failures in a row and never words the hint. Its hello declares the features it implements
// only when asked:
//   node no-hint.js              no `features` in its hello (the runner reads every feature)
//   node no-hint.js --declare    `"features": ["failure-class"]`
'use strict';
const path = require('node:path');

const kit = path.join(__dirname, '..', '..', 'adapters', 'node');
const { serve } = require(path.join(kit, 'harness.js'));
const gate = require(path.join(kit, 'example-gate.js'));

/** `env` whose configuration never makes the hint due. */
function withoutHint(env) {
  return { ...env, config: { ...env.config, failure_hint_after: Number.MAX_SAFE_INTEGER } };
}

/** The example gate without the hint, and with no count of failures in a row. */
function install(host, restored) {
  const integration = gate.install(host, restored);
  const wrapped = Object.create(integration);
  wrapped.listener = (exec, next, env) => integration.listener(exec, next, withoutHint(env));
  wrapped.consecutiveFailures = () => 0;
  return wrapped;
}

serve({
  implementation: {
    name: 'example-gate-without-hint',
    version: '0.2.0',
    language: 'javascript',
  },
  profiles: ['baseline', 'resilient'],
  observes: ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream', 'confinement', 'body-approvals'],
  features: process.argv.includes('--declare') ? ['failure-class'] : undefined,
  install,
});
