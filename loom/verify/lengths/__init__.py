"""Obligation families ``len.*``, ``balance.*`` and ``class.*``: stream lengths and channel balance for all trip counts."""
