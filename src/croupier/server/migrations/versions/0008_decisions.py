"""a live round's decision window: the phase whose extra stakes gateways hold (issue 18)

Revision ID: 0008_decisions
Revises: 0007_betting
Create Date: 2026-11-24

A cluster's gateways hold the extra stake of a live table's decisions (a UTH Play bet) as
they hold bets (0007): ``rounds.decision_phase`` names the decision phase whose stakes may be
held now (``NULL``: none). The owner sets it when a phase opens and moves it on, returning the
holds of decisions it never applied, when the phase closes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_decisions"
down_revision: str | None = "0007_betting"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch_op:
        batch_op.add_column(sa.Column("decision_phase", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch_op:
        batch_op.drop_column("decision_phase")
