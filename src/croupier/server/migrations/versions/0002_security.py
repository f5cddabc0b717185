"""security: usernames unique case-insensitively after NFKC

Revision ID: 0002_security
Revises: 0001
Create Date: 2026-12-02

Adds ``users.username_key``, the username under Unicode NFKC normalisation and case folding,
with a unique constraint: ``Boss`` can no longer register beside ``boss``. Existing rows are
keyed here. Names that collide already (registered before this check) are kept: the first
account (lowest id) keeps the key, each later one gets ``<key>~<id>`` -- a key no name can
have, since ``~`` is not allowed in usernames -- so it still logs in with its exact spelling
and keeps its money, and the migration logs each one for the operator to rename.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_security"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("alembic.runtime.migration")


def _key(username: str) -> str:
    # The same rule as croupier.server.accounts.service.username_key (a migration must not
    # change if that code does later).
    nfkc = unicodedata.normalize("NFKC", username)
    return unicodedata.normalize("NFKC", nfkc.casefold())


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("username_key", sa.String(length=64), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer()),
        sa.column("username", sa.String()),
        sa.column("username_key", sa.String()),
    )
    connection = op.get_bind()
    taken: dict[str, str] = {}
    for user_id, username in connection.execute(
        sa.select(users.c.id, users.c.username).order_by(users.c.id)
    ):
        key = _key(username)
        if key in taken:
            log.warning(
                "username %r (user %d) collides with %r case-insensitively: it keeps its "
                "exact spelling for login; rename it",
                username,
                user_id,
                taken[key],
            )
            key = f"{key}~{user_id}"
        else:
            taken[key] = username
        connection.execute(sa.update(users).where(users.c.id == user_id).values(username_key=key))
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column("username_key", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_users_username_key"), ["username_key"])


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_users_username_key"), type_="unique")
        batch_op.drop_column("username_key")
