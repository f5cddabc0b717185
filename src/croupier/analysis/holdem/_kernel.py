"""The compiled self-play loop: one hold'em hand after another with the rules of
:class:`croupier.games.holdem.CashHand`, in flat numba code over small integer arrays.

Every function mirrors one piece of the engine and names it: forced bets
(``betting.post_forced_bets``), the first player and the order of action (``opener``,
``acting_order``), what a player may raise (``BettingRound.refusal``, ``raise_bounds``), what a
raise reopens (``reopening``), the end of a street (``CashHand._end_betting``,
``_collect_bets``), and the settlement (``pots.build_pots``, ``showdown.settle``). The tests
replay recorded hands through ``CashHand`` and compare every decision's options and every
result, so a change on one side that is not made on the other fails them.

Seats are positions in PHH order (0 = small blind ... last = button), as in the engine.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np

from croupier.evaluator import eval_row

__all__: list[str] = []

# -- the configuration vector (filled by croupier.analysis.holdem._encode) ---------------------
C_PLAYERS, C_STRUCTURE, C_MIN_BET, C_SMALL_BET, C_BIG_BET, C_CAP = range(6)
C_REOPEN, C_RAKE_NUM, C_RAKE_DEN, C_RAKE_CAP, C_NO_FLOP_NO_DROP, C_ODD_CHIP = range(6, 12)
C_SIZE = 12
NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2
CASINO, POKERKIT = 0, 1
ODD_POSITION, ODD_SUIT = 0, 1

# -- the observation vector a policy reads (documented in croupier.analysis.holdem) -----------
MAX_PLAYERS = 10
O_SEAT, O_STREET, O_TO_CALL, O_MIN_RAISE, O_MAX_RAISE, O_STACK, O_BET, O_POT = range(8)
O_PLAYERS, O_HAND, O_STACKS = 8, 9, 10
O_BETS = O_STACKS + MAX_PLAYERS
O_LIVE = O_BETS + MAX_PLAYERS
O_SIZE = O_LIVE + MAX_PLAYERS

FOLD = -1
CHECK_CALL = 0

# -- the compiled signatures -------------------------------------------------------------------
_VECTOR = nb.types.int64[::1]
_MATRIX = nb.types.int64[:, ::1]
POLICY_SIGNATURE = nb.types.int64(_VECTOR, _VECTOR)
"""``policy(obs, cards) -> action``: policies are called through a function pointer of this
type, so the kernel compiles (and caches) once for every policy."""
_PLAY_SIGNATURE = nb.types.void(
    nb.types.int64,
    _VECTOR,
    _VECTOR,
    _VECTOR,
    _MATRIX,
    nb.types.FunctionType(POLICY_SIGNATURE),
    nb.types.int64,
    nb.types.UniTuple(_VECTOR, 5),  # type: ignore[no-untyped-call]
    _MATRIX,
    _VECTOR,
    _MATRIX,
    _MATRIX,
    _VECTOR,
    _VECTOR,
)

# -- kernel status codes ------------------------------------------------------------------------
OK, ILLEGAL, RECORD_FULL = 0, 1, 2

# -- per-decision record columns ----------------------------------------------------------------
R_SEAT, R_TO_CALL, R_MIN, R_MAX, R_ACTION = range(5)
R_SIZE = 5


@nb.njit(cache=True, nogil=True)
def _second_largest(values: Any, n: int) -> Any:  # pragma: no cover - compiled
    """``sorted(values[:n])[-2]`` (multiplicity counts), 0 when ``n`` < 2."""
    if n < 2:
        return 0
    first = values[0]
    second = values[1]
    if second > first:
        first, second = second, first
    for i in range(2, n):
        v = values[i]
        if v > first:
            second = first
            first = v
        elif v > second:
            second = v
    return second


@nb.njit(cache=True, nogil=True)
def _acting_order(
    first: int, n: int, bets: Any, stacks: Any, live: Any, queue: Any, scratch: Any
) -> Any:  # pragma: no cover - compiled
    """betting.acting_order: fill ``queue`` and return its length."""
    count = 0
    for j in range(n):
        if live[j]:
            scratch[count] = bets[j] + stacks[j]
            count += 1
    second = _second_largest(scratch, count)
    length = 0
    for k in range(n):
        j = (first + k) % n
        if live[j] and stacks[j] > 0 and second > bets[j]:
            queue[length] = j
            length += 1
    return length


@nb.njit(cache=True, nogil=True)
def _may_raise(
    seat: int,
    n: int,
    cfg: Any,
    bets: Any,
    stacks: Any,
    live: Any,
    acted: Any,
    raises: int,
    increment: int,
    short: int,
) -> Any:  # pragma: no cover - compiled
    """Whether BettingRound.refusal lets ``seat`` bet or raise."""
    max_bet = bets.max()
    owed = min(stacks[seat], max_bet - bets[seat])
    cap = cfg[C_CAP]
    if cap >= 0 and raises >= cap:
        return False
    if cfg[C_REOPEN] == CASINO:
        refused = acted[seat] != 0
    else:
        refused = owed < increment or (short != 0 and short < increment and acted[seat] != 0)
    if refused:
        return False
    if stacks[seat] <= max_bet - bets[seat]:
        return False
    for other in range(n):
        if other != seat and live[other] and stacks[other] + bets[other] > max_bet:
            return True
    return False


@nb.njit(cache=True, nogil=True)
def _street_bet(cfg: Any, street: int) -> Any:  # pragma: no cover - compiled
    """HoldemConfig.street_bet."""
    if cfg[C_STRUCTURE] == FIXED_LIMIT:
        return cfg[C_SMALL_BET] if street < 2 else cfg[C_BIG_BET]
    return cfg[C_MIN_BET]


@nb.njit(cache=True, nogil=True)
def _build_pots(
    n: int, put_in: Any, antes: Any, live: Any, amounts: Any, masks: Any, levels: Any
) -> Any:  # pragma: no cover - compiled
    """pots.build_pots without ante trimming: fill ``amounts`` and ``masks`` (seat bit sets),
    return the number of pots."""
    amount = 0
    for i in range(n):
        levels[i] = put_in[i] - antes[i]
        amount += antes[i]
    count = 0
    previous = 0
    first = True
    while True:
        # the next distinct level above ``previous`` (the first round takes the lowest)
        level = -1
        for i in range(n):
            v = levels[i]
            if (first or v > previous) and (level < 0 or v < level):
                level = v
        if level < 0:
            break
        first = False
        step = level - previous
        seats = 0
        everyone = 0
        for i in range(n):
            if levels[i] >= level:
                amount += step
                everyone |= 1 << i
                if live[i]:
                    seats |= 1 << i
        if seats == 0:
            seats = everyone
        while count > 0 and masks[count - 1] == seats:
            count -= 1
            amount += amounts[count]
        if amount:
            amounts[count] = amount
            masks[count] = seats
            count += 1
        amount = 0
        previous = level
    return count


@nb.njit(cache=True, nogil=True)
def _take_rake(count: int, amounts: Any, rake: int) -> None:  # pragma: no cover - compiled
    """pots.take_rake: main pot first."""
    for k in range(count):
        taken = min(rake, amounts[k])
        rake -= taken
        amounts[k] -= taken


@nb.njit(cache=True, nogil=True)
def _highest_card(deck: Any, seat: int, n: int) -> Any:  # pragma: no cover - compiled
    return max(deck[seat], deck[seat + n])


@nb.njit(cache=True, nogil=True)
def _settle(
    n: int,
    cfg: Any,
    put_in: Any,
    antes: Any,
    live: Any,
    deck: Any,
    board: int,
    stacks: Any,
    work: Any,
    tab: Any,
) -> Any:  # pragma: no cover - compiled
    """showdown.settle and the payment of the awards; returns the rake."""
    amounts = work[0]
    masks = work[1]
    levels = work[2]
    values = work[3]
    keep = work[4]
    row = work[5]
    count = _build_pots(n, put_in, antes, live, amounts, masks, levels)
    total = 0
    for k in range(count):
        total += amounts[k]
    rake = 0
    if cfg[C_RAKE_NUM] and not (cfg[C_NO_FLOP_NO_DROP] and board < 3):
        rake = total * cfg[C_RAKE_NUM] // cfg[C_RAKE_DEN]
        if cfg[C_RAKE_CAP] >= 0:
            rake = min(rake, cfg[C_RAKE_CAP])
    if rake:
        _take_rake(count, amounts, rake)
    contested = False
    for k in range(count):
        if masks[k] & (masks[k] - 1):
            contested = True
    for i in range(n):
        values[i] = 0
    if contested:
        # board cards follow the holes, each street after a burn (dealing.next_street)
        row[2] = deck[2 * n + 1]
        row[3] = deck[2 * n + 2]
        row[4] = deck[2 * n + 3]
        row[5] = deck[2 * n + 5]
        row[6] = deck[2 * n + 7]
        for i in range(n):
            if live[i]:
                row[0] = deck[i]
                row[1] = deck[i + n]
                values[i] = eval_row(row, 7, tab[0], tab[1], tab[2], tab[3], tab[4])
        # beaten hands leave first, then pots with the same players merge (showdown.settle)
        for i in range(n):
            keep[i] = live[i]
            if not live[i]:
                continue
            wins = False
            for k in range(count):
                if masks[k] >> i & 1:
                    best = 0
                    for s in range(n):
                        if masks[k] >> s & 1 and values[s] > best:
                            best = values[s]
                    if values[i] == best:
                        wins = True
            if not wins:
                keep[i] = 0
        count = _build_pots(n, put_in, antes, keep, amounts, masks, levels)
        if rake:
            _take_rake(count, amounts, rake)
    for k in range(count):
        amount = amounts[k]
        if not amount:
            continue
        mask = masks[k]
        if not mask & (mask - 1):
            for s in range(n):
                if mask >> s & 1:
                    stacks[s] += amount
            continue
        best = 0
        for s in range(n):
            if mask >> s & 1 and values[s] > best:
                best = values[s]
        winners = 0
        first = -1
        for s in range(n):
            if mask >> s & 1 and values[s] == best:
                winners += 1
                if first < 0:
                    first = s
        share = amount // winners
        odd = amount - share * winners
        if odd and cfg[C_ODD_CHIP] == ODD_SUIT:
            top = -1
            for s in range(n):
                if mask >> s & 1 and values[s] == best:
                    card = _highest_card(deck, s, n)
                    if card > top:
                        top = card
                        first = s
        for s in range(n):
            if mask >> s & 1 and values[s] == best:
                stacks[s] += share
        stacks[first] += odd
    return rake


@nb.njit(cache=True, nogil=True)
def _observe(
    obs: Any,
    cards: Any,
    hand: int,
    seat: int,
    street: int,
    n: int,
    stacks: Any,
    bets: Any,
    put_in: Any,
    live: Any,
    deck: Any,
    to_call: int,
    low: int,
    high: int,
) -> None:  # pragma: no cover - compiled
    """Fill the policy's observation (what ``seat`` may see) and its cards."""
    pot = 0
    for i in range(n):
        pot += put_in[i] + bets[i]
        obs[O_STACKS + i] = stacks[i]
        obs[O_BETS + i] = bets[i]
        obs[O_LIVE + i] = live[i]
    obs[O_SEAT] = seat
    obs[O_STREET] = street
    obs[O_TO_CALL] = to_call
    obs[O_MIN_RAISE] = low
    obs[O_MAX_RAISE] = high
    obs[O_STACK] = stacks[seat]
    obs[O_BET] = bets[seat]
    obs[O_POT] = pot
    obs[O_PLAYERS] = n
    obs[O_HAND] = hand
    cards[0] = deck[seat]
    cards[1] = deck[seat + n]
    shown = (0, 3, 4, 5)[street]
    places = (1, 2, 3, 5, 7)
    for k in range(5):
        cards[2 + k] = deck[2 * n + places[k]] if k < shown else -1


