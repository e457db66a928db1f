"""Obligation families ``mem.*`` and ``done.*``: the ctrl-done network's structure and per-domain memory order."""
