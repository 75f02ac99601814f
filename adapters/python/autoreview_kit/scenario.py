"""Decoding canonical scenarios (spec/protocol.md, "Canonical scenarios").

The runner has read and checked every scenario and sends it as a session that names every member,
with what the scripted world answers for each call beside it (the decide line's ``world``). So
``decode(obj, world)`` takes nothing apart but the two types a gate is given, :class:`Route` and
:class:`Config`: the world reads the rest of the parsed JSON as it is, member by member as
spec/protocol.md names them. A value that is not a canonical scenario is the runner's defect, and
fails in one line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "APPROVAL_ANSWERS",
    "BODY_CALL_IDS",
    "DEFAULT_SANDBOX",
    "LEAVE_AUTO_PRESETS",
    "LIFECYCLE_ABORTS",
    "MAX_JSON_RETRIES",
    "SANDBOX_MODES",
    "Config",
    "Route",
    "decode",
]

LIFECYCLE_ABORTS = ("lifecycle-before-review", "lifecycle-after-review", "lifecycle-during-downstream")

#: The sandbox modes an Auto session can hold (spec/scenario.md, "Sandbox"): full access, and the
#: mode in which a backend that confines reads keeps commands inside the workspace.
FULL_ACCESS, CONFINED = "danger-full-access", "workspace-write"
SANDBOX_MODES = (FULL_ACCESS, CONFINED)
#: ``session.sandbox`` when the scenario does not state one (the canonical form then leaves it out).
DEFAULT_SANDBOX = {"mode": FULL_ACCESS, "confines_reads": False, "narrowing": "accepted"}

#: What a body's ``raise`` step names as its request's call id (spec/scenario.md, "Body"): the
#: running call's own id, none, an id no call has, the most recent earlier call's.
BODY_CALL_IDS = ("own", "none", "unreviewed", "finished")
#: What the approval service answers (AR-APPROVAL-2), and so what a ``raise`` step's ``answer``
#: may script for the human.
APPROVAL_ANSWERS = ("allowed-once", "rejected", "cancelled", "unavailable")
#: The presets a body's ``leave_auto`` step may select.
LEAVE_AUTO_PRESETS = ("workspace-write", "danger-full-access")
#: The most ``config.max_json_retries`` a scenario scripts (AR-RES-CONFIG-1).
MAX_JSON_RETRIES = 5


@dataclass(frozen=True)
class Route:
    provider: str
    model: str

    def __str__(self) -> str:
        return f"{self.provider}/{self.model}"


@dataclass(frozen=True)
class Config:
    """The resilient gate's configuration (AR-RES-CONFIG-1)."""

    on_failure: str
    repair_attempts: int
    transport_retries: int
    review_timeout_ms: int
    reviewer_route: Route | None
    failure_hint_after: int
    #: A number from 0 to 2, or ``"provider-default"``; sent only when not 0 (the runner's
    #: canonical form leaves the default out).
    temperature: float | str = 0
    #: The requests after invalid JSON under ``asks_again`` ``json-retry`` (AR-JSON-RETRY-1): a
    #: whole number from 0 to 5; sent only when not 1, and only to an adapter that observes
    #: ``json-retries`` (the runner resets it to 1 for any other).
    max_json_retries: int = 1


def decode(raw: Any, world: Any) -> dict[str, Any]:
    """A canonical scenario, parsed with ``json.loads``, with its session's ``route`` a
    :class:`Route`, its ``config`` a :class:`Config`, and each call carrying its ``world`` answer
    (``header_schemas``, ``registry_schemas``, ``log_error``). The session's ``sandbox`` is
    always there (:data:`DEFAULT_SANDBOX` where the scenario states none), its ``narrowing``
    either ``"accepted"`` or ``{"rejected": message}``; a ``backend`` event carries
    ``confines_reads``. Each call carries its ``body`` (``[]`` where the canonical form leaves it
    out), each step checked: ``{"raise": {"call_id", "reason", "answer"?}}`` or
    ``{"leave_auto": preset}``, with the realizability rules of a body (a ``finished`` id only
    after an earlier call, RZ-11; no step at all without an agent, and no ``raise`` where the
    call's ``approval`` is ``throws``, RZ-12). The config's ``max_json_retries`` is a whole number
    from 0 to :data:`MAX_JSON_RETRIES` (1 where the canonical form leaves it out)."""
    try:
        c = raw["config"]
        route = c["reviewer_route"]
        config = Config(
            **{
                **c,
                "reviewer_route": None if route is None else Route(**route),
                "max_json_retries": _max_json_retries(c.get("max_json_retries", 1)),
            }
        )
        if len(world) != len(raw["calls"]):
            raise ValueError(f"{len(world)} world answers for {len(raw['calls'])} items")
        calls = [item if "event" in item else {**item, "world": dict(answer)} for item, answer in zip(raw["calls"], world)]
        earlier = 0  # call items before this one (events are not calls)
        for i, item in enumerate(calls):
            if "event" not in item:
                calls[i] = {**item, "body": _body(item, f"calls[{i}]", earlier)}
                earlier += 1
        for item in calls:
            if item.get("event") == "backend" and type(item["confines_reads"]) is not bool:
                raise ValueError(f"a backend event's confines_reads is {item['confines_reads']!r}")
        session = {**raw["session"], "route": Route(**raw["session"]["route"]), "sandbox": _sandbox(raw["session"].get("sandbox"))}
        return {**raw, "session": session, "config": config, "calls": calls}
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"not a canonical scenario with its world (the runner sends those to an adapter whose hello says canonical): {error!r}"
        ) from None


