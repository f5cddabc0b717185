"""Live tables: the WebSocket protocol, the table manager, round records and fairness."""
