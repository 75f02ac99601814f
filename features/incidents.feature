Feature: The field report's incidents, as shipped and as the resilient profile behaves
  Over ten days in October 2026 a field report counted 55 reviewer failures in 15 sessions. The
  shipped gate refused every one of those calls before its body ran, without asking anybody, and
  with messages that told nobody what to do; a session on a route whose model did not answer in bare
  JSON could not run a single tool, not even ones called without arguments. Each incident is
  replayed here twice: as the shipped gate (the baseline) behaved, and as the resilient profile
  behaves on the very same calls. The worst two sessions are replayed whole, call after call, so
  that each call meets what the calls before it left: how many reviews in a row had failed.

  # ---------------------------------------------------------------------------------------------
  # 2026-10-21: five calls in four minutes in one session on one route, each reviewed by a model
  # that answered in prose or in tool-call markup instead of a decision

  @baseline @F-INC-32 @INC-1021-1B @INC-1021-2B @INC-1021-3B @INC-1021-4B @INC-1021-5B @AR-PARSE-4 @AR-DECIDE-1 @AR-SESSION-1 @AR-SESSION-3
  Scenario: 2026-10-21, as shipped: five calls in four minutes are refused one after another, none with a question, the fifth as the first
    The report quotes the first ten characters of each reply; the rest of each reply is rebuilt.
    Had anybody asked, the user would have let every call run but the third.

    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/qfmodel"
    # 15:25:36
    And the reviewer replies with text "根据之前的侦察，我已经确认了项目目录结构，接下来运行命令。"
    And the user would answer "allowed-once"
    When the agent calls "mcp__windows__PowerShell"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "mcp__windows__PowerShell" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/qfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # 15:28:04
    Given the reviewer replies with text '<tool_call>{"name": "mcp__windows__PowerShell", "arguments": {"command": "git status"}}</tool_call>'
    And the user would answer "allowed-once"
    When the agent calls "mcp__windows__PowerShell"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "mcp__windows__PowerShell" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/qfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # 15:28:57
    Given the reviewer replies with text '<tool_call>{"name": "pwsh", "arguments": {"command": "ls"}}</tool_call>'
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/qfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # 15:29:16, called without arguments
    Given the reviewer replies with text '<tool_call>{"name": "working_directory", "arguments": {}}</tool_call>'
    And the user would answer "allowed-once"
    When the agent calls "working_directory"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "working_directory" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/qfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # 15:29:29, called without arguments
    Given the reviewer replies with text '<tool_call> {"name": "list_agents", "arguments": {}} </tool_call>'
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "list_agents" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/qfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown

  @resilient @F-INC-33 @INC-1021-1R @INC-1021-2R @INC-1021-3R @INC-1021-4R @INC-1021-5R @AR-TOL-5 @AR-RES-RETRY-1 @AR-RES-FAIL-2 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-SESSION-1 @AR-SESSION-3
  Scenario: 2026-10-21, resilient: each call is put to the user after one repair request, and from the third failure in a row the question names the route and the way out
    The same five calls and replies. What the user answers is not in the report, since nobody was
    asked: here the user lets every call run but the third, the first whose question carries the
    hint.

    Given a session in Auto with approval policy "ask"
    And the session's requests go to "qodercn/qfmodel"
    # 15:25:36
    And the reviewer replies with text "根据之前的侦察，我已经确认了项目目录结构，接下来运行命令。"
    And the user would answer "allowed-once"
    When the agent calls "mcp__windows__PowerShell"
    Then the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with 'Auto review of tool "mcp__windows__PowerShell" failed: auto-review: reviewer output holds no decision object'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object            |
    And no hint is shown
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 1 reviewer failure in a row
    # 15:28:04
    Given the reviewer replies with text '<tool_call>{"name": "mcp__windows__PowerShell", "arguments": {"command": "git status"}}</tool_call>'
    And the user would answer "allowed-once"
    When the agent calls "mcp__windows__PowerShell"
    Then the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with 'Auto review of tool "mcp__windows__PowerShell" failed: auto-review: reviewer output holds no decision object'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object            |
    And no hint is shown
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 2 reviewer failures in a row
    # 15:28:57
    Given the reviewer replies with text '<tool_call>{"name": "pwsh", "arguments": {"command": "ls"}}</tool_call>'
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer output holds no decision object
Auto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object\nAuto review has failed 3 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object\nAuto review 已在路由 qodercn/qfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。            |
    And the hint names 3 failures in a row on route "qodercn/qfmodel"
    And the user is asked and answers "rejected"
    And the events are review, review, downstream, approval
    And the model sees 'Error: the user rejected tool "pwsh"'
    And the session then counts 3 reviewer failures in a row
    # 15:29:16, called without arguments
    Given the reviewer replies with text '<tool_call>{"name": "working_directory", "arguments": {}}</tool_call>'
    And the user would answer "allowed-once"
    When the agent calls "working_directory"
    Then the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with:
      """Auto review of tool "working_directory" failed: auto-review: reviewer output holds no decision object
Auto review has failed 4 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object\nAuto review has failed 4 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object\nAuto review 已在路由 qodercn/qfmodel 上连续失败 4 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。            |
    And the hint names 4 failures in a row on route "qodercn/qfmodel"
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 4 reviewer failures in a row
    # 15:29:29, called without arguments
    Given the reviewer replies with text '<tool_call> {"name": "list_agents", "arguments": {}} </tool_call>'
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the reviewer is asked twice
    And the requests go to "qodercn/qfmodel, qodercn/qfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with:
      """Auto review of tool "list_agents" failed: auto-review: reviewer output holds no decision object
