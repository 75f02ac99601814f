"""The scripted world of one scenario line, and the tool runtime that runs each call in it.

A world holds one session (its preset, approval policy, request header and session log), the
host's services an integration keeps (:class:`Host`), the integration the gate's ``install``
made, and a virtual clock. Each call gets its own services (:class:`Env`): a reviewer client that
answers as the scenario's ``reviewer`` scripts and records each request, the tool schemas, the
approval service, the rest of the pre-execute chain, and the caller's signal, aborted at the
scenario's abort point. The tool runtime (:func:`run_tool_call`, spec chapters 5-8) runs the
gate's listener first, asks the approval service for an ``ask`` and materializes the decision.

Abort points (spec chapter 7), as this world fires them:

* ``caller-before-dispatch``: the caller's signal is aborted before the stage; no listener runs.
* ``lifecycle-before-review``: the integration's ``close()`` is called before the call starts.
* ``caller-during-review`` / ``lifecycle-after-review``: when the gate starts its first reviewer
  request, or — for a review that makes none (route, session or schema unresolved) — when it
  reports the failure through ``env.observe.review_failure``. For a pass-through call,
  ``caller-during-review`` fires when downstream is consulted.
* ``lifecycle-during-downstream``: ``close()`` is called when the gate calls ``next()``.

A call with a lifecycle abort point leaves the integration disposed of for the items after it,
whether or not the point was reached (AR-SESSION-2): the world finishes the disposal after it.

The session's sandbox (spec/scenario.md, "Sandbox"; AR-CONFINE-1..4) is the host's
:class:`SandboxPolicy`, ``host.sandbox_policy``: the session's current mode (starting at
``session.sandbox.mode``), whether its backend confines reads (``confines_reads``, which a
``backend`` event changes) and ``set_sandbox_mode``, which raises :class:`SandboxModeRejected`
with the scenario's message when its ``narrowing`` is ``{"rejected": message}``. Selecting a
preset writes that preset's mode (Auto's is the one its ``register_auto`` names, full access by
default). When the run observes ``confinement``, every call's outcome records the mode when the
call arrived and when it settled (``sandbox``), and the tool runtime materializes an exception
a listener raises as the call's final result, ``Error: <message>`` (AR-CONFINE-3); otherwise such
an exception is the gate's error, as before.

A call whose body runs performs its ``body`` steps in order (spec/scenario.md, "Body"): a
``leave_auto`` step selects its preset through the presets service (the preset, its approval
policy, its sandbox mode); a ``raise`` step asks the approval service with the call's agent, the
call id it names and its reason. The approval service answers every request the same way
(AR-APPROVAL-2, -7, -8): by itself first (``cancelled`` for an aborted caller, ``rejected`` under
the effective policy ``never``), then through the approval-request listeners registered with
``host.approval.on_request`` in order (each may answer or pass on with ``next()``), then the
scripted human (the step's ``answer``, or the call's ``approval``). When the run observes
``body-approvals``, each raised request is recorded in the outcome's ``body_approvals`` with who
answered it, and as a ``raised`` step of the trace. ``host.post_execute`` runs its listeners
whenever a call's tool result is produced.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .api import (
    Agent,
    Allow,
    ApprovalRequest,
    Ask,
    Block,
    Cancel,
    Chunk,
    Decision,
    Deny,
    Finish,
    Installer,
    Integration,
    Parent,
    ReviewerError,
    Session,
    SessionLog,
    ToolCall,
    Usage,
)
from .clock import WORLD, Stalled, VirtualClock, VirtualTimeLoop
from .outcome import CallRecord, FailureReport, build_outcome, listener_record, with_sandbox
from .rules import WHERE, check_rules
from .scenario import APPROVAL_ANSWERS, CONFINED, FULL_ACCESS, LIFECYCLE_ABORTS, Config, decode
from .signals import AbortController, AbortSignal

__all__ = [
    "CAPABILITIES",
    "FEATURES",
    "OBSERVABLES",
    "RUNTIME_TEXT",
    "ApprovalService",
    "Env",
    "Host",
    "PermissionPresets",
    "PostExecute",
    "ReviewerClient",
    "SandboxModeRejected",
    "SandboxPolicy",
    "run_input",
    "run_tool_call",
]

#: What an adapter can declare it observes under protocol 2 (spec/protocol.md).
OBSERVABLES = (
    "sessions",
    "requests",
    "session-log",
    "temperature",
    "unfinished-stream",
    "confinement",
    "body-approvals",
    "json-retries",
)
#: What a gate's framework may lack (the adapter's ``lacks``).
CAPABILITIES = ("deny-reason", "ask-reason", "abort-signal")

#: The resilient profile's optional features (the adapter's ``features``, spec/protocol.md,
#: "Optional features"): a hello without a list implements every one.
FEATURES = ("failure-hint", "failure-class")

# ---- Texts of the tool runtime, the approval service and the presets ---------------------------

RUNTIME_TEXT = {
    "user_rejected": 'the user rejected tool "{name}"',
    "approval_cancelled": 'approval for tool "{name}" was cancelled',
    "approval_unavailable": 'tool "{name}" requires approval, but no approval channel is available',
    "no_agent": 'tool "{name}" requires approval, but the call has no agent to route it through',
    "aborted_before_dispatch": "tool call aborted before dispatch",
}
INFO_ABORTED = {"name": "AbortError", "code": "ABORTED_BEFORE_DISPATCH"}
# The shipped approval service's text for a request outside an open turn (AR-MSG-3).
APPROVAL_THREW_MESSAGE = (
    "approval.request() outside an open turn: the approval/asked + approval/decided audit pair must be "
    "turn-enclosed (a bare event between turns is crash-tail garbage on reload). Ask from inside the "
    "turn that needs the decision."
)
CALLER_ABORT_MESSAGE = "the caller cancelled the call"

#: The deployment's presets besides Auto, and the approval policy selecting each one writes.
PRESET_TABLE = {"read-only": "ask", "workspace-write": "ask", "danger-full-access": "never"}
#: ... and the sandbox mode it writes.
PRESET_SANDBOX = {"read-only": "read-only", "workspace-write": CONFINED, "danger-full-access": FULL_ACCESS}
AUTO = "auto"
# MSG-ERR-NO-AUTO is worded by the deployment (AR-DISPOSE-4): this is the presets service's text.
NO_AUTO_PREFIX = 'permission: unknown preset "auto" (known: '
AUTO_REGISTERED = 'permission: preset "auto" is already registered'
#: The call id of a body's request that names ``unreviewed``: an id no call of a session has.
UNREVIEWED_CALL_ID = "call-unreviewed"


def _prompt_of(system: Any, messages: Any) -> str:
    """What a reviewer request asks: its system text and its messages. A retry repeats the review's
    first request unchanged; a repair asks the reviewer to repair its answer, in whatever words, so
    what it asks differs (AR-REVIEW-12, AR-RES-RETRY-2)."""
    return json.dumps([system, messages], sort_keys=True, default=repr)

#: The request header's working directory, and the deployment's (AR-RES-CWD-1).
HEADER_DIRECTORY = "/home/user/project"
DEPLOYMENT_DIRECTORY = "/srv/agent"


class GateError(Exception):
    """The gate raised, or returned something that is not a decision: an ``error`` reply."""


# ---- The host's services -------------------------------------------------------------------------


class SandboxModeRejected(RuntimeError):
    """A change of the session's sandbox mode was rejected (a persistent terminal's mode fence,
    say); ``str(error)`` is the rejection's own message, the scenario's (AR-CONFINE-3)."""


class _SandboxState:
    """The session's sandbox as its backend keeps it (scenario ``session.sandbox``)."""

    def __init__(self, sandbox: Mapping[str, Any]) -> None:
        self.mode: str = sandbox["mode"]
        self.confines_reads: bool = sandbox["confines_reads"]
        narrowing = sandbox["narrowing"]
        self.rejection: str | None = narrowing["rejected"] if isinstance(narrowing, Mapping) else None


