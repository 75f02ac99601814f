//! The Node.js adapters in `adapters/node/`: the skeleton (with its example gate) passes the
//! baseline, and the independent model of the shipped 0.2.1-rc.3 gate passes the baseline but
//! fails the resilient profile on each of the five defects the field report names, each caught by
//! a named case with the severity that defect deserves, and on the shipped disposal, which lets a
//! call that races the integration's shutdown run unreviewed.

use autoreview::capability::Need;
use std::collections::BTreeMap;

use autoreview::runner::subprocess::{Limits, Subprocess};
use autoreview::runner::{
    self, Difference, Oracle, Severity, Status, Verdict, known_failures::Expected,
};
use autoreview::{Profile, cases};
use serde_json::json;

const NODE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/adapters/node");

fn check(script: &str, profile: Profile) -> runner::Report {
    let command = vec!["node".into(), format!("{NODE_DIR}/{script}")];
    let mut imp = Subprocess::start(command, profile, Limits::default())
        .unwrap_or_else(|e| panic!("{script}: {e}"));
    let all = cases::all(profile).unwrap();
    runner::run(
        &mut imp,
        &all,
        profile,
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    )
}

/// The cases that did not pass, not-applicable ones aside: those are never sent, and each must
/// need what the adapter does not observe (its protocol-1 hello observes nothing beyond it).
fn failures(report: &runner::Report) -> BTreeMap<&str, &Verdict> {
    for r in &report.results {
        if let Verdict::NotApplicable { missing } = &r.verdict {
            assert_eq!(r.status, Status::NotApplicable, "{}", r.id);
            assert!(
                !missing.is_empty()
                    && missing.iter().all(|n| match n {
                        Need::Observable(o) => !report.observes.contains(o),
                        Need::Capability(c) => report.lacks.contains(c),
                    }),
                "{}: {missing:?} with {:?}",
                r.id,
                report.observes
            );
        }
    }
    report
        .results
        .iter()
        .filter(|r| !matches!(r.status, Status::Pass | Status::NotApplicable))
        .map(|r| (r.id.as_str(), &r.verdict))
        .collect()
}

#[test]
fn the_skeleton_and_the_rc3_model_pass_the_baseline() {
    for script in ["skeleton.js", "rc3-model.js"] {
        let report = check(script, Profile::BASELINE);
        assert_eq!(
            failures(&report),
            BTreeMap::new(),
            "{script} against the baseline"
        );
        assert_eq!(
            report.passed() + report.not_applicable(),
            report.results.len()
        );
        assert!(report.passed() > 60, "{script}: {} passed", report.passed());
    }
}

/// The example gate is written as a harness author writes one (`JSON.parse`, `String`,
/// `JSON.stringify`, no copy of the reference's private limits): a fixed case it fails in either
/// profile is a false failure of this suite.
#[test]
fn the_example_gate_passes_the_resilient_profile_too() {
    let report = check("skeleton.js", Profile::RESILIENT);
    assert_eq!(
        failures(&report),
        BTreeMap::new(),
        "skeleton.js against the resilient profile"
    );
    assert_eq!(
        report.passed() + report.not_applicable(),
        report.results.len()
    );
}

/// What the model of the 0.2.1-rc.3 bundle the field report read lacks of the later 0.2.x code:
/// the retry after a reply that is not JSON (the report quotes its parser as `JSON.parse(text)`
/// with no retry, and its failures in the parser's own words, AR-JSON-RETRY-1..3), and the
/// deployment's working directory (AR-RES-CWD-1; the report shows nothing there, and the model
/// keeps 0.1.7-rc.2's refusal). The rc.3 model fails the 0.2.x profile
/// on a fixed case only where one of them decides it: a call whose reviewer sends a text that is
/// not JSON, or a session whose header names no working directory. Everything else the model
/// observes, it does as the 0.2.x profile says.
#[test]
fn the_rc3_model_fails_the_0_2_profile_only_where_rc3_predates_it() {
    use autoreview::engine::review::{self, NOT_JSON, Settlement};
    use autoreview::scenario::session::{Input, Item};
    let profile = Profile::named("shipped-0.2").unwrap();
    let report = check("rc3-model.js", profile);
    let failed = failures(&report);
    let all = cases::all(profile).unwrap();
    let explained = |id: &str| {
        let case = all.iter().find(|c| c.id == id).unwrap();
        let (session, calls) = match &case.scenario {
            Input::One(s) => (&s.session, vec![s.as_ref()]),
            Input::Session(s) => (
                &s.session,
                s.calls
                    .iter()
                    .filter_map(|i| match i {
                        Item::Call(c) => Some(c.as_ref()),
                        _ => None,
                    })
                    .collect(),
            ),
        };
        let not_json = calls.iter().any(|c| {
            c.reviewer.attempts().iter().any(|a| {
                matches!(review::settle(a, profile), Settlement::Failed(f) if f.failed_by == NOT_JSON)
            })
        });
        not_json || !session.working_directory || calls.iter().any(|c| !c.session.working_directory)
    };
    let unexplained: Vec<&str> = failed.keys().copied().filter(|id| !explained(id)).collect();
    assert!(unexplained.is_empty(), "{unexplained:?}");
    // And both are found: the retry after prose, the message once retries are spent, and a
    // session without a working directory reviewed.
    for (id, pointer) in [
        ("JR-1", "/listener/kind"),
        ("JR-3", "/result/text"),
        ("SF-16", "/listener/kind"),
    ] {
        difference(&failed, id, pointer);
    }
}

