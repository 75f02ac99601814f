//! Decision plants: each decides a settled review otherwise than chapter 5 says, and is found by
//! fixed and by generated cases leading its run with the clause of the branch it gets wrong.

use super::*;
use autoreview::scenario::Downstream;

/// Whether the reference decides `s` under `profile` by the branch of `clause` (the clauses it
/// cites for the listener's decision).
fn decided_by(s: &Scenario, profile: Profile, clause: &str) -> bool {
    let o = engine::decide(s, profile);
    o.citations.at("/listener").contains(&clause)
        || o.citations.at("/listener/kind").contains(&clause)
}

/// A plant whose mistake is made in single calls only: in a session the branch a call takes
/// depends on what the session carried to it, which a rewrite of the call alone cannot see, so
/// sessions are decided as the reference decides them.
struct Lone(Planted);

impl Implementation for Lone {
    fn describe(&self) -> String {
        self.0.describe()
    }

    fn decide(&mut self, ask: Ask<'_>) -> Result<InputOutcome, ImplError> {
        match ask.input {
            Input::One(_) => self.0.decide(ask),
            Input::Session(_) => Planted::reading("nothing", |_| {}).decide(ask),
        }
    }
}

/// [`found_at`] for a [`Lone`] plant under `profile`, its fixed cases' run leading with `lead`.
fn lone_found(plant: Planted, lead: &'static str, profile: Profile, severity: Severity) {
    let name = plant.name;
    let mut lone = Lone(plant);
    assert_eq!(
        fixed_run(&mut lone, profile),
        (Some(severity), Some(lead.to_owned())),
        "{name} under {profile}, fixed cases"
    );
    indexed(name, lead, profile);
    assert_eq!(
        by_generated(&mut lone, profile, READER_CASES),
        Some(severity),
        "{name} under {profile}, generated cases"
    );
}

/// A gate that answers a reviewer's allow with an allow of its own: it consults the rest of the
/// pre-execute chain but drops what it returns (AR-DECIDE-4: downstream's decision unchanged),
/// so a downstream deny, ask or cancel runs the body. The reviewer allowed, which the spec
/// accepts, and the call should then have stopped: a DECISION. Where the gate answers the
/// requests of the calls it allowed (the resilient profile, AR-APPROVAL-7), it then also answers
/// those of a call downstream asked about, which were the human's, on its reviewer's allow, which
/// the spec does not let answer them: BOUNDS.
#[test]
fn a_gate_that_drops_downstreams_decision_after_an_allow_is_found_at_decision() {
    fn dropped(s: &mut Scenario, profile: Profile) {
        if s.downstream != Downstream::Allow && decided_by(s, profile, "AR-DECIDE-4") {
            s.downstream = Downstream::Allow;
        }
    }
    let plants = [
        (
            Profile::BASELINE,
            Planted::reading("downstream dropped after an allow", |s| {
                dropped(s, Profile::BASELINE)
            }),
        ),
        (
            Profile::RESILIENT,
            Planted::reading("downstream dropped after an allow", |s| {
                dropped(s, Profile::RESILIENT)
            }),
        ),
    ];
    for (profile, plant) in plants {
        let severity = match profile.body_approvals() {
            autoreview::profile::BodyApprovals::AllowedCall => Severity::Bounds,
            autoreview::profile::BodyApprovals::Human => Severity::Decision,
        };
        lone_found(plant, "AR-DECIDE-4", profile, severity);
    }
}

