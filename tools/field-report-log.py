#!/usr/bin/env python3
"""Write spec/fixtures/audit/field-report.jsonl, an audit log (spec/audit.md) of the field report.

The log is reconstructed from the published figures of the field report; sessions other than the
two streaks are distributed by route, as the report does not publish them. The report ("Reviewer
technical failures return a terminal deny", dsh-desktop 0.2.1-rc.3, 238 session logs of
2026-10-16 .. 10-25) publishes:

- 55 genuine failure events in 15 sessions, by class and shape (A1 tool-call markup 23: <tool_call
  x10, DSML sentinel x13; A2 prose 13: CJK x8, Latin x4, fenced ```toolCal x1; B request failed
  15: TRANSPORT x4, QUOTA_EXCEEDED x3, aborted [object Object] x3, sse terminated x2, TIMEOUT x1,
  other x2; C schema 4);
- the same failures by route (its "Per route" table);
- two streaks with their times and tools (2026-10-21 on qodercn/qfmodel, and the 2026-10-25
  lockout on qodercn/dfmodel ending in /permission danger-full-access);
- the class C session: 3 consecutive pwsh refusals plus mcp__mobile__mobile_force_stop, 2026-10-20,
  buddy/deepseek-v4.1-flash.

Everything else is invented, and only so that the log can be audited: which session holds which
failure, the times outside the two streaks, the tools, the allowed calls between failures (a
session on a qodercn route breaks its run of failures by switching its agent to
buddy/deepseek-v4.1-flash for a while, so that the report's two streaks of five stay the longest),
the two sessions that only quote the failure text, the clean sessions, and the one call recorded
without a result (undecidable). The report groups three routes as "codearts / cline / raccoon (1
each)" without their models: the model names of those three routes here are invented. The
minimax route is written MiniMax-M3.1-Flash-Preview (the report: "MiniMax-M3.1-Flash(-Preview)").

A failure's result text is what the rc.3 gate wrote: `Error: Auto review of tool "<name>" failed;
its body was not executed: <error>`, <error> being V8's JSON.parse message for A1 and A2 and the
gate's own message for B and C. "Other" B failures are two AR-REVIEW-7 classes as `provider`: an
error finish with an unrecognised message and a max-tokens finish.

Deterministic: no randomness, no clock. Run from anywhere; prints what it wrote, by class x route
and by session, so a reader can check it against the report.
"""

import collections
import datetime
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "spec" / "fixtures" / "audit" / "field-report.jsonl"

QF = "qodercn/qfmodel"
DF = "qodercn/dfmodel"
FUCK = "fuck-gpt/gpt-6.1-sol"
BUDDY = "buddy/deepseek-v4.1-flash"
MINIMAX = "minimax/MiniMax-M3.1-Flash-Preview"
TRAE = "trae/deepseek-v4.1-flash"
# The report names these three providers only; the models are invented.
CODEARTS = "codearts/glm-4.7-air"
CLINE = "cline/qwen3.5-coder-plus"
RACCOON = "raccoon/raccoon-coder-pro"

# The reviewer errors: (class, shape, <error>).
TOOL_CALL = ("A1", "<tool_call", "Unexpected token '<', \"<tool_call\"... is not valid JSON")
TOOL_CALL_SPACE = ("A1", "<tool_call", "Unexpected token '<', \"<tool_call> \"... is not valid JSON")
DSML = ("A1", "DSML", "Unexpected token '<', \"<\uff5c\uff5cDSML\uff5c\uff5c \"... is not valid JSON")
CJK = ("A2", "CJK prose", "Unexpected token '根', \"根据之前的侦察，我已\"... is not valid JSON")
START = ("A2", "Latin prose", "Unexpected token 'I', \"I'll start\"... is not valid JSON")
CHECK = ("A2", "Latin prose", "Unexpected token 'L', \"Let me che\"... is not valid JSON")
FENCE = ("A2", "fenced ```toolCal", "Unexpected token '`', \"```toolCal\"... is not valid JSON")
ENDED = "auto-review: reviewer ended with "
CONNECTION = ("B", "TRANSPORT: Connection error", ENDED + "error TRANSPORT: Connection error")
QUOTA = ("B", "QUOTA_EXCEEDED", ENDED + "error QUOTA_EXCEEDED: HTTP 402 Payment Required")
ABORTED = ("B", "aborted UNKNOWN: [object Object]", ENDED + "aborted UNKNOWN: [object Object]")
SSE = ("B", "sse transport error: terminated", ENDED + "error UNKNOWN: sse transport error: terminated")
TIMEOUT = ("B", "TIMEOUT", ENDED + "error TIMEOUT: request timed out")
UPSTREAM = ("B", "other", ENDED + "error UNKNOWN: upstream returned 500")
MAX_TOKENS = ("B", "other", ENDED + "max-tokens")
SCHEMA = ("C", "schema", "auto-review: the pending native tool schema is missing or ambiguous")

