//! The outcome: everything observable about one call after the gate and the tool runtime are done
//! with it (`spec/scenario.md`, "Outcome").

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::scenario::{Answer, ApprovalAnswer, CallIdOf, SandboxMode};

/// What happened to one call.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The scenario's `id`, echoed.
    #[serde(default)]
    pub id: Option<String>,
    /// `false` when the call never completes (a review that never settles, AR-CANCEL-6).
    pub settled: bool,
    /// The decision the gate (the first pre-execute listener) returned; `null` when it did not run or
    /// did not return.
    pub listener: Option<Decision>,
    /// The approval request, when the tool runtime made one.
    pub approval: Option<ApprovalRecord>,
    /// The tool result the model receives.
    pub result: ToolResult,
    /// What the review did.
    pub review: ReviewRecord,
    /// The observable events in order.
    pub trace: Vec<Event>,
    /// The session's sandbox mode when the call arrived and when it settled (AR-CONFINE-1..4):
    /// absent when it was `danger-full-access` throughout, and from an outcome whose
    /// implementation does not observe `confinement`.
    #[serde(default, skip_serializing_if = "SandboxRecord::is_default")]
    pub sandbox: SandboxRecord,
    /// The approval requests the body raised while it ran, in order, each with who answered and
    /// what (AR-APPROVAL-7, AR-APPROVAL-8): absent when it raised none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub body_approvals: Vec<BodyApproval>,
    /// Texts whose tail is implementation-defined: JSON pointer of the text → number of characters
    /// (Unicode scalar values) of its normative prefix (AR-CONV-3). Absent when every text is
    /// normative in full.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prefix_only: BTreeMap<String, usize>,
    /// The clauses behind each member, as the reference decided them: not on the wire, never
    /// compared (an outcome read from JSON has none).
    #[serde(skip)]
    #[schemars(skip)]
    pub citations: Citations,
}

/// Two outcomes are equal when everything observable about them is: the citations explain an
/// outcome, they are no part of it. The pattern names every field, so a new one cannot be
/// forgotten here.
impl PartialEq for Outcome {
    fn eq(&self, other: &Outcome) -> bool {
        let Outcome {
            id,
            settled,
            listener,
            approval,
            result,
            review,
            trace,
            sandbox,
            body_approvals,
            prefix_only,
            citations: _,
        } = self;
        *id == other.id
            && *settled == other.settled
            && *listener == other.listener
            && *approval == other.approval
            && *result == other.result
            && *review == other.review
            && *trace == other.trace
            && *sandbox == other.sandbox
            && *body_approvals == other.body_approvals
            && *prefix_only == other.prefix_only
    }
}

/// An approval request a call's body raised, and its answer (AR-APPROVAL-7, AR-APPROVAL-8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BodyApproval {
    /// Which call the request named, as the scenario's step says.
    pub call_id: CallIdOf,
    /// The request's reason.
    pub reason: String,
    /// Who answered it.
    pub answered_by: AnsweredBy,
    /// The answer the body received.
    pub answer: Answer,
}

/// Who answered an approval request a body raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum AnsweredBy {
    /// The gate, for a call it allowed (AR-APPROVAL-7).
    Gate,
    /// The human.
    Human,
    /// The approval service by itself, asking no answerer (AR-APPROVAL-8).
    Service,
}

/// The mode a call's session had when the call arrived and when it settled (AR-CONFINE-1..4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SandboxRecord {
    /// The mode when the call arrived.
    pub before: SandboxMode,
    /// The mode when the call settled: the mode its body ran under, where it ran.
    pub after: SandboxMode,
}

impl SandboxRecord {
    /// A mode that did not change.
    pub fn kept(mode: SandboxMode) -> SandboxRecord {
        SandboxRecord {
            before: mode,
            after: mode,
        }
    }

    /// Whether it is the default: full access throughout.
    pub fn is_default(&self) -> bool {
        *self == SandboxRecord::default()
    }
}

/// Which clauses determined each member of an outcome: JSON pointer within the outcome (RFC 6901)
/// → the clause IDs (`AR-…`, and for a text its template's `MSG-…` and `INFO-…` IDs) behind the
/// member, in the order they were cited, each once. A member without an entry of its own is
/// explained by the entry of the longest pointer above it ([`Citations::behind`]). It also holds
/// the values the spec keeps out of a text ([`Withheld`]), so that a text that shows one breaks
/// the clause that keeps it out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Citations {
    by_member: BTreeMap<String, Vec<&'static str>>,
    withheld: Vec<Withheld>,
}