/// The difference at `pointer` in a failed case's verdict.
fn difference<'a>(failed: &BTreeMap<&str, &'a Verdict>, id: &str, pointer: &str) -> &'a Difference {
    let Some(Verdict::Fail { differences }) = failed.get(id) else {
        panic!("{id} should fail with differences, is {:?}", failed.get(id));
    };
    differences
        .iter()
        .find(|d| d.pointer == pointer)
        .unwrap_or_else(|| panic!("{id}: no difference at {pointer}: {differences:#?}"))
}

#[test]
fn the_rc3_model_fails_the_resilient_profile_on_each_reported_defect() {
    let report = check("rc3-model.js", Profile::RESILIENT);
    let failed = failures(&report);

    // 1. A reviewer failure denies before downstream, so the human is never asked.
    for id in ["RS-F1", "INC-1021-1R", "INC-1021-5R"] {
        let d = difference(&failed, id, "/listener/kind");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Decision, &json!("ask"), &json!("deny")),
            "{id}"
        );
    }
    // 2. Zero tolerance: a fenced object, or a byte-order mark before it, is a failure, not an
    // allow.
    for id in ["RO-015", "RO-019"] {
        let d = difference(&failed, id, "/listener/kind");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Decision, &json!("allow"), &json!("deny")),
            "{id}"
        );
    }
    // 3. The reviewer route is the agent's route; a configured reviewer route is ignored.
    let d = difference(&failed, "RES-9", "/review/routes");
    assert_eq!(d.severity, Severity::Info);
    assert_eq!(d.actual, json!(["qodercn/qfmodel"]));
    assert!(
        d.expected
            .as_array()
            .is_some_and(|r| !r.contains(&json!("qodercn/qfmodel")))
    );
    // 4. Exactly one header schema or a terminal deny, though the live registry has the tool.
    for id in ["INC-DRIFT-1R", "INC-DRIFT-4R"] {
        let d = difference(&failed, id, "/listener/kind");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Decision, &json!("allow"), &json!("deny")),
            "{id}"
        );
        let f = difference(&failed, id, "/review/failure");
        assert_eq!(f.actual["class"], json!("schema"), "{id}");
    }
    // 5. An object-valued failure message is shown as `[object Object]`.
    let d = difference(&failed, "INC-OBJECT-R", "/review/failure/message");
    assert!(
        d.actual
            .as_str()
            .is_some_and(|m| m.contains("[object Object]"))
    );
    assert!(
        d.expected
            .as_str()
            .is_some_and(|m| !m.contains("[object Object]"))
    );
    let d = difference(&failed, "INC-OBJECT-R", "/listener/reason");
    assert_eq!(d.severity, Severity::Text);

    // 6. Disposal (AR-RES-DISPOSE-1): the shipped listener reads the preset before admission, so a
    // call in a listed Auto session that starts while the integration closes passes through
    // unreviewed (Full access, as disposal left it) and runs, where the resilient gate cancels it.
    for id in ["RS-P4", "RES-26"] {
        let d = difference(&failed, id, "/result/executed");
        assert_eq!(
            (d.severity, &d.expected, &d.actual),
            (Severity::Safety, &json!(false), &json!(true)),
            "{id}"
        );
    }

    // 7. It has no deadline: an allow that arrives after the resilient deadline still runs the
    // body, where the resilient gate abandons the request and asks. The reviewer did allow, too
    // late for the spec to take it: BOUNDS, not SAFETY.
    let d = difference(&failed, "BD-3", "/result/executed");
    assert_eq!(
        (d.severity, &d.expected, &d.actual),
        (Severity::Bounds, &json!(false), &json!(true))
    );

    // 8. Its reader has no size bound: an allow padded with spaces past 1 MiB runs the body,
    // where the tolerant reader refuses the text unread (AR-TOL-3). The reviewer did allow, past
    // the bound: BOUNDS, and the difference says so.
    let d = difference(&failed, "RO-162", "/result/executed");
    assert_eq!(
        (d.severity, &d.expected, &d.actual),
        (Severity::Bounds, &json!(false), &json!(true))
    );
    assert!(
        d.rule
            .as_deref()
            .is_some_and(|r| r.contains("past the reader's size bound")),
        "{d:?}"
    );

    // Each defect's differences name the clause it breaks.
    let names = |id: &str, pointer: &str, clause: &str| {
        let d = difference(&failed, id, pointer);
        assert!(
            d.clauses.iter().any(|c| c == clause),
            "{id} {pointer}: {:?} does not name {clause}",
            d.clauses
        );
    };
    names("RS-F1", "/listener/kind", "AR-RES-FAIL-2");
    for id in ["RO-015", "RO-019"] {
        let d = difference(&failed, id, "/review/failure");
        assert!(
            d.clauses.iter().any(|c| c.starts_with("AR-TOL-")),
            "{id}: {:?} names no tolerant rule",
            d.clauses
        );
    }
    names("RES-9", "/review/routes", "AR-RES-ROUTE-1");
    names("INC-DRIFT-1R", "/review/failure", "AR-RES-SCHEMA-1");
    names("INC-OBJECT-R", "/review/failure/message", "AR-RES-NORM-1");
    names("INC-OBJECT-R", "/listener/reason", "AR-RES-NORM-1");

    // Otherwise the shipped gate's defects lock users out: disposal, a late allow and an allow
    // past the size bound are the only ways it lets a body run that should not, and only
    // disposal runs one nothing allowed.
    for (id, verdict) in &failed {
        assert!(matches!(verdict, Verdict::Fail { .. }), "{id}: {verdict:?}");
        let worst = verdict.worst();
        if !["RS-P4", "RES-26"].contains(id) {
            assert_ne!(worst, Some(Severity::Safety), "{id}");
        }
        if !["RS-P4", "RES-26", "BD-3", "RO-162"].contains(id) {
            assert!(
                !worst.is_some_and(Severity::is_a_body_run),
                "{id}: {worst:?}"
            );
        }
    }
}

