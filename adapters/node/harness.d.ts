// The API of harness.js, written by hand: what an adapter author installs a gate with and what
// the gate receives. The scenario and outcome types come from types/contract.d.ts, which is
// generated from the JSON Schemas; a test compiles an adapter against both with `tsc --strict`.
// `AbortSignal` is the global one: a Node project gets it from @types/node (or the DOM library).

import type {
  ApprovalAnswer,
  ApprovalPolicy,
  ApprovalRecord,
  BlockKind,
  CallKind,
  Capability,
  Decision,
  Downstream,
  Event,
  FailureClass,
  ImplementationInfo,
  InputOutcome,
  Observable,
  OnFailure,
  Preset,
  Profile,
  ReplyKind,
  RequestRecord,
  Route,
  SandboxMode,
  SessionScenario,
  ToolResult,
  WireRules,
  WorldAnswer,
} from './types/contract';

export * from './types/contract';

// ---- What a gate is ------------------------------------------------------------------------

/** A display reason as a gate gives it: `zh` defaults to `en`. */
export interface DisplayReasonInput {
  en: string;
  zh?: string;
}

/**
 * What a `tools/pre-execute` listener returns. `displayReason` (or `display_reason`) is shown to
 * the human; the outcome records the decision in the contract's form (`Decision`).
 */
export type GateDecision =
  | { kind: 'allow' }
  | { kind: 'deny'; reason: string; info?: { [key: string]: unknown } | null }
  | { kind: 'cancel' }
  | {
      kind: 'ask';
      reason?: string | null;
      displayReason?: DisplayReasonInput | null;
      display_reason?: DisplayReasonInput | null;
    };

/** The session every call of a scenario belongs to (`exec.agent.session`). */
export interface AgentSession {
  readonly id: string;
  readonly route: Route;
  /** The request header's directory; undefined when the header names none (AR-REVIEW-10). */
  readonly workingDirectory: string | undefined;
  readonly log: {
    /**
     * The pending call's logged action (AR-REVIEW-11); throws an Error whose message says which
     * fact the session log breaks.
     */
    pendingAction(exec: Exec): { name: string; arguments: { [key: string]: unknown } };
  };
}

/** The pending tool call. */
export interface Exec {
  readonly name: string;
  readonly callId: string;
  readonly kind: CallKind;
  /** The program's `run_code` call, for a `ptc-inner` call; undefined otherwise. */
  readonly parent: { name: string; callId: string } | undefined;
  /**
   * The session's agent, one object for every call of the session (a gate may key what it keeps
   * by it, as a `WeakMap`); undefined for a call without an agent.
   */
  readonly agent: Agent | undefined;
  /** The caller's signal. */
  readonly signal: AbortSignal;
  readonly arguments: { [key: string]: unknown };
}

/** The agent a call runs for: the session's one agent. */
export interface Agent {
  readonly id: string;
  readonly session: AgentSession;
}

/** What an approval request comes to: the answer the service returns to whoever asked. */
export type ApprovalOutcome = Exclude<ApprovalAnswer, 'throws'>;

/**
 * An approval request, as the approval service's answerers get it: the tool runtime's for an
 * `ask` (with the listener's reasons), or one a call's body raises (spec/scenario.md, "Body").
 */
export interface ApprovalRequest {
  readonly agent: Agent;
  /** The call the request names: the running call's own id, another, or none (undefined). */
  readonly callId: string | undefined;
  readonly toolName: string;
  readonly reason?: string | null;
  readonly displayReason?: DisplayReasonInput | null;
  /** The caller's signal. */
  readonly signal?: AbortSignal;
}

/**
 * An answerer of the approval service (`host.on('approval/request', ...)`): answers the request
 * itself, or passes it on with `next()` to the next answerer and, after the last, the human. The
 * service's own answers come before any answerer (AR-APPROVAL-8): `cancelled` for an aborted
 * caller, `rejected` under the effective policy `never`. A throw or an answer that is not one fails
 * the decide.
 */
export type ApprovalListener = (request: ApprovalRequest, next: () => Promise<ApprovalOutcome>) => ApprovalOutcome | Promise<ApprovalOutcome>;

