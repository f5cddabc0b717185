"""operations (issue 30): the live return monitor's streams and alerts, players' channels

Revision ID: 0009_operations
Revises: 0008_decisions
Create Date: 2026-12-01

``rtp_streams`` holds each monitored stream's totals and detector (the monitor resumes after
a table stream's ``last_round``), ``rtp_alerts`` the alerts and their investigations,
``user_channels`` how each player last came to a table (browser or API). Significant events
need no table: they are audit log entries.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from croupier.server.base import UtcDateTime

revision: str = "0009_operations"
down_revision: str | None = "0008_decisions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rtp_streams",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_name", sa.String(64), nullable=True, index=True),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("boxes", sa.Integer, nullable=False),
        sa.Column("base", sa.BigInteger, nullable=False),
        sa.Column("net", sa.BigInteger, nullable=False),
        sa.Column("mean", sa.Float, nullable=False),
        sa.Column("variance", sa.Float, nullable=False),
        sa.Column("uncovered", sa.Integer, nullable=False),
        sa.Column("last_round", sa.Integer, nullable=False),
        sa.Column("detector", sa.JSON, nullable=False),
        sa.Column("evidence_high", sa.Float, nullable=False),
        sa.Column("evidence_low", sa.Float, nullable=False),
        sa.Column("started_at", UtcDateTime, nullable=False),
        sa.Column("updated_at", UtcDateTime, nullable=False),
    )
    op.create_table(
        "rtp_alerts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("stream", sa.String(200), nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_name", sa.String(64), nullable=True, index=True),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("round_id", sa.Integer, nullable=False),
        sa.Column("crossings", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("base", sa.BigInteger, nullable=False),
        sa.Column("actual_return", sa.Float, nullable=True),
        sa.Column("theoretical_return", sa.Float, nullable=True),
        sa.Column("evidence", sa.Float, nullable=False),
        sa.Column("threshold", sa.Float, nullable=False),
        sa.Column("raised_at", UtcDateTime, nullable=False, index=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("outcome", sa.String(16), nullable=True),
        sa.Column("notes", sa.JSON, nullable=False),
        sa.Column("closed_at", UtcDateTime, nullable=True),
    )
    op.create_table(
        "user_channels",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE", name="fk_user_channels_user_id_users"),
            primary_key=True,
        ),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("agent", sa.Text, nullable=False),
        sa.Column("seen_at", UtcDateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("user_channels")
    op.drop_table("rtp_alerts")
    op.drop_table("rtp_streams")
