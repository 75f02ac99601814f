"""example_gate — a small, readable Auto review gate that decides by the run's rules
(spec/protocol.md, "Rules"; ``host.rules``), never by a profile's name. It implements every value
of every rule, so it can be checked against the ``baseline`` profile of spec/auto-review.md
(chapters 0-9, the shipped gate), the ``resilient`` one (chapters 10 and 11: a tolerant reader,
bounded repairs and retries under one deadline, readable failure messages, failures asked about,
a recovery hint) and any profile that recombines their rules. :data:`IMPLEMENTED_RULES` is what its
hello lists. Each rule is asked where it matters: ``reader`` and ``failure_text`` where a response
is read (:func:`ask_reviewer`), ``asks_again`` and ``deadline`` around its requests,
``route``, ``working_directory``, ``schema`` and ``session_id_in_requests`` in :func:`review`,
``counts_failures`` where a review settles, ``preset_read``, ``failures`` and ``confinement`` in
the listener, ``confinement`` also where Auto is selected and where disposal moves a session,
``body_approvals`` where the gate installs (its approval answerer) and where a review ends in
allow. The configuration (``host.config``) is read only by the rule that uses it.

It is an integration, as a host installs one: ``install(host, restored)`` registers the Auto
preset and returns an :class:`ExampleIntegration` with ``listener(call, call_next, env)``,
placed first in the ``tools/pre-execute`` chain, and disposal as ``close()`` (stop admitting,
move the listed Auto sessions to Full access, or a confined one to Workspace Write where the
rules confine, abort the lifecycle) and ``wait_closed()`` (wait for
the admitted calls, unregister Auto), AR-DISPOSE-1 and AR-DISPOSE-4. What it keeps — whether it
admits calls, which sessions its disposal moved, each session's failures in a row — lives in the
installation, so a session's calls carry it from one to the next and disposal drops it with the
integration (AR-SESSION-2, AR-RES-HINT-4).

What is normative and what is this gate's own: every text in ``MSG`` below is a template of the
spec (chapter 9, AR-RES-MSG-1) except the detail of ``invalid_json``, which is the JSON parser's
message and implementation-defined (AR-PARSE-4), and the review policy's wording, which is not
observable (AR-REVIEW-12). The 1 MiB bound of the tolerant reader and the 400-character cut of a
failure message are the spec's (AR-TOL-3, AR-RES-NORM-4). Reading JSON is ``json.loads``; the
hooks passed to it only make it read as the spec says ECMAScript's ``JSON.parse`` does: no
``NaN``/``Infinity``, numbers never converted, and each object remembering whether its text named
a member twice.

The tool runtime (materialization, the approval service) is the harness's, in autoreview_kit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from autoreview_kit import (
    AbortController,
    AbortSignal,
    Allow,
    ApprovalRequest,
    Ask,
    Block,
    Cancel,
    Chunk,
    Decision,
    Deny,
    DisplayReason,
    Env,
    Finish,
    Host,
    ReviewerError,
    Route,
    Session,
    SessionLogError,
    ToolCall,
    js_json,
    js_string,
)
from autoreview_kit.rules import RULE_VALUES

CallNext = Callable[[], Awaitable[Decision]]

#: The values of each rule this gate implements: every one (``serve(rules=IMPLEMENTED_RULES)``), as
#: :data:`autoreview_kit.rules.RULE_VALUES` lists them.
IMPLEMENTED_RULES: Mapping[str, tuple[Any, ...]] = RULE_VALUES

#: The sandbox modes of an Auto session (AR-SCOPE-5, AR-CONFINE-1).
FULL_ACCESS = "danger-full-access"
CONFINED = "workspace-write"

# ---- Texts (spec chapter 9 and AR-RES-MSG-1) ----------------------------------------------------


class MSG:
    @staticmethod
    def final_deny(name: str) -> str:
        return f'Auto review rejected tool "{name}"; its body was not executed'

    @staticmethod
    def ask_review(name: str, reason: str | None) -> str:
        return f'Auto review denied tool "{name}"' + ("" if reason is None else f": {reason}")

    @staticmethod
    def display_en(reason: str | None) -> str:
        return "Auto review denied this call." if reason is None else f"Auto review denied this call: {reason}"

    @staticmethod
    def display_zh(reason: str | None) -> str:
        return "Auto review 拒绝了此调用。" if reason is None else f"Auto review 拒绝了此调用：{reason}"

    @staticmethod
    def failed(name: str, error: str) -> str:
        return f'Auto review of tool "{name}" failed; its body was not executed: {error}'

    # Where failures ask (rules["failures"]): a failure asked about (AR-RES-FAIL-2), a combined ask
    # (AR-RES-ASK-1), the hint.
    @staticmethod
    def ask_failed(name: str, error: str) -> tuple[str, str, str]:
        return (
            f'Auto review of tool "{name}" failed: {error}',
            f"Auto review could not complete for this call: {error}",
            f"Auto review 未能完成对此调用的审查：{error}",
        )

    @staticmethod
    def combined(reason: str, en: str, zh: str, downstream: str) -> tuple[str, str, str]:
        return (
            f"{reason}; a later listener also asks: {downstream}",
            f"{en}\nA later check also asks: {downstream}",
            f"{zh}\n后续检查也请求确认：{downstream}",
        )

    @staticmethod
    def hint(count: int, route: str) -> tuple[str, str]:
        return (
            f"Auto review has failed {count} times in a row on route {route}; configure a reviewer model "
            "(reviewer_route) or switch the permission mode, for example to workspace-write.",
            f"Auto review 已在路由 {route} 上连续失败 {count} 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。",
        )

    REPAIR_INSTRUCTION = (
        "Your previous reply could not be read as a decision. Review the same pending action again and reply "
        "with only the JSON object: exactly one of the six shapes in REVIEW_POLICY, with no Markdown, prose or tool call."
    )
    # The reminder of a request after invalid JSON (``asks_again`` ``json-retry``, AR-JSON-RETRY-1).
    JSON_RETRY_REMINDER = (
        "Your previous response was not valid JSON. Review the same pending action under REVIEW_POLICY. "
        "Return exactly one JSON object matching its risk/decision rules. Do not include analysis, Markdown, "
        "or surrounding prose."
    )

    # Reviewer failure messages (AR-MSG-2, AR-RES-MSG-1).
    @staticmethod
    def ended(kind: str, code: str | None = None, message: str | None = None) -> str:
        if code is None:
            return f"auto-review: reviewer ended with {kind}"
        return f"auto-review: reviewer ended with {kind} {code}: {message}"

    NO_FINISH = "auto-review: reviewer emitted no terminal finish"
    AFTER_FINISH = "auto-review: reviewer emitted data after its terminal finish"
    BLOCKS = "auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block"
    NOT_OBJECT = "auto-review: reviewer output must be one JSON object"
    REPEATED = "auto-review: reviewer output repeats a JSON member"
    PROTOCOL = "auto-review: reviewer output does not match the risk/decision protocol"
    SCHEMA_NATIVE = "auto-review: the pending native tool schema is missing or ambiguous"
    SCHEMA_PTC = "auto-review: the pending PTC binding schema is missing or inconsistent"
    NO_ROUTE = "auto-review: no complete request-header route is available"
    NO_CWD = "auto-review: the session has no working directory"
    TOOL_CALL = "auto-review: reviewer emitted a tool call instead of a decision"
    TOO_LARGE = "auto-review: reviewer output exceeds 1048576 bytes"
    NO_DECISION = "auto-review: reviewer output holds no decision object"
    AMBIGUOUS = "auto-review: reviewer output is ambiguous: it holds differing decision objects"
    MALFORMED = "auto-review: reviewer output holds a malformed decision object"
    CONFLICT = "auto-review: reviewer output holds an allow beside other braces"
    ALLOW_PROSE = "auto-review: reviewer output holds an allow beside prose"

    @staticmethod
    def invalid_json(detail: str) -> str:
        return f"auto-review: reviewer output is not valid JSON ({detail})"  # AR-PARSE-4: all ours

    NOT_JSON = "auto-review: reviewer output must be valid JSON"  # AR-JSON-RETRY-3, under json-retry

    @staticmethod
    def deadline(ms: int) -> str:
        return f"auto-review: the review did not finish within {ms} ms"

    # The integration's lifecycle (AR-MSG-5; the abort reason is not observable).
    CLOSING = "auto-review: integration is closing"
    DISPOSED = "auto-review integration disposed"


INFO_DENIED = {"name": "AutoReviewDeniedError", "code": "AUTO_REVIEW_DENIED"}
INFO_FAILED = {"name": "AutoReviewFailedError", "code": "AUTO_REVIEW_FAILED"}

# Not observable (AR-REVIEW-12); a real gate sends its full review policy and the sections.
REVIEW_POLICY = (
    "REVIEW_POLICY\nYou are the final authorization reviewer for exactly one pending tool call. "
    "Return exactly one JSON object and no other text: one of the six risk/decision shapes."
)

MAX_TEXT_BYTES = 1_048_576  # AR-TOL-3
MAX_MESSAGE_CHARS = 400  # AR-RES-NORM-4

# ---- Failures ---------------------------------------------------------------------------------


class ReviewFailure(Exception):
    """A review that obtained no decision: a failure class (AR-REVIEW-6) and a message
    (AR-REVIEW-5). ``by_signal`` marks one the caller's or the lifecycle's signal produced."""

    def __init__(self, failure_class: str, message: str, implementation_defined: bool = False) -> None:
        super().__init__(message)
        self.failure_class = failure_class
        self.message = message
        self.implementation_defined = implementation_defined
        self.by_signal = False


class InvalidJson(ReviewFailure):
    """AR-PARSE-4: the one text block is not one JSON value (the failure ``json-retry`` asks
    again after, AR-JSON-RETRY-1)."""


@dataclass(frozen=True)
class Verdict:
    """What the reviewer decided: ``allow`` or ``deny``, with the reviewer's reason if any."""

    decision: str
    reason: str | None = None


