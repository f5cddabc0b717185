"""The casino floor at run time: tables opened, changed and closed by operators (issue 16)."""
