"""SCF stage: lift_cf's scf.while/scf.if, then counted ``scf.while`` loops recognised as ``scf.for``."""

from __future__ import annotations


def raise_module(module):
    """A new module whose multi-block functions are lifted to scf (lift_cf) and counted loops made scf.for."""
    from loom.lower.lift_cf import lift_cfg

    for i, op in enumerate(list(module.body.ops)):
        if op.name == "func.func" and op.regions and op.regions[0].blocks:
            new = lift_cfg(op)
            if new is not op:
                module.body.ops[i] = new
                new.parent = module.body
    return module