class SandboxPolicy:
    """The session's sandbox (``host.sandbox_policy``): its mode, whether its backend confines reads, and
    the change of mode, which the scenario may reject."""

    def __init__(self, state: _SandboxState) -> None:
        self._state = state

    def mode_of(self, session: Session) -> str:
        """The session's current sandbox mode: ``danger-full-access`` or ``workspace-write``."""
        return self._state.mode

    def confines_reads(self, session: Session) -> bool:
        """Whether the session's backend confines reads (AR-CONFINE-1)."""
        return self._state.confines_reads

    def set_sandbox_mode(self, session: Session, mode: str) -> None:
        """Change the session's mode to ``mode`` (and nothing else: not the preset, not the
        approval policy). Raises :class:`SandboxModeRejected` with the scenario's message when it
        rejects the change, and the mode stays; setting the mode it has changes nothing."""
        if mode == self._state.mode:
            return
        if self._state.rejection is not None:
            raise SandboxModeRejected(self._state.rejection)
        self._state.mode = mode


class PermissionPresets:
    """The deployment's presets, plus Auto while an integration registers it."""

    def __init__(self, preset: str, policy: "_Knobs", sandbox: _SandboxState | None = None) -> None:
        self._preset = preset
        self._knobs = policy
        self._sandbox = sandbox or _SandboxState({"mode": FULL_ACCESS, "confines_reads": False, "narrowing": "accepted"})
        self._admit: Callable[[Session], None] | None = None
        self._auto_sandbox: Callable[[Session], str] = lambda session: FULL_ACCESS

    def current(self, session: Session) -> str:
        """The session's preset (``"custom"`` for one recorded in Auto while nothing registers it)."""
        return "custom" if self._preset == AUTO and self._admit is None else self._preset

    def select(self, session: Session, name: str, *, keep_policy: bool = False) -> None:
        """Select a preset and write the approval policy and the sandbox mode it carries (the
        presets' own write: no change of mode is rejected here); with ``keep_policy`` the session
        keeps the approval policy it holds (AR-CONFINE-5: disposal moving a confined session).
        Selecting Auto first asks the registered admission hook, which may raise (AR-DISPOSE-5),
        and writes the mode its registration names."""
        if name == AUTO:
            if self._admit is None:
                raise LookupError(self._unknown(name))  # AR-DISPOSE-4
            self._admit(session)
            policy, mode = "ask", self._auto_sandbox(session)  # AR-SCOPE-5
        else:
            if name not in PRESET_TABLE:
                raise LookupError(self._unknown(name))
            policy, mode = PRESET_TABLE[name], PRESET_SANDBOX[name]
        if not keep_policy:
            self._knobs.override = policy
        self._sandbox.mode = mode
        self._preset = name

    def register_auto(
        self, admit: Callable[[Session], None] | None = None, sandbox: Callable[[Session], str] | None = None
    ) -> Callable[[], None]:
        """Make Auto selectable; ``admit(session)`` may refuse a selection by raising, and
        ``sandbox(session)`` is the mode selecting Auto writes (default ``danger-full-access``,
        AR-SCOPE-5). Returns the function that unregisters it."""
        if self._admit is not None:
            raise RuntimeError(AUTO_REGISTERED)
        hook = admit or (lambda session: None)
        self._admit = hook
        self._auto_sandbox = sandbox or (lambda session: FULL_ACCESS)

        def unregister() -> None:
            if self._admit is hook:
                self._admit = None

        return unregister

    @staticmethod
    def _unknown(name: str) -> str:
        return f'permission: unknown preset "{name}" (known: {", ".join(PRESET_TABLE)})'