# AR-REVIEW-7's class of each B failure (an sse "transport error" is `transport`).
SUBCLASS = {
    CONNECTION[2]: "transport", SSE[2]: "transport", QUOTA[2]: "quota", TIMEOUT[2]: "timeout",
    ABORTED[2]: "abort", UPSTREAM[2]: "provider", MAX_TOKENS[2]: "provider",
}

FAILED = 'Error: Auto review of tool "{tool}" failed; its body was not executed: {error}'

# Results of allowed calls, by tool.
OK = {
    "pwsh": "ok",
    "mcp__windows__PowerShell": "ok",
    "read_file": "fn main() {\n    println!(\"hello\");\n}\n",
    "write_file": "ok",
    "list_dir": "Cargo.toml\nREADME.md\nsrc\ntarget\n",
    "list_agents": '[{"name":"main","status":"running"}]',
    "working_directory": "C:\\Users\\dev\\src\\shop",
    "mcp__mobile__mobile_list_devices": '[{"id":"emulator-5554","state":"device"}]',
}


def F(tool, error, route=None, at=None, gap=None):
    """A call the gate refused because its review failed."""
    return {"tool": tool, "error": error, "route": route, "at": at, "gap": gap}


def A(tool, text=None, route=None, at=None, gap=None):
    """A call the gate let through; `text` defaults to the tool's usual result."""
    return {"tool": tool, "text": OK[tool] if text is None else text, "route": route, "at": at, "gap": gap}


def U(tool, route=None, gap=None):
    """A call recorded without its result (undecidable)."""
    return {"tool": tool, "undecidable": True, "route": route, "at": None, "gap": gap}


def P(preset, at):
    """A change of the session's permission preset."""
    return {"preset": preset, "at": at}


# Quoted, not genuine: the failure text in the middle of another tool's result.
QUOTED_GREP = (
    "C:\\Users\\dev\\.dsh\\sessions\\s-1021-a\\session.v4.jsonl\n"
    '  41: {"type":"tool/result","name":"pwsh","text":"Error: Auto review of tool \\"pwsh\\" failed; '
    "its body was not executed: Unexpected token '<', \\\"<tool_call\\\"... is not valid JSON\"}\n"
    '  44: {"type":"tool/result","name":"list_agents","text":"Error: Auto review of tool \\"list_agents\\" '
    "failed; its body was not executed: Unexpected token '<', \\\"<tool_call> \\\"... is not valid JSON\"}\n"
    "2 matches\n"
)
QUOTED_NOTES = (
    "# auto-review on qodercn\n\n"
    "Every call after /permission auto came back as\n\n"
    '    Auto review of tool "pwsh" failed; its body was not executed: '
    "Unexpected token '<', \"<tool_call\"... is not valid JSON\n\n"
    "The JSON is the reviewer's, not ours: switch the route or the preset.\n"
)
QUOTED_EXIT = (
    "Error: command exited with code 1\n"
    "notes.md:5:    Auto review of tool \"pwsh\" failed; its body was not executed: "
    "Unexpected token '<', \"<tool_call\"... is not valid JSON\n"
)

