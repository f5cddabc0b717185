"""The player's cashier: demo credit (demo mode) and deposit requests an operator decides."""
