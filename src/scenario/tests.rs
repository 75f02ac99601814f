//! Reading and writing the scenario contract, member by member: defaults, shorthands, every
//! refusal's path and words, the realizability rules, and what is written back.

use serde_json::{Value, json};

use super::session::{Input, Item, SessionScenario};
use super::*;

/// The smallest scenario the contract reads.
const MINIMAL: &str = r#"{"tool":{"name":"pwsh"},"reviewer":{"text":"{}"}}"#;

/// `MINIMAL` with `extra`'s members set (or replaced).
fn with(extra: Value) -> Value {
    let mut v: Value = serde_json::from_str(MINIMAL).unwrap();
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn read(v: Value) -> Result<Scenario, ScenarioError> {
    let from_text = Scenario::from_json(&v.to_string());
    let from_value = Scenario::from_value(&v);
    assert_eq!(
        from_text.is_ok(),
        from_value.is_ok(),
        "text and value disagree on {v}"
    );
    from_text
}

fn refused(v: Value) -> ScenarioError {
    read(v.clone()).expect_err(&v.to_string())
}

mod members {
    use super::*;

    #[test]
    fn a_minimal_scenario_has_the_documented_defaults() {
        let s = read(serde_json::from_str(MINIMAL).unwrap()).unwrap();
        assert_eq!(s.id, None);
        assert_eq!(s.tool.call, CallKind::Native);
        assert!(s.agent);
        assert_eq!(s.preset, Preset::Auto);
        assert_eq!(s.policy.override_, None);
        assert_eq!(s.policy.default, ApprovalPolicy::Ask);
        assert_eq!(s.schema, SchemaView::PRESENT);
        assert_eq!(s.log, LogFact::Consistent);
        assert_eq!(s.downstream, Downstream::Allow);
        assert_eq!(s.approval, ApprovalAnswer::Unavailable);
        assert_eq!(s.abort, AbortPoint::None);
        assert_eq!(s.session.id, "session-1");
        assert_eq!(s.session.route.to_string(), "default/default");
        assert_eq!(s.session.consecutive_failures, 0);
        assert!(s.session.listed);
        assert!(s.session.working_directory);
        let c = &s.config;
        assert_eq!(c.on_failure, OnFailure::Ask);
        assert_eq!(
            (c.repair_attempts, c.transport_retries, c.failure_hint_after),
            (1, 1, 3)
        );
        assert_eq!(c.review_timeout_ms, 60_000);
        assert_eq!(c.reviewer_route, None);
        // The `Default` impls, which code builds scenarios from, say the same as the reader.
        assert_eq!(s.session, Session::default());
        assert_eq!(s.config, Config::default());
        assert_eq!(s.policy, Policy::default());
    }

    #[test]
    fn members_given_empty_read_as_their_defaults() {
        let s = read(with(json!({"session": {}, "config": {}, "policy": {}}))).unwrap();
        assert_eq!(s.session, Session::default());
        assert_eq!(s.config, Config::default());
        assert_eq!(s.policy, Policy::default());
    }

    #[test]
    fn a_policy_string_is_the_override_and_an_object_gives_both() {
        let policy = |p: Value| read(with(json!({ "policy": p }))).map(|s| s.policy);
        use ApprovalPolicy::{Ask, Never};
        let p = policy(json!("never")).unwrap();
        assert_eq!(
            (p.override_, p.default, p.effective()),
            (Some(Never), Ask, Never)
        );
        let p = policy(json!("ask")).unwrap();
        assert_eq!(
            (p.override_, p.default, p.effective()),
            (Some(Ask), Ask, Ask)
        );
        let p = policy(json!({"default": "never"})).unwrap();
        assert_eq!(
            (p.override_, p.default, p.effective()),
            (None, Never, Never)
        );
        let p = policy(json!({"override": "ask", "default": "never"})).unwrap();
        assert_eq!(
            (p.override_, p.default, p.effective()),
            (Some(Ask), Never, Ask)
        );
        let p = policy(json!({"override": null})).unwrap();
        assert_eq!((p.override_, p.default, p.effective()), (None, Ask, Ask));

        let e = policy(json!("sometimes")).unwrap_err();
        assert_eq!(e.path, "policy");
        assert!(
            e.message.starts_with(
                "unknown policy \"sometimes\": expected \"ask\", \"never\" or {\"override\": ..., \"default\": ...}"
            ),
            "{e}"
        );
        let e = policy(json!(3)).unwrap_err();
        assert!(
            e.message.starts_with(
                "policy must be \"ask\", \"never\" or an object {\"override\", \"default\"}, not a number"
            ),
            "{e}"
        );
        assert!(
            policy(json!({"overide": "ask"}))
                .unwrap_err()
                .message
                .contains("unknown field `overide`")
        );
    }

    #[test]
    fn a_schema_string_is_shorthand_for_both_sources() {
        use SchemaCount::{Ambiguous, Missing, Present};
        let schema = |v: Value| read(with(json!({ "schema": v }))).map(|s| s.schema);
        let view = |header, registry| SchemaView { header, registry };
        assert_eq!(schema(json!("present")), Ok(view(Present, Present)));
        assert_eq!(schema(json!("missing")), Ok(view(Missing, Missing)));
        assert_eq!(schema(json!("ambiguous")), Ok(view(Ambiguous, Ambiguous)));
        assert_eq!(schema(json!("registry-only")), Ok(view(Missing, Present)));
        assert_eq!(
            schema(json!({"registry": "ambiguous"})),
            Ok(view(Present, Ambiguous))
        );
        assert_eq!(
            schema(json!({"header": "missing"})),
            Ok(view(Missing, Present))
        );
        let e = schema(json!("header-only")).unwrap_err();
        assert_eq!(e.path, "schema");
        assert!(
            e.message
                .starts_with("unknown schema view \"header-only\": expected \"present\""),
            "{e}"
        );
        let e = schema(json!(["present"])).unwrap_err();
        assert!(
            e.message.starts_with(
                "schema must be a string or an object {\"header\", \"registry\"}, not an array"
            ),
            "{e}"
        );
    }

    #[test]
    fn each_downstream_kind_has_exactly_its_own_members() {
        let downstream = |v: Value| read(with(json!({ "downstream": v }))).map(|s| s.downstream);
        assert_eq!(downstream(json!({"kind": "allow"})), Ok(Downstream::Allow));
        assert_eq!(
            downstream(json!({"kind": "cancel"})),
            Ok(Downstream::Cancel)
        );
        assert_eq!(
            downstream(json!({"kind": "ask", "reason": "sandbox"})),
            Ok(Downstream::Ask {
                reason: "sandbox".into()
            })
        );
        let info = json!({"code": 7}).as_object().cloned();
        assert_eq!(
            downstream(json!({"kind": "deny", "reason": "no", "info": {"code": 7}})),
            Ok(Downstream::Deny {
                reason: "no".into(),
                info
            })
        );
        for (v, why) in [
            (
                json!({"kind": "allow", "reason": "x"}),
                "unknown field `reason` for this kind of downstream result",
            ),
            (
                json!({"kind": "allow", "info": {}}),
                "unknown field `info` for this kind of downstream result",
            ),
            (
                json!({"kind": "cancel", "reason": "x"}),
                "unknown field `reason` for this kind of downstream result",
            ),
            (
                json!({"kind": "cancel", "info": {}}),
                "unknown field `info` for this kind of downstream result",
            ),
            (
                json!({"kind": "ask", "reason": "x", "info": {}}),
                "unknown field `info` for this kind of downstream result",
            ),
            (json!({"kind": "ask"}), "missing field `reason`"),
            (json!({"kind": "deny"}), "missing field `reason`"),
        ] {
            let e = downstream(v.clone()).unwrap_err();
            assert_eq!(e.path, "downstream", "{v}");
            assert!(e.message.starts_with(why), "{v}: {e}");
        }
    }

    #[test]
    fn wire_names_agree_with_serde() {
        for a in [
            ApprovalAnswer::AllowedOnce,
            ApprovalAnswer::Rejected,
            ApprovalAnswer::Cancelled,
            ApprovalAnswer::Unavailable,
            ApprovalAnswer::Throws,
        ] {
            assert_eq!(serde_json::to_value(a).unwrap(), a.as_str());
        }
        for k in [FailedFinishKind::Error, FailedFinishKind::Aborted] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
    }

    #[test]
    fn json_kinds_are_named_for_people() {
        let names: Vec<_> = [
            json!(null),
            json!(true),
            json!(1.5),
            json!("x"),
            json!([]),
            json!({}),
        ]
        .iter()
        .map(kind_of)
        .collect();
        assert_eq!(
            names,
            [
                "null",
                "a boolean",
                "a number",
                "a string",
                "an array",
                "an object"
            ]
        );
    }

    #[test]
    fn a_route_shows_as_provider_slash_model() {
        let r = Route {
            provider: "deepseek".into(),
            model: "v4".into(),
        };
        assert_eq!(r.to_string(), "deepseek/v4");
    }

    #[test]
    fn counts_are_whole_numbers_in_range() {
        let failures = |n: Value| {
            read(with(json!({"session": {"consecutive_failures": n}})))
                .map(|s| s.session.consecutive_failures)
        };
        assert_eq!(failures(json!(7)), Ok(7));
        assert_eq!(failures(json!(4_294_967_295u64)), Ok(u32::MAX));
        let e = failures(json!(4_294_967_296u64)).unwrap_err();
        assert_eq!(e.path, "session.consecutive_failures");
        // The place in the text is set apart from a message that ends in a number.
        assert!(
            e.message.starts_with(
                "4294967296 is too large; give a whole number of failures from 0 to 4294967295 (line 1, column "
            ),
            "{e}"
        );
        assert!(
            failures(json!(-1))
                .unwrap_err()
                .message
                .starts_with("-1 is negative; give a whole number of failures from 0 to")
        );
    }
}

mod config {
    use super::*;

    fn config(v: Value) -> Result<Config, ScenarioError> {
        read(with(json!({ "config": v }))).map(|s| s.config)
    }

    fn refusal(v: Value) -> String {
        let e = config(v.clone()).expect_err(&v.to_string());
        format!("{}: {}", e.path, e.message)
    }

    #[test]
    fn each_member_is_read_up_to_its_limit() {
        let c = config(json!({
            "on_failure": "deny",
            "repair_attempts": 5,
            "transport_retries": 0,
            "review_timeout_ms": 1,
            "reviewer_route": {"provider": "p", "model": "m"},
            "failure_hint_after": 1
        }))
        .unwrap();
        assert_eq!(c.on_failure, OnFailure::Deny);
        assert_eq!((c.repair_attempts, c.transport_retries), (5, 0));
        assert_eq!((c.review_timeout_ms, c.failure_hint_after), (1, 1));
        assert_eq!(c.reviewer_route.unwrap().to_string(), "p/m");
        assert_eq!(
            config(json!({"transport_retries": 5}))
                .unwrap()
                .transport_retries,
            5
        );
        assert_eq!(
            config(json!({"reviewer_route": null}))
                .unwrap()
                .reviewer_route,
            None
        );
    }

    /// `Config::MEMBERS` names every member a configuration writes, in order, and nothing else.
    #[test]
    fn the_member_list_is_the_configuration_s_own() {
        use crate::scenario::{Config, Temperature};
        let every = Config {
            temperature: Temperature::ProviderDefault,
            max_json_retries: 0,
            ..Config::default()
        };
        let written = serde_json::to_value(&every).unwrap();
        let names: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut members = Config::MEMBERS.to_vec();
        members.sort_unstable();
        let mut names = names;
        names.sort_unstable();
        assert_eq!(names, members);
    }

    /// The temperature is a number from 0 to 2 (both included, `-0` read as 0, a fraction kept
    /// as written) or `provider-default`, which requests leave out; anything else is refused
    /// naming the member, and the default, 0, is never substituted.
    #[test]
    fn the_temperature_is_read_from_0_to_2_or_left_to_the_provider() {
        use crate::scenario::Temperature;
        let sent = |v: Value| {
            config(json!({ "temperature": v }))
                .unwrap()
                .temperature
                .sent()
        };
        assert_eq!(
            sent(json!(0.5)),
            Some(serde_json::Number::from_f64(0.5).unwrap())
        );
        assert_eq!(sent(json!(2)), Some(2.into()));
        assert_eq!(sent(json!(2.0)), Some(2.into()));
        assert_eq!(sent(json!(-0.0)), Some(0.into()));
        assert_eq!(sent(json!("provider-default")), None);
        assert_eq!(
            config(json!({})).unwrap().temperature,
            Temperature::default()
        );
        assert!(
            config(json!({"temperature": 0}))
                .unwrap()
                .temperature
                .is_default()
        );
        assert!(
            !config(json!({"temperature": "provider-default"}))
                .unwrap()
                .temperature
                .is_default()
        );
        let wanted =
            "give a number from 0 to 2, or \"provider-default\" to leave it to the provider";
        for (v, want) in [
            (
                json!(-1),
                format!("config.temperature: -1 is below 0; {wanted}"),
            ),
            (
                json!(2.1),
                format!("config.temperature: 2.1 is above 2; {wanted}"),
            ),
            (
                json!("warm"),
                "config.temperature: expected number | \"provider-default\" but got \"warm\""
                    .to_owned(),
            ),
            (
                json!(null),
                "config.temperature: expected number | \"provider-default\" but got null"
                    .to_owned(),
            ),
            (
                json!(true),
                "config.temperature: expected number | \"provider-default\" but got true"
                    .to_owned(),
            ),
        ] {
            let got = refusal(json!({ "temperature": v }));
            assert!(got.starts_with(&want), "{got}\n  wanted {want}");
        }
    }

    #[test]
    fn a_value_beyond_a_limit_is_refused_naming_the_member() {
        let starts = |v: Value, want: &str| {
            let got = refusal(v);
            assert!(got.starts_with(want), "{got}\n  wanted {want}");
        };
        starts(
            json!({"repair_attempts": 6}),
            "config.repair_attempts: 6 is more than the 5 extra attempts one review allows; give a whole number from 0 to 5",
        );
        starts(
            json!({"transport_retries": 6}),
            "config.transport_retries: 6 is more than the 5 extra attempts",
        );
        starts(
            json!({"review_timeout_ms": 0}),
            "config.review_timeout_ms: 0 leaves no time for any request; give a whole number of milliseconds ≥ 1",
        );
        starts(
            json!({"failure_hint_after": 0}),
            "config.failure_hint_after: 0 would show the hint before any failure; give a whole number of failures from 1 to 4294967295",
        );
        for route in [
            json!({"provider": "", "model": "m"}),
            json!({"provider": "p", "model": ""}),
        ] {
            starts(
                json!({ "reviewer_route": route }),
                "config.reviewer_route: a configured reviewer route needs a non-empty provider and model",
            );
        }
    }

    #[test]
    fn a_retired_member_is_explained_where_it_was() {
        let e = refused(with(json!({"config": {"strict_allow": true}})));
        assert_eq!(e.path, "config.strict_allow");
        assert_eq!(e.message, super::super::config::RETIRED[0].1);
        // The same name elsewhere is just unknown.
        let e = refused(with(json!({"session": {"strict_allow": true}})));
        assert_eq!(e.path, "session.strict_allow");
        assert!(e.message.starts_with("unknown field `strict_allow`"), "{e}");
    }
}

mod attempts {
    use super::*;

    fn attempt(v: Value) -> Result<Attempt, String> {
        Attempt::from_value(v)
    }

    #[test]
    fn each_shape_reads_with_its_defaults() {
        assert_eq!(attempt(json!({"text": "x"})), Ok(Attempt::text("x")));
        assert_eq!(
            attempt(json!({"text": "x", "delay_ms": 7})),
            Ok(Attempt::Text {
                text: "x".into(),
                delay_ms: 7
            })
        );
        let block = Block {
            kind: BlockKind::Text,
            text: "y".into(),
        };
        assert_eq!(
            attempt(json!({"blocks": [{"type": "text", "text": "y"}]})),
            Ok(Attempt::Blocks {
                blocks: vec![block.clone()],
                finish: Some("stop".into()),
                data_after_finish: false,
                delay_ms: 0
            })
        );
        assert_eq!(
            attempt(
                json!({"blocks": [], "finish": "max-tokens", "data_after_finish": true, "delay_ms": 3})
            ),
            Ok(Attempt::Blocks {
                blocks: vec![],
                finish: Some("max-tokens".into()),
                data_after_finish: true,
                delay_ms: 3
            })
        );
        assert_eq!(
            attempt(
                json!({"finish": {"kind": "aborted", "code": "X", "message": {"a": 1}}, "delay_ms": 2})
            ),
            Ok(Attempt::Finish {
                finish: FailedFinish {
                    kind: FailedFinishKind::Aborted,
                    code: "X".into(),
                    message: json!({"a": 1})
                },
                delay_ms: 2
            })
        );
        assert_eq!(
            attempt(json!({"throw": [1]})),
            Ok(Attempt::Throw {
                throw: json!([1]),
                delay_ms: 0
            })
        );
        assert_eq!(
            attempt(json!({"hang": true})),
            Ok(Attempt::Hang { hang: HangFlag })
        );
    }

    #[test]
    fn delays_are_per_attempt_and_a_hang_has_none() {
        let delays: Vec<_> = [
            json!({"text": "x", "delay_ms": 1}),
            json!({"blocks": [], "delay_ms": 2}),
            json!({"finish": {"kind": "error", "code": "T", "message": "m"}, "delay_ms": 3}),
            json!({"throw": null, "delay_ms": 4}),
            json!({"hang": true}),
        ]
        .into_iter()
        .map(|v| attempt(v).unwrap().delay_ms())
        .collect();
        assert_eq!(delays, [Some(1), Some(2), Some(3), Some(4), None]);
    }

    #[test]
    fn a_mistyped_attempt_names_what_did_not_fit() {
        let cases = [
            (
                json!("x"),
                "an attempt must be an object, not a string; expected one of",
            ),
            (
                json!({}),
                "unrecognized attempt; expected one of {\"text\": string}",
            ),
            (json!({"text": 1}), "text must be a string, not a number"),
            (
                json!({"text": "x", "finish": "stop"}),
                "unknown field \"finish\" in this attempt (allowed: text, delay_ms)",
            ),
            (
                json!({"blocks": [], "throw": 1}),
                "unknown field \"throw\" in this attempt (allowed: blocks, finish, data_after_finish, delay_ms)",
            ),
            (
                json!({"blocks": {}}),
                "blocks: invalid type: map, expected a sequence",
            ),
            (
                json!({"blocks": [], "finish": ""}),
                "finish must name a kind such as \"stop\" or \"max-tokens\"",
            ),
            (
                json!({"blocks": [], "finish": 1}),
                "finish must name a kind such as \"stop\"",
            ),
            (
                json!({"blocks": [], "data_after_finish": "yes"}),
                "data_after_finish must be a boolean, not a string",
            ),
            (
                json!({"finish": "stop"}),
                "finish: invalid type: string \"stop\", expected struct FailedFinish; a finish without blocks is",
            ),
            (
                json!({"finish": {"kind": "error", "code": "T", "message": 1}, "text": "x"}),
                "unknown field \"finish\" in this attempt (allowed: text, delay_ms)",
            ),
            (
                json!({"throw": 1, "hang": true}),
                "unknown field \"hang\" in this attempt (allowed: throw, delay_ms)",
            ),
            (json!({"hang": false}), "hang must be true"),
            (json!({"hang": 1}), "hang must be true"),
            (
                json!({"hang": true, "delay_ms": 0}),
                "a hanging attempt never settles, so it takes no delay_ms",
            ),
            (
                json!({"hang": true, "text": "x"}),
                "unknown field \"hang\" in this attempt (allowed: text, delay_ms)",
            ),
            (
                json!({"text": "x", "delay_ms": -1}),
                "delay_ms: -1 is negative; give a whole number of milliseconds ≥ 0",
            ),
            (
                json!({"text": "x", "delay_ms": 1.5}),
                "delay_ms: 1.5 is not written as a whole number",
            ),
        ];
        for (v, want) in cases {
            let got = attempt(v.clone()).expect_err(&v.to_string());
            assert!(
                got.starts_with(want),
                "{v}\n  gave   {got}\n  wanted {want}"
            );
        }
    }

    #[test]
    fn a_script_is_one_attempt_or_a_non_empty_list() {
        let reviewer = |v: Value| read(with(json!({ "reviewer": v }))).map(|s| s.reviewer);
        assert_eq!(
            reviewer(json!({"text": "a"})),
            Ok(Reviewer::One(Attempt::text("a")))
        );
        assert_eq!(
            reviewer(json!([{"text": "a"}, {"hang": true}])),
            Ok(Reviewer::Many(vec![
                Attempt::text("a"),
                Attempt::Hang { hang: HangFlag }
            ]))
        );
        let e = reviewer(json!([])).unwrap_err();
        assert_eq!(e.path, "reviewer");
        assert!(
            e.message
                .starts_with("reviewer must script at least one attempt"),
            "{e}"
        );
        let e = reviewer(json!([{"text": "a"}, {"text": 2}])).unwrap_err();
        assert!(
            e.message
                .starts_with("attempt [1]: text must be a string, not a number"),
            "{e}"
        );
        let e = reviewer(json!({"text": 2})).unwrap_err();
        assert!(
            e.message.starts_with("text must be a string, not a number"),
            "{e}"
        );
    }

    #[test]
    fn the_last_attempt_answers_every_later_request() {
        let [a, b, c] = ["a", "b", "c"].map(Attempt::text);
        let many = Reviewer::Many(vec![a.clone(), b.clone(), c.clone()]);
        let got: Vec<_> = [0, 1, 2, 3, 100].map(|n| many.attempt(n).clone()).into();
        assert_eq!(got, [a.clone(), b, c.clone(), c.clone(), c]);
        let one = Reviewer::One(a.clone());
        assert_eq!((one.attempt(0), one.attempt(5)), (&a, &a));
    }
}

mod realizability {
    use super::*;

    fn rule(v: Value) -> Option<(String, &'static str)> {
        let e = read(v.clone()).err()?;
        let r = ["RZ-1", "RZ-2", "RZ-3", "RZ-4"]
            .into_iter()
            .find(|r| e.message.starts_with(&format!("unrealizable ({r})")))
            .unwrap_or_else(|| panic!("{v}: {e}"));
        Some((e.path, r))
    }

    fn call(name: &str, kind: &str) -> Value {
        with(json!({"tool": {"name": name, "call": kind}}))
    }

    fn at(path: &str, rule: &'static str) -> Option<(String, &'static str)> {
        Some((path.to_owned(), rule))
    }

    #[test]
    fn each_rule_refuses_its_combination_and_spares_its_neighbours() {
        assert_eq!(rule(call("run_code", "run-code")), None);
        assert_eq!(rule(call("run", "run-code")), at("tool", "RZ-1"));
        assert_eq!(rule(call("run_code", "native")), at("tool", "RZ-2"));
        assert_eq!(rule(call("run_code", "ptc-inner")), at("tool", "RZ-2"));
        assert_eq!(rule(call("run_code_", "native")), None);

        let mut v = call("x", "ptc-inner");
        v["schema"] = json!({"header": "ambiguous"});
        assert_eq!(rule(v.clone()), at("schema", "RZ-3"));
        v["schema"] = json!({"registry": "ambiguous"});
        assert_eq!(rule(v), None);
        let mut v = call("x", "native");
        v["schema"] = json!("ambiguous");
        assert_eq!(rule(v), None);

        let logged = |name: &str, kind: &str, log: &str| {
            let mut v = call(name, kind);
            v["log"] = json!(log);
            rule(v)
        };
        assert_eq!(
            logged("x", "native", "ptc-start-missing"),
            at("log", "RZ-4")
        );
        assert_eq!(
            logged("x", "native", "ptc-call-disagrees"),
            at("log", "RZ-4")
        );
        assert_eq!(
            logged("x", "ptc-inner", "native-call-disagrees"),
            at("log", "RZ-4")
        );
        assert_eq!(logged("x", "ptc-inner", "ptc-call-disagrees"), None);
        assert_eq!(logged("x", "native", "native-call-disagrees"), None);
        assert_eq!(logged("x", "native", "no-open-step"), None);
    }

    #[test]
    fn the_facts_each_call_kind_can_meet() {
        for f in LogFact::ALL {
            let kinds: Vec<_> = [CallKind::Native, CallKind::PtcInner, CallKind::RunCode]
                .into_iter()
                .filter(|&k| f.applies_to(k))
                .collect();
            let want: &[CallKind] = match f {
                LogFact::PtcStartMissing | LogFact::PtcCallDisagrees => {
                    &[CallKind::PtcInner, CallKind::RunCode]
                }
                LogFact::NativeCallDisagrees => &[CallKind::Native, CallKind::RunCode],
                _ => &[CallKind::Native, CallKind::PtcInner, CallKind::RunCode],
            };
            assert_eq!(kinds, want, "{}", f.as_str());
            assert_eq!(f.is_consistent(), f == LogFact::Consistent);
        }
    }

    /// RZ-10: a sandbox mode of its own belongs to an Auto session, in a call and in a session's
    /// header; the other members of the sandbox are free.
    #[test]
    fn only_an_auto_session_holds_a_mode_of_its_own() {
        let call = |preset: &str, sandbox: &str| {
            Scenario::from_json(&format!(
                r#"{{"tool":{{"name":"probe"}},"reviewer":{{"text":"x"}},"preset":"{preset}","session":{{"sandbox":{sandbox}}}}}"#
            ))
        };
        let err = call("workspace-write", r#"{"mode":"workspace-write"}"#).unwrap_err();
        assert_eq!(err.path, "session.sandbox");
        assert!(err.message.starts_with("unrealizable (RZ-10)"), "{err}");
        assert!(call("auto", r#"{"mode":"workspace-write"}"#).is_ok());
        assert!(
            call(
                "read-only",
                r#"{"confines_reads":true,"narrowing":{"rejected":"no"}}"#
            )
            .is_ok()
        );
        let session = SessionScenario::from_json(
            r#"{"preset":"danger-full-access","session":{"sandbox":{"mode":"workspace-write"}},"calls":[{"event":"select-auto"}]}"#,
        )
        .unwrap_err();
        assert!(
            session.message.starts_with("unrealizable (RZ-10)"),
            "{session}"
        );
        // What the reader refuses, it names: a mode Auto does not resolve with, a narrowing of
        // another shape.
        let read_only = call("auto", r#"{"mode":"read-only"}"#).unwrap_err();
        assert!(
            read_only.to_string().contains("session.sandbox.mode"),
            "{read_only}"
        );
        let shape = call("auto", r#"{"narrowing":"maybe"}"#).unwrap_err();
        assert!(
            shape.to_string().contains("session.sandbox.narrowing"),
            "{shape}"
        );
    }

    #[test]
    fn rules_name_their_id_and_member() {
        let all = [
            Unrealizable::TransportName,
            Unrealizable::ReservedName,
            Unrealizable::AmbiguousBinding,
            Unrealizable::LogOfOtherKind,
            Unrealizable::FailedFinishWithoutFacts,
            Unrealizable::DataAfterNoFinish,
            Unrealizable::ModeOutOfAuto,
        ];
        let named: Vec<_> = all.iter().map(|r| (r.rule(), r.path())).collect();
        assert_eq!(
            named,
            [
                ("RZ-1", "tool"),
                ("RZ-2", "tool"),
                ("RZ-3", "schema"),
                ("RZ-4", "log"),
                ("RZ-8", "reviewer"),
                ("RZ-9", "reviewer"),
                ("RZ-10", "session.sandbox"),
            ]
        );
        for r in all {
            assert!(
                r.to_string()
                    .starts_with(&format!("unrealizable ({})", r.rule()))
            );
        }
    }

    /// A model runtime attaches a code and a message to every failed finish: a stream that ends with
    /// an `error` or `aborted` finish kind and no failure facts is refused, whichever attempt it is,
    /// and says how to write one; another non-`stop` finish stays a scenario.
    #[test]
    fn a_failed_finish_without_failure_facts_is_refused() {
        for kind in ["error", "aborted"] {
            for reviewer in [
                json!({"blocks": [{"type": "text", "text": "{}"}], "finish": kind}),
                json!([{"text": "x"}, {"blocks": [], "finish": kind}]),
            ] {
                let e = read(json!({"tool": {"name": "bash"}, "reviewer": reviewer})).unwrap_err();
                assert_eq!(e.path, "reviewer", "{e}");
                assert!(e.message.starts_with("unrealizable (RZ-8)"), "{e}");
                assert!(e.message.contains(r#"{"finish": {"kind": "error""#), "{e}");
            }
        }
        let max_tokens = json!({"blocks": [], "finish": "max-tokens"});
        assert!(read(json!({"tool": {"name": "bash"}, "reviewer": max_tokens})).is_ok());
        let failed = json!({"finish": {"kind": "aborted", "code": "ABORTED", "message": "x"}});
        assert!(read(json!({"tool": {"name": "bash"}, "reviewer": failed})).is_ok());
    }

    /// `"finish": null` is a stream that ends without a terminal finish, an empty one included; it
    /// has no finish for data to follow (RZ-9), and any other value but a kind's name is refused
    /// with what to write.
    #[test]
    fn a_stream_without_a_terminal_finish_is_a_scenario_without_data_after_it() {
        let bash = |reviewer: Value| read(json!({"tool": {"name": "bash"}, "reviewer": reviewer}));
        for blocks in [json!([]), json!([{"type": "text", "text": "{}"}])] {
            let s = bash(json!({"blocks": blocks, "finish": null})).unwrap();
            assert!(s.reviewer.attempts()[0].unfinished(), "{blocks}");
            let e = bash(json!({"blocks": blocks, "finish": null, "data_after_finish": true}))
                .unwrap_err();
            assert_eq!(e.path, "reviewer", "{e}");
            assert!(e.message.starts_with("unrealizable (RZ-9)"), "{e}");
        }
        let stopped = bash(json!({"blocks": [], "data_after_finish": true})).unwrap();
        assert!(!stopped.reviewer.attempts()[0].unfinished());
        let e = bash(json!({"blocks": [], "finish": 1})).unwrap_err();
        assert!(e.message.contains("or be null"), "{e}");
    }

    #[test]
    fn realize_moves_a_scenario_to_its_nearest_realizable_neighbour() {
        let base = read(serde_json::from_str(MINIMAL).unwrap()).unwrap();
        let mut s = base.clone();
        s.tool.call = CallKind::RunCode;
        assert_eq!(realizable::realize(s).tool.name, "run_code");
        let mut s = base.clone();
        s.tool.name = "run_code".into();
        assert_eq!(realizable::realize(s).tool.name, "run_code_");
        let mut s = base.clone();
        s.tool.call = CallKind::PtcInner;
        s.schema = SchemaView {
            header: SchemaCount::Ambiguous,
            registry: SchemaCount::Ambiguous,
        };
        s.log = LogFact::NativeCallDisagrees;
        let r = realizable::realize(s);
        assert_eq!(
            (r.schema.header, r.schema.registry, r.log),
            (
                SchemaCount::Missing,
                SchemaCount::Ambiguous,
                LogFact::Consistent
            )
        );
        // A native call keeps an ambiguous header and a log fact it can meet.
        let mut s = base.clone();
        s.schema.header = SchemaCount::Ambiguous;
        s.log = LogFact::NativeCallDisagrees;
        assert_eq!(realizable::realize(s.clone()), s);
        let mut s = base;
        s.tool.call = CallKind::PtcInner;
        s.log = LogFact::PtcStartMissing;
        assert_eq!(realizable::realize(s.clone()), s);
        assert_eq!(realizable::check(&s), Ok(()));
    }
}

mod errors {
    use super::*;

    #[test]
    fn text_that_is_not_one_scenario_object_is_refused_with_its_place() {
        let e = Scenario::from_json("[1]").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not an array"
        );
        assert_eq!(
            Scenario::from_value(&json!(null)).unwrap_err().message,
            "a scenario is a JSON object ({\"tool\": ..., \"reviewer\": ...}), not null"
        );
        let e = Scenario::from_json("{").unwrap_err();
        assert_eq!(e.path, "");
        assert_eq!(
            e.message,
            "invalid JSON: EOF while parsing an object (line 1, column 1)"
        );
        let e = Scenario::from_json(&format!("{MINIMAL} x")).unwrap_err();
        let column = MINIMAL.len() + 2;
        assert_eq!(
            e.to_string(),
            format!("trailing characters (line 1, column {column})")
        );
        let e = Scenario::from_json(&format!("{MINIMAL}\n")).map(|s| s.tool.name);
        assert_eq!(e, Ok("pwsh".to_owned()));
    }

    #[test]
    fn a_member_s_problem_is_shown_at_its_path() {
        let e = refused(with(json!({"tool": {"name": 3}})));
        assert_eq!(e.path, "tool.name");
        assert!(
            e.to_string()
                .starts_with("tool.name: invalid type: integer `3`"),
            "{e}"
        );
        let e = refused(with(json!({"bogus": 1})));
        assert_eq!(e.path, "bogus");
        assert!(e.message.starts_with("unknown field `bogus`"), "{e}");
        let e = Scenario::from_value(&json!({"tool": {"name": "x"}})).unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.message.as_str()),
            ("", "missing field `reviewer`")
        );
        assert_eq!(e.to_string(), "missing field `reviewer`");
    }

    #[test]
    fn text_every_reader_reads_differently_is_refused_before_reading() {
        let e = Scenario::from_json(r#"{"tool":{"name":"a","name":"b"},"reviewer":{"text":"{}"}}"#)
            .unwrap_err();
        assert_eq!(e.path, "tool");
        assert!(
            e.message.starts_with("the member \"name\" appears twice"),
            "{e}"
        );
    }

    #[test]
    fn serde_paths_are_cleaned_for_the_top_level() {
        assert_eq!(clean_path("."), "");
        assert_eq!(clean_path("?"), "");
        assert_eq!(clean_path("tool.name"), "tool.name");
        assert_eq!(clean_path("reviewer[0]"), "reviewer[0]");
    }
}

mod sessions {
    use super::*;

    const CALL: &str = r#"{"tool":{"name":"pwsh"},"reviewer":{"text":"{}"}}"#;

    fn hang(abort: &str) -> String {
        format!(r#"{{"tool":{{"name":"pwsh"}},"reviewer":{{"hang":true}},"abort":"{abort}"}}"#)
    }

    fn session(items: &[&str]) -> Result<SessionScenario, ScenarioError> {
        let text = format!(r#"{{"calls":[{}]}}"#, items.join(","));
        let from_value = SessionScenario::from_value(&serde_json::from_str(&text).unwrap());
        let from_text = SessionScenario::from_json(&text);
        assert_eq!(from_text, from_value, "{text}");
        from_text
    }

    /// The rule and the member a session is refused by, `None` if it is accepted.
    fn refusal(items: &[&str]) -> Option<String> {
        session(items).err().map(|e| {
            let rule = e.message.split(')').next().unwrap_or_default();
            format!("{} {rule})", e.path)
        })
    }

    const DISPOSE: &str = r#"{"event":"dispose"}"#;
    const INSTALL: &str = r#"{"event":"install"}"#;
    const SELECT: &str = r#"{"event":"select-auto"}"#;

    #[test]
    fn the_integration_is_disposed_of_and_installed_in_turn() {
        assert_eq!(refusal(&[DISPOSE, INSTALL, DISPOSE, INSTALL, CALL]), None);
        assert_eq!(
            refusal(&[DISPOSE, SELECT, DISPOSE]).as_deref(),
            Some("calls[2].event unrealizable (RZ-5)")
        );
        assert_eq!(
            refusal(&[CALL, INSTALL]).as_deref(),
            Some("calls[1].event unrealizable (RZ-6)")
        );
        let lifecycle = hang("lifecycle-before-review");
        // A lifecycle abort disposes of the integration: none is left for the next.
        assert_eq!(refusal(&[&lifecycle, INSTALL, &lifecycle]), None);
        assert_eq!(
            refusal(&[&lifecycle, &lifecycle]).as_deref(),
            Some("calls[1].abort unrealizable (RZ-5)")
        );
        assert_eq!(
            refusal(&[&lifecycle, DISPOSE]).as_deref(),
            Some("calls[1].event unrealizable (RZ-5)")
        );
        assert_eq!(refusal(&[&lifecycle, INSTALL]), None);
    }

    #[test]
    fn a_call_that_may_stay_pending_ends_its_session() {
        for abort in ["none", "lifecycle-during-downstream"] {
            let pending = hang(abort);
            assert_eq!(refusal(&[CALL, &pending]), None, "{abort}");
            assert_eq!(
                refusal(&[&pending, SELECT]).as_deref(),
                Some("calls[0].reviewer unrealizable (RZ-7)"),
                "{abort}"
            );
        }
        for abort in [
            "caller-before-dispatch",
            "caller-during-review",
            "lifecycle-after-review",
        ] {
            assert_eq!(refusal(&[&hang(abort), SELECT]), None, "{abort}");
        }
    }

    #[test]
    fn a_call_stays_pending_only_when_its_first_request_hangs_unended() {
        let base = read(serde_json::from_str(MINIMAL).unwrap()).unwrap();
        let pending = |reviewer: Reviewer, abort| {
            Scenario {
                reviewer,
                abort,
                ..base.clone()
            }
            .may_stay_pending()
        };
        let hangs = Reviewer::One(Attempt::Hang { hang: HangFlag });
        let points = [
            AbortPoint::None,
            AbortPoint::LifecycleBeforeReview,
            AbortPoint::LifecycleAfterReview,
            AbortPoint::LifecycleDuringDownstream,
            AbortPoint::CallerBeforeDispatch,
            AbortPoint::CallerDuringReview,
        ];
        let stays: Vec<_> = points.map(|p| pending(hangs.clone(), p)).into();
        assert_eq!(stays, [true, false, false, true, false, false]);
        let lifecycle: Vec<_> = points.map(AbortPoint::is_lifecycle).into();
        assert_eq!(lifecycle, [false, true, true, true, false, false]);
        let later = Reviewer::Many(vec![Attempt::text("{}"), Attempt::Hang { hang: HangFlag }]);
        assert!(!pending(later, AbortPoint::None));
        assert!(!pending(
            Reviewer::One(Attempt::text("{}")),
            AbortPoint::None
        ));
    }

    #[test]
    fn a_session_s_problems_are_placed_by_item() {
        let refused = |text: &str| SessionScenario::from_json(text).unwrap_err().to_string();
        assert_eq!(
            refused(r#"{"calls":{}}"#),
            "calls: give an array of calls and events, not an object"
        );
        assert_eq!(
            refused(r#"{"calls":[]}"#),
            "calls: a session holds at least one call or event"
        );
        assert_eq!(
            refused(r#"{"calls":[1]}"#),
            "calls[0]: an item is a call object or an event object ({\"event\": \"dispose\"}), not a number"
        );
        assert!(
            refused(r#"{"calls":[{"event":"dispose"}],"bogus":1}"#)
                .starts_with("bogus: unknown field `bogus`")
        );
        assert!(
            refused(r#"{"calls":[{"event":"dispose"},{"event":"explode"}]}"#)
                .starts_with("calls[1].event: unknown variant `explode`")
        );
        assert_eq!(
            refused(r#"{"calls":[{"tool":{"name":"x"}}]}"#),
            "calls[0]: missing field `reviewer`"
        );
        assert!(
            refused(
                r#"{"calls":[{"tool":{"name":"x","call":"run-code"},"reviewer":{"text":"{}"}}]}"#
            )
            .starts_with("calls[0].tool: unrealizable (RZ-1)")
        );
        assert!(
            refused(&format!(r#"{{"calls":[{CALL},{{"tool":{{"name":"x"}},"config":{{}},"reviewer":{{"text":"{{}}"}}}}]}}"#))
                .starts_with("calls[1].config: `config` belongs to the session")
        );
        assert!(
            refused(r#"{"calls":[{"event":"install","reselect":true}]}"#)
                .starts_with("calls[0].event: unrealizable (RZ-6)")
        );
        assert!(
            refused(r#"{"calls":[{"event":"select-auto","reselect":true}]}"#)
                .starts_with("calls[0].reselect: only a dispose event can re-select Auto")
        );
        assert!(
            SessionScenario::from_json(r#"{"calls":[{"event":"dispose","reselect":true}]}"#)
                .is_ok()
        );
        assert!(
            refused(r#"{"calls":[1],"calls":[2]}"#).contains("\"calls\" appears twice"),
            "the text's own checks come first"
        );
        assert!(refused("[]").ends_with("not an array"));
        assert!(refused(r#"{"calls":[}"#).starts_with("invalid JSON: "));
    }

    #[test]
    fn an_error_is_placed_under_its_item() {
        let e = |path: &str| ScenarioError {
            path: path.into(),
            message: "m".into(),
        };
        assert_eq!(e("").within("calls[2]").to_string(), "calls[2]: m");
        assert_eq!(e("tool.name").within("calls[2]").path, "calls[2].tool.name");
    }

    #[test]
    fn a_line_with_calls_is_a_session_and_any_other_a_call() {
        let session_text = format!(r#"{{"id":"s","calls":[{CALL}]}}"#);
        let call_text = r#"{"id":"c","tool":{"name":"pwsh"},"reviewer":{"text":"{}"}}"#;
        for (text, is_session, id) in [(session_text.as_str(), true, "s"), (call_text, false, "c")]
        {
            let v: Value = serde_json::from_str(text).unwrap();
            for input in [
                Input::from_json(text).unwrap(),
                Input::from_value(&v).unwrap(),
            ] {
                assert_eq!(matches!(input, Input::Session(_)), is_session, "{text}");
                assert_eq!(input.id(), Some(id));
            }
        }
        let anonymous = Input::from_json(CALL).unwrap();
        assert_eq!(anonymous.id(), None);
        // A broken session line is reported as broken JSON, not as a call with a `calls` member.
        for (text, want) in [
            (
                r#"{"calls":"#,
                "invalid JSON: EOF while parsing a value (line 1, column 9)",
            ),
            (
                r#"{"calls":[}"#,
                "invalid JSON: expected value (line 1, column 11)",
            ),
        ] {
            assert_eq!(Input::from_json(text).unwrap_err().to_string(), want);
        }
        // A call's own unknown members are still named.
        assert!(
            Input::from_json(r#"{"tool":{"name":"x"},"reviewer":{"text":"{}"},"bogus":"#)
                .unwrap_err()
                .to_string()
                .starts_with("bogus: unknown field `bogus`")
        );
    }

    #[test]
    fn a_written_session_reads_back_as_the_same_session() {
        let text = format!(
            r#"{{"id":"s","session":{{"id":"s-9","consecutive_failures":2}},"config":{{"repair_attempts":0}},"preset":"read-only","policy":"never","calls":[{CALL},{DISPOSE},{INSTALL}]}}"#
        );
        let s = SessionScenario::from_json(&text).unwrap();
        assert!(matches!(
            &s.calls[..],
            [Item::Call(_), Item::Event(_), Item::Event(_)]
        ));
        let written = serde_json::to_value(&s).unwrap();
        // A call item is written without the session's members, which it may not name.
        let call = written["calls"][0].as_object().unwrap();
        for k in ["session", "config", "preset", "policy"] {
            assert!(!call.contains_key(k), "{k} in {written}");
        }
        assert!(call.contains_key("tool") && call.contains_key("reviewer"));
        assert_eq!(written["calls"][1], json!({"event": "dispose"}));
        assert_eq!(SessionScenario::from_value(&written), Ok(s.clone()));
        let input = Input::Session(s);
        assert_eq!(
            Input::from_value(&serde_json::to_value(&input).unwrap()),
            Ok(input)
        );
    }
}

mod writing {
    use super::*;

    #[test]
    fn optional_members_at_their_defaults_are_not_written() {
        let s = read(serde_json::from_str(MINIMAL).unwrap()).unwrap();
        let v = serde_json::to_value(&s).unwrap();
        let top = v.as_object().unwrap();
        assert!(!top.contains_key("id") && !top.contains_key("log"), "{v}");
        assert_eq!(
            v["session"],
            json!({"route": {"provider": "default", "model": "default"}, "consecutive_failures": 0})
        );
        assert_eq!(v["reviewer"], json!({"text": "{}"}));
    }

    #[test]
    fn members_away_from_their_defaults_are_written_and_read_back() {
        let given = with(json!({
            "id": "case-1",
            "log": "no-open-step",
            "session": {"id": "s-2", "listed": false, "working_directory": false, "consecutive_failures": 4},
            "reviewer": [
                {"text": "a", "delay_ms": 7},
                {"blocks": [{"type": "tool-call", "text": "t"}], "data_after_finish": true, "delay_ms": 1},
                {"blocks": [{"type": "reasoning", "text": "r"}]},
                {"finish": {"kind": "error", "code": "T", "message": "m"}, "delay_ms": 2},
                {"throw": "x", "delay_ms": 3},
                {"hang": true}
            ]
        }));
        let s = read(given.clone()).unwrap();
        let written = serde_json::to_value(&s).unwrap();
        assert_eq!(written["id"], "case-1");
        assert_eq!(written["log"], "no-open-step");
        assert_eq!(
            written["session"],
            json!({"id": "s-2", "route": {"provider": "default", "model": "default"}, "consecutive_failures": 4, "listed": false, "working_directory": false})
        );
        let mut want_reviewer = given["reviewer"].clone();
        // The finish a block attempt leaves out is written as the default it reads as.
        want_reviewer[1]["finish"] = json!("stop");
        want_reviewer[2]["finish"] = json!("stop");
        assert_eq!(written["reviewer"], want_reviewer);
        assert_eq!(read(written), Ok(s));
    }
}
