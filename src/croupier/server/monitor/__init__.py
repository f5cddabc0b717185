"""The live return monitor (issue 30): every table's return against its theory, as rounds settle."""
