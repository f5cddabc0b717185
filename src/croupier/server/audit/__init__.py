"""The audit log: a hash-chained, append-only record of operator actions and account changes."""
