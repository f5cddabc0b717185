"""The self-checking install (issue 30, GLI-19): a manifest of digests, checked at start and every day."""