_CODE_CLASSES = {
    **dict.fromkeys(["TIMEOUT", "DEADLINE_EXCEEDED"], "timeout"),
    **dict.fromkeys(["QUOTA_EXCEEDED", "RATE_LIMITED", "INSUFFICIENT_QUOTA", "HTTP_402", "HTTP_429"], "quota"),
    **dict.fromkeys(["TRANSPORT", "CONNECTION", "NETWORK"], "transport"),
}
_MESSAGE_CLASSES = [
    ("quota", ["http 402", "http 429", "status 402", "status 429", "quota", "rate limit"]),
    ("transport", ["transport error", "connection error", "econnreset", "econnrefused", "socket hang up", "network error"]),
    ("timeout", ["timed out", "timeout"]),
]


def classify_error_finish(code: str, message: str) -> str:
    """AR-REVIEW-7: classify a finish of kind ``error`` by its code, then its message."""
    if code in _CODE_CLASSES:
        return _CODE_CLASSES[code]
    lowered = message.lower()
    for failure_class, patterns in _MESSAGE_CLASSES:
        if any(p in lowered for p in patterns):
            return failure_class
    return "provider"


def text_of(value: Any) -> str:
    """AR-RES-NORM-1: a provider message or thrown value as text. A string stays itself, an
    object with a string ``message`` gives that, anything else its compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("message"), str):
        return value["message"]
    return js_json(value)


# Whitespace as the spec means it (AR-RES-NORM-2, AR-TOL-10): ECMAScript's, not str.isspace(),
# which also takes U+001C..U+001F and U+0085 and leaves out U+FEFF.
_JS_SPACE = "\t\n\v\f\r \xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
_WHITESPACE_RUN = re.compile(f"[{_JS_SPACE}]+")  # without U+FEFF, which NORM-3 escapes
_TRIM = _JS_SPACE + "\ufeff"  # what String.prototype.trim removes
# C0 and C1 controls, DEL, bidirectional marks, embeddings, overrides and isolates, zero-width
# characters and the byte-order mark (AR-RES-NORM-3).
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def normalize_message(text: str) -> str:
    """AR-RES-NORM-2..4: one line, nothing that controls the terminal, at most 400 characters."""
    one_line = " ".join(word for word in _WHITESPACE_RUN.split(text) if word)
    visible = _HIDDEN.sub(lambda m: f"\\u{{{ord(m.group()):04x}}}", one_line)
    return visible if len(visible) <= MAX_MESSAGE_CHARS else visible[: MAX_MESSAGE_CHARS - 1] + "…"


# ---- Reading JSON as the spec does ------------------------------------------------------------


class _Members(dict):
    """A JSON object that remembers whether its text named a member twice (AR-PARSE-6)."""

    repeated = False


def _members(pairs: list[tuple[str, Any]]) -> _Members:
    obj = _Members(pairs)
    obj.repeated = len(obj) < len(pairs)
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> Any:
    """One JSON value, as AR-PARSE-4 reads it; ValueError otherwise."""
    try:
        return json.loads(text, object_pairs_hook=_members, parse_int=Decimal, parse_float=Decimal, parse_constant=_no_constant)
    except RecursionError:
        # Python's json module recurses, and the spec's reader takes any depth (RO-085 nests
        # 10 000 arrays): check such a text without recursion, keeping only its top level.
        return _parse_deep(text)


# One JSON token after JSON whitespace: punctuation, a string, or a number or literal.
_TOKEN = re.compile(
    r"[ \t\n\r]*+(?:([{}\[\],:])"
    r'|("(?:[^"\\\x00-\x1f]++|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*+")'
    r"|(-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][-+]?[0-9]++)?|true|false|null))"
)
_LITERALS = {"true": True, "false": False, "null": None}
_NESTED = object()  # a value nested below the top level, which no decision reads


def _parse_deep(text: str) -> Any:
    """A JSON text checked token by token, without recursion. Returns a top-level object as
    :class:`_Members` whose nested values are a placeholder, a top-level array as ``[]``, a
    scalar as itself; ValueError otherwise."""
    stack: list[str] = []  # the open containers, "{" or "["
    members: list[tuple[str, Any]] | None = None  # the top-level object's members
    top: Any = _NESTED
    key = ""
    expect = "value"  # then "key", "colon", "next" (a comma or the end), "end" (of the text)
    opened_empty = False  # the container just opened may close at once
    i = 0
    while expect != "end":
        token = _TOKEN.match(text, i)
        if token is None:
            raise ValueError(f"unexpected text at char {i}")
        punct, string, scalar = token.groups()
        i = token.end()
        closes = stack and punct == ("}" if stack[-1] == "{" else "]")
        if closes and (expect == "next" or (expect in ("value", "key") and opened_empty)):
            stack.pop()
        elif expect == "next" and punct == ",":
            expect = "key" if stack[-1] == "{" else "value"
            opened_empty = False
            continue
        elif expect == "key" and string is not None:
            key, expect = json.loads(string), "colon"
            continue
        elif expect == "colon" and punct == ":":
            expect, opened_empty = "value", False
            continue
        elif expect == "value" and punct in ("{", "["):
            if len(stack) == 1 and members is not None:
                members.append((key, _NESTED))
            if not stack and punct == "{":
                members = []
            stack.append(punct)
            expect, opened_empty = ("key" if punct == "{" else "value"), True
            continue
        elif expect == "value" and (string is not None or scalar is not None):
            if string is not None:
                value = json.loads(string)
            else:
                value = _LITERALS[scalar] if scalar in _LITERALS else Decimal(scalar)
            if not stack:
                top = value
            elif len(stack) == 1 and members is not None:
                members.append((key, value))
        else:
            raise ValueError(f"unexpected {token.group().strip()!r} at char {token.start()}")
        expect = "next" if stack else "end"  # a value is complete
    if text[i:].strip(" \t\n\r"):
        raise ValueError(f"extra data at char {i}")
    if members is not None:
        return _members(members)
    return [] if top is _NESTED else top


def decision_of(value: _Members) -> Verdict:
    """AR-PARSE-6/7: a parsed object as one of the six legal shapes, or a protocol failure."""
    if value.repeated:
        raise ReviewFailure("protocol", MSG.REPEATED)
    risk, decision, reason = value.get("risk"), value.get("decision"), value.get("reason")
    members = set(value)
    if members == {"risk", "decision"}:
        if decision == "allow" and risk in ("low", "medium"):
            return Verdict("allow")
        if decision == "deny" and risk in ("medium", "high"):
            return Verdict("deny")
    if (
        members == {"risk", "decision", "reason"}
        and decision == "deny"
        and risk in ("medium", "high")
        and isinstance(reason, str)
    ):
        return Verdict("deny", reason)
    raise ReviewFailure("protocol", MSG.PROTOCOL)


# ---- The response -------------------------------------------------------------------------------


def split_response(chunks: list[Chunk]) -> tuple[list[Block], Finish, bool]:
    """A reviewer response's content blocks, its terminal finish, and whether data followed it."""
    blocks: list[Block] = []
    finish: Finish | None = None
    for chunk in chunks:
        if finish is not None:
            return blocks, finish, True
        if isinstance(chunk, Finish):
            finish = chunk
        elif isinstance(chunk, Block):
            blocks.append(chunk)
    if finish is None:
        # AR-PARSE-1 / AR-TOL-1: a stream cut before its terminal finish is a broken stream (AR-REVIEW-7).
        raise ReviewFailure("transport", MSG.NO_FINISH)
    return blocks, finish, False


