Feature: The reviewer requests, as sent
  Every request the gate sends the reviewer is recorded: the route it went to, its temperature,
  how many tools it declares, the session id it carries, and whether the repair instruction was
  appended. Both profiles ask at temperature 0 and declare no tools, so the reviewer cannot answer
  with a call of its own. The shipped gate sends no session id, so review spend cannot be
  attributed to the session that caused it; the resilient profile sends the session's id with
  every request, the first, each repair and each transport retry alike.

  # --- The baseline ----------------------------------------------------------------------------

  @baseline @F-REQ-1 @BL-7 @AR-REVIEW-12 @AR-REVIEW-3
  Scenario: In the baseline, the one request goes to the session's route at temperature 0, with no tools and no session id
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | null       | false  |
    And the tool body runs

  @baseline @F-REQ-2 @BL-1 @AR-REVIEW-12 @AR-REVIEW-1 @AR-PARSE-4
  Scenario: In the baseline, a reply that cannot be read is not repaired: one request, and it is no repair
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer replies with text "I'll start by listing the files."
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | null       | false  |
    And the review fails with class "protocol"

  @AR-REVIEW-12 @AR-REVIEW-2 @AR-RES-SCHEMA-1
  Scenario Outline: A review that fails before its request records no request at all
    Given a session in Auto
    And the tool's schema is "missing"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route | temperature | tools | session id | repair |
    And the review fails with class "schema"

    @baseline
    Examples:
      | id      | row  |
      | F-REQ-3 | BL-1 |

    @resilient
    Examples:
      | id      | row   |
      | F-REQ-4 | RS-F1 |

  # --- The resilient profile -------------------------------------------------------------------

  @resilient @F-REQ-5 @RS-7 @AR-RES-REQUEST-1 @AR-REVIEW-12 @AR-REVIEW-3
  Scenario: In the resilient profile, the request carries the session's id
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |

  @resilient @F-REQ-6 @RS-7 @AR-RES-REQUEST-1 @AR-REVIEW-12 @AR-RES-RETRY-2
  Scenario: In the resilient profile, a repair request carries the session's id too, at temperature 0, and is marked a repair
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer replies with text "I'll start by listing the files."
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | true   |
    And the tool body runs

  @resilient @F-REQ-7 @RS-7 @AR-RES-REQUEST-1 @AR-REVIEW-12 @AR-RES-RETRY-2
  Scenario: In the resilient profile, a transport retry repeats the request unchanged: the same session id, and no repair
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |
    And the tool body runs

  @resilient @F-REQ-8 @RS-F1 @AR-RES-REQUEST-1 @AR-REVIEW-12 @AR-RES-RETRY-1 @AR-RES-RETRY-2 @AR-RES-ROUTE-1
  Scenario: In the resilient profile, every request of a review, to a configured route, carries the session's id: first, retry, repairs
    Given a session in Auto
    And the session's id is "s-20261025"
    And the session's requests go to "qodercn/dfmodel"
    And the gate is configured with:
      | reviewer_route  | strict/json-reviewer |
      | repair_attempts | 2                    |
    And the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer replies with text "I'll start by listing the files."
    And then the reviewer replies with text "<tool_call>list_agents</tool_call>"
    And then the reviewer replies with text "Let me check the command first."
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route                | temperature | tools | session id | repair |
      | strict/json-reviewer | 0           | 0     | s-20261025 | false  |
      | strict/json-reviewer | 0           | 0     | s-20261025 | false  |
      | strict/json-reviewer | 0           | 0     | s-20261025 | true   |
      | strict/json-reviewer | 0           | 0     | s-20261025 | true   |
    And the review fails with class "protocol"

  @resilient @F-REQ-10 @RS-7 @AR-RES-REQUEST-1 @AR-REVIEW-12 @AR-RES-RETRY-2
  Scenario: In the resilient profile, a transport retry of a repair request repeats it unchanged: it is a repair too
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer replies with text "<tool_call>list_agents</tool_call>"
    And then the reviewer's request fails with "TRANSPORT": "Connection error"
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | true   |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | true   |
    And the tool body runs

  @resilient @F-REQ-9 @AR-RES-REQUEST-1 @AR-REVIEW-12 @AR-SESSION-2
  Scenario: In the resilient profile, every call of a session sends its requests with the same session id
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |
    Given the reviewer replies with text "根据之前的侦察，我已经确认了项目目录结构。"
    And then the reviewer denies with risk "high"
    And the user would answer "rejected"
    When the agent calls "list_agents"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | false  |
      | qodercn/qfmodel | 0           | 0     | s-20261021 | true   |

  @resilient @F-REQ-11 @AR-REVIEW-3 @AR-REVIEW-12 @AR-RES-CONFIG-1 @AR-RES-RETRY-2
  Scenario: In the resilient profile, a configured temperature is what every request carries, the repair too
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the gate is configured with:
      | temperature | 0.5 |
    And the reviewer replies with text "<tool_call>list_agents</tool_call>"
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0.5         | 0     | s-20261021 | false  |
      | qodercn/qfmodel | 0.5         | 0     | s-20261021 | true   |
    And the tool body runs

  @resilient @F-REQ-12 @AR-REVIEW-3 @AR-REVIEW-12 @AR-RES-CONFIG-1
  Scenario: In the resilient profile, provider-default leaves the temperature out of the request, for a provider that rejects one
    Given a session in Auto
    And the session's id is "s-20261021"
    And the session's requests go to "qodercn/qfmodel"
    And the gate is configured with:
      | temperature | provider-default |
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | null        | 0     | s-20261021 | false  |
    And the tool body runs
