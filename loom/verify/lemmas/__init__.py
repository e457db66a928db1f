"""Obligation family ``fsm.*``: operator lemmas (contracts, k-induction) and stream termination preconditions."""