/// A gate that puts a reviewer's denial to the human whatever downstream returned, as if the
/// chain had allowed (AR-DECIDE-5: a downstream deny, ask or cancel wins unchanged and the human
/// is not asked by the gate): the human's allow runs the body where the spec asks nobody.
#[test]
fn a_gate_that_asks_over_downstreams_decision_after_a_deny_is_found() {
    fn overridden(s: &mut Scenario, profile: Profile) {
        if s.downstream != Downstream::Allow && decided_by(s, profile, "AR-DECIDE-5") {
            s.downstream = Downstream::Allow;
        }
    }
    let plants = [
        (
            Profile::BASELINE,
            Planted::reading("downstream overridden after a deny", |s| {
                overridden(s, Profile::BASELINE)
            }),
        ),
        (
            Profile::RESILIENT,
            Planted::reading("downstream overridden after a deny", |s| {
                overridden(s, Profile::RESILIENT)
            }),
        ),
    ];
    for (profile, plant) in plants {
        lone_found(plant, "AR-DECIDE-5", profile, Severity::Bounds);
    }
}

/// A gate that consults the rest of the chain twice, once to see whether it allows and again
/// for the decision it returns (AR-DECIDE-3: exactly once): the steps differ, at ORDER.
#[test]
fn a_gate_that_consults_downstream_twice_is_found_at_order() {
    use autoreview::outcome::Event as Step;
    let plant = Planted::writing("downstream consulted twice", |_, o| {
        if let Some(at) = o.trace.iter().position(|e| *e == Step::Downstream) {
            o.trace.insert(at, Step::Downstream);
        }
    });
    found(plant, "AR-DECIDE-3", &Profile::all(), Severity::Order);
}

/// A baseline gate that looks for `never` in the deployment default where AR-DECIDE-2 reads the
/// session's recorded override: a denial under an override `never` (the default `ask`) takes the
/// path of AR-DECIDE-5, and the approval service then rejects the ask under the effective
/// `never`; no final denial, and another text: a DECISION.
#[test]
fn a_baseline_gate_that_misses_the_never_override_is_found_at_decision() {
    use autoreview::scenario::{ApprovalPolicy, Policy};
    let plant = Planted::reading("the never override not read", |s| {
        if s.policy.override_ == Some(ApprovalPolicy::Never) {
            s.policy = Policy {
                override_: None,
                default: ApprovalPolicy::Never,
            };
        }
    });
    found(
        plant,
        "AR-DECIDE-2",
        &[Profile::BASELINE, shipped()],
        Severity::Decision,
    );
}

/// A baseline gate that reads the effective policy for AR-DECIDE-2, as the resilient profile
/// does (AR-DECIDE-6: the baseline reads the override): a denial in a session with no override
/// and the default `never` is a final denial instead of the ask the approval service rejects.
#[test]
fn a_baseline_gate_that_reads_the_effective_policy_is_found_at_decision() {
    use autoreview::scenario::ApprovalPolicy;
    let plant = Planted::reading("the effective policy read for a denial", |s| {
        if s.policy.override_.is_none() && s.policy.default == ApprovalPolicy::Never {
            s.policy.override_ = Some(ApprovalPolicy::Never);
        }
    });
    found(
        plant,
        "AR-DECIDE-6",
        &[Profile::BASELINE, shipped()],
        Severity::Decision,
    );
}

/// Rewrites the review's failure message `from` by `f` wherever an outcome carries it: the
/// failure itself, and every text a human or the model reads that quotes it.
fn failure_message_rewritten(o: &mut Outcome, f: impl Fn(&str) -> String) {
    let Some(failure) = &mut o.review.failure else {
        return;
    };
    let was = failure.message.clone();
    let now = f(&was);
    if now == was {
        return;
    }
    failure.message = now.clone();
    each_outcome_text(o, |t| t.replace(&was, &now));
}

/// A resilient gate that marks a cut failure message with three dots instead of `…`
/// (AR-RES-NORM-4: the first 399 characters followed by `…`): a message past 400 characters
/// reads otherwise, at TEXT.
#[test]
fn a_resilient_gate_that_cuts_with_three_dots_is_found_at_text() {
    let plant = Planted::writing("a cut marked with three dots", |_, o| {
        failure_message_rewritten(o, |m| {
            if m.chars().count() == 400 && m.ends_with('…') {
                format!("{}...", m.strip_suffix('…').unwrap_or(m))
            } else {
                m.to_owned()
            }
        })
    });
    found(
        plant,
        "AR-RES-NORM-4",
        &[Profile::RESILIENT],
        Severity::Text,
    );
}

