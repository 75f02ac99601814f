Feature: The caller's and the integration's signals
  Two signals can end a call early: the caller's, when the user stops the turn, and the
  integration's, when it is being disposed. Once a call has been admitted, disposing of the
  integration before the gate has decided turns the call into a cancellation, whatever the reviewer
  or the later listeners said; a decision the gate reached before that stands. The caller's signal
  lets the review and the gate finish, and the tool runtime then refuses whatever would still run or
  ask: a refusal stays that refusal, and everything else becomes the cancellation before dispatch.
  No cancelled call ever runs its body.

  @AR-CANCEL-3 @AR-CANCEL-7 @AR-RESULT-4
  Scenario Outline: Disposing of the integration while the review is in flight cancels the call, whatever the reviewer then says
    Given a session in Auto
    And the reviewer <reviewer>
    And a later listener allows
    And the user would answer "allowed-once"
    And the integration is disposed while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review does not fail
    And the events are review
    And the gate cancels
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id         | row   | reviewer                                           |
      | F-CANCEL-1 | BL-22 | allows with risk "low"                             |
      | F-CANCEL-2 | BL-22 | denies with risk "medium"                          |
      | F-CANCEL-3 | BL-22 | denies with risk "high" and reason "uploads a key" |

    @resilient
    Examples:
      | id         | row   | reviewer                                           |
      | F-CANCEL-4 | RS-22 | allows with risk "low"                             |
      | F-CANCEL-5 | RS-22 | denies with risk "medium"                          |
      | F-CANCEL-6 | RS-22 | denies with risk "high" and reason "uploads a key" |

  @AR-CANCEL-3 @AR-CANCEL-7 @AR-RESULT-4
  Scenario Outline: Disposing of the integration during a review that fails cancels the call instead of failing it
    Given a session in Auto with approval policy "never"
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And the integration is disposed while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review fails with class "transport"
    And the review failure reads "auto-review: reviewer ended with error TRANSPORT: Connection error"
    And the events are review
    And the gate cancels
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id         | row    |
      | F-CANCEL-7 | BL-22F |

    @resilient
    Examples:
      | id         | row   |
      | F-CANCEL-8 | RS-22 |

  @AR-CANCEL-3 @AR-RESULT-4
  Scenario Outline: Disposing of the integration as a review without a schema ends cancels the call instead of failing it
    Given a session in Auto
    And the tool's schema is "missing"
    And the reviewer allows with risk "low"
    And the integration is disposed while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the review fails with class "schema"
    And the review failure reads "auto-review: the pending native tool schema is missing or ambiguous"
    And there are no events
    And the gate cancels
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"

    @baseline
    Examples:
      | id         | row    |
      | F-CANCEL-9 | BL-22F |

    @resilient
    Examples:
      | id          | row   |
      | F-CANCEL-10 | RS-22 |

  @AR-CANCEL-3 @AR-CANCEL-6 @AR-RESULT-4
  Scenario Outline: Disposing of the integration ends a review that would never finish, and the call is cancelled
    Given a session in Auto
    And the reviewer never answers
    And the integration is disposed while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review fails with class "aborted"
    And the events are review
    And the gate cancels
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id          | row    |
      | F-CANCEL-11 | BL-22F |

    @resilient
    Examples:
      | id          | row   |
      | F-CANCEL-12 | RS-22 |

  @resilient @AR-CANCEL-6 @AR-RES-HINT-1
  Scenario Outline: A review that a signal ended is not counted as a reviewer failure
    Given a session in Auto
    And the session has had 2 reviewer failures in a row
    And the reviewer never answers
    And the user would answer "allowed-once"
    And <signal>
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the session then counts 2 reviewer failures in a row

    Examples:
      | id          | row   | signal                                                    |
      | F-CANCEL-13 | RS-22 | the integration is disposed while the review is in flight |
      | F-CANCEL-14 | RS-F6 | the caller cancels while the review is in flight          |

  @AR-ADMIT-3 @AR-CANCEL-4 @AR-CANCEL-7 @AR-RESULT-4
  Scenario Outline: Disposing of the integration while a later listener is consulted cancels the call, whatever the listener answers
    Given a session in Auto
    And the reviewer <reviewer>
    And <later listener>
    And the user would answer "allowed-once"
    And the integration is disposed while a later listener is consulted
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the events are review, downstream
    And the gate cancels
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id          | row    | reviewer                                           | later listener                                  |
      | F-CANCEL-15 | BL-23  | allows with risk "low"                             | a later listener allows                         |
      | F-CANCEL-16 | BL-23  | allows with risk "low"                             | a later listener denies with "blocked by hook"  |
      | F-CANCEL-17 | BL-23  | allows with risk "low"                             | a later listener cancels                        |
      | F-CANCEL-18 | BL-23  | allows with risk "low"                             | a later listener asks with "hook wants a human" |
      | F-CANCEL-19 | BL-23D | denies with risk "medium"                          | a later listener allows                         |
      | F-CANCEL-20 | BL-23D | denies with risk "high" and reason "uploads a key" | a later listener denies with "blocked by hook"  |
      | F-CANCEL-21 | BL-23D | denies with risk "high" and reason "uploads a key" | a later listener asks with "hook wants a human" |

    @resilient
    Examples:
      | id          | row    | reviewer                                           | later listener                                  |
      | F-CANCEL-22 | RS-23  | allows with risk "low"                             | a later listener allows                         |
      | F-CANCEL-23 | RS-23  | allows with risk "low"                             | a later listener denies with "blocked by hook"  |
      | F-CANCEL-24 | RS-23  | allows with risk "low"                             | a later listener cancels                        |
      | F-CANCEL-25 | RS-23  | allows with risk "low"                             | a later listener asks with "hook wants a human" |
      | F-CANCEL-26 | RS-23D | denies with risk "medium"                          | a later listener allows                         |
      | F-CANCEL-27 | RS-23D | denies with risk "high" and reason "uploads a key" | a later listener denies with "blocked by hook"  |
      | F-CANCEL-28 | RS-23D | denies with risk "high" and reason "uploads a key" | a later listener asks with "hook wants a human" |

  @AR-CANCEL-4 @AR-CANCEL-5 @AR-DECIDE-2 @AR-RESULT-2 @AR-RESULT-6
  Scenario Outline: A final denial the gate reached before the later listeners stands, whichever signal follows
    Given a session in Auto with approval policy "never"
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener allows
    And <signal>
    When the agent calls "pwsh"
    Then the events are review
    And the gate denies with 'Auto review rejected tool "pwsh"; its body was not executed'
    And the approval service is not consulted
    And the tool body does not run
    And the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed'
    And the refusal carries the info:
      """
      {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED","reason":"uploads a key"}
      """

    @baseline
    Examples:
      | id          | row  | signal                                                          |
      | F-CANCEL-29 | BL-2 | the integration is disposed while a later listener is consulted |
      | F-CANCEL-30 | BL-2 | the caller cancels while the review is in flight                |

    @resilient
    Examples:
      | id          | row  | signal                                                          |
      | F-CANCEL-31 | RS-2 | the integration is disposed while a later listener is consulted |
      | F-CANCEL-32 | RS-2 | the caller cancels while the review is in flight                |

  @baseline @BL-1 @F-CANCEL-33 @AR-CANCEL-4 @AR-DECIDE-1 @AR-RESULT-2
  Scenario: A reviewer failure the gate denied before the later listeners stands when the integration is disposed afterwards
    Given a session in Auto
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And a later listener allows
    And the integration is disposed while a later listener is consulted
    When the agent calls "pwsh"
    Then the events are review
    And the gate denies with 'Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error'
    And the approval service is not consulted
    And the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error'
    And the refusal carries no info

  @AR-CANCEL-5 @AR-CANCEL-7 @AR-RESULT-1 @AR-RESULT-4
  Scenario Outline: When the caller cancels during the review, an allowed call is cancelled before its body runs
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener allows
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review does not fail
    And the events are review, downstream
    And the gate allows
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id          | row   |
      | F-CANCEL-34 | BL-C1 |

    @resilient
    Examples:
      | id          | row   |
      | F-CANCEL-35 | RS-C1 |

  @AR-CANCEL-5 @AR-CANCEL-7 @AR-RESULT-2
  Scenario Outline: When the caller cancels during the review, a later listener's denial still reaches the model
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener denies with "blocked by hook"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the events are review, downstream
    And the gate denies with "blocked by hook"
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: blocked by hook"
    And the refusal carries no info

    @baseline
    Examples:
      | id          | row  |
      | F-CANCEL-36 | BL-8 |

    @resilient
    Examples:
      | id          | row  |
      | F-CANCEL-37 | RS-8 |

  @AR-CANCEL-5 @AR-CANCEL-7 @AR-APPROVAL-2 @AR-RESULT-3 @AR-RESULT-4
  Scenario Outline: When the caller cancels during the review, a question is cancelled without asking the user
    Given a session in Auto
    And the reviewer <reviewer>
    And <later listener>
    And the user would answer "allowed-once"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the gate asks with <question>
    And the events are review, downstream, approval
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id          | row   | reviewer                  | later listener                                  | question                         |
      | F-CANCEL-38 | BL-C2 | allows with risk "low"    | a later listener asks with "hook wants a human" | "hook wants a human"             |
      | F-CANCEL-39 | BL-C3 | denies with risk "medium" | a later listener allows                         | 'Auto review denied tool "pwsh"' |
      | F-CANCEL-40 | BL-C4 | denies with risk "medium" | a later listener asks with "hook wants a human" | "hook wants a human"             |

    @resilient
    Examples:
      | id          | row   | reviewer                  | later listener                                  | question                                                                         |
      | F-CANCEL-41 | RS-C2 | allows with risk "low"    | a later listener asks with "hook wants a human" | "hook wants a human"                                                             |
      | F-CANCEL-42 | RS-C3 | denies with risk "medium" | a later listener allows                         | 'Auto review denied tool "pwsh"'                                                 |
      | F-CANCEL-43 | RS-C4 | denies with risk "medium" | a later listener asks with "hook wants a human" | 'Auto review denied tool "pwsh"; a later listener also asks: hook wants a human' |

  @AR-CANCEL-5 @AR-APPROVAL-2
  Scenario Outline: When the caller cancels during the review, the gate's question with the reviewer's reason is cancelled before it reaches the user
    Given a session in Auto
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener allows
    And the user would answer "allowed-once"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh": uploads a key'
    And the gate shows the user:
      | en | Auto review denied this call: uploads a key |
      | zh | Auto review 拒绝了此调用：uploads a key     |
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"

    @baseline
    Examples:
      | id          | row   |
      | F-CANCEL-44 | BL-C3 |

    @resilient
    Examples:
      | id          | row   |
      | F-CANCEL-45 | RS-C3 |

  @resilient @RS-C4 @F-CANCEL-46 @AR-CANCEL-5 @AR-APPROVAL-2 @AR-RES-ASK-1
  Scenario: When the caller cancels during the review, the combined question of the reviewer and a later listener is cancelled without asking the user
    Given a session in Auto
    And the reviewer denies with risk "medium"
    And a later listener asks with "hook wants a human"
    And the user would answer "rejected"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh"; a later listener also asks: hook wants a human'
    And the gate shows the user:
      | en | Auto review denied this call.\nA later check also asks: hook wants a human |
      | zh | Auto review 拒绝了此调用。\n后续检查也请求确认：hook wants a human         |
    And the events are review, downstream, approval
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"

  @baseline @BL-1 @F-CANCEL-47 @AR-CANCEL-5 @AR-CANCEL-6 @AR-DECIDE-1 @AR-RESULT-2
  Scenario: When the caller cancels a review that would never finish, the review fails and the call is refused as a failure
    Given a session in Auto
    And the reviewer never answers
    And a later listener allows
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review fails with class "aborted"
    And the events are review
    And the gate denies with text starting with 'Auto review of tool "pwsh" failed; its body was not executed: '
    And the approval service is not consulted
    And the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: '
    And the refusal carries no info
    And the session keeps no count of reviewer failures

  @resilient @RS-F6 @F-CANCEL-48 @AR-CANCEL-5 @AR-CANCEL-6 @AR-RES-FAIL-2
  Scenario: When the caller cancels a review that would never finish, the question about the failure is cancelled without asking the user
    Given a session in Auto
    And the reviewer never answers
    And a later listener allows
    And the user would answer "allowed-once"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review fails with class "aborted"
    And the events are review, downstream, approval
    And the gate asks with text starting with 'Auto review of tool "pwsh" failed: '
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """
