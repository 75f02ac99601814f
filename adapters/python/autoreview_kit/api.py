"""What a gate sees and returns: listener decisions, the reviewer's response chunks, the call and
its session, and the shape of an integration.

A gate is an *integration*, installed once per session as a host installs it::

    def install(host: Host, restored: Mapping[str, int]) -> Integration: ...

It registers the Auto preset (``host.presets.register_auto(admit)``) and returns an object with

* ``async listener(call, next, env) -> Decision`` — the first ``tools/pre-execute`` listener;
  ``await next()`` consults the rest of the chain (downstream);
* ``close()`` — starts disposal (AR-DISPOSE-1): stop admitting, move the listed Auto sessions,
  abort the lifecycle. Synchronous, as ``asyncio.Server.close()`` is: the harness calls it at an
  abort point and goes on;
* ``async wait_closed()`` — the rest of disposal: wait for the admitted calls, unregister Auto;
* optionally ``consecutive_failures(session) -> int`` — the session's failures in a row as the
  integration counts them (the outcome's ``review.consecutive_failures``, AR-RES-HINT-1).

``restored`` maps a session id to the failures in a row it had before (the scenario's
``session.consecutive_failures``) for the first installation, and is empty for an installation
after a disposal (AR-RES-HINT-4).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, Union

from .jsvalues import js_string
from .scenario import Route
from .signals import AbortSignal

if TYPE_CHECKING:  # pragma: no cover
    from .world import Env, Host

__all__ = [
    "Agent",
    "ApprovalRequest",
    "Allow",
    "Ask",
    "Block",
    "Cancel",
    "Chunk",
    "Decision",
    "Deny",
    "DisplayReason",
    "Finish",
    "Installer",
    "Integration",
    "Parent",
    "ReviewerError",
    "Route",
    "Session",
    "SessionLog",
    "SessionLogError",
    "ToolCall",
    "Usage",
]


# ---- Listener decisions (AR-CONV-4) ------------------------------------------------------------


@dataclass(frozen=True)
class Allow:
    kind = "allow"


@dataclass(frozen=True)
class Deny:
    reason: str
    info: Mapping[str, Any] | None = None
    kind = "deny"


@dataclass(frozen=True)
class Cancel:
    kind = "cancel"


@dataclass(frozen=True)
class DisplayReason:
    """The localized reason a human sees with an approval request."""

    en: str
    zh: str


@dataclass(frozen=True)
class Ask:
    reason: str | None = None
    display_reason: DisplayReason | None = None
    kind = "ask"


Decision = Union[Allow, Deny, Cancel, Ask]


# ---- The reviewer's response, in stream order --------------------------------------------------


@dataclass(frozen=True)
class Block:
    """A content block: ``type`` is ``"reasoning"``, ``"text"`` or ``"tool-call"``."""

    type: str
    text: str


@dataclass(frozen=True)
class Finish:
    """The terminal finish: ``kind`` ``"stop"``, another kind such as ``"max-tokens"``, or a
    failed one (``"error"``, ``"aborted"``) with the provider's ``code`` and ``message`` (any
    JSON value)."""

    kind: str
    code: str | None = None
    message: Any = None


@dataclass(frozen=True)
class Usage:
    """Usage data, which a stream may send after its finish."""

    input_tokens: int = 0
    output_tokens: int = 0


Chunk = Union[Block, Finish, Usage]


class ReviewerError(Exception):
    """A reviewer request that failed by raising (scenario attempt ``{"throw": value}``).

    ``value`` is the thrown JSON value; ``str(error)`` is that value as JavaScript's
    ``String(value)`` writes it, which is what the baseline reports (AR-REVIEW-5).
    """

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value

    def __str__(self) -> str:
        return js_string(self.value)


# ---- The call and its session ------------------------------------------------------------------


class SessionLogError(Exception):
    """The session log does not hold the pending call as the agent sees it (AR-REVIEW-11)."""


class SessionLog:
    """The session's log of steps and calls."""

    def __init__(self, errors: Mapping[str, str | None]) -> None:
        self._errors = errors  # call id -> what finding that call in the log raises, or None

    def pending_action(self, call: "ToolCall") -> dict[str, Any]:
        """The logged action of the pending call, ``{"name", "arguments"}``; raises
        :class:`SessionLogError` with the shipped message when the log breaks a fact."""
        error = self._errors.get(call.call_id)
        if error is not None:
            raise SessionLogError(error)
        return {"name": call.name, "arguments": dict(call.arguments)}


@dataclass(eq=False)
class Session:
    """One agent session, the same object for every call of it.

    ``route`` is the provider and model of its latest request header (either may be empty);
    ``working_directory`` the header's directory, None when it names none (AR-REVIEW-10).
    """

    id: str
    route: Route
    working_directory: str | None
    log: SessionLog


@dataclass(frozen=True)
class Agent:
    id: str
    session: Session


@dataclass(frozen=True)
class Parent:
    """The program call (``run_code``) a ``ptc-inner`` call was started from."""

    name: str
    call_id: str


@dataclass(frozen=True)
class ToolCall:
    """One tool call, as the pre-execute stage sees it.

    ``kind`` is ``"native"``, ``"ptc-inner"`` or ``"run-code"``; ``parent`` is set for a
    ``ptc-inner`` call only; ``agent`` is None for a call without an agent; ``signal`` is the
    caller's abort signal.
    """

    name: str
    call_id: str
    kind: str
    parent: Parent | None
    agent: Agent | None
    signal: AbortSignal
    arguments: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ApprovalRequest:
    """One request to the approval service, as its answerers see it (spec chapter 6): the tool
    runtime's question before dispatch (``call_id`` the call's own), or one the tool body raises
    while it runs, whose ``call_id`` may name another call or none. ``agent`` is the agent the
    request is routed through (its ``session``), ``tool_name`` the running tool's name."""

    agent: Agent | None
    call_id: str | None
    tool_name: str
    reason: str | None
    display_reason: Mapping[str, str] | None = None
    signal: AbortSignal | None = None


# ---- The integration -----------------------------------------------------------------------------

Next = Callable[[], Awaitable[Decision]]


class Integration(Protocol):
    async def listener(self, call: ToolCall, next: Next, env: "Env") -> Decision: ...

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...


Installer = Callable[["Host", Mapping[str, int]], Integration]
