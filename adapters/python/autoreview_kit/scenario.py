"""Decoding canonical scenarios (spec/protocol.md, "Canonical scenarios").

The runner has read and checked every scenario and sends it as a session that names every member,
with what the scripted world answers for each call beside it (the decide line's ``world``). So
``decode(obj, world)`` takes nothing apart but the two types a gate is given, :class:`Route` and
:class:`Config`: the world reads the rest of the parsed JSON as it is, member by member as
spec/protocol.md names them. A value that is not a canonical scenario is the runner's defect, and
fails in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["DEFAULT_SANDBOX", "LIFECYCLE_ABORTS", "SANDBOX_MODES", "Config", "Route", "decode"]

LIFECYCLE_ABORTS = ("lifecycle-before-review", "lifecycle-after-review", "lifecycle-during-downstream")

#: The sandbox modes an Auto session can hold (spec/scenario.md, "Sandbox"): full access, and the
#: mode in which a backend that confines reads keeps commands inside the workspace.
FULL_ACCESS, CONFINED = "danger-full-access", "workspace-write"
SANDBOX_MODES = (FULL_ACCESS, CONFINED)
#: ``session.sandbox`` when the scenario does not state one (the canonical form then leaves it out).
DEFAULT_SANDBOX = {"mode": FULL_ACCESS, "confines_reads": False, "narrowing": "accepted"}


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


def decode(raw: Any, world: Any) -> dict[str, Any]:
    """A canonical scenario, parsed with ``json.loads``, with its session's ``route`` a
    :class:`Route`, its ``config`` a :class:`Config`, and each call carrying its ``world`` answer
    (``header_schemas``, ``registry_schemas``, ``log_error``). The session's ``sandbox`` is
    always there (:data:`DEFAULT_SANDBOX` where the scenario states none), its ``narrowing``
    either ``"accepted"`` or ``{"rejected": message}``; a ``backend`` event carries
    ``confines_reads``."""
    try:
        c = raw["config"]
        route = c["reviewer_route"]
        config = Config(**{**c, "reviewer_route": None if route is None else Route(**route)})
        if len(world) != len(raw["calls"]):
            raise ValueError(f"{len(world)} world answers for {len(raw['calls'])} items")
        calls = [item if "event" in item else {**item, "world": dict(answer)} for item, answer in zip(raw["calls"], world)]
        for item in calls:
            if item.get("event") == "backend" and type(item["confines_reads"]) is not bool:
                raise ValueError(f"a backend event's confines_reads is {item['confines_reads']!r}")
        session = {**raw["session"], "route": Route(**raw["session"]["route"]), "sandbox": _sandbox(raw["session"].get("sandbox"))}
        return {**raw, "session": session, "config": config, "calls": calls}
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(
            f"not a canonical scenario with its world (the runner sends those to an adapter whose hello says canonical): {error!r}"
        ) from None


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