# Sessions in chronological order: (id, route, first call's time, events). An event's route
# defaults to the session's; its time is `at` when given, else the previous time plus `gap`
# (default: the next of GAPS).
SESSIONS = [
    ("s-1016-a", QF, "2026-10-16T09:14:02Z", [
        F("pwsh", CJK), F("read_file", TOOL_CALL),
        A("pwsh", route=BUDDY), A("list_dir", route=BUDDY),
        F("pwsh", START), F("mcp__windows__PowerShell", CJK),
    ]),
    ("s-1016-b", FUCK, "2026-10-16T14:40:10Z", [
        A("read_file"), F("pwsh", CONNECTION), A("pwsh"), A("list_dir"),
        F("write_file", CONNECTION), A("write_file"), F("pwsh", QUOTA), A("read_file"),
    ]),
    ("s-1017-a", DF, "2026-10-17T10:05:33Z", [
        F("pwsh", DSML), F("list_agents", DSML), F("read_file", DSML),
        A("read_file", route=BUDDY), A("pwsh", route=BUDDY),
        F("pwsh", CHECK), F("working_directory", DSML),
    ]),
    ("s-1017-b", CODEARTS, "2026-10-17T13:22:47Z", [
        A("list_dir"), A("read_file"), F("pwsh", TIMEOUT), A("pwsh"),
    ]),
    ("s-1017-c", BUDDY, "2026-10-17T16:48:20Z", [
        A("working_directory"), A("list_dir"), A("pwsh"),
    ]),
    ("s-1018-a", QF, "2026-10-18T08:51:14Z", [
        F("mcp__windows__PowerShell", CJK), F("pwsh", TOOL_CALL), F("read_file", CJK),
        A("read_file", route=BUDDY), A("write_file", route=BUDDY),
        F("pwsh", START), F("list_dir", TOOL_CALL), F("pwsh", CJK),
    ]),
    ("s-1018-b", MINIMAX, "2026-10-18T15:07:39Z", [
        A("list_dir"), F("pwsh", FENCE), A("pwsh"), F("pwsh", QUOTA), A("read_file"),
        F("read_file", ABORTED), A("read_file"), F("write_file", MAX_TOKENS), A("write_file"),
    ]),
    ("s-1019-a", TRAE, "2026-10-19T09:30:05Z", [
        A("read_file"), F("pwsh", ABORTED), A("pwsh"), F("pwsh", CONNECTION), A("list_dir"),
    ]),
    ("s-1019-b", FUCK, "2026-10-19T11:12:58Z", [
        A("pwsh"), F("pwsh", QUOTA), A("read_file"), F("write_file", SSE), A("write_file"),
    ]),
    ("s-1019-c", TRAE, "2026-10-19T20:03:31Z", [
        A("list_dir"), A("read_file"),
    ]),
    ("s-1020-a", BUDDY, "2026-10-20T10:41:26Z", [
        A("mcp__mobile__mobile_list_devices"),
        F("pwsh", SCHEMA), F("pwsh", SCHEMA), F("pwsh", SCHEMA),
        A("list_agents"), F("mcp__mobile__mobile_force_stop", SCHEMA),
        A("read_file"), F("pwsh", SSE), A("pwsh"),
    ]),
    ("s-1020-b", QF, "2026-10-20T17:15:09Z", [
        F("pwsh", TOOL_CALL), F("mcp__windows__PowerShell", CJK), F("read_file", CHECK),
        A("read_file", route=BUDDY),
        F("pwsh", TOOL_CALL), F("pwsh", CJK), F("write_file", ABORTED),
    ]),
    # The report's first streak, to the second.
    ("s-1021-a", QF, "2026-10-21T15:25:36Z", [
        F("mcp__windows__PowerShell", CJK, at="2026-10-21T15:25:36Z"),
        F("mcp__windows__PowerShell", TOOL_CALL, at="2026-10-21T15:28:04Z"),
        F("pwsh", TOOL_CALL, at="2026-10-21T15:28:57Z"),
        F("working_directory", TOOL_CALL, at="2026-10-21T15:29:16Z"),
        F("list_agents", TOOL_CALL_SPACE, at="2026-10-21T15:29:29Z"),
    ]),
    # Only quotes the failure text while inspecting the session above: no failure here.
    ("s-1021-b", BUDDY, "2026-10-21T16:02:40Z", [
        A("grep", QUOTED_GREP), A("read_file"),
    ]),
    ("s-1022-a", DF, "2026-10-22T09:47:52Z", [
        F("pwsh", DSML), F("list_agents", DSML), F("pwsh", TOOL_CALL),
        A("pwsh", route=BUDDY),
        F("read_file", DSML), F("working_directory", DSML),
    ]),
    # Quotes the failure text again (a cat of notes, a command's own error): no failure here.
    ("s-1022-b", BUDDY, "2026-10-22T13:30:18Z", [
        A("cat", QUOTED_NOTES), A("pwsh", QUOTED_EXIT), A("list_dir"),
    ]),
    ("s-1023-a", CLINE, "2026-10-23T10:10:44Z", [
        A("read_file"), F("pwsh", CONNECTION), A("pwsh"),
    ]),
    # The log ends before the second call's result was written.
    ("s-1023-b", BUDDY, "2026-10-23T14:55:03Z", [
        A("list_dir"), U("pwsh"),
    ]),
    ("s-1024-a", RACCOON, "2026-10-24T11:20:27Z", [
        A("read_file"), F("pwsh", UPSTREAM), A("pwsh"),
    ]),
    # The report's lockout: /permission auto, five refused calls in 24 s, the escape.
    ("s-1025-a", DF, "2026-10-25T07:11:51Z", [
        P("auto", "2026-10-25T07:11:51Z"),
        F("pwsh", DSML, at="2026-10-25T07:11:57Z"),
        F("list_agents", DSML, at="2026-10-25T07:11:59Z"),
        F("working_directory", DSML, at="2026-10-25T07:12:04Z"),
        F("pwsh", DSML, at="2026-10-25T07:12:09Z"),
        F("list_agents", DSML, at="2026-10-25T07:12:13Z"),
        P("danger-full-access", "2026-10-25T07:12:15Z"),
    ]),
]

