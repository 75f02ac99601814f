Feature: A reviewer that fails
  Sometimes the review brings back no decision: the request fails or throws, the response ends
  abnormally, the reply cannot be read, or the tool's schema cannot be found. Each such failure is
  given one class (transport, timeout, quota, aborted, provider, protocol, schema or internal) and
  a message. The baseline denies the call at once, whatever the approval policy, without consulting
  the listeners after it. The resilient profile treats a failure as a review that could not be
  completed: under "ask" it asks the user, once the later listeners allow, and says why; under
  "never", or when the deployment chose to fail closed, it denies with AutoReviewFailedError.

  # --- Baseline: every failure denies at once ------------------------------------------------

  @baseline @AR-DECIDE-1 @AR-REVIEW-4 @AR-REVIEW-5 @AR-REVIEW-6 @AR-REVIEW-7 @AR-RESULT-2 @AR-MSG-1 @AR-MSG-2
  Scenario Outline: In the baseline, a reviewer failure of any class denies the call at once, and the model sees why
    Given a session in Auto with approval policy "ask"
    And <reviewer>
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the review failure reads '<error>'
    And the gate denies with 'Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the refusal carries no info
    And the reviewer is asked once
    And the events are review
    And the approval service is not consulted
    And the session keeps no count of reviewer failures

    Examples: Requests that fail or throw, responses that end abnormally
      | id        | row  | reviewer                                                                 | class     | error                                                                     |
      | F-FAIL-1  | BL-1 | the reviewer's request fails with "TRANSPORT": "Connection error"        | transport | auto-review: reviewer ended with error TRANSPORT: Connection error        |
      | F-FAIL-2  | BL-1 | the reviewer's request fails with "UNKNOWN": "read ECONNRESET"           | transport | auto-review: reviewer ended with error UNKNOWN: read ECONNRESET           |
      | F-FAIL-3  | BL-1 | the reviewer's request fails with "DEADLINE_EXCEEDED": "gave up"         | timeout   | auto-review: reviewer ended with error DEADLINE_EXCEEDED: gave up         |
      | F-FAIL-4  | BL-1 | the reviewer's request fails with "UNKNOWN": "upstream timed out"        | timeout   | auto-review: reviewer ended with error UNKNOWN: upstream timed out        |
      | F-FAIL-5  | BL-1 | the reviewer's request fails with "HTTP_429": "Too Many Requests"        | quota     | auto-review: reviewer ended with error HTTP_429: Too Many Requests        |
      | F-FAIL-6  | BL-1 | the reviewer's request fails with "UNKNOWN": "Rate limit reached"        | quota     | auto-review: reviewer ended with error UNKNOWN: Rate limit reached        |
      | F-FAIL-7  | BL-1 | the reviewer's response is aborted with "UNKNOWN": "stream closed"       | aborted   | auto-review: reviewer ended with aborted UNKNOWN: stream closed           |
      | F-FAIL-8  | BL-1 | the reviewer's request fails with "BAD_GATEWAY": "upstream returned 502" | provider  | auto-review: reviewer ended with error BAD_GATEWAY: upstream returned 502 |
      | F-FAIL-10 | BL-1 | the reviewer's request throws "middleware refused"                       | internal  | middleware refused                                                        |
      | F-FAIL-11 | BL-1 | the reviewer's request throws "Connection error"                         | internal  | Connection error                                                          |

    @AR-PARSE-7
    Examples: A reply the strict reader refuses
      | id       | row  | reviewer                                                          | class    | error                                                                  |
      | F-FAIL-9 | BL-1 | the reviewer replies with text '{"risk":"low","decision":"deny"}' | protocol | auto-review: reviewer output does not match the risk/decision protocol |

  @baseline @F-FAIL-12 @BL-1 @AR-DECIDE-1 @AR-REVIEW-5 @AR-REVIEW-6 @AR-PARSE-1 @AR-MSG-2
  Scenario: In the baseline, a reply cut off by the token limit is a provider failure
    Given a session in Auto
    And the reviewer replies with blocks:
      | type      | text                              |
      | reasoning | The command only lists files.     |
      | text      | {"risk":"low","decision":"allow"} |
    And that reply ends with finish "max-tokens"
    When the agent calls "pwsh"
    Then the review fails with class "provider"
    And the review failure reads "auto-review: reviewer ended with max-tokens"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with max-tokens'
    And the tool body does not run
    And the events are review

  @baseline @F-FAIL-61 @AR-PARSE-1 @AR-REVIEW-6 @AR-DECIDE-1
  Scenario: In the baseline, a stream that ends without a terminal finish fails the review, whatever its text holds
    Given a session in Auto
    And the reviewer replies with blocks:
      | type      | text                              |
      | reasoning | The command only lists files.     |
      | text      | {"risk":"low","decision":"allow"} |
    And that reply's stream ends without a terminal finish
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the review failure reads "auto-review: reviewer emitted no terminal finish"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer emitted no terminal finish'
    And the tool body does not run
    And the events are review

  @baseline @F-FAIL-13 @BL-1 @AR-REVIEW-5 @AR-REVIEW-7 @AR-DECIDE-1
  Scenario: In the baseline, a provider message that is an object reads "[object Object]"
    Given a session in Auto
    And the reviewer's request fails with "QUOTA_EXCEEDED" and the message:
      """
      {"message":"You exceeded your current quota"}
      """
    When the agent calls "pwsh"
    Then the review fails with class "quota"
    And the review failure reads "auto-review: reviewer ended with error QUOTA_EXCEEDED: [object Object]"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error QUOTA_EXCEEDED: [object Object]'

  @baseline @AR-REVIEW-2 @AR-REVIEW-6 @AR-DECIDE-1 @AR-MSG-2
  Scenario Outline: In the baseline, a tool whose schema is not in the request header fails without asking the reviewer
    Given a session in Auto
    And the tool's schema is "<schema>"
    And the reviewer allows with risk "low"
    When <call>
    Then the review fails with class "schema"
    And the review failure reads "<error>"
    And the reviewer is not asked
    And there are no events
    And the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the refusal carries no info

    Examples:
      | id        | row  | schema        | call                                         | error                                                                  |
      | F-FAIL-14 | BL-1 | missing       | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-FAIL-15 | BL-1 | ambiguous     | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-FAIL-16 | BL-1 | registry-only | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-FAIL-17 | BL-1 | missing       | the agent calls "pwsh" from inside a program | auto-review: the pending PTC binding schema is missing or inconsistent |

  @baseline @AR-REVIEW-9 @AR-REVIEW-6 @AR-DECIDE-1 @AR-MSG-2
  Scenario Outline: In the baseline, a session whose request header names no complete route fails before any request, even when the schema is missing too
    Given a session in Auto
    And the session's latest request header names provider "<provider>" and model "<model>"
    And the tool's schema is "<schema>"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "route"
    And the review failure reads "auto-review: no complete request-header route is available"
    And the reviewer is not asked
    And there are no events
    And the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: no complete request-header route is available'
    And the refusal carries no info

    Examples:
      | id        | row  | provider | model   | schema  |
      | F-FAIL-57 | BL-1 | qodercn  |         | present |
      | F-FAIL-58 | BL-1 |          | qfmodel | missing |

  @resilient @RS-F1 @F-FAIL-59 @AR-RES-ROUTE-1 @AR-REVIEW-9 @AR-RES-FAIL-2 @AR-RES-HINT-2
  Scenario: In the resilient profile, an incomplete session route without a configured reviewer route is a route failure the user is asked about
    Given a session in Auto
    And the session's latest request header names provider "" and model "qfmodel"
    And the gate is configured with:
      | failure_hint_after | 1 |
    And the reviewer allows with risk "low"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "route"
    And the reviewer is not asked
    And the gate asks with:
      """
      Auto review of tool "pwsh" failed: auto-review: no complete request-header route is available
      Auto review has failed 1 times in a row on route /qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the user is asked and answers "rejected"
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the session then counts 1 reviewer failure in a row

  @resilient @RS-7 @F-FAIL-60 @AR-RES-ROUTE-1 @AR-REVIEW-9
  Scenario: In the resilient profile, a configured reviewer route reviews a session whose request header names no model
    Given a session in Auto
    And the session's latest request header names provider "qodercn" and model ""
    And the gate is configured with:
      | reviewer_route | review/strict-json |
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review does not fail
    And the requests go to "review/strict-json"
    And the tool body runs

  @baseline @AR-DECIDE-1 @AR-CONV-5
  Scenario Outline: In the baseline, a failure denies under every approval policy
    Given <session>
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And a later listener allows
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate denies with 'Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error'
    And the tool body does not run
    And the refusal carries no info
    And the events are review
    And the approval service is not consulted

    Examples:
      | id        | row  | session                                                                                 |
      | F-FAIL-18 | BL-1 | a session in Auto                                                                       |
      | F-FAIL-19 | BL-1 | a session in Auto with approval policy "never"                                          |
      | F-FAIL-20 | BL-1 | a session in Auto with no approval policy of its own and the deployment default "never" |

  @baseline @F-FAIL-21 @BL-1 @AR-CANCEL-6 @AR-CANCEL-5 @AR-REVIEW-6 @AR-DECIDE-1 @AR-MSG-3
  Scenario: In the baseline, a review the caller's cancellation ends is an aborted failure, and the call is denied
    Given a session in Auto
    And the reviewer never answers
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the gate denies with text starting with 'Auto review of tool "pwsh" failed; its body was not executed: '
    And the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: '
    And the refusal carries no info
    And the tool body does not run
    And the events are review
    And the approval service is not consulted

  @baseline @F-FAIL-22 @BL-H @AR-CANCEL-6 @AR-REVIEW-4
  Scenario: In the baseline, a reviewer that never answers leaves the call pending
    Given a session in Auto
    And the reviewer never answers
    When the agent calls "pwsh"
    Then the call never completes
    And the gate does not return
    And the tool body does not run
    And the model sees no error
    And the reviewer is asked once
    And the events are review
    And the approval service is not consulted

  # --- Resilient: under "ask", the user is asked why the review could not be completed --------

  @resilient @AR-RES-FAIL-1 @AR-RES-FAIL-2 @AR-RES-PROFILE-1 @AR-REVIEW-4 @AR-REVIEW-5 @AR-REVIEW-6 @AR-REVIEW-7 @AR-ORDER-1 @AR-ORDER-2 @AR-APPROVAL-3 @AR-RES-HINT-1 @AR-RES-MSG-1 @AR-MSG-2
  Scenario Outline: In the resilient profile under "ask", a reviewer failure of any class is put to the user with the reason, once the later listeners allow
    Given a session in Auto
    And <reviewer>
    And a later listener allows
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the review failure reads '<error>'
    And the reviewer is asked <requests>
    And the gate asks with 'Auto review of tool "pwsh" failed: <error>'
    And the gate shows the user:
      | en | Auto review could not complete for this call: <error> |
      | zh | Auto review 未能完成对此调用的审查：<error>           |
    And the user is asked with reason 'Auto review of tool "pwsh" failed: <error>'
    And the user is asked and answers "rejected"
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the refusal carries no info
    And the events are <events>
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id        | row   | reviewer                                                                 | class     | requests | events                               | error                                                                     |
      | F-FAIL-23 | RS-F1 | the reviewer's request fails with "TRANSPORT": "Connection error"        | transport | twice    | review, review, downstream, approval | auto-review: reviewer ended with error TRANSPORT: Connection error        |
      | F-FAIL-24 | RS-F1 | the reviewer's request fails with "TIMEOUT": "upstream gave up"          | timeout   | once     | review, downstream, approval         | auto-review: reviewer ended with error TIMEOUT: upstream gave up          |
      | F-FAIL-25 | RS-F1 | the reviewer's request fails with "HTTP_402": "Payment Required"         | quota     | once     | review, downstream, approval         | auto-review: reviewer ended with error HTTP_402: Payment Required         |
      | F-FAIL-26 | RS-F1 | the reviewer's response is aborted with "UNKNOWN": "stream closed"       | aborted   | once     | review, downstream, approval         | auto-review: reviewer ended with aborted UNKNOWN: stream closed           |
      | F-FAIL-27 | RS-F1 | the reviewer's request fails with "BAD_GATEWAY": "upstream returned 502" | provider  | once     | review, downstream, approval         | auto-review: reviewer ended with error BAD_GATEWAY: upstream returned 502 |
      | F-FAIL-28 | RS-F1 | the reviewer replies with text "根据之前的侦察，我已经确认了目录结构。"  | protocol  | twice    | review, review, downstream, approval | auto-review: reviewer output holds no decision object                     |
      | F-FAIL-29 | RS-F1 | the reviewer's request throws "middleware refused"                       | internal  | once     | review, downstream, approval         | middleware refused                                                        |

  @resilient @AR-RES-FAIL-2 @AR-REVIEW-5 @AR-TOL-1
  Scenario Outline: In the resilient profile, a reply cut off by the token limit is a provider failure that the user is told about
    Given a session in Auto
    And the reviewer replies with blocks:
      | type      | text                              |
      | reasoning | The command only lists files.     |
      | text      | {"risk":"low","decision":"allow"} |
    And that reply ends with finish "max-tokens"
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the review fails with class "provider"
    And the reviewer is asked once
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with max-tokens'
    And the user is asked and answers "<answer>"
    And the tool body <body>
    And the model sees <model sees>
    And the events are <events>

    Examples:
      | id        | row   | answer       | body         | model sees                                                                   | events                             |
      | F-FAIL-30 | RS-F1 | allowed-once | runs         | no error                                                                     | review, downstream, approval, body |
      | F-FAIL-31 | RS-F1 | cancelled    | does not run | 'Error: approval for tool "pwsh" was cancelled'                              | review, downstream, approval       |
      | F-FAIL-32 | RS-F1 | unavailable  | does not run | 'Error: tool "pwsh" requires approval, but no approval channel is available' | review, downstream, approval       |

  @resilient @F-FAIL-62 @AR-TOL-1 @AR-REVIEW-7 @AR-RES-RETRY-1 @AR-RES-FAIL-2
  Scenario: In the resilient profile, a stream that ends without a terminal finish is a broken stream: retried, never read, and the user is told
    Given a session in Auto
    And the reviewer replies with blocks:
      | type | text                              |
      | text | {"risk":"low","decision":"allow"} |
    And that reply's stream ends without a terminal finish
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the reviewer is asked twice
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer emitted no terminal finish'
    And the user is asked and answers "rejected"
    And the tool body does not run
    And the events are review, review, downstream, approval

  @resilient @F-FAIL-33 @RS-F1 @AR-RES-NORM-1 @AR-REVIEW-7 @AR-RES-FAIL-2
  Scenario: In the resilient profile, a provider message that is an object gives its own message
    Given a session in Auto
    And the reviewer's request fails with "QUOTA_EXCEEDED" and the message:
      """
      {"message":"You exceeded your current quota"}
      """
    When the agent calls "pwsh"
    Then the review fails with class "quota"
    And the review failure reads "auto-review: reviewer ended with error QUOTA_EXCEEDED: You exceeded your current quota"
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with error QUOTA_EXCEEDED: You exceeded your current quota'

  @resilient @AR-RES-SCHEMA-1 @AR-REVIEW-2 @AR-RES-FAIL-2 @AR-RES-HINT-1
  Scenario Outline: In the resilient profile, a tool whose schema is nowhere to be found fails without asking the reviewer, and the user is asked
    Given a session in Auto
    And the tool's schema is "<schema>"
    And the reviewer allows with risk "low"
    And the user would answer "allowed-once"
    When <call>
    Then the review fails with class "schema"
    And the review failure reads "<error>"
    And the reviewer is not asked
    And the gate asks with 'Auto review of tool "pwsh" failed: <error>'
    And the user is asked and answers "allowed-once"
    And the tool body runs
    And the events are downstream, approval, body
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id        | row   | schema    | call                                         | error                                                                  |
      | F-FAIL-34 | RS-F1 | missing   | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-FAIL-35 | RS-F1 | ambiguous | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-FAIL-36 | RS-F1 | missing   | the agent calls "pwsh" from inside a program | auto-review: the pending PTC binding schema is missing or inconsistent |

  @resilient @AR-RES-SCHEMA-1 @AR-RES-PROFILE-1 @AR-DECIDE-4
  Scenario Outline: In the resilient profile, the live tool registry supplies a schema the request header lacks, so the review goes ahead
    Given a session in Auto
    And <schema>
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review does not fail
    And the reviewer is asked once
    And the gate allows
    And the tool body runs
    And the events are review, downstream, body

    Examples:
      | id        | row  | schema                                                                                    |
      | F-FAIL-37 | RS-7 | the tool's schema is "registry-only"                                                      |
      | F-FAIL-38 | RS-7 | the tool's schema is "ambiguous" in the request header and "present" in the live registry |
      | F-FAIL-39 | RS-7 | the tool's schema is "present" in the request header and "ambiguous" in the live registry |

  @resilient @F-FAIL-40 @RS-F1T @AR-RES-FAIL-2 @AR-APPROVAL-4
  Scenario: In the resilient profile, when asking the user about a failure throws, the call ends with the thrown error
    Given a session in Auto
    And the reviewer's request throws "middleware refused"
    And asking the user throws
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review of tool "pwsh" failed: middleware refused'
    And the approval request throws
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info
    And the events are review, downstream, approval

  @resilient @F-FAIL-41 @RS-F2 @AR-RES-FAIL-2 @AR-ORDER-2 @AR-RESULT-2
  Scenario: In the resilient profile, a later listener's denial wins over a failed review, and nobody is asked
    Given a session in Auto
    And the reviewer replies with text "根据之前的侦察，我已经确认了目录结构。"
    And a later listener denies with "blocked by hook" and the info:
      """
      {"name":"HookDenied","code":"HOOK_DENIED"}
      """
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "protocol"
    And the gate denies with "blocked by hook"
    And the model sees "Error: blocked by hook"
    And the refusal carries the info:
      """
      {"name":"HookDenied","code":"HOOK_DENIED"}
      """
    And the approval service is not consulted
    And the events are review, review, downstream
    And the session then counts 1 reviewer failure in a row

  @resilient @F-FAIL-42 @RS-F3 @AR-RES-FAIL-2 @AR-ORDER-2 @AR-RESULT-4
  Scenario: In the resilient profile, a later listener's cancellation wins over a failed review, and nobody is asked
    Given a session in Auto
    And the reviewer's request throws "middleware refused"
    And a later listener cancels
    When the agent calls "pwsh"
    Then the review fails with class "internal"
    And the gate cancels
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """
    And the approval service is not consulted
    And the events are review, downstream

  @resilient @AR-RES-ASK-1 @AR-RES-FAIL-2 @AR-APPROVAL-3 @AR-RES-MSG-1
  Scenario Outline: In the resilient profile, when a later listener asks too, one question says the review failed and carries the listener's reason
    Given a session in Auto
    And the reviewer's request throws "middleware refused"
    And a later listener asks with "hook wants a human"
    And the user would answer "<answer>"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review of tool "pwsh" failed: middleware refused; a later listener also asks: hook wants a human'
    And the gate shows the user:
      | en | Auto review could not complete for this call: middleware refused\nA later check also asks: hook wants a human |
      | zh | Auto review 未能完成对此调用的审查：middleware refused\n后续检查也请求确认：hook wants a human                |
    And the user is asked with reason 'Auto review of tool "pwsh" failed: middleware refused; a later listener also asks: hook wants a human'
    And the user is asked and answers "<answer>"
    And the tool body <body>
    And the model sees <model sees>
    And the events are <events>

    Examples:
      | id        | row   | answer       | body         | model sees                             | events                             |
      | F-FAIL-43 | RS-F4 | rejected     | does not run | 'Error: the user rejected tool "pwsh"' | review, downstream, approval       |
      | F-FAIL-44 | RS-F4 | allowed-once | runs         | no error                               | review, downstream, approval, body |

  @resilient @F-FAIL-45 @RS-F4T @AR-RES-ASK-1 @AR-APPROVAL-4
  Scenario: In the resilient profile, a failure and a later listener's question, and asking the user throws
    Given a session in Auto
    And the reviewer's request fails with "HTTP_429": "Too Many Requests"
    And a later listener asks with "hook wants a human"
    And asking the user throws
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with error HTTP_429: Too Many Requests; a later listener also asks: hook wants a human'
    And the approval request throws
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info
    And the events are review, downstream, approval

  @resilient @F-FAIL-46 @RS-F5 @AR-RES-FAIL-2 @AR-CANCEL-4 @AR-RESULT-4
  Scenario: In the resilient profile, the integration closing while the later listeners run cancels a failed review's call
    Given a session in Auto
    And the reviewer's request fails with "HTTP_429": "Too Many Requests"
    And the integration is disposed while a later listener is consulted
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "quota"
    And the gate cancels
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """
    And the approval service is not consulted
    And the events are review, downstream

  @resilient @F-FAIL-47 @RS-F6 @AR-RES-FAIL-2 @AR-CANCEL-5 @AR-APPROVAL-2 @AR-RES-RETRY-5 @AR-RESULT-3 @AR-RESULT-4
  Scenario: In the resilient profile, when the caller cancels during a failing review, the question about the failure is cancelled without asking the user
    Given a session in Auto
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And the caller cancels while the review is in flight
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the reviewer is asked once
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with error TRANSPORT: Connection error'
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """
    And the events are review, downstream, approval
    And the session then counts 1 reviewer failure in a row

  @resilient @F-FAIL-48 @RS-F6 @AR-CANCEL-6 @AR-CANCEL-5 @AR-REVIEW-6 @AR-RES-HINT-1 @AR-MSG-3
  Scenario: In the resilient profile, a review the caller's cancellation ends is an aborted failure that does not count
    Given a session in Auto
    And the session has had 2 reviewer failures in a row
    And the reviewer never answers
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the gate asks with text starting with 'Auto review of tool "pwsh" failed: '
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the events are review, downstream, approval
    And the session then counts 2 reviewer failures in a row

  @resilient @F-FAIL-49 @RS-F7 @AR-RES-ASK-1 @AR-CANCEL-5 @AR-APPROVAL-2
  Scenario: In the resilient profile, when the caller cancels during a failing review and a later listener asks, nobody is asked
    Given a session in Auto
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And a later listener asks with "hook wants a human"
    And the caller cancels while the review is in flight
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with error TRANSPORT: Connection error; a later listener also asks: hook wants a human'
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the events are review, downstream, approval

  # --- Resilient: failing closed ---------------------------------------------------------------

  @resilient @AR-RES-FAIL-1 @AR-RES-FAIL-3 @AR-RES-MSG-2 @AR-RESULT-2 @AR-REVIEW-6 @AR-CONV-5
  Scenario Outline: In the resilient profile under the effective policy "never", a failure is denied before the later listeners, as AutoReviewFailedError
    Given <session>
    And <reviewer>
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the gate denies with 'Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"<class>"}
      """
    And the approval service is not consulted
    And the events are <events>
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id        | row   | session                                                                                 | reviewer                                                                        | class    | events         | error                                                                            |
      | F-FAIL-50 | RS-1N | a session in Auto with approval policy "never"                                          | the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required" | quota    | review         | auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required |
      | F-FAIL-51 | RS-1N | a session in Auto with no approval policy of its own and the deployment default "never" | the reviewer's response is aborted with "UNKNOWN": "stream closed"              | aborted  | review         | auto-review: reviewer ended with aborted UNKNOWN: stream closed                  |
      | F-FAIL-52 | RS-1N | a session in Auto with approval policy "never"                                          | the reviewer replies with text '{"risk":"high","decision":"allow"}'             | protocol | review, review | auto-review: reviewer output does not match the risk/decision protocol           |
      | F-FAIL-53 | RS-1N | a session in Auto with approval policy "never"                                          | the reviewer's request throws "middleware refused"                              | internal | review         | middleware refused                                                               |

  @resilient @F-FAIL-54 @RS-1N @AR-RES-FAIL-3 @AR-RES-SCHEMA-1 @AR-RES-MSG-2
  Scenario: In the resilient profile under "never", a missing schema is denied as AutoReviewFailedError without asking the reviewer
    Given a session in Auto with approval policy "never"
    And the tool's schema is "missing"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "schema"
    And the reviewer is not asked
    And there are no events
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: the pending native tool schema is missing or ambiguous'
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"schema"}
      """

  @resilient @AR-RES-FAIL-1 @AR-RES-FAIL-3 @AR-RES-CONFIG-1 @AR-RES-MSG-2
  Scenario Outline: A deployment that fails closed ("on_failure" deny) denies a failure under "ask" before the later listeners
    Given a session in Auto with approval policy "ask"
    And the gate is configured with:
      | on_failure | deny |
    And <reviewer>
    And a later listener allows
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the gate denies with 'Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"<class>"}
      """
    And the approval service is not consulted
    And the events are <events>
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id        | row   | reviewer                                                          | class     | events         | error                                                              |
      | F-FAIL-55 | RS-1D | the reviewer's request fails with "TRANSPORT": "Connection error" | transport | review, review | auto-review: reviewer ended with error TRANSPORT: Connection error |
      | F-FAIL-56 | RS-1D | the reviewer's request fails with "UNKNOWN": "request timed out"  | timeout   | review         | auto-review: reviewer ended with error UNKNOWN: request timed out  |
