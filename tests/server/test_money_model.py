"""The money path as a model (issue 26, deliverable 7): a Hypothesis state machine drives a
real server over WebSockets -- several players at a UTH casino table and a live one, a
Russian Poker table of two open boxes with blind boxes, a Caribbean Stud table with its
progressive bet, a Hold'em cash table -- with bets,
decisions (with and without their ids), resends, duplicate, delayed and stale frames,
reconnects and timeouts, and after every step checks what a player and an auditor would:

- each acknowledged stake moved exactly its ``staked`` from the wallet: the ack's balance is
  the balance before less its stake (a replayed ack repeats the first answer, moves nothing);
- every player's wallet (with the chips of their seat at the cash table) is what was
  deposited, less the stakes acknowledged, plus what the closed rounds returned;
- each round's recorded stake of a player is what their acks staked in it, in the database
  and in the round's recall (``GET /api/rounds/{id}``) once it closed; a banked table's escrow
  holds what its open rounds staked, nothing more;
- the ledger is consistent (every transaction balanced, every balance its postings, nothing
  negative that may not be), read with SQL of the test's own (:mod:`money_audit`);
- no decision was applied twice: one id, at most one fresh answer, and that answer names it;
  a resend replays it, a passed turn's id is refused.

Only the server's public faces are used (WebSocket frames as docs/protocol.md has them, the
HTTP API, the database as an auditor reads it), so the model holds whatever the money path
looks like inside. It runs on SQLite, on PostgreSQL and through a two-process cluster: a short
version in ``make test``, a long one marked ``slow``.
"""

from __future__ import annotations

import os
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from money_audit import Audit, Auditor, Wallet
from money_client import Socket
from server_cluster import THROUGH_CLUSTER
from server_testkit import Server, ServerFactory

from croupier.server.tables.config import TableConfig

pytestmark = pytest.mark.timeout(1800)

DEPOSIT = 60_000
PLAYERS = 3
BANKED = ("casino", "live", "russian", "caribbean")
KINDS = ("casino", "live", "russian", "caribbean", "holdem")
SPARE = 4
"""Sets of tables a server has beyond the examples asked for (Hypothesis may run one more):
each example of the machine plays at a set of its own, all on one server (a new server for
each example would cost seconds, a cluster's more: a gateway process, a Redis)."""


def _tables(sets: int) -> list[TableConfig]:
    """``sets`` times a UTH casino table, a live one, a Russian Poker table of two open boxes
    a player, a Caribbean Stud table with the progressive bet and a Hold'em cash table, named
    ``casino0``, ``live0``..."""
    timers = {"betting_seconds": 10, "decision_seconds": 20, "pause_seconds": 0}
    configs = []
    for n in range(sets):
        configs += [
            TableConfig(name=f"casino{n}", game="uth", rules={"max_seats": 6}, **timers),
            TableConfig(name=f"live{n}", game="uth", rules={"shared_hand": True}, **timers),
            TableConfig(
                name=f"russian{n}", game="russian", rules={"open_boxes_per_player": 2}, **timers
            ),
            TableConfig(
                name=f"caribbean{n}",
                game="caribbean",
                rules={"max_seats": 4, "progressive_bet": 100, "jackpot": 1_000_000},
                **timers,
            ),
            TableConfig(
                name=f"holdem{n}",
                game="holdem",
                decision_seconds=20,
                pause_seconds=5,
                rules={"small_blind": 50, "big_blind": 100, "max_seats": 4, "min_buy_in": 2_000},
            ),
        ]
    return configs


@dataclass
class Sent:
    """A request sent and its first answer."""

    kind: str
    frame: dict[str, Any]
    answer: dict[str, Any]


@dataclass
class Player:
    name: str
    user_id: int
    token: str
    sockets: dict[str, Socket] = field(default_factory=dict)
    staked: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    """round id -> what the acks of bets and decisions staked in it (banked tables)."""
    sent: list[Sent] = field(default_factory=list)
    decisions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """decision id -> its first fresh answer."""
    seen: set[str] = field(default_factory=set)
    """every decision id the player was told of or answered."""