def check_finish(finish: Finish, to_text: Callable[[Any], str]) -> None:
    """AR-PARSE-1 / AR-TOL-1: a response that did not stop normally is a failure. ``to_text``
    turns the provider's message into text as the rule ``failure_text`` says: ``js_string`` for
    ``javascript`` (AR-REVIEW-5), ``text_of`` for ``normalized`` (AR-RES-NORM-1)."""
    if finish.kind in ("error", "aborted"):
        text = to_text(finish.message)
        failure_class = "aborted" if finish.kind == "aborted" else classify_error_finish(finish.code or "", text)
        raise ReviewFailure(failure_class, MSG.ended(finish.kind, finish.code, text))
    if finish.kind != "stop":
        raise ReviewFailure("provider", MSG.ended(finish.kind))


# ---- The strict reader (chapter 4, baseline) ----------------------------------------------------


def read_strict(chunks: list[Chunk], to_text: Callable[[Any], str] = js_string) -> Verdict:
    """AR-PARSE-1..7: read a reviewer response into a verdict, or raise a ReviewFailure.
    ``to_text`` turns a failed finish's message into text (``failure_text``): ``js_string``,
    String(value), so an object is [object Object] (AR-REVIEW-5), or ``text_of`` (AR-RES-NORM-1)."""
    blocks, finish, data_after_finish = split_response(chunks)
    check_finish(finish, to_text)  # AR-PARSE-1
    if data_after_finish:
        raise ReviewFailure("protocol", MSG.AFTER_FINISH)  # AR-PARSE-2
    if not blocks or blocks[-1].type != "text" or any(b.type != "reasoning" for b in blocks[:-1]):
        raise ReviewFailure("protocol", MSG.BLOCKS)  # AR-PARSE-3
    try:
        value = parse_json(blocks[-1].text)  # AR-PARSE-4
    except ValueError as error:
        raise InvalidJson("protocol", MSG.invalid_json(str(error)), implementation_defined=True) from None
    if not isinstance(value, _Members):
        raise ReviewFailure("protocol", MSG.NOT_OBJECT)  # AR-PARSE-5
    return decision_of(value)  # AR-PARSE-6/7


