"""a round's betting window, open or closed (issue 18)

Revision ID: 0007_betting
Revises: 0006_leases
Create Date: 2026-11-24

In a cluster the gateways hold the stakes of bets themselves, for the round whose betting is
open, before the table's owner sees the bet (issue 18). ``rounds.betting_open`` says whether
the round still takes bets: the owner sets it when it opens the round and clears it when
betting closes; a gateway holds a stake only in a transaction that read the round with
betting open under a share lock (``FOR SHARE``), so the owner's closing update waits for
holds in flight, and no hold is taken after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_betting"
down_revision: str | None = "0006_leases"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch_op:
        batch_op.add_column(
            sa.Column("betting_open", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch_op:
        batch_op.drop_column("betting_open")
