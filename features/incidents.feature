Feature: The field report's incidents, as shipped and as the resilient profile behaves
  Over ten days in October 2026 a field report counted 55 reviewer failures in 15 sessions. The
  shipped gate refused every one of those calls before its body ran, without asking anybody, and
  with messages that told nobody what to do; a session on a route whose model did not answer in bare
  JSON could not run a single tool, not even ones called without arguments. Each incident is
  replayed here call by call twice: as the shipped gate (the baseline) behaved, and as the resilient
  profile behaves on the very same call.

  # ---------------------------------------------------------------------------------------------
  # 2026-10-21: five calls in four minutes on one route, each reviewed by a model that answered in
  # prose or in tool-call markup instead of a decision

  @baseline @BL-1 @AR-PARSE-4 @AR-DECIDE-1
  Scenario Outline: 2026-10-21, as shipped: a reviewer answering in prose or tool-call markup refuses every call without a question
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/qfmodel"
    And the session has had <failures before> in a row
    And the reviewer replies with text '<reply>'
    And the user would answer "<user would answer>"
    When the agent calls "<tool>"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "<tool>" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the reviewer is asked once
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures

    @INC-1021-1B
    Examples: 15:25:36, the reviewer answers in Chinese prose
      | id      | failures before     | tool                     | reply                                                      | user would answer |
      | F-INC-1 | 0 reviewer failures | mcp__windows__PowerShell | 根据之前的侦察，我已经确认了项目目录结构，接下来运行命令。 | allowed-once      |

    @INC-1021-2B
    Examples: 15:28:04, the reviewer answers with a tool call of its own
      | id      | failures before    | tool                     | reply                                                                                               | user would answer |
      | F-INC-2 | 1 reviewer failure | mcp__windows__PowerShell | <tool_call>{"name": "mcp__windows__PowerShell", "arguments": {"command": "git status"}}</tool_call> | allowed-once      |

    @INC-1021-3B
    Examples: 15:28:57
      | id      | failures before     | tool | reply                                                                   | user would answer |
      | F-INC-3 | 2 reviewer failures | pwsh | <tool_call>{"name": "pwsh", "arguments": {"command": "ls"}}</tool_call> | rejected          |

    @INC-1021-4B
    Examples: 15:29:16, a call without arguments
      | id      | failures before     | tool              | reply                                                                 | user would answer |
      | F-INC-4 | 3 reviewer failures | working_directory | <tool_call>{"name": "working_directory", "arguments": {}}</tool_call> | allowed-once      |

    @INC-1021-5B
    Examples: 15:29:29, a call without arguments
      | id      | failures before     | tool        | reply                                                             | user would answer |
      | F-INC-5 | 4 reviewer failures | list_agents | <tool_call> {"name": "list_agents", "arguments": {}} </tool_call> | allowed-once      |

  @resilient @RS-F1 @AR-TOL-5 @AR-RES-RETRY-1 @AR-RES-FAIL-2 @AR-RES-HINT-1 @AR-RES-HINT-2
  Scenario Outline: 2026-10-21, resilient: after one repair request the user is asked, with a readable error and, from the third failure, the way out
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/qfmodel"
    And the session has had <failures before> in a row
    And the reviewer replies with text '<reply>'
    And the user would answer "<user would answer>"
    When the agent calls "<tool>"
    Then the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with 'Auto review of tool "<tool>" failed: auto-review: reviewer output holds no decision object<hint>'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object<hint> |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object<hint zh>        |
    And the user is asked and answers "<user would answer>"
    And <then>
    And the events are <events>
    And the session then counts <failures after> in a row

    @INC-1021-1R
    Examples: 15:25:36, the reviewer answers in Chinese prose
      | id      | failures before     | tool                     | reply                                                      | user would answer | then               | events                                     | failures after     | hint | hint zh |
      | F-INC-6 | 0 reviewer failures | mcp__windows__PowerShell | 根据之前的侦察，我已经确认了项目目录结构，接下来运行命令。 | allowed-once      | the tool body runs | review, review, downstream, approval, body | 1 reviewer failure |      |         |

    @INC-1021-2R
    Examples: 15:28:04, the reviewer answers with a tool call of its own
      | id      | failures before    | tool                     | reply                                                                                               | user would answer | then               | events                                     | failures after      | hint | hint zh |
      | F-INC-7 | 1 reviewer failure | mcp__windows__PowerShell | <tool_call>{"name": "mcp__windows__PowerShell", "arguments": {"command": "git status"}}</tool_call> | allowed-once      | the tool body runs | review, review, downstream, approval, body | 2 reviewer failures |      |         |

    @INC-1021-3R
    Examples: 15:28:57, the third failure in a row: the user now also reads how to get out, and declines
      | id      | failures before     | tool | reply                                                                   | user would answer | then                                                  | events                               | failures after      | hint                                                                                                                                                                           | hint zh                                                                                                                              |
      | F-INC-8 | 2 reviewer failures | pwsh | <tool_call>{"name": "pwsh", "arguments": {"command": "ls"}}</tool_call> | rejected          | the model sees 'Error: the user rejected tool "pwsh"' | review, review, downstream, approval | 3 reviewer failures | \nAuto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 qodercn/qfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

    @INC-1021-4R
    Examples: 15:29:16, a call without arguments
      | id      | failures before     | tool              | reply                                                                 | user would answer | then               | events                                     | failures after      | hint                                                                                                                                                                           | hint zh                                                                                                                              |
      | F-INC-9 | 3 reviewer failures | working_directory | <tool_call>{"name": "working_directory", "arguments": {}}</tool_call> | allowed-once      | the tool body runs | review, review, downstream, approval, body | 4 reviewer failures | \nAuto review has failed 4 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 qodercn/qfmodel 上连续失败 4 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

    @INC-1021-5R
    Examples: 15:29:29, a call without arguments
      | id       | failures before     | tool        | reply                                                             | user would answer | then               | events                                     | failures after      | hint                                                                                                                                                                           | hint zh                                                                                                                              |
      | F-INC-10 | 4 reviewer failures | list_agents | <tool_call> {"name": "list_agents", "arguments": {}} </tool_call> | allowed-once      | the tool body runs | review, review, downstream, approval, body | 5 reviewer failures | \nAuto review has failed 5 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 qodercn/qfmodel 上连续失败 5 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

  # ---------------------------------------------------------------------------------------------
  # 2026-10-25: right after the user switched the session to Auto, five calls in 24 seconds, each
  # reviewed by a model whose chat template leaked its internal tool-call sentinel (a "DSML" tag
  # framed by doubled fullwidth bars) into the text; the user escaped by leaving Auto

  @baseline @BL-1 @AR-PARSE-4 @AR-DECIDE-1
  Scenario Outline: 2026-10-25, as shipped: five calls in 24 seconds are all refused, and the session is locked out
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/dfmodel"
    And the session has had <failures before> in a row
    And the reviewer replies with text '<reply>'
    And the user would answer "allowed-once"
    When the agent calls "<tool>"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "<tool>" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the review fails with class "protocol"
    And the events are review

    @INC-1025-1B
    Examples: call 1 of 5
      | id       | failures before     | tool | reply                                                                                                                                                     |
      | F-INC-11 | 0 reviewer failures | pwsh | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> |

    @INC-1025-2B
    Examples: call 2 of 5, a call without arguments
      | id       | failures before    | tool        | reply                                                                                                                                                     |
      | F-INC-12 | 1 reviewer failure | list_agents | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> |

    @INC-1025-3B
    Examples: call 3 of 5, a call without arguments
      | id       | failures before     | tool              | reply                                                                                                                                                     |
      | F-INC-13 | 2 reviewer failures | working_directory | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> |

    @INC-1025-4B
    Examples: call 4 of 5
      | id       | failures before     | tool | reply                                                                                                                                                     |
      | F-INC-14 | 3 reviewer failures | pwsh | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> |

    @INC-1025-5B
    Examples: call 5 of 5, a call without arguments
      | id       | failures before     | tool        | reply                                                                                                                                                     |
      | F-INC-15 | 4 reviewer failures | list_agents | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> |

  @resilient @RS-F1 @AR-TOL-5 @AR-RES-RETRY-1 @AR-RES-FAIL-2 @AR-RES-HINT-1 @AR-RES-HINT-2
  Scenario Outline: 2026-10-25, resilient: the leaked sentinel is no decision, so the user is asked and can let each call run
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/dfmodel"
    And the session has had <failures before> in a row
    And the reviewer replies with text '<reply>'
    And the user would answer "allowed-once"
    When the agent calls "<tool>"
    Then the reviewer is asked twice
    And the requests go to "qodercn/dfmodel, qodercn/dfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with 'Auto review of tool "<tool>" failed: auto-review: reviewer output holds no decision object<hint>'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object<hint> |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object<hint zh>        |
    And the user is asked and answers "allowed-once"
    And the tool body runs
    And the session then counts <failures after> in a row

    @INC-1025-1R
    Examples: call 1
      | id       | failures before     | tool | reply                                                                                                                                                     | failures after     | hint | hint zh |
      | F-INC-16 | 0 reviewer failures | pwsh | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | 1 reviewer failure |      |         |

    @INC-1025-2R
    Examples: call 2, a call without arguments
      | id       | failures before    | tool        | reply                                                                                                                                                     | failures after      | hint | hint zh |
      | F-INC-17 | 1 reviewer failure | list_agents | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | 2 reviewer failures |      |         |

    @INC-1025-3R
    Examples: call 3: from the third failure in a row the question also says how to get out
      | id       | failures before     | tool              | reply                                                                                                                                                     | failures after      | hint                                                                                                                                                                           | hint zh                                                                                                                              |
      | F-INC-18 | 2 reviewer failures | working_directory | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | 3 reviewer failures | \nAuto review has failed 3 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 qodercn/dfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

    @INC-1025-4R
    Examples: call 4
      | id       | failures before     | tool | reply                                                                                                                                                     | failures after      | hint                                                                                                                                                                           | hint zh                                                                                                                              |
      | F-INC-19 | 3 reviewer failures | pwsh | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | 4 reviewer failures | \nAuto review has failed 4 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 qodercn/dfmodel 上连续失败 4 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

    @INC-1025-5R
    Examples: call 5, a call without arguments
      | id       | failures before     | tool        | reply                                                                                                                                                     | failures after      | hint                                                                                                                                                                           | hint zh                                                                                                                              |
      | F-INC-20 | 4 reviewer failures | list_agents | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | 5 reviewer failures | \nAuto review has failed 5 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. | \nAuto review 已在路由 qodercn/dfmodel 上连续失败 5 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。 |

  # ---------------------------------------------------------------------------------------------
  # 2026-10-20: the tool set changed between requests (an MCP server reconnected), so the latest
  # request header no longer held the schema of tools that were plainly still there

  @baseline @BL-1 @AR-REVIEW-2 @AR-DECIDE-1
  Scenario Outline: 2026-10-20, as shipped: a tool missing from the request header is refused without a review
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "buddy/deepseek-v4.1-flash"
    And the session has had <failures before> in a row
    And the tool's schema is "registry-only"
    And the reviewer allows with risk "low"
    When the agent calls "<tool>"
    Then the tool body does not run
    And the model sees 'Error: Auto review of tool "<tool>" failed; its body was not executed: auto-review: the pending native tool schema is missing or ambiguous'
    And the refusal carries no info
    And the reviewer is not asked
    And the review fails with class "schema"
    And there are no events

    @INC-DRIFT-1B
    Examples: refusal 1
      | id       | failures before     | tool |
      | F-INC-21 | 0 reviewer failures | pwsh |

    @INC-DRIFT-2B
    Examples: refusal 2
      | id       | failures before    | tool |
      | F-INC-22 | 1 reviewer failure | pwsh |

    @INC-DRIFT-3B
    Examples: refusal 3
      | id       | failures before     | tool |
      | F-INC-23 | 2 reviewer failures | pwsh |

    @INC-DRIFT-4B
    Examples: refusal 4
      | id       | failures before     | tool                           |
      | F-INC-24 | 3 reviewer failures | mcp__mobile__mobile_force_stop |

  @resilient @RS-7 @AR-RES-SCHEMA-1 @AR-RES-HINT-1
  Scenario Outline: 2026-10-20, resilient: the live tool registry still has the schema, so the call is reviewed and runs
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "buddy/deepseek-v4.1-flash"
    And the session has had <failures before> in a row
    And the tool's schema is "registry-only"
    And the reviewer allows with risk "low"
    When the agent calls "<tool>"
    Then the reviewer is asked once
    And the requests go to "buddy/deepseek-v4.1-flash"
    And the review does not fail
    And the events are review, downstream, body
    And the tool body runs
    And the model sees no error
    And the session then counts 0 reviewer failures in a row

    @INC-DRIFT-1R
    Examples: call 1
      | id       | failures before     | tool |
      | F-INC-25 | 0 reviewer failures | pwsh |

    @INC-DRIFT-2R
    Examples: call 2
      | id       | failures before    | tool |
      | F-INC-26 | 1 reviewer failure | pwsh |

    @INC-DRIFT-3R
    Examples: call 3
      | id       | failures before     | tool |
      | F-INC-27 | 2 reviewer failures | pwsh |

    @INC-DRIFT-4R
    Examples: call 4
      | id       | failures before     | tool                           |
      | F-INC-28 | 3 reviewer failures | mcp__mobile__mobile_force_stop |

  # ---------------------------------------------------------------------------------------------
  # The "[object Object]" aborts: the provider ended the reviewer's response with an abort whose
  # message was an object, and the shipped gate turned it into text that named no cause

  @baseline @INC-OBJECT-B @F-INC-29 @BL-1 @AR-REVIEW-5 @AR-DECIDE-1
  Scenario: The [object Object] abort, as shipped: the cause is lost in the text the model sees
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "fuck-gpt/gpt-6.1-sol"
    And the reviewer's response is aborted with "UNKNOWN" and the message:
      """
      {"name":"AbortError","message":"The operation was aborted"}
      """
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with aborted UNKNOWN: [object Object]'
    And the refusal carries no info
    And the approval service is not consulted
    And the review fails with class "aborted"
    And the review failure reads "auto-review: reviewer ended with aborted UNKNOWN: [object Object]"

  @resilient @INC-OBJECT-R @F-INC-30 @RS-F1 @AR-RES-NORM-1 @AR-RES-RETRY-1 @AR-RES-FAIL-2
  Scenario: The [object Object] abort, resilient: the message member is shown, the abort is not retried, and the user decides
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "fuck-gpt/gpt-6.1-sol"
    And the reviewer's response is aborted with "UNKNOWN" and the message:
      """
      {"name":"AbortError","message":"The operation was aborted"}
      """
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the requests go to "fuck-gpt/gpt-6.1-sol"
    And the review fails with class "aborted"
    And the review failure reads "auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted"
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted           |
    And the user is asked and answers "rejected"
    And the tool body does not run
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the refusal carries no info
    And the session then counts 1 reviewer failure in a row

  @resilient @INC-OBJECT-2R @F-INC-31 @RS-F1 @AR-RES-NORM-1
  Scenario: An abort whose message object has no message member is shown as compact JSON, never as [object Object]
    Given a session in Auto with approval policy "ask"
    And the session's requests go to "fuck-gpt/gpt-6.1-sol"
    And the reviewer's response is aborted with "UNKNOWN" and the message:
      """
      {"code":"ECONNRESET","errno":-104}
      """
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the review fails with class "aborted"
    And the review failure reads 'auto-review: reviewer ended with aborted UNKNOWN: {"code":"ECONNRESET","errno":-104}'
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer ended with aborted UNKNOWN: {"code":"ECONNRESET","errno":-104}'
    And the user is asked and answers "rejected"
    And the model sees 'Error: the user rejected tool "pwsh"'
