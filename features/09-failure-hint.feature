Feature: Reviewer failures in a row, and the hint
  The resilient gate counts, per session, how many reviews in a row have failed: a review that
  reaches a decision sets the count back to 0, a failed review adds 1, and calls the gate does not
  review leave it alone. Once the count reaches "failure_hint_after" (3 unless configured), the
  failure's text gains one more line that names the count and the reviewer route and suggests
  configuring a reviewer model or switching the permission mode. The hint changes only texts, never
  the decision. The baseline keeps no count and gives no hint.

  # --- The hint --------------------------------------------------------------------------------
  # A text of several lines begins on the line of its opening quotes, and its further lines
  # start at the left margin: the runner keeps the line break after the quotes, and the text's
  # own indentation, as part of the text.

  @resilient @F-HINT-1 @RS-F1 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-HINT-3 @AR-RES-FAIL-2 @AR-RES-MSG-1
  Scenario: The third failure in a row under "ask" adds the hint to the question, in English and Chinese
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "transport"
    And the review failure reads "auto-review: reviewer ended with error TRANSPORT: Connection error"
    And the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the session then counts 3 reviewer failures in a row
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer ended with error TRANSPORT: Connection error
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer ended with error TRANSPORT: Connection error\nAuto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer ended with error TRANSPORT: Connection error\nAuto review 已在路由 qodercn/qfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。                                                     |
    And the user is asked with reason:
      """Auto review of tool "pwsh" failed: auto-review: reviewer ended with error TRANSPORT: Connection error
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the user is shown:
      | en | Auto review could not complete for this call: auto-review: reviewer ended with error TRANSPORT: Connection error\nAuto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer ended with error TRANSPORT: Connection error\nAuto review 已在路由 qodercn/qfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。                                                     |
    And the user is asked and answers "rejected"
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the events are review, review, downstream, approval

  @resilient @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-CONFIG-1 @AR-RES-MSG-1
  Scenario Outline: The hint shows from the configured failure on, and names the count
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had <before> reviewer failures in a row
    And the gate is configured with:
      | failure_hint_after | <threshold> |
    And the reviewer's request fails with "HTTP_429": "Too Many Requests"
    When the agent calls "pwsh"
    Then the session then counts <after> reviewer failures in a row
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer ended with error HTTP_429: Too Many Requests
Auto review has failed <after> times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer ended with error HTTP_429: Too Many Requests\nAuto review 已在路由 qodercn/qfmodel 上连续失败 <after> 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

    Examples:
      | id       | row   | threshold | before | after |
      | F-HINT-2 | RS-F1 | 3         | 7      | 8     |
      | F-HINT-3 | RS-F1 | 2         | 1      | 2     |
      | F-HINT-4 | RS-F1 | 5         | 4      | 5     |

  @resilient @F-HINT-5 @RS-F1 @AR-RES-HINT-2 @AR-RES-CONFIG-1 @AR-RES-MSG-1
  Scenario: With "failure_hint_after" 1 the very first failure carries the hint, worded as the template says
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the gate is configured with:
      | failure_hint_after | 1 |
    And the reviewer's request fails with "HTTP_429": "Too Many Requests"
    When the agent calls "pwsh"
    Then the session then counts 1 reviewer failure in a row
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer ended with error HTTP_429: Too Many Requests
Auto review has failed 1 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """

  @resilient @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-CONFIG-1
  Scenario Outline: Below the threshold a failure counts but carries no hint
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had <before> reviewer failures in a row
    And the gate is configured with:
      | failure_hint_after | <threshold> |
    And the reviewer's request fails with "HTTP_429": "Too Many Requests"
    When the agent calls "pwsh"
    Then the session then counts <after> reviewer failures in a row
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with error HTTP_429: Too Many Requests'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer ended with error HTTP_429: Too Many Requests |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer ended with error HTTP_429: Too Many Requests           |

    Examples:
      | id       | row   | threshold | before | after |
      | F-HINT-6 | RS-F1 | 3         | 1      | 2     |
      | F-HINT-7 | RS-F1 | 10        | 8      | 9     |

  @resilient @F-HINT-8 @RS-1N @AR-RES-HINT-2 @AR-RES-HINT-3 @AR-RES-FAIL-3 @AR-RES-MSG-2
  Scenario: Under "never" the hint reaches the model, and the call is still denied
    Given a session in Auto with approval policy "never"
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required"
    When the agent calls "pwsh"
    Then the gate denies with:
      """Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the model sees:
      """Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"quota"}
      """
    And the review failure reads "auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required"
    And the tool body does not run
    And the approval service is not consulted
    And the events are review
    And the session then counts 3 reviewer failures in a row

  @resilient @F-HINT-9 @RS-1D @AR-RES-HINT-2 @AR-RES-HINT-3 @AR-RES-FAIL-3
  Scenario: A deployment that fails closed shows the hint in its denial
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 4 reviewer failures in a row
    And the gate is configured with:
      | on_failure | deny |
    And the reviewer's response is aborted with "UNKNOWN": "stream closed"
    When the agent calls "pwsh"
    Then the model sees:
      """Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with aborted UNKNOWN: stream closed