GAPS = [17, 43, 26, 71, 38, 12, 95, 29, 54, 21]
EMPTY_ARGUMENTS = {"list_agents", "working_directory"}


def parse(t):
    return datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")


def fmt(d):
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def records():
    """Every record with the plan it came from, sorted by time."""
    out = []
    gaps = iter(GAPS * 100)
    for session, route, start, events in SESSIONS:
        now = None
        for event in events:
            if event.get("at"):
                now = parse(event["at"])
            elif now is None:
                now = parse(start)
            else:
                now += datetime.timedelta(seconds=event.get("gap") or next(gaps))
            if "preset" in event:
                record = {"kind": "preset", "session": session, "time": fmt(now), "preset": event["preset"]}
                out.append((now, record, None))
                continue
            record = {
                "session": session,
                "time": fmt(now),
                "tool": event["tool"],
                "empty_arguments": event["tool"] in EMPTY_ARGUMENTS,
                "route": event["route"] or route,
                "policy": "ask",
                "preset": "auto",
            }
            if "error" in event:
                text = FAILED.format(tool=event["tool"], error=event["error"][2])
                record["result"] = {"text": text}
            elif not event.get("undecidable"):
                record["result"] = {"text": event["text"]}
            out.append((now, record, event.get("error")))
    times = [t for t, _, _ in out]
    assert all(parse(s[2]) <= parse(n[2]) for s, n in zip(SESSIONS, SESSIONS[1:])), "sessions out of order"
    out.sort(key=lambda r: r[0])  # stable: a session's records keep their order
    assert sorted(times) == [t for t, _, _ in out]
    for lo, hi in (("2026-10-16T00:00:00Z", "2026-10-25T23:59:59Z"),):
        assert all(parse(lo) <= t <= parse(hi) for t in times), "a time outside 2026-10-16..25"
    return out


def classify(record):
    """The record's classification as spec/audit.md defines it, independently of the plan."""
    if "result" not in record:
        return "undecidable"
    text = record["result"]["text"]
    prefix = f'Error: Auto review of tool "{record["tool"]}" failed; its body was not executed: '
    if text.startswith(prefix):
        return "failure"
    assert not text.startswith("Error: Auto review"), text
    return "allowed"


