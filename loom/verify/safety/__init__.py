"""Safety obligations: no run of the source stops with a runtime error (bounds, division, shifts, casts, steps)."""