# ---- The tolerant reader (chapter 10, resilient) ------------------------------------------------

_ASCII_SPACE = " \t\n\f\r"
_PLAIN_INFO = re.compile(f"[{_TRIM}]*[A-Za-z0-9_+.-]*[{_TRIM}]*")
_FENCED = re.compile(r"(```|~~~)([^\n]*)\n(.*)(```|~~~)", re.DOTALL)
_SPAN_CHARS = re.compile(r'[{}"\\]')


def unwrap_fence(text: str) -> tuple[str, int]:
    """AR-TOL-4: one outer fence around the whole text is removed with the rest of its opening
    line, unless that line holds a ``{``. Returns the text inside and where it starts."""
    start = len(text) - len(text.lstrip(_ASCII_SPACE))
    trimmed = text.strip(_ASCII_SPACE)
    for marker in ("```", "~~~"):
        if len(trimmed) < 2 * len(marker) or not (trimmed.startswith(marker) and trimmed.endswith(marker)):
            continue
        between = trimmed[len(marker) : -len(marker)]
        newline = between.find("\n")
        if "{" in (between[:newline] if newline >= 0 else ""):
            break
        body = newline + 1 if newline >= 0 else 0
        return between[body:], start + len(marker) + body
    return text, 0


def top_level_spans(text: str) -> list[tuple[int, int]]:
    """AR-TOL-5: the balanced top-level ``{...}`` spans, as (start, end) pairs, in one pass over
    the characters that matter. Inside a span, strings and their escapes are tracked; outside,
    quotes are prose. A span still open at the end is not a span."""
    spans: list[tuple[int, int]] = []
    depth = start = 0
    in_string = False
    escaped_at = -1
    for match in _SPAN_CHARS.finditer(text):
        i, c = match.start(), match.group()
        if i == escaped_at:
            continue
        if in_string:
            if c == "\\":
                escaped_at = i + 1
            elif c == '"':
                in_string = False
        elif c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif depth > 0:
            if c == '"':
                in_string = True
            elif c == "}":
                depth -= 1
                if depth == 0:
                    spans.append((start, i + 1))
    return spans


def stands_alone(text: str, obj: str) -> bool:
    """AR-TOL-10: the trimmed text is the allow object, or one plain fence around it."""
    t = text.strip(_TRIM)
    if t == obj:
        return True
    fence = _FENCED.fullmatch(t)
    return bool(fence and fence[1] == fence[4] and _PLAIN_INFO.fullmatch(fence[2]) and fence[3].strip(_TRIM) == obj)


def read_decision_text(text: str) -> Verdict:
    """AR-TOL-4..10: find the one decision object in a reviewer's text."""
    whole = text[1:] if text.startswith("\ufeff") else text  # one byte-order mark
    inner, offset = unwrap_fence(whole)

    candidate: tuple[str, _Members] | None = None
    taken: list[tuple[int, int]] = []
    for start, end in top_level_spans(inner):
        source = inner[start:end]
        try:
            value = parse_json(source)
        except ValueError:
            if "decision" in source:
                raise ReviewFailure("protocol", MSG.MALFORMED) from None  # AR-TOL-7
            continue
        if "decision" not in value:
            continue  # AR-TOL-5: an object without a decision is prose
        if candidate is not None and candidate[0] != source:
            raise ReviewFailure("protocol", MSG.AMBIGUOUS)  # AR-TOL-6
        candidate = candidate or (source, value)
        taken.append((offset + start, offset + end))
    if candidate is None:
        raise ReviewFailure("protocol", MSG.NO_DECISION)

    verdict = decision_of(candidate[1])  # AR-TOL-8
    if verdict.decision == "allow":
        # AR-TOL-9: no brace anywhere outside the candidates, fence lines included.
        bounds = [0, *(i for span in taken for i in span), len(whole)]
        outside = (whole[bounds[k] : bounds[k + 1]] for k in range(0, len(bounds), 2))
        if any("{" in part or "}" in part for part in outside):
            raise ReviewFailure("protocol", MSG.CONFLICT)
        # AR-TOL-10: an allow stands alone, so words around it cannot hide a refusal.
        if not stands_alone(text, candidate[0]):
            raise ReviewFailure("protocol", MSG.ALLOW_PROSE)
    return verdict


