Feature: Which calls the gate reviews, and which it refuses before any review
  The gate reviews every call an agent makes in a session whose permission preset is Auto,
  including each call a program makes from inside run_code; it tells calls apart by their kind,
  never by their name. A call without an agent, the outer run_code call that starts a program, and
  every call in a session with another preset pass through unreviewed: the listeners after the gate
  and the user decide them as if the gate were not there. A call the gate would review is cancelled
  at once, unreviewed, when the integration is closing, and a call whose caller has already
  cancelled never reaches the gate at all.

  @AR-CONV-2 @AR-SCOPE-1 @AR-SCOPE-4 @AR-RESULT-1
  Scenario Outline: A call without an agent is not reviewed and runs when the later listeners allow
    Given a session in Auto
    And the call has no agent
    And the reviewer denies with risk "high"
    And a later listener allows
    When the agent calls "list_agents"
    Then the reviewer is not asked
    And the events are downstream, body
    And the gate allows
    And the approval service is not consulted
    And the tool body runs
    And the model sees no error

    @baseline
    Examples:
      | id        | row   |
      | F-SCOPE-1 | BL-P1 |

    @resilient
    Examples:
      | id        | row   |
      | F-SCOPE-2 | RS-P1 |

  @AR-CONV-2 @AR-CONV-4 @AR-SCOPE-2 @AR-SCOPE-4 @AR-RESULT-1
  Scenario Outline: The outer run_code call that starts a program is not reviewed
    Given a session in Auto
    And the reviewer denies with risk "high"
    And a later listener allows
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the events are downstream, body
    And the gate allows
    And the approval service is not consulted
    And the tool body runs
    And the model sees no error

    @baseline
    Examples:
      | id        | row   |
      | F-SCOPE-3 | BL-P2 |

    @resilient
    Examples:
      | id        | row   |
      | F-SCOPE-4 | RS-P2 |

  @AR-CONV-4 @AR-SCOPE-2 @AR-SCOPE-5 @AR-DECIDE-2 @AR-RESULT-2 @AR-RESULT-6
  Scenario Outline: Native calls and calls from inside a program are reviewed, even in a delegated child's session
    Given a session in Auto with approval policy "never"
    And the reviewer denies with risk "high" and reason "uploads a key"
    When <call>
    Then the reviewer is asked once
    And the events are review
    And the gate denies with 'Auto review rejected tool "<name>"; its body was not executed'
    And the approval service is not consulted
    And the tool body does not run
    And the model sees 'Error: Auto review rejected tool "<name>"; its body was not executed'
    And the refusal carries the info:
      """
      {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED","reason":"uploads a key"}
      """

    @baseline
    Examples:
      | id          | row  | call                                         | name |
      | F-SCOPE-6   | BL-2 | the agent calls "pwsh" from inside a program | pwsh |
      | F-SCOPE-107 | BL-2 | the agent calls "pwsh"                       | pwsh |

    @resilient
    Examples:
      | id          | row  | call                                         | name |
      | F-SCOPE-9   | RS-2 | the agent calls "pwsh" from inside a program | pwsh |
      | F-SCOPE-108 | RS-2 | the agent calls "pwsh"                       | pwsh |

  @AR-SCOPE-3 @AR-SCOPE-4 @AR-RESULT-1
  Scenario Outline: A call in a session with another permission preset is not reviewed
    Given a session with the permission preset "<preset>"
    And the reviewer denies with risk "high"
    And a later listener allows
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream, body
    And the gate allows
    And the approval service is not consulted
    And the tool body runs
    And the model sees no error

    @baseline
    Examples:
      | id         | row   | preset             |
      | F-SCOPE-11 | BL-P3 | danger-full-access |
      | F-SCOPE-12 | BL-P3 | workspace-write    |
      | F-SCOPE-13 | BL-P3 | read-only          |

    @resilient
    Examples:
      | id         | row   | preset             |
      | F-SCOPE-14 | RS-P3 | danger-full-access |
      | F-SCOPE-15 | RS-P3 | workspace-write    |
      | F-SCOPE-16 | RS-P3 | read-only          |

  @AR-SCOPE-4 @AR-RESULT-1
  Scenario Outline: Disposing of the integration does not touch a call the gate lets through
    Given a session with the permission preset "workspace-write"
    And the reviewer never answers
    And a later listener allows
    And <signal>
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream, body
    And the gate allows
    And the tool body runs
    And the model sees no error

    @baseline
    Examples:
      | id         | row   | signal                                                          |
      | F-SCOPE-17 | BL-P3 | the integration is disposed before the review                   |
      | F-SCOPE-18 | BL-P3 | the integration is disposed while the review is in flight       |
      | F-SCOPE-19 | BL-P3 | the integration is disposed while a later listener is consulted |

    @resilient
    Examples:
      | id         | row   | signal                                                          |
      | F-SCOPE-20 | RS-P3 | the integration is disposed before the review                   |
      | F-SCOPE-21 | RS-P3 | the integration is disposed while the review is in flight       |
      | F-SCOPE-22 | RS-P3 | the integration is disposed while a later listener is consulted |

  @AR-SCOPE-4 @AR-RESULT-2
  Scenario Outline: A later listener's denial of a call the gate lets through reaches the model with its own reason and info
    Given a session with the permission preset "read-only"
    And the reviewer allows with risk "low"
    And a later listener denies with "blocked by hook" and the info:
      """
      {"name":"HookDenied","code":"HOOK_DENIED"}
      """
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream
    And the gate denies with "blocked by hook"
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: blocked by hook"
    And the refusal carries the info:
      """
      {"name":"HookDenied","code":"HOOK_DENIED"}
      """

    @baseline
    Examples:
      | id         | row   |
      | F-SCOPE-23 | BL-PD |

    @resilient
    Examples:
      | id         | row   |
      | F-SCOPE-24 | RS-PD |

  @AR-SCOPE-4 @AR-RESULT-4
  Scenario Outline: A later listener's cancellation of a call the gate lets through becomes the pre-dispatch cancellation
    Given a session in Auto
    And the call has no agent
    And a later listener cancels
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream
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
      | id         | row   |
      | F-SCOPE-25 | BL-PX |

    @resilient
    Examples:
      | id         | row   |
      | F-SCOPE-26 | RS-PX |

  @AR-SCOPE-1 @AR-APPROVAL-1 @AR-RESULT-2
  Scenario Outline: A call without an agent that a later listener asks about is refused, because there is nobody to ask
    Given a session in Auto
    And the call has no agent
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream
    And the gate asks with "hook wants a human"
    And the approval service is not consulted
    And the tool body does not run
    And the model sees 'Error: tool "pwsh" requires approval, but the call has no agent to route it through'
    And the refusal carries no info

    @baseline
    Examples:
      | id         | row   |
      | F-SCOPE-27 | BL-PN |

    @resilient
    Examples:
      | id         | row   |
      | F-SCOPE-28 | RS-PN |

  @AR-SCOPE-1 @AR-APPROVAL-1 @AR-CANCEL-5 @AR-RESULT-2
  Scenario Outline: A call without an agent that a later listener asks about is refused as such even when the caller cancels meanwhile
    Given a session in Auto
    And the call has no agent
    And a later listener asks with "hook wants a human"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream
    And the gate asks with "hook wants a human"
    And the approval service is not consulted
    And the tool body does not run
    And the model sees 'Error: tool "pwsh" requires approval, but the call has no agent to route it through'
    And the refusal carries no info

    @baseline
    Examples:
      | id         | row   |
      | F-SCOPE-29 | BL-PN |

    @resilient
    Examples:
      | id         | row   |
      | F-SCOPE-30 | RS-PN |

  @AR-SCOPE-4 @AR-APPROVAL-1 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-1 @AR-RESULT-3
  Scenario Outline: The user answers a later listener's question about a call the gate lets through
    Given a session with the permission preset "workspace-write"
    And a later listener asks with "hook wants a human"
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the gate asks with "hook wants a human"
    And the user is asked and answers "<answer>"
    And the user is asked with reason "hook wants a human"
    And the events are <events>
    And the tool body <body>
    And the model sees <model sees>
    And the refusal carries no info

    @baseline
    Examples:
      | id         | row   | answer       | events                     | body         | model sees                                                                   |
      | F-SCOPE-31 | BL-PA | allowed-once | downstream, approval, body | runs         | no error                                                                     |
      | F-SCOPE-32 | BL-PA | rejected     | downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"'                                       |
      | F-SCOPE-33 | BL-PA | cancelled    | downstream, approval       | does not run | 'Error: approval for tool "pwsh" was cancelled'                              |
      | F-SCOPE-34 | BL-PA | unavailable  | downstream, approval       | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' |

    @resilient
    Examples:
      | id         | row   | answer       | events                     | body         | model sees                                                                   |
      | F-SCOPE-35 | RS-PA | allowed-once | downstream, approval, body | runs         | no error                                                                     |
      | F-SCOPE-36 | RS-PA | rejected     | downstream, approval       | does not run | 'Error: the user rejected tool "pwsh"'                                       |
      | F-SCOPE-37 | RS-PA | cancelled    | downstream, approval       | does not run | 'Error: approval for tool "pwsh" was cancelled'                              |
      | F-SCOPE-38 | RS-PA | unavailable  | downstream, approval       | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' |

  @AR-SCOPE-4 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-3
  Scenario Outline: Under the approval policy never, a later listener's question about a call the gate lets through is rejected without asking anyone
    Given a session in Auto with approval policy "never"
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the gate asks with "hook wants a human"
    And the approval service answers "rejected" without asking the user
    And the events are downstream, approval
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "run_code"'
    And the refusal carries no info

    @baseline
    Examples:
      | id         | row   |
      | F-SCOPE-39 | BL-PR |

    @resilient
    Examples:
      | id         | row   |
      | F-SCOPE-40 | RS-PR |

  @AR-CONV-3 @AR-SCOPE-4 @AR-APPROVAL-4 @AR-RESULT-5
  Scenario Outline: When asking the user throws, a call the gate lets through ends with the error and does not run
    Given a session with the permission preset "workspace-write"
    And a later listener asks with "hook wants a human"
    And asking the user throws
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the gate asks with "hook wants a human"
    And the approval request throws
    And the events are downstream, approval
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info

    @baseline
    Examples:
      | id         | row   |
      | F-SCOPE-41 | BL-PT |

    @resilient
    Examples:
      | id         | row   |
      | F-SCOPE-42 | RS-PT |

  @AR-SCOPE-4 @AR-CANCEL-5 @AR-CANCEL-7 @AR-RESULT-1 @AR-RESULT-4
  Scenario Outline: A caller who cancels while the listeners run stops a call the gate lets through before its body
    Given a session with the permission preset "danger-full-access"
    And a later listener allows
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream
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
      | id         | row    |
      | F-SCOPE-43 | BL-PC1 |

    @resilient
    Examples:
      | id         | row    |
      | F-SCOPE-44 | RS-PC1 |

  @AR-SCOPE-4 @AR-CANCEL-5 @AR-CANCEL-7 @AR-APPROVAL-2 @AR-RESULT-3 @AR-RESULT-4
  Scenario Outline: After the caller cancelled, a later listener's question about a call the gate lets through is cancelled without asking the user
    Given a session in Auto
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    And the caller cancels while the review is in flight
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the gate asks with "hook wants a human"
    And the approval service answers "cancelled" without asking the user
    And the events are downstream, approval
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id         | row    |
      | F-SCOPE-45 | BL-PC2 |

    @resilient
    Examples:
      | id         | row    |
      | F-SCOPE-46 | RS-PC2 |

  @AR-ADMIT-1 @AR-ADMIT-2 @AR-CANCEL-2 @AR-CANCEL-7 @AR-RESULT-4 @AR-DISPOSE-1
  Scenario Outline: A call in a session disposal did not move is cancelled without review while the integration closes
    Given a session in Auto
    And the session is not in the session list
    And the reviewer allows with risk "low"
    And a later listener allows
    And the integration is disposed before the review
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And there are no events
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
      | F-SCOPE-100 | BL-P4U |

    @resilient
    Examples:
      | id          | row   |
      | F-SCOPE-101 | RS-P4 |

  @baseline @BL-P3 @F-SCOPE-102 @AR-DISPOSE-1 @AR-DISPOSE-2 @AR-SCOPE-3
  Scenario: A call that starts after disposal moved its session to Full access runs unreviewed
    Given a session in Auto
    And the reviewer denies with risk "high"
    And a later listener allows
    And the integration is disposed before the review
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the events are downstream, body
    And the gate allows
    And the approval service is not consulted
    And the tool body runs

  @baseline @BL-PR @F-SCOPE-103 @AR-DISPOSE-2 @AR-DISPOSE-3 @AR-APPROVAL-2
  Scenario: After disposal moved the session, a later listener's question is rejected without asking the user
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    And the integration is disposed before the review
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the gate asks with "hook wants a human"
    And the approval service answers "rejected" without asking the user
    And the events are downstream, approval
    And the tool body does not run
    And the model sees "Error: the user rejected tool \"pwsh\""
    And the refusal carries no info

  @resilient @RS-P4 @F-SCOPE-104 @AR-RES-DISPOSE-1 @AR-DISPOSE-1
  Scenario: The resilient gate cancels a call that races disposal instead of letting it run unreviewed
    Given a session in Auto
    And the reviewer denies with risk "high"
    And a later listener allows
    And the integration is disposed before the review
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And there are no events
    And the gate cancels
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"

  @AR-DISPOSE-3 @AR-SCOPE-4 @AR-APPROVAL-2
  Scenario Outline: A program's outer call whose later listener asks while disposal moves the session meets the policy never
    Given a session in Auto
    And a later listener asks with "sandbox escalation"
    And the user would answer "allowed-once"
    And the integration is disposed while a later listener is consulted
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the gate asks with "sandbox escalation"
    And the approval service answers "rejected" without asking the user
    And the events are downstream, approval
    And the tool body does not run
    And the model sees "Error: the user rejected tool \"run_code\""

    @baseline
    Examples:
      | id          | row   |
      | F-SCOPE-105 | BL-PR |

    @resilient
    Examples:
      | id          | row   |
      | F-SCOPE-106 | RS-PR |

  @resilient @RS-P4 @F-SCOPE-49 @AR-ADMIT-2 @AR-RES-HINT-1
  Scenario: A call refused admission leaves the session's count of reviewer failures as it was
    Given a session in Auto
    And the session has had 2 reviewer failures in a row
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And the integration is disposed before the review
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And there are no events
    And the gate cancels
    And the model sees "Error: tool call aborted before dispatch"
    And the session then counts 2 reviewer failures in a row

  @AR-CANCEL-1 @AR-CANCEL-7 @AR-RESULT-4
  Scenario Outline: A call whose caller cancelled before dispatch never reaches the gate
    Given a session in Auto
    And the reviewer allows with risk "low"
    And a later listener allows
    And the caller cancels before dispatch
    When <call>
    Then the gate does not return
    And there are no events
    And the reviewer is not asked
    And the approval service is not consulted
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

    @baseline
    Examples:
      | id         | row   | call                                     |
      | F-SCOPE-50 | BL-P5 | the agent calls "pwsh"                   |
      | F-SCOPE-51 | BL-P5 | the agent runs a program with "run_code" |

    @resilient
    Examples:
      | id         | row   | call                                     |
      | F-SCOPE-52 | RS-P5 | the agent calls "pwsh"                   |
      | F-SCOPE-53 | RS-P5 | the agent runs a program with "run_code" |
