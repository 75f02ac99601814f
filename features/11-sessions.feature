Feature: Sessions: calls one after another, and the integration's lifecycle between them
  A call's fate depends on what came before it in its session: how many reviews in a row have
  failed, and the preset and approval policy that selecting Auto and disposing of the integration
  wrote. Here a session is played call by call and event by event: each "When" is the next call
  or lifecycle event, the steps above it describe that call, and the steps below it check what it
  came to. Nothing about the session's state is given between its items; only its state before
  the first one is. Every call and event is decided in order, each after the one before has
  finished or been left pending.

  # --- The failure count, carried from call to call ---------------------------------------------

  @resilient @F-SESS-1 @AR-SESSION-1 @AR-SESSION-3 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-FAIL-2
  Scenario: Each failure adds to the count the call before it left, the hint shows on the third, and a decision sets the count back to 0
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the session then counts 1 reviewer failure in a row
    And no hint is shown
    Given the reviewer replies with text "I'll start by listing the files."
    And the user would answer "rejected"
    When the agent calls "list_agents"
    Then the review fails with class "protocol"
    And the session then counts 2 reviewer failures in a row
    And no hint is shown
    Given the reviewer's request fails with "HTTP_429": "Too Many Requests"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "quota"
    And the session then counts 3 reviewer failures in a row
    And the hint names 3 failures in a row on route "qodercn/qfmodel"
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer ended with error HTTP_429: Too Many Requests
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the user is asked and answers "rejected"
    Given the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review does not fail
    And the session then counts 0 reviewer failures in a row
    And the tool body runs
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    And no hint is shown
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with error TRANSPORT: Connection error'

  @resilient @F-SESS-2 @AR-SESSION-3 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-CONFIG-1
  Scenario: The count starts from the session's own count before its first call, and the hint shows at the configured failure
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 1 reviewer failure in a row
    And the gate is configured with:
      | failure_hint_after | 3 |
    And the reviewer's request fails with "TIMEOUT": "upstream gave up"
    When the agent calls "pwsh"
    Then the session then counts 2 reviewer failures in a row
    And no hint is shown
    Given the reviewer's request fails with "TIMEOUT": "upstream gave up"
    When the agent calls "pwsh"
    Then the session then counts 3 reviewer failures in a row
    And the hint names 3 failures in a row on route "qodercn/qfmodel"
    Given the reviewer's request fails with "TIMEOUT": "upstream gave up"
    When the agent calls "pwsh"
    Then the session then counts 4 reviewer failures in a row
    And the hint names 4 failures in a row on route "qodercn/qfmodel"

  @resilient @F-SESS-3 @AR-SESSION-3 @AR-RES-HINT-1 @AR-SCOPE-1 @AR-SCOPE-2 @AR-CANCEL-1
  Scenario: Calls the gate does not review leave the count as the call before them left it
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the session then counts 1 reviewer failure in a row
    Given the call has no agent
    When the agent calls "list_agents"
    Then the reviewer is not asked
    And the session then counts 1 reviewer failure in a row
    Given the caller cancels before dispatch
    When the agent calls "pwsh"
    Then there are no events
    And the session then counts 1 reviewer failure in a row
    Given the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required"
    When the agent calls "pwsh"
    Then the session then counts 2 reviewer failures in a row

  @resilient @F-SESS-4 @AR-SESSION-3 @AR-RES-HINT-1 @AR-DECIDE-5
  Scenario: A reviewer's denial is a decision too: the call after it starts counting from 0
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the reviewer denies with risk "high"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review does not fail
    And the session then counts 0 reviewer failures in a row
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    And no hint is shown

  @resilient @F-SESS-5 @AR-SESSION-3 @AR-RES-HINT-1 @AR-CANCEL-6
  Scenario: A review the caller's cancellation ended is the gate's own doing: the next failure counts from the count before it
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    Given the caller cancels while the review is in flight
    And the reviewer never answers
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the session then counts 1 reviewer failure in a row
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session then counts 2 reviewer failures in a row

  @baseline @F-SESS-6 @AR-SESSION-3 @AR-PARSE-4 @AR-DECIDE-1
  Scenario: The baseline counts nothing: the third failure in a row reads like the first
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session keeps no count of reviewer failures
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error'
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session keeps no count of reviewer failures
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session keeps no count of reviewer failures
    And no hint is shown
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error'

  # --- One call after another -------------------------------------------------------------------

  @baseline @F-SESS-25 @AR-SESSION-1 @AR-CANCEL-6
  Scenario: A review that never answers holds up the session until the caller cancels the call; the next call is decided after it
    Given a session in Auto
    And the reviewer never answers
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the tool body does not run
    Given the reviewer allows with risk "low"
    When the agent calls "list_agents"
    Then the reviewer is asked once
    And the events are review, downstream, body
    And the tool body runs

  @AR-SESSION-1 @AR-APPROVAL-6 @AR-REVIEW-1 @AR-DECIDE-5 @AR-APPROVAL-3
  Scenario Outline: An answer is for one call: the same call, denied again, is reviewed and asked about again
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "high" and reason "uploads a key"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the user is asked and answers "allowed-once"
    And the tool body runs
    Given the reviewer denies with risk "high" and reason "uploads a key"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the user is asked with reason 'Auto review denied tool "pwsh": uploads a key'
    And the user is asked and answers "rejected"
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'

    @baseline
    Examples:
      | id        |
      | F-SESS-8  |

    @resilient
    Examples:
      | id        |
      | F-SESS-9  |

  # --- The preset and policy a session holds ----------------------------------------------------

  @AR-SESSION-2 @AR-SCOPE-3 @AR-SCOPE-5 @AR-DECIDE-5
  Scenario Outline: Selecting Auto puts a session that was in another mode under review
    Given a session with the permission preset "workspace-write"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the tool body runs
    When the user selects Auto
    Then selecting Auto succeeds
    Given the reviewer denies with risk "high"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the gate asks with 'Auto review denied tool "pwsh"'
    And the user is asked and answers "rejected"

    @baseline
    Examples:
      | id        |
      | F-SESS-10 |

    @resilient
    Examples:
      | id        |
      | F-SESS-11 |

  @AR-SESSION-2 @AR-SCOPE-5 @AR-DECIDE-2 @AR-RES-DECIDE-1 @AR-DECIDE-5
  Scenario Outline: Selecting Auto again in a delegated child's session writes "ask": a denial that was final is then put to the user
    Given a session in Auto with approval policy "never"
    And the reviewer denies with risk "high" and reason "uploads a key"
    When the agent calls "pwsh"
    Then the gate denies with 'Auto review rejected tool "pwsh"; its body was not executed'
    And the approval service is not consulted
    When the user selects Auto
    Then selecting Auto succeeds
    Given the reviewer denies with risk "high" and reason "uploads a key"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh": uploads a key'
    And the user is asked and answers "rejected"

    @baseline
    Examples:
      | id        |
      | F-SESS-12 |

    @resilient
    Examples:
      | id        |
      | F-SESS-13 |

  # --- Disposal, and installing again -----------------------------------------------------------

  @AR-SESSION-2 @AR-DISPOSE-1 @AR-DISPOSE-3 @AR-DISPOSE-4 @AR-MSG-5 @AR-SCOPE-3 @AR-APPROVAL-2
  Scenario Outline: Once disposed of, the integration is gone: the session it moved to Full access runs its calls unreviewed under "never", and Auto cannot be selected
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "high" and reason "uploads a key"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the events are review, downstream, approval, body
    When the integration is disposed of
    Then it reports no error
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream, body
    And the tool body runs
    Given a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the approval service answers "rejected" without asking the user
    And the model sees 'Error: the user rejected tool "pwsh"'
    When the user selects Auto
    Then selecting Auto fails with an error worded by the deployment
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the tool body runs

    @baseline
    Examples:
      | id        |
      | F-SESS-14 |

    @resilient
    Examples:
      | id        |
      | F-SESS-15 |

  @AR-SESSION-2 @AR-DISPOSE-5 @AR-MSG-5 @AR-DISPOSE-3 @AR-APPROVAL-2
  Scenario Outline: Selecting Auto while the integration closes is refused, and the session stays where disposal moved it
    Given a session in Auto with approval policy "ask"
    When the integration is disposed of, and Auto is selected again while it closes
    Then selecting Auto fails with "auto-review: integration is closing"
    Given a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the approval service answers "rejected" without asking the user
    And the tool body does not run

    @baseline
    Examples:
      | id        |
      | F-SESS-16 |

    @resilient
    Examples:
      | id        |
      | F-SESS-17 |

  @AR-SESSION-2 @AR-INSTALL-1 @AR-DISPOSE-4 @AR-SCOPE-5 @AR-APPROVAL-2
  Scenario Outline: Installing the integration again does not move back a session disposal moved; selecting Auto does
    Given a session in Auto with approval policy "ask"
    When the integration is disposed of
    And the integration is installed again
    Then it reports no error
    Given a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the approval service answers "rejected" without asking the user
    When the user selects Auto
    Then selecting Auto succeeds
    Given the reviewer denies with risk "high"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the user is asked and answers "allowed-once"
    And the tool body runs

    @baseline
    Examples:
      | id        |
      | F-SESS-18 |

    @resilient
    Examples:
      | id        |
      | F-SESS-19 |

  @AR-SESSION-2 @AR-DISPOSE-4 @AR-INSTALL-1 @AR-DISPOSE-1 @AR-MSG-5
  Scenario Outline: A session disposal did not move keeps Auto: its calls pass through while the integration is gone, and are reviewed once it is installed again
    Given a session in Auto with approval policy "ask"
    And the session is not in the session list
    When the integration is disposed of
    Then it reports no error
    Given a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the user is asked and answers "allowed-once"
    And the tool body runs
    When the user selects Auto
    Then selecting Auto fails with an error worded by the deployment
    When the integration is installed again
    Then it reports no error
    Given the reviewer denies with risk "high"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the gate asks with 'Auto review denied tool "pwsh"'
    And the user is asked and answers "rejected"

    @baseline
    Examples:
      | id        |
      | F-SESS-20 |

    @resilient
    Examples:
      | id        |
      | F-SESS-21 |

  @AR-SESSION-2 @AR-CANCEL-3 @AR-DISPOSE-4 @AR-INSTALL-1
  Scenario Outline: A call during which the integration is disposed of leaves it disposed of for the items after it
    Given a session in Auto with approval policy "ask"
    And the integration is disposed while the review is in flight
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the gate cancels
    And the model sees "Error: tool call aborted before dispatch"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the tool body runs
    When the user selects Auto
    Then selecting Auto fails with an error worded by the deployment
    When the integration is installed again
    And the user selects Auto
    Then selecting Auto succeeds
    Given the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the tool body runs

    @baseline
    Examples:
      | id        |
      | F-SESS-22 |

    @resilient
    Examples:
      | id        |
      | F-SESS-23 |

  @resilient @F-SESS-24 @AR-RES-HINT-4 @AR-INSTALL-1 @AR-SESSION-3 @AR-RES-HINT-1
  Scenario: Disposal forgets the count: the integration installed again counts the session from 0
    Given a session in Auto
    And the session is not in the session list
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session then counts 2 reviewer failures in a row
    When the integration is disposed of
    And the integration is installed again
    Given the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    And no hint is shown
