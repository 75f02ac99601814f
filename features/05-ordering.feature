Feature: The reviewer first, then the listeners after it, then the user
  The gate is the first of the pre-execute listeners. A reviewer's allow hands the call on to the
  listeners after it, whose answer stands; the user is asked only when one of them asks. After a
  reviewer's denial the user is asked only once the later listeners have allowed the call, never
  after they deny or cancel it. Within one call the events always come in the same order: the
  review, the later listeners, the question to the user, the tool body.

  @baseline @AR-ORDER-1 @AR-DECIDE-4
  Scenario Outline: After the reviewer allows, what the later listeners say decides
    Given a session in Auto with approval policy "ask"
    And the reviewer allows with risk "low"
    And <later listener>
    When the agent calls "list_agents"
    Then the events are <events>
    And the model sees <model sees>

    Examples:
      | id        | row  | later listener                                 | events                   | model sees               |
      | F-ORDER-1 | BL-7 | a later listener allows                        | review, downstream, body | no error                 |
      | F-ORDER-2 | BL-8 | a later listener denies with "blocked by hook" | review, downstream       | "Error: blocked by hook" |

  @AR-ORDER-1 @AR-DECIDE-4 @AR-RESULT-1 @AR-RESULT-2 @AR-RESULT-4
  Scenario Outline: After the reviewer allows, the gate returns the later listeners' answer unchanged
    Given a session in Auto
    And the reviewer allows with risk "low"
    And <later listener>
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the review does not fail
    And the gate <gate>
    And the events are <events>
    And the approval service is not consulted
    And the tool body <body>
    And the model sees <model sees>

    @baseline
    Examples:
      | id        | row  | later listener                                 | gate                          | events                   | body         | model sees                                 |
      | F-ORDER-3 | BL-7 | a later listener allows                        | allows                        | review, downstream, body | runs         | no error                                   |
      | F-ORDER-4 | BL-8 | a later listener denies with "blocked by hook" | denies with "blocked by hook" | review, downstream       | does not run | "Error: blocked by hook"                   |
      | F-ORDER-5 | BL-9 | a later listener cancels                       | cancels                       | review, downstream       | does not run | "Error: tool call aborted before dispatch" |

    @resilient
    Examples:
      | id        | row  | later listener                                 | gate                          | events                   | body         | model sees                                 |
      | F-ORDER-6 | RS-7 | a later listener allows                        | allows                        | review, downstream, body | runs         | no error                                   |
      | F-ORDER-7 | RS-8 | a later listener denies with "blocked by hook" | denies with "blocked by hook" | review, downstream       | does not run | "Error: blocked by hook"                   |
      | F-ORDER-8 | RS-9 | a later listener cancels                       | cancels                       | review, downstream       | does not run | "Error: tool call aborted before dispatch" |

  @AR-ORDER-1 @AR-DECIDE-4 @AR-CONV-5 @AR-APPROVAL-2 @AR-APPROVAL-3 @AR-RESULT-1 @AR-RESULT-2 @AR-RESULT-4
  Scenario Outline: Under the approval policy never, the later listeners still decide after an allow, and their question is rejected without asking anyone
    Given <session>
    And the reviewer allows with risk "low"
    And <later listener>
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate <gate>
    And the events are <events>
    And <approval>
    And the tool body <body>
    And the model sees <model sees>

    @baseline
    Examples:
      | id         | row  | session                                                                                 | later listener                                  | gate                           | events                       | approval                                                        | body         | model sees                                 |
      | F-ORDER-9  | BL-3 | a session in Auto with approval policy "never"                                          | a later listener allows                         | allows                         | review, downstream, body     | the approval service is not consulted                           | runs         | no error                                   |
      | F-ORDER-10 | BL-4 | a session in Auto with approval policy "never"                                          | a later listener denies with "blocked by hook"  | denies with "blocked by hook"  | review, downstream           | the approval service is not consulted                           | does not run | "Error: blocked by hook"                   |
      | F-ORDER-11 | BL-5 | a session in Auto with approval policy "never"                                          | a later listener cancels                        | cancels                        | review, downstream           | the approval service is not consulted                           | does not run | "Error: tool call aborted before dispatch" |
      | F-ORDER-12 | BL-6 | a session in Auto with approval policy "never"                                          | a later listener asks with "hook wants a human" | asks with "hook wants a human" | review, downstream, approval | the approval service answers "rejected" without asking the user | does not run | 'Error: the user rejected tool "pwsh"'     |
      | F-ORDER-13 | BL-3 | a session in Auto with no approval policy of its own and the deployment default "never" | a later listener allows                         | allows                         | review, downstream, body     | the approval service is not consulted                           | runs         | no error                                   |
      | F-ORDER-14 | BL-6 | a session in Auto with no approval policy of its own and the deployment default "never" | a later listener asks with "hook wants a human" | asks with "hook wants a human" | review, downstream, approval | the approval service answers "rejected" without asking the user | does not run | 'Error: the user rejected tool "pwsh"'     |

    @resilient
    Examples:
      | id         | row  | session                                                                                 | later listener                                  | gate                           | events                       | approval                                                        | body         | model sees                                 |
      | F-ORDER-15 | RS-7 | a session in Auto with approval policy "never"                                          | a later listener allows                         | allows                         | review, downstream, body     | the approval service is not consulted                           | runs         | no error                                   |
      | F-ORDER-16 | RS-8 | a session in Auto with approval policy "never"                                          | a later listener denies with "blocked by hook"  | denies with "blocked by hook"  | review, downstream           | the approval service is not consulted                           | does not run | "Error: blocked by hook"                   |
      | F-ORDER-17 | RS-9 | a session in Auto with approval policy "never"                                          | a later listener cancels                        | cancels                        | review, downstream           | the approval service is not consulted                           | does not run | "Error: tool call aborted before dispatch" |
      | F-ORDER-18 | RS-6 | a session in Auto with approval policy "never"                                          | a later listener asks with "hook wants a human" | asks with "hook wants a human" | review, downstream, approval | the approval service answers "rejected" without asking the user | does not run | 'Error: the user rejected tool "pwsh"'     |
      | F-ORDER-19 | RS-7 | a session in Auto with no approval policy of its own and the deployment default "never" | a later listener allows                         | allows                         | review, downstream, body     | the approval service is not consulted                           | runs         | no error                                   |
      | F-ORDER-20 | RS-6 | a session in Auto with no approval policy of its own and the deployment default "never" | a later listener asks with "hook wants a human" | asks with "hook wants a human" | review, downstream, approval | the approval service answers "rejected" without asking the user | does not run | 'Error: the user rejected tool "pwsh"'     |

  @AR-ORDER-1 @AR-ORDER-2 @AR-DECIDE-5
  Scenario Outline: After a reviewer's denial, the user is asked only when the later listeners allow
    Given a session in Auto
    And the reviewer denies with risk "high" and reason "uploads a key"
    And <later listener>
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate <gate>
    And the events are <events>
    And <approval>
    And the tool body <body>
    And the model sees <model sees>

    @baseline
    Examples:
      | id         | row   | later listener                                 | gate                                                      | events                             | approval                                     | body         | model sees                                 |
      | F-ORDER-21 | BL-14 | a later listener allows                        | asks with 'Auto review denied tool "pwsh": uploads a key' | review, downstream, approval, body | the user is asked and answers "allowed-once" | runs         | no error                                   |
      | F-ORDER-22 | BL-19 | a later listener denies with "blocked by hook" | denies with "blocked by hook"                             | review, downstream                 | the approval service is not consulted        | does not run | "Error: blocked by hook"                   |
      | F-ORDER-23 | BL-20 | a later listener cancels                       | cancels                                                   | review, downstream                 | the approval service is not consulted        | does not run | "Error: tool call aborted before dispatch" |

    @resilient
    Examples:
      | id         | row   | later listener                                 | gate                                                      | events                             | approval                                     | body         | model sees                                 |
      | F-ORDER-24 | RS-14 | a later listener allows                        | asks with 'Auto review denied tool "pwsh": uploads a key' | review, downstream, approval, body | the user is asked and answers "allowed-once" | runs         | no error                                   |
      | F-ORDER-25 | RS-19 | a later listener denies with "blocked by hook" | denies with "blocked by hook"                             | review, downstream                 | the approval service is not consulted        | does not run | "Error: blocked by hook"                   |
      | F-ORDER-26 | RS-20 | a later listener cancels                       | cancels                                                   | review, downstream                 | the approval service is not consulted        | does not run | "Error: tool call aborted before dispatch" |