/// The modules an adapter requires are not adapters: run directly, each says so and names the
/// file to run, and exits with a failure status instead of silently ending.
#[test]
fn a_module_run_directly_names_the_adapter_to_run() {
    for module in ["example-gate.js", "harness.js"] {
        let out = std::process::Command::new("node")
            .arg(format!("adapters/node/{module}"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{module}: {:?}", out.status);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.starts_with(&format!("{module} is a module"))
                && stderr.contains("run `node adapters/node/skeleton.js` instead")
                && stderr.lines().count() == 1,
            "{module}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{module}");
    }
}

// ---- Protocol 2: sessions, request observables and session-log facts ------------------------

use autoreview::generate::direct::{self, Rng};
use autoreview::outcome::{InputOutcome, ItemOutcome, Outcome};
use autoreview::runner::compare;
use autoreview::scenario::canonical;
use autoreview::scenario::session::Input;
use serde_json::Value;

/// A single call drawn as the generated runs draw it (every new member included), as JSON.
fn drawn_call(r: &mut Rng) -> Value {
    serde_json::to_value(direct::scenario(r)).unwrap()
}

/// `call` as an item of a session: without the members that belong to the session.
fn as_item(mut call: Value) -> Value {
    let m = call.as_object_mut().unwrap();
    for k in ["session", "config", "preset", "policy"] {
        m.remove(k);
    }
    call
}

/// A reviewer that fails in a different way on each draw, as the incidents' reviewers did.
fn failing_reviewer(r: &mut Rng) -> Value {
    r.pick(&[
        json!({"throw": {"message": "socket hang up"}}),
        json!({"finish": {"kind": "error", "code": "HTTP_429", "message": "rate limited"}}),
        json!({"finish": {"kind": "aborted", "code": "UNKNOWN", "message": {"reason": "x"}}}),
        json!({"text": "<tool_call>{\"name\": \"bash\"}</tool_call>"}),
        json!({"text": "not json"}),
    ])
}

/// A session composed of drawn calls and lifecycle events, realizable by construction (RZ-5,
/// RZ-6): disposals and lifecycle abort points only while installed, installs only after.
fn drawn_session(r: &mut Rng, k: u64) -> Value {
    let head = drawn_call(r);
    let incident = r.chance(1, 3);
    let mut config = head["config"].clone();
    if incident {
        // The incidents' shape: reviewer failures in a row under the default hint threshold.
        config = json!({"failure_hint_after": 3});
    }
    let mut installed = true;
    let mut items = Vec::new();
    for _ in 0..r.range(1, 8) {
        if r.chance(2, 5) {
            let event = match r.below(3) {
                0 if installed => json!({"event": "dispose"}),
                1 if installed => json!({"event": "dispose", "reselect": true}),
                0 | 1 => json!({"event": "install"}),
                _ => json!({"event": "select-auto"}),
            };
            installed =
                event["event"] == "install" || (installed && event["event"] == "select-auto");
            items.push(event);
            continue;
        }
        let mut call = as_item(drawn_call(r));
        if incident && r.chance(3, 4) {
            call["reviewer"] = failing_reviewer(r);
            call["abort"] = json!("none");
        }
        let lifecycle = call["abort"]
            .as_str()
            .is_some_and(|a| a.starts_with("lifecycle"));
        if lifecycle && !installed {
            call["abort"] = json!("none");
        } else if lifecycle {
            installed = false;
        }
        items.push(call);
    }
    json!({
        "id": format!("session-{k}"),
        "session": head["session"],
        "config": config,
        "preset": head["preset"],
        "policy": head["policy"],
        "calls": items,
    })
}

/// Sessions written by hand: every event in every state it can meet, and the incidents' shape.
fn written_sessions() -> Vec<Value> {
    let fail = json!({"tool": {"name": "bash"}, "reviewer": {"throw": "connection reset"}});
    let allow = json!({"tool": {"name": "bash"}, "reviewer": {"text": "{\"risk\":\"low\",\"decision\":\"allow\"}"}});
    let deny = json!({"tool": {"name": "rm"}, "reviewer": {"text": "{\"risk\":\"high\",\"decision\":\"deny\",\"reason\":\"no\"}"}, "approval": "allowed-once"});
    let hang = json!({"tool": {"name": "bash"}, "reviewer": {"hang": true}});
    let with_abort = |call: &Value, abort: &str| {
        let mut c = call.clone();
        c["abort"] = json!(abort);
        c
    };
    let ev = |e: &str| json!({"event": e});
    let mut out = Vec::new();
    for listed in [true, false] {
        for preset in ["auto", "workspace-write"] {
            let session = |calls: Vec<Value>| {
                json!({"session": {"listed": listed, "consecutive_failures": 1},
                       "config": {"failure_hint_after": 3}, "preset": preset, "calls": calls})
            };
            out.extend([
                // Failures in a row, the hint at the third, reset by a decision.
                session(vec![
                    fail.clone(),
                    fail.clone(),
                    fail.clone(),
                    allow.clone(),
                    fail.clone(),
                ]),
                // Disposal forgets the count; a reinstalled integration counts from 0.
                session(vec![
                    fail.clone(),
                    ev("dispose"),
                    fail.clone(),
                    ev("select-auto"),
                    ev("install"),
                    fail.clone(),
                    ev("select-auto"),
                    fail.clone(),
                ]),
                session(vec![
                    json!({"event": "dispose", "reselect": true}),
                    allow.clone(),
                    ev("select-auto"),
                    ev("install"),
                    deny.clone(),
                ]),
                session(vec![
                    ev("select-auto"),
                    deny.clone(),
                    ev("dispose"),
                    deny.clone(),
                    ev("install"),
                    deny.clone(),
                ]),
                // A call left pending ends its session (RZ-7); one the caller ends does not.
                session(vec![
                    allow.clone(),
                    ev("dispose"),
                    ev("install"),
                    hang.clone(),
                ]),
                session(vec![
                    with_abort(&hang, "caller-during-review"),
                    with_abort(&allow, "lifecycle-after-review"),
                    allow.clone(),
                ]),
            ]);
            for abort in [
                "lifecycle-before-review",
                "lifecycle-after-review",
                "lifecycle-during-downstream",
            ] {
                for call in [&fail, &allow, &deny, &hang] {
                    out.push(session(vec![
                        fail.clone(),
                        with_abort(call, abort),
                        call.clone(),
                        ev("select-auto"),
                        ev("install"),
                        call.clone(),
                    ]));
                }
            }
        }
    }
    out
}

/// Single calls written by hand: each log fact, each header, each session id, in the orders the
/// checks run against the route and the schema.
fn written_calls() -> Vec<Value> {
    let mut out = Vec::new();
    for log in autoreview::scenario::LogFact::ALL {
        for call in ["native", "ptc-inner", "run-code"] {
            let kind: autoreview::scenario::CallKind = serde_json::from_value(json!(call)).unwrap();
            if !log.applies_to(kind) {
                continue;
            }
            for (wd, route, schema) in [
                (true, "default", "present"),
                (false, "default", "present"),
                (true, "", "present"),
                (false, "", "missing"),
                (true, "default", "missing"),
                (false, "default", "registry-only"),
            ] {
                out.push(json!({
                    "tool": {"name": if call == "run-code" { "run_code" } else { "bash" }, "call": call},
                    "log": log,
                    "schema": schema,
                    "session": {"id": "7f3a9c", "working_directory": wd, "route": {"provider": route, "model": "m"}},
                    "reviewer": [{"text": "```json\n{\"risk\":\"low\",\"decision\":\"allow\"}\n```"}],
                }));
            }
        }
    }
    out
}

/// Every scenario line the kit is compared on: drawn and written single calls and sessions.
fn protocol2_lines() -> Vec<String> {
    let mut values = written_calls();
    values.extend(written_sessions());
    values.extend((0..2000).map(|k| drawn_call(&mut Rng::for_case(0x0b5e, k))));
    values.extend((0..1000).map(|k| drawn_session(&mut Rng::for_case(0x5e55, k), k)));
    // A session that goes on after a call left pending is not realizable (RZ-7).
    values
        .iter()
        .filter(|v| Input::from_value(v).is_ok())
        .map(|v| v.to_string())
        .collect()
}

/// Each line decided by `node <script> --decide`, one output line per input line: the line's
/// canonical form with the outcome it asks for, as a `decide` line carries them, and the
/// profile's rules (the kit knows no profile by name).
fn decided_by_node(script: &str, profile: Profile, lines: &[String]) -> Vec<String> {
    let lines: Vec<String> = lines
        .iter()
        .map(|l| {
            let input = Input::from_json(l).unwrap_or_else(|e| panic!("{e}: {l}"));
            let reply = if matches!(input, Input::One(_)) {
                "call"
            } else {
                "session"
            };
            json!({"rules": profile.wire_rules(), "reply": reply, "world": canonical::world(&input), "scenario": canonical::input(&input)})
                .to_string()
        })
        .collect();
    use std::io::{BufRead, Write};
    let mut child = std::process::Command::new("node")
        .arg(format!("{NODE_DIR}/{script}"))
        .arg("--decide")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = lines.join("\n") + "\n";
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out: Vec<String> = std::io::BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success(), "{script}");
    out
}

