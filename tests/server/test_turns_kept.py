"""A decision's first answer is kept for a resend while its table plays on (issue 26): a
Hold'em hand closes in seconds, so a client's retry may come several hands later
(found by the model-based money test through a cluster: a resent ``call`` refused
``stale_decision`` where docs/protocol.md promises its first answer)."""

from __future__ import annotations

import pytest

from croupier.errors import IllegalActionError
from croupier.server.tables.turns import KEPT_ROUNDS, Resent, Turns
from croupier.server.tables.wire import ActMessage, ActResult

USER = 41


def _play_round(turns: Turns, round_id: int, seat: int) -> tuple[str, ActMessage, ActResult]:
    turns.begin(round_id)
    decision = turns.open([seat])
    act = ActMessage(action="call", decision=str(decision))
    result = ActResult(seat=seat, action="call", decision=str(decision))
    fresh = turns.ask(seat, USER, act)
    assert fresh.decision == decision
    turns.answered(seat, USER, decision, act, result)
    turns.end()
    return str(decision), act, result


def test_a_resend_hands_later_gets_its_first_answer() -> None:
    turns = Turns()
    decision, act, result = _play_round(turns, 100, 2)
    for later in range(101, 100 + KEPT_ROUNDS):
        _play_round(turns, later, 2)
    again = turns.ask(2, USER, act)
    assert isinstance(again, Resent) and again.result == result
    # another action under the same id is refused, and so is the id once it is forgotten
    with pytest.raises(IllegalActionError) as other:
        turns.ask(2, USER, ActMessage(action="fold", decision=decision))
    assert other.value.reason == "stale_decision"
    # the same decision from whoever sits at seat 2 now is not theirs to resend
    with pytest.raises(IllegalActionError) as theirs:
        turns.ask(2, USER + 1, act)
    assert theirs.value.reason == "stale_decision"
    _play_round(turns, 100 + KEPT_ROUNDS, 2)
    with pytest.raises(IllegalActionError) as gone:
        turns.ask(2, USER, act)
    assert gone.value.reason == "stale_decision"


def test_a_passed_turn_is_stale() -> None:
    turns = Turns()
    turns.begin(7)
    first = turns.open([0, 1])
    turns.close([0])
    with pytest.raises(IllegalActionError) as late:
        turns.ask(0, USER, ActMessage(action="check", decision=str(first)))
    assert late.value.reason == "stale_decision"
