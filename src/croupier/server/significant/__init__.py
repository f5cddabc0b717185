"""Significant events (GLI-19 §2.8.8): the audit log entries an operator must see."""
