"""Game mathematics: exact returns, optimal strategies, Monte Carlo simulation."""
