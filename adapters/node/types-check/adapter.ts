// A TypeScript adapter as an adapter author writes one, against the installed package: a small
// gate on the harness API, and the contract's scenario and outcome types. A test compiles it with
// `tsc --strict` (tests/suite/node_package.rs); the `@ts-expect-error` lines must stay errors, so
// the types cannot quietly loosen to `any`.

import {
  CAPABILITIES,
  runInput,
  serve,
  type Capability,
  type Env,
  type Exec,
  type GateDecision,
  type InputOutcome,
  type Install,
  type Integration,
  type ItemOutcome,
  type Next,
  type Observable,
  type Outcome,
  type ReviewerChunk,
  type RuleOffer,
  type SandboxMode,
  type Scenario,
  type SessionScenario,
  type WireRules,
  type WorldAnswer,
} from '@autoreview/kit';
import { install as exampleGate, readStrict, rules as exampleRules } from '@autoreview/kit/example-gate';
import { apply } from '@autoreview/kit/rc3-model';

/** The text blocks of a reviewer response, or why the response failed. */
function textOf(chunks: ReviewerChunk[]): string {
  let text = '';
  for (const chunk of chunks) {
    if (chunk.type === 'block' && chunk.block.type === 'text') text += chunk.block.text;
    if (chunk.type === 'finish' && chunk.reason.failure !== undefined) {
      throw new Error(`${chunk.reason.kind} ${chunk.reason.failure.code}`);
    }
  }
  return text;
}

/** A small gate: one review; a reviewer's denial is asked about, a failure too. */
const install: Install = (host, restored) => {
  const failures = new Map(restored.consecutiveFailures);
  let accepting = true;
  // Under the rule `confinement`, Auto on a backend that confines reads is selected confined.
  const autoMode = (s: NonNullable<Exec['agent']>['session']): SandboxMode =>
    host.rules.confinement === true && host.sandboxPolicy.confinesReads(s) ? 'workspace-write' : 'danger-full-access';
  const unregisterAuto = host.permissionPresets.registerAuto(
    () => {
      if (!accepting) throw new Error('closing');
    },
    { sandbox: autoMode },
  );

  async function listener(exec: Exec, next: Next, env: Env): Promise<GateDecision> {
    const session = exec.agent?.session;
    if (session === undefined || host.permissionPresets.current(session) !== 'auto') return next();
    // Narrow before anything else; a rejection throws out of the listener (AR-CONFINE-1, -3).
    if (accepting && env.sandboxPolicy.modeOf(session) === 'danger-full-access' && autoMode(session) === 'workspace-write') {
      env.sandboxPolicy.setSandboxMode(session, 'workspace-write');
    }
    if (!accepting) return { kind: 'cancel' };
    const route = host.rules.route === 'configured-first' ? (host.config.reviewer_route ?? session.route) : session.route;
    let verdict: string;
    try {
      const deadline = host.clock.setTimeout(() => {}, host.config.review_timeout_ms);
      const chunks = await env.llm.request({
        provider: route.provider,
        model: route.model,
        system: 'review the pending action',
        messages: [{ role: 'user', content: JSON.stringify(session.log.pendingAction(exec)) }],
        temperature: 0,
        sessionId: host.rules.session_id_in_requests ? session.id : undefined,
        signal: exec.signal,
      });
      host.clock.clearTimeout(deadline);
      verdict = textOf(chunks);
    } catch (error) {
      env.observe.reviewFailure({ class: 'internal', message: String(error), implementationDefined: true });
      failures.set(session.id, (failures.get(session.id) ?? 0) + 1);
      const downstream = await next();
      if (downstream.kind !== 'allow') return downstream;
      return { kind: 'ask', reason: 'the review failed', displayReason: { en: 'The review failed' } };
    }
    failures.set(session.id, 0);
    const downstream = await next();
    if (downstream.kind !== 'allow') return downstream;
    if (verdict.includes('"deny"')) {
      if (env.approval.effectivePolicy(session) === 'never') {
        return { kind: 'deny', reason: `Auto review denied tool "${exec.name}"`, info: { code: 'DENIED' } };
      }
      return { kind: 'ask', reason: `Auto review denied tool "${exec.name}"` };
    }
    return { kind: 'allow' };
  }

  const integration: Integration = {
    listener,
    async dispose() {
      accepting = false;
      for (const s of host.sessions.list()) {
        if (host.permissionPresets.current(s) !== 'auto') continue;
        // A confined session keeps its mode and policy under the rule `confinement` (AR-CONFINE-5).
        const keep = host.rules.confinement === true && host.sandboxPolicy.modeOf(s) === 'workspace-write';
        if (keep) host.permissionPresets.set(s, 'workspace-write', { keepPolicy: true });
        else host.permissionPresets.set(s, 'danger-full-access');
      }
      unregisterAuto();
    },
    consecutiveFailures: (s) => failures.get(s.id) ?? 0,
  };
  return integration;
};

