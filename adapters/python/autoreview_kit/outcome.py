"""The outcome of one call (spec/scenario.md, "Outcome"), assembled from what the scripted world
recorded while the call ran, with ``prefix_only`` marking the texts whose tail is
implementation-defined (AR-CONV-3).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .api import Allow, Ask, Cancel, Deny, DisplayReason

__all__ = ["CallRecord", "FailureReport", "build_outcome", "listener_record", "prefix_only", "with_sandbox"]

#: ``Error: `` — the normative part of a thrown approval request's text (AR-APPROVAL-4).
ERROR_PREFIX = "Error: "


@dataclass(frozen=True)
class FailureReport:
    """A review failure as the gate reported it (``env.observe.review_failure``)."""

    failure_class: str
    message: str
    implementation_defined: bool = False


@dataclass
class CallRecord:
    """What one call did, in the outcome's terms."""

    id: str | None
    trace: list[str] = field(default_factory=list)
    attempts: int = 0
    routes: list[str] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    #: what the review's first request asked (its system text and messages), to tell a repair
    #: from a retry (AR-RES-RETRY-2)
    first_prompt: str | None = None
    #: indexes of reviewer requests a caller abort or the disposal ended
    signal_ended: set[int] = field(default_factory=set)
    failure: FailureReport | None = None
    #: the gate's decision in the outcome's form; None until it returned one
    listener: dict[str, Any] | None = None
    approval: dict[str, Any] | None = None
    approval_threw: bool = False
    #: ``{"executed", "text", "info"}``; None while the call has not completed
    result: dict[str, Any] | None = None
    #: the approvals the body raised, ``{"call_id", "reason", "answered_by", "answer"}`` each, in
    #: order, where the run observes ``body-approvals``
    body_approvals: list[dict[str, Any]] = field(default_factory=list)


def _display_reason(value: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if isinstance(value, DisplayReason):
        return {"en": value.en, "zh": value.zh}
    if isinstance(value, Mapping) and isinstance(value.get("en"), str):
        zh = value.get("zh")
        return {"en": value["en"], "zh": zh if isinstance(zh, str) else value["en"]}
    raise TypeError(f"invalid display reason: {value!r}")


def listener_record(decision: Any) -> dict[str, Any]:
    """A listener decision in the outcome's form; TypeError for anything that is not one."""
    match decision:
        case Allow():
            return {"kind": "allow"}
        case Cancel():
            return {"kind": "cancel"}
        case Deny(reason=str() as reason, info=info):
            out: dict[str, Any] = {"kind": "deny", "reason": reason}
            if info is not None:
                if not isinstance(info, Mapping):
                    raise TypeError("the gate returned a deny whose info is not a mapping")
                out["info"] = copy.deepcopy(dict(info))
            return out
        case Ask(reason=reason, display_reason=display):
            out = {"kind": "ask"}
            if reason is not None:
                if not isinstance(reason, str):
                    raise TypeError("the gate returned an ask whose reason is not a string")
                out["reason"] = reason
            shown = _display_reason(display)
            if shown is not None:
                out["display_reason"] = shown
            return out
        case Deny():
            raise TypeError("the gate returned a deny without a string reason")
    raise TypeError(f"the gate returned {decision!r}, not a decision (Allow, Deny, Cancel or Ask)")


def prefix_only(message: str, texts: Iterable[tuple[str, str | None]]) -> dict[str, int]:
    """AR-CONV-3: the failure message ``message`` is implementation-defined, so it is normative by
    prefix 0, and so is every text (``(pointer, text)``) that carries it up to where it starts,
    in Unicode scalar values."""
    marked = {"/review/failure/message": 0}
    for pointer, text in texts:
        if isinstance(text, str):
            at = text.find(message)
            if at >= 0:
                marked[pointer] = at  # Python counts code points, as the spec does
    return marked


#: The sandbox mode an outcome leaves out: ``sandbox`` is absent when it is this before and after.
FULL_ACCESS = "danger-full-access"


def build_outcome(
    rec: CallRecord,
    *,
    consecutive_failures: int | None = None,
    requests: bool = True,
    sandbox: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """The outcome of the call ``rec`` recorded. ``consecutive_failures`` is the count to report
    (None where the rules count no failures in a row); ``requests`` whether the run observes ``review.requests``;
    ``sandbox`` the session's mode when the call arrived and when it settled, where the run
    observes ``confinement`` (None otherwise): written as ``{"before", "after"}`` unless both are
    ``danger-full-access``, which an absent ``sandbox`` means. ``body_approvals`` is written when
    the record holds any."""
    settled = rec.result is not None
    listener = copy.deepcopy(rec.listener)
    result: dict[str, Any] = (
        copy.deepcopy(rec.result) if rec.result is not None else {"executed": False, "text": None, "info": None}
    )
    approval = copy.deepcopy(rec.approval)
    review: dict[str, Any] = {
        "attempts": rec.attempts,
        "failure": {"class": rec.failure.failure_class, "message": rec.failure.message} if rec.failure else None,
        "routes": list(rec.routes),
    }
    if requests:
        review["requests"] = copy.deepcopy(rec.requests)
    review["consecutive_failures"] = consecutive_failures
    outcome: dict[str, Any] = {
        "id": rec.id,
        "settled": settled,
        "listener": listener,
        "approval": approval,
        "result": result,
        "review": review,
        "trace": list(rec.trace),
    }
    if rec.body_approvals:  # left out when the body raised none
        outcome["body_approvals"] = copy.deepcopy(rec.body_approvals)

    marked: dict[str, int] = {}
    ended_by_signal = rec.attempts > 0 and (rec.attempts - 1) in rec.signal_ended
    if rec.failure and (rec.failure.implementation_defined or ended_by_signal) and rec.failure.message != "":
        shown = (listener or {}).get("display_reason") or {}
        asked = (approval or {}).get("display_reason") or {}
        marked = prefix_only(
            rec.failure.message,
            [
                ("/listener/reason", (listener or {}).get("reason")),
                ("/listener/display_reason/en", shown.get("en")),
                ("/listener/display_reason/zh", shown.get("zh")),
                ("/approval/reason", (approval or {}).get("reason")),
                ("/approval/display_reason/en", asked.get("en")),
                ("/approval/display_reason/zh", asked.get("zh")),
                ("/result/text", result["text"]),
            ],
        )
    if rec.approval_threw and isinstance(result["text"], str):
        marked["/result/text"] = len(ERROR_PREFIX)
    if marked:
        outcome["prefix_only"] = dict(sorted(marked.items()))
    return outcome if sandbox is None else with_sandbox(outcome, *sandbox)


def with_sandbox(outcome: dict[str, Any], before: str, after: str) -> dict[str, Any]:
    """``outcome`` with its ``sandbox``: ``{"before", "after"}``, the session's mode when the call
    arrived and when it settled, left out when both are ``danger-full-access`` (which an absent
    ``sandbox`` means)."""
    out = {k: v for k, v in outcome.items() if k not in ("sandbox", "prefix_only")}
    if (before, after) != (FULL_ACCESS, FULL_ACCESS):
        out["sandbox"] = {"before": before, "after": after}
    if "prefix_only" in outcome:
        out["prefix_only"] = outcome["prefix_only"]
    return out
