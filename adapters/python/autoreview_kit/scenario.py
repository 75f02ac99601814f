"""Reading scenarios strictly (spec/scenario.md): defaults applied, unknown members and values out
of range refused with the member's path, and what no runtime produces refused by its rule
(RZ-1..6).

``read_input(obj)`` takes a scenario line already parsed with ``json.loads`` — a single call or a
session — and returns a :class:`Scenario` in the session form (a single call is a session of one
call), or raises :class:`ScenarioError` naming the member, e.g.
``calls[1].reviewer.blocks[0].kind: unknown member (allowed: type, text)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Union

__all__ = [
    "LIFECYCLE_ABORTS",
    "LOG_FACTS",
    "Attempt",
    "BlocksAttempt",
    "CallSpec",
    "Config",
    "Downstream",
    "EventSpec",
    "FailedFinishAttempt",
    "HangAttempt",
    "Policy",
    "Route",
    "Scenario",
    "ScenarioError",
    "SessionSpec",
    "TextAttempt",
    "ThrowAttempt",
    "read_input",
]


class ScenarioError(ValueError):
    """A scenario the contract refuses; the message starts with the member's path."""


# ---- What a scenario holds, defaults applied ---------------------------------------------------


@dataclass(frozen=True)
class Route:
    provider: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


@dataclass(frozen=True)
class Config:
    """The resilient gate's configuration (AR-RES-CONFIG-1) with its defaults."""

    on_failure: str = "ask"
    repair_attempts: int = 1
    transport_retries: int = 1
    review_timeout_ms: int = 60000
    reviewer_route: Route | None = None
    failure_hint_after: int = 3


@dataclass(frozen=True)
class Policy:
    override: str | None = None  # "ask" | "never" | None
    default: str = "ask"


@dataclass(frozen=True)
class SessionSpec:
    id: str = "session-1"
    route: Route = Route("default", "default")
    consecutive_failures: int = 0
    listed: bool = True
    working_directory: bool = True


@dataclass(frozen=True)
class TextAttempt:
    text: str
    delay_ms: int = 0


@dataclass(frozen=True)
class BlocksAttempt:
    blocks: tuple[tuple[str, str], ...]  # (type, text)
    finish: str = "stop"
    data_after_finish: bool = False
    delay_ms: int = 0


@dataclass(frozen=True)
class FailedFinishAttempt:
    kind: str  # "error" | "aborted"
    code: str
    message: Any
    delay_ms: int = 0


@dataclass(frozen=True)
class ThrowAttempt:
    value: Any
    delay_ms: int = 0


@dataclass(frozen=True)
class HangAttempt:
    pass


Attempt = Union[TextAttempt, BlocksAttempt, FailedFinishAttempt, ThrowAttempt, HangAttempt]


@dataclass(frozen=True)
class Downstream:
    """What the rest of the pre-execute chain returns: allow, deny (reason, info), cancel, ask."""

    kind: str
    reason: str | None = None
    info: dict[str, Any] | None = None


@dataclass(frozen=True)
class CallSpec:
    id: str | None
    tool_name: str
    kind: str  # "native" | "ptc-inner" | "run-code"
    agent: bool
    schema_header: str  # "present" | "missing" | "ambiguous"
    schema_registry: str
    log: str
    reviewer: tuple[Attempt, ...]
    downstream: Downstream
    approval: str
    abort: str


@dataclass(frozen=True)
class EventSpec:
    event: str  # "dispose" | "install" | "select-auto"
    reselect: bool = False


@dataclass(frozen=True)
class Scenario:
    """A scenario line in the session form: a single call is a session of one call."""

    id: str | None
    is_session: bool
    preset: str
    policy: Policy
    session: SessionSpec
    config: Config
    items: tuple[CallSpec | EventSpec, ...] = field(default_factory=tuple)


# ---- The checks ---------------------------------------------------------------------------------

LOG_FACTS = (
    "consistent",
    "ptc-start-without-step",
    "ptc-identity-ambiguous",
    "no-open-step",
    "root-not-logged-once",
    "ptc-start-missing",
    "root-twice-in-surface",
    "native-identity-ambiguous",
    "visible-call-unlogged",
    "unstarted-call-dispatched",
    "not-a-started-prefix",
    "visible-call-disagrees",
    "root-not-in-surface",
    "native-call-disagrees",
    "ptc-call-disagrees",
)
LIFECYCLE_ABORTS = ("lifecycle-before-review", "lifecycle-after-review", "lifecycle-during-downstream")
ABORTS = ("none", *LIFECYCLE_ABORTS, "caller-before-dispatch", "caller-during-review")
PRESETS = ("auto", "danger-full-access", "workspace-write", "read-only")
APPROVALS = ("allowed-once", "rejected", "cancelled", "unavailable", "throws")
SCHEMA_COUNTS = ("present", "missing", "ambiguous")
CALL_MEMBERS = ("id", "tool", "agent", "schema", "log", "reviewer", "downstream", "approval", "abort")
SESSION_MEMBERS = ("session", "config", "preset", "policy")
_AUTO_REGISTERED = 'permission: preset "auto" is already registered'