// Scenarios as the contract writes them.
const one: Scenario = {
  tool: { name: 'pwsh' },
  policy: 'ask',
  reviewer: { text: '{"risk":"high","decision":"deny","reason":"uploads a key"}' },
  approval: 'rejected',
};
const session: SessionScenario = {
  config: { failure_hint_after: 2 },
  calls: [
    { tool: { name: 'pwsh' }, reviewer: [{ throw: { message: 'socket hang up' } }, { text: '<tool_call>' }] },
    { event: 'dispose', reselect: true },
    { tool: { name: 'run_code', call: 'run-code' }, reviewer: { finish: { kind: 'error', code: 'HTTP_429', message: 'x' } } },
  ],
};

// What the runner sends beside the canonical form of `session`: the world's answers per item.
const present: WorldAnswer = { header_schemas: 1, registry_schemas: 1, log_error: null };
const world: (WorldAnswer | null)[] = [present, null, present];

/** What a call came to, in a line. */
function summary(outcome: Outcome): string {
  const decision = outcome.listener === null || outcome.listener === undefined ? 'none' : outcome.listener.kind;
  const failure = outcome.review.failure?.class ?? 'no failure';
  const requests = (outcome.review.requests ?? []).map((r) => `${r.route} ${r.temperature ?? 'default'}`);
  return `${decision}, ${outcome.result.executed ? 'ran' : outcome.result.text}, ${failure}, ${requests.join(' ')}`;
}

/** What a call or an event of a session came to. */
function item(outcome: ItemOutcome): string {
  return 'event' in outcome ? `${outcome.event}: ${outcome.error ?? 'ok'}` : summary(outcome);
}

/** The rules a runner's hello carries (`autoreview profiles --json` lists each profile's). */
const rules: WireRules = {
  reader: 'tolerant',
  failure_text: 'normalized',
  asks_again: 'repair-and-retry',
  deadline: true,
  counts_failures: true,
  session_id_in_requests: true,
  route: 'configured-first',
  schema: 'registry-first',
  working_directory: 'deployment-fallback',
  failures: 'ask',
  preset_read: 'current',
  config: ['reviewer_route', 'review_timeout_ms'],
};

/** The rule values this adapter's gate implements. */
const offered: RuleOffer = {
  reader: ['strict', 'tolerant'],
  deadline: [false, true],
  session_id_in_requests: [false, true],
  route: ['session', 'configured-first'],
  confinement: [false, true],
};

export async function decideBoth(): Promise<string[]> {
  const observes: Observable[] = ['sessions', 'requests'];
  const lines: string[] = [];
  // The runner sends canonical scenarios: sessions, every member named. A session literal is one
  // as far as the types go.
  for (const [scenario, reply] of [[session, 'session']] as const) {
    const outcome: InputOutcome = await runInput(scenario, install, { rules, observes, reply, world });
    lines.push(...('calls' in outcome ? outcome.calls.map(item) : [summary(outcome)]));
  }
  // A profile's name labels a run (`host.profile`); the rules decide it.
  const labelled: InputOutcome = await runInput(session, install, { rules, profile: 'mine', observes, reply: 'session', world });
  lines.push('calls' in labelled ? `${labelled.calls.length} items` : summary(labelled));
  lines.push(String(readStrict([{ type: 'finish', reason: { kind: 'stop' } }], String).decision));
  return lines;
}

/** Mistakes the types catch. Never called. */
export function mistakes(): void {
  // @ts-expect-error rules are required: the kit knows no profile by name (kit 0.3.0)
  void runInput(session, install, { profile: 'baseline', reply: 'session', world });
  // @ts-expect-error a misspelled member is not a scenario's
  const typo: Scenario = { tool: { name: 'x' }, reviewer: { text: '' }, aproval: 'rejected' };
  // @ts-expect-error a call of a session cannot carry the session's members
  const own: SessionScenario = { calls: [{ tool: { name: 'x' }, reviewer: { text: '' }, preset: 'auto' }] };
  // @ts-expect-error an attempt is one of the five shapes
  const attempt: Scenario = { tool: { name: 'x' }, reviewer: { hang: false } };
  // @ts-expect-error `sessions`, not `session`
  const observes: Observable[] = ['session'];
  // @ts-expect-error not a capability
  const lacks: Capability[] = ['deny'];
  // @ts-expect-error a denial carries a reason
  const denial: GateDecision = { kind: 'deny' };
  // @ts-expect-error not a value of the rule `reader`
  const lenient: RuleOffer = { reader: ['lenient'] };
  // @ts-expect-error a rule the hello does not have
  const unknownRule: RuleOffer = { speed: ['fast'] };
  // @ts-expect-error the hello's rules carry every rule
  const partial: WireRules = { reader: 'strict' };
  // @ts-expect-error an Auto session holds full access or workspace-write only
  const readOnly: SandboxMode = 'read-only';
  void [lenient, unknownRule, partial, readOnly];
  // @ts-expect-error install or gate, not both
  serve({ implementation: { name: 'x', version: '0', language: 'typescript' }, install, gate: (_exec: Exec, next: Next) => next() });
  void [typo, own, attempt, observes, lacks, denial, one];
}

const lacks: readonly Capability[] = CAPABILITIES.filter((c) => c === 'abort-signal');
void lacks;
void exampleGate;
void exampleRules;
void apply;

serve({
  implementation: { name: 'types-check', version: '0.1.0', language: 'typescript' },
  rules: offered,
  profiles: [],
  observes: ['sessions', 'requests', 'session-log', 'temperature', 'confinement'],
  lacks: [],
  install,
});
