Feature: The 0.2.x gate asks once more when the reply is not JSON
  The 0.2.x gate reads its reviewer as strictly as the baseline, but when the reply is not JSON at
  all (prose, markup, an object wrapped in words), it asks the same question once more, with a
  reminder to answer with the JSON object alone. Only that failure earns another request: JSON that
  breaks the protocol, a provider's error and a cancelled call end the review at once. When the
  retries are spent the gate denies the call, naming the failure in fixed words.

  @shipped-0.2 @AR-JSON-RETRY-1 @AR-REVIEW-12 @AR-DECIDE-4
  Scenario Outline: A reply in prose is asked again, and the next decision stands
    Given a session in Auto
    And the session's requests go to "qodercn/qfmodel"
    And the reviewer replies with text '<prose>'
    And then the reviewer allows with risk "low"
    When the agent calls "bash"
    Then the review does not fail
    And the reviewer requests are:
      | route           | temperature | tools | session id | repair |
      | qodercn/qfmodel | 0           | 0     | null       | false  |
      | qodercn/qfmodel | 0           | 0     | null       | true   |
    And the gate allows
    And the tool body runs
    And the events are review, review, downstream, body

    Examples:
      | id       | row  | prose                                                                              |
      | F-JSON-1 | BL-7 | The pending bash call only lists project files. {"risk":"low","decision":"allow"} |
      | F-JSON-2 | BL-7 | <tool_call>{"name": "bash", "arguments": {}}</tool_call>                          |

  @shipped-0.2 @AR-JSON-RETRY-1 @AR-JSON-RETRY-3 @AR-DECIDE-1
  Scenario Outline: When the retries are spent, the call is denied with the fixed invalid-JSON message
    Given a session in Auto
    And the gate is configured with:
      | max_json_retries | <retries> |
    And the reviewer replies with text "Sure, that looks fine to run."
    When the agent calls "bash"
    Then the reviewer is asked <asked>
    And the gate denies with 'Auto review of tool "bash" failed; its body was not executed: auto-review: reviewer output must be valid JSON'
    And the tool body does not run

    Examples:
      | id       | row  | retries | asked   |
      | F-JSON-3 | BL-1 | 0       | once    |
      | F-JSON-4 | BL-1 | 1       | twice   |
      | F-JSON-5 | BL-1 | 3       | 4 times |

  @shipped-0.2 @AR-JSON-RETRY-2 @AR-DECIDE-1
  Scenario Outline: Any other failure ends the review at once, even when the next reply would allow
    Given a session in Auto
    And <first reply>
    And then the reviewer allows with risk "low"
    When the agent calls "bash"
    Then the reviewer is asked once
    And the gate denies with 'Auto review of tool "bash" failed; its body was not executed: <error>'
    And the tool body does not run
    And the events are review

    Examples:
      | id       | row  | first reply                                                                    | error                                                                  |
      | F-JSON-6 | BL-1 | the reviewer replies with text '{"risk":"low","decision":"allow","note":"ok"}' | auto-review: reviewer output does not match the risk/decision protocol |
      | F-JSON-7 | BL-1 | the reviewer replies with text '{"risk":"low","risk":"low","decision":"allow"}' | auto-review: reviewer output repeats a JSON member                     |
      | F-JSON-8 | BL-1 | the reviewer's request fails with "HTTP_429": "rate limited"                   | auto-review: reviewer ended with error HTTP_429: rate limited          |