class Picks:
    """Choices drawn before a step runs (so that what Hypothesis draws never depends on
    what the server answered): each :meth:`one` takes the next number to pick from ``among``."""

    def __init__(self, numbers: list[int]) -> None:
        self.numbers = list(numbers)

    def one(self, among: Any) -> Any:
        options = list(among)
        number = self.numbers.pop(0) if self.numbers else 0
        return options[number % len(options)]

    def __repr__(self) -> str:
        return f"Picks({self.numbers!r})"


PICKS = st.lists(st.integers(0, 2**16), min_size=8, max_size=8).map(Picks)
players_ = st.integers(0, PLAYERS - 1)
kinds = st.sampled_from(KINDS)


@dataclass
class Pool:
    """The servers of one test and which of their table sets are taken."""

    factory: ServerFactory
    sets: int
    servers: list[tuple[Server, Auditor]] = field(default_factory=list)
    used: int = 0
    steps: int = 0
    rounds: set[int] = field(default_factory=set)

    def start(self) -> None:
        """The one server, before Hypothesis runs (a server that fails to start is the
        test's error, not an example's)."""
        server = self.factory(_tables(self.sets))
        self.servers.append((server, Auditor(server.settings.database_url)))

    def take(self) -> tuple[Server, Auditor, int]:
        """The server and a table set for the next example; past the last set, the sets
        again (Hypothesis replays a failing example: it must not need a second server)."""
        self.used += 1
        server, auditor = self.servers[0]
        return server, auditor, (self.used - 1) % self.sets

    def close(self) -> None:
        for _, auditor in self.servers:
            auditor.close()