class _Knobs:
    def __init__(self, override: str | None, default: str) -> None:
        self.override, self.default = override, default


#: An approval-request listener: ``listener(request, next)`` returns (or awaits to) an answer,
#: ``await next()`` being the answer of the listeners after it and, after the last, the human's.
ApprovalListener = Callable[[ApprovalRequest, Callable[[], Awaitable[str]]], Any]


class ApprovalPolicies:
    """The session's recorded override and effective approval policy (AR-CONV-5), and the
    approval service's answerers: the approval-request listeners, asked in order after the
    service's own answers and before the human (AR-APPROVAL-2, -7, -8)."""

    def __init__(self, knobs: _Knobs, answerers: list[_Registered] | None = None) -> None:
        self._knobs = knobs
        self._answerers: list[_Registered] = [] if answerers is None else answerers

    def on_request(self, listener: ApprovalListener, *, prepend: bool = False) -> Callable[[], None]:
        """Register an approval-request listener, last (or first with ``prepend``): every request
        the service does not answer by itself reaches ``listener(request, next)`` (an
        :class:`~autoreview_kit.ApprovalRequest`), which returns an answer (``allowed-once``,
        ``rejected``, ``cancelled``, ``unavailable``), or awaits ``next()`` to pass the request
        on. Returns the function that unregisters it."""
        if not callable(listener):
            raise TypeError(f"on_request(listener): {listener!r} is not callable")
        entry = _Registered(listener)
        self._answerers.insert(0, entry) if prepend else self._answerers.append(entry)

        def unregister() -> None:
            if entry in self._answerers:
                self._answerers.remove(entry)

        return unregister

    def override_of(self, session: Session) -> str | None:
        return self._knobs.override

    def effective_policy(self, session: Session) -> str:
        return self._knobs.override or self._knobs.default


class _Registered:
    """One registration of a listener (registering it twice makes two)."""

    def __init__(self, listener: Callable[..., Any]) -> None:
        self.listener = listener


class PostExecute:
    """The ``tools/post-execute`` hook (``host.post_execute``): its listeners run, in order,
    whenever a call's tool result is produced — after the body ran, or when the call was refused
    or cancelled — as ``listener(call, result)`` (``result`` is ``{"executed", "text", "info"}``);
    a listener may be a coroutine function. An exception a listener raises is the gate's error."""

    def __init__(self) -> None:
        self._listeners: list[_Registered] = []

    def register(self, listener: Callable[[ToolCall, Mapping[str, Any]], Any], *, prepend: bool = False) -> Callable[[], None]:
        """Register ``listener`` last (or first with ``prepend``); returns the function that
        unregisters it."""
        if not callable(listener):
            raise TypeError(f"register(listener): {listener!r} is not callable")
        entry = _Registered(listener)
        self._listeners.insert(0, entry) if prepend else self._listeners.append(entry)

        def unregister() -> None:
            if entry in self._listeners:
                self._listeners.remove(entry)

        return unregister

    async def run(self, call: ToolCall, result: Mapping[str, Any]) -> None:
        """Run every listener registered now, in order, on the call's result."""
        for entry in list(self._listeners):
            try:
                done = entry.listener(call, copy.deepcopy(dict(result)))
                if inspect.isawaitable(done):
                    await done
            except Exception as error:
                raise GateError(f"the post-execute listener raised {_describe(error)}") from error


class SessionList:
    """The live sessions disposal walks (scenario ``session.listed``)."""

    def __init__(self, sessions: list[Session]) -> None:
        self._sessions = sessions

    def list(self) -> list[Session]:
        return list(self._sessions)