Auto review has failed 5 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"aborted"}
      """
    And the approval service is not consulted
    And the session then counts 5 reviewer failures in a row

  @resilient @F-HINT-10 @RS-F4 @AR-RES-HINT-2 @AR-RES-ASK-1 @AR-RES-MSG-1
  Scenario: In a question that also carries a later listener's reason, the hint comes last
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the reviewer's request throws "middleware refused"
    And a later listener asks with "hook wants a human"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the gate asks with:
      """Auto review of tool "pwsh" failed: middleware refused; a later listener also asks: hook wants a human
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: middleware refused\nA later check also asks: hook wants a human\nAuto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：middleware refused\n后续检查也请求确认：hook wants a human\nAuto review 已在路由 qodercn/qfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。                                                          |
    And the user is asked and answers "allowed-once"
    And the tool body runs
    And the events are review, downstream, approval, body
    And the session then counts 3 reviewer failures in a row

  # --- Which route the hint names --------------------------------------------------------------

  @resilient @F-HINT-11 @RS-F1 @AR-RES-HINT-2 @AR-RES-ROUTE-1
  Scenario: The hint names the configured reviewer route that the requests went to
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the gate is configured with:
      | reviewer_route | openai/gpt-5-mini |
    And the reviewer's request fails with "HTTP_429": "Too Many Requests"
    When the agent calls "pwsh"
    Then the requests go to "openai/gpt-5-mini"
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer ended with error HTTP_429: Too Many Requests
Auto review has failed 3 times in a row on route openai/gpt-5-mini; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """

  @resilient @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-ROUTE-1 @AR-RES-SCHEMA-1
  Scenario Outline: A schema failure makes no request, counts, and its hint names the route a request would have used
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the gate is configured with:
      | reviewer_route | <configured> |
    And the tool's schema is "missing"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the review fails with class "schema"
    And the reviewer is not asked
    And the session then counts 3 reviewer failures in a row
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: the pending native tool schema is missing or ambiguous
Auto review has failed 3 times in a row on route <route>; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """

    Examples:
      | id        | row   | configured        | route             |
      | F-HINT-12 | RS-F1 | null              | qodercn/qfmodel   |
      | F-HINT-13 | RS-F1 | openai/gpt-5-mini | openai/gpt-5-mini |

  # --- What the count counts -------------------------------------------------------------------

  @resilient @AR-RES-HINT-1
  Scenario Outline: A review that reaches a decision sets the count back to 0
    Given a session in Auto
    And the session has had 5 reviewer failures in a row
    And <reviewer>
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review does not fail
    And the session then counts 0 reviewer failures in a row

    Examples:
      | id        | row   | reviewer                                                        |
      | F-HINT-14 | RS-7  | the reviewer allows with risk "medium"                          |
      | F-HINT-15 | RS-14 | the reviewer denies with risk "high" and reason "uploads a key" |

  @resilient @F-HINT-16 @RS-F1 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-RES-RETRY-4
  Scenario: A review the deadline cuts off counts as a failure, and carries the hint
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the gate is configured with:
      | review_timeout_ms | 1000 |
    And the reviewer never answers
    When the agent calls "pwsh"
    Then the review fails with class "timeout"
    And the session then counts 3 reviewer failures in a row
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: the review did not finish within 1000 ms
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """

  @resilient @F-HINT-17 @RS-F6 @AR-RES-HINT-1 @AR-CANCEL-6
  Scenario: A review that the caller's cancellation ends is the gate's own doing and does not count
    Given a session in Auto
    And the session has had 2 reviewer failures in a row
    And the gate is configured with:
      | failure_hint_after | 1 |
    And the reviewer never answers
    And the caller cancels while the review is in flight
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the session then counts 2 reviewer failures in a row
    And the model sees "Error: tool call aborted before dispatch"

  @resilient @F-HINT-18 @RS-22 @AR-RES-HINT-1 @AR-CANCEL-6 @AR-CANCEL-3
  Scenario: A review that the integration's closing ends does not count either
    Given a session in Auto
    And the session has had 2 reviewer failures in a row
    And the reviewer never answers
    And the integration is disposed while the review is in flight
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the gate cancels
    And the session then counts 2 reviewer failures in a row

  @resilient @AR-RES-HINT-1 @AR-SCOPE-4
  Scenario Outline: Calls the gate does not review, and calls refused before review, leave the count as it was
    Given a session in Auto
    And the session has had 2 reviewer failures in a row
    And <situation>
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    When <call>
    Then the reviewer is not asked
    And the session then counts 2 reviewer failures in a row

    Examples:
      | id        | row   | situation                                              | call                                     |
      | F-HINT-19 | RS-P3 | a session with the permission preset "workspace-write" | the agent calls "pwsh"                   |
      | F-HINT-20 | RS-P1 | the call has no agent                                  | the agent calls "pwsh"                   |
      | F-HINT-21 | RS-P2 | a later listener allows                                | the agent runs a program with "run_code" |
      | F-HINT-22 | RS-P4 | the integration is disposed before the review          | the agent calls "pwsh"                   |
      | F-HINT-23 | RS-P5 | the caller cancels before dispatch                     | the agent calls "pwsh"                   |

  # --- The baseline ----------------------------------------------------------------------------

  @baseline @AR-DECIDE-1
  Scenario Outline: The baseline keeps no count and never adds a hint
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the session has had <before> reviewer failures in a row
    And the gate is configured with:
      | failure_hint_after | 1 |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    When the agent calls "pwsh"
    Then the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error TRANSPORT: Connection error'
    And the refusal carries no info
    And the session keeps no count of reviewer failures

    Examples:
      | id        | row  | before |
      | F-HINT-24 | BL-1 | 2      |
      | F-HINT-25 | BL-1 | 40     |