class MoneyMachine(RuleBasedStateMachine):
    """Players at one set of tables of a server of the pool (set by the test)."""

    pool: Pool

    def __init__(self) -> None:
        super().__init__()
        self.server, self.auditor, number = self.pool.take()
        self.tables = {kind: f"{kind}{number}" for kind in KINDS}
        self.players: list[Player] = []
        self.watchers: dict[str, Socket] = {}
        self.recalled: set[int] = set()
        """Closed rounds whose recall was checked."""
        self.log: list[str] = []
        """What was sent and answered, for the report of a failure."""

    # -- sockets ---------------------------------------------------------------------------

    @initialize()
    def deposit(self) -> None:
        for i in range(PLAYERS):
            name = f"m{uuid.uuid4().hex[:10]}{i}"
            user_id, token = self.server.player(name, credit=DEPOSIT)
            self.players.append(Player(name, user_id, token))
        _, self.watcher_token = self.server.player(f"w{uuid.uuid4().hex[:10]}")
        for player in self.players:  # everyone seated (a ``leave`` may stand them up)
            for kind in KINDS:
                self._request(player, kind, {"type": "join"})
            self._request(player, "holdem", {"type": "buy_in", "key": _key(), "amount": 3_000})

    def _socket(self, player: Player, kind: str) -> Socket:
        if kind not in player.sockets:
            socket = Socket(self.server.client, self.tables[kind], player.token)
            player.sockets[kind] = socket
            self._told(player, socket.first_state)
        return player.sockets[kind]

    def _close(self, player: Player, kind: str) -> None:
        socket = player.sockets.pop(kind, None)
        if socket is not None:
            socket.close()

    def teardown(self) -> None:
        self.pool.rounds |= self.recalled
        for player in self.players:
            for kind in list(player.sockets):
                self._close(player, kind)
        for socket in self.watchers.values():
            socket.close()
        if os.environ.get("MODEL_DEBUG"):
            kinds: dict[str, int] = defaultdict(int)
            for x in (x for p in self.players for x in p.sent):
                result = x.answer.get("result") or {}
                tag = x.frame["type"] + ("+" if result.get("staked") else "")
                tag += "r" if result.get("replayed") else ""
                tag += "" if x.answer["type"] == "ack" else f"!{_refusal(x.answer)}"
                kinds[f"{x.kind}:{tag}"] += 1
            print("ANSWERS", dict(sorted(kinds.items())), "rounds", len(self.recalled))
            if os.environ["MODEL_DEBUG"] == "log":
                print("\n".join(self.log))

    def _told(self, player: Player, state: dict[str, Any]) -> None:
        decision = state["table"].get("decision")
        if decision:
            player.seen.add(decision)

    def _fresh_state(self, player: Player, kind: str) -> dict[str, Any]:
        """The table as the player's socket sees it now: a resync's ``state``, or a new
        socket's first one (a reconnect) while the resync bucket is empty."""
        state = self._socket(player, kind).resynced()
        if state is None:
            self._close(player, kind)
            state = self._socket(player, kind).first_state
        self._told(player, state)
        return state

    # -- requests and their money ----------------------------------------------------------

    def _request(self, player: Player, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        """Send ``message`` and check its money against the wallet before."""
        socket = self._socket(player, kind)
        before = self._wallet(player)
        answer = socket.request(message)
        self._account(player, kind, message, answer, before)
        return answer

    def _wallet(self, player: Player) -> Wallet:
        return self.auditor.wallet(player.user_id)

    def _balance_after(self, player: Player, before: Wallet, moved: int, told: int) -> None:
        """An answer's ``balance`` (``told``) is the wallet ``before`` plus what the request
        ``moved``, give or take the rounds that settled meanwhile (a round of this player's
        closing beside the request, as a cluster's owner may do): their returns reach the
        wallet before the request's move or after it, each in one transaction."""
        if told == before.balance + moved:
            return
        paid = self._wallet(player).returned_since(before)
        sums = {sum(c) for n in range(len(paid) + 1) for c in combinations(paid, n)}
        assert told - before.balance - moved in sums, (told, before, moved, paid)

    def _unmoved(self, player: Player, before: Wallet, moved: int = 0) -> None:
        """The wallet now is the wallet ``before`` plus ``moved`` and the returns of the
        rounds that settled since (read in one snapshot: nothing else moved)."""
        now = self._wallet(player)
        settled = sum(now.returned_since(before))
        assert now.balance == before.balance + moved + settled, (now, before, moved)

    def _account(
        self,
        player: Player,
        kind: str,
        frame: dict[str, Any],
        answer: dict[str, Any],
        before: Wallet,
    ) -> None:
        """One answer's money: a fresh stake moved exactly its amount; anything else none."""
        had = before.balance
        self.log.append(f"{player.name[-2:]} {kind} {frame} -> {answer} (had {had})")
        player.sent.append(Sent(kind, frame, answer))
        if frame["type"] == "act":
            self._decision_answered(player, frame, answer)
        if answer["type"] != "ack":
            return
        result = answer["result"]
        if result.get("replayed"):
            return
        staked = int(result.get("staked") or 0)
        if staked:
            self._balance_after(player, before, -staked, result["balance"])
            round_id = result.get("round_id") or int(result["decision"].split("-")[0])
            player.staked[round_id] += staked
        if frame["type"] == "buy_in":
            self._balance_after(player, before, -frame["amount"], result["balance"])
        if frame["type"] == "leave" and result.get("cashed_out"):
            self._balance_after(player, before, result["cashed_out"], result["balance"])

    def _decision_answered(
        self, player: Player, frame: dict[str, Any], answer: dict[str, Any]
    ) -> None:
        """One decision id, at most one fresh answer, which names the decision it answered
        (a frame carrying an id never lands on another turn); a resend gets that answer."""
        if answer["type"] != "ack":
            return
        result = answer["result"]
        decision = result.get("decision")
        assert decision, (frame, result)
        if frame.get("decision"):
            assert decision == frame["decision"], ("answered another decision", frame, result)
        player.seen.add(decision)
        first = player.decisions.get(decision)
        if first is None:
            assert not result.get("replayed"), ("a replay of nothing", frame, result)
            player.decisions[decision] = result
        else:
            assert result.get("replayed"), ("a decision applied twice", frame, result, first)
            assert result == {**first, "replayed": True}, (frame, result, first)

    # -- rules -----------------------------------------------------------------------------

    @rule(p=players_, kind=kinds)
    def join(self, p: int, kind: str) -> None:
        self._request(self.players[p], kind, {"type": "join"})

    @rule(p=players_, kind=kinds, with_id=st.booleans(), pick=PICKS)
    def play(self, p: int, kind: str, with_id: bool, pick: Picks) -> None:
        """What the player would do next at the table: sit, bet, buy in or decide."""
        player = self.players[p]
        state = self._fresh_state(player, kind)
        table, view = state["table"], state["view"] or {}
        if table["your_seat"] is None:
            self._request(player, kind, {"type": "join"})
        elif kind == "holdem" and not _my_stack(state):
            self.buy_in(p, pick.one([2_000, 3_000]))
        elif table.get("decision") or view.get("options") or view.get("legal"):
            self.decide(p, kind, with_id, pick)
        elif table["status"] in ("idle", "betting") and kind in BANKED:
            if kind == "russian":
                self.bet_russian(
                    p, pick.one([100, 200]), pick.one([0, 100]), pick.one([1, 2]), pick.one([0, 1])
                )
            elif kind == "caribbean":
                self.bet_caribbean(p, pick.one([100, 200, 250]), pick.one([0, 0, 1]))
            else:
                self.bet_uth(p, kind, pick.one([100, 200, 250]), pick.one([0, 0, 100]))

    # what players mostly do: three rules' weight among the others
    @rule(p=players_, kind=kinds, with_id=st.booleans(), pick=PICKS)
    def play_on(self, p: int, kind: str, with_id: bool, pick: Picks) -> None:
        self.play(p, kind, with_id, pick)

    @rule(p=players_, kind=kinds, with_id=st.booleans(), pick=PICKS)
    def play_more(self, p: int, kind: str, with_id: bool, pick: Picks) -> None:
        self.play(p, kind, with_id, pick)

    @rule(
        p=players_,
        kind=st.sampled_from(("casino", "live")),
        ante=st.sampled_from([100, 200, 250]),
        trips=st.sampled_from([0, 0, 100]),
    )
    def bet_uth(self, p: int, kind: str, ante: int, trips: int) -> None:
        bets = {"ante": ante, **({"trips": trips} if trips else {})}
        self._request(self.players[p], kind, {"type": "bet", "key": _key(), "bets": bets})

    @rule(
        p=players_,
        ante=st.sampled_from([100, 200]),
        bonus=st.sampled_from([0, 100]),
        opens=st.sampled_from([1, 2]),
        blind=st.sampled_from([0, 0, 1]),
    )
    def bet_russian(self, p: int, ante: int, bonus: int, opens: int, blind: int) -> None:
        bets = {"ante": ante, "open_boxes": opens, "blind_boxes": blind}
        if bonus:
            bets["bonus"] = bonus
        self._request(self.players[p], "russian", {"type": "bet", "key": _key(), "bets": bets})

    @rule(p=players_, ante=st.sampled_from([0, 100, 250]), progressive=st.sampled_from([0, 1]))
    def bet_caribbean(self, p: int, ante: int, progressive: int) -> None:
        """An Ante with or without the progressive bet, or the progressive alone (added to a
        bet made in the same window; refused without one)."""
        bets = {**({"ante": ante} if ante else {}), **({"progressive": 1} if progressive else {})}
        if not bets:
            return
        self._request(self.players[p], "caribbean", {"type": "bet", "key": _key(), "bets": bets})

    @rule(p=players_, amount=st.sampled_from([2_000, 3_000]))
    def buy_in(self, p: int, amount: int) -> None:
        message = {"type": "buy_in", "key": _key(), "amount": amount}
        self._request(self.players[p], "holdem", message)

    @rule(p=players_, kind=kinds, with_id=st.booleans(), pick=PICKS)
    def decide(self, p: int, kind: str, with_id: bool, pick: Picks) -> None:
        player = self.players[p]
        message = self._decision(player, kind, pick)
        if message is None:
            return
        if not with_id:
            message.pop("decision", None)
        self._request(player, kind, message)

    @rule(p=players_, kind=kinds, pick=PICKS, seconds=st.sampled_from([5, 10, 20]))
    def delayed(self, p: int, kind: str, pick: Picks, seconds: float) -> None:
        """A decision frame that arrives late, after the clock moved: it answers its own
        turn if that is still open, else it is refused; it never lands on a later turn."""
        player = self.players[p]
        message = self._decision(player, kind, pick)
        self.tick(seconds)
        self._settle_down()
        if message is not None:
            self._request(player, kind, message)

    @rule(p=players_, kind=kinds, pick=PICKS)
    def duplicate(self, p: int, kind: str, pick: Picks) -> None:
        """The same decision frame (same request id) twice in a row: its money moves once."""
        player = self.players[p]
        message = self._decision(player, kind, pick)
        if message is None:
            return
        socket = self._socket(player, kind)
        frame = {**message, "id": f"d{uuid.uuid4().hex[:8]}"}
        before = self._wallet(player)
        start = len(socket.seat.frames)
        socket.send(frame)
        socket.send(frame)
        first = socket.seat.after(start, lambda f: f.get("ref") == frame["id"])
        index = socket.seat.frames.index(first) + 1
        second = socket.seat.after(index, lambda f: f.get("ref") == frame["id"])
        self._account(player, kind, message, first, before)
        fresh = [
            a for a in (first, second) if a["type"] == "ack" and not a["result"].get("replayed")
        ]
        with_id = bool(message.get("decision"))
        assert len(fresh) <= 1 or not with_id, (frame, first, second)
        if not with_id and second["type"] == "ack":
            # the second frame is a decision of its own, the wallet less the first's stake
            after_first = Wallet(before.balance - _staked(first), before.returns)
            self._account(player, kind, message, second, after_first)
        else:
            self._decision_answered(player, message, second)
            self._unmoved(player, before, -_staked(first))

    @rule(p=players_, pick=PICKS)
    def resend(self, p: int, pick: Picks) -> None:
        """A request answered before, sent again as it was (a client's retry): a bet, a
        buy-in or a decision with its id moves nothing and is answered as the first time."""
        player = self.players[p]
        if not player.sent:
            return
        sent = pick.one(player.sent)
        frame = sent.frame
        if frame["type"] not in ("bet", "buy_in", "act") or sent.answer["type"] != "ack":
            return
        if frame["type"] == "act" and not frame.get("decision"):
            self._request(player, sent.kind, frame)  # "the decision asked for now": a new one
            return
        before = self._wallet(player)
        answer = self._socket(player, sent.kind).request(frame)
        self.log.append(f"{player.name[-2:]} {sent.kind} resent {frame} -> {answer}")
        self._unmoved(player, before)
        if frame["type"] == "act":  # its first answer again, whatever happened since
            assert answer["type"] == "ack" or _refusal(answer) == "stale_decision", (frame, answer)
            self._decision_answered(player, frame, answer)
        elif answer["type"] == "ack":  # the same stake again, the wallet as it is now
            first, again = sent.answer["result"], answer["result"]
            assert again["replayed"], (frame, answer, first)
            for same in ("round_id", "staked", "amount", "seat"):
                assert again.get(same) == first.get(same), (frame, answer, first)

    @rule(p=players_, kind=kinds, pick=PICKS)
    def stale(self, p: int, kind: str, pick: Picks) -> None:
        """A decision naming a turn told before and gone: refused (``stale_decision``), or
        its first answer again when it repeats that answer's action; nothing moves."""
        player = self.players[p]
        current = self._fresh_state(player, kind)["table"].get("decision")
        told = sorted(player.seen - {current})
        if not told:
            return
        decision = pick.one(told)
        first = player.decisions.get(decision)
        action = pick.one(["check", "fold", "4x", "bet", "call", "2x", "sixth_card", "raise"])
        if first is not None and pick.one((True, False)):
            action = first["action"]
        frame = {"type": "act", "action": action, "decision": decision}
        before = self._wallet(player)
        answer = self._socket(player, kind).request(frame)
        self.log.append(f"{player.name[-2:]} {kind} stale {frame} -> {answer}")
        if answer["type"] == "ack":
            assert first is not None, ("a passed turn taken", frame, answer)
            self._decision_answered(player, frame, answer)
        else:  # stale_decision; not_seated when the seat was given up meanwhile
            assert answer["type"] == "error", (frame, answer)
        self._unmoved(player, before)

    @rule(p=players_, kind=kinds)
    def reconnect(self, p: int, kind: str) -> None:
        self._close(self.players[p], kind)
        self._socket(self.players[p], kind)

    @rule(p=players_, kind=kinds)
    def leave(self, p: int, kind: str) -> None:
        self._request(self.players[p], kind, {"type": "leave"})

    @rule(seconds=st.sampled_from([5, 10, 20]))
    def tick(self, seconds: float) -> None:
        """Time passes: betting windows close, decisions time out, rounds settle."""
        self.server.clock.advance(seconds)

    @rule(seconds=st.sampled_from([20, 30]))
    def time_passes(self, seconds: float) -> None:
        """A longer wait (a second rule: rounds close only after a few of them)."""
        self.tick(seconds)

    # -- what a decision would be now ------------------------------------------------------

    def _decision(self, player: Player, kind: str, pick: Picks) -> dict[str, Any] | None:
        state = self._fresh_state(player, kind)
        view, decision = state["view"], state["table"].get("decision")
        if view is None:
            return None
        message: dict[str, Any] = {"type": "act", "decision": decision}
        if kind == "holdem":
            options = view.get("options")
            if not options:
                return None
            action = pick.one(options["actions"])
            message["action"] = action
            if action in ("bet", "raise"):
                message["amount"] = options["min_raise_to"]
            return message
        legal = view.get("legal") or []
        if not legal:
            return None
        action = pick.one(legal)
        message["action"] = action
        if action == "exchange":
            box = next(b for b in view["boxes"] if b["box"] == view["to_act"])
            message["cards"] = [box["cards"][-1]]
        insure = action == "bet" and kind == "russian" and view.get("insurance")
        if insure and pick.one((False, True)):
            message["amount"] = view["insurance"][0]
        return message

    # -- invariants ------------------------------------------------------------------------

    @invariant()
    def the_money_adds_up(self) -> None:
        if not self.players:
            return
        self.pool.steps += 1
        try:
            self._settle_down()
            self._check_money(self.auditor.read())
        except AssertionError as exc:
            tail = "\n".join(self.log[-25:])
            raise AssertionError(f"{exc}\n-- the last requests:\n{tail}") from None

    def _check_money(self, audit: Audit) -> None:
        mine = {p.user_id: p for p in self.players}
        recorded: dict[int, dict[int, int]] = defaultdict(dict)
        returned: dict[int, int] = defaultdict(int)
        closed: set[int] = set()
        for round_id, user, staked, back, status, game, _ in audit.rows:
            if user not in mine:
                continue
            if game != "holdem":
                if staked:
                    recorded[user][round_id] = staked
                returned[user] += back or 0
            elif status != "open":  # a hand moves chips between stacks: won less put in
                returned[user] += (back or 0) - staked
            if status != "open":
                closed.add(round_id)
        for player in self.players:
            acked = {r: s for r, s in player.staked.items() if s}
            assert recorded[player.user_id] == acked, (player.name, recorded, acked)
            # the wallet and the chips at the cash table: the deposit, less what the banked
            # acks staked, plus what the closed rounds returned and the hands won
            expected = DEPOSIT - sum(acked.values()) + returned[player.user_id]
            have = audit.wallets.get(player.user_id, 0) + audit.stacks[player.user_id]
            assert have == expected, (player.name, have, expected)
        for kind in BANKED:
            table = self.tables[kind]
            held = audit.escrows.get(table, 0)
            assert held == audit.open_staked(table), (table, held, audit.open_staked(table))
        for round_id in sorted(closed - self.recalled):
            self._check_recall(round_id)

    def _check_recall(self, round_id: int) -> None:
        """A closed round's recall (the operator's: every player) shows the acks' stakes."""
        token = self.server.operator_token()
        response = self.server.client.get(
            f"/api/rounds/{round_id}", headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 200, response.text
        recall = response.json()
        assert recall["status"] in ("settled", "voided"), recall
        staked: dict[int, int] = defaultdict(int)
        for row in recall["players"]:
            staked[row["user_id"]] += row["staked"]
        if recall["game"] != "holdem":
            for player in self.players:
                assert staked[player.user_id] == player.staked.get(round_id, 0), (
                    round_id,
                    player.name,
                    recall["players"],
                )
        self.recalled.add(round_id)

    def _settle_down(self) -> None:
        """Wait until every table has taken what the clock and the requests set off: a
        table's ``state`` (read through a socket of its own, after all that the table had
        queued before) shows no deadline that has passed."""
        deadline = time.monotonic() + 30
        for kind in KINDS:
            while True:
                state = self._watch(kind)
                left = state["table"]["deadline_in"]
                if left is None or left > 0:
                    break
                assert time.monotonic() < deadline, f"{kind} never settled: {state['table']}"
                time.sleep(0.02)

    def _watch(self, kind: str) -> dict[str, Any]:
        socket = self.watchers.get(kind)
        state = socket.resynced() if socket is not None else None
        if state is None:
            if socket is not None:
                socket.close()
            socket = self.watchers[kind] = Socket(
                self.server.client, self.tables[kind], self.watcher_token
            )
            state = socket.first_state
        return state


def _key() -> str:
    return uuid.uuid4().hex


def _refusal(answer: dict[str, Any]) -> str:
    """An error frame's reason, else its code."""
    return str(answer.get("reason") or answer["code"])


def _staked(answer: dict[str, Any]) -> int:
    if answer["type"] != "ack" or answer["result"].get("replayed"):
        return 0
    return int(answer["result"].get("staked") or 0)


def _my_stack(state: dict[str, Any]) -> int:
    """The chips at the cash table of the seat the state is for."""
    table = state["table"]
    mine = [s for s in table.get("seats") or [] if s["seat"] == table["your_seat"]]
    return int(mine[0].get("stack") or 0) if mine else 0


def _run(table_server: ServerFactory, *, examples: int, steps: int) -> None:
    pool = Pool(table_server, sets=examples + SPARE)
    MoneyMachine.pool = pool
    started = time.monotonic()
    try:
        pool.start()
        run_state_machine_as_test(
            MoneyMachine,
            settings=settings(
                max_examples=examples,
                stateful_step_count=steps,
                deadline=None,
                suppress_health_check=list(HealthCheck),
                # no shrinking: each example is a whole table set; a failure shows its steps
                phases=(Phase.explicit, Phase.reuse, Phase.generate),
                database=None,
            ),
        )
    finally:
        pool.close()
    print(
        f"\nmoney model: {pool.used} examples, {pool.steps} steps checked, "
        f"{len(pool.rounds)} rounds closed and recalled, {time.monotonic() - started:.0f} s"
    )


@THROUGH_CLUSTER
def test_the_money_path_holds_on_random_play(table_server: ServerFactory) -> None:
    _run(table_server, examples=4, steps=40)


@pytest.mark.slow
@THROUGH_CLUSTER
def test_the_money_path_holds_on_long_random_play(table_server: ServerFactory) -> None:
    _run(table_server, examples=12, steps=100)
