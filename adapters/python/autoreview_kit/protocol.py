"""The adapter protocol of spec/protocol.md: JSON lines on stdin and stdout.

``serve(...)`` answers the runner's ``hello`` (protocol 2 to a runner that speaks it, with what
the gate observes, if declared what its framework lacks, the optional features and the rule
values it implements, and ``canonical``: scenarios come already read and checked, as sessions
naming every member; protocol 1 otherwise, which this kit does not decide), decides each
``decide`` with the scripted world and the gate's integration under the rules the runner's
``hello`` states (``host.rules``), and exits on ``stop``. stdout carries protocol lines only, one
per reply, flushed; logs go to stderr. A gate that raises becomes an ``error`` reply and the run
goes on.

``python3 my_adapter.py --decide < spec/fixtures/replay.jsonl`` instead reads lines
``{"rules", "reply", "world", "scenario"}`` (a decide line's members, with a canonical scenario,
and the rules of the profile to decide under, as the runner's hello states them and
``autoreview profiles --json`` prints them) and prints one outcome per line, for debugging.
A line without ``rules`` is answered with an error saying where to get them.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any

from .api import Installer
from .rules import RULE_OBSERVABLES, WHERE, check_rules, implemented_rules
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
    profiles: Sequence[str] = (),
    observes: Iterable[str] = (),
    lacks: Iterable[str] = (),
    features: Iterable[str] | None = None,
    rules: Mapping[str, Iterable[Any]] | None = None,
    argv: Sequence[str] | None = None,
    stdin: IO[bytes] | None = None,
    stdout: IO[bytes] | None = None,
    log: Callable[..., None] = _stderr,
) -> int:
    """Serve a gate over the adapter protocol; returns the exit status.

    ``implementation`` is ``{"name", "version", "language", "homepage"?}``; ``profiles`` the
    profiles the gate claims by name (default none: a gate that names none and lists no ``rules``
    is refused by the runner, which says so); ``observes`` what it can observe (``sessions``,
    ``requests``, ``session-log``: list only what it can express — a case that needs something
    left out is not applicable, never sent, never a pass); ``lacks`` what its framework cannot
    express (``deny-reason``, ``ask-reason``, ``abort-signal``), sent only when not empty;
    ``features`` the resilient profile's optional features the gate implements (``failure-hint``,
    ``failure-class``), sent only when given: absent, the runner holds the gate to every one;
    ``rules`` the values of each rule the gate implements (``{"reader": ("strict", "tolerant"),
    "deadline": (False, True), ...}``; :data:`autoreview_kit.RULE_VALUES` lists every one), sent
    only when given: the runner then checks the gate against any profile whose every rule value is
    listed, besides those ``profiles`` names (spec/protocol.md, "Rules"). Every gate decides by
    ``host.rules``, the rules the runner's hello carries, never by the profile's name; a hello
    without them (a runner older than the rules) gets an error reply to each ``decide``.

    ``--decide`` on the command line instead reads lines ``{"rules", "reply", "world",
    "scenario"}`` (as each line of spec/fixtures/replay.jsonl holds them) and writes one outcome
    per line; a line without ``rules`` is answered with an error saying where to get them, and a
    word after ``--decide`` only labels lines without their own ``profile``.
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
    offered = None if rules is None else implemented_rules(rules)
    argv = list(sys.argv[1:] if argv is None else argv)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer

    def write(message: Mapping[str, Any]) -> None:
        stdout.write(_line(message))
        stdout.flush()

    if "--decide" in argv:
        # A profile's name after --decide (as before the rules) is only a label: the rules of
        # each line decide.
        at = argv.index("--decide")
        named = argv[at + 1] if at + 1 < len(argv) and not argv[at + 1].startswith("-") else None
        for raw in stdin:
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
                if not isinstance(line, dict) or "rules" not in line:
                    raise ValueError(
                        "the line has no `rules`: each line states the rules of the profile to decide "
                        f'under, as the runner\'s hello does ({{"rules": {{"reader": "strict", ...}}, "reply", "world", "scenario"}}); {WHERE}, '
                        "and the lines of spec/fixtures/replay.jsonl carry them"
                    )
                outcome = run_input(
                    line["scenario"],
                    install,
                    world=line.get("world"),
                    profile=line.get("profile", named),
                    rules=line["rules"],
                    reply=line.get("reply"),
                    observes=declared,
                    log=log,
                )
                write(outcome)
            except Exception as error:
                write({"error": str(error)})
        return 0

    profile: str | None = None
    run_rules: Mapping[str, Any] | None = None
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
            profile = message.get("profile")
            try:
                if "rules" not in message:
                    raise ValueError("the runner's hello carries no rules (a runner older than this kit: update autoreview)")
                run_rules = check_rules(message["rules"])
            except ValueError as error:
                run_rules = None
                log(f"[adapter] cannot decide: {error}")
            if run_rules is not None and profile not in profiles and not _covers(offered, run_rules, declared):
                log(f"[adapter] profile {profile} is neither among {', '.join(profiles) or 'the profiles named'} nor covered by the rules listed")
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
                if offered is not None:
                    hello["rules"] = offered
                hello["canonical"] = True
            write(hello)
        elif kind == "decide":
            seq = message.get("seq")
            try:
                if run_rules is None:
                    raise ValueError(f"no rules to decide by: the runner's hello stated none the kit could read; {WHERE}")
                outcome = run_input(
                    message.get("scenario"),
                    install,
                    world=message.get("world"),
                    profile=profile,
                    rules=run_rules,
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


def _covers(offered: Mapping[str, list[Any]] | None, rules: Mapping[str, Any], observes: Iterable[str] = ()) -> bool:
    """Whether a gate implementing the rule values ``offered`` covers ``rules``: each rule's value
    is listed (``config`` needs no declaration), except a rule of
    :data:`~autoreview_kit.rules.RULE_OBSERVABLES` that the gate neither names nor observes the
    observable of (no case it is sent tells its values apart)."""
    if offered is None:
        return False
    observed = set(observes)
    return all(
        any(type(v) is type(value) and v == value for v in offered.get(name, ()))
        for name, value in rules.items()
        if name != "config" and (name in offered or RULE_OBSERVABLES.get(name, "") in observed or name not in RULE_OBSERVABLES)
    )
