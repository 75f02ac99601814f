#!/usr/bin/env node
// An adapter for a gate that asks the human itself: the example gate (adapters/node/example-gate.js,
// installed as adapters/node/skeleton.js installs it), wrapped so that where the example gate
// would return `ask`, the wrapper puts the question to the approval service itself and returns
// `allow` when the human allows once, a `deny` when the human does not (a `cancel` when the call
// was aborted meanwhile):
//   node asks-itself.js
// The same human answers the same question, so the body runs exactly where the reference runs
// it; the gate decided otherwise (`allow` where the reference asks), and ran nothing it must not.
//   node asks-itself.js --ignore-answer
// is the same gate with a defect: it returns `allow` whatever the human answered, so the body runs
// where the human rejected the call.
'use strict';
const path = require('node:path');

const kit = path.join(__dirname, '..', '..', 'adapters', 'node');
const { serve } = require(path.join(kit, 'harness.js'));
const example = require(path.join(kit, 'example-gate.js'));

const ignoreAnswer = process.argv.includes('--ignore-answer');

/** The example gate, asking the human itself instead of returning `ask`. */
function install(host, restored) {
  const inner = example.install(host, restored);
  return {
    ...inner,
    async listener(exec, next, env) {
      const decision = await inner.listener(exec, next, env);
      // Nobody to ask for a call without an agent: the runtime refuses the ask as it would.
      if (decision.kind !== 'ask' || !exec.agent) return decision;
      let answer;
      try {
        answer = await env.approval.request({
          agent: exec.agent,
          toolName: exec.name,
          callId: exec.callId,
          reason: decision.reason,
          displayReason: decision.displayReason ?? decision.display_reason,
          signal: exec.signal,
        });
      } catch (error) {
        return { kind: 'deny', reason: `approval failed: ${error && error.message}` };
      }
      if (answer === 'allowed-once' || ignoreAnswer) return { kind: 'allow' };
      if (exec.signal && exec.signal.aborted) return { kind: 'cancel' };
      return { kind: 'deny', reason: `the user did not allow tool "${exec.name}" (${answer})` };
    },
  };
}

serve({
  implementation: {
    name: ignoreAnswer ? 'asks-itself-ignoring-the-answer' : 'asks-itself',
    version: '0.2.0',
    language: 'javascript',
  },
  profiles: ['baseline', 'resilient', 'shipped-0.2'],
  observes: ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream', 'confinement', 'json-retries'],
  install,
});