@dataclass(frozen=True)
class Host:
    """The services an integration keeps for its lifetime.

    ``rules`` are the run's profile's rules (spec/protocol.md, "Rules"; :mod:`autoreview_kit.rules`
    says what each value means): a gate decides by them. ``profile`` is the profile's name, for
    logs only (None when a caller gave rules alone): a gate that decides by the name cannot be
    checked against a profile that only recombines rules it implements.
    """

    profile: str | None
    config: Config
    clock: VirtualClock
    presets: PermissionPresets
    approval: ApprovalPolicies
    sessions: SessionList
    log: Callable[..., None]
    #: Keyword-only, so that the positional fields stay as they were; required (a ValueError
    #: otherwise, saying where rules come from).
    rules: Mapping[str, Any] = field(default=None, kw_only=True)  # type: ignore[assignment]
    #: The session's sandbox (AR-CONFINE-1..4): ``mode_of(session)``, ``confines_reads(session)``
    #: and ``set_sandbox_mode(session, mode)``. Keyword-only; None where a host has none, which
    #: confines nothing.
    sandbox_policy: SandboxPolicy | None = field(default=None, kw_only=True)
    #: The ``tools/post-execute`` hook (:class:`PostExecute`): ``register(listener, *,
    #: prepend=False)``, its listeners run when a call's tool result is produced. Keyword-only;
    #: None where a host has none.
    post_execute: PostExecute | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if self.rules is None:
            raise ValueError(f"Host needs the run's rules: the kit knows no profile by name; {WHERE}")
        object.__setattr__(self, "rules", check_rules(self.rules))

    def ensure_working_directory(self, session: Session) -> str:
        """The header's working directory, else the deployment's (AR-RES-CWD-1)."""
        return session.working_directory or DEPLOYMENT_DIRECTORY


# ---- The services of one call ------------------------------------------------------------------


class ToolSchemas:
    """The tool schemas a call's name finds in the request header (for a ``ptc-inner`` call: the
    schemas bound when its program started) and in the live tool registry."""

    def __init__(self, header: int, registry: int) -> None:
        self._header, self._registry = header, registry

    def header_schemas(self, call: ToolCall) -> list[dict[str, Any]]:
        return _schemas(call.name, self._header)

    def registry_schemas(self, call: ToolCall) -> list[dict[str, Any]]:
        return _schemas(call.name, self._registry)


def _schemas(name: str, count: int) -> list[dict[str, Any]]:
    """``count`` schemas of the name ``name``."""
    return [
        {
            "name": name,
            "description": f"scripted schema of {name!r}" + (f" ({i + 1} of {count})" if count > 1 else ""),
            "parameters": {"type": "object", "properties": {}},
        }
        for i in range(count)
    ]


class Observer:
    """Instrumentation: the gate reports a failed review here before acting on it."""

    def __init__(self, on_failure: Callable[[FailureReport], None]) -> None:
        self._on_failure = on_failure

    def review_failure(self, failure_class: str, message: str, implementation_defined: bool = False) -> None:
        """The review failed with ``failure_class`` (AR-REVIEW-6) and ``message``;
        ``implementation_defined`` when the message's wording is the gate's own (AR-CONV-3)."""
        self._on_failure(FailureReport(str(failure_class), str(message), bool(implementation_defined)))


class ReviewerClient:
    """The LLM client a gate sends reviewer requests through; answers as the scenario scripts."""

    def __init__(self, world: "_CallWorld") -> None:
        self._w = world

    async def request(
        self,
        *,
        provider: str,
        model: str,
        system: str = "",
        messages: Iterable[Any] = (),
        temperature: float | None = None,
        tools: Iterable[Any] | Mapping[str, Any] | None = None,
        session_id: str | None = None,
        signal: AbortSignal | None = None,
    ) -> list[Chunk]:
        """One reviewer request; returns the response's chunks in stream order, or raises
        :class:`ReviewerError` with the scripted thrown value. A scripted ``hang`` never settles on
        its own: when ``signal`` aborts, it returns an ``aborted`` finish (code ``ABORTED``, the
        abort reason as message), as an LLM runtime does; cancelling the request ends it too.
        Other attempts settle after their ``delay_ms``, whatever the signal does (AR-CANCEL-5)."""
        w = self._w
        rec = w.rec
        index = rec.attempts
        rec.attempts += 1
        rec.trace.append("review")
        rec.routes.append(f"{provider}/{model}")
        messages = messages if isinstance(messages, (list, tuple, Mapping, str)) else list(messages)
        prompt = _prompt_of(system, messages)
        if index == 0:
            rec.first_prompt = prompt
        rec.requests.append(
            {
                "route": f"{provider}/{model}",
                "temperature": _number_or_none(temperature),
                "tools": len(list(tools)) if tools is not None and not isinstance(tools, Mapping) else len(tools or {}),
                "session_id": session_id if isinstance(session_id, str) else None,
                # A later request of the review that asks something else than its first is a repair.
                "repair": index > 0 and prompt != rec.first_prompt,
            }
        )
        script = w.spec["reviewer"]
        attempt = script[min(index, len(script) - 1)]
        w.fire_during_review()
        if "hang" in attempt:
            if signal is None:
                await asyncio.get_running_loop().create_future()  # never, unless cancelled
            reason = await signal.wait()  # type: ignore[union-attr]
            if w.caller.signal.aborted or w.disposed_during_call:
                rec.signal_ended.add(index)
            return [Finish("aborted", "ABORTED", str(reason))]
        await w.clock.sleep(attempt["delay_ms"], priority=WORLD)
        if "throw" in attempt:
            raise ReviewerError(copy.deepcopy(attempt["throw"]))
        return _chunks(attempt)