def read_tolerant(chunks: list[Chunk], to_text: Callable[[Any], str] = text_of) -> Verdict:
    """AR-TOL-1..3, then the text: read a reviewer response tolerantly, or raise a ReviewFailure.
    ``to_text`` as for :func:`read_strict`."""
    blocks, finish, _ = split_response(chunks)  # data after the finish is not read (AR-TOL-2)
    check_finish(finish, to_text)
    if any(b.type == "tool-call" for b in blocks):
        raise ReviewFailure("protocol", MSG.TOOL_CALL)
    text = "".join(b.text for b in blocks if b.type == "text")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_TEXT_BYTES:
        raise ReviewFailure("protocol", MSG.TOO_LARGE)
    return read_decision_text(text)


# ---- The review (chapter 3; AR-RES-SCHEMA/ROUTE/RETRY/NORM/HINT) --------------------------------


def review_request(
    call: ToolCall,
    route: Route,
    signal: AbortSignal,
    *,
    cwd: str,
    action: dict[str, Any],
    session_id: str | None = None,
    temperature: float | str = 0,
    reminder: str | None = None,
) -> dict[str, Any]:
    """One reviewer request (AR-REVIEW-3, AR-REVIEW-12): at the review's temperature (none at
    all for ``provider-default``), no tools, the review policy (with ``reminder`` appended after a
    blank line for a repair: the repair instruction, AR-RES-RETRY-2, or the JSON retry's reminder,
    AR-JSON-RETRY-1), and the session's id when the request is attributed to it (AR-RES-REQUEST-1)."""
    user = "\n\n".join(["ENVIRONMENT", json.dumps({"cwd": cwd}), "PENDING_ACTION", json.dumps({**action, "mode": call.kind})])
    request: dict[str, Any] = {
        "provider": route.provider,
        "model": route.model,
        "system": REVIEW_POLICY if reminder is None else f"{REVIEW_POLICY}\n\n{reminder}",
        "messages": [{"role": "user", "content": [{"type": "text", "text": user}]}],
        "signal": signal,
    }
    if temperature != "provider-default":
        request["temperature"] = temperature
    if session_id is not None:
        request["session_id"] = session_id
    return request


def pending_action(call: ToolCall, session: Session) -> dict[str, Any]:
    """AR-REVIEW-11: the pending call as the session log holds it, or a ``session`` failure."""
    try:
        return session.log.pending_action(call)
    except SessionLogError as error:
        raise ReviewFailure("session", str(error)) from None


def schema_failure(call: ToolCall) -> ReviewFailure:
    return ReviewFailure("schema", MSG.SCHEMA_PTC if call.kind == "ptc-inner" else MSG.SCHEMA_NATIVE)


def schema_resolves(call: ToolCall, env: Env) -> bool:
    """AR-REVIEW-2: exactly one schema of the call's name in the request header (for a
    ``ptc-inner`` call, the binding); under ``schema`` ``registry-first`` the live registry is
    asked first (AR-RES-SCHEMA-1)."""
    if env.rules["schema"] == "registry-first" and len(env.tools.registry_schemas(call)) == 1:
        return True
    return len(env.tools.header_schemas(call)) == 1


async def ask_reviewer(call: ToolCall, route: Route, env: Env, signal: AbortSignal, **request: Any) -> Verdict:
    """The review's requests: one (``asks_again`` ``never``, AR-REVIEW-1), or repairs after
    protocol failures and retries after transport failures within the configured budgets
    (``repair-and-retry``, AR-RES-RETRY-1..3, 5), or requests with a reminder after invalid JSON
    only, up to ``max_json_retries`` (``json-retry``, AR-JSON-RETRY-1..3); under one deadline
    when ``deadline`` says so (AR-RES-RETRY-4). Each response is read by the ``reader`` the rules
    name, a provider's value turned into text as ``failure_text`` says. Returns a verdict or raises a ReviewFailure, marked
    ``by_signal`` when the caller's or the lifecycle's signal ended it (AR-CANCEL-6)."""
    rules, config = env.rules, env.config
    read = read_tolerant if rules["reader"] == "tolerant" else read_strict
    to_text = text_of if rules["failure_text"] == "normalized" else js_string
    repairs = retries = json_retries = 0  # AR-REVIEW-1: at most one request
    if rules["asks_again"] == "repair-and-retry":
        repairs, retries = config.repair_attempts, config.transport_retries
    elif rules["asks_again"] == "json-retry":
        # AR-JSON-RETRY-1: the configured number where the rules read it, else 1.
        json_retries = config.max_json_retries if "max_json_retries" in rules["config"] else 1
    reminder: str | None = None  # appended to the review policy from the first repair on
    # AR-REVIEW-3, AR-RES-CONFIG-1: the configured temperature where the rules read it, else 0.
    temperature = config.temperature if "temperature" in rules["config"] else 0
    # AR-RES-RETRY-4: one deadline for all requests, from the first request's start; a request
    # still running then is cancelled and no other starts.
    deadline = env.clock.timeout(config.review_timeout_ms) if rules["deadline"] else contextlib.nullcontext()
    try:
        async with deadline:
            while True:
                try:
                    chunks = await env.llm.request(**review_request(call, route, signal, temperature=temperature, reminder=reminder, **request))
                    return read(chunks, to_text)
                except ReviewerError as thrown:
                    # A thrown value is `internal` (AR-REVIEW-7): String(value) or its text (AR-REVIEW-5 item 3, AR-RES-NORM-1).
                    failure = ReviewFailure("internal", to_text(thrown.value))
                except ReviewFailure as raised:
                    failure = raised
                # AR-JSON-RETRY-3: under json-retry, invalid JSON has the 0.2.x gate's own words.
                json_retry = rules["asks_again"] == "json-retry" and isinstance(failure, InvalidJson)
                if json_retry:
                    failure = ReviewFailure("protocol", MSG.NOT_JSON)
                # AR-CANCEL-6: a request our own signal ended is the gate's doing, not the reviewer's,
                # and its message implementation-defined (AR-MSG-3): the runtime's report of the
                # cancellation and the provider's own aborted finish cannot be told apart.
                failure.by_signal = signal.aborted and failure.failure_class == "aborted"
                if failure.by_signal:
                    failure.implementation_defined = True
                if signal.aborted:
                    raise failure  # AR-RES-RETRY-5, AR-JSON-RETRY-2: final
                if json_retry and json_retries > 0:
                    json_retries, reminder = json_retries - 1, MSG.JSON_RETRY_REMINDER  # AR-JSON-RETRY-1
                elif failure.failure_class == "protocol" and repairs > 0:
                    repairs, reminder = repairs - 1, MSG.REPAIR_INSTRUCTION
                elif failure.failure_class == "transport" and retries > 0:
                    retries -= 1  # repeats the request unchanged: a retried repair is a repair
                else:
                    raise failure
    except TimeoutError:
        if not rules["deadline"]:
            raise
        raise ReviewFailure("timeout", MSG.deadline(config.review_timeout_ms)) from None


