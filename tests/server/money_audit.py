"""An auditor's view of a croupier database, for the money model (issue 26, deliverable 7).

It reads the tables as an auditor would, with SQL of its own on a connection of its own (no
import of the server's models or services, so it holds whatever shape the server's code takes
inside): the double-entry ledger (``ledger_accounts``, ``ledger_transactions``, ``postings``)
and the rounds' rows (``rounds``, ``round_players``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import Engine, create_engine, text

__all__ = ["Audit", "Auditor", "Wallet"]


@dataclass
class Audit:
    """One consistent reading of the database's money."""

    wallets: dict[int, int]
    """user id -> the balance of ``player:<id>``."""
    stacks: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    """user id -> the chips of their seats at cash tables (``escrow:<table>:u<id>``)."""
    escrows: dict[str, int] = field(default_factory=dict)
    """banked table -> the balance of ``escrow:<table>``."""
    rows: list[tuple[int, int, int, int | None, str, str, str]] = field(default_factory=list)
    """(round id, user id, staked, returned, status, game, table) of every round's player."""

    def open_staked(self, table: str) -> int:
        """What the rounds still open at ``table`` hold."""
        return sum(r[2] for r in self.rows if r[6] == table and r[4] == "open")


@dataclass(frozen=True)
class Wallet:
    """A player's wallet and what each of their banked rounds has returned, read at once."""

    balance: int
    returns: dict[int, int]
    """round id -> what the round returned to the player's wallet (closed banked rounds)."""

    def returned_since(self, before: Wallet) -> list[int]:
        """What each round that returned money since ``before`` paid (a settlement running
        beside a request: the ledger moves it in the same transaction as the round's row)."""
        return [
            back - before.returns.get(round_id, 0)
            for round_id, back in sorted(self.returns.items())
            if back != before.returns.get(round_id, 0)
        ]


class Auditor:
    """Reads the database at ``url`` (SQLite or PostgreSQL) and checks the ledger's rules."""

    def __init__(self, url: str) -> None:
        options = {"isolation_level": "REPEATABLE READ"} if url.startswith("postgres") else {}
        self.engine: Engine = create_engine(url, **options)

    def close(self) -> None:
        self.engine.dispose()

    def wallet(self, user_id: int) -> Wallet:
        """``user_id``'s wallet and their banked rounds' returns, in one snapshot."""
        with self.engine.connect() as db, db.begin():
            balance = db.execute(
                text("SELECT balance FROM ledger_accounts WHERE code = :code"),
                {"code": f"player:{user_id}"},
            ).scalar()
            rows = db.execute(
                text(
                    "SELECT p.round_id, p.returned FROM round_players p"
                    " JOIN rounds r ON r.id = p.round_id"
                    " WHERE p.user_id = :user AND r.game <> 'holdem' AND p.returned IS NOT NULL"
                ),
                {"user": user_id},
            )
            returns: dict[int, int] = defaultdict(int)
            for round_id, back in rows:
                returns[int(round_id)] += int(back)
            return Wallet(int(balance or 0), dict(returns))

    def read(self) -> Audit:
        """Check the ledger (every transaction sums to zero, every cached balance is its
        postings' sum, no account that may not go negative is, all balances sum to zero) and
        return the money, all in one transaction (one snapshot on PostgreSQL)."""
        with self.engine.connect() as db, db.begin():
            unbalanced = db.execute(
                text(
                    "SELECT transaction_id, SUM(amount) FROM postings"
                    " GROUP BY transaction_id HAVING SUM(amount) <> 0"
                )
            ).first()
            assert unbalanced is None, f"transaction {unbalanced[0]} sums to {unbalanced[1]}"
            drift = db.execute(
                text(
                    "SELECT a.code, a.balance, COALESCE(SUM(p.amount), 0) FROM ledger_accounts a"
                    " LEFT JOIN postings p ON p.account_id = a.id"
                    " GROUP BY a.id, a.code, a.balance"
                    " HAVING a.balance <> COALESCE(SUM(p.amount), 0)"
                )
            ).first()
            assert drift is None, f"{drift[0]} caches {drift[1]}, its postings sum to {drift[2]}"
            negative = db.execute(
                text(
                    "SELECT code, balance FROM ledger_accounts"
                    " WHERE balance < 0 AND NOT allow_negative"
                )
            ).first()
            assert negative is None, f"{negative[0]} is negative: {negative[1]}"
            total = db.execute(text("SELECT COALESCE(SUM(balance), 0) FROM ledger_accounts"))
            assert total.scalar_one() == 0, "the balances do not sum to zero"
            audit = Audit(wallets={})
            for code, balance in db.execute(text("SELECT code, balance FROM ledger_accounts")):
                kind, _, rest = code.partition(":")
                if kind == "player":
                    audit.wallets[int(rest)] = int(balance)
                elif kind == "escrow" and ":u" in rest:
                    audit.stacks[int(rest.rsplit(":u", 1)[1])] += int(balance)
                elif kind == "escrow":
                    audit.escrows[rest] = int(balance)
            audit.rows = [
                (int(r), int(u), int(s), None if b is None else int(b), st, g, t)
                for r, u, s, b, st, g, t in db.execute(
                    text(
                        "SELECT p.round_id, p.user_id, p.staked, p.returned, r.status, r.game,"
                        " r.table_name FROM round_players p JOIN rounds r ON r.id = p.round_id"
                    )
                )
            ]
            return audit