/**
 * A `tools/post-execute` listener (`host.on('tools/post-execute', ...)`): runs once a call's
 * result is produced — its body run, or the call refused — in registration order (`prepend`
 * first), each passing on with `next()`; it does not change the result. A throw out of the
 * pre-execute stage, materialized as the call's result, bypasses it (AR-CONFINE-3). A throw out of
 * a listener fails the decide.
 */
export type PostExecuteListener = (exec: Exec, result: ToolResult, next: () => Promise<void>) => unknown;

/** Where `host.on` registers a listener: `prepend` puts it before those registered already. */
export interface HookOptions {
  prepend?: boolean;
}

/** What one approval request a call's body raised came to (the outcome's `body_approvals`). */
export interface BodyApprovalRecord {
  /** The step's `call_id`: `own`, `none`, `unreviewed` or `finished`. */
  call_id: 'own' | 'none' | 'unreviewed' | 'finished';
  reason: string;
  /** Who answered: the approval service by itself, the gate's answerer, or the human. */
  answered_by: 'service' | 'gate' | 'human';
  answer: ApprovalOutcome;
}

/** The rest of the pre-execute chain (downstream): what the scenario's `downstream` says. */
export type Next = () => Promise<Downstream>;

/**
 * The virtual clock every timer of the run lives on: use it for deadlines, never real timers.
 * After each step the harness lets pending promise jobs run; when the call has not completed and
 * no virtual timer is pending, nothing can ever happen again, so the call is reported as never
 * settling (`settled: false`) at once, without waiting.
 */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms?: number): number;
  clearTimeout(id: number): void;
  sleep(ms: number): Promise<void>;
}

/** A preset's name as the presets service reports it: `custom` for Auto while none is registered. */
export type PresetName = Preset | 'custom';

/** The resilient configuration, every member named as the canonical scenario names it (AR-RES-CONFIG-1). */
export interface ResolvedConfig {
  on_failure: OnFailure;
  repair_attempts: number;
  transport_retries: number;
  review_timeout_ms: number;
  reviewer_route: Route | null;
  failure_hint_after: number;
  /**
   * How many requests a review makes after invalid JSON under `asks_again` `json-retry`
   * (AR-JSON-RETRY-1): a whole number from 0 to 5, 1 where the scenario names none (the canonical
   * form writes it only off 1; the kit fills it in and refuses any other value). A gate reads it
   * where `rules.config` lists `max_json_retries`.
   */
  max_json_retries: number;
}

/**
 * For each rule (spec/protocol.md, "Rules"), the values a gate implements, as its hello lists
 * them (`serve({ rules })`): the runner checks it against every profile whose rule values are all
 * listed, whether or not `profiles` names it.
 */
export type RuleOffer = {
  readonly [Rule in Exclude<keyof WireRules, 'config'>]?: readonly WireRules[Rule][];
};

/** What the integration registers Auto with, besides its admission hook. */
export interface AutoPreset {
  /** The sandbox mode selecting Auto writes for `session`. Default `danger-full-access`. */
  sandbox?(session: AgentSession): SandboxMode;
}

/**
 * The session's sandbox as its backend keeps it (AR-CONFINE-1..4; spec/scenario.md, "Sandbox").
 * What the world's fake answers: `session.sandbox` of the canonical scenario (absent: full
 * access, on a backend that confines no reads, where a change is accepted), changed by a `backend`
 * event, by a preset selected (its mode) and by `setSandboxMode`.
 */
export interface SandboxPolicy {
  /** Whether the session's backend confines reads (the backend's fact). */
  confinesReads(session: AgentSession): boolean;
  /** The session's sandbox mode now. */
  modeOf(session: AgentSession): SandboxMode;
  /**
   * Changes the session's mode. A change the scenario rejects (`narrowing: {"rejected": message}`)
   * throws `new Error(message)` and keeps the mode; writing the mode the session has changes
   * nothing and meets nothing. A mode that is not one throws a TypeError.
   */
  setSandboxMode(session: AgentSession, mode: SandboxMode): void;
}

