"""loom verify: Z3 proofs that a DFG is right for all trip counts (see specs/verification.md)."""
