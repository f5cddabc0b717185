"""What the operator reports to a regulator: daily figures per table, the shuffles dealt."""
