#!/usr/bin/env node
// The example gate (adapters/node/example-gate.js) with every implementation-defined text worded in
// its own way, and every other text as the spec words it (issue 40, item 2):
//   - the failure message of invalid JSON (AR-PARSE-4, AR-MSG-3);
//   - the failure message of a review a signal ended (AR-CANCEL-6, AR-MSG-3): its runtime reports
//     a request whose signal aborted as an aborted finish with a code and message of its own,
//     whether the request hung (the caller's or the lifecycle's signal ended it) or the provider's
//     own aborted finish arrived after the signal (a gate cannot tell the two apart);
//   - the thrown message of an approval request (AR-APPROVAL-4, AR-MSG-3): its approval service
//     throws in its own words (the harness's service, reworded where the gate's listener is given
//     it: once the integration is gone, a call that reaches the service keeps the harness's words);
//   - the error of selecting Auto where no integration registers it (MSG-ERR-NO-AUTO): its
//     deployment's presets service refuses in its own words.
// Its decisions are the example gate's, and the spec leaves these texts to it, so
//   autoreview check --level full -- node tests/adapters/own-implementation-defined.js
// passes every fixed case and every generated one without --messages.
'use strict';
const path = require('node:path');

const kit = path.join(__dirname, '..', '..', 'adapters', 'node');
const { serve } = require(path.join(kit, 'harness.js'));
const gate = require(path.join(kit, 'example-gate.js'));

// AR-PARSE-4: the invalid-JSON message is implementation-defined in its entirety.
gate.MSG.invalidJson = (detail) => `gate: could not read the reply as JSON [${detail}]`;

const CANCELLED = { code: 'GATE_CANCELLED', message: 'gate: the request was called off' };
const APPROVAL_THREW = 'gate: this approval service cannot ask outside a turn';
// The deployment's refusal to select a preset it does not know, as the harness's world words it.
const NO_AUTO = /^permission: unknown preset "auto"/;
const OWN_NO_AUTO = 'presets: Auto is not offered here; pick read-only, workspace-write or danger-full-access';

/**
 * The reviewer client of `env` as a runtime that reports a request its signal aborted as an
 * aborted finish of its own (AR-CANCEL-6: "whatever code and message it carries"); every other
 * reply is the reviewer's.
 */
function ownLlm(llm) {
  return {
    ...llm,
    request(opts = {}) {
      return llm.request(opts).then((chunks) => {
        const aborted = opts.signal && opts.signal.aborted;
        if (!aborted || !Array.isArray(chunks)) return chunks;
        return chunks.map((c) =>
          c && c.type === 'finish' && c.reason && c.reason.kind === 'aborted'
            ? { ...c, reason: { kind: 'aborted', failure: { ...CANCELLED } } }
            : c,
        );
      });
    },
  };
}

/** The call's approval service, throwing in its own words (AR-APPROVAL-4). */
function ownApproval(env) {
  const approval = env.approval;
  if (!approval || approval.ownWords) return;
  const request = approval.request.bind(approval);
  approval.request = async (req) => {
    try {
      return await request(req);
    } catch {
      throw new Error(APPROVAL_THREW);
    }
  };
  approval.ownWords = true;
}

function install(host, restored) {
  const integration = gate.install(host, restored);
  const listener = integration.listener;
  return {
    ...integration,
    listener(exec, next, env) {
      // The tool runtime asks the same approval service the listener is given.
      ownApproval(env);
      return listener(exec, next, { ...env, llm: ownLlm(env.llm) });
    },
  };
}

// The deployment's presets refusal (MSG-ERR-NO-AUTO) is the world's text in the harness: it is
// reworded in each event's outcome on its way out.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (typeof chunk !== 'string' || !chunk.includes('unknown preset')) return write(chunk, ...rest);
  const lines = chunk.split('\n').map((line) => {
    if (line.trim() === '') return line;
    const message = JSON.parse(line);
    const outcome = message.outcome ?? message;
    for (const item of (outcome && outcome.calls) || []) {
      if (item && typeof item.error === 'string' && NO_AUTO.test(item.error)) item.error = OWN_NO_AUTO;
    }
    return JSON.stringify(message);
  });
  return write(lines.join('\n'), ...rest);
};

serve({
  implementation: { name: 'example-gate-own-implementation-defined', version: '0.1.0', language: 'javascript' },
  profiles: [],
  rules: gate.rules,
  observes: gate.observes,
  features: gate.features,
  install,
});
