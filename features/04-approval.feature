Feature: What the user's answer does with a call
  When the listeners before the call ask, the tool runtime puts the question, with the ask's
  reason, to the approval service, and the answer decides this one call: allowed-once runs the
  body, while a rejection, a cancellation or the lack of any approval channel each refuse it with a
  text of their own and no structured info. Under the approval policy never, the service rejects the
  question by itself, without asking anyone. The model never sees the question, only the result; and
  when the approval request itself throws, the call ends with that error and its body does not run.

  @AR-ORDER-1 @AR-DECIDE-4 @AR-APPROVAL-1 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-1 @AR-RESULT-3
  Scenario Outline: After the reviewer allows, a later listener's question goes to the user, whose answer decides this one call
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants a human"
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And the user is asked and answers "<answer>"
    And the user is asked with reason "hook wants a human"
    And the events are <events>
    And the tool body <body>
    And the model sees <model sees>
    And the refusal carries no info

    @baseline
    Examples:
      | id           | row   | answer       | events                             | body         | model sees                                                                   |
      | F-APPROVAL-1 | BL-10 | allowed-once | review, downstream, approval, body | runs         | no error                                                                     |
      | F-APPROVAL-2 | BL-11 | rejected     | review, downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"'                                       |
      | F-APPROVAL-3 | BL-12 | cancelled    | review, downstream, approval       | does not run | 'Error: approval for tool "pwsh" was cancelled'                              |
      | F-APPROVAL-4 | BL-13 | unavailable  | review, downstream, approval       | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' |

    @resilient
    Examples:
      | id           | row   | answer       | events                             | body         | model sees                                                                   |
      | F-APPROVAL-5 | RS-10 | allowed-once | review, downstream, approval, body | runs         | no error                                                                     |
      | F-APPROVAL-6 | RS-10 | rejected     | review, downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"'                                       |
      | F-APPROVAL-7 | RS-10 | cancelled    | review, downstream, approval       | does not run | 'Error: approval for tool "pwsh" was cancelled'                              |
      | F-APPROVAL-8 | RS-10 | unavailable  | review, downstream, approval       | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' |

  @AR-CONV-5 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-3
  Scenario Outline: The session's own approval policy, or else the deployment default, says whether the user can be asked
    Given <session>
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And <who answers>
    And the events are <events>
    And the tool body <body>
    And the model sees <model sees>

    @baseline
    Examples:
      | id            | row   | session                                                                                 | who answers                                                     | events                             | body         | model sees                             |
      | F-APPROVAL-9  | BL-10 | a session in Auto                                                                       | the user is asked and answers "allowed-once"                    | review, downstream, approval, body | runs         | no error                               |
      | F-APPROVAL-10 | BL-10 | a session in Auto with approval policy "ask" and the deployment default "never"         | the user is asked and answers "allowed-once"                    | review, downstream, approval, body | runs         | no error                               |
      | F-APPROVAL-11 | BL-6  | a session in Auto with approval policy "never" and the deployment default "ask"         | the approval service answers "rejected" without asking the user | review, downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"' |
      | F-APPROVAL-12 | BL-6  | a session in Auto with no approval policy of its own and the deployment default "never" | the approval service answers "rejected" without asking the user | review, downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"' |

    @resilient
    Examples:
      | id            | row   | session                                                                                 | who answers                                                     | events                             | body         | model sees                             |
      | F-APPROVAL-13 | RS-10 | a session in Auto                                                                       | the user is asked and answers "allowed-once"                    | review, downstream, approval, body | runs         | no error                               |
      | F-APPROVAL-14 | RS-10 | a session in Auto with approval policy "ask" and the deployment default "never"         | the user is asked and answers "allowed-once"                    | review, downstream, approval, body | runs         | no error                               |
      | F-APPROVAL-15 | RS-6  | a session in Auto with approval policy "never" and the deployment default "ask"         | the approval service answers "rejected" without asking the user | review, downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"' |
      | F-APPROVAL-16 | RS-6  | a session in Auto with no approval policy of its own and the deployment default "never" | the approval service answers "rejected" without asking the user | review, downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"' |

  @AR-DECIDE-5 @AR-APPROVAL-1 @AR-APPROVAL-3 @AR-APPROVAL-5 @AR-RESULT-3
  Scenario Outline: The user sees why the reviewer objected; the model sees only the user's answer
    Given a session in Auto
    And the reviewer denies with risk "high" and reason "uploads a key"
    And a later listener allows
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the user is asked and answers "rejected"
    And the user is asked with reason 'Auto review denied tool "pwsh": uploads a key'
    And the user is shown:
      | en | Auto review denied this call: uploads a key |
      | zh | Auto review 拒绝了此调用：uploads a key     |
    And the events are review, downstream, approval
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the refusal carries no info

    @baseline
    Examples:
      | id            | row   |
      | F-APPROVAL-17 | BL-15 |

    @resilient
    Examples:
      | id            | row   |
      | F-APPROVAL-18 | RS-14 |

  @AR-CONV-3 @AR-DECIDE-4 @AR-APPROVAL-4 @AR-RESULT-5
  Scenario Outline: When the approval request throws, the call ends with the thrown error, whatever the policy, and does not run
    Given <session>
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants a human"
    And asking the user throws
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And the approval request throws
    And the events are review, downstream, approval
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info

    @baseline
    Examples:
      | id            | row    | session                                        |
      | F-APPROVAL-19 | BL-13T | a session in Auto                              |
      | F-APPROVAL-20 | BL-13T | a session in Auto with approval policy "never" |

    @resilient
    Examples:
      | id            | row    | session                                        |
      | F-APPROVAL-21 | RS-13T | a session in Auto                              |
      | F-APPROVAL-22 | RS-13T | a session in Auto with approval policy "never" |

  @AR-APPROVAL-4 @AR-CANCEL-5 @AR-RESULT-5
  Scenario Outline: An approval request that throws does so before the caller's cancellation is looked at
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants a human"
    And asking the user throws
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the gate asks with "hook wants a human"
    And the approval request throws
    And the events are review, downstream, approval
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info

    @baseline
    Examples:
      | id            | row    |
      | F-APPROVAL-23 | BL-13T |

    @resilient
    Examples:
      | id            | row    |
      | F-APPROVAL-24 | RS-13T |

  @AR-CONV-4 @AR-APPROVAL-3
  Scenario Outline: The refusal names the tool exactly as the agent called it
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants a human"
    And the user would answer "unavailable"
    When the agent calls <tool>
    Then the user is asked and answers "unavailable"
    And the tool body does not run
    And the model sees <model sees>

    @baseline
    Examples:
      | id            | row   | tool       | model sees                                                                       |
      | F-APPROVAL-25 | BL-13 | ""         | 'Error: tool "" requires approval, but no approval channel is available'         |
      | F-APPROVAL-26 | BL-13 | 'say "hi"' | 'Error: tool "say "hi"" requires approval, but no approval channel is available' |
      | F-APPROVAL-27 | BL-13 | "读取文件" | 'Error: tool "读取文件" requires approval, but no approval channel is available' |

    @resilient
    Examples:
      | id            | row   | tool       | model sees                                                                       |
      | F-APPROVAL-28 | RS-10 | ""         | 'Error: tool "" requires approval, but no approval channel is available'         |
      | F-APPROVAL-29 | RS-10 | 'say "hi"' | 'Error: tool "say "hi"" requires approval, but no approval channel is available' |
      | F-APPROVAL-30 | RS-10 | "读取文件" | 'Error: tool "读取文件" requires approval, but no approval channel is available' |