Auto review has failed 5 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object\nAuto review has failed 5 times in a row on route qodercn/qfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object\nAuto review 已在路由 qodercn/qfmodel 上连续失败 5 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。            |
    And the hint names 5 failures in a row on route "qodercn/qfmodel"
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 5 reviewer failures in a row

  # ---------------------------------------------------------------------------------------------
  # 2026-10-25: the user switched the session to Auto, and the five calls of the next 24 seconds
  # were each reviewed by a model whose chat template leaked its internal tool-call sentinel (a
  # "DSML" tag framed by doubled fullwidth bars) into the text; the user escaped by leaving Auto

  @baseline @F-INC-34 @INC-1025-1B @INC-1025-2B @INC-1025-3B @INC-1025-4B @INC-1025-5B @AR-SCOPE-5 @AR-PARSE-4 @AR-DECIDE-1 @AR-SESSION-1 @AR-SESSION-2
  Scenario: 2026-10-25, as shipped: the user selects Auto, and the five calls of the next 24 seconds are all refused
    The report does not say which mode the session was in before 07:11:51 (any mode but Auto
    leads to the same), and names only the first two calls; the other three stand for the rest.
    At 07:12:15 the user escaped with "/permission danger-full-access". Switching to a mode other
    than Auto is not one of the lifecycle events a session scenario can hold (disposal,
    installation, selecting Auto), so the replay ends with the fifth refusal; a call in another
    mode is not reviewed at all (01-scope-and-admission).

    Given a session with the permission preset "workspace-write"
    And the session's requests go to "qodercn/dfmodel"
    # 07:11:51: "/permission auto", the risk dialog confirmed
    When the user selects Auto
    Then selecting Auto succeeds
    # 07:11:57
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/dfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # 07:11:59, called without arguments
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "list_agents" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/dfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # call 3 of 5, called without arguments
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "working_directory"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "working_directory" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/dfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # call 4 of 5
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/dfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown
    # call 5 of 5, called without arguments; 07:12:15 is 24 seconds after Auto was selected
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the tool body does not run
    And the model sees text starting with 'Error: Auto review of tool "list_agents" failed; its body was not executed: '
    And the refusal carries no info
    And the approval service is not consulted
    And the requests go to "qodercn/dfmodel"
    And the review fails with class "protocol"
    And the events are review
    And the session keeps no count of reviewer failures
    And no hint is shown

  @resilient @F-INC-35 @INC-1025-1R @INC-1025-2R @INC-1025-3R @INC-1025-4R @INC-1025-5R @AR-SCOPE-5 @AR-TOL-5 @AR-RES-RETRY-1 @AR-RES-FAIL-2 @AR-RES-HINT-1 @AR-RES-HINT-2 @AR-SESSION-1 @AR-SESSION-3
  Scenario: 2026-10-25, resilient: the leaked sentinel is no decision, so the user is asked about each call, and from the third the question says how to get out
    The same session: the user selects Auto, and five calls follow, each answered with the leaked
    sentinel. Here the user lets each call run. From the third call the question names the route
    and suggests configuring a reviewer model or switching the permission mode, the way the user
    took at 07:12:15. Switching to another mode is not one of the lifecycle events a session
    scenario can hold (disposal, installation, selecting Auto), so the replay ends with the fifth
    call.

    Given a session with the permission preset "workspace-write"
    And the session's requests go to "qodercn/dfmodel"
    # 07:11:51: "/permission auto", the risk dialog confirmed
    When the user selects Auto
    Then selecting Auto succeeds
    # 07:11:57
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the requests go to "qodercn/dfmodel, qodercn/dfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with 'Auto review of tool "pwsh" failed: auto-review: reviewer output holds no decision object'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object            |
    And no hint is shown
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 1 reviewer failure in a row
    # 07:11:59, called without arguments
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the reviewer is asked twice
    And the requests go to "qodercn/dfmodel, qodercn/dfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with 'Auto review of tool "list_agents" failed: auto-review: reviewer output holds no decision object'
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object            |
    And no hint is shown
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 2 reviewer failures in a row
    # call 3 of 5, called without arguments
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "working_directory"
    Then the reviewer is asked twice
    And the requests go to "qodercn/dfmodel, qodercn/dfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with:
      """Auto review of tool "working_directory" failed: auto-review: reviewer output holds no decision object
Auto review has failed 3 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object\nAuto review has failed 3 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object\nAuto review 已在路由 qodercn/dfmodel 上连续失败 3 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。            |
    And the hint names 3 failures in a row on route "qodercn/dfmodel"
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 3 reviewer failures in a row
    # call 4 of 5
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the requests go to "qodercn/dfmodel, qodercn/dfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with:
      """Auto review of tool "pwsh" failed: auto-review: reviewer output holds no decision object
