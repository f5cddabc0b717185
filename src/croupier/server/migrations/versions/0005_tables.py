"""tables at run time and responsible gaming

Revision ID: 0005_tables
Revises: 0004_cashier
Create Date: 2026-12-03

The floor's tables as operators leave them (``casino_tables``: a restart opens them again;
``tables.toml`` only seeds an empty database) and the players' responsible-gaming choices:
limits with their pending raises, self-exclusions and the reality check (issue 16).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_tables"
down_revision: str | None = "0004_cashier"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "casino_tables",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_casino_tables")),
    )
    op.create_table(
        "player_limits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("period", sa.String(length=8), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("pending_amount", sa.BigInteger(), nullable=True),
        sa.Column("pending_remove", sa.Boolean(), nullable=False),
        sa.Column("pending_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_player_limits_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_limits")),
        sa.UniqueConstraint("user_id", "kind", "period", name=op.f("uq_player_limits_user_id")),
    )
    with op.batch_alter_table("player_limits", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_limits_user_id"), ["user_id"], unique=False)
    op.create_table(
        "self_exclusions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("permanent", sa.Boolean(), nullable=False),
        sa.Column("days", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_self_exclusions_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_self_exclusions")),
    )
    with op.batch_alter_table("self_exclusions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_self_exclusions_user_id"), ["user_id"], unique=False)
    op.create_table(
        "reality_checks",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("interval_minutes", sa.Integer(), nullable=True),
        sa.Column("acknowledged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_reality_checks_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_reality_checks")),
    )


def downgrade() -> None:
    op.drop_table("reality_checks")
    with op.batch_alter_table("self_exclusions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_self_exclusions_user_id"))
    op.drop_table("self_exclusions")
    with op.batch_alter_table("player_limits", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_limits_user_id"))
    op.drop_table("player_limits")
    op.drop_table("casino_tables")