def _fail(path: str, message: str) -> None:
    raise ScenarioError(f"{path}: {message}")


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _object(value: Any, path: str, allowed: tuple[str, ...], shape: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _fail(path or "scenario", f"must be {shape}")
    for key in value:
        if key not in allowed:
            _fail(_at(path, key), f"unknown member (allowed: {', '.join(allowed)})")
    return value


def _one_of(value: Any, path: str, values: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in values:
        _fail(path, f"{_show(value)} is not one of {', '.join(values)}")
    return value


def _integer(value: Any, path: str, low: int, high: int | None = None) -> int:
    # bool is an int in Python, never in JSON; 1.0 is a float here, and refused as JSON's 1.0 is.
    if type(value) is not int or value < low or (high is not None and value > high):
        wanted = f">= {low}" if high is None else f"in {low}..{high}"
        _fail(path, f"{_show(value)} must be an integer {wanted}")
    return value


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str):
        _fail(path, "must be a string")
    return value


def _boolean(value: Any, path: str) -> bool:
    if type(value) is not bool:
        _fail(path, "must be a boolean")
    return value


def _route(value: Any, path: str) -> Route:
    _object(value, path, ("provider", "model"), '{"provider", "model"}')
    return Route(_string(value.get("provider"), f"{path}.provider"), _string(value.get("model"), f"{path}.model"))


def _attempt(a: Any, path: str) -> Attempt:
    if not isinstance(a, dict):
        _fail(path, "an attempt must be an object")

    def delay(*keys: str) -> int:
        _object(a, path, (*keys, "delay_ms"), "an attempt")
        return _integer(a["delay_ms"], f"{path}.delay_ms", 0) if "delay_ms" in a else 0

    if "hang" in a:
        _object(a, path, ("hang",), "an attempt")
        if a["hang"] is not True:
            _fail(f"{path}.hang", "must be true")
        return HangAttempt()
    if "text" in a:
        d = delay("text")
        return TextAttempt(_string(a["text"], f"{path}.text"), d)
    if "blocks" in a:
        d = delay("blocks", "finish", "data_after_finish")
        if not isinstance(a["blocks"], list):
            _fail(f"{path}.blocks", "must be an array")
        blocks = []
        for i, b in enumerate(a["blocks"]):
            p = f"{path}.blocks[{i}]"
            _object(b, p, ("type", "text"), '{"type", "text"}')
            blocks.append(
                (_one_of(b.get("type"), f"{p}.type", ("reasoning", "text", "tool-call")), _string(b.get("text"), f"{p}.text"))
            )
        finish = _string(a["finish"], f"{path}.finish") if "finish" in a else "stop"
        after = _boolean(a["data_after_finish"], f"{path}.data_after_finish") if "data_after_finish" in a else False
        return BlocksAttempt(tuple(blocks), finish, after, d)
    if "throw" in a:
        d = delay("throw")
        return ThrowAttempt(a["throw"], d)
    if "finish" in a:
        d = delay("finish")
        p = f"{path}.finish"
        f = _object(a["finish"], p, ("kind", "code", "message"), '{"kind": "error"|"aborted", "code": string, "message": any}')
        if "message" not in f:
            _fail(f"{p}.message", "missing")
        return FailedFinishAttempt(
            _one_of(f.get("kind"), f"{p}.kind", ("error", "aborted")), _string(f.get("code"), f"{p}.code"), f["message"], d
        )
    _fail(path, 'an attempt is one of {"text"}, {"blocks"}, {"finish"}, {"throw"}, {"hang": true}')
    raise AssertionError  # unreachable


def _downstream(d: Any) -> Downstream:
    path = "downstream"
    if not isinstance(d, dict):
        _fail(path, "must be an object")
    kind = d.get("kind")
    if kind in ("allow", "cancel"):
        _object(d, path, ("kind",), "an object")
        return Downstream(kind)
    if kind == "deny":
        _object(d, path, ("kind", "reason", "info"), "an object")
        info = d.get("info")
        if info is not None and not isinstance(info, dict):
            _fail(f"{path}.info", "must be an object or null")
        return Downstream("deny", _string(d.get("reason"), f"{path}.reason"), info)
    if kind == "ask":
        _object(d, path, ("kind", "reason"), "an object")
        return Downstream("ask", _string(d.get("reason"), f"{path}.reason"))
    _fail(f"{path}.kind", f"{_show(kind)} is not one of allow, deny, cancel, ask")
    raise AssertionError  # unreachable


def _config(c: Any) -> Config:
    _object(c, "config", tuple(Config.__dataclass_fields__), "an object")
    values: dict[str, Any] = {}
    if "on_failure" in c:
        values["on_failure"] = _one_of(c["on_failure"], "config.on_failure", ("ask", "deny"))
    for name in ("repair_attempts", "transport_retries"):
        if name in c:
            values[name] = _integer(c[name], f"config.{name}", 0, 5)
    for name in ("review_timeout_ms", "failure_hint_after"):
        if name in c:
            values[name] = _integer(c[name], f"config.{name}", 1)
    if c.get("reviewer_route") is not None:
        route = _route(c["reviewer_route"], "config.reviewer_route")
        if not route.provider or not route.model:
            _fail("config.reviewer_route", "a configured reviewer route names a non-empty provider and model (AR-RES-CONFIG-1)")
        values["reviewer_route"] = route
    return Config(**values)


def _head(raw: dict[str, Any]) -> tuple[str, Policy, SessionSpec, Config]:
    """The session's members (``preset``, ``policy``, ``session``, ``config``) with defaults."""
    preset = _one_of(raw["preset"], "preset", PRESETS) if "preset" in raw else "auto"

    policy = Policy()
    if "policy" in raw:
        p = raw["policy"]
        if isinstance(p, str):
            policy = Policy(_one_of(p, "policy", ("ask", "never")))
        elif isinstance(p, dict):
            _object(p, "policy", ("override", "default"), "an object")
            override = _one_of(p["override"], "policy.override", ("ask", "never")) if p.get("override") is not None else None
            default = _one_of(p["default"], "policy.default", ("ask", "never")) if "default" in p else "ask"
            policy = Policy(override, default)
        else:
            _fail("policy", 'must be "ask", "never" or {"override", "default"}')

    session = SessionSpec()
    if "session" in raw:
        s = _object(
            raw["session"], "session", ("id", "route", "consecutive_failures", "listed", "working_directory"), "an object"
        )
        session = SessionSpec(
            id=_string(s["id"], "session.id") if "id" in s else session.id,
            route=_route(s["route"], "session.route") if "route" in s else session.route,
            consecutive_failures=_integer(s["consecutive_failures"], "session.consecutive_failures", 0, 0xFFFFFFFF)
            if "consecutive_failures" in s
            else 0,
            listed=_boolean(s["listed"], "session.listed") if "listed" in s else True,
            working_directory=_boolean(s["working_directory"], "session.working_directory") if "working_directory" in s else True,
        )
    config = _config(raw["config"]) if "config" in raw else Config()
    return preset, policy, session, config


def _refuse_unrealizable(call: CallSpec) -> None:
    """RZ-1..4: calls the tool runtime cannot produce."""
    if call.kind == "run-code" and call.tool_name != "run_code":
        _fail("tool.name", 'unrealizable (RZ-1): a run-code call is the transport tool itself, so it must be named "run_code"')
    if call.kind != "run-code" and call.tool_name == "run_code":
        _fail(
            "tool.name",
            f'unrealizable (RZ-2): a {call.kind} call cannot be named "run_code"; the runtime reserves that name for the transport',
        )
    if call.kind == "ptc-inner" and call.schema_header == "ambiguous":
        _fail("schema.header", 'unrealizable (RZ-3): a ptc-inner call\'s bound schema is one schema or none, never "ambiguous"')
    ptc_only = call.log in ("ptc-start-missing", "ptc-call-disagrees")
    if (ptc_only and call.kind == "native") or (call.log == "native-call-disagrees" and call.kind == "ptc-inner"):
        _fail(
            "log",
            "unrealizable (RZ-4): only a ptc-inner call can have ptc-start-missing or ptc-call-disagrees, and only a native call native-call-disagrees",
        )


def _call(raw: dict[str, Any]) -> CallSpec:
    """One call's own members, with their defaults."""
    call_id = _string(raw["id"], "id") if raw.get("id") is not None else None
    tool = _object(raw.get("tool"), "tool", ("name", "call"), 'required: {"name": string, "call"?: ...}')
    name = _string(tool.get("name"), "tool.name")
    kind = _one_of(tool["call"], "tool.call", ("native", "ptc-inner", "run-code")) if "call" in tool else "native"
    agent = _boolean(raw["agent"], "agent") if "agent" in raw else True

    header = registry = "present"
    if "schema" in raw:
        s = raw["schema"]
        if isinstance(s, str):
            _one_of(s, "schema", (*SCHEMA_COUNTS, "registry-only"))
            header, registry = ("missing", "present") if s == "registry-only" else (s, s)
        elif isinstance(s, dict):
            _object(s, "schema", ("header", "registry"), "an object")
            header = _one_of(s["header"], "schema.header", SCHEMA_COUNTS) if "header" in s else "present"
            registry = _one_of(s["registry"], "schema.registry", SCHEMA_COUNTS) if "registry" in s else "present"
        else:
            _fail("schema", 'must be a string or {"header", "registry"}')

    log = _one_of(raw["log"], "log", LOG_FACTS) if "log" in raw else "consistent"
    if "reviewer" not in raw:
        _fail("reviewer", "required")
    script = raw["reviewer"]
    if isinstance(script, list):
        if not script:
            _fail("reviewer", "must script at least one attempt")
        reviewer = tuple(_attempt(a, f"reviewer[{i}]") for i, a in enumerate(script))
    else:
        reviewer = (_attempt(script, "reviewer"),)
    downstream = _downstream(raw["downstream"]) if "downstream" in raw else Downstream("allow")
    approval = _one_of(raw["approval"], "approval", APPROVALS) if "approval" in raw else "unavailable"
    abort = _one_of(raw["abort"], "abort", ABORTS) if "abort" in raw else "none"
    call = CallSpec(call_id, name, kind, agent, header, registry, log, reviewer, downstream, approval, abort)
    _refuse_unrealizable(call)
    return call


def _event(raw: dict[str, Any], path: str) -> EventSpec:
    _object(raw, path, ("event", "reselect"), "an object")
    event = _one_of(raw["event"], f"{path}.event", ("dispose", "install", "select-auto"))
    reselect = _boolean(raw["reselect"], f"{path}.reselect") if "reselect" in raw else False
    if reselect and event != "dispose":
        _fail(f"{path}.reselect", "only a dispose event can re-select Auto while the integration closes")
    return EventSpec(event, reselect)


def _session_scenario(raw: dict[str, Any]) -> Scenario:
    _object(raw, "", ("id", "calls", *SESSION_MEMBERS), "a JSON object")
    scenario_id = _string(raw["id"], "id") if raw.get("id") is not None else None
    calls = raw["calls"]
    if not isinstance(calls, list):
        _fail("calls", "give an array of calls and events")
    if not calls:
        _fail("calls", "a session holds at least one call or event")
    preset, policy, session, config = _head(raw)
    installed = True
    items: list[CallSpec | EventSpec] = []
    for i, item in enumerate(calls):
        path = f"calls[{i}]"
        if not isinstance(item, dict):
            _fail(path, 'an item is a call object or an event object ({"event": "dispose"})')
        if "event" in item:
            event = _event(item, path)
            if event.event == "dispose" and not installed:
                _fail(f"{path}.event", "unrealizable (RZ-5): the integration was already disposed of; install it again first")
            if event.event == "install" and installed:
                _fail(
                    f"{path}.event",
                    f"unrealizable (RZ-6): the integration is installed; a second installation is refused (`{_AUTO_REGISTERED}`)",
                )
            if event.event != "select-auto":
                installed = event.event == "install"
            items.append(event)
            continue
        own = next((k for k in SESSION_MEMBERS if k in item), None)
        if own is not None:
            _fail(f"{path}.{own}", f"`{own}` belongs to the session: give it once at the top of the session scenario")
        try:
            _object(item, "", CALL_MEMBERS, "a JSON object")
            call = _call(item)
        except ScenarioError as error:
            raise ScenarioError(f"{path}.{error}") from None
        if call.abort in LIFECYCLE_ABORTS:
            if not installed:
                _fail(
                    f"{path}.abort",
                    "unrealizable (RZ-5): no integration is installed, so none can be disposed of during this call",
                )
            installed = False
        items.append(call)
    return Scenario(scenario_id, True, preset, policy, session, config, tuple(items))


def read_input(raw: Any) -> Scenario:
    """Any scenario line, parsed: a session (an object with ``calls``) or a single call."""
    if isinstance(raw, dict) and "calls" in raw:
        return _session_scenario(raw)
    _object(raw, "", (*CALL_MEMBERS, *SESSION_MEMBERS), "a JSON object")
    call = _call(raw)
    preset, policy, session, config = _head(raw)
    return Scenario(call.id, False, preset, policy, session, config, (call,))