/** The services an integration keeps for its lifetime. */
export interface Host {
  /**
   * The run's profile's name, for logs (undefined when `runInput` is given no `profile`). Decide
   * by `rules`, never by this: a profile that recombines rule values has another name.
   */
  readonly profile: Profile | undefined;
  /**
   * The run's rules, as the runner's hello carries them: the reader, each rule where profiles
   * differ, and the `config` members the profile reads (a gate ignores the others).
   */
  readonly rules: Readonly<WireRules>;
  readonly config: Readonly<ResolvedConfig>;
  readonly clock: Clock;
  readonly permissionPresets: {
    current(session: AgentSession): PresetName;
    /**
     * Selects a preset and writes its sandbox mode and approval policy (`danger-full-access`:
     * `danger-full-access` and `never`; `workspace-write`: `workspace-write` and `ask`); selecting
     * `auto` calls the admission hook, then writes the mode the registered Auto preset's `sandbox`
     * gives (`danger-full-access` without one) and `ask` (AR-SCOPE-5). With `keepPolicy`, a
     * preset besides Auto writes its mode and leaves the session's approval policy as it is
     * (AR-CONFINE-5: disposal's move of a confined session to `workspace-write`).
     */
    set(session: AgentSession, name: Preset, options?: { keepPolicy?: boolean }): void;
    /**
     * Makes `auto` selectable while registered; `admit` may throw to refuse a selection.
     * `preset.sandbox(session)`, when given, is the mode selecting Auto writes (under the rule
     * `confinement`, `workspace-write` on a backend that confines reads). Returns the unregistration.
     */
    registerAuto(admit?: (session: AgentSession) => void, preset?: AutoPreset): () => void;
  };
  /**
   * The session's sandbox (AR-CONFINE-1..4), as the scenario's `session.sandbox` states it and
   * its items change it.
   */
  readonly sandboxPolicy: SandboxPolicy;
  readonly approval: {
    overrideOf(session: AgentSession): ApprovalPolicy | undefined;
    effectivePolicy(session: AgentSession): ApprovalPolicy;
  };
  /**
   * Registers a listener on the host's hooks, as an integration does (upstream `ctx.on`), and
   * returns its removal (call it in `dispose`):
   *   `approval/request`   an answerer of the approval service, before the human (ApprovalListener);
   *                        under the rule `body_approvals` `allowed-call` a gate prepends one that
   *                        answers `allowed-once` for a call it allowed that still runs in Auto
   *                        (AR-APPROVAL-7);
   *   `tools/post-execute` runs once a call's result is produced (PostExecuteListener): where a
   *                        gate forgets such a call.
   * `prepend` puts the listener first. Another event's name throws a TypeError.
   */
  on(event: 'approval/request', listener: ApprovalListener, options?: HookOptions): () => void;
  on(event: 'tools/post-execute', listener: PostExecuteListener, options?: HookOptions): () => void;
  readonly sessions: {
    /** The live sessions disposal walks. */
    list(): AgentSession[];
    route(session?: AgentSession): Route;
  };
  readonly workingDirectory: {
    /** The header's directory, else the deployment's (AR-RES-CWD-1). */
    ensure(session?: AgentSession): string;
  };
  log(...args: unknown[]): void;
}

/**
 * One reviewer request (AR-REVIEW-12): the route, and what `review.requests` records: the route
 * (`provider/model`), `temperature` (null when not sent), how many `tools` it declares, its
 * `sessionId` (null when not sent), and whether `system` ends with the repair instruction
 * (MSG-REPAIR-INSTRUCTION).
 */
export interface ReviewRequest {
  provider: string;
  model: string;
  system?: string;
  messages?: unknown[];
  temperature?: number;
  tools?: unknown[] | { [name: string]: unknown };
  sessionId?: string;
  signal?: AbortSignal;
}

/** How a reviewer response ended. */
export interface FinishReason {
  /** `stop`, `max-tokens`, ..., or `error` / `aborted` with a failure. */
  kind: string;
  failure?: { code: string; message: unknown };
}

/** One chunk of a reviewer response, in stream order. */
export type ReviewerChunk =
  | { type: 'block'; block: { type: BlockKind; text: string } }
  | { type: 'finish'; reason: FinishReason }
  | { type: 'usage'; usage: { [key: string]: unknown } };

/** A tool schema as the request header or the tool registry holds it. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: { [key: string]: unknown };
}

/** A review that obtained no decision, as the gate reports it (it becomes `review.failure`). */
export interface ReviewFailureReport {
  class: FailureClass;
  message: string;
  /** The message's tail is the gate's own (AR-CONV-3): compared up to the message only. */
  implementationDefined?: boolean;
}

