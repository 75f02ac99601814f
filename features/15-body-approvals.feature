Feature: Approvals a call's body raises while it runs
  A tool's body may itself ask for approval while it runs, a one-shot escalation out of its
  sandbox, say. The resilient profile's gate answers those of the call it allowed (its reviewer
  allowed and the listeners after it allowed) with allowed-once while the session is still in
  Auto, so the reviewer decides instead of the user; the coverage ends with the call. Every other
  request goes to the user: one with no call id or naming another call, one raised by a call the
  user allowed or the gate passed through, one made after the body left Auto. Under the approval
  policy never the approval service rejects a body's request by itself, asking nobody. The
  baseline, the shipped gate, answers none: every request reaches the user.

  @resilient @F-BODY-1 @AR-APPROVAL-7 @AR-RESULT-7
  Scenario: The gate answers the escalation of the call it allowed, and the user is not asked
    Given a session in Auto
    And the reviewer allows with risk "low"
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test", which the user would answer "rejected"
    When the agent calls "asker"
    Then the gate allows
    And the approval service is not consulted
    And the tool body runs
    And the gate answers the body's request "escalate sandbox to danger-full-access: test" with "allowed-once"

  @baseline @F-BODY-2 @AR-APPROVAL-8 @AR-RESULT-7
  Scenario: The baseline has no answerer: the allowed call's own escalation goes to the user
    Given a session in Auto
    And the reviewer allows with risk "low"
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test", which the user would answer "rejected"
    When the agent calls "asker"
    Then the tool body runs
    And the user answers the body's request "escalate sandbox to danger-full-access: test" with "rejected"

  @resilient @F-BODY-3 @AR-APPROVAL-7 @AR-APPROVAL-8
  Scenario: A call the reviewer denied and the user then allowed is the user's: its escalation goes to the user too
    Given a session in Auto
    And the reviewer denies with risk "high" and reason "not authorized"
    And the user would answer "allowed-once"
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test", which the user would answer "rejected"
    When the agent calls "asker"
    Then the user is asked and answers "allowed-once"
    And the tool body runs
    And the user answers the body's request "escalate sandbox to danger-full-access: test" with "rejected"

  @resilient @F-BODY-4 @AR-APPROVAL-7
  Scenario: A call a later listener asked about is not covered, though its reviewer allowed
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants approval"
    And the user would answer "allowed-once"
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test", which the user would answer "rejected"
    When the agent calls "asker"
    Then the user is asked and answers "allowed-once"
    And the user answers the body's request "escalate sandbox to danger-full-access: test" with "rejected"

  @resilient @F-BODY-5 @AR-APPROVAL-7
  Scenario: Requests without a call id, or naming a call nobody reviewed, go to the user while the allowed call runs
    Given a session in Auto
    And the reviewer allows with risk "low"
    And the tool's body asks for approval with no call id with "no call id", which the user would answer "rejected"
    And the tool's body asks for approval for a call nobody reviewed with "unreviewed call", which the user would answer "rejected"
    And the tool's body asks for approval for its own call with "own call"
    When the agent calls "asker"
    Then the body's requests are answered in order: "no call id, unreviewed call, own call"
    And the user answers the body's request "no call id" with "rejected"
    And the user answers the body's request "unreviewed call" with "rejected"
    And the gate answers the body's request "own call" with "allowed-once"

  @resilient @F-BODY-6 @AR-APPROVAL-7 @AR-RESULT-7
  Scenario: Once the body selected another preset the session has left Auto, and the gate stops answering
    Given a session in Auto
    And the reviewer allows with risk "low"
    And the tool's body selects the preset "workspace-write"
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test", which the user would answer "rejected"
    When the agent calls "asker"
    Then the user answers the body's request "escalate sandbox to danger-full-access: test" with "rejected"
    And the session's sandbox is danger-full-access before the call and workspace-write after it

  @baseline @F-BODY-7 @AR-APPROVAL-8
  Scenario: Under the policy never the approval service rejects a body's request by itself
    Given a session in Auto with approval policy "never"
    And the reviewer allows with risk "low"
    And the user would answer "allowed-once"
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test"
    When the agent calls "asker"
    Then the tool body runs
    And the approval service by itself answers the body's request "escalate sandbox to danger-full-access: test" with "rejected"

  @resilient @F-BODY-8 @AR-APPROVAL-7 @AR-APPROVAL-6 @AR-SESSION-2
  Scenario: The gate forgets a call once it finished: a later call's request naming it goes to the user
    Given a session in Auto
    And the reviewer allows with risk "low"
    And the tool's body asks for approval for its own call with "first call's escalation"
    When the agent calls "asker"
    Then the gate answers the body's request "first call's escalation" with "allowed-once"
    Given the reviewer allows with risk "low"
    And the tool's body asks for approval for the session's previous call with "the finished call's escalation", which the user would answer "rejected"
    When the agent calls "asker"
    Then the user answers the body's request "the finished call's escalation" with "rejected"

  @resilient @F-BODY-9 @AR-APPROVAL-7 @AR-SCOPE-2
  Scenario: The outer run_code call passes through unreviewed, so the gate answers none of its requests
    Given a session in Auto
    And the tool's body asks for approval for its own call with "escalate sandbox to danger-full-access: test", which the user would answer "rejected"
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the user answers the body's request "escalate sandbox to danger-full-access: test" with "rejected"

  @baseline @F-BODY-10 @AR-RESULT-7 @AR-SESSION-2 @AR-APPROVAL-8
  Scenario: A body that selects full access writes the policy never: the service rejects its request, and the next call passes through
    Given a session in Auto
    And the reviewer allows with risk "low"
    And the user would answer "allowed-once"
    And the tool's body selects the preset "danger-full-access"
    And the tool's body asks for approval for its own call with "escalate"
    When the agent calls "asker"
    Then the approval service by itself answers the body's request "escalate" with "rejected"
    Given the reviewer allows with risk "low"
    When the agent calls "probe"
    Then the reviewer is not asked
    And the tool body runs