@dataclass(frozen=True)
class Review:
    """A settled review: a verdict or a failure, and the hint when one is due (AR-RES-HINT-2)."""

    verdict: Verdict | None = None
    failure: ReviewFailure | None = None
    hint: tuple[str, str] | None = None  # (en, zh)


async def review(call: ToolCall, session: Session, env: Env, signal: AbortSignal, failures: dict[str, int]) -> Review:
    """One review (chapter 3), each step as the run's rules say. Where the rules count failures in
    a row, keeps the session's count in ``failures`` (AR-RES-HINT-1) and words the hint when due
    (AR-RES-HINT-2)."""
    rules, config = env.rules, env.config
    # AR-REVIEW-3, or AR-RES-ROUTE-1: a configured reviewer route comes first.
    route = (config.reviewer_route if rules["route"] == "configured-first" else None) or session.route
    try:
        if not route.provider or not route.model:
            raise ReviewFailure("route", MSG.NO_ROUTE)  # AR-REVIEW-9, checked first as shipped
        if rules["working_directory"] == "deployment-fallback":
            # AR-RES-CWD-1: a header without a directory says nothing about the call; use the deployment's.
            cwd = env.ensure_working_directory(session)
        elif session.working_directory is None:
            raise ReviewFailure("session", MSG.NO_CWD)  # AR-REVIEW-10
        else:
            cwd = session.working_directory
        action = pending_action(call, session)  # AR-REVIEW-11
        if not schema_resolves(call, env):
            raise schema_failure(call)  # AR-REVIEW-2, AR-RES-SCHEMA-1
        # AR-REVIEW-12: no session id, or AR-RES-REQUEST-1: every request names its session.
        session_id = session.id if rules["session_id_in_requests"] else None
        verdict = await ask_reviewer(call, route, env, signal, cwd=cwd, action=action, session_id=session_id)
    except Exception as error:
        raw = error if isinstance(error, ReviewFailure) else ReviewFailure("internal", str(error))
        failure = raw
        if rules["failure_text"] == "normalized":  # AR-RES-NORM-2..4
            failure = ReviewFailure(raw.failure_class, normalize_message(raw.message), raw.implementation_defined)
        env.observe.review_failure(failure.failure_class, failure.message, failure.implementation_defined)
        if not rules["counts_failures"] or raw.by_signal:
            return Review(failure=failure)  # a signal's failure is not the reviewer's (AR-RES-HINT-1)
        count = failures.get(session.id, 0) + 1
        failures[session.id] = count
        if count < config.failure_hint_after:
            return Review(failure=failure)
        # Every request of a review uses one route: the last request's, or the one it would use.
        return Review(failure=failure, hint=MSG.hint(count, f"{route.provider}/{route.model}"))
    if rules["counts_failures"]:
        failures[session.id] = 0
    return Review(verdict=verdict)


# ---- The gate (chapters 1, 2, 5, 7; AR-RES-DECIDE/FAIL/ASK) -------------------------------------

Question = tuple[str, str, str]  # (audited reason, English display reason, Chinese display reason)


def final_denial(name: str, reason: str | None) -> Deny:
    """AR-DECIDE-2 / AR-RES-DECIDE-1: a final reviewer denial."""
    return Deny(MSG.final_deny(name), INFO_DENIED if reason is None else {**INFO_DENIED, "reason": reason})


def denied_question(name: str, reason: str | None) -> Question:
    """AR-DECIDE-5: the question after a reviewer denial."""
    return MSG.ask_review(name, reason), MSG.display_en(reason), MSG.display_zh(reason)


def ask(question: Question, hint: tuple[str, str] | None = None) -> Ask:
    """An ask decision, with the hint (AR-RES-HINT-2) as its last line when one is due."""
    reason, en, zh = question
    if hint is not None:
        reason, en, zh = f"{reason}\n{hint[0]}", f"{en}\n{hint[0]}", f"{zh}\n{hint[1]}"
    return Ask(reason, DisplayReason(en, zh))