/// A resilient gate that escapes a control character as JSON does, `\u001b`, where AR-RES-NORM-3
/// writes `\u{1b}`: the failure message reads otherwise, at TEXT.
#[test]
fn a_resilient_gate_that_escapes_controls_as_json_is_found_at_text() {
    let plant = Planted::writing("controls escaped as JSON", |_, o| {
        failure_message_rewritten(o, |m| {
            let mut out = String::with_capacity(m.len());
            let mut rest = m;
            while let Some(at) = rest.find("\\u{") {
                out.push_str(&rest[..at]);
                let after = &rest[at + 3..];
                match after.find('}') {
                    Some(end) if after[..end].chars().all(|c| c.is_ascii_hexdigit()) => {
                        out.push_str(&format!("\\u{:0>4}", &after[..end]));
                        rest = &after[end + 1..];
                    }
                    _ => {
                        out.push_str("\\u{");
                        rest = after;
                    }
                }
            }
            out.push_str(rest);
            out
        })
    });
    found(
        plant,
        "AR-RES-NORM-3",
        &[Profile::RESILIENT],
        Severity::Text,
    );
}

/// A baseline gate that gives the denial of a failed review the structured info of a reviewer's
/// final denial, so that interfaces show it as `AUTO_REVIEW_DENIED` (AR-DECIDE-1: no structured
/// info; the failure says nothing about the action's risk): INFO.
#[test]
fn a_baseline_gate_that_labels_a_failure_as_a_denial_is_found_at_info() {
    use autoreview::outcome::Decision;
    let plant = Planted::writing("a failure labelled AutoReviewDeniedError", |_, o| {
        if o.review.failure.is_none() {
            return;
        }
        let info: serde_json::Map<String, serde_json::Value> = serde_json::from_value(
            serde_json::json!({"name": "AutoReviewDeniedError", "code": "AUTO_REVIEW_DENIED"}),
        )
        .expect("an object");
        if let Some(Decision::Deny { info: i @ None, .. }) = &mut o.listener {
            *i = Some(info.clone());
            if o.result.info.is_none() {
                o.result.info = Some(info);
            }
        }
    });
    found(plant, "AR-DECIDE-1", &[Profile::BASELINE], Severity::Info);
}

/// A gate that, its review having objected, puts the question to the human while it waits for
/// downstream, as `Promise.all([askHuman(objection), downstream()])` does to save the human's
/// time (AR-ORDER-2: the human is never asked before downstream has allowed the call), and returns
/// downstream's deny or cancel when it refuses: the human is asked about a call nobody will run.
/// No body runs that the reference does not run; an approval request the spec does not make: a
/// DECISION, from either kind of case.
#[test]
fn a_gate_that_asks_while_downstream_decides_is_found_at_decision() {
    use autoreview::outcome::Event as Step;
    let plant = Planted::deciding("asked while downstream decides", |s, p| {
        let mut o = engine::decide(s, p);
        if o.approval.is_some()
            || !matches!(s.downstream, Downstream::Deny { .. } | Downstream::Cancel)
        {
            return o;
        }
        // What the gate asks the human: what the reference would ask had downstream allowed.
        let mut allowed = s.clone();
        allowed.downstream = Downstream::Allow;
        let asked = engine::decide(&allowed, p);
        let (Some(approval), Some(at)) = (
            asked.approval,
            o.trace.iter().position(|e| *e == Step::Downstream),
        ) else {
            return o;
        };
        o.approval = Some(approval);
        o.trace.insert(at, Step::Approval);
        o
    });
    found(plant, "AR-ORDER-2", &Profile::all(), Severity::Decision);
}