/** The host's services, plus what belongs to one call. */
export interface Env extends Host {
  readonly approval: Host['approval'] & {
    /**
     * Asked by the tool runtime for an `ask`; a gate does not call it. Throws where the scenario's
     * `approval` is `throws`; otherwise the service's own answers, its answerers
     * (`host.on('approval/request')`), then the human, as for a request a body raises. The
     * outcome's `approval` records it (`prompted`: it went past the service's own answers).
     */
    request(req: {
      agent: Agent;
      toolName: string;
      callId: string;
      reason?: string | null;
      displayReason?: DisplayReasonInput | null;
      signal?: AbortSignal;
    }): Promise<ApprovalOutcome>;
  };
  readonly tools: {
    /** Schemas named `exec.name` in the latest request header (a program's bound ones). */
    headerSchemas(exec?: Exec): ToolSchema[];
    /** Schemas named `exec.name` in the live tool registry. */
    registrySchemas(exec?: Exec): ToolSchema[];
  };
  readonly llm: {
    /**
     * Resolves to the response's chunks, or rejects with the scripted thrown value as it is. A
     * scripted `{"hang": true}` request never settles on its own: when its `signal` aborts it
     * resolves with an `aborted` finish whose failure is `{ code: 'ABORTED', message: <the abort
     * reason's message> }`, as an LLM runtime does when a request is cancelled.
     */
    request(options: ReviewRequest): Promise<ReviewerChunk[]>;
  };
  readonly observe: {
    /**
     * Call it once when the review settles as a failure, BEFORE acting on it: a review that made
     * no request fires its during-review abort points here ("Abort points" below).
     */
    reviewFailure(failure: ReviewFailureReport): void;
  };
}

// ---- Abort points --------------------------------------------------------------------------
// Where a call's scenario aborts it (`abort`, an `AbortPoint`; scenario.md, spec chapter 7), as
// the harness fires it:
//
//   caller-before-dispatch      the caller's signal is aborted before the stage; no listener runs.
//   lifecycle-before-review     the integration's dispose() is called before the call starts.
//   caller-during-review        the caller aborts when the gate starts its first reviewer request;
//   lifecycle-after-review      dispose() is called at the same moment. When the review makes no
//                               request (its route, session or schema did not resolve), both fire
//                               when the gate reports the failure through env.observe.reviewFailure.
//                               For a pass-through call, caller-during-review fires when downstream
//                               is consulted.
//   lifecycle-during-downstream dispose() is called when the gate calls next().
//
// A call with a lifecycle abort point leaves the integration disposed of for the items after it,
// whether or not the point was reached (AR-SESSION-2): the harness then calls dispose() after it.

/**
 * The `tools/pre-execute` listener. Where the run observes `confinement`, a throw out of it (a
 * rejected `setSandboxMode`, say) is the call's final result, as a tool runtime materializes one:
 * `{ executed: false, text: 'Error: <message>', info: null }`, the listener's decision `null`,
 * nothing else run (AR-CONFINE-3); elsewhere the decide fails with `the gate threw: ...`.
 */
export type Listener = (exec: Exec, next: Next, env: Env) => GateDecision | Promise<GateDecision>;

/** What an installation starts from. */
export interface Restored {
  /** Session id -> failures in a row before this run; empty after a disposal (AR-RES-HINT-4). */
  consecutiveFailures: Map<string, number>;
}

/** An installed integration. */
export interface Integration {
  listener: Listener;
  /**
   * Disposal (AR-DISPOSE-1): stop admitting, move live Auto sessions, abort, wait, unregister Auto.
   * Called at a lifecycle abort point of a call or at a `dispose` event; the harness does not wait
   * for it to settle before the call goes on, and drops the integration once the call or event is over.
   */
  dispose(): void | Promise<void>;
  /**
   * The session's failures in a row (AR-RES-HINT-1), for `review.consecutive_failures`. Without
   * it the outcome reports the count the installation started from.
   */
  consecutiveFailures?(session: AgentSession): number;
}

/** Installs the integration once per session, as a host does. */
export type Install = (host: Host, restored: Restored) => Integration;