def _max_json_retries(value: Any) -> int:
    """``config.max_json_retries``, checked: a whole number from 0 to 5 (a JSON number; true and
    false are not numbers, and 2.0 is 2 as in JSON)."""
    whole = type(value) is int or (type(value) is float and value.is_integer())
    if not whole or not 0 <= value <= MAX_JSON_RETRIES:
        raise ValueError(f"config.max_json_retries is {json.dumps(value, default=repr)}, expected a whole number from 0 to {MAX_JSON_RETRIES}")
    return int(value)


def _sandbox(raw: Any) -> dict[str, Any]:
    """``session.sandbox`` with every member, checked (spec/scenario.md, "Sandbox")."""
    if raw is None:
        return dict(DEFAULT_SANDBOX)
    sandbox = {**DEFAULT_SANDBOX, **raw}
    if set(sandbox) != set(DEFAULT_SANDBOX):
        raise ValueError(f"session.sandbox names {sorted(set(sandbox) - set(DEFAULT_SANDBOX))}")
    narrowing = sandbox["narrowing"]
    rejected = isinstance(narrowing, dict) and set(narrowing) == {"rejected"} and isinstance(narrowing["rejected"], str)
    if sandbox["mode"] not in SANDBOX_MODES or type(sandbox["confines_reads"]) is not bool or not (narrowing == "accepted" or rejected):
        raise ValueError(f"session.sandbox is {raw!r}")
    return sandbox


def _body(call: dict[str, Any], where: str, earlier: int) -> list[dict[str, Any]]:
    """A call's ``body`` (``[]`` where left out), every step checked (spec/scenario.md, "Body"):
    ``where`` names the call in the errors, ``earlier`` how many call items precede it."""
    body = call.get("body", [])
    if not isinstance(body, list):
        raise ValueError(f"{where}.body is {body!r}, expected an array of steps")
    steps: list[dict[str, Any]] = []
    for n, step in enumerate(body):
        at = f"{where}.body[{n}]"
        if not isinstance(step, dict) or len(step) != 1 or next(iter(step)) not in ("raise", "leave_auto"):
            raise ValueError(f'{at} is {step!r}, expected an object of exactly one member, "raise" or "leave_auto"')
        if call.get("agent") is False:
            raise ValueError(f"{at}: a call without an agent has no body steps (no session to select a preset for, no agent to route a request through): unrealizable (RZ-12)")
        if "leave_auto" in step:
            if step["leave_auto"] not in LEAVE_AUTO_PRESETS:
                raise ValueError(f"{at}.leave_auto is {step['leave_auto']!r}, expected one of {', '.join(LEAVE_AUTO_PRESETS)}")
            steps.append({"leave_auto": step["leave_auto"]})
            continue
        request = step["raise"]
        if not isinstance(request, dict):
            raise ValueError(f'{at}.raise is {request!r}, expected {{"call_id", "reason", "answer"?}}')
        unknown = sorted(set(request) - {"call_id", "reason", "answer"})
        if unknown:
            raise ValueError(f"{at}.raise names {unknown}, expected only call_id, reason and answer")
        for member in ("call_id", "reason"):
            if member not in request:
                raise ValueError(f"{at}.raise has no {member}")
        if request["call_id"] not in BODY_CALL_IDS:
            raise ValueError(f"{at}.raise.call_id is {request['call_id']!r}, expected one of {', '.join(BODY_CALL_IDS)}")
        if not isinstance(request["reason"], str):
            raise ValueError(f"{at}.raise.reason is {request['reason']!r}, expected a string")
        if "answer" in request and request["answer"] not in APPROVAL_ANSWERS:
            raise ValueError(f"{at}.raise.answer is {request['answer']!r}, expected one of {', '.join(APPROVAL_ANSWERS)}")
        # The realizability rules the runner holds every body to (spec/scenario.md, "Realizability").
        if request["call_id"] == "finished" and earlier == 0:
            raise ValueError(f'{at}.raise.call_id is "finished", but no call comes before {where}: unrealizable (RZ-11)')
        if call.get("approval") == "throws":
            raise ValueError(f'{at}.raise: {where}.approval is "throws", so no turn is open to ask in: unrealizable (RZ-12)')
        steps.append({"raise": dict(request)})
    return steps
