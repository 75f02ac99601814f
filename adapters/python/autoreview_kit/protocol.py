"""The adapter protocol of spec/protocol.md: JSON lines on stdin and stdout.

``serve(...)`` answers the runner's ``hello`` (protocol 2 to a runner that speaks it, with what
the gate observes, if declared what its framework lacks, and ``canonical``: scenarios come
already read and checked, as sessions naming every member; protocol 1 otherwise, which this kit
does not decide), decides each ``decide`` with the scripted world and the gate's integration, and
exits on ``stop``. stdout
carries protocol lines only, one per reply, flushed; logs go to stderr. A gate that raises
becomes an ``error`` reply and the run goes on.

``python3 my_adapter.py --decide baseline < spec/fixtures/replay.jsonl`` instead reads lines
``{"reply", "world", "scenario"}`` (a decide line's members, with a canonical scenario) and
prints one outcome per line, for debugging.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any

from .api import Installer
from .scenario import DEFAULT_PROFILE
from .world import CAPABILITIES, FEATURES, OBSERVABLES, run_input

__all__ = ["PROTOCOL", "serve"]

#: The newest protocol the kit speaks; a protocol-1 runner is answered with protocol 1.
PROTOCOL = 2

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _line(message: Mapping[str, Any]) -> bytes:
    text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    # A lone surrogate (json.loads accepts "\ud800" in a reviewer's text) travels as U+FFFD, as
    # outcome texts carry it (AR-PARSE-4).
    return (_LONE_SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8")


def _stderr(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)


def serve(
    *,
    implementation: Mapping[str, str],
    install: Installer,
    profiles: Sequence[str] = (DEFAULT_PROFILE,),
    observes: Iterable[str] = (),
    lacks: Iterable[str] = (),
    features: Iterable[str] | None = None,
    argv: Sequence[str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    log: Callable[..., None] = _stderr,
) -> int:
    """Serve a gate over the adapter protocol; returns the exit status.

    ``implementation`` is ``{"name", "version", "language", "homepage"?}``; ``profiles`` the
    profiles the gate can be checked against; ``observes`` what it can observe (``sessions``,
    ``requests``, ``session-log``: list only what it can express — a case that needs something
    left out is not applicable, never sent, never a pass); ``lacks`` what its framework cannot
    express (``deny-reason``, ``ask-reason``, ``abort-signal``), sent only when not empty;
    ``features`` the resilient profile's optional features the gate implements (``failure-hint``,
    ``failure-class``), sent only when given: absent, the runner holds the gate to every one.
    """
    declared = [o for o in OBSERVABLES if o in set(observes)]
    unknown = sorted(set(observes) - set(OBSERVABLES))
    if unknown:
        raise ValueError(f"serve: observes names {', '.join(unknown)}; known: {', '.join(OBSERVABLES)}")
    lacking = [c for c in CAPABILITIES if c in set(lacks)]
    unknown = sorted(set(lacks) - set(CAPABILITIES))
    if unknown:
        raise ValueError(f"serve: lacks names {', '.join(unknown)}; known: {', '.join(CAPABILITIES)}")
    implemented: list[str] | None = None
    if features is not None:
        listed = set(features)
        unknown = sorted(listed - set(FEATURES))
        if unknown:
            raise ValueError(f"serve: features names {', '.join(unknown)}; known: {', '.join(FEATURES)}")
        implemented = [f for f in FEATURES if f in listed]
    argv = list(sys.argv[1:] if argv is None else argv)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer

    def write(message: Mapping[str, Any]) -> None:
        stdout.write(_line(message))
        stdout.flush()

    if "--decide" in argv:
        at = argv.index("--decide")
        profile = argv[at + 1] if at + 1 < len(argv) else DEFAULT_PROFILE
        for raw in stdin:
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
                write(run_input(line["scenario"], install, world=line.get("world"), profile=profile, reply=line.get("reply"), observes=declared, log=log))
            except Exception as error:
                write({"error": str(error)})
        return 0

    profile = DEFAULT_PROFILE
    observed: list[str] = []
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            message = json.loads(raw)
        except ValueError as error:
            log(f"[adapter] ignoring a line that is not JSON: {error}")
            continue
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            runner = message.get("protocol")
            speaks = PROTOCOL if type(runner) is int and runner >= PROTOCOL else 1
            if runner != speaks:
                log(f"[adapter] the runner speaks protocol {runner}; this adapter answers {speaks}")
            profile = message.get("profile", DEFAULT_PROFILE)
            if profile not in profiles:
                log(f"[adapter] profile {profile} is not among {', '.join(profiles)}")
            observed = declared if speaks >= 2 else []
            hello: dict[str, Any] = {
                "type": "hello",
                "protocol": speaks,
                "implementation": dict(implementation),
                "profiles": list(profiles),
            }
            if speaks >= 2:
                hello["observes"] = declared
                if lacking:
                    hello["lacks"] = lacking
                if implemented is not None:
                    hello["features"] = implemented
                hello["canonical"] = True
            write(hello)
        elif kind == "decide":
            seq = message.get("seq")
            try:
                outcome = run_input(
                    message.get("scenario"),
                    install,
                    world=message.get("world"),
                    profile=profile,
                    reply=message.get("reply"),
                    observes=observed,
                    log=log,
                )
                write({"type": "outcome", "seq": seq, "outcome": outcome})
            except Exception as error:
                log(f"[adapter] decide {seq} failed:\n{traceback.format_exc()}")
                write({"type": "error", "seq": seq, "message": str(error)})
        elif kind == "stop":
            return 0
        else:
            log(f"[adapter] ignoring a message of unknown type {kind!r}")
    return 0