def _number_or_none(value: Any) -> int | float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if float(value).is_integer() else value  # integers are written as integers


def _chunks(attempt: dict[str, Any]) -> list[Chunk]:
    """The chunks a text, blocks or failed-finish attempt answers with, in stream order."""
    if "text" in attempt:
        return [Block("text", attempt["text"]), Finish("stop")]
    if "blocks" in attempt:
        chunks: list[Chunk] = [Block(b["type"], b["text"]) for b in attempt["blocks"]]
        if attempt["finish"] is not None:  # null: the stream ends without a terminal finish
            chunks.append(Finish(attempt["finish"]))
        if attempt["data_after_finish"]:
            chunks.append(Usage())
        return chunks
    f = attempt["finish"]
    return [Finish(f["kind"], f["code"], copy.deepcopy(f["message"]))]


class ApprovalService(ApprovalPolicies):
    """The approval service the tool runtime asks for an ``ask`` and the tool body asks while it
    runs (spec chapter 6): its own answers, then its answerers (the approval-request listeners,
    then the human)."""

    def __init__(self, knobs: _Knobs, world: "_CallWorld", answerers: list[_Registered] | None = None) -> None:
        super().__init__(knobs, answerers)
        self._w = world

    async def _answer(self, request: ApprovalRequest, human: str) -> tuple[str, str]:
        """The service's answer to ``request`` and who gave it: ``service`` (AR-APPROVAL-8: the
        caller's signal aborted, ``cancelled``; then the effective policy ``never`` at the time of
        the request, ``rejected``), ``gate`` (an approval-request listener answered, or changed what
        the human said; AR-APPROVAL-7), or ``human``, who answers ``human``. A listener that
        raises or answers outside the vocabulary makes the answer ``unavailable`` (AR-APPROVAL-2),
        logged on stderr."""
        if request.signal is not None and request.signal.aborted:
            return "cancelled", "service"
        if self.effective_policy(request.agent.session if request.agent else None) == "never":  # type: ignore[arg-type]
            return "rejected", "service"
        listeners = list(self._answerers)
        asked: list[str] = []  # the human's answer, once asked

        async def at(i: int) -> str:
            if i == len(listeners):
                if not asked:
                    asked.append(human)
                return asked[0]
            passed: list[str] = []

            async def call_next() -> str:
                if not passed:  # next() twice passes the request on once
                    passed.append(await at(i + 1))
                return passed[0]

            given = listeners[i].listener(request, call_next)
            if inspect.isawaitable(given):
                given = await given
            if given not in APPROVAL_ANSWERS:
                raise ValueError(f"an approval-request listener answered {given!r}, not one of {', '.join(APPROVAL_ANSWERS)}")
            return given

        try:
            answer = await at(0)
        except Exception as error:
            self._w.env.log(f"[adapter] {request.call_id}: an approval-request listener failed ({_describe(error)}); the answer is unavailable")
            return "unavailable", "gate"
        return answer, "human" if asked and answer == asked[0] else "gate"

    async def request(
        self, *, call: ToolCall, reason: str | None, display_reason: dict[str, str] | None, signal: AbortSignal
    ) -> str:
        """AR-APPROVAL-2/4: ``allowed-once``, ``rejected``, ``cancelled`` or ``unavailable``; raises
        when the scenario's approval is ``throws``, before looking at the signal or the policy."""
        rec = self._w.rec
        rec.trace.append("approval")
        record: dict[str, Any] = {"reason": reason, "display_reason": display_reason, "answer": None, "prompted": False}
        rec.approval = record
        if self._w.spec["approval"] == "throws":
            record["answer"] = "throws"
            rec.approval_threw = True
            raise RuntimeError(APPROVAL_THREW_MESSAGE)
        question = ApprovalRequest(call.agent, call.call_id, call.name, reason, display_reason, signal)
        record["answer"], by = await self._answer(question, self._w.spec["approval"])
        record["prompted"] = by != "service"  # it reached the answerers
        return record["answer"]


@dataclass(frozen=True)
class Env(Host):
    """The services a listener gets with one call: the host's, with this call's approval service
    in place of the policies alone, plus its tool schemas, reviewer client and instrumentation."""

    approval: ApprovalService
    tools: ToolSchemas
    llm: ReviewerClient
    observe: Observer


# ---- One call ------------------------------------------------------------------------------------


