Feature: What the session's header and log must hold before a review
  Before it asks the reviewer anything, the gate reads the session: the route of its latest
  request, the working directory its header names, and the pending call in the session log, which
  must agree with what the agent sees. A session that cannot support the review fails it without a
  request, with the class "session" and a message that names what is missing. The shipped gate
  also fails a session whose header names no working directory; the resilient profile reviews it
  with the deployment's directory instead, as the gate's later releases do.

  # --- The working directory -------------------------------------------------------------------

  @baseline @F-LOG-1 @BL-1 @AR-REVIEW-10 @AR-REVIEW-5 @AR-REVIEW-6 @AR-DECIDE-1 @AR-MSG-2
  Scenario: In the baseline, a session whose header names no working directory fails every review before a request
    Given a session in Auto with approval policy "ask"
    And the session's header names no working directory
    And the reviewer allows with risk "low"
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "auto-review: the session has no working directory"
    And the model sees 'Error: Auto review of tool "list_agents" failed; its body was not executed: auto-review: the session has no working directory'
    And the refusal carries no info
    And the approval service is not consulted
    And the tool body does not run
    And there are no events

  @resilient @F-LOG-2 @RS-7 @AR-RES-CWD-1 @AR-RES-PROFILE-1
  Scenario: In the resilient profile, a session whose header names no working directory is reviewed as any other
    Given a session in Auto with approval policy "ask"
    And the session's header names no working directory
    And the reviewer allows with risk "low"
    When the agent calls "list_agents"
    Then the reviewer is asked once
    And the review does not fail
    And the events are review, downstream, body
    And the tool body runs
    And the session then counts 0 reviewer failures in a row

  # --- The session log: each fact, with its message ---------------------------------------------

  @baseline @AR-REVIEW-11 @AR-REVIEW-5 @AR-REVIEW-6 @AR-DECIDE-1 @AR-MSG-2
  Scenario Outline: In the baseline, a log that breaks a fact about the pending call fails the review before a request, with that fact's message
    Given a session in Auto with approval policy "ask"
    And the session log <log>
    And the reviewer allows with risk "low"
    And the user would answer "allowed-once"
    When the agent calls <call>
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "<message>"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <message>'
    And the refusal carries no info
    And the approval service is not consulted
    And the tool body does not run
    And there are no events

    Examples:
      | id       | row  | log                                                                         | call                         | message                                                                             |
      | F-LOG-3  | BL-1 | holds a PTC start logged while no step was open                             | "pwsh"                       | auto-review: a PTC call has no owning step in the session log                       |
      | F-LOG-4  | BL-1 | holds two PTC starts with one identity in one step                          | "pwsh"                       | auto-review: a PTC call identity is ambiguous in the session log                    |
      | F-LOG-5  | BL-1 | has no open step                                                            | "pwsh"                       | auto-review: the pending call has no open step in the session log                   |
      | F-LOG-6  | BL-1 | does not hold the pending root call exactly once in the open step           | "pwsh"                       | auto-review: the pending root call is missing or ambiguous in the session log       |
      | F-LOG-7  | BL-1 | does not hold the pending PTC call's start in the open step                 | "pwsh" from inside a program | auto-review: the pending PTC call is missing or ambiguous in the session log        |
      | F-LOG-8  | BL-1 | shows the pending root call twice in what the agent sees                    | "pwsh"                       | auto-review: the pending root call is ambiguous in the current surface              |
      | F-LOG-9  | BL-1 | logs a visible call's identity twice                                        | "pwsh"                       | auto-review: a native call identity is ambiguous in the session log                 |
      | F-LOG-10 | BL-1 | never logged a visible call before the pending root                         | "pwsh"                       | auto-review: a visible call before the pending root is missing from the session log |
      | F-LOG-11 | BL-1 | holds PTC dispatches of a visible call that never started                   | "pwsh"                       | auto-review: an unstarted visible call has logged PTC dispatches                    |
      | F-LOG-12 | BL-1 | started a call after an unstarted one in the same message                   | "pwsh"                       | auto-review: visible native call logs do not form a started prefix                  |
      | F-LOG-13 | BL-1 | names a visible call with another name or other arguments                   | "pwsh"                       | auto-review: a visible tool call disagrees with its logged action                   |
      | F-LOG-14 | BL-1 | holds the pending root call, but the agent does not see it                  | "pwsh"                       | auto-review: the pending root call is missing from the current surface              |
      | F-LOG-15 | BL-1 | logged the pending native call with another name or other arguments         | "pwsh"                       | auto-review: the pending native call disagrees with its logged action               |
      | F-LOG-16 | BL-1 | logged the pending PTC call under another parent or root, name or arguments | "pwsh" from inside a program | auto-review: the pending PTC call disagrees with its logged action                  |

  @resilient @AR-REVIEW-11 @AR-RES-FAIL-2 @AR-RES-RETRY-1 @AR-RES-HINT-1 @AR-RES-MSG-1
  Scenario Outline: In the resilient profile, a log that breaks a fact about the pending call is a failure the user is asked about, with that fact's message
    Given a session in Auto with approval policy "ask"
    And the session log <log>
    And the reviewer allows with risk "low"
    And the user would answer "allowed-once"
    When the agent calls <call>
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "<message>"
    And the gate asks with 'Auto review of tool "pwsh" failed: <message>'
    And the gate shows the user:
      | en | Auto review could not complete for this call: <message> |
      | zh | Auto review 未能完成对此调用的审查：<message>            |
    And the user is asked and answers "allowed-once"
    And the tool body runs
    And the events are downstream, approval, body
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id       | row   | log                                                                         | call                         | message                                                                             |
      | F-LOG-17 | RS-F1 | holds a PTC start logged while no step was open                             | "pwsh" from inside a program | auto-review: a PTC call has no owning step in the session log                       |
      | F-LOG-18 | RS-F1 | holds two PTC starts with one identity in one step                          | "pwsh" from inside a program | auto-review: a PTC call identity is ambiguous in the session log                    |
      | F-LOG-19 | RS-F1 | has no open step                                                            | "pwsh"                       | auto-review: the pending call has no open step in the session log                   |
      | F-LOG-20 | RS-F1 | does not hold the pending root call exactly once in the open step           | "pwsh"                       | auto-review: the pending root call is missing or ambiguous in the session log       |
      | F-LOG-21 | RS-F1 | does not hold the pending PTC call's start in the open step                 | "pwsh" from inside a program | auto-review: the pending PTC call is missing or ambiguous in the session log        |
      | F-LOG-22 | RS-F1 | shows the pending root call twice in what the agent sees                    | "pwsh"                       | auto-review: the pending root call is ambiguous in the current surface              |
      | F-LOG-23 | RS-F1 | logs a visible call's identity twice                                        | "pwsh"                       | auto-review: a native call identity is ambiguous in the session log                 |
      | F-LOG-24 | RS-F1 | never logged a visible call before the pending root                         | "pwsh"                       | auto-review: a visible call before the pending root is missing from the session log |
      | F-LOG-25 | RS-F1 | holds PTC dispatches of a visible call that never started                   | "pwsh"                       | auto-review: an unstarted visible call has logged PTC dispatches                    |
      | F-LOG-26 | RS-F1 | started a call after an unstarted one in the same message                   | "pwsh"                       | auto-review: visible native call logs do not form a started prefix                  |
      | F-LOG-27 | RS-F1 | names a visible call with another name or other arguments                   | "pwsh"                       | auto-review: a visible tool call disagrees with its logged action                   |
      | F-LOG-28 | RS-F1 | holds the pending root call, but the agent does not see it                  | "pwsh"                       | auto-review: the pending root call is missing from the current surface              |
      | F-LOG-29 | RS-F1 | logged the pending native call with another name or other arguments         | "pwsh"                       | auto-review: the pending native call disagrees with its logged action               |
      | F-LOG-30 | RS-F1 | logged the pending PTC call under another parent or root, name or arguments | "pwsh" from inside a program | auto-review: the pending PTC call disagrees with its logged action                  |

  # --- The order of the checks ------------------------------------------------------------------
  # A call names at most one broken fact, so what can be seen is the order of the log against
  # the route, the working directory and the schema.

  @AR-REVIEW-11 @AR-REVIEW-9
  Scenario Outline: An incomplete route is found before a broken log
    Given a session in Auto with approval policy "ask"
    And the session's latest request header names provider "qodercn" and model ""
    And the session log has no open step
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the review fails with class "route"
    And the review failure reads "auto-review: no complete request-header route is available"

    @baseline
    Examples:
      | id       | row  |
      | F-LOG-31 | BL-1 |

    @resilient
    Examples:
      | id       | row   |
      | F-LOG-32 | RS-F1 |

  @AR-REVIEW-11 @AR-REVIEW-2 @AR-RES-SCHEMA-1
  Scenario Outline: A broken log is found before a missing schema
    Given a session in Auto with approval policy "ask"
    And the tool's schema is "missing"
    And the session log does not hold the pending root call exactly once in the open step
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "auto-review: the pending root call is missing or ambiguous in the session log"

    @baseline
    Examples:
      | id       | row  |
      | F-LOG-33 | BL-1 |

    @resilient
    Examples:
      | id       | row   |
      | F-LOG-34 | RS-F1 |

  @baseline @F-LOG-35 @BL-1 @AR-REVIEW-10 @AR-REVIEW-11
  Scenario: In the baseline, a missing working directory is found before a broken log
    Given a session in Auto with approval policy "ask"
    And the session's header names no working directory
    And the session log has no open step
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "auto-review: the session has no working directory"

  @resilient @F-LOG-36 @RS-F1 @AR-RES-CWD-1 @AR-REVIEW-11
  Scenario: In the resilient profile, a missing working directory is no failure, so the broken log is what fails the review
    Given a session in Auto with approval policy "ask"
    And the session's header names no working directory
    And the session log has no open step
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "auto-review: the pending call has no open step in the session log"

  @resilient @F-LOG-37 @RS-F1 @AR-REVIEW-11 @AR-RES-ROUTE-1
  Scenario: In the resilient profile, a configured reviewer route completes the route, so the broken log is what fails the review
    Given a session in Auto with approval policy "ask"
    And the session's latest request header names provider "qodercn" and model ""
    And the gate is configured with:
      | reviewer_route | strict/json-reviewer |
    And the session log has no open step
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the review fails with class "session"
    And the review failure reads "auto-review: the pending call has no open step in the session log"

  @resilient @F-LOG-38 @AR-REVIEW-11 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-SESSION-3
  Scenario: A log failure counts toward the hint like any other, and the hint names the route a request would have used
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 1 reviewer failure in a row
    And the session log never logged a visible call before the pending root
    And the reviewer allows with risk "low"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the session then counts 2 reviewer failures in a row
    And no hint is shown
    Given the session log never logged a visible call before the pending root
    And the reviewer allows with risk "low"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the session then counts 3 reviewer failures in a row
    And the hint names 3 failures in a row on route "qodercn/qfmodel"
    Given the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review does not fail
    And the session then counts 0 reviewer failures in a row
