Feature: Confinement: Auto never runs a call with more access than the session's backend keeps
  On a backend that confines reads, a profile with confinement narrows an Auto session that still
  has full access to workspace-write before anything else the gate does for a call, the outer
  run_code call included. It never widens a confined session, fails the call with the rejection's
  own message when the change is rejected (and runs nothing), changes nothing while the
  integration closes, selects Auto confined, and moves a confined session to Workspace Write when
  the integration is disposed of. The baseline, the shipped gate, never changes a session's mode.

  # --- Before the call ----------------------------------------------------------------------------

  @resilient @F-CONF-1 @AR-CONFINE-1
  Scenario: A full-access Auto session on a backend that confines reads is narrowed before the call is reviewed
    Given a session in Auto
    And the session's backend confines reads
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the gate allows
    And the tool body runs
    And the session's sandbox is danger-full-access before the call and workspace-write after it

  @resilient @F-CONF-2 @AR-CONFINE-1 @AR-SCOPE-2
  Scenario: The outer run_code call is narrowed too, before it passes through unreviewed
    Given a session in Auto
    And the session's backend confines reads
    When the agent runs a program with "run_code"
    Then the reviewer is not asked
    And the tool body runs
    And the session's sandbox is danger-full-access before the call and workspace-write after it

  @baseline @F-CONF-3 @AR-SCOPE-5
  Scenario: The baseline never narrows: the body runs with full access on a backend that confines reads
    Given a session in Auto
    And the session's backend confines reads
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the tool body runs
    And the session's sandbox is danger-full-access before the call and danger-full-access after it

  @resilient @F-CONF-4 @AR-CONFINE-2
  Scenario: A confined session stays confined on a backend that confines no reads
    Given a session in Auto
    And the session is confined to the workspace
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the tool body runs
    And the session's sandbox is workspace-write before the call and workspace-write after it

  @resilient @F-CONF-5 @AR-CONFINE-3
  Scenario: A rejected narrowing fails the call with the rejection's own message, and nothing runs
    Given a session in Auto
    And the session's backend confines reads
    And changing the session's sandbox mode is rejected with "cannot change sandbox mode while persistent terminal sessions are open"
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the gate throws
    And the reviewer is not asked
    And there are no events
    And the tool body does not run
    And the model sees "Error: cannot change sandbox mode while persistent terminal sessions are open"
    And the refusal carries no info
    And the session's sandbox is danger-full-access before the call and danger-full-access after it

  @resilient @F-CONF-6 @AR-CONFINE-4 @AR-ADMIT-2
  Scenario: While the integration closes, nothing is narrowed: the call is cancelled and the session keeps full access
    Given a session in Auto
    And the session's backend confines reads
    And the reviewer allows with risk "low"
    And the integration is disposed before the review
    When the agent calls "pwsh"
    Then the gate cancels
    And the session's sandbox is danger-full-access before the call and danger-full-access after it

  # --- Across a session ----------------------------------------------------------------------------

  @resilient @F-CONF-7 @AR-CONFINE-1 @AR-CONFINE-2 @AR-SESSION-2
  Scenario: The backend is read as each call arrives: narrowed once it confines reads, and never widened once it stops
    Given a session in Auto
    And the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the session's sandbox is danger-full-access before the call and danger-full-access after it
    When the session's backend starts confining reads
    Then it reports no error
    Given the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the session's sandbox is danger-full-access before the call and workspace-write after it
    When the session's backend stops confining reads
    Given the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the tool body runs
    And the session's sandbox is workspace-write before the call and workspace-write after it

  @resilient @F-CONF-8 @AR-CONFINE-5 @AR-SCOPE-5
  Scenario: Selecting Auto on a backend that confines reads starts the session confined
    Given a session with the permission preset "workspace-write"
    And the session's backend confines reads
    When the user selects Auto
    Then selecting Auto succeeds
    Given the reviewer allows with risk "low"
    When the agent calls "pwsh"
    Then the session's sandbox is workspace-write before the call and workspace-write after it

  @resilient @F-CONF-9 @AR-CONFINE-5 @AR-DISPOSE-3
  Scenario: Disposal moves a confined session to Workspace Write with its own policy: a later listener's ask reaches the user
    Given a session in Auto
    And the session is confined to the workspace
    When the integration is disposed of
    Then it reports no error
    Given a later listener asks with "hook wants approval"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the reviewer is not asked
    And the user is asked and answers "allowed-once"
    And the tool body runs
    And the session's sandbox is workspace-write before the call and workspace-write after it

  @baseline @F-CONF-10 @AR-DISPOSE-1 @AR-DISPOSE-3
  Scenario: The baseline moves every session to Full access under never: a later listener's ask is rejected unasked
    Given a session in Auto
    And the session is confined to the workspace
    When the integration is disposed of
    Then it reports no error
    Given a later listener asks with "hook wants approval"
    And the user would answer "allowed-once"
    When the agent calls "pwsh"
    Then the approval service answers "rejected" without asking the user
    And the tool body does not run
    And the session's sandbox is danger-full-access before the call and danger-full-access after it