/// Why one call's outcome differs from the reference's: the runner's comparison, and the members
/// it leaves aside, which an adapter observing requests must report exactly too.
fn call_differences(expected: &Outcome, actual: &Outcome) -> Vec<String> {
    let mut out: Vec<String> = compare::compare(expected, actual)
        .iter()
        .map(|d| format!("{}: expected {}, got {}", d.pointer, d.expected, d.actual))
        .collect();
    if actual.review.requests.is_none() {
        out.push("/review/requests: missing".into());
    }
    if expected.prefix_only != actual.prefix_only {
        out.push(format!(
            "/prefix_only: expected {:?}, got {:?}",
            expected.prefix_only, actual.prefix_only
        ));
    }
    out
}

/// Why an adapter's line differs from the reference's outcome of the same scenario line.
fn input_differences(expected: &InputOutcome, line: &str) -> Vec<String> {
    let actual: InputOutcome = match serde_json::from_str(line) {
        Ok(a) => a,
        Err(e) => return vec![format!("not an outcome ({e}): {line}")],
    };
    match (expected, &actual) {
        (InputOutcome::One(e), InputOutcome::One(a)) => call_differences(e, a),
        (InputOutcome::Session(e), InputOutcome::Session(a)) if e.calls.len() == a.calls.len() => e
            .calls
            .iter()
            .zip(&a.calls)
            .enumerate()
            .flat_map(|(i, pair)| {
                let found = match pair {
                    (ItemOutcome::Call(e), ItemOutcome::Call(a)) => call_differences(e, a),
                    (ItemOutcome::Event(e), ItemOutcome::Event(a)) => {
                        let prefix = |t: &Option<String>| match (t, e.prefix_only.get("/error")) {
                            (Some(t), Some(&n)) => Some(t.chars().take(n).collect::<String>()),
                            (t, _) => t.clone(),
                        };
                        let same = e.event == a.event
                            && prefix(&e.error) == prefix(&a.error)
                            && e.prefix_only == a.prefix_only;
                        if same {
                            vec![]
                        } else {
                            vec![format!("expected {e:?}, got {a:?}")]
                        }
                    }
                    _ => vec!["a call where an event is expected, or the reverse".into()],
                };
                found.into_iter().map(move |d| format!("calls[{i}]{d}"))
            })
            .collect(),
        _ => vec![format!("another kind of outcome: {line}")],
    }
}