/** What the shell around a bare listener adds to its `env` (`serve({ gate })`). */
export interface ShellEnv extends Env {
  readonly lifecycle: {
    readonly signal: AbortSignal;
    readonly closing: boolean;
    migrated(session: AgentSession): boolean;
  };
  readonly sessions: Host['sessions'] & {
    consecutiveFailures(session: AgentSession): number;
    setConsecutiveFailures(session: AgentSession, n: number): void;
  };
  /**
   * Says the reviewer allowed this call and downstream returned allow. Under the rule
   * `body_approvals` `allowed-call`, once the listener returns allow for it, the shell answers
   * `allowed-once` to the approval requests naming it that its body raises while the session is
   * in Auto, until its result is produced (AR-APPROVAL-7), as the shipped integration does; under
   * `human`, and for a call the listener does not allow, it does nothing.
   */
  allowCall(exec: Exec): void;
}

/** A bare listener, installed by the harness the way the shipped integration is (protocol-1 form). */
export type Gate = (exec: Exec, next: Next, env: ShellEnv) => GateDecision | Promise<GateDecision>;

// ---- Serving -------------------------------------------------------------------------------

interface ServeCommon {
  implementation: ImplementationInfo;
  /**
   * For each rule, the values the gate implements (protocol 2): the runner checks it against
   * every profile whose rule values are all listed. Default absent: the hello has no `rules`.
   */
  rules?: RuleOffer;
  /**
   * The profiles the gate claims by name. Default none: with `rules` listed, the runner checks the
   * gate against every profile they cover; with neither, it refuses the gate, saying so.
   */
  profiles?: Profile[];
  /** What the gate can observe (protocol 2); list only what it can express. Default none. */
  observes?: Observable[];
  /** What its framework cannot express (protocol 2). Default none: the hello has no `lacks`. */
  lacks?: Capability[];
  /**
   * The optional features the gate implements (protocol 2, spec/protocol.md "Optional features").
   * Default absent: the hello has no `features`, which the runner reads as every feature.
   */
  features?: Feature[];
  /** Where the adapter's logs go. Default: stderr. */
  log?: (...args: unknown[]) => void;
}

/** `serve`'s options: an `install`, or a bare listener `gate`. */
export type ServeOptions = ServeCommon & ({ install: Install; gate?: undefined } | { gate: Gate; install?: undefined });

/**
 * Serve the gate over the adapter protocol on stdin/stdout until `stop` or the end of input,
 * deciding each scenario under the rules the runner's hello carries (`Host.rules`). `--decide` on
 * the command line instead decides lines `{ rules, reply, world, scenario }` from stdin (as each
 * line of spec/fixtures/replay.jsonl holds them), one outcome line each; a line without `rules`
 * is answered with an error saying where to get them (a word after `--decide` only labels lines
 * without their own `profile`).
 */
export declare function serve(options: ServeOptions): void;

/** Options of `runInput` and `runScenario`. */
export interface RunOptions {
  /** The run's rules, as the runner's hello carries them (`autoreview profiles --json` lists each profile's). */
  rules: WireRules;
  /** The profile's name, for `Host.profile` (logs only). */
  profile?: Profile;
  /**
   * What the run observes. Default: all; `review.requests` is reported only with `requests`,
   * `sandbox` (and a listener's throw as the call's result) only with `confinement`, and
   * `body_approvals` (and the trace's `raised` steps) only with `body-approvals`.
   */
  observes?: readonly Observable[];
  /**
   * The decide line's `reply`: `call` resolves to the outcome of the session's only call,
   * otherwise to the session's (`{ id, calls }`).
   */
  reply?: ReplyKind;
  /** The decide line's `world`: what the scripted world answers for each item of `calls`. */
  world: readonly (WorldAnswer | null)[];
  log?: (...args: unknown[]) => void;
}

/**
 * Decide one canonical scenario with the integration `install` makes. Rejects when the gate
 * throws or returns something that is not a decision.
 *
 * The items of a session run one after the other in one world, so whatever the gate keeps
 * carries from call to call. Events:
 *   dispose       dispose() (with `reselect`: right after dispose() is called, before it settles,
 *                 the user selects Auto again, as an observer of the migration would; AR-DISPOSE-5);
 *                 the integration is gone afterwards, and calls pass through to downstream;
 *   install       install(host, { consecutiveFailures: new Map() }) again (AR-INSTALL-1);
 *   select-auto   host.permissionPresets.set(session, 'auto');
 *   backend       the session's backend starts (`confines_reads: true`) or stops confining reads.
 * An event reports the error a selection of Auto met, or null.
 */
export declare function runInput(scenario: CanonicalScenario, install: Install, options: RunOptions): Promise<InputOutcome>;

