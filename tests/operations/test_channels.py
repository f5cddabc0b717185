"""The players' channels (issue 30) stored together: sockets connecting at once share one
transaction, and each is stored before its ``note`` returns."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sqlalchemy import event, select

from croupier.server.accounts.service import create_user
from croupier.server.db import Database
from croupier.server.monitor.channels import ChannelBook
from croupier.server.monitor.models import UserChannel


def _users(db: Database, count: int) -> list[int]:
    with db.session() as session:
        users = [create_user(session, username=f"p{i}", password_hash="x") for i in range(count)]
        session.flush()
        return [user.id for user in users]


def _stored(db: Database) -> dict[int, tuple[str, str]]:
    with db.session() as session:
        rows = session.execute(select(UserChannel.user_id, UserChannel.channel, UserChannel.agent))
        return {user: (channel, agent) for user, channel, agent in rows}


def test_sockets_connecting_together_store_their_channels_in_few_transactions(
    tmp_path: Path,
) -> None:
    db = Database(f"sqlite:///{tmp_path / 'c.db'}")
    db.migrate()
    users = _users(db, 1200)
    book = ChannelBook(db)
    inserts: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "user_channels" in statement and not statement.startswith("SELECT"):
            inserts.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:

        async def connect(user: int) -> dict[int, tuple[str, str]]:
            headers = {"origin": "https://x.example"} if user % 2 else {"user-agent": "bot"}
            await book.note(user, headers)
            return _stored(db)  # its own channel is in the database once note returns

        seen = asyncio.run(_gather(connect, users))
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    for user, stored in zip(users, seen, strict=True):
        assert stored[user] == (("browser", "") if user % 2 else ("api", "bot")), user
    assert _stored(db) == {u: ("browser", "") if u % 2 else ("api", "bot") for u in users}
    # one transaction, or two (the first socket's, then the rest that came meanwhile), of
    # at most 1,000 rows a statement: not one per socket
    assert 2 <= len(inserts) <= 4, len(inserts)

    # a channel that changed is written again (an upsert), one that did not is not
    inserts.clear()
    event.listen(db.engine, "before_cursor_execute", count)
    try:
        asyncio.run(book.note(users[0], {"origin": "https://x.example"}))
        asyncio.run(book.note(users[1], {"origin": "https://x.example"}))
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert len(inserts) == 1
    assert _stored(db)[users[0]] == ("browser", "")


async def _gather(connect: Any, users: list[int]) -> list[dict[int, tuple[str, str]]]:
    return list(await asyncio.gather(*(connect(user) for user in users)))
