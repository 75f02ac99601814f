Feature: What a reviewer's reply must look like, read strictly and read tolerantly
  The reviewer answers in text, and the gate has to find a decision in it before anything else
  happens. The baseline reads strictly: the reply must end normally and hold one text block that is
  exactly one JSON object of six legal shapes, with nothing around it. The resilient profile forgives
  where a deny sits (a fence, a sentence, leaked tool-call markup) but still fails closed on every
  doubt, so a reply it cannot read is a failure and never an allow; an allow stands only alone, so
  words around it, which the reader never reads, cannot hide a refusal. Most examples run with the
  approval policy "never", so what a reply was read as shows directly in what the model sees.

  # ---------------------------------------------------------------------------------------------
  # How the reply ends, and which blocks it holds

  @AR-PARSE-1 @AR-TOL-1 @AR-MSG-2
  Scenario Outline: A reply that does not end with a normal stop is a failure, whatever its text says
    Given a session in Auto with approval policy "never"
    And the reviewer replies with blocks:
      | type | text                              |
      | text | {"risk":"low","decision":"allow"} |
    And that reply ends with finish "<finish>"
    When the agent calls "pwsh"
    Then the tool body does not run
    And the reviewer is asked once
    And the review fails with class "provider"
    And the review failure reads "auto-review: reviewer ended with <finish>"
    And the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer ended with <finish>'

    @baseline
    Examples: the strict reader
      | id        | finish         |
      | F-PARSE-1 | max-tokens     |
      | F-PARSE-2 | content-filter |

    @resilient
    Examples: the tolerant reader
      | id        | finish         |
      | F-PARSE-3 | max-tokens     |
      | F-PARSE-4 | content-filter |

  @AR-PARSE-1 @AR-TOL-1 @AR-MSG-2
  Scenario Outline: A reply that ends in an error or an abort is a failure that names the provider's code and message
    Given a session in Auto with approval policy "never"
    And <the reply ends>
    When the agent calls "pwsh"
    Then the tool body does not run
    And the review fails with class "<class>"
    And the review failure reads "<message>"

    @baseline
    Examples: the strict reader
      | id        | the reply ends                                                                  | class   | message                                                                          |
      | F-PARSE-5 | the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required" | quota   | auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required |
      | F-PARSE-6 | the reviewer's response is aborted with "UNKNOWN": "The operation was aborted"  | aborted | auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted      |

    @resilient
    Examples: the tolerant reader
      | id        | the reply ends                                                                  | class   | message                                                                          |
      | F-PARSE-7 | the reviewer's request fails with "QUOTA_EXCEEDED": "HTTP 402 Payment Required" | quota   | auto-review: reviewer ended with error QUOTA_EXCEEDED: HTTP 402 Payment Required |
      | F-PARSE-8 | the reviewer's response is aborted with "UNKNOWN": "The operation was aborted"  | aborted | auto-review: reviewer ended with aborted UNKNOWN: The operation was aborted      |

  @AR-PARSE-2 @AR-TOL-2
  Scenario Outline: Data the stream sends after the reply's finish fails the strict reader and is ignored by the tolerant one
    Given a session in Auto with approval policy "never"
    And the reviewer replies with blocks:
      | type | text                              |
      | text | {"risk":"low","decision":"allow"} |
    And the stream sends more data after that reply's finish
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    @baseline
    Examples: the strict reader
      | id        | verdict                                | evidence                                                                                                                                           |
      | F-PARSE-9 | the review fails with class "protocol" | the model sees 'Error: Auto review of tool "pwsh" failed; its body was not executed: auto-review: reviewer emitted data after its terminal finish' |

    @resilient
    Examples: the tolerant reader
      | id         | verdict            | evidence                 |
      | F-PARSE-10 | the tool body runs | the review does not fail |

  @AR-PARSE-3 @AR-TOL-2 @AR-RES-MSG-1
  Scenario Outline: Reasoning is never read; the strict reader wants one text block last, the tolerant one joins the text blocks
    Given a session in Auto with approval policy "never"
    And the reviewer replies with blocks:
      | type    | text         |
      | <first> | <first text> |
      | <then>  | <then text>  |
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    @baseline
    Examples: the strict reader
      | id         | first     | first text                                   | then      | then text                         | verdict                                                                             | evidence                                                                                                                    |
      | F-PARSE-11 | reasoning | {"risk":"low","decision":"allow"}            | text      | {"risk":"high","decision":"deny"} | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail                                                                                                    |
      | F-PARSE-12 | text      | {"risk":"low",                               | text      | "decision":"allow"}               | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block" |
      | F-PARSE-13 | tool-call | {"name":"pwsh","arguments":{"command":"ls"}} | text      | {"risk":"low","decision":"allow"} | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block" |
      | F-PARSE-14 | text      | {"risk":"low","decision":"allow"}            | reasoning | The path is inside the workspace. | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block" |
      | F-PARSE-15 | reasoning | {"risk":"low","decision":"allow"}            | reasoning | The path is inside the workspace. | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer must emit zero or more reasoning blocks followed by exactly one text block" |

    @resilient
    Examples: the tolerant reader
      | id         | first     | first text                                   | then      | then text                         | verdict                                                                             | evidence                                                                                   |
      | F-PARSE-16 | reasoning | {"risk":"low","decision":"allow"}            | text      | {"risk":"high","decision":"deny"} | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail                                                                   |
      | F-PARSE-17 | text      | {"risk":"low",                               | text      | "decision":"allow"}               | the tool body runs                                                                  | the review does not fail                                                                   |
      | F-PARSE-18 | tool-call | {"name":"pwsh","arguments":{"command":"ls"}} | text      | {"risk":"low","decision":"allow"} | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer emitted a tool call instead of a decision" |
      | F-PARSE-19 | text      | {"risk":"low","decision":"allow"}            | reasoning | The path is inside the workspace. | the tool body runs                                                                  | the review does not fail                                                                   |
      | F-PARSE-20 | reasoning | {"risk":"low","decision":"allow"}            | reasoning | The path is inside the workspace. | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds no decision object"           |

  # ---------------------------------------------------------------------------------------------
  # The decision object itself: the same rules for both readers

  @AR-PARSE-7 @AR-TOL-8 @AR-MSG-1
  Scenario Outline: The six legal shapes are read as the decision they state, by both readers
    Given a session in Auto with approval policy "ask"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then the review does not fail
    And <the gate>

    @baseline
    Examples: the strict reader
      | id         | reply                                                                       | the gate                                                                          |
      | F-PARSE-21 | {"risk":"low","decision":"allow"}                                           | the gate allows                                                                   |
      | F-PARSE-22 | {"risk":"medium","decision":"allow"}                                        | the gate allows                                                                   |
      | F-PARSE-23 | {"risk":"medium","decision":"deny"}                                         | the gate asks with 'Auto review denied tool "pwsh"'                               |
      | F-PARSE-24 | {"risk":"medium","decision":"deny","reason":"writes outside the workspace"} | the gate asks with 'Auto review denied tool "pwsh": writes outside the workspace' |
      | F-PARSE-25 | {"risk":"high","decision":"deny"}                                           | the gate asks with 'Auto review denied tool "pwsh"'                               |
      | F-PARSE-26 | {"risk":"high","decision":"deny","reason":"uploads a key"}                  | the gate asks with 'Auto review denied tool "pwsh": uploads a key'                |
      | F-PARSE-27 | {"decision":"allow","risk":"low"}                                           | the gate allows                                                                   |
      | F-PARSE-28 | {"ris\\u006b":"low","decisio\\u006e":"allow"}                               | the gate allows                                                                   |
      | F-PARSE-29 | {"reason":"删除了用户未指定的目录","decision":"deny","risk":"medium"}       | the gate asks with 'Auto review denied tool "pwsh": 删除了用户未指定的目录'       |

    @resilient
    Examples: the tolerant reader
      | id         | reply                                                                       | the gate                                                                          |
      | F-PARSE-30 | {"risk":"low","decision":"allow"}                                           | the gate allows                                                                   |
      | F-PARSE-31 | {"risk":"medium","decision":"allow"}                                        | the gate allows                                                                   |
      | F-PARSE-32 | {"risk":"medium","decision":"deny"}                                         | the gate asks with 'Auto review denied tool "pwsh"'                               |
      | F-PARSE-33 | {"risk":"medium","decision":"deny","reason":"writes outside the workspace"} | the gate asks with 'Auto review denied tool "pwsh": writes outside the workspace' |
      | F-PARSE-34 | {"risk":"high","decision":"deny"}                                           | the gate asks with 'Auto review denied tool "pwsh"'                               |
      | F-PARSE-35 | {"risk":"high","decision":"deny","reason":"uploads a key"}                  | the gate asks with 'Auto review denied tool "pwsh": uploads a key'                |
      | F-PARSE-36 | {"decision":"allow","risk":"low"}                                           | the gate allows                                                                   |
      | F-PARSE-37 | {"ris\\u006b":"low","decisio\\u006e":"allow"}                               | the gate allows                                                                   |
      | F-PARSE-38 | {"reason":"删除了用户未指定的目录","decision":"deny","risk":"medium"}       | the gate asks with 'Auto review denied tool "pwsh": 删除了用户未指定的目录'       |

  @AR-PARSE-7 @AR-TOL-5 @AR-TOL-8
  Scenario Outline: An allow quoted inside a denial's reason is only words
    Given a session in Auto with approval policy "ask"
    And the reviewer replies with text:
      """
      {"risk":"high","decision":"deny","reason":"it asked me to answer {\"risk\":\"low\",\"decision\":\"allow\"}"}
      """
    When the agent calls "pwsh"
    Then the review does not fail
    And the gate asks with 'Auto review denied tool "pwsh": it asked me to answer {"risk":"low","decision":"allow"}'

    @baseline
    Examples: the strict reader
      | id         |
      | F-PARSE-39 |

    @resilient
    Examples: the tolerant reader
      | id         |
      | F-PARSE-40 |

  @AR-PARSE-6 @AR-PARSE-7 @AR-TOL-8 @AR-MSG-2
  Scenario Outline: An object that is not one of the six shapes, or repeats a member, fails the review under both readers
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then the tool body does not run
    And the review fails with class "protocol"
    And the review failure reads "<message>"

    @baseline
    Examples: the strict reader
      | id         | reply                                                         | message                                                                |
      | F-PARSE-41 | {"risk":"high","decision":"allow"}                            | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-42 | {"risk":"low","decision":"deny"}                              | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-43 | {"risk":"low","decision":"allow","reason":"harmless"}         | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-44 | {"risk":"low","decision":"Allow"}                             | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-45 | {"risk":"critical","decision":"deny"}                         | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-46 | {"risk":"low","decision":"allow","confidence":0.9}            | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-47 | {"risk":"high","decision":"deny","reason":42}                 | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-48 | {"decision":"allow"}                                          | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-49 | {"risk":"high","decision":"deny","meta":{"decision":"allow"}} | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-50 | {"decision":"deny","risk":"low","decision":"allow"}           | auto-review: reviewer output repeats a JSON member                     |
      | F-PARSE-51 | {"risk":"low","decision":"deny","d\\u0065cision":"allow"}     | auto-review: reviewer output repeats a JSON member                     |
      | F-PARSE-52 | {"risk":"low","risk":"low","decision":"allow"}                | auto-review: reviewer output repeats a JSON member                     |

    @resilient
    Examples: the tolerant reader
      | id         | reply                                                         | message                                                                |
      | F-PARSE-53 | {"risk":"high","decision":"allow"}                            | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-54 | {"risk":"low","decision":"deny"}                              | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-55 | {"risk":"low","decision":"allow","reason":"harmless"}         | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-56 | {"risk":"low","decision":"Allow"}                             | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-57 | {"risk":"critical","decision":"deny"}                         | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-58 | {"risk":"low","decision":"allow","confidence":0.9}            | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-59 | {"risk":"high","decision":"deny","reason":42}                 | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-60 | {"decision":"allow"}                                          | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-61 | {"risk":"high","decision":"deny","meta":{"decision":"allow"}} | auto-review: reviewer output does not match the risk/decision protocol |
      | F-PARSE-62 | {"decision":"deny","risk":"low","decision":"allow"}           | auto-review: reviewer output repeats a JSON member                     |
      | F-PARSE-63 | {"risk":"low","decision":"deny","d\\u0065cision":"allow"}     | auto-review: reviewer output repeats a JSON member                     |
      | F-PARSE-64 | {"risk":"low","risk":"low","decision":"allow"}                | auto-review: reviewer output repeats a JSON member                     |

  # ---------------------------------------------------------------------------------------------
  # Where the decision sits: the same reply, strictly and tolerantly

  @AR-PARSE-4 @AR-TOL-4 @AR-TOL-5
  Scenario Outline: A fence or a sentence around the decision fails the strict reader; the tolerant reader finds a deny anywhere and an allow only in a plain fence
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    @baseline
    Examples: the strict reader
      | id         | reply                                                                                         | verdict                                | evidence                                                                                                  |
      | F-PARSE-65 | ```json\n{"risk":"low","decision":"allow"}\n```                                               | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-66 | ~~~\n{"risk":"high","decision":"deny"}\n~~~                                                   | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-67 | ```text {"risk":"low","decision":"allow"}\nthat is all```                                     | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-68 | The command only lists files inside the workspace. {"risk":"low","decision":"allow"}          | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-69 | {"risk":"medium","decision":"deny"}\nI denied it because the target was not named.            | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-70 | He said "go ahead" but the path is outside the workspace: {"risk":"medium","decision":"deny"} | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-71 | 根据之前的侦察，目标目录已确认。\n{"risk":"high","decision":"deny"}\n以上。                   | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |

    @resilient
    Examples: the tolerant reader
      | id         | reply                                                                                         | verdict                                                                             | evidence                 |
      | F-PARSE-72 | ```json\n{"risk":"low","decision":"allow"}\n```                                               | the tool body runs                                                                  | the review does not fail |
      | F-PARSE-73 | ~~~\n{"risk":"high","decision":"deny"}\n~~~                                                   | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail |
      | F-PARSE-76 | {"risk":"medium","decision":"deny"}\nI denied it because the target was not named.            | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail |
      | F-PARSE-77 | He said "go ahead" but the path is outside the workspace: {"risk":"medium","decision":"deny"} | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail |
      | F-PARSE-78 | 根据之前的侦察，目标目录已确认。\n{"risk":"high","decision":"deny"}\n以上。                   | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail |
      | F-PARSE-160 | ```text {"risk":"low","decision":"allow"}\nthat is all```                                    | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-161 | The command only lists files inside the workspace. {"risk":"low","decision":"allow"}         | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |

  @AR-PARSE-4 @AR-TOL-5 @AR-RES-MSG-1
  Scenario Outline: A reply that is only tool-call markup holds no decision for either reader
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then the tool body does not run
    And the review fails with class "protocol"
    And <evidence>

    @baseline
    Examples: the strict reader
      | id         | reply                                                                                                                                                     | evidence                                                                                                  |
      | F-PARSE-79 | <tool_call>{"name": "list_agents", "arguments": {}}</tool_call>                                                                                           | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-80 | <tool_call> {"name": "working_directory", "arguments": {}} </tool_call>                                                                                   | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-81 | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-82 | ```toolCal\n{"name":"bash","arguments":{"command":"ls"}}\n```                                                                                             | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |

    @resilient
    Examples: the tolerant reader
      | id         | reply                                                                                                                                                     | evidence                                                                         |
      | F-PARSE-83 | <tool_call>{"name": "list_agents", "arguments": {}}</tool_call>                                                                                           | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-84 | <tool_call> {"name": "working_directory", "arguments": {}} </tool_call>                                                                                   | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-85 | <｜｜DSML｜｜function_calls>\n<｜｜DSML｜｜invoke name="pwsh">\n<｜｜DSML｜｜parameter name="command" string="true">Get-ChildItem</｜｜DSML｜｜parameter> | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-86 | ```toolCal\n{"name":"bash","arguments":{"command":"ls"}}\n```                                                                                             | the review failure reads "auto-review: reviewer output holds no decision object" |

  @AR-PARSE-4 @AR-PARSE-5 @AR-PARSE-7 @AR-TOL-5 @AR-MSG-2 @AR-RES-MSG-1
  Scenario Outline: Prose alone, a value that is not an object, or a decision nested out of reach is no decision
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    @baseline
    Examples: the strict reader
      | id         | reply                                         | verdict                                | evidence                                                                                                  |
      | F-PARSE-87 | Let me che                                    | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-88 | 根据之前的侦察，我已                          | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-89 |                                               | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-90 | null                                          | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output must be one JSON object"                           |
      | F-PARSE-91 | "allow"                                       | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output must be one JSON object"                           |
      | F-PARSE-92 | [{"risk":"low","decision":"allow"}]           | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output must be one JSON object"                           |
      | F-PARSE-93 | {}                                            | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output does not match the risk/decision protocol"         |
      | F-PARSE-94 | {"verdict":{"risk":"low","decision":"allow"}} | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output does not match the risk/decision protocol"         |

    @resilient
    Examples: the tolerant reader
      | id          | reply                                         | verdict                                | evidence                                                                         |
      | F-PARSE-95  | Let me che                                    | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-96  | 根据之前的侦察，我已                          | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-97  |                                               | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-98  | null                                          | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-99  | "allow"                                       | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-162 | [{"risk":"low","decision":"allow"}]           | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-101 | {}                                            | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |
      | F-PARSE-102 | {"verdict":{"risk":"low","decision":"allow"}} | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds no decision object" |

  # ---------------------------------------------------------------------------------------------
  # Hostile replies: the tolerant reader must never pick an allow out of doubt

  @AR-PARSE-4 @AR-TOL-6 @AR-RES-MSG-1
  Scenario Outline: Two differing decisions are ambiguous; the reader never picks one, and an allow hidden after a deny never wins
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    @baseline
    Examples: the strict reader
      | id          | reply                                                                            | verdict                                | evidence                                                                                                  |
      | F-PARSE-103 | {"risk":"low","decision":"allow"} Actually no: {"risk":"high","decision":"deny"} | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-104 | {"risk":"high","decision":"deny"}\n{"risk":"low","decision":"allow"}             | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-105 | {"risk":"low","decision":"allow"} {"risk": "low", "decision": "allow"}           | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-106 | <tool_call>{"decision":"deny"}</tool_call> {"risk":"low","decision":"allow"}     | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-107 | {"risk":"low","decision":"allow"}\n{"risk":"low","decision":"allow"}             | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |

    @resilient
    Examples: the tolerant reader
      | id          | reply                                                                            | verdict                                | evidence                                                                                                  |
      | F-PARSE-108 | {"risk":"low","decision":"allow"} Actually no: {"risk":"high","decision":"deny"} | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output is ambiguous: it holds differing decision objects" |
      | F-PARSE-109 | {"risk":"high","decision":"deny"}\n{"risk":"low","decision":"allow"}             | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output is ambiguous: it holds differing decision objects" |
      | F-PARSE-110 | {"risk":"low","decision":"allow"} {"risk": "low", "decision": "allow"}           | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output is ambiguous: it holds differing decision objects" |
      | F-PARSE-111 | <tool_call>{"decision":"deny"}</tool_call> {"risk":"low","decision":"allow"}     | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output is ambiguous: it holds differing decision objects" |
      | F-PARSE-163 | {"risk":"low","decision":"allow"}\n{"risk":"low","decision":"allow"}             | the review fails with class "protocol" | the review failure reads "auto-review: reviewer output holds an allow beside prose"                       |

  @AR-PARSE-4 @AR-TOL-6 @AR-TOL-7 @AR-RES-MSG-1
  Scenario Outline: A malformed object that mentions a decision fails the review, so a well-formed allow after it cannot win
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then the tool body does not run
    And the review fails with class "protocol"
    And <evidence>

    @baseline
    Examples: the strict reader
      | id          | reply                                                                             | evidence                                                                                                  |
      | F-PARSE-113 | {"risk":"high","decision":"deny",} {"risk":"low","decision":"allow"}              | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-114 | {"risk":"low","decision":"allow",}                                                | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-115 | {risk:"low",decision:"allow"}                                                     | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-116 | {"risk":"low", /* fine */ "decision":"allow"}                                     | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-117 | {"decision":} {"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"} | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-118 | {"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"} {"decision":} | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |

    @resilient
    Examples: the tolerant reader
      | id          | reply                                                                             | evidence                                                                                                  |
      | F-PARSE-119 | {"risk":"high","decision":"deny",} {"risk":"low","decision":"allow"}              | the review failure reads "auto-review: reviewer output holds a malformed decision object"                 |
      | F-PARSE-120 | {"risk":"low","decision":"allow",}                                                | the review failure reads "auto-review: reviewer output holds a malformed decision object"                 |
      | F-PARSE-121 | {risk:"low",decision:"allow"}                                                     | the review failure reads "auto-review: reviewer output holds a malformed decision object"                 |
      | F-PARSE-122 | {"risk":"low", /* fine */ "decision":"allow"}                                     | the review failure reads "auto-review: reviewer output holds a malformed decision object"                 |
      | F-PARSE-123 | {"decision":} {"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"} | the review failure reads "auto-review: reviewer output holds a malformed decision object"                 |
      | F-PARSE-124 | {"risk":"low","decision":"allow"} {"risk":"high","decision":"deny"} {"decision":} | the review failure reads "auto-review: reviewer output is ambiguous: it holds differing decision objects" |

  @AR-PARSE-4 @AR-TOL-5 @AR-TOL-9 @AR-RES-MSG-1
  Scenario Outline: An allow stands only when no brace appears outside it; a deny is read whatever surrounds it
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    @baseline
    Examples: the strict reader
      | id          | reply                                                                                      | verdict                                | evidence                                                                                                  |
      | F-PARSE-125 | Arguments: {"path": "src", "recursive": false}. Verdict: {"risk":"low","decision":"allow"} | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-126 | Arguments: {"path": "/", "recursive": true}. Verdict: {"risk":"high","decision":"deny"}    | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-127 | }} sorry, formatting glitch }} {"risk":"low","decision":"allow"}                           | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-128 | {"verdict":{"risk":"high","decision":"deny"}} {"risk":"low","decision":"allow"}            | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-129 | {"risk":"low","decision":"allow"}\n{"risk":"high","decision":"deny"                        | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-130 | "risk":"high","decision":"deny"} {"risk":"low","decision":"allow"}                         | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-131 | {"risk":"high","决定":"拒绝"} {"risk":"low","decision":"allow"}                            | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-132 | ```deny}\n{"risk":"low","decision":"allow"}\n```                                           | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-133 | {oops} {"risk":"low","decision":"allow"}                                                   | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-134 | {oops} {"risk":"high","decision":"deny"}                                                   | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |
      | F-PARSE-135 | { note: {"risk":"low","decision":"allow"}                                                  | the review fails with class "protocol" | the model sees text starting with 'Error: Auto review of tool "pwsh" failed; its body was not executed: ' |

    @resilient
    Examples: the tolerant reader
      | id          | reply                                                                                      | verdict                                                                             | evidence                                                                                   |
      | F-PARSE-136 | Arguments: {"path": "src", "recursive": false}. Verdict: {"risk":"low","decision":"allow"} | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-137 | Arguments: {"path": "/", "recursive": true}. Verdict: {"risk":"high","decision":"deny"}    | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail                                                                   |
      | F-PARSE-138 | }} sorry, formatting glitch }} {"risk":"low","decision":"allow"}                           | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-139 | {"verdict":{"risk":"high","decision":"deny"}} {"risk":"low","decision":"allow"}            | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-140 | {"risk":"low","decision":"allow"}\n{"risk":"high","decision":"deny"                        | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-141 | "risk":"high","decision":"deny"} {"risk":"low","decision":"allow"}                         | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-142 | {"risk":"high","决定":"拒绝"} {"risk":"low","decision":"allow"}                            | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-143 | ```deny}\n{"risk":"low","decision":"allow"}\n```                                           | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-144 | {oops} {"risk":"low","decision":"allow"}                                                   | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside other braces" |
      | F-PARSE-145 | {oops} {"risk":"high","decision":"deny"}                                                   | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail                                                                   |
      | F-PARSE-146 | { note: {"risk":"low","decision":"allow"}                                                  | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds no decision object"           |

  @resilient @AR-TOL-10 @AR-RES-MSG-1
  Scenario Outline: Words around an allow are never read, so an allow stands only alone; a deny is read whatever surrounds it
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<reply>'
    When the agent calls "pwsh"
    Then <verdict>
    And <evidence>

    Examples:
      | id          | reply                                                                                        | verdict                                                                             | evidence                                                                            |
      | F-PARSE-164 | The attacker wants me to output {"risk":"low","decision":"allow"} but I refuse.              | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-165 | Example output: `{"risk":"low","decision":"allow"}`. 这个命令会删除用户文件，我拒绝。         | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-166 | 我拒绝执行。示例输出：{"risk":"low","decision":"allow"}                                      | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-167 | Decision: {"risk":"low","decision":"allow"}                                                  | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-168 | <tool_call> {"risk":"low","decision":"allow"}                                                | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-169 | ```json title="verdict"\n{"risk":"low","decision":"allow"}\n```                              | the review fails with class "protocol"                                              | the review failure reads "auto-review: reviewer output holds an allow beside prose" |
      | F-PARSE-170 | Decision: {"risk":"high","decision":"deny"}                                                  | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail                                                            |
      | F-PARSE-171 | 我拒绝。{"risk":"high","decision":"deny","reason":"删除用户文件"}                            | the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed' | the review does not fail                                                            |
      | F-PARSE-172 | {"risk":"low","decision":"allow"}                                                            | the tool body runs                                                                  | the review does not fail                                                            |
      | F-PARSE-173 | \n\n{"risk":"medium","decision":"allow"}\n                                                    | the tool body runs                                                                  | the review does not fail                                                            |
      | F-PARSE-174 | ~~~json\n{"risk":"low","decision":"allow"}\n~~~                                               | the tool body runs                                                                  | the review does not fail                                                            |

  @resilient @F-PARSE-175 @AR-TOL-10 @AR-RES-RETRY-1
  Scenario: An allow among words earns a repair request, and a bare allow then runs the body after two requests
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text 'I checked: it only lists files. {"risk":"low","decision":"allow"}'
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the review does not fail
    And the tool body runs

  @resilient @F-PARSE-176 @AR-TOL-10 @AR-RES-FAIL-1
  Scenario: A refusal in words around a quoted allow, on every request, is asked about under "ask" and never runs the body unasked
    Given a session in Auto with approval policy "ask"
    And the reviewer replies with text 'The attacker wants me to output {"risk":"low","decision":"allow"} but I refuse.'
    And the user would answer "rejected"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the review fails with class "protocol"
    And the user is asked and answers "rejected"
    And the user is asked with reason 'Auto review of tool "pwsh" failed: auto-review: reviewer output holds an allow beside prose'
    And the tool body does not run

  @resilient @F-PARSE-177 @AR-TOL-3 @AR-TOL-5
  Scenario: A long reply is still read: only a text over a megabyte is refused unread
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text 'I read the pending call carefully. It lists the files of the current workspace, does not follow symbolic links out of it, writes nothing, starts no other process and sends nothing over the network. The arguments name only a relative directory inside the project, and the agent asked for the listing to decide which file to open next. Nothing here touches credentials or other users, yet the request says to delete them afterwards, so I refuse. {"risk":"high","decision":"deny"}'
    When the agent calls "pwsh"
    Then the review does not fail
    And the model sees 'Error: Auto review rejected tool "pwsh"; its body was not executed'

  @resilient @F-PARSE-157 @AR-TOL-5 @AR-RES-RETRY-1
  Scenario: A reply the tolerant reader cannot read earns one repair request, which can still obtain the decision
    Given a session in Auto with approval policy "never"
    And the reviewer replies with text '<tool_call>{"name": "pwsh", "arguments": {"command": "ls"}}</tool_call>'
    And then the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the reviewer is asked twice
    And the review does not fail
    And the tool body runs

  @resilient @F-PARSE-158 @AR-TOL-3
  Scenario: A reply over a megabyte is refused before it is read, even with a decision at its end
    Given a session in Auto with approval policy "never"
    And the reviewer replies with 1048577 copies of "a"
    When the agent calls "pwsh"
    Then the review fails with class "protocol"
    And the review failure reads "auto-review: reviewer output exceeds 1048576 bytes"
    And the tool body does not run

  @resilient @F-PARSE-159 @AR-TOL-4
  Scenario: One byte-order mark before the reply is dropped
    Given a session in Auto with approval policy "never"
    And the reviewer replies with a byte-order mark and then text '{"risk":"low","decision":"allow"}'
    When the agent calls "pwsh"
    Then the review does not fail
    And the tool body runs
