"""Hand histories and round records: PHH for Hold'em, JSON round records for every game."""
