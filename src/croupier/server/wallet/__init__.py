"""The double-entry ledger: accounts, balanced transactions of postings, idempotency keys."""
