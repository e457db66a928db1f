"""Temporal PEs in ``loom map``: several DFG ops in one ``fabric.temporal_pe``'s instruction slots."""
