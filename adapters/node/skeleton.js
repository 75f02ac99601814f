#!/usr/bin/env node
'use strict';
/**
 * skeleton.js — the starting point of an autoreview adapter for a JavaScript or TypeScript gate.
 *
 *   autoreview smoke --profile baseline -- node adapters/node/skeleton.js
 *   autoreview check --profile baseline -- node adapters/node/skeleton.js
 *   autoreview check --profile resilient -- node adapters/node/skeleton.js
 *
 * harness.js does everything but the gate: the protocol loop, the scripted reviewer, downstream
 * listeners, approval service, abort signals, the tool runtime and the outcome. This file only
 * says which gate to check, what it is called, and which profiles it implements.
 *
 * Copy this file next to your project (keep harness.js beside it, or require it by path) and
 * replace the gate below.
 */

const { serve } = require('./harness.js');

// ---------------------------------------------------------------------------------------------
// >>> PLUG YOUR GATE IN HERE <<<
//
// The example gate implements both profiles in readable JavaScript. A TypeScript author
// compiles their gate (tsc, esbuild, ...) and requires the compiled JavaScript instead, e.g.
//
//   const { createAutoReviewListener } = require('../../packages/auto-review/dist/index.js');
//   const gate = (exec, next, env) => createAutoReviewListener(hostFrom(env))(exec, next);
//
// where `hostFrom(env)` maps the harness's env onto the services your listener expects:
//   env.llm.request(options)            -> your LLM client (resolve to chunks, see harness.js)
//   env.tools.headerSchemas(exec)       -> the latest request header's tool schemas
//   env.tools.registrySchemas(exec)     -> the live tool registry (resilient profile)
//   env.permissionPresets.current(s)    -> the session's permission preset
//   env.approval.overrideOf(s) / .effectivePolicy(s)
//   env.lifecycle.signal / .closing     -> your integration's lifecycle (dispose)
//   env.lifecycle.migrated(s)           -> whether your disposer moved this session out of Auto
//   env.sessions.consecutiveFailures(s) / .setConsecutiveFailures(s, n)   (resilient profile)
//   env.clock                           -> timers for deadlines (virtual time: never use real timers)
// and call env.observe.reviewFailure({ class, message, implementationDefined }) from wherever
// your gate logs a reviewer failure (the outcome's review.failure comes from it).
// ---------------------------------------------------------------------------------------------
const { gate } = require('./example-gate.js');

serve({
  implementation: {
    name: 'example-gate', // your package, e.g. '@deepseek-ai/dsh-experimental-auto-review'
    version: '0.1.0', // its version
    language: 'javascript', // or 'typescript'
  },
  // The profiles your gate implements. The example implements both; a gate that implements
  // only the baseline lists ['baseline'] until it implements chapters 10 and 11 of the spec.
  profiles: ['baseline', 'resilient'],
  gate,
});
