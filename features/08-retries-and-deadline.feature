Feature: Repair requests, transport retries and one deadline
  The baseline asks the reviewer exactly once, on the session's own route, and waits as long as it
  takes. The resilient profile may ask again within the same review: a reply it cannot read earns a
  repair request, a broken connection earns a retry, each from its own small budget, and any other
  failure ends the review at once. Every request goes to the configured reviewer route when there
  is one, and all requests of one review share a single deadline.

  # --- The baseline: one request ---------------------------------------------------------------

  @baseline @AR-REVIEW-1 @AR-REVIEW-3 @AR-DECIDE-1
  Scenario Outline: The baseline asks once on the session's route, and neither repairs nor retries, whatever is configured
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the gate is configured with:
      | reviewer_route    | openai/gpt-5-mini |
      | repair_attempts   | 3                 |
      | transport_retries | 3                 |
    And <first reply>
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the requests go to "qodercn/qfmodel"
    And the review fails with class "<class>"
    And the gate denies with 'Auto review of tool "pwsh" failed; its body was not executed: <error>'
    And the tool body does not run
    And the events are review

    Examples:
      | id        | row  | first reply                                                                    | class     | error                                                                  |
      | F-RETRY-1 | BL-1 | the reviewer's request fails with "TRANSPORT": "Connection error"              | transport | auto-review: reviewer ended with error TRANSPORT: Connection error     |
      | F-RETRY-2 | BL-1 | the reviewer replies with text '{"risk":"low","decision":"allow","note":"ok"}' | protocol  | auto-review: reviewer output does not match the risk/decision protocol |

  @baseline @F-RETRY-3 @BL-7 @AR-REVIEW-1 @AR-REVIEW-3
  Scenario: The baseline has no deadline: a slow reviewer is simply waited for
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the gate is configured with:
      | review_timeout_ms | 1000 |
    And the reviewer allows with risk "low"
    And that reply takes 50000 ms
    When the agent calls "pwsh"
    Then the review does not fail
    And the reviewer is asked once
    And the requests go to "qodercn/qfmodel"
    And the tool body runs
    And the events are review, downstream, body

  # --- Repairs and retries ---------------------------------------------------------------------

  @resilient @AR-RES-RETRY-1 @AR-RES-RETRY-2 @AR-RES-RETRY-3 @AR-RES-PROFILE-1 @AR-REVIEW-1 @AR-REVIEW-3 @AR-RES-HINT-1 @AR-DECIDE-4
  Scenario Outline: In the resilient profile, a reply that cannot be read earns a repair request, a broken connection a retry, and the next decision stands
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And <first reply>
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review does not fail
    And the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the gate allows
    And the tool body runs
    And the events are review, review, downstream, body
    And the session then counts 0 reviewer failures in a row

    Examples:
      | id        | row  | first reply                                                                                          |
      | F-RETRY-4 | RS-7 | the reviewer replies with text "I checked the command and it only lists files."                      |
      | F-RETRY-5 | RS-7 | the reviewer replies with text '<tool_call>{"name": "list_agents", "arguments": {}}</tool_call>'     |
      | F-RETRY-6 | RS-7 | the reviewer replies with text '{"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"}' |
      | F-RETRY-7 | RS-7 | the reviewer's request fails with "TRANSPORT": "Connection error"                                    |
      | F-RETRY-8 | RS-7 | the reviewer's request fails with "UNKNOWN": "socket hang up"                                        |

  @resilient @F-RETRY-9 @RS-14 @AR-RES-RETRY-1 @AR-RES-RETRY-3 @AR-DECIDE-5
  Scenario: In the resilient profile, a denial obtained by a repair request is a denial like any other
    Given a session in Auto
    And the reviewer replies with text "This looks dangerous, I would not run it."
    And then the reviewer denies with risk "high" and reason "uploads a key"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review does not fail
    And the reviewer is asked twice
    And the gate asks with 'Auto review denied tool "pwsh": uploads a key'
    And the user is asked and answers "rejected"
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the events are review, review, downstream, approval

  @resilient @AR-RES-RETRY-1 @AR-RES-RETRY-3 @AR-RES-CONFIG-1 @AR-RES-FAIL-2
  Scenario Outline: In the resilient profile, the repair and retry budgets are configured, and a review that exhausts its budget fails with the last request's failure
    Given a session in Auto
    And the gate is configured with:
      | repair_attempts   | <repairs> |
      | transport_retries | <retries> |
    And <reply>
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the review failure reads '<error>'
    And the reviewer is asked <requests>
    And the gate asks with 'Auto review of tool "pwsh" failed: <error>'
    And the events are <events>
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id         | row   | repairs | retries | reply                                                             | class     | requests | events                                               | error                                                              |
      | F-RETRY-10 | RS-F1 | 0       | 5       | the reviewer replies with text "Looks fine to me."                | protocol  | once     | review, downstream, approval                         | auto-review: reviewer output holds no decision object              |
      | F-RETRY-11 | RS-F1 | 2       | 0       | the reviewer replies with text "Looks fine to me."                | protocol  | 3 times  | review, review, review, downstream, approval         | auto-review: reviewer output holds no decision object              |
      | F-RETRY-12 | RS-F1 | 5       | 0       | the reviewer's request fails with "TRANSPORT": "Connection error" | transport | once     | review, downstream, approval                         | auto-review: reviewer ended with error TRANSPORT: Connection error |
      | F-RETRY-13 | RS-F1 | 0       | 3       | the reviewer's request fails with "TRANSPORT": "Connection error" | transport | 4 times  | review, review, review, review, downstream, approval | auto-review: reviewer ended with error TRANSPORT: Connection error |

  @resilient @F-RETRY-14 @RS-7 @AR-RES-RETRY-1 @AR-RES-RETRY-3 @AR-RES-CONFIG-1
  Scenario: In the resilient profile, the two budgets are separate: one retry and one repair in the same review
    Given a session in Auto
    And the gate is configured with:
      | repair_attempts   | 1 |
      | transport_retries | 1 |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer replies with text "Looks fine to me."
    And then the reviewer allows with risk "medium"
    When the agent calls "pwsh"
    Then the review does not fail
    And the reviewer is asked 3 times
    And the tool body runs
    And the events are review, review, review, downstream, body

  @resilient @F-RETRY-15 @RS-F1 @AR-RES-RETRY-1 @AR-RES-RETRY-3
  Scenario: In the resilient profile, a second broken connection fails the review once the retry is spent, though the repair budget is not
    Given a session in Auto
    And the gate is configured with:
      | repair_attempts   | 1 |
      | transport_retries | 1 |
    And the reviewer replies with text "Looks fine to me."
    And then the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the review failure reads "auto-review: reviewer ended with error TRANSPORT: Connection error"
    And the reviewer is asked 3 times
    And the events are review, review, review, downstream, approval

  @resilient @F-RETRY-16 @RS-F1 @AR-RES-RETRY-1 @AR-RES-RETRY-3
  Scenario: In the resilient profile, spare transport retries do not pay for another repair
    Given a session in Auto
    And the gate is configured with:
      | repair_attempts   | 1 |
      | transport_retries | 5 |
    And the reviewer replies with text "Looks fine to me."
    And then the reviewer replies with text "Still looks fine to me."
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the reviewer is asked twice
    And the events are review, review, downstream, approval

  @resilient @AR-RES-RETRY-1 @AR-REVIEW-6 @AR-REVIEW-7 @AR-RES-FAIL-2
  Scenario Outline: In the resilient profile, any other failure ends the review at once, however large the budgets
    Given a session in Auto
    And the gate is configured with:
      | repair_attempts   | 5 |
      | transport_retries | 5 |
    And <first reply>
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the reviewer is asked once
    And the gate asks with 'Auto review of tool "pwsh" failed: <error>'
    And the events are review, downstream, approval

    Examples:
      | id         | row   | first reply                                                           | class    | error                                                               |
      | F-RETRY-17 | RS-F1 | the reviewer's request fails with "TIMEOUT": "upstream gave up"       | timeout  | auto-review: reviewer ended with error TIMEOUT: upstream gave up    |
      | F-RETRY-18 | RS-F1 | the reviewer's request fails with "RATE_LIMITED": "slow down"         | quota    | auto-review: reviewer ended with error RATE_LIMITED: slow down      |
      | F-RETRY-19 | RS-F1 | the reviewer's response is aborted with "UNKNOWN": "Connection error" | aborted  | auto-review: reviewer ended with aborted UNKNOWN: Connection error  |
      | F-RETRY-20 | RS-F1 | the reviewer's request fails with "OVERLOADED": "model overloaded"    | provider | auto-review: reviewer ended with error OVERLOADED: model overloaded |
      | F-RETRY-21 | RS-F1 | the reviewer's request throws "Connection error"                      | internal | Connection error                                                    |

  @resilient @F-RETRY-22 @RS-F1 @AR-RES-RETRY-1 @AR-RES-SCHEMA-1
  Scenario: In the resilient profile, a missing schema is never retried: no request is made at all
    Given a session in Auto
    And the gate is configured with:
      | repair_attempts   | 5 |
      | transport_retries | 5 |
    And the tool's schema is "missing"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "schema"
    And the reviewer is not asked
    And the events are downstream, approval

  # --- The reviewer's route --------------------------------------------------------------------

  @resilient @AR-RES-ROUTE-1 @AR-RES-CONFIG-1 @AR-REVIEW-3 @AR-RES-PROFILE-1
  Scenario Outline: In the resilient profile, every request goes to the configured reviewer route, or to the session's route when none is configured
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the gate is configured with:
      | reviewer_route | <configured> |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the requests go to "<routes>"
    And the tool body runs

    Examples:
      | id         | row  | configured        | routes                               |
      | F-RETRY-23 | RS-7 | openai/gpt-5-mini | openai/gpt-5-mini, openai/gpt-5-mini |
      | F-RETRY-24 | RS-7 | null              | qodercn/qfmodel, qodercn/qfmodel     |

  # --- One deadline ----------------------------------------------------------------------------

  @resilient @AR-RES-RETRY-4 @AR-RES-PROFILE-1 @AR-CANCEL-6 @AR-RES-CONFIG-1 @AR-RES-FAIL-2 @AR-RES-HINT-1 @AR-RES-MSG-1
  Scenario Outline: In the resilient profile, a reviewer that never answers is given up at the configured deadline, and the user is asked
    Given a session in Auto
    And the gate is configured with:
      | review_timeout_ms | <ms> |
    And the reviewer never answers
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the review fails with class "timeout"
    And the review failure reads "auto-review: the review did not finish within <ms> ms"
    And the reviewer is asked once
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: the review did not finish within <ms> ms'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: the review did not finish within <ms> ms |
      | zh | Auto review 未能完成对此调用的审查：auto-review: the review did not finish within <ms> ms           |
    And the user is asked and answers "allowed-once"
    And the tool body runs
    And the events are review, downstream, approval, body
    And the session then counts 1 reviewer failure in a row

    Examples:
      | id         | row   | ms    |
      | F-RETRY-25 | RS-F1 | 1000  |
      | F-RETRY-26 | RS-F1 | 12500 |

  @resilient @F-RETRY-34 @RS-F1 @AR-RES-RETRY-4 @AR-RES-CONFIG-1 @AR-RES-MSG-1
  Scenario: In the resilient profile, the deadline is 60000 ms unless configured, written without separators
    Given a session in Auto
    And the reviewer never answers
    When the agent calls "pwsh"
    Then the review fails with class "timeout"
    And the review failure reads "auto-review: the review did not finish within 60000 ms"
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: the review did not finish within 60000 ms'
    And the reviewer is asked once

  @resilient @F-RETRY-27 @RS-1N @AR-RES-RETRY-4 @AR-RES-FAIL-3 @AR-RES-CONFIG-1
  Scenario: In the resilient profile under "never", a review cut off by a configured deadline is denied as a timeout
    Given a session in Auto with approval policy "never"
    And the gate is configured with:
      | review_timeout_ms | 1500 |
    And the reviewer never answers
    When the agent calls "pwsh"
    Then the review fails with class "timeout"
    And the review failure reads "auto-review: the review did not finish within 1500 ms"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: the review did not finish within 1500 ms'
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"timeout"}
      """
    And the events are review

  @resilient @F-RETRY-28 @RS-F1 @AR-RES-RETRY-4 @AR-RES-RETRY-3
  Scenario: In the resilient profile, all requests of a review share one deadline: a retry still running when it passes is abandoned
    Given a session in Auto
    And the gate is configured with:
      | review_timeout_ms | 1000 |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And that reply takes 600 ms
    And then the reviewer allows with risk "low"
    And that reply takes 600 ms
    When the agent calls "pwsh"
    Then the review fails with class "timeout"
    And the review failure reads "auto-review: the review did not finish within 1000 ms"
    And the reviewer is asked twice
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: the review did not finish within 1000 ms'
    And the events are review, review, downstream, approval

  @resilient @F-RETRY-29 @RS-F1 @AR-RES-RETRY-4
  Scenario: In the resilient profile, a request that would fail after the deadline is abandoned at the deadline, and the review is a timeout
    Given a session in Auto
    And the gate is configured with:
      | review_timeout_ms | 1000 |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And that reply takes 1500 ms
    When the agent calls "pwsh"
    Then the review fails with class "timeout"
    And the review failure reads "auto-review: the review did not finish within 1000 ms"
    And the reviewer is asked once
    And the events are review, downstream, approval

  @resilient @F-RETRY-30 @RS-7 @AR-RES-RETRY-4 @AR-RES-RETRY-2
  Scenario: In the resilient profile, a retry starts without waiting, and a reply that arrives exactly at the deadline is in time
    Given a session in Auto
    And the gate is configured with:
      | review_timeout_ms | 1000 |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And that reply takes 400 ms
    And then the reviewer allows with risk "low"
    And that reply takes 600 ms
    When the agent calls "pwsh"
    Then the review does not fail
    And the reviewer is asked twice
    And the gate allows
    And the tool body runs
    And the events are review, review, downstream, body

  # --- Signals stop further requests -----------------------------------------------------------

  @resilient @AR-RES-RETRY-5 @AR-CANCEL-5 @AR-RES-FAIL-2
  Scenario Outline: In the resilient profile, once the caller has cancelled, a failed request is final: no repair, no retry
    Given a session in Auto
    And <first reply>
    And then the reviewer allows with risk "low"
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the reviewer is asked once
    And the approval service answers "cancelled" without asking the user
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the events are review, downstream, approval

    Examples:
      | id         | row   | first reply                                                       | class     |
      | F-RETRY-31 | RS-F6 | the reviewer's request fails with "TRANSPORT": "Connection error" | transport |
      | F-RETRY-32 | RS-F6 | the reviewer replies with text "Looks fine to me."                | protocol  |

  @resilient @F-RETRY-33 @RS-22 @AR-RES-RETRY-5 @AR-CANCEL-3
  Scenario: In the resilient profile, once the integration is closing, a failed request is not retried and the call is cancelled
    Given a session in Auto
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer allows with risk "low"
    And the integration is disposed while the review is in flight
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the reviewer is asked once
    And the gate cancels
    And the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the approval service is not consulted
    And the events are review