class _CallWorld:
    """One call: its recorder, signals, services and the rest of the chain."""

    def __init__(self, world: "_World", spec: dict[str, Any], n: int) -> None:
        self.spec = spec
        self.n = n
        self.clock = world.clock
        self.rec = CallRecord(spec["id"])
        self.caller = AbortController()
        self.disposed_during_call = False
        #: Whether a listener's exception is the call's final result (AR-CONFINE-3), as where the
        #: run observes confinement; otherwise it is the gate's error.
        self.materializes_throws = "confinement" in world.observes
        self._world = world
        self._review_abort_fired = False
        if spec["abort"] == "caller-before-dispatch":
            self.abort_caller()
        if spec["abort"] == "lifecycle-before-review":
            self.dispose()

        self.call = ToolCall(
            name=spec["tool"]["name"],
            call_id=f"call-{n}",
            kind=spec["tool"]["call"],
            parent=Parent("run_code", f"program-{n}") if spec["tool"]["call"] == "ptc-inner" else None,
            agent=Agent("agent-1", world.session) if spec["agent"] else None,
            signal=self.caller.signal,
            arguments={},
        )
        world.log_errors[self.call.call_id] = spec["world"]["log_error"]
        self.env = Env(
            **{**vars(world.host), "approval": ApprovalService(world.knobs, self, world.answerers)},
            tools=ToolSchemas(spec["world"]["header_schemas"], spec["world"]["registry_schemas"]),
            llm=ReviewerClient(self),
            observe=Observer(self._failure_reported),
        )

    def abort_caller(self) -> None:
        self.caller.abort(CALLER_ABORT_MESSAGE)

    def dispose(self) -> None:
        self.disposed_during_call = True
        self._world.begin_disposal()

    def fire_during_review(self) -> None:
        """``caller-during-review`` / ``lifecycle-after-review``: once, while the review runs."""
        if self._review_abort_fired:
            return
        self._review_abort_fired = True
        if self.spec["abort"] == "caller-during-review":
            self.abort_caller()
        if self.spec["abort"] == "lifecycle-after-review":
            self.dispose()

    def _failure_reported(self, failure: FailureReport) -> None:
        self.rec.failure = failure
        # A review that fails without a request ends here: the during-review points fire now,
        # before the gate acts on the failure.
        if self.rec.attempts == 0:
            self.fire_during_review()

    async def next(self) -> Decision:
        """The rest of the pre-execute chain, ending in allow."""
        self.rec.trace.append("downstream")
        if self.spec["abort"] == "lifecycle-during-downstream":
            self.dispose()
        if self.spec["abort"] == "caller-during-review":
            self.fire_during_review()  # a pass-through call: the caller aborts while the stage runs
        d = self.spec["downstream"]
        match d["kind"]:
            case "allow":
                return Allow()
            case "deny":
                return Deny(d["reason"], copy.deepcopy(d["info"]))
            case "cancel":
                return Cancel()
        return Ask(d["reason"])

    async def body(self) -> None:
        """The tool body: its ``body`` steps in order (spec/scenario.md, "Body")."""
        self.rec.trace.append("body")
        call, world = self.call, self._world
        for step in self.spec.get("body", ()):
            if "leave_auto" in step:
                # The presets service writes the preset's bundle: preset, approval policy, sandbox mode.
                world.presets.select(world.session, step["leave_auto"])
                continue
            raised = step["raise"]
            call_id = {
                "own": call.call_id,
                "none": None,
                "unreviewed": UNREVIEWED_CALL_ID,
                "finished": f"call-{self.n - 1}",  # the most recent earlier call (a realizability rule)
            }[raised["call_id"]]
            request = ApprovalRequest(call.agent, call_id, call.name, raised["reason"], None, call.signal)
            answer, by = await self.env.approval._answer(request, raised.get("answer", self.spec["approval"]))
            if "body-approvals" in world.observes:
                self.rec.body_approvals.append({"call_id": raised["call_id"], "reason": raised["reason"], "answered_by": by, "answer": answer})
                self.rec.trace.append("raised")


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


async def run_tool_call(w: _CallWorld, listener: Callable[..., Any] | None) -> None:
    """Run one call through the pre-execute stage and materialize its decision (chapters 5-8),
    then, once its tool result is produced, the post-execute hook. ``listener`` is the gate's, or
    None once the integration is gone: the rest of the chain then decides alone (AR-DISPOSE-4)."""
    await _pre_execute_and_dispatch(w, listener)
    if w.rec.result is not None and w.env.post_execute is not None:
        await w.env.post_execute.run(w.call, w.rec.result)


