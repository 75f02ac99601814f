//! The gate's listener flow: scope (chapter 1), admission (chapter 2), review (chapter 3), the
//! lifecycle checks of chapter 7, then the decision (chapter 5).

use super::decision::{self, Settled};
use super::review::{self, Settlement};
use super::scope::{self, Scope};
use super::{Decided, Run, admission, cancellation, disposal};
use crate::outcome::{Decision, Event, ReviewRecord};
use crate::profile::PresetRead;

/// What the gate did: its decision (`None` while a review never settles) and the review record.
#[derive(Debug, Clone, PartialEq)]
pub struct Gate {
    /// The listener decision, once returned.
    pub decided: Option<Decided>,
    /// What the review did.
    pub review: ReviewRecord,
    /// The review itself, when the gate made one (callers that classify the call reuse it).
    pub reviewed: Option<review::Review>,
}

/// The review record of a call the gate did not review: no request, and where the profile counts
/// failures the session's failure count unchanged (AR-RES-HINT-1).
pub fn unreviewed(run: &Run<'_>) -> ReviewRecord {
    ReviewRecord::unreviewed(
        run.profile
            .counts_failures()
            .then_some(run.s.session.consecutive_failures),
    )
}

/// Cites the clauses behind the review record of a call the gate did not review, `why` being the
/// clause that kept it from the review.
pub fn cite_unreviewed(run: &mut Run<'_>, why: &[&'static str]) {
    for member in [
        "/review/attempts",
        "/review/requests",
        "/review/routes",
        "/review/failure",
    ] {
        run.citations.cite_all(member, why);
    }
    run.citations.cite_all("/trace", why);
    run.cite("/review/consecutive_failures", "AR-RES-HINT-1");
}

/// Why a call passes through unreviewed, the clause that decided it first: AR-DISPOSE-2 where
/// disposal moved its session out of Auto before the call (the baseline reads the preset disposal
/// left), then the clause of its scope (AR-SCOPE-1..3), then AR-SCOPE-4 (it makes no request).
fn passes_through_by(run: &Run<'_>, scope: Scope) -> Vec<&'static str> {
    let mut by = Vec::with_capacity(3);
    if scope == Scope::NotAuto && run.s.preset != disposal::preset_at_start(run.s, run.profile) {
        by.push("AR-DISPOSE-2");
    }
    by.push(match scope {
        Scope::NoAgent => "AR-SCOPE-1",
        Scope::OuterRunCode => "AR-SCOPE-2",
        Scope::NotAuto | Scope::Reviewed => "AR-SCOPE-3",
    });
    by.push("AR-SCOPE-4");
    by
}

/// Why a pass-through call gets downstream's decision: as [`passes_through_by`], except that where
/// the lifecycle aborted around a call disposal did not move, AR-SCOPE-4 decided it (the gate
/// returns downstream's decision whatever happens to its lifecycle).
fn decided_through_by(run: &Run<'_>, by: &[&'static str]) -> Vec<&'static str> {
    let mut by = by.to_vec();
    if run.s.abort.is_lifecycle() && by[0] != "AR-DISPOSE-2" {
        by.retain(|c| *c != "AR-SCOPE-4");
        by.insert(0, "AR-SCOPE-4");
    }
    by
}

/// Runs the gate for one call.
pub fn listen(run: &mut Run<'_>) -> Gate {
    let scope = scope::classify(run.s, run.profile);
    if !scope.is_reviewed() {
        let by = passes_through_by(run, scope);
        let mut decided = Decided::exact(decision::consult_downstream(run));
        for clause in decided_through_by(run, &by).iter().rev() {
            decided = decided.because(clause);
        }
        cite_unreviewed(run, &by);
        return Gate {
            decided: Some(decided),
            review: unreviewed(run),
            reviewed: None,
        };
    }
    if !admission::admits(run.s) {
        // The call is not reviewed because admission is checked first (AR-ADMIT-1) and refused;
        // it is cancelled by the answer to a refused call (AR-ADMIT-2, AR-CANCEL-2).
        let mut by = vec!["AR-ADMIT-2", "AR-CANCEL-2"];
        let mut unreviewed_by = vec!["AR-ADMIT-1", "AR-ADMIT-2", "AR-CANCEL-2"];
        // AR-RES-DISPOSE-1: the current preset was read, and disposal moved it.
        if run.profile.preset_read() == PresetRead::Current
            && run.s.preset != disposal::preset_at_start(run.s, run.profile)
        {
            by.insert(0, "AR-RES-DISPOSE-1");
            unreviewed_by.insert(0, "AR-RES-DISPOSE-1");
        }
        let mut decided = Decided::exact(Decision::Cancel);
        for clause in by.iter().rev() {
            decided = decided.because(clause);
        }
        cite_unreviewed(run, &unreviewed_by);
        return Gate {
            decided: Some(decided),
            review: unreviewed(run),
            reviewed: None,
        };
    }
    let review = review::review(run.s, run.profile);
    for _ in 0..review.attempts() {
        run.event(Event::Review);
    }
    review.cite(run.profile, &mut run.citations);
    if let Settlement::Failed(f) = &review.settlement {
        run.note_prefix("/review/failure/message", &f.message);
    }
    let record = review.record();
    if cancellation::lifecycle_aborts_after_review(run.s.abort) {
        return Gate {
            decided: Some(Decided::exact(Decision::Cancel).because("AR-CANCEL-3")),
            review: record,
            reviewed: Some(review),
        };
    }
    let settled = match &review.settlement {
        Settlement::Pending => {
            return Gate {
                decided: None,
                review: record,
                reviewed: Some(review),
            };
        }
        Settlement::Decided(d) => Settled::Decided(d.clone()),
        Settlement::Failed(f) => Settled::Failed(f.clone()),
    };
    let decided = decision::decide(run, &review, settled);
    for (key, p) in &decided.prefixes {
        run.prefix_only.insert(format!("/listener/{key}"), *p);
    }
    Gate {
        decided: Some(decided),
        review: record,
        reviewed: Some(review),
    }
}