/** `runInput` for a bare listener gate. */
export declare function runScenario(scenario: CanonicalScenario, gate: Gate, options: RunOptions): Promise<InputOutcome>;

/** The integration the harness installs around a bare listener. */
export declare function shellAround(gate: Gate): Install;

// ---- Canonical scenarios ---------------------------------------------------------------------

/**
 * A scenario as the runner sends it to an adapter whose hello says `canonical: true`
 * (spec/protocol.md, "Canonical scenarios"): always a session, every member named, already read
 * and checked. Its members are those of `SessionScenario`, none left out.
 */
export type CanonicalScenario = SessionScenario;

// ---- The pieces of the world -----------------------------------------------------------------

/** The virtual clock. */
export declare class VirtualClock {
  now(): number;
  /** `priority` orders timers due at the same instant: the world's own (0) before the gate's (1). */
  setTimeout(fn: () => void, ms?: number, priority?: number): number;
  clearTimeout(id: number): void;
  /** Fire the earliest pending timer; false when none is pending. */
  fireNext(): boolean;
}

/** What the harness records of one call while it runs. */
export interface CallRecord {
  trace: Event[];
  attempts: number;
  routes: string[];
  requests: RequestRecord[];
  signalEnded: Set<number>;
  failure: { class: string; message: string; implementationDefined: boolean } | null;
  gateReturned: boolean;
  listener: Decision | null;
  approval: ApprovalRecord | null;
  approvalThrew: boolean;
  result: ToolResult | null;
  /** The session's sandbox mode when the call arrived. */
  sandboxBefore?: SandboxMode;
  /**
   * What each approval request the body raised came to, where the run observes `body-approvals`
   * (the outcome's `body_approvals`, left out when empty).
   */
  bodyApprovals?: BodyApprovalRecord[];
}

/** One call's world, as `runToolCall` takes it. */
export interface CallWorld {
  exec: Exec;
  env: Env;
  rec: CallRecord;
  next: Next;
  /**
   * The tool's body, run when the call is dispatched: it records `body` in the trace, then takes
   * the steps of the call's `body` in order; a promise when it has steps to take (the call's result
   * is produced once it settles).
   */
  body(): void | Promise<void>;
  /** The `tools/post-execute` listeners, run once the call's result is produced; optional. */
  postExecute?(): void | Promise<void>;
  /**
   * Whether a throw out of the listener is the call's final result (`Error: <message>`,
   * AR-CONFINE-3); otherwise `runToolCall` rejects. The harness sets it where the run observes
   * `confinement`.
   */
  materializesThrows?: boolean;
  /** Where the runtime logs a listener's throw it materialized. */
  log?: (...args: unknown[]) => void;
}

/**
 * Run one call through the pre-execute stage and materialize its decision into `world.rec`; then,
 * unless the stage threw, `world.postExecute()`.
 */
export declare function runToolCall(world: CallWorld, listener: Listener | null): Promise<void>;

// ---- Constants -------------------------------------------------------------------------------

/** The newest protocol the harness speaks. */
export declare const PROTOCOL: 2;
/** What a gate can declare it observes. */
export declare const OBSERVABLES: readonly Observable[];
/** What a framework can declare it lacks. */
export declare const CAPABILITIES: readonly Capability[];
/** An optional feature of the resilient profile. */
export type Feature = 'failure-hint' | 'failure-class';
/** The optional features a gate can declare. */
export declare const FEATURES: readonly Feature[];
/** The texts the tool runtime renders (spec chapter 9). */
export declare const RUNTIME_TEXT: {
  /** MSG-ERROR-PREFIX: the text of a refused call. */
  readonly refused: (message: string) => string;
  readonly userRejected: (name: string) => string;
  readonly approvalCancelled: (name: string) => string;
  readonly approvalUnavailable: (name: string) => string;
  readonly noAgent: (name: string) => string;
  readonly abortedBeforeDispatch: string;
};
/** The info of a call aborted before dispatch. */
export declare const INFO_ABORTED: Readonly<{ name: 'AbortError'; code: 'ABORTED_BEFORE_DISPATCH' }>;
/** The deployment's presets besides Auto, and the approval policy selecting each one writes. */
export declare const PRESET_TABLE: Readonly<Record<Exclude<Preset, 'auto'>, ApprovalPolicy>>;