def main():
    planned = records()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8", newline="\n") as f:
        for _, record, _ in planned:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")

    # Read back what was written and count it.
    written = [json.loads(line) for line in OUT.read_text(encoding="utf-8").splitlines()]
    calls = [r for r in written if r.get("kind", "call") == "call"]
    kinds = collections.Counter(classify(r) for r in calls)
    failures = [(r, e) for (_, r, e) in planned if e is not None]
    assert len(failures) == kinds["failure"]
    assert all(classify(r) == "failure" for r, _ in failures)

    by_route = collections.defaultdict(collections.Counter)
    shapes = collections.defaultdict(collections.Counter)
    per_session = collections.Counter()
    for r, (cls, shape, _) in failures:
        by_route[r["route"]][cls] += 1
        shapes[cls][shape] += 1
        per_session[r["session"]] += 1
    by_class = collections.Counter(cls for _, (cls, _, _) in failures)

    print(f"wrote {OUT.relative_to(ROOT)}: {len(written)} lines, {len(calls)} calls, "
          f"{len(written) - len(calls)} preset records, {len({r['session'] for r in written})} sessions")
    print("calls: " + ", ".join(f"{k} {kinds[k]}" for k in ("failure", "allowed", "undecidable")))
    print(f"\n{len(failures)} failures in {len(per_session)} sessions")
    names = {"A1": "tool-call markup", "A2": "prose", "B": "request failed", "C": "schema"}
    order = [TOOL_CALL, DSML, CJK, START, FENCE, CONNECTION, QUOTA, ABORTED, SSE, TIMEOUT, UPSTREAM, SCHEMA]
    for cls in ("A1", "A2", "B", "C"):
        detail = ", ".join(f"{s} x{shapes[cls][s]}" for c, s, _ in order if c == cls)
        print(f"  {cls} {names[cls]:<18}{by_class[cls]:>3}  ({detail})")
    sub = collections.Counter(SUBCLASS[e[2]] for _, e in failures if e[0] == "B")
    print("  B by AR-REVIEW-7 class: " + ", ".join(f"{k} {sub[k]}" for k in
                                                  ("transport", "quota", "timeout", "abort", "provider")))
    print(f"\n{'route':<36}{'A1':>4}{'A2':>4}{'B':>4}{'C':>4}")
    for route in sorted(by_route, key=lambda k: -sum(by_route[k].values())):
        row = "".join(f"{by_route[route][c] or '-':>4}" for c in ("A1", "A2", "B", "C"))
        print(f"{route:<36}{row}")
    print("\nfailures per session")
    for session, _, _, _ in SESSIONS:
        if per_session[session]:
            print(f"  {session}  {per_session[session]}")
    quoting = sorted({r["session"] for r in calls
                      if classify(r) == "allowed" and "Auto review of tool" in r["result"]["text"]})
    clean = [s for s, _, _, _ in SESSIONS if not per_session[s] and s not in quoting]
    print(f"sessions that only quote the failure text: {', '.join(quoting)}")
    print(f"sessions without failures: {', '.join(clean)}")

    # Runs of refused calls per session (an undecidable call neither extends nor ends a run).
    print("\nruns of 3 or more refused calls")
    runs = []
    current = collections.defaultdict(list)
    for r in written:
        s = r["session"]
        if r.get("kind") == "preset":
            if current[s]:
                runs.append((s, current[s], r))
            current[s] = []
            continue
        c = classify(r)
        if c == "failure":
            current[s].append(r)
        elif c == "allowed":
            if current[s]:
                runs.append((s, current[s], None))
            current[s] = []
    runs += [(s, run, None) for s, run in current.items() if run]
    runs.sort(key=lambda x: -len(x[1]))
    for s, run, after in runs:
        if len(run) < 3:
            continue
        print(f"  {s} ({run[0]['route']}): {len(run)} calls, {run[0]['time']} .. {run[-1]['time']}")
        if len(run) >= 5:
            for r in run:
                args = " {}" if r["empty_arguments"] else ""
                print(f"    {r['time']}  {r['tool']}{args}")
        if after is not None and after["preset"] in ("danger-full-access", "workspace-write"):
            print(f"    {after['time']}  escape to {after['preset']}")


if __name__ == "__main__":
    main()
