"""Responsible gaming: a player's limits, self-exclusion and reality check (issue 16)."""