/// A value the spec keeps out of a text of the outcome: the reviewer's risk level out of every
/// decision and result (AR-REVIEW-8), the audited and the display reason out of what the model
/// reads (AR-APPROVAL-5), the structured info's reason out of the result's text (AR-RESULT-6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withheld {
    /// The text's member, as a JSON pointer into the outcome (`/result/text`).
    pub text: String,
    /// The value kept out of it.
    pub value: String,
    /// The clause that keeps it out.
    pub clause: &'static str,
}

impl Citations {
    /// Cites `id` for the member at `pointer` (once: a clause cited again keeps its place).
    pub fn cite(&mut self, pointer: &str, id: &'static str) {
        let ids = self.by_member.entry(pointer.to_owned()).or_default();
        if !ids.contains(&id) {
            ids.push(id);
        }
    }

    /// Cites `id` for the member at `pointer` before what it cites already: the clause it rests on
    /// first.
    pub fn cite_first(&mut self, pointer: &str, id: &'static str) {
        let ids = self.by_member.entry(pointer.to_owned()).or_default();
        ids.retain(|i| *i != id);
        ids.insert(0, id);
    }

    /// Cites each of `ids` for the member at `pointer`, in order.
    pub fn cite_all(&mut self, pointer: &str, ids: &[&'static str]) {
        for id in ids {
            self.cite(pointer, id);
        }
    }

    /// The clauses cited for exactly `pointer`.
    pub fn at(&self, pointer: &str) -> &[&'static str] {
        self.by_member.get(pointer).map_or(&[], Vec::as_slice)
    }

    /// The clauses behind the member at `pointer`: those of the longest cited pointer that is
    /// `pointer` itself or a whole-token prefix of it (`/listener` for `/listener/kind`, never
    /// `/review/request` for `/review/requests`); empty when none is.
    pub fn behind(&self, pointer: &str) -> &[&'static str] {
        let mut at = pointer;
        loop {
            if let Some(ids) = self.by_member.get(at) {
                return ids;
            }
            if at.is_empty() {
                return &[];
            }
            at = &at[..at.rfind('/').unwrap_or(0)];
        }
    }

    /// Every cited pointer with its clauses, in pointer order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[&'static str])> {
        self.by_member
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// Whether nothing is cited.
    pub fn is_empty(&self) -> bool {
        self.by_member.is_empty()
    }

    /// Cites `id` first, before what each member cites already, for the root (`""`) and every
    /// member cited: the clause under which all of them were decided.
    pub fn lead(&mut self, id: &'static str) {
        self.by_member.entry(String::new()).or_default();
        for ids in self.by_member.values_mut() {
            ids.retain(|i| *i != id);
            ids.insert(0, id);
        }
    }

    /// Cites everything `inner` cites, each pointer under `at` (`/calls/2` for a session's item).
    pub fn nest(&mut self, at: &str, inner: &Citations) {
        for (pointer, ids) in inner.iter() {
            self.cite_all(&format!("{at}{pointer}"), ids);
        }
        for w in &inner.withheld {
            self.withhold(&format!("{at}{}", w.text), &w.value, w.clause);
        }
    }

    /// Records that `clause` keeps `value` out of the text at `text` (once; an empty value is
    /// nothing to keep out).
    pub fn withhold(&mut self, text: &str, value: &str, clause: &'static str) {
        let w = Withheld {
            text: text.to_owned(),
            value: value.to_owned(),
            clause,
        };
        if !value.trim().is_empty() && !self.withheld.contains(&w) {
            self.withheld.push(w);
        }
    }

    /// What the spec keeps out of the outcome's texts, in the order it was recorded.
    pub fn withheld(&self) -> &[Withheld] {
        &self.withheld
    }
}

// Deserialized through `DecisionWire`, so that a member a kind does not have
// (`{"kind": "allow", "note": …}`) is refused like any unknown member.
/// A listener decision (AR-CONV-4).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Decision {
    /// Proceed.
    Allow,
    /// Refuse with a reason and optional structured info.
    Deny {
        /// The reason the model sees after `Error: `.
        reason: String,
        /// Structured info for logs and interfaces.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        info: Option<Map<String, Value>>,
    },
    /// Cancel before dispatch.
    Cancel,
    /// Ask the approval service.
    Ask {
        /// The audited reason.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
        /// The localized text shown to the human.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        display_reason: Option<DisplayReason>,
    },
}

