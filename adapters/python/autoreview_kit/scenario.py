"""Decoding canonical scenarios (spec/protocol.md, "Canonical scenarios").

The runner has read and checked every scenario and sends it as a session that names every member,
so ``decode(obj)`` only takes it apart into the types below: no defaults, no rules. A value that
is not a canonical scenario is the runner's defect, and fails in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

__all__ = [
    "LIFECYCLE_ABORTS",
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
    "SessionSpec",
    "TextAttempt",
    "ThrowAttempt",
    "decode",
]

LIFECYCLE_ABORTS = ("lifecycle-before-review", "lifecycle-after-review", "lifecycle-during-downstream")


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


@dataclass(frozen=True)
class Policy:
    override: str | None  # "ask" | "never" | None
    default: str


@dataclass(frozen=True)
class SessionSpec:
    id: str
    route: Route
    consecutive_failures: int
    listed: bool
    working_directory: bool


@dataclass(frozen=True)
class TextAttempt:
    text: str
    delay_ms: int


@dataclass(frozen=True)
class BlocksAttempt:
    blocks: tuple[tuple[str, str], ...]  # (type, text)
    finish: str
    data_after_finish: bool
    delay_ms: int


@dataclass(frozen=True)
class FailedFinishAttempt:
    kind: str  # "error" | "aborted"
    code: str
    message: Any
    delay_ms: int


@dataclass(frozen=True)
class ThrowAttempt:
    value: Any
    delay_ms: int


@dataclass(frozen=True)
class HangAttempt:
    pass


Attempt = Union[TextAttempt, BlocksAttempt, FailedFinishAttempt, ThrowAttempt, HangAttempt]


@dataclass(frozen=True)
class Downstream:
    """What the rest of the pre-execute chain returns: allow, deny (reason, info), cancel, ask."""

    kind: str
    reason: str | None
    info: dict[str, Any] | None


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
    reselect: bool


@dataclass(frozen=True)
class Scenario:
    """A canonical scenario: a session of calls and events."""

    id: str | None
    preset: str
    policy: Policy
    session: SessionSpec
    config: Config
    items: tuple[CallSpec | EventSpec, ...]


def _attempt(a: dict[str, Any]) -> Attempt:
    if "hang" in a:
        return HangAttempt()
    if "text" in a:
        return TextAttempt(a["text"], a["delay_ms"])
    if "blocks" in a:
        blocks = tuple((b["type"], b["text"]) for b in a["blocks"])
        return BlocksAttempt(blocks, a["finish"], a["data_after_finish"], a["delay_ms"])
    if "throw" in a:
        return ThrowAttempt(a["throw"], a["delay_ms"])
    f = a["finish"]
    return FailedFinishAttempt(f["kind"], f["code"], f["message"], a["delay_ms"])


def _item(c: dict[str, Any]) -> CallSpec | EventSpec:
    if "event" in c:
        return EventSpec(c["event"], c["reselect"])
    d = c["downstream"]
    return CallSpec(
        c["id"],
        c["tool"]["name"],
        c["tool"]["call"],
        c["agent"],
        c["schema"]["header"],
        c["schema"]["registry"],
        c["log"],
        tuple(_attempt(a) for a in c["reviewer"]),
        Downstream(d["kind"], d.get("reason"), d.get("info")),
        c["approval"],
        c["abort"],
    )


def decode(raw: Any) -> Scenario:
    """A canonical scenario, parsed with ``json.loads``, as the types above."""
    try:
        s, c = raw["session"], raw["config"]
        route = c["reviewer_route"]
        return Scenario(
            raw["id"],
            raw["preset"],
            Policy(raw["policy"]["override"], raw["policy"]["default"]),
            SessionSpec(s["id"], Route(**s["route"]), s["consecutive_failures"], s["listed"], s["working_directory"]),
            Config(
                c["on_failure"],
                c["repair_attempts"],
                c["transport_retries"],
                c["review_timeout_ms"],
                None if route is None else Route(**route),
                c["failure_hint_after"],
            ),
            tuple(_item(i) for i in raw["calls"]),
        )
    except (KeyError, TypeError) as error:
        raise ValueError(f"not a canonical scenario (the runner sends those to an adapter whose hello says canonical): {error!r}") from None
