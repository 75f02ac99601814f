Feature: A reviewer's denial, by approval policy
  When the reviewer denies a call, the session's approval policy decides what the denial means.
  Under "never" the denial is final: the tool body does not run and nobody is asked. Under "ask"
  the gate first lets the listeners after it have their say; if they allow, the user is asked, is
  told that Auto review denied the call and why, and their answer decides. The baseline reads only
  the policy the session recorded itself, so a deployment default of "never" still leads to a
  question (which the approval service then rejects); the resilient profile reads the effective
  policy, and a later listener's question is merged with the reviewer's objection.

  # --- Final denial ---------------------------------------------------------------------------

  @baseline @AR-DECIDE-2 @AR-RESULT-2 @AR-RESULT-6 @AR-REVIEW-8 @AR-MSG-1 @AR-MSG-4
  Scenario Outline: Under the session's own policy "never", a reviewer's denial is final
    Given a session in Auto with approval policy "never" and the deployment default "<default>"
    And <reviewer>
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the gate denies with 'Auto review rejected tool "pwsh"; its body was not executed'
    And the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed'
    And the refusal carries the info:
      """
      <info>
      """
    And the review does not fail
    And the reviewer is asked once
    And the events are review
    And the approval service is not consulted
    And the session keeps no count of reviewer failures

    Examples:
      | id       | row  | default | reviewer                                                        | info                                                                                  |
      | F-DENY-1 | BL-2 | ask     | the reviewer denies with risk "high" and reason "uploads a key" | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED","reason":"uploads a key"} |
      | F-DENY-2 | BL-2 | never   | the reviewer denies with risk "medium"                          | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED"}                          |

  @resilient @AR-RES-DECIDE-1 @AR-DECIDE-2 @AR-RESULT-2 @AR-RESULT-6 @AR-RES-PROFILE-1 @AR-MSG-4
  Scenario Outline: Under the effective policy "never", wherever it comes from, a reviewer's denial is final
    Given <session>
    And <reviewer>
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the gate denies with 'Auto review rejected tool "pwsh"; its body was not executed'
    And the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed'
    And the refusal carries the info:
      """
      <info>
      """
    And the review does not fail
    And the reviewer is asked once
    And the events are review
    And the approval service is not consulted
    And the session then counts 0 reviewer failures in a row

    Examples:
      | id       | row  | session                                                                                 | reviewer                                                        | info                                                                                  |
      | F-DENY-3 | RS-2 | a session in Auto with no approval policy of its own and the deployment default "never" | the reviewer denies with risk "high" and reason "uploads a key" | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED","reason":"uploads a key"} |
      | F-DENY-4 | RS-2 | a session in Auto with approval policy "never"                                          | the reviewer denies with risk "medium"                          | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED"}                          |

  # --- The user decides ----------------------------------------------------------------------

  @AR-DECIDE-3 @AR-DECIDE-5 @AR-ORDER-1 @AR-ORDER-2 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-1 @AR-RESULT-3 @AR-REVIEW-8 @AR-MSG-1
  Scenario Outline: Under "ask", a reviewer's denial that the later listeners allow goes to the user, whose answer decides
    Given <session>
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener allows
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh": uploads a key'
    And the gate shows the user:
      | en | Auto review denied this call: uploads a key |
      | zh | Auto review 拒绝了此调用：uploads a key     |
    And the user is asked with reason 'Auto review denied tool "pwsh": uploads a key'
    And the user is shown:
      | en | Auto review denied this call: uploads a key |
      | zh | Auto review 拒绝了此调用：uploads a key     |
    And the user is asked and answers "<answer>"
    And the tool body <body>
    And the model sees <model sees>
    And the refusal carries no info
    And the events are <events>
    And the reviewer is asked once

    @baseline
    Examples: The baseline
      | id       | row   | session                                      | answer       | body         | model sees                                                                   | events                             |
      | F-DENY-5 | BL-14 | a session in Auto with approval policy "ask" | allowed-once | runs         | no error                                                                     | review, downstream, approval, body |
      | F-DENY-6 | BL-15 | a session in Auto with approval policy "ask" | rejected     | does not run | 'Error: the user rejected tool "pwsh"'                                       | review, downstream, approval       |
      | F-DENY-7 | BL-16 | a session in Auto                            | cancelled    | does not run | 'Error: approval for tool "pwsh" was cancelled'                              | review, downstream, approval       |
      | F-DENY-8 | BL-17 | a session in Auto                            | unavailable  | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' | review, downstream, approval       |

    @resilient
    Examples: The resilient profile
      | id        | row   | session                                                                         | answer       | body         | model sees                                                                   | events                             |
      | F-DENY-9  | RS-14 | a session in Auto with approval policy "ask"                                    | allowed-once | runs         | no error                                                                     | review, downstream, approval, body |
      | F-DENY-10 | RS-14 | a session in Auto with approval policy "ask" and the deployment default "never" | rejected     | does not run | 'Error: the user rejected tool "pwsh"'                                       | review, downstream, approval       |
      | F-DENY-11 | RS-14 | a session in Auto                                                               | cancelled    | does not run | 'Error: approval for tool "pwsh" was cancelled'                              | review, downstream, approval       |
      | F-DENY-12 | RS-14 | a session in Auto                                                               | unavailable  | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' | review, downstream, approval       |

  @AR-DECIDE-5 @AR-APPROVAL-3 @AR-MSG-1
  Scenario Outline: A denial without a reason asks the user in plain words
    Given a session in Auto
    And the reviewer denies with risk "medium"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh"'
    And the gate shows the user:
      | en | Auto review denied this call. |
      | zh | Auto review 拒绝了此调用。    |
    And the user is asked with reason 'Auto review denied tool "pwsh"'
    And the user is asked and answers "rejected"
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the refusal carries no info

    @baseline
    Examples: The baseline
      | id        | row   |
      | F-DENY-13 | BL-15 |

    @resilient
    Examples: The resilient profile
      | id        | row   |
      | F-DENY-14 | RS-14 |

  @AR-DECIDE-5 @AR-APPROVAL-4 @AR-RESULT-5 @AR-MSG-1 @AR-MSG-3
  Scenario Outline: When asking the user throws after a denial, the call ends with the thrown error
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "medium"
    And a later listener allows
    And asking the user throws
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh"'
    And the user is asked with reason 'Auto review denied tool "pwsh"'
    And the approval request throws
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info
    And the events are review, downstream, approval

    @baseline
    Examples: The baseline
      | id        | row   |
      | F-DENY-15 | BL-18 |

    @resilient
    Examples: The resilient profile
      | id        | row   |
      | F-DENY-16 | RS-18 |

  # --- The later listeners come first --------------------------------------------------------

  @AR-DECIDE-3 @AR-DECIDE-5 @AR-ORDER-2 @AR-RESULT-2
  Scenario Outline: A later listener's denial wins over the reviewer's, and nobody is asked
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener denies with "blocked by hook" and the info:
      """
      {"name":"HookDenied","code":"HOOK_DENIED"}
      """
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate denies with "blocked by hook"
    And the tool body does not run
    And the model sees "Error: blocked by hook"
    And the refusal carries the info:
      """
      {"name":"HookDenied","code":"HOOK_DENIED"}
      """
    And the approval service is not consulted
    And the events are review, downstream

    @baseline
    Examples: The baseline
      | id        | row   |
      | F-DENY-17 | BL-19 |

    @resilient
    Examples: The resilient profile
      | id        | row   |
      | F-DENY-18 | RS-19 |

  @AR-DECIDE-3 @AR-DECIDE-5 @AR-ORDER-2 @AR-RESULT-4
  Scenario Outline: A later listener's cancellation wins over the reviewer's denial, and nobody is asked
    Given a session in Auto
    And the reviewer denies with risk "medium"
    And a later listener cancels
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate cancels
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """
    And the approval service is not consulted
    And the events are review, downstream

    @baseline
    Examples: The baseline
      | id        | row   |
      | F-DENY-19 | BL-20 |

    @resilient
    Examples: The resilient profile
      | id        | row   |
      | F-DENY-20 | RS-20 |

  @baseline @AR-DECIDE-5 @AR-APPROVAL-3
  Scenario Outline: In the baseline, when a later listener asks too, its question goes to the user as is, without the reviewer's objection
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener asks with "hook wants a human"
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And the user is asked with reason "hook wants a human"
    And the user is asked and answers "<answer>"
    And the tool body <body>
    And the model sees <model sees>
    And the events are <events>

    Examples:
      | id        | row   | answer       | body         | model sees                             | events                             |
      | F-DENY-21 | BL-21 | allowed-once | runs         | no error                               | review, downstream, approval, body |
      | F-DENY-22 | BL-21 | rejected     | does not run | 'Error: the user rejected tool "pwsh"' | review, downstream, approval       |

  @resilient @AR-RES-ASK-1 @AR-RES-PROFILE-1 @AR-DECIDE-5 @AR-APPROVAL-3 @AR-RES-MSG-1
  Scenario Outline: In the resilient profile, when a later listener asks too, one question carries the reviewer's objection and the listener's reason
    Given a session in Auto with approval policy "ask"
    And <reviewer>
    And a later listener asks with "hook wants a human"
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the gate asks with '<asks>'
    And the gate shows the user:
      | en | <en> |
      | zh | <zh> |
    And the user is asked with reason '<asks>'
    And the user is shown:
      | en | <en> |
      | zh | <zh> |
    And the user is asked and answers "<answer>"
    And the tool body <body>
    And the model sees <model sees>
    And the events are <events>

    Examples:
      | id        | row   | reviewer                                                        | answer       | asks                                                                                          | en                                                                                       | zh                                                                              | body         | model sees                             | events                             |
      | F-DENY-23 | RS-21 | the reviewer denies with risk "high" and reason "uploads a key" | rejected     | Auto review denied tool "pwsh": uploads a key; a later listener also asks: hook wants a human | Auto review denied this call: uploads a key\nA later check also asks: hook wants a human | Auto review 拒绝了此调用：uploads a key\n后续检查也请求确认：hook wants a human | does not run | 'Error: the user rejected tool "pwsh"' | review, downstream, approval       |
      | F-DENY-24 | RS-21 | the reviewer denies with risk "medium"                          | allowed-once | Auto review denied tool "pwsh"; a later listener also asks: hook wants a human                | Auto review denied this call.\nA later check also asks: hook wants a human               | Auto review 拒绝了此调用。\n后续检查也请求确认：hook wants a human              | runs         | no error                               | review, downstream, approval, body |

  @baseline @F-DENY-25 @BL-21T @AR-DECIDE-5 @AR-APPROVAL-4
  Scenario: In the baseline, when a later listener asks and asking the user throws, the call ends with the thrown error
    Given a session in Auto
    And the reviewer denies with risk "medium"
    And a later listener asks with "hook wants a human"
    And asking the user throws
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And the approval request throws
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info
    And the events are review, downstream, approval

  @resilient @F-DENY-26 @RS-21T @AR-RES-ASK-1 @AR-APPROVAL-4
  Scenario: In the resilient profile, when a later listener asks and asking the user throws, the call ends with the thrown error
    Given a session in Auto
    And the reviewer denies with risk "medium"
    And a later listener asks with "hook wants a human"
    And asking the user throws
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh"; a later listener also asks: hook wants a human'
    And the gate shows the user:
      | en | Auto review denied this call.\nA later check also asks: hook wants a human |
      | zh | Auto review 拒绝了此调用。\n后续检查也请求确认：hook wants a human         |
    And the approval request throws
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info
    And the events are review, downstream, approval

  # --- The baseline reads the session's own policy -------------------------------------------

  @baseline @F-DENY-27 @BL-24 @AR-DECIDE-6 @AR-DECIDE-5 @AR-CONV-5 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-3
  Scenario: In the baseline, a denial under the deployment default "never" asks anyway, and the approval service rejects it without asking the user
    Given a session in Auto with no approval policy of its own and the deployment default "never"
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener allows
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review denied tool "pwsh": uploads a key'
    And the gate shows the user:
      | en | Auto review denied this call: uploads a key |
      | zh | Auto review 拒绝了此调用：uploads a key     |
    And the approval service answers "rejected" without asking the user
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the refusal carries no info
    And the events are review, downstream, approval

  @baseline @F-DENY-28 @BL-21N @AR-DECIDE-6 @AR-DECIDE-5 @AR-APPROVAL-2
  Scenario: In the baseline, a denial under the deployment default "never" with a later listener asking: the listener's question is rejected without asking the user
    Given a session in Auto with no approval policy of its own and the deployment default "never"
    And the reviewer denies with risk "medium"
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And the approval service answers "rejected" without asking the user
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the refusal carries no info
    And the events are review, downstream, approval