/// Every member any decision kind may have; [`Decision`] is read through it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionWire {
    kind: DecisionKind,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    info: Option<Map<String, Value>>,
    #[serde(default)]
    display_reason: Option<DisplayReason>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum DecisionKind {
    Allow,
    Deny,
    Cancel,
    Ask,
}

impl TryFrom<DecisionWire> for Decision {
    type Error = String;

    fn try_from(w: DecisionWire) -> Result<Decision, String> {
        let present = |name: &str, here: bool| here.then(|| name.to_owned());
        let members = |allowed: &[&str]| -> Result<(), String> {
            let extra: Vec<String> = [
                present("reason", w.reason.is_some()),
                present("info", w.info.is_some()),
                present("display_reason", w.display_reason.is_some()),
            ]
            .into_iter()
            .flatten()
            .filter(|m| !allowed.contains(&m.as_str()))
            .collect();
            match extra.as_slice() {
                [] => Ok(()),
                _ => Err(format!(
                    "unknown field `{}` for this kind of decision",
                    extra.join("`, `")
                )),
            }
        };
        match w.kind {
            DecisionKind::Allow => members(&[]).map(|()| Decision::Allow),
            DecisionKind::Cancel => members(&[]).map(|()| Decision::Cancel),
            DecisionKind::Deny => {
                members(&["reason", "info"])?;
                let reason = w.reason.ok_or("missing field `reason`")?;
                Ok(Decision::Deny {
                    reason,
                    info: w.info,
                })
            }
            DecisionKind::Ask => {
                members(&["reason", "display_reason"])?;
                Ok(Decision::Ask {
                    reason: w.reason,
                    display_reason: w.display_reason,
                })
            }
        }
    }
}

/// A display reason in the two locales the gate ships.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DisplayReason {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    pub zh: String,
}

/// An approval request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApprovalRecord {
    /// The audited reason sent with the request.
    pub reason: Option<String>,
    /// The display reason sent with the request.
    pub display_reason: Option<DisplayReason>,
    /// The answer (`throws` when the request itself threw).
    pub answer: ApprovalAnswer,
    /// Whether the question reached the answerers (a human); `false` when the service answered by
    /// itself (a cancelled signal, the `never` policy) or the request threw.
    pub prompted: bool,
}

/// The tool result the model receives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolResult {
    /// Whether the body ran.
    pub executed: bool,
    /// For a call that did not run: exactly the text the model sees. `null` when the body ran or the
    /// call never completed.
    pub text: Option<String>,
    /// Structured info kept with a call that did not run.
    pub info: Option<Map<String, Value>>,
}

/// What the review did.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewRecord {
    /// How many reviewer requests were made.
    pub attempts: u32,
    /// Why no decision was obtained, when the review failed.
    pub failure: Option<Failure>,
    /// The route of each reviewer request, `provider/model`, in order.
    #[serde(default)]
    pub routes: Vec<String>,
    /// Each reviewer request as sent (AR-REVIEW-12): absent from an outcome whose implementation
    /// does not observe requests (protocol 1, or a `hello` without `requests`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<Vec<RequestRecord>>,
    /// Reviewer failures in a row after this call (resilient profile); `null` in the baseline.
    #[serde(default)]
    pub consecutive_failures: Option<u32>,
}

impl ReviewRecord {
    /// The record of a call the gate did not review: no request, and the session's failure count
    /// as it was (`None` in the baseline, which keeps none; AR-RES-HINT-1).
    pub fn unreviewed(consecutive_failures: Option<u32>) -> ReviewRecord {
        ReviewRecord {
            requests: Some(Vec::new()),
            consecutive_failures,
            ..ReviewRecord::default()
        }
    }
}

/// One reviewer request as the gate sent it (AR-REVIEW-12, AR-RES-REQUEST-1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestRecord {
    /// `provider/model`.
    pub route: String,
    /// The sampling temperature sent, `null` when the request leaves it to the provider.
    pub temperature: Option<serde_json::Number>,
    /// How many tools the request declares.
    pub tools: u32,
    /// The session id the request carries, `null` when it carries none.
    pub session_id: Option<String>,
    /// Whether the repair instruction was appended (AR-RES-RETRY-2).
    pub repair: bool,
}

impl RequestRecord {
    /// A request as the gate sends it: at `temperature` (`None`: left to the provider), with no
    /// tools (AR-REVIEW-3).
    pub fn sent(
        route: &str,
        temperature: Option<serde_json::Number>,
        session_id: Option<&str>,
        repair: bool,
    ) -> RequestRecord {
        RequestRecord {
            route: route.to_owned(),
            temperature,
            tools: 0,
            session_id: session_id.map(str::to_owned),
            repair,
        }
    }
}

/// A review failure (AR-REVIEW-5, AR-REVIEW-6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Failure {
    /// The failure class.
    pub class: FailureClass,
    /// The failure message, as placed after `: ` in the failure text.
    pub message: String,
}

/// The closed set of failure classes (AR-REVIEW-6).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum FailureClass {
    /// The request did not reach the provider or the stream broke.
    Transport,
    /// The provider or the gate gave up waiting.
    Timeout,
    /// Quota or rate refusal.
    Quota,
    /// The response was aborted.
    Aborted,
    /// Any other finish error or non-stop finish.
    Provider,
    /// The response broke the output protocol.
    Protocol,
    /// The pending tool's schema could not be resolved.
    Schema,
    /// No complete route for the reviewer request (AR-REVIEW-9).
    Route,
    /// The session's header or log cannot support the review: no working directory, or a log
    /// that lacks or contradicts the pending call (AR-REVIEW-10, AR-REVIEW-11).
    Session,
    /// Anything else, including a thrown value.
    Internal,
}

impl FailureClass {
    /// Every class, in the spec's order.
    pub const ALL: [FailureClass; 10] = [
        FailureClass::Transport,
        FailureClass::Timeout,
        FailureClass::Quota,
        FailureClass::Aborted,
        FailureClass::Provider,
        FailureClass::Protocol,
        FailureClass::Schema,
        FailureClass::Route,
        FailureClass::Session,
        FailureClass::Internal,
    ];

    /// The class's stable code.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureClass::Transport => "transport",
            FailureClass::Timeout => "timeout",
            FailureClass::Quota => "quota",
            FailureClass::Aborted => "aborted",
            FailureClass::Provider => "provider",
            FailureClass::Protocol => "protocol",
            FailureClass::Schema => "schema",
            FailureClass::Route => "route",
            FailureClass::Session => "session",
            FailureClass::Internal => "internal",
        }
    }
}

/// One observable event (AR-ORDER-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// One reviewer request.
    Review,
    /// The downstream listeners were consulted.
    Downstream,
    /// The approval service was asked.
    Approval,
    /// The body ran.
    Body,
    /// The body raised an approval request, which was answered (AR-APPROVAL-7).
    Raised,
}

impl ToolResult {
    /// The body ran.
    pub fn executed() -> ToolResult {
        ToolResult {
            executed: true,
            text: None,
            info: None,
        }
    }

    /// The call did not run; the model sees `text`.
    pub fn refused(text: String, info: Option<Map<String, Value>>) -> ToolResult {
        ToolResult {
            executed: false,
            text: Some(text),
            info,
        }
    }

    /// The call never completed.
    pub fn pending() -> ToolResult {
        ToolResult {
            executed: false,
            text: None,
            info: None,
        }
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Decision, D::Error> {
        Decision::try_from(DecisionWire::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// The outcome of a session scenario: one entry per item, in order (AR-SESSION-1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionOutcome {
    /// The scenario's `id`.
    pub id: Option<String>,
    /// What each call and event came to.
    pub calls: Vec<ItemOutcome>,
}

/// What one item of a session came to. Read as an event's outcome when it has an `event` member,
/// as a call's otherwise, so that a wrong member is named rather than "no variant matched".
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ItemOutcome {
    /// A call's outcome, as for a single-call scenario.
    Call(Box<Outcome>),
    /// An event's outcome.
    Event(EventOutcome),
}

/// What a lifecycle event came to.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EventOutcome {
    /// The event.
    pub event: crate::scenario::session::EventKind,
    /// The error a selection of Auto met: `select-auto` itself, or the re-selection a `dispose`
    /// with `reselect` makes while the integration closes; `null` when there was none.
    pub error: Option<String>,
    /// As in a call's outcome: texts whose tail is implementation-defined (`/error`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prefix_only: BTreeMap<String, usize>,
    /// As in a call's outcome: the clauses behind each member, never on the wire or compared.
    #[serde(skip)]
    #[schemars(skip)]
    pub citations: Citations,
}

/// As for [`Outcome`]: equal when everything observable is.
impl PartialEq for EventOutcome {
    fn eq(&self, other: &EventOutcome) -> bool {
        let EventOutcome {
            event,
            error,
            prefix_only,
            citations: _,
        } = self;
        *event == other.event && *error == other.error && *prefix_only == other.prefix_only
    }
}

impl Eq for EventOutcome {}

/// The outcome of whatever a scenario line held: one call or a session. Read as a session's
/// outcome when it has a `calls` member, as a call's otherwise (as a scenario line is read).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum InputOutcome {
    /// A single call's outcome.
    One(Box<Outcome>),
    /// A session's outcome.
    Session(SessionOutcome),
}

impl Outcome {
    /// The outcome as JSON with every member written out, the default `sandbox` and the empty
    /// `body_approvals` included, which the wire leaves out: what an expectation or another
    /// outcome is compared with, so that a difference is shown at the member that differs.
    pub fn written_out(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.entry("sandbox")
                .or_insert_with(|| serde_json::to_value(self.sandbox).unwrap_or(Value::Null));
            m.entry("body_approvals")
                .or_insert_with(|| Value::Array(Vec::new()));
        }
        v
    }
}

