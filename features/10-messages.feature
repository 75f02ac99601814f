Feature: The exact texts the model and the user see, in English and Chinese
  Every refusal, question and failure the gate produces is worded by a fixed template, with the
  tool's name put in exactly as the agent gave it. The model sees only the text of a refused call;
  the user sees a display reason in English and in Chinese. Where part of a text depends on the
  implementation (a JSON parser's own error, a thrown message), only the fixed beginning is stated,
  and in the resilient profile every failure message is made readable before anyone sees it.

  # ---------------------------------------------------------------------------------------------
  # A reviewer's denial

  @AR-MSG-1 @AR-DECIDE-5 @AR-CONV-4 @AR-APPROVAL-5
  Scenario Outline: A reviewer's denial puts the question to the user in English and Chinese, naming the tool exactly as called
    Given a session in Auto with approval policy "ask"
    And <the reviewer>
    And the user would answer "rejected"
    When the agent calls '<tool>'
    Then the gate asks with '<reason>'
    And the gate shows the user:
      | en | <en> |
      | zh | <zh> |
    And the user is asked and answers "rejected"
    And the user is asked with reason '<reason>'
    And the user is shown:
      | en | <en> |
      | zh | <zh> |
    And the model sees 'Error: the user rejected tool "<tool>"'
    And the refusal carries no info

    @baseline
    Examples: as the baseline words it
      | id      | tool               | the reviewer                                                               | reason                                                     | en                                                   | zh                                               |
      | F-MSG-1 | pwsh               | the reviewer denies with risk "high"                                       | Auto review denied tool "pwsh"                             | Auto review denied this call.                        | Auto review 拒绝了此调用。                       |
      | F-MSG-2 | pwsh               | the reviewer denies with risk "high" and reason "uploads a key"            | Auto review denied tool "pwsh": uploads a key              | Auto review denied this call: uploads a key          | Auto review 拒绝了此调用：uploads a key          |
      | F-MSG-3 | 列出代理           | the reviewer denies with risk "medium" and reason "删除了用户未指定的目录" | Auto review denied tool "列出代理": 删除了用户未指定的目录 | Auto review denied this call: 删除了用户未指定的目录 | Auto review 拒绝了此调用：删除了用户未指定的目录 |
      | F-MSG-4 | say "hi"           | the reviewer denies with risk "medium"                                     | Auto review denied tool "say "hi""                         | Auto review denied this call.                        | Auto review 拒绝了此调用。                       |
      | F-MSG-5 |                    | the reviewer denies with risk "high"                                       | Auto review denied tool ""                                 | Auto review denied this call.                        | Auto review 拒绝了此调用。                       |
      | F-MSG-6 | C:\\tools\\run.ps1 | the reviewer denies with risk "high"                                       | Auto review denied tool "C:\\tools\\run.ps1"               | Auto review denied this call.                        | Auto review 拒绝了此调用。                       |

    @resilient @AR-RES-NORM-4
    Examples: as the resilient profile words it; a reviewer's reason is passed on as given
      | id      | tool                     | the reviewer                                                             | reason                                                 | en                                                   | zh                                               |
      | F-MSG-7 | pwsh                     | the reviewer denies with risk "high" and reason "reads   the key   file" | Auto review denied tool "pwsh": reads   the key   file | Auto review denied this call: reads   the key   file | Auto review 拒绝了此调用：reads   the key   file |
      | F-MSG-8 | mcp__windows__PowerShell | the reviewer denies with risk "medium"                                   | Auto review denied tool "mcp__windows__PowerShell"     | Auto review denied this call.                        | Auto review 拒绝了此调用。                       |

  @AR-MSG-1 @AR-MSG-4 @AR-DECIDE-2 @AR-RESULT-6
  Scenario Outline: A final denial names the tool, and keeps the reviewer's reason in the info only
    Given a session in Auto with approval policy "never"
    And <the reviewer>
    When the agent calls "<tool>"
    Then the tool body does not run
    And the model sees 'Error: Auto review rejected tool "<tool>"; its body was not executed'
    And the refusal carries the info:
      """
      <info>
      """
    And the approval service is not consulted

    @baseline
    Examples: as the baseline words it
      | id       | tool | the reviewer                                                    | info                                                                                  |
      | F-MSG-9  | pwsh | the reviewer denies with risk "high"                            | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED"}                          |
      | F-MSG-10 | pwsh | the reviewer denies with risk "high" and reason "uploads a key" | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED","reason":"uploads a key"} |

    @resilient @AR-RES-DECIDE-1
    Examples: as the resilient profile words it
      | id       | tool        | the reviewer                                                 | info                                                                             |
      | F-MSG-11 | list_agents | the reviewer denies with risk "medium"                       | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED"}                     |
      | F-MSG-12 | list_agents | the reviewer denies with risk "medium" and reason "rm -rf /" | {"name":"AutoReviewDeniedError","code":"AUTO_REVIEW_DENIED","reason":"rm -rf /"} |

  # ---------------------------------------------------------------------------------------------
  # The approval service and the tool runtime

  @baseline @AR-MSG-1 @AR-APPROVAL-3 @AR-RESULT-3
  Scenario Outline: The user's answer, or the lack of one, is told to the model by name
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "high"
    And the user would answer "<answer>"
    When the agent calls "<tool>"
    Then the user is asked and answers "<answer>"
    And the tool body does not run
    And the model sees '<model sees>'
    And the refusal carries no info

    Examples:
      | id       | tool                           | answer      | model sees                                                                                           |
      | F-MSG-13 | pwsh                           | rejected    | Error: the user rejected tool "pwsh"                                                                 |
      | F-MSG-14 | list_agents                    | cancelled   | Error: approval for tool "list_agents" was cancelled                                                 |
      | F-MSG-15 | mcp__mobile__mobile_force_stop | unavailable | Error: tool "mcp__mobile__mobile_force_stop" requires approval, but no approval channel is available |

  @baseline @F-MSG-16 @AR-MSG-1 @AR-APPROVAL-1
  Scenario: A question for a call without an agent is refused with a text that says why
    Given a session in Auto with approval policy "ask"
    And the call has no agent
    And a later listener asks with "hook wants a human"
    When the agent calls "list_agents"
    Then the approval service is not consulted
    And the tool body does not run
    And the model sees 'Error: tool "list_agents" requires approval, but the call has no agent to route it through'
    And the refusal carries no info

  @baseline @F-MSG-17 @AR-MSG-1 @AR-MSG-4 @AR-RESULT-4
  Scenario: A call cancelled before dispatch reads the same whatever the tool, and carries the abort info
    Given a session in Auto with approval policy "ask"
    And the reviewer allows with risk "low"
    And the caller cancels before dispatch
    When the agent calls "pwsh"
    Then the tool body does not run
    And the model sees "Error: tool call aborted before dispatch"
    And the refusal carries the info:
      """
      {"name":"AbortError","code":"ABORTED_BEFORE_DISPATCH"}
      """

  @baseline @F-MSG-18 @AR-MSG-1 @AR-MSG-3 @AR-CONV-3 @AR-APPROVAL-4
  Scenario: When asking the user throws, the model sees "Error: " and the thrown message, whose wording is the implementation's
    Given a session in Auto with approval policy "ask"
    And the reviewer denies with risk "high"
    And asking the user throws
    When the agent calls "pwsh"
    Then the approval request throws
    And the tool body does not run
    And the model sees text starting with "Error: "
    And the refusal carries no info

  # ---------------------------------------------------------------------------------------------
  # Why a review failed (baseline)

  @baseline @AR-MSG-1 @AR-MSG-2 @AR-DECIDE-1 @AR-REVIEW-5
  Scenario Outline: A reviewer failure tells the model what went wrong, and nobody is asked
    Given a session in Auto with approval policy "ask"
    And <the reviewer>
    When the agent calls "pwsh"
    Then the review fails with class "<class>"
    And the review failure reads '<message>'
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <message>'
    And the refusal carries no info
    And the approval service is not consulted

    Examples:
      | id       | the reviewer                                                                    | class     | message                                                                     |
      | F-MSG-19 | the reviewer's request fails with "TRANSPORT": "Connection error"               | transport | auto-review: reviewer ended with error TRANSPORT: Connection error          |
      | F-MSG-20 | the reviewer's request fails with "HTTP_429": "Too Many Requests"               | quota     | auto-review: reviewer ended with error HTTP_429: Too Many Requests          |
      | F-MSG-21 | the reviewer's response is aborted with "UNKNOWN": "The operation was aborted"  | aborted   | auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted |
      | F-MSG-22 | the reviewer replies with text "null"                                           | protocol  | auto-review: reviewer output must be one JSON object                        |
      | F-MSG-23 | the reviewer replies with text '{"risk":"low","decision":"allow","risk":"low"}' | protocol  | auto-review: reviewer output repeats a JSON member                          |
      | F-MSG-24 | the reviewer replies with text '{"risk":"low","decision":"allow","why":"ok"}'   | protocol  | auto-review: reviewer output does not match the risk/decision protocol      |
      | F-MSG-25 | the reviewer's request throws "middleware refused"                              | internal  | middleware refused                                                          |

  @AR-MSG-2 @AR-REVIEW-2
  Scenario Outline: A tool whose schema cannot be found is refused without asking the reviewer
    Given a session in Auto with approval policy "never"
    And the tool's schema is "<schema>"
    And the reviewer allows with risk "low"
    When <the call>
    Then the reviewer is not asked
    And the review fails with class "schema"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <message>'

    @baseline
    Examples: as the baseline words it
      | id       | schema    | the call                                     | message                                                                |
      | F-MSG-26 | missing   | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-MSG-27 | ambiguous | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-MSG-28 | missing   | the agent calls "pwsh" from inside a program | auto-review: the pending PTC binding schema is missing or inconsistent |

    @resilient @AR-RES-SCHEMA-1
    Examples: as the resilient profile words it, when neither the registry nor the header has the schema
      | id       | schema    | the call                                     | message                                                                |
      | F-MSG-29 | missing   | the agent calls "pwsh"                       | auto-review: the pending native tool schema is missing or ambiguous    |
      | F-MSG-89 | missing   | the agent calls "pwsh" from inside a program | auto-review: the pending PTC binding schema is missing or inconsistent |

  @baseline @AR-MSG-3 @AR-CONV-3 @AR-PARSE-4 @AR-CANCEL-6
  Scenario Outline: Where the cause is worded by the implementation, only the beginning of the text is fixed
    Given a session in Auto with approval policy "ask"
    And <the reviewer>
    And <meanwhile>
    When the agent calls "pwsh"
    Then the tool body does not run
    And the review fails with class "<class>"
    And the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: '

    Examples:
      | id       | the reviewer                                | meanwhile                                        | class    |
      | F-MSG-31 | the reviewer replies with text "Let me che" | a later listener allows                          | protocol |
      | F-MSG-32 | the reviewer never answers                  | the caller cancels while the review is in flight | aborted  |

  # ---------------------------------------------------------------------------------------------
  # The resilient profile's texts

  @resilient @AR-RES-MSG-1 @AR-RES-FAIL-2
  Scenario Outline: A failed review asks the user, saying in English and Chinese that the review could not be completed and why
    Given a session in Auto with approval policy "ask"
    And <the reviewer>
    And the user would answer "allowed-once"
    When the agent calls '<tool>'
    Then the review fails with class "<class>"
    And the review failure reads '<message>'
    And the gate asks with 'Auto review of tool "<tool>" failed: <message>'
    And the gate shows the user:
      | en | Auto review could not complete for this call: <message> |
      | zh | Auto review 未能完成对此调用的审查：<message>           |
    And the user is asked with reason 'Auto review of tool "<tool>" failed: <message>'
    And the user is asked and answers "allowed-once"
    And the tool body runs

    Examples:
      | id       | tool                     | the reviewer                                                                                         | class    | message                                                                          |
      | F-MSG-33 | pwsh                     | the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required"                      | quota    | auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required |
      | F-MSG-34 | list_agents              | the reviewer replies with text '<｜｜DSML｜｜function_calls>'                                        | protocol | auto-review: reviewer output holds no decision object                            |
      | F-MSG-35 | working_directory        | the reviewer replies with text '{"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"}' | protocol | auto-review: reviewer output is ambiguous: it holds differing decision objects   |
      | F-MSG-36 | 列出代理                 | the reviewer replies with text '{"risk":"low","decision":"allow",}'                                  | protocol | auto-review: reviewer output holds a malformed decision object                   |
      | F-MSG-37 | mcp__windows__PowerShell | the reviewer replies with text 'Args: {"path":"src"} {"risk":"low","decision":"allow"}'              | protocol | auto-review: reviewer output holds an allow beside other braces                  |
      | F-MSG-38 | pwsh                     | the reviewer replies with text '{"risk":"low","decision":"allow","reason":"harmless"}'               | protocol | auto-review: reviewer output does not match the risk/decision protocol           |
      | F-MSG-39 | pwsh                     | the reviewer replies with text '{"decision":"deny","risk":"low","decision":"allow"}'                 | protocol | auto-review: reviewer output repeats a JSON member                               |
      | F-MSG-40 | pwsh                     | the reviewer's request throws "middleware refused"                                                   | internal | middleware refused                                                               |
      | F-MSG-41 | pwsh                     | the reviewer never answers                                                                           | timeout  | auto-review: the review did not finish within 60000 ms                           |

  @resilient @AR-RES-MSG-1 @AR-RES-ASK-1
  Scenario Outline: When a later listener also asks, the user sees one question that keeps the reviewer's objection first
    Given a session in Auto with approval policy "ask"
    And <the reviewer>
    And a later listener asks with "hook wants a human"
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the gate asks with '<review>; a later listener also asks: hook wants a human'
    And the gate shows the user:
      | en | <review en>\nA later check also asks: hook wants a human |
      | zh | <review zh>\n后续检查也请求确认：hook wants a human      |
    And the user is asked and answers "rejected"
    And the model sees 'Error: the user rejected tool "pwsh"'

    Examples:
      | id       | the reviewer                                                                    | review                                                                                                              | review en                                                                                                                      | review zh                                                                                                            |
      | F-MSG-42 | the reviewer denies with risk "high" and reason "uploads a key"                 | Auto review denied tool "pwsh": uploads a key                                                                       | Auto review denied this call: uploads a key                                                                                    | Auto review 拒绝了此调用：uploads a key                                                                              |
      | F-MSG-43 | the reviewer denies with risk "medium"                                          | Auto review denied tool "pwsh"                                                                                      | Auto review denied this call.                                                                                                  | Auto review 拒绝了此调用。                                                                                           |
      | F-MSG-44 | the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required" | Auto review of tool "pwsh" failed: auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required | Auto review could not complete for this call: auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required | Auto review 未能完成对此调用的审查：auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required |

  @resilient @AR-RES-MSG-1 @AR-RES-HINT-2 @AR-RES-ROUTE-1
  Scenario Outline: From the configured failure in a row on, one more line names the route and says how to get out, in both languages
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/dfmodel"
    And the session has had <before> in a row
    And the gate is configured with:
      | failure_hint_after | <hint after>     |
      | reviewer_route     | <reviewer route> |
    And the reviewer replies with text "Let me che"
    When the agent calls "pwsh"
    Then the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer output holds no decision object<hint>'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object<hint> |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object<hint zh>        |
    And the session then counts <after> in a row

    Examples:
      | id       | before              | hint after | reviewer route            | after               | hint                                                                                                                                                                                     | hint zh                                                                                                                                        |
      | F-MSG-45 | 1 reviewer failure  | 3          | null                      | 2 reviewer failures |                                                                                                                                                                                          |                                                                                                                                                |
      | F-MSG-46 | 2 reviewer failures | 3          | null                      | 3 reviewer failures | \nAuto review has failed 3 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.           | \nAuto review 已在路由 qodercn/dfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。           |
      | F-MSG-47 | 0 reviewer failures | 1          | null                      | 1 reviewer failure  | \nAuto review has failed 1 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.           | \nAuto review 已在路由 qodercn/dfmodel 上连续失败 1 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。           |
      | F-MSG-48 | 4 reviewer failures | 3          | buddy/deepseek-v4.1-flash | 5 reviewer failures | \nAuto review has failed 5 times in a row on route buddy/deepseek-v4.1-flash; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 buddy/deepseek-v4.1-flash 上连续失败 5 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

  @resilient @AR-RES-MSG-1 @AR-RES-MSG-2 @AR-RES-HINT-2 @AR-RES-FAIL-3
  Scenario Outline: A failure refused before anyone is asked carries the hint to the model too
    Given a session in Auto with approval policy "never"
    And the session's requests go to "qodercn/qfmodel"
    And the session has had 2 reviewer failures in a row
    And the reviewer replies with text "Let me che"
    When the agent calls "pwsh"
    Then the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer output holds no decision object<hint>'
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"protocol"}
      """

    Examples:
      | id       | hint                                                                                                                                                                           |
      | F-MSG-49 | \nAuto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |

  @resilient @AR-RES-MSG-2 @AR-RES-FAIL-3
  Scenario Outline: A failure refused before the later listeners is told apart from a denial by its info, which names the failure class
    Given a session in Auto with approval policy "never"
    And the tool's schema is "<schema>"
    And <the reviewer>
    When the agent calls "pwsh"
    Then the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <message>'
    And the refusal carries the info:
      """
      {"name":"AutoReviewFailedError","code":"AUTO_REVIEW_FAILED","failure":"<class>"}
      """
    And the approval service is not consulted

    Examples:
      | id       | schema  | the reviewer                                                                    | class     | message                                                                          |
      | F-MSG-50 | present | the reviewer's request fails with "TRANSPORT": "Connection error"               | transport | auto-review: reviewer ended with error TRANSPORT: Connection error               |
      | F-MSG-51 | present | the reviewer's request fails with "TIMEOUT": "upstream did not answer"          | timeout   | auto-review: reviewer ended with error TIMEOUT: upstream did not answer          |
      | F-MSG-52 | present | the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required" | quota     | auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required |
      | F-MSG-53 | present | the reviewer's response is aborted with "UNKNOWN": "The operation was aborted"  | aborted   | auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted      |
      | F-MSG-54 | present | the reviewer's request fails with "BAD_GATEWAY": "upstream exploded"            | provider  | auto-review: reviewer ended with error BAD_GATEWAY: upstream exploded            |
      | F-MSG-55 | present | the reviewer replies with text "Let me che"                                     | protocol  | auto-review: reviewer output holds no decision object                            |
      | F-MSG-56 | missing | the reviewer allows with risk "low"                                             | schema    | auto-review: the pending native tool schema is missing or ambiguous              |
      | F-MSG-57 | present | the reviewer's request throws "middleware refused"                              | internal  | middleware refused                                                               |

  # ---------------------------------------------------------------------------------------------
  # How a failure message becomes readable

  @AR-REVIEW-5 @AR-RES-NORM-1 @AR-RES-NORM-2 @AR-RES-NORM-3
  Scenario Outline: A provider's message that is not plain text is shown as JavaScript would in the baseline, and readably in the resilient profile
    Given a session in Auto with approval policy "never"
    And the reviewer's request fails with "QUOTA_EXCEEDED" and the message:
      """
      <provider message>
      """
    When the agent calls "pwsh"
    Then the review fails with class "quota"
    And the review failure reads 'auto-review: reviewer ended with error QUOTA_EXCEEDED: <shown as>'
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with error QUOTA_EXCEEDED: <shown as>'

    @baseline
    Examples: the baseline converts it as JavaScript's String(value) does
      | id       | provider message                                                    | shown as              |
      | F-MSG-58 | {"name":"AbortError","message":"The operation was aborted"}         | [object Object]       |
      | F-MSG-59 | {"errno":-104,"code":"ECONNRESET"}                                  | [object Object]       |
      | F-MSG-60 | {"error":{"message":"quota exhausted","type":"insufficient_quota"}} | [object Object]       |
      | F-MSG-61 | ["rate","limit"]                                                    | rate,limit            |
      | F-MSG-62 | [["a","b"],"c"]                                                     | a,b,c                 |
      | F-MSG-63 | [1,{"a":1},null]                                                    | 1,[object Object],    |
      | F-MSG-64 | null                                                                | null                  |
      | F-MSG-65 | 402                                                                 | 402                   |
      | F-MSG-66 | true                                                                | true                  |
      | F-MSG-67 | "Payment\\n\\n  Required"                                           | Payment\n\n  Required |

    @resilient
    Examples: the resilient profile gives a message member, compact JSON, one space per run of whitespace, and escapes what could hide or reorder text
      | id       | provider message                                                    | shown as                                                            |
      | F-MSG-68 | {"name":"AbortError","message":"The operation was aborted"}         | The operation was aborted                                           |
      | F-MSG-69 | {"errno":-104,"code":"ECONNRESET"}                                  | {"errno":-104,"code":"ECONNRESET"}                                  |
      | F-MSG-70 | {"error":{"message":"quota exhausted","type":"insufficient_quota"}} | {"error":{"message":"quota exhausted","type":"insufficient_quota"}} |
      | F-MSG-71 | {"message":42}                                                      | {"message":42}                                                      |
      | F-MSG-72 | ["rate","limit"]                                                    | ["rate","limit"]                                                    |
      | F-MSG-73 | [1,{"a":1},null]                                                    | [1,{"a":1},null]                                                    |
      | F-MSG-74 | null                                                                | null                                                                |
      | F-MSG-75 | 402                                                                 | 402                                                                 |
      | F-MSG-76 | "Payment\\n\\n  Required"                                           | Payment Required                                                    |
      | F-MSG-77 | {"message":"  quota\\n\\texhausted  "}                              | quota exhausted                                                     |
      | F-MSG-78 | "\\u001b[31mquota exceeded\\u001b[0m"                               | \\u{001b}[31mquota exceeded\\u{001b}[0m                             |
      | F-MSG-79 | "Payment\\u202eRequired"                                            | Payment\\u{202e}Required                                            |
      | F-MSG-80 | "quota\\u200bexceeded\\u0000\\u007f\\ufeff"                         | quota\\u{200b}exceeded\\u{0000}\\u{007f}\\u{feff}                   |

  @AR-REVIEW-5 @AR-RES-NORM-1
  Scenario Outline: A value the reviewer's request throws is converted the same way
    Given a session in Auto with approval policy "never"
    And the reviewer's request throws the value:
      """
      <thrown>
      """
    When the agent calls "pwsh"
    Then the review fails with class "internal"
    And the review failure reads '<shown as>'
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: <shown as>'

    @baseline
    Examples: the baseline converts it as JavaScript's String(value) does
      | id       | thrown                           | shown as           |
      | F-MSG-81 | "middleware refused"             | middleware refused |
      | F-MSG-82 | {"message":"middleware refused"} | [object Object]    |
      | F-MSG-83 | ["a",1,null]                     | a,1,               |

    @resilient
    Examples: the resilient profile gives a message member or compact JSON
      | id       | thrown                           | shown as           |
      | F-MSG-84 | "middleware refused"             | middleware refused |
      | F-MSG-85 | {"message":"middleware refused"} | middleware refused |
      | F-MSG-86 | ["a",1,null]                     | ["a",1,null]       |
      | F-MSG-87 | {"message":42}                   | {"message":42}     |

  @resilient @F-MSG-88 @AR-RES-NORM-4
  Scenario: A failure message longer than 400 characters is cut to 399 and an ellipsis
    Given a session in Auto with approval policy "never"
    And the reviewer's request fails with "QUOTA_EXCEEDED": "attempt 1 of 9 was refused by the upstream gateway; attempt 2 of 9 was refused by the upstream gateway; attempt 3 of 9 was refused by the upstream gateway; attempt 4 of 9 was refused by the upstream gateway; attempt 5 of 9 was refused by the upstream gateway; attempt 6 of 9 was refused by the upstream gateway; attempt 7 of 9 was refused by the upstream gateway; attempt 8 of 9 was refused by the upstream gateway; attempt 9 of 9 was refused by the upstream gateway"
    When the agent calls "pwsh"
    Then the review failure reads "auto-review: reviewer ended with error QUOTA_EXCEEDED: attempt 1 of 9 was refused by the upstream gateway; attempt 2 of 9 was refused by the upstream gateway; attempt 3 of 9 was refused by the upstream gateway; attempt 4 of 9 was refused by the upstream gateway; attempt 5 of 9 was refused by the upstream gateway; attempt 6 of 9 was refused by the upstream gateway; attempt 7 of 9 was refused by th…"
    And the model sees "Error: Auto review of tool \"pwsh\" failed; its body was not executed: auto-review: reviewer ended with error QUOTA_EXCEEDED: attempt 1 of 9 was refused by the upstream gateway; attempt 2 of 9 was refused by the upstream gateway; attempt 3 of 9 was refused by the upstream gateway; attempt 4 of 9 was refused by the upstream gateway; attempt 5 of 9 was refused by the upstream gateway; attempt 6 of 9 was refused by the upstream gateway; attempt 7 of 9 was refused by th…"
