"""Obligation family ``refine.*``: the DFG computes what its SCF source computes (refinement)."""