impl InputOutcome {
    /// The outcome as JSON with every member of each call written out ([`Outcome::written_out`]).
    pub fn written_out(&self) -> Value {
        match self {
            InputOutcome::One(o) => o.written_out(),
            InputOutcome::Session(s) => {
                let mut v = serde_json::to_value(s).unwrap_or(Value::Null);
                if let Some(Value::Array(items)) = v.get_mut("calls") {
                    for (item, o) in items.iter_mut().zip(&s.calls) {
                        if let ItemOutcome::Call(o) = o {
                            *item = o.written_out();
                        }
                    }
                }
                v
            }
        }
    }
}

impl<'de> Deserialize<'de> for ItemOutcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ItemOutcome, D::Error> {
        let v = Value::deserialize(d)?;
        if v.get("event").is_some() {
            EventOutcome::deserialize(v).map(ItemOutcome::Event)
        } else {
            Outcome::deserialize(v).map(|o| ItemOutcome::Call(Box::new(o)))
        }
        .map_err(serde::de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for InputOutcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<InputOutcome, D::Error> {
        let v = Value::deserialize(d)?;
        if v.get("calls").is_some() {
            SessionOutcome::deserialize(v).map(InputOutcome::Session)
        } else {
            Outcome::deserialize(v).map(|o| InputOutcome::One(Box::new(o)))
        }
        .map_err(serde::de::Error::custom)
    }
}

/// Appends `/` and the member name `name` to the JSON pointer `at`, escaped as RFC 6901 requires
/// (`~` as `~0`, `/` as `~1`), so that a member named `a/b` is not read as two steps.
pub fn push_token(at: &mut String, name: &str) {
    at.push('/');
    for c in name.chars() {
        match c {
            '~' => at.push_str("~0"),
            '/' => at.push_str("~1"),
            c => at.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Citations;

    /// A member is explained by its own entry, else by the longest cited pointer above it, token
    /// by token; a clause cited twice keeps its first place.
    #[test]
    fn citations_are_found_by_the_longest_cited_prefix() {
        let mut c = Citations::default();
        c.cite("/listener", "AR-DECIDE-4");
        c.cite("/listener", "AR-DECIDE-3");
        c.cite("/listener", "AR-DECIDE-4");
        c.cite("/review/request", "AR-X-1");
        c.cite("/review/requests/0/session_id", "AR-RES-REQUEST-1");
        assert_eq!(c.at("/listener"), ["AR-DECIDE-4", "AR-DECIDE-3"]);
        assert_eq!(c.behind("/listener/kind"), ["AR-DECIDE-4", "AR-DECIDE-3"]);
        assert_eq!(c.behind("/listener"), ["AR-DECIDE-4", "AR-DECIDE-3"]);
        assert!(c.behind("/review/requests").is_empty());
        assert!(c.behind("/review/requests/0/route").is_empty());
        assert_eq!(
            c.behind("/review/requests/0/session_id"),
            ["AR-RES-REQUEST-1"]
        );
        assert!(c.behind("/").is_empty() && c.behind("").is_empty());
        let mut session = Citations::default();
        session.nest("/calls/2", &c);
        assert_eq!(
            session.behind("/calls/2/listener/kind"),
            ["AR-DECIDE-4", "AR-DECIDE-3"]
        );
        assert!(session.behind("/calls/1/listener").is_empty());
    }
}
