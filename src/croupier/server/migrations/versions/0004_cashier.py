"""cashier: deposit requests

Revision ID: 0004_cashier
Revises: 0003_audit
Create Date: 2026-12-04

A player asks the cashier for a deposit (``deposit_requests``: amount in minor units, status
pending / approved / refused / cancelled); an operator's approval credits the wallet in the
same transaction and records its ledger transaction here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_cashier"
down_revision: str | None = "0003_audit"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "deposit_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("transaction_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["decided_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("deposit_requests", schema=None) as batch_op:
        batch_op.create_index("ix_deposit_requests_user_id", ["user_id"])
        batch_op.create_index("ix_deposit_requests_status", ["status"])


def downgrade() -> None:
    op.drop_table("deposit_requests")