async def _pre_execute_and_dispatch(w: _CallWorld, listener: Callable[..., Any] | None) -> None:
    call, rec = w.call, w.rec

    def refuse(text: str, info: Mapping[str, Any] | None = None) -> None:
        rec.result = {"executed": False, "text": text, "info": copy.deepcopy(dict(info)) if info else None}

    def aborted_before_dispatch() -> None:
        refuse("Error: " + RUNTIME_TEXT["aborted_before_dispatch"], INFO_ABORTED)  # AR-RESULT-4

    async def dispatch() -> None:
        if call.signal.aborted:
            return aborted_before_dispatch()  # AR-RESULT-1
        await w.body()
        rec.result = {"executed": True, "text": None, "info": None}

    if call.signal.aborted:
        return aborted_before_dispatch()  # AR-CANCEL-1: no listener runs

    try:
        decision = await (w.next() if listener is None else listener(call, w.next, w.env))
    except Exception as error:
        if not w.materializes_throws:
            raise GateError(f"the gate raised {_describe(error)}") from error
        # AR-CONFINE-3: a throw in the pre-execute stage is the call's final result; the listener
        # returned no decision and nothing runs.
        w.env.log(f"[adapter] {call.call_id}: the pre-execute listener raised {_describe(error)}; the call ends with it")
        return refuse(f"Error: {error}")
    try:
        rec.listener = listener_record(decision)
    except Exception as error:
        raise GateError(f"the gate raised {_describe(error)}") from error

    name = call.name
    match rec.listener["kind"]:
        case "allow":
            return await dispatch()
        case "deny":
            return refuse("Error: " + rec.listener["reason"], rec.listener.get("info"))  # AR-RESULT-2
        case "cancel":
            return aborted_before_dispatch()
    # ask
    if call.agent is None:
        return refuse("Error: " + RUNTIME_TEXT["no_agent"].format(name=name))  # AR-APPROVAL-1
    try:
        answer = await w.env.approval.request(
            call=call, reason=rec.listener.get("reason"), display_reason=rec.listener.get("display_reason"), signal=call.signal
        )
    except Exception as error:  # AR-APPROVAL-4, AR-RESULT-5
        return refuse(f"Error: {error}")
    match answer:
        case "allowed-once":
            return await dispatch()
        case "rejected":
            return refuse("Error: " + RUNTIME_TEXT["user_rejected"].format(name=name))
        case "cancelled":
            if call.signal.aborted:
                return aborted_before_dispatch()  # AR-RESULT-3
            return refuse("Error: " + RUNTIME_TEXT["approval_cancelled"].format(name=name))
    return refuse("Error: " + RUNTIME_TEXT["approval_unavailable"].format(name=name))


# ---- One scenario line: the session, its integration, its items ----------------------------------


class _Installed:
    def __init__(self, integration: Integration, restored: Mapping[str, int]) -> None:
        self.integration = integration
        self.restored = restored
        self.closing: asyncio.Task[Any] | None = None
        self.close_error: Exception | None = None