@nb.njit(cache=True, nogil=True)
def _end_street(n: int, bets: Any, stacks: Any, put_in: Any) -> None:  # pragma: no cover
    """CashHand._collect_bets: return the uncalled part, then bets go into the pots."""
    cutoff = _second_largest(bets, n)
    for i in range(n):
        if bets[i] > cutoff:
            stacks[i] += bets[i] - cutoff
            bets[i] = cutoff
        put_in[i] += bets[i]
        bets[i] = 0


@nb.njit(cache=True, nogil=True)
def _shuffle_top(deck: Any, count: int) -> None:  # pragma: no cover - compiled
    """Fisher--Yates for the first ``count`` places: a uniform draw of the cards dealt."""
    for i in range(count):
        j = i + np.random.randint(52 - i)
        deck[i], deck[j] = deck[j], deck[i]


@nb.njit(_PLAY_SIGNATURE, cache=True, nogil=True)
def play(
    hands: int,
    cfg: Any,
    eff_antes: Any,
    eff_blinds: Any,
    start: Any,
    policy: Any,
    seed: int,
    tab: Any,
    net: Any,
    rake_out: Any,
    decks: Any,
    log: Any,
    offsets: Any,
    state: Any,
) -> Any:  # pragma: no cover - compiled
    """Play ``hands`` hands; ``net[h, seat]`` gets each seat's result, ``rake_out[h]`` the
    rake. With a non-empty ``decks`` every hand's deck and decision (``log`` rows, hand ``h``
    at ``offsets[h]:offsets[h+1]``) is recorded. ``state`` returns (status, hand, decisions).
    """
    np.random.seed(seed)
    n = cfg[C_PLAYERS]
    record = decks.shape[0] > 0
    deck = np.arange(52, dtype=np.int64)
    stacks = np.zeros(n, dtype=np.int64)
    bets = np.zeros(n, dtype=np.int64)
    put_in = np.zeros(n, dtype=np.int64)
    antes = np.zeros(n, dtype=np.int64)
    live = np.zeros(n, dtype=np.int64)
    acted = np.zeros(n, dtype=np.int64)
    queue = np.zeros(n, dtype=np.int64)
    scratch = np.zeros(n, dtype=np.int64)
    work = np.zeros((6, MAX_PLAYERS + 1), dtype=np.int64)
    obs = np.zeros(O_SIZE, dtype=np.int64)
    cards = np.zeros(7, dtype=np.int64)
    dealt = 2 * n + 8
    decisions = 0
    for h in range(hands):
        if record:
            offsets[h] = decisions
        _shuffle_top(deck, dealt)
        if record:
            decks[h, :] = deck
        row = start[h % start.shape[0]]
        # betting.post_forced_bets: antes, then blinds and straddles, all-in for less if short
        for i in range(n):
            stacks[i] = row[i]
            antes[i] = min(eff_antes[i], stacks[i])
            bets[i] = min(eff_blinds[i], stacks[i] - antes[i])
            stacks[i] -= antes[i] + bets[i]
            put_in[i] = antes[i]
            live[i] = 1
        street = 0
        board = 0
        over = False
        alive = n
        while True:
            # CashHand._start_street (skipped once the betting is over)
            length = 0
            head = 0
            if not over:
                first = 0
                if street == 0:
                    top = 0
                    top_key = -1
                    for i in range(n):
                        key = bets[i] if eff_blinds[i] else 0
                        if key >= top_key:
                            top_key = key
                            top = i
                    first = (top + 1) % n
                length = _acting_order(first, n, bets, stacks, live, queue, scratch)
                if length == 1 and bets[queue[0]] >= bets.max():
                    length = 0
                for i in range(n):
                    acted[i] = 0
                raises = 0
                increment = 0
                short = 0
                street_bet = _street_bet(cfg, street)
            while head < length and alive > 1:
                seat = queue[head]
                max_bet = bets.max()
                to_call = min(stacks[seat], max_bet - bets[seat])
                low = -1
                high = -1
                if _may_raise(seat, n, cfg, bets, stacks, live, acted, raises, increment, short):
                    # betting.raise_bounds
                    all_in = stacks[seat] + bets[seat]
                    low = min(all_in, max_bet + max(increment, street_bet))
                    high = all_in
                    if cfg[C_STRUCTURE] == FIXED_LIMIT:
                        high = low
                    elif cfg[C_STRUCTURE] == POT_LIMIT:
                        pot = 0
                        for i in range(n):
                            pot += put_in[i] + bets[i]
                        high = min(all_in, max(low, 2 * max_bet - bets[seat] + pot))
                _observe(
                    obs,
                    cards,
                    h,
                    seat,
                    street,
                    n,
                    stacks,
                    bets,
                    put_in,
                    live,
                    deck,
                    to_call,
                    low,
                    high,
                )
                action = policy(obs, cards)
                if record:
                    if decisions >= log.shape[0]:
                        state[0] = RECORD_FULL
                        state[1] = h
                        state[2] = decisions
                        return
                    log[decisions, R_SEAT] = seat
                    log[decisions, R_TO_CALL] = to_call
                    log[decisions, R_MIN] = low
                    log[decisions, R_MAX] = high
                    log[decisions, R_ACTION] = action
                decisions += 1
                if action in (FOLD, CHECK_CALL):
                    head += 1
                    acted[seat] = 1
                    if action == FOLD:
                        live[seat] = 0
                        alive -= 1
                    else:
                        bets[seat] += to_call
                        stacks[seat] -= to_call
                    continue
                if low < 0 or action < low or action > high:
                    state[0] = ILLEGAL
                    state[1] = h
                    state[2] = decisions
                    state[3] = action
                    state[4] = low
                    state[5] = high
                    return
                # CashHand.raise_to and BettingRound.raised
                by = action - max_bet
                stacks[seat] -= action - bets[seat]
                bets[seat] = action
                length = 0
                head = 0
                for k in range(1, n):
                    j = (seat + k) % n
                    if live[j] and stacks[j] > 0:
                        queue[length] = j
                        length += 1
                raises += 1
                # betting.reopening
                if cfg[C_REOPEN] == CASINO:
                    threshold = max(increment, street_bet)
                    if by >= threshold:
                        increment = by
                        short = 0
                    else:
                        short += by
                    reopens = by >= threshold or short >= threshold
                    if reopens:
                        short = 0
                else:
                    reopens = by >= increment
                    if by > increment:
                        increment = by
                    if stacks[seat] == 0:
                        short += by
                        if short >= increment:
                            short = 0
                    else:
                        short = 0
                if reopens:
                    for i in range(n):
                        acted[i] = 0
                acted[seat] = 1
            # CashHand._end_betting
            if not over:
                if alive > 1:
                    behind = 0
                    for i in range(n):
                        if live[i] and stacks[i]:
                            behind += 1
                    over = street == 3 or behind <= 1
                _end_street(n, bets, stacks, put_in)
            if alive == 1 or board == 5:
                break
            street += 1
            board = 3 if street == 1 else board + 1
        rake = _settle(n, cfg, put_in, antes, live, deck, board, stacks, work, tab)
        rake_out[h] = rake
        for i in range(n):
            net[h, i] = stacks[i] - row[i]
    if record:
        offsets[hands] = decisions
    state[0] = OK
    state[1] = hands
    state[2] = decisions
