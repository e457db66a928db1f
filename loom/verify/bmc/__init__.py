"""Obligation family ``bmc.*``: bounded model checking of the whole network, exact in control."""
