"""Round data below the tables (issue 26): the wallet and responsible gaming import nothing
of ``server/tables`` -- not even through a named exception of the import contract -- and
what they needed from there is theirs: the ``balance`` frame (``wallet/frames.py``), and a
cash table's hand told apart by the player's stack at that table (not by the tables'
registry of games)."""

from __future__ import annotations

import ast
import datetime as dt
import tomllib
import uuid
from pathlib import Path
from typing import Any

from croupier.server.db import Database
from croupier.server.responsible import limits
from croupier.server.rounds import store as rounds
from croupier.server.tables.cash_ledger import stack_account
from croupier.server.tables.wire import SERVER_FRAMES, as_json
from croupier.server.wallet import service as wallet
from croupier.server.wallet.frames import Balance
from croupier.server.wallet.models import TransactionKind

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_contract_names_no_exception() -> None:
    contracts = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    below = next(c for c in contracts if c["name"] == "round data below the tables")
    assert below.get("ignore_imports", []) == []
    assert "croupier.server.tables" in below["forbidden_modules"]
    assert {
        "croupier.server.responsible",
        "croupier.server.reports",
        "croupier.server.wallet",
    } <= set(below["source_modules"])


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at its top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_responsible_gaming_the_reports_and_the_wallet_import_nothing_of_the_tables() -> None:
    """Read from their sources (not from the contract): what issue 26 names -- responsible
    gaming, the reports and the wallet with its router -- reaches round data and each game's
    theory below the tables, and the table layer not at all."""
    server = PYPROJECT.parent / "src" / "croupier" / "server"
    files = [f for d in ("responsible", "reports", "wallet") for f in (server / d).rglob("*.py")]
    assert server / "wallet" / "router.py" in files and len(files) > 10
    found = {
        f"{f.relative_to(server)} imports {name}"
        for f in files
        for name in _imported(f)
        if name == "croupier.server.tables" or name.startswith("croupier.server.tables.")
    }
    assert not found, sorted(found)


def test_the_balance_frame_is_the_wallets_and_on_the_wire_unchanged() -> None:
    assert Balance in SERVER_FRAMES
    assert as_json(Balance(balance=1_234)) == {"type": "balance", "balance": 1_234}


def _open(session: Any, *, user: int, table: str, game: str, staked: int) -> None:
    row = rounds.open_round(
        session, table=table, game=game, commitment="c" * 64, salt="s", deck="d"
    )
    rounds.stake(session, round_id=row.id, user_id=user, seat=0, amount=staked,
                 idempotency_key=uuid.uuid4().hex)  # fmt: skip


def test_a_hand_at_a_cash_table_is_at_risk_once(db: Database, make_user: Any) -> None:
    """The chips of a hand in play are the stack's (counted at risk); what the hand records
    as wagered is not counted again. A round against the house counts its stakes."""
    user = make_user("hana")
    with db.session() as session:
        wallet.credit(session, user_id=user, amount=10_000, idempotency_key="d")
        stack = stack_account(session, table="cards", user_id=user)
        wallet.post(session, kind=TransactionKind.TRANSFER,
                    legs=[(wallet.player_account(session, user_id=user), -1_200), (stack, 1_200)],
                    user_id=user)  # fmt: skip
        _open(session, user=user, table="cards", game="holdem", staked=300)
        _open(session, user=user, table="casino", game="uth", staked=700)
    with db.session() as session:
        used = limits.usage(session, user_id=user, now=dt.datetime.now(dt.UTC))
    assert used.at_risk == 1_200 + 700
