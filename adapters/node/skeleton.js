#!/usr/bin/env node
'use strict';
/**
 * skeleton.js — the starting point of an autoreview adapter for a JavaScript or TypeScript gate.
 *
 *   autoreview smoke --profile baseline -- node adapters/node/skeleton.js
 *   autoreview check --profile baseline -- node adapters/node/skeleton.js
 *   autoreview check --profile resilient -- node adapters/node/skeleton.js
 *
 * harness.js does everything but the gate: the protocol loop, the session and its presets, the
 * scripted reviewer, downstream listeners, approval service, abort signals, the tool runtime and
 * the outcome. This file only says which gate to check, what it is called, which rule values it
 * implements, and what it can observe.
 *
 * Copy this file next to your project (keep harness.js beside it, or require it by path) and
 * replace the gate below.
 */

const { serve } = require('./harness.js');

// ---------------------------------------------------------------------------------------------
// >>> PLUG YOUR GATE IN HERE <<<
//
// A gate is installed the way a host installs it: `install(host, restored)` registers the Auto
// preset and returns { listener, dispose, consecutiveFailures? } (harness.js documents each). The
// example gate implements every rule value of the shipped profiles in readable JavaScript, and
// decides by the run's rules (host.rules), never by a profile's name. A TypeScript author compiles
// their gate (tsc, esbuild, ...) and requires the compiled JavaScript instead, e.g.
//
//   const { apply } = require('../../packages/auto-review/dist/index.js');
//   const install = (host, restored) => apply(contextFrom(host, restored));
//
// where `contextFrom` maps the harness's services onto the ones your integration injects:
//   host.permissionPresets.current / .set / .registerAuto   -> your permission presets
//   host.approval.overrideOf(s) / .effectivePolicy(s)       -> your approval service
//   host.on('approval/request' | 'tools/post-execute', fn, { prepend })  -> your hooks (ctx.on)
//   host.sessions.list()                -> the live sessions your disposer walks
//   host.rules                          -> the run's rules (reader, route, schema, ...): decide by these
//   host.workingDirectory.ensure(s)     -> the deployment's working directory (rule working_directory)
//   host.clock                          -> timers for deadlines (virtual time: never use real timers)
// and, per call, what the listener's `env` adds:
//   env.llm.request(options)            -> your LLM client (resolve to chunks, see harness.js)
//   env.tools.headerSchemas(exec) / .registrySchemas(exec)  -> request header and live registry
//   exec.agent.session.workingDirectory / .log.pendingAction(exec)   -> header and session log
// Call env.observe.reviewFailure({ class, message, implementationDefined }) from wherever your
// gate logs a reviewer failure (the outcome's review.failure comes from it).
//
// A gate that is only a listener can still be checked: pass `gate: (exec, next, env) => ...`
// instead of `install`, and the harness installs it the way the shipped integration does.
// ---------------------------------------------------------------------------------------------
const { install, rules } = require('./example-gate.js');

serve({
  implementation: {
    name: 'example-gate', // your package, e.g. '@deepseek-ai/dsh-experimental-auto-review'
    version: '0.6.0', // its version
    language: 'javascript', // or 'typescript'
  },
  // For each rule (spec/protocol.md, "Rules"; `autoreview profiles --json` shows each profile's),
  // the values your gate implements: the runner checks it against every profile whose rule values
  // are all listed, a profile added later included. The example implements every value; a gate
  // that implements only the shipped gate's lists one value each, e.g.
  //   { reader: ['strict'], failure_text: ['javascript'], asks_again: ['never'], deadline: [false], ... }
  rules,
  // No profile names: the rules say which profiles the gate can be checked against.
  profiles: [],
  // What your gate can observe (protocol 2). List only what it can express: a case that needs
  // something left out reads "not applicable" instead of failing or passing.
  //   'sessions'     several calls and lifecycle events in one installation: your gate keeps its
  //                  state (failure counts, what disposal moved) itself, and dispose() really
  //                  disposes of it;
  //   'requests'     each reviewer request goes through env.llm.request, which records its route,
  //                  temperature, tools, sessionId and whether it is a repair (it asks something
  //                  other than the review's first request, in whatever words);
  //   'session-log'  your gate reads session.workingDirectory and session.log.pendingAction(exec).
  //   'temperature'  your gate sends each reviewer request at env.config.temperature where the rules
  //                  read it (none at all for 'provider-default'), else at 0.
  //   'unfinished-stream'  your gate fails a reviewer stream that ends without a terminal finish.
  //   'confinement'  your gate follows the rule `confinement` with host.sandboxPolicy: under true
  //                  it narrows a full-access Auto session on a backend that confines reads
  //                  (setSandboxMode(session, 'workspace-write'), letting a rejection throw out
  //                  of its listener) before anything else, and its Auto preset and disposal keep
  //                  the session's mode; under false it never changes the mode.
  //   'body-approvals'  your gate follows the rule `body_approvals`: under 'allowed-call' it answers
  //                  'allowed-once' to an approval request a call's body raises naming that call,
  //                  while its session is in Auto, where the reviewer allowed the call and
  //                  downstream returned allow (an answerer prepended with
  //                  host.on('approval/request'), the call forgotten in a 'tools/post-execute'
  //                  listener); under 'human' it answers none.
  //   'json-retries'  your gate asks again after invalid JSON up to env.config.max_json_retries
  //                  times where the rules read it (else once), under the rule `asks_again`
  //                  'json-retry'.
  observes: ['sessions', 'requests', 'session-log', 'temperature', 'unfinished-stream', 'confinement', 'body-approvals', 'json-retries'],
  // What your gate's framework cannot express (protocol 2), if anything; default none. Cases that
  // need it read "not applicable" too:
  //   'deny-reason'   a denial carries no reason (a boolean approval hook);
  //   'ask-reason'    an approval request carries no reason for the human;
  //   'abort-signal'  the gate gets no abort signal but the integration's disposal.
  // lacks: ['deny-reason'],
  // The resilient profile's optional features your gate implements (protocol 2): leave the list
  // out and the runner holds the gate to every one; list them and a member that only an unlisted
  // one governs is not compared, and the report names the feature "not implemented":
  //   'failure-hint'   the count of reviewer failures in a row and the hint line (AR-RES-HINT-1..4);
  //   'failure-class'  the failure class in review.failure and in INFO-FAILED (AR-REVIEW-6).
  features: ['failure-hint', 'failure-class'],
  install,
});