class ExampleIntegration:
    """The installed gate and everything it keeps (see the module's docstring)."""

    def __init__(self, host: Host, restored: Mapping[str, int]) -> None:
        self.host = host
        self.accepting = True
        self.lifecycle = AbortController()
        self.admitted: set[asyncio.Future[None]] = set()  # admitted calls not yet decided (AR-ADMIT-3)
        self.moved_by_disposal: set[str] = set()  # ids of the sessions disposal moved out of Auto
        self.failures: dict[str, int] = dict(restored)  # session id -> failures in a row
        # AR-DISPOSE-5: once disposal began, selecting Auto is refused, so nothing that observes
        # the migration can put a session back under a gate that is going away.
        # Selecting Auto writes the mode `_auto_sandbox` names (AR-SCOPE-5).
        self._unregister_auto = host.presets.register_auto(self._admit_selection, sandbox=self._auto_sandbox)
        # AR-APPROVAL-7 (``body_approvals`` ``allowed-call``): agent id -> the ids of its calls
        # the reviewer allowed and downstream allowed, from that decision until their result is
        # produced. The approval answerer and the post-execute listener come first in their chains.
        self.allowed_calls: dict[str, set[str]] = {}
        self._body_approval_hooks: list[Callable[[], None]] = []
        if host.rules["body_approvals"] == "allowed-call" and host.post_execute is not None:
            self._body_approval_hooks = [
                host.approval.on_request(self._answer_approval, prepend=True),
                host.post_execute.register(self._forget, prepend=True),
            ]

    def _admit_selection(self, session: Session) -> None:
        if not self.accepting:
            raise RuntimeError(MSG.CLOSING)

    # ---- Confinement (AR-CONFINE-1..4, rule ``confinement``) ----------------------------------

    def _confines_reads(self, session: Session) -> bool:
        """Whether the session's backend confines reads; a host without a sandbox policy
        confines nothing."""
        sandbox = self.host.sandbox_policy
        return sandbox is not None and sandbox.confines_reads(session) is True

    def _auto_sandbox(self, session: Session) -> str:
        """The mode selecting Auto writes: full access, or, where the rules confine, the confined
        mode on a backend that confines reads."""
        if self.host.rules["confinement"] and self._confines_reads(session):
            return CONFINED
        return FULL_ACCESS

    def _confine(self, session: Session) -> None:
        """AR-CONFINE-1/2: narrow an Auto session that still has full access on a backend that
        confines reads; never widen. A rejected change raises, and the exception leaves the
        listener (AR-CONFINE-3): the call must not run under the mode it failed to leave."""
        sandbox = self.host.sandbox_policy
        if sandbox is None or sandbox.mode_of(session) != FULL_ACCESS:
            return
        if self._auto_sandbox(session) == CONFINED:
            sandbox.set_sandbox_mode(session, CONFINED)

    def _move_out_of_auto(self, session: Session) -> None:
        """Disposal's move of an Auto session (AR-DISPOSE-1): to Full access, which writes `never`
        and full access; or, where the rules confine, a session already confined to Workspace
        Write, keeping its mode and its approval policy, so a delegated child pinned to `never`
        stays so (AR-CONFINE-2, AR-CONFINE-5)."""
        sandbox = self.host.sandbox_policy
        if self.host.rules["confinement"] and sandbox is not None and sandbox.mode_of(session) == CONFINED:
            self.host.presets.select(session, "workspace-write", keep_policy=True)
        else:
            self.host.presets.select(session, "danger-full-access")

    # ---- Approvals the body raises (AR-APPROVAL-7, rule ``body_approvals``) ---------------------

    def _cover(self, call: ToolCall) -> None:
        """The call was reviewed, the reviewer allowed, downstream allowed, and the listener
        returns allow: until its result is produced, an approval its body raises naming it is the
        gate's to answer. Nothing else is covered: not a pass-through call, not a call the
        reviewer denied (whatever the human then said), not one downstream asked about."""
        if self._body_approval_hooks and call.agent is not None:
            self.allowed_calls.setdefault(call.agent.id, set()).add(call.call_id)

    async def _answer_approval(self, request: ApprovalRequest, call_next: Callable[[], Awaitable[str]]) -> str:
        """The gate's approval answerer, first of the service's listeners: ``allowed-once`` for a
        request that names a covered call of the same agent while its session is still in Auto;
        every other request goes on (no call id, another call's, an unreviewed or finished one, or
        any after the body left Auto)."""
        agent = request.agent
        if agent is None or request.call_id is None or request.call_id not in self.allowed_calls.get(agent.id, ()):
            return await call_next()
        if self.host.presets.current(agent.session) != "auto":
            return await call_next()
        return "allowed-once"

    def _forget(self, call: ToolCall, result: Mapping[str, Any]) -> None:
        """The post-execute listener: a call whose result is produced is no longer covered."""
        if call.agent is not None:
            self.allowed_calls.get(call.agent.id, set()).discard(call.call_id)

    @property
    def closing(self) -> bool:
        """Whether admission is refused: disposal began, or the lifecycle ended (AR-ADMIT-1)."""
        return not self.accepting or self.lifecycle.signal.aborted

    @contextlib.asynccontextmanager
    async def _admitted(self) -> AsyncIterator[None]:
        """AR-ADMIT-3: track an admitted call until its decision is returned."""
        done = asyncio.get_running_loop().create_future()
        self.admitted.add(done)
        try:
            yield
        finally:
            self.admitted.discard(done)
            done.set_result(None)

    async def listener(self, call: ToolCall, call_next: CallNext, env: Env) -> Decision:
        rules = self.host.rules
        if call.agent is None:
            return await call_next()  # AR-SCOPE-1
        session = call.agent.session
        # AR-CONFINE-1: before anything else the gate does for a call in Auto, the outer run_code
        # call included (its process runs under the same mode); not while closing (AR-CONFINE-4).
        # Outside any try: a rejected change fails the call (AR-CONFINE-3).
        if rules["confinement"] and not self.closing and env.presets.current(session) == "auto":
            self._confine(session)
        # AR-SCOPE-2: the outer transport is the tool run_code with no parent.
        if call.parent is None and call.name == "run_code":
            return await call_next()
        # AR-RES-DISPOSE-1 (``preset_read`` ``current``): a session our disposal moved out of Auto
        # is not passed on unreviewed while we close; the call is refused admission before the
        # preset is read.
        if rules["preset_read"] == "current" and self.closing and session.id in self.moved_by_disposal:
            return Cancel()
        # AR-DISPOSE-2 (``at-start``): the preset is read before admission, as shipped, so a
        # session disposal moved out of Auto passes through.
        if env.presets.current(session) != "auto":
            return await call_next()
        if self.closing:
            return Cancel()  # AR-ADMIT-2

        async with self._admitted():
            signal = AbortSignal.any(call.signal, self.lifecycle.signal)
            settled = await review(call, session, env, signal, self.failures)
            if self.lifecycle.signal.aborted:
                return Cancel()  # AR-CANCEL-3: whatever the review said
            if rules["failures"] == "ask":
                return await self._decide_ask(call, session, call_next, env, settled)
            return await self._decide_deny(call, session, call_next, env, settled)

    async def _decide_deny(self, call: ToolCall, session: Session, call_next: CallNext, env: Env, settled: Review) -> Decision:
        """``failures`` ``deny`` (AR-DECIDE-1..6): a failure is a denial; a reviewer denial is
        final under the recorded override ``never``."""
        if settled.failure is not None:
            reason = MSG.failed(call.name, settled.failure.message)  # AR-DECIDE-1
            if settled.hint is not None:
                # AR-RES-HINT-2: wherever failures are counted, whichever rules decide.
                reason = f"{reason}\n{settled.hint[0]}"
            return Deny(reason)
        verdict = settled.verdict
        assert verdict is not None
        # AR-DECIDE-2: a denial under the recorded override `never` is final (AR-DECIDE-6).
        if verdict.decision == "deny" and env.approval.override_of(session) == "never":
            return final_denial(call.name, verdict.reason)
        downstream = await call_next()  # AR-DECIDE-3: exactly once
        if self.lifecycle.signal.aborted:
            return Cancel()  # AR-CANCEL-4
        # AR-DECIDE-4 / first case of AR-DECIDE-5: downstream's decision unchanged.
        if verdict.decision == "allow":
            if isinstance(downstream, Allow):
                self._cover(call)  # AR-APPROVAL-7: reviewer and downstream allowed
            return downstream
        if not isinstance(downstream, Allow):
            return downstream
        return ask(denied_question(call.name, verdict.reason))  # AR-DECIDE-5

    async def _decide_ask(self, call: ToolCall, session: Session, call_next: CallNext, env: Env, settled: Review) -> Decision:
        """``failures`` ``ask`` (AR-RES-DECIDE-1, AR-RES-FAIL-1..3, AR-RES-ASK-1): the
        effective policy decides; a failure is asked about unless it or ``on_failure`` says deny."""
        never = env.approval.effective_policy(session) == "never"
        question: Question | None = None  # what to ask when the reviewer did not allow
        if settled.failure is not None:
            if never or env.config.on_failure == "deny":
                # AR-RES-FAIL-3: deny before downstream, naming the failure class.
                reason = MSG.failed(call.name, settled.failure.message)
                if settled.hint is not None:
                    reason = f"{reason}\n{settled.hint[0]}"
                return Deny(reason, {**INFO_FAILED, "failure": settled.failure.failure_class})
            question = MSG.ask_failed(call.name, settled.failure.message)  # AR-RES-FAIL-2
        elif settled.verdict is not None and settled.verdict.decision == "deny":
            if never:
                return final_denial(call.name, settled.verdict.reason)
            question = denied_question(call.name, settled.verdict.reason)

        downstream = await call_next()
        if self.lifecycle.signal.aborted:
            return Cancel()  # AR-CANCEL-4
        if question is None and isinstance(downstream, Allow):
            self._cover(call)  # AR-APPROVAL-7: the reviewer allowed, and so did downstream
        if question is None or isinstance(downstream, (Deny, Cancel)):
            return downstream
        if isinstance(downstream, Ask):
            return ask(MSG.combined(*question, downstream.reason or ""), settled.hint)  # AR-RES-ASK-1
        return ask(question, settled.hint)

    # ---- Disposal (AR-DISPOSE-1..5, AR-INSTALL-1) ---------------------------------------------

    def close(self) -> None:
        """Stop admitting, move the live Auto sessions to Full access (or, where the rules
        confine, a confined one to Workspace Write), abort the lifecycle."""
        self.accepting = False
        for session in self.host.sessions.list():
            if self.host.presets.current(session) == "auto":
                self.moved_by_disposal.add(session.id)
                self._move_out_of_auto(session)
        self.lifecycle.abort(MSG.DISPOSED)

    async def wait_closed(self) -> None:
        """Wait for the admitted calls; then Auto is gone (AR-DISPOSE-4)."""
        if self.admitted:
            await asyncio.wait(list(self.admitted))
        self._unregister_auto()
        for unregister in self._body_approval_hooks:
            unregister()
        self.allowed_calls.clear()

    def consecutive_failures(self, session: Session) -> int:
        """The session's failures in a row (AR-RES-HINT-1), counted where ``counts_failures``
        says so; the world asks only then."""
        return self.failures.get(session.id, 0)


def install(host: Host, restored: Mapping[str, int]) -> ExampleIntegration:
    """Install the gate: register the Auto preset and return the integration. ``restored``
    holds the failures in a row each session had before (empty for a fresh installation, which
    counts from 0, AR-RES-HINT-4)."""
    return ExampleIntegration(host, restored)