class _World:
    def __init__(
        self,
        sc: dict[str, Any],
        profile: str | None,
        rules: Mapping[str, Any],
        install: Installer,
        observes: Iterable[str],
        log: Callable[..., None],
    ) -> None:
        self.sc = sc
        self.rules = rules
        self.observes = tuple(observes)
        self.install = install
        self.loop = VirtualTimeLoop()
        self.loop.set_exception_handler(
            lambda loop, context: log(f"[adapter] {context.get('message')}: {context.get('exception')!r}")
        )
        self.clock = self.loop.clock
        self.knobs = _Knobs(sc["policy"]["override"], sc["policy"]["default"])
        self.answerers: list[_Registered] = []  # the approval service's request listeners, in order
        self.log_errors: dict[str, str | None] = {}
        s = sc["session"]
        self.session = Session(
            id=s["id"],
            route=s["route"],
            working_directory=HEADER_DIRECTORY if s["working_directory"] else None,
            log=SessionLog(self.log_errors),
        )
        self.sandbox = _SandboxState(s["sandbox"])
        self.presets = PermissionPresets(sc["preset"], self.knobs, self.sandbox)
        self.host = Host(
            profile=profile,
            rules=rules,
            config=sc["config"],
            clock=self.clock,
            presets=self.presets,
            approval=ApprovalPolicies(self.knobs, self.answerers),
            sessions=SessionList([self.session] if s["listed"] else []),
            log=log,
            sandbox_policy=SandboxPolicy(self.sandbox),
            post_execute=PostExecute(),
        )
        self.installed: _Installed | None = None
        self.calls = 0
        self._install({self.session.id: s["consecutive_failures"]})

    def _install(self, restored: Mapping[str, int]) -> None:
        integration = self.install(self.host, restored)
        for member in ("listener", "close", "wait_closed"):
            if not callable(getattr(integration, member, None)):
                raise TypeError(f"install(host, restored) must return an integration with {member}()")
        self.installed = _Installed(integration, restored)

    def begin_disposal(self) -> None:
        """Start disposing of the installed integration, once: ``close()`` now, and
        ``wait_closed()`` running alongside whatever comes next."""
        used = self.installed
        if used is None or used.closing is not None or used.close_error is not None:
            return
        try:
            used.integration.close()
        except Exception as error:  # reported when the disposal is finished
            used.close_error = error
            return
        used.closing = self.loop.create_task(self._rest_of_disposal(used.integration))

    @staticmethod
    async def _rest_of_disposal(integration: Integration) -> None:
        # close() happened at the abort point; the rest runs once the call under way (or about to
        # start) has taken its first step, as when a host starts disposal without awaiting it.
        await asyncio.sleep(0)
        await integration.wait_closed()

    def finish_disposal(self) -> None:
        """Let the disposal settle; the integration is gone afterwards."""
        self.begin_disposal()
        used = self.installed
        if used is None:
            return
        if used.close_error is not None:
            raise GateError(f"close() raised {_describe(used.close_error)}") from used.close_error
        assert used.closing is not None
        try:
            self.loop.drive(used.closing)
        except Stalled:
            self.host.log("[adapter] wait_closed() never settled; the integration is dropped anyway")
        except Exception as error:
            raise GateError(f"disposing of the integration failed: {_describe(error)}") from error
        self.installed = None

    def _count(self, used: _Installed | None) -> int:
        """The failures in a row the integration counts for the session; 0 with none installed."""
        if used is None:
            return 0
        count_of = getattr(used.integration, "consecutive_failures", None)
        if count_of is None:
            return used.restored.get(self.session.id, 0)
        n = count_of(self.session)
        if type(n) is not int or n < 0:
            raise GateError(f"consecutive_failures(session) returned {n!r}, not a count")
        return n

    def run_call(self, spec: dict[str, Any]) -> dict[str, Any]:
        used = self.installed
        self.calls += 1
        before = self.sandbox.mode  # as the call arrives, before any abort point fires
        w = _CallWorld(self, spec, self.calls)
        listener = None if used is None else used.integration.listener
        try:
            self.loop.drive(run_tool_call(w, listener))
        except Stalled:
            pass  # never settles: the outcome says so
        outcome = build_outcome(
            w.rec,
            # AR-RES-HINT-1: reported where the rules count failures in a row.
            consecutive_failures=self._count(used) if self.rules["counts_failures"] else None,
            requests="requests" in self.observes,
        )
        if spec["abort"] in LIFECYCLE_ABORTS:
            self.finish_disposal()  # AR-SESSION-2
        if "confinement" in self.observes and spec["agent"]:
            # The mode the call settled under: disposal during the call, reached or finished after
            # it, moved a listed Auto session and wrote its preset's mode (AR-DISPOSE-1). Only the
            # mode: a call that had not settled stays as it was recorded. A call without an agent
            # has no session, so no mode: its outcome has no sandbox (read as full access).
            outcome = with_sandbox(outcome, before, self.sandbox.mode)
        return outcome

    def run_event(self, spec: dict[str, Any]) -> dict[str, Any]:
        error: str | None = None

        def select_auto() -> None:
            nonlocal error
            try:
                self.presets.select(self.session, AUTO)
            except Exception as raised:
                error = str(raised)

        if spec["event"] == "dispose":
            self.begin_disposal()
            if spec["reselect"]:
                select_auto()  # an observer of the migration, while the integration closes
            self.finish_disposal()
        elif spec["event"] == "install":
            self._install({})  # AR-INSTALL-1, AR-RES-HINT-4
        elif spec["event"] == "backend":
            self.sandbox.confines_reads = spec["confines_reads"]  # from now on (AR-CONFINE-1, -2)
        else:
            select_auto()
        outcome: dict[str, Any] = {"event": spec["event"], "error": error}
        if error is not None and error.startswith(NO_AUTO_PREFIX):
            outcome["prefix_only"] = {"/error": 0}  # the deployment's presets (AR-DISPOSE-4)
        return outcome

    def shutdown(self) -> None:
        self.loop.shutdown()


def run_input(
    raw: Any,
    install: Installer,
    *,
    world: Any,
    profile: str | None = None,
    rules: Mapping[str, Any] | None = None,
    reply: str = "session",
    observes: Iterable[str] = OBSERVABLES,
    log: Callable[..., None] = lambda *args: None,
) -> dict[str, Any]:
    """Decide one canonical scenario (already parsed with ``json.loads``; spec/protocol.md,
    "Canonical scenarios") with the integration ``install`` makes, under ``rules`` (the runner's
    hello's, or a replay line's ``rules``; spec/protocol.md, "Rules"), its world answering as
    ``world`` (the decide line's ``world``) says. ``profile`` is the profile's name, passed on as
    ``host.profile`` for logs. Returns the outcome of spec/scenario.md: with ``reply="call"`` (the
    decide line's ``reply``) that of the session's only call, otherwise the session's
    (``{"id", "calls": [...]}``). Raises :class:`GateError` when the gate raises or returns
    something that is not a decision, ValueError when ``rules`` is not the rules of a profile.
    ``observes`` says what the run observes: ``review.requests`` is reported only with
    ``requests``, ``sandbox`` only with ``confinement`` (which also makes a listener's exception
    the call's final result, AR-CONFINE-3). Without ``rules``, a ValueError saying where they come from: the kit knows no
    profile by name."""
    observes = tuple(observes)
    if rules is None:
        raise ValueError(f"run_input: no rules given: a gate decides by the run's rules, not by a profile's name; {WHERE}")
    rules = check_rules(rules)
    sc = decode(raw, world)
    w = _World(sc, profile, rules, install, observes, log)
    try:
        outcomes = [w.run_event(item) if "event" in item else w.run_call(item) for item in sc["calls"]]
    finally:
        w.shutdown()
    return outcomes[0] if reply == "call" else {"id": sc["id"], "calls": outcomes}