/// The Node kit decides single calls with the new members and whole sessions as the reference
/// engine does: the example gate in both profiles, and the model of the shipped gate in the
/// baseline. Sessions cover every event in every state, calls left pending and woken by a
/// disposal, and the incidents' shape (failures in a row under `failure_hint_after` 3), so the
/// state a gate keeps (its failure count, what disposal moved, whether it is installed) is the
/// gate's own, carried from call to call.
#[test]
fn the_kit_decides_sessions_requests_and_session_logs_as_the_reference() {
    let lines = protocol2_lines();
    let inputs: Vec<Input> = lines
        .iter()
        .map(|l| Input::from_json(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let sessions = inputs
        .iter()
        .filter(|i| matches!(i, Input::Session(_)))
        .count();
    assert!(
        sessions > 900 && lines.len() - sessions > 2000,
        "{sessions} sessions of {}",
        lines.len()
    );
    for (script, profile) in [
        ("skeleton.js", Profile::BASELINE),
        ("skeleton.js", Profile::RESILIENT),
        ("rc3-model.js", Profile::BASELINE),
    ] {
        // Each input as the runner sends it to what the script observes: the model of the
        // shipped rc.3 gate observes neither confinement nor body approvals, so it is never sent
        // a sandbox or a body that does something.
        use autoreview::capability::{Capabilities, Need, Observable};
        let has = match script {
            "rc3-model.js" => Capabilities::ALL
                .without(Need::Observable(Observable::Confinement))
                .without(Need::Observable(Observable::BodyApprovals)),
            _ => Capabilities::ALL,
        };
        let inputs: Vec<Input> = inputs.iter().map(|i| has.restrict(i.clone())).collect();
        let lines: Vec<String> = inputs
            .iter()
            .map(|i| serde_json::to_string(i).unwrap())
            .collect();
        let actual = decided_by_node(script, profile, &lines);
        assert_eq!(actual.len(), lines.len(), "{script} {profile}");
        let failed: Vec<String> = inputs
            .iter()
            .zip(&actual)
            .zip(&lines)
            .filter_map(|((input, got), line)| {
                let d = input_differences(&autoreview::engine::decide_input(input, profile), got);
                (!d.is_empty()).then(|| format!("{line}\n  {}", d.join("\n  ")))
            })
            .collect();
        assert!(
            failed.is_empty(),
            "{script} {profile}: {} of {} lines differ; the first:\n{}",
            failed.len(),
            lines.len(),
            failed
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// The kit answers a protocol-2 runner with protocol 2, what the gate observes and `canonical`,
/// and decides canonical scenarios; a protocol-1 runner gets protocol 1 and nothing beyond it, and
/// since it sends scenarios as written, which the kit does not read, an error reply.
#[test]
fn the_kit_answers_each_protocol_in_its_own_terms() {
    use std::io::{BufRead, Write};
    let read = |v: Value| Input::from_value(&v).unwrap();
    let session = read(
        json!({"calls": [{"tool": {"name": "bash"}, "reviewer": {"throw": "x"}}, {"event": "dispose"}]}),
    );
    let call = read(json!({"tool": {"name": "bash"}, "reviewer": {"throw": "x"}}));
    let written = json!({"tool": {"name": "bash"}, "reviewer": {"throw": "x"}});
    for script in ["skeleton.js", "rc3-model.js"] {
        for protocol in [1, 2] {
            let mut child = std::process::Command::new("node")
                .arg(format!("{NODE_DIR}/{script}"))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
            let mut ask = |message: Value| -> Value {
                writeln!(stdin, "{message}").unwrap();
                serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()
            };
            let hello = ask(
                json!({"type": "hello", "protocol": protocol, "profile": "baseline", "rules": Profile::BASELINE.wire_rules(), "runner": "test"}),
            );
            let what = format!("{script} under protocol {protocol}");
            assert_eq!(hello["protocol"], json!(protocol), "{what}");
            if protocol == 1 {
                let one = ask(json!({"type": "decide", "seq": 1, "scenario": written}));
                assert_eq!(hello.get("observes"), None, "{what}");
                assert_eq!(hello.get("canonical"), None, "{what}");
                assert_eq!(one["type"], json!("error"), "{what}: {one}");
            } else {
                let one = ask(
                    json!({"type": "decide", "seq": 1, "reply": "call", "world": canonical::world(&call), "scenario": canonical::input(&call)}),
                );
                let many = ask(
                    json!({"type": "decide", "seq": 2, "reply": "session", "world": canonical::world(&session), "scenario": canonical::input(&session)}),
                );
                assert_eq!(one["type"], json!("outcome"), "{what}: {one}");
                assert_eq!(hello["canonical"], json!(true), "{what}");
                let mut observes = json!([
                    "sessions",
                    "requests",
                    "session-log",
                    "temperature",
                    "unfinished-stream"
                ]);
                // The model of the shipped rc.3 gate observes neither confinement, body
                // approvals nor a JSON retry limit: rc.3 has none of them.
                if script == "skeleton.js" {
                    let all = observes.as_array_mut().unwrap();
                    all.extend([
                        json!("confinement"),
                        json!("body-approvals"),
                        json!("json-retries"),
                    ]);
                }
                assert_eq!(hello["observes"], observes, "{what}");
                let request = json!({"route": "default/default", "temperature": 0, "tools": 0, "session_id": null, "repair": false});
                assert_eq!(
                    one["outcome"]["review"]["requests"],
                    json!([request]),
                    "{what}"
                );
                assert_eq!(
                    many["outcome"]["calls"][1],
                    json!({"event": "dispose", "error": null}),
                    "{what}: {many}"
                );
            }
            writeln!(stdin, "{}", json!({"type": "stop"})).unwrap();
            assert!(child.wait().unwrap().success(), "{what}");
        }
    }
}

/// What a gate's framework lacks (`serve({ lacks })`) reaches a protocol-2 runner's hello in the
/// order of `CAPABILITIES`, and nothing else does: not the default (no member at all), not a
/// protocol-1 runner; a name the kit does not know stops the adapter before it answers.
#[test]
fn the_kit_names_what_a_framework_lacks_only_when_declared() {
    use std::io::Write;
    let hello_of = |lacks: &str, protocol: u32| -> (bool, String, Value) {
        let harness = serde_json::to_string(&format!("{NODE_DIR}/harness.js")).unwrap();
        let script = format!(
            "require({harness}).serve({{ implementation: {{ name: 't', version: '0', language: 'javascript' }}, \
             lacks: {lacks}, gate: (exec, next) => next() }})"
        );
        let mut child = std::process::Command::new("node")
            .args(["-e", &script])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let hello =
            json!({"type": "hello", "protocol": protocol, "profile": "baseline", "runner": "test"});
        // The adapter may already have exited: a refused `lacks` stops it before it reads.
        let _ = writeln!(stdin, "{hello}\n{}", json!({"type": "stop"}));
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let reply = stdout
            .lines()
            .next()
            .map_or(Value::Null, |l| serde_json::from_str(l).unwrap());
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            reply,
        )
    };

    let (ok, _, hello) = hello_of("['abort-signal', 'deny-reason']", 2);
    assert!(ok);
    assert_eq!(
        hello["lacks"],
        json!(["deny-reason", "abort-signal"]),
        "{hello}"
    );
    for (lacks, protocol) in [("['deny-reason']", 1), ("[]", 2), ("undefined", 2)] {
        let (ok, _, hello) = hello_of(lacks, protocol);
        assert!(ok && hello["type"] == json!("hello"), "{lacks}: {hello}");
        assert_eq!(
            hello.get("lacks"),
            None,
            "lacks {lacks} under protocol {protocol}"
        );
    }
    let (ok, stderr, hello) = hello_of("['deny-reason', 'no-such-thing']", 2);
    assert!(!ok && hello.is_null(), "{hello}");
    assert!(
        stderr.contains(
            "serve: lacks names no-such-thing; known: deny-reason, ask-reason, abort-signal"
        ),
        "{stderr}"
    );
}

/// The Node kit's own tests (`adapters/node/test`, `npm test` there) pass: they replay the
/// engine's fixture (`spec/fixtures/replay.jsonl`) through the kit's decoder, its scripted world
/// and the example gate.
#[test]
fn the_node_kits_own_tests_replay_the_fixture() {
    let out = std::process::Command::new("node")
        .args(["--test", "test/"])
        .current_dir(NODE_DIR)
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("# fail 0") && !text.contains("# pass 0"),
        "node --test in {NODE_DIR}: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const TEST_ADAPTERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/adapters");

/// The report of `node tests/adapters/<script> <args>` on every fixed case of `profile`, judged
/// at `level`.
fn check_test_adapter(
    script: &str,
    args: &[&str],
    profile: Profile,
    level: autoreview::conformance::Level,
) -> runner::Report {
    let mut command = vec!["node".to_owned(), format!("{TEST_ADAPTERS}/{script}")];
    command.extend(args.iter().map(|a| (*a).to_owned()));
    let mut imp = Subprocess::start(command, profile, Limits::default())
        .unwrap_or_else(|e| panic!("{script}: {e}"));
    runner::run_under(
        &mut imp,
        &cases::all(profile).unwrap(),
        profile,
        &autoreview::conformance::Terms {
            level,
            ..Default::default()
        },
        Oracle::Reference,
        &Expected::none(),
        &mut |_, _| {},
    )
}

fn differences(r: &runner::CaseResult) -> &[Difference] {
    match &r.verdict {
        Verdict::Fail { differences } => differences,
        _ => &[],
    }
}

/// SAFETY is an effect: a gate that asks the human itself and returns `allow` where the
/// reference returns `ask` and the runtime asks runs the body exactly where the reference does,
/// and gets no SAFETY in either profile, although it decided otherwise on those cases (where
/// "the gate allowed where it must not" once made each a SAFETY). The same gate ignoring the
/// human's answer runs the body where the human rejected the call: SAFETY.
#[test]
fn a_gate_that_asks_the_human_itself_runs_nothing_it_must_not() {
    use autoreview::conformance::Level;
    for profile in Profile::all() {
        let report = check_test_adapter("asks-itself.js", &[], profile, Level::Full);
        let mut allowed_where_asked = Vec::new();
        for r in &report.results {
            assert!(
                !matches!(r.verdict, Verdict::Broken { .. }),
                "{profile} {}: {:?}",
                r.id,
                r.verdict
            );
            let d = differences(r);
            assert!(
                d.iter().all(|d| d.severity != Severity::Safety),
                "{profile} {}: {d:#?}",
                r.id
            );
            let asked = d.iter().any(|d| {
                d.pointer == "/listener/kind"
                    && d.expected == json!("ask")
                    && d.actual == json!("allow")
            });
            if asked {
                // The body ran in both: whether it ran is no difference.
                assert!(
                    d.iter().all(|d| !d.pointer.starts_with("/result/executed")
                        && !d.pointer.starts_with("/trace")),
                    "{profile} {}: {d:#?}",
                    r.id
                );
                allowed_where_asked.push(r.id.as_str());
            }
        }
        assert!(
            allowed_where_asked.len() >= 5,
            "{profile}: {allowed_where_asked:?}"
        );

        let report =
            check_test_adapter("asks-itself.js", &["--ignore-answer"], profile, Level::Full);
        let unsafe_runs: Vec<&str> = report
            .results
            .iter()
            .filter(|r| {
                differences(r)
                    .iter()
                    .any(|d| d.severity == Severity::Safety && d.pointer == "/result/executed")
            })
            .map(|r| r.id.as_str())
            .collect();
        assert!(!unsafe_runs.is_empty(), "{profile}: no SAFETY");
        // Still SAFETY at the weakest level: a body run where the reference ran none is an effect.
        let effects = check_test_adapter(
            "asks-itself.js",
            &["--ignore-answer"],
            profile,
            Level::Effects,
        );
        for id in &unsafe_runs {
            let r = effects.results.iter().find(|r| r.id == *id).unwrap();
            assert_eq!(
                r.verdict.worst(),
                Some(Severity::Safety),
                "{profile} {id} at effects"
            );
        }
    }
}

/// The levels end to end: a gate that decides as the reference does and says everything in its
/// own words (`reworded.js --own-words`: every text, info object and failure message its own)
/// conforms to both profiles at `effects` and `decisions`, and fails `texts` and `full`, each
/// failure a TEXT or an INFO.
#[test]
fn a_gate_in_its_own_words_conforms_at_decisions_and_not_at_texts() {
    use autoreview::conformance::Level;
    for profile in Profile::all() {
        for level in Level::ALL {
            let report = check_test_adapter("reworded.js", &["--own-words"], profile, level);
            assert_eq!(report.level, level);
            let failed = failures(&report);
            if level <= Level::Decisions {
                assert_eq!(failed, BTreeMap::new(), "{profile} at {level}");
                assert!(report.passed() > 200, "{profile} at {level}");
            } else {
                assert!(failed.len() > 200, "{profile} at {level}: {}", failed.len());
                for v in failed.values() {
                    assert!(
                        matches!(v.worst(), Some(Severity::Text | Severity::Info)),
                        "{profile} at {level}: {v:?}"
                    );
                }
            }
        }
    }
}