Auto review has failed 4 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object\nAuto review has failed 4 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object\nAuto review 已在路由 qodercn/dfmodel 上连续失败 4 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。            |
    And the hint names 4 failures in a row on route "qodercn/dfmodel"
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 4 reviewer failures in a row
    # call 5 of 5, called without arguments; 07:12:15 is 24 seconds after Auto was selected
    Given the reviewer replies with text:
      """
      <｜｜DSML｜｜function_calls>
      <｜｜DSML｜｜invoke name="pwsh">
      <｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter>
      """
    And the user would answer "allowed-once"
    When the agent calls "list_agents"
    Then the reviewer is asked twice
    And the requests go to "qodercn/dfmodel, qodercn/dfmodel"
    And the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output holds no decision object"
    And the gate asks with:
      """Auto review of tool "list_agents" failed: auto-review: reviewer output holds no decision object
Auto review has failed 5 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write.
      """
    And the gate shows the user:
      | en | Auto review could not complete for this call: auto-review: reviewer output holds no decision object\nAuto review has failed 5 times in a row on route qodercn/dfmodel; configure a reviewer model (reviewer_route) or switch the permission mode, for example to workspace-write. |
      | zh | Auto review 未能完成对此调用的审查：auto-review: reviewer output holds no decision object\nAuto review 已在路由 qodercn/dfmodel 上连续失败 5 次；请配置审查模型（reviewer_route）或切换权限模式，例如切换到 workspace-write。            |
    And the hint names 5 failures in a row on route "qodercn/dfmodel"
    And the user is asked and answers "allowed-once"
    And the events are review, review, downstream, approval, body
    And the tool body runs
    And the session then counts 5 reviewer failures in a row

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
    And the session's requests go to "relay-gpt/gpt-6.1-sol"
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
    And the session's requests go to "relay-gpt/gpt-6.1-sol"
    And the reviewer's response is aborted with "UNKNOWN" and the message:
      """
      {"name":"AbortError","message":"The operation was aborted"}
      """
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked once
    And the requests go to "relay-gpt/gpt-6.1-sol"
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
    And the session's requests go to "relay-gpt/gpt-6.1-sol"
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
