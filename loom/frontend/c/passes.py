"""loom's fixed LLVM pass pipeline over clang's unoptimised IR (llvmlite, LLVM 22): SSA values, no calls.

The pipeline is small and fixed so that what it produces is easy to raise: every function defined in the
file is marked ``alwaysinline`` and inlined (calls to other functions of the file disappear; a recursive one
stays and is reported at the call), SROA puts locals in SSA form (phis instead of stack slots), SimplifyCFG
merges trivial blocks and turns small if/else diamonds and ``?:`` into ``select``, LowerSwitch turns a switch
into branches, and global DCE drops the inlined helpers. Loops are not rotated, so a ``for`` stays a loop
tested at its header, which lift_cf raises to ``scf.while`` and raise_for to ``scf.for``.
"""

from __future__ import annotations

import re



def run_pipeline(text: str | list[str]):
    """The llvmlite module of ``text`` after the fixed pipeline (inline, SROA, SimplifyCFG, LowerSwitch, GDCE);
    several texts (one per C file) are linked into one module first, so calls across the files inline too."""
    import llvmlite.binding as llvm

    texts = [text] if isinstance(text, str) else list(text)
    # a context of its own: in the global one, struct type names get a suffix per module parsed before
    context = llvm.create_context()
    module = None
    for t in texts:
        # `__attribute__((noinline))` would keep a call: a DFG is one graph, so every call is inlined
        t = re.sub(r"^(attributes #\d+ = \{[^\n]*)$", lambda m: re.sub(r" (noinline|optnone)\b", "", m[1]),
                   t, flags=re.M)
        one = llvm.parse_assembly(t, context=context)
        one.verify()
        if module is None:
            module = one
        else:  # LLVM's linker: internal (static) names that clash are renamed, external ones resolved
            module.link_in(one)
    assert module is not None
    for f in module.functions:
        if not f.is_declaration:
            f.add_function_attribute("alwaysinline")
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_triple(module.triple).create_target_machine()
    builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options())
    mpm = llvm.create_new_module_pass_manager()
    mpm.add_always_inliner_pass()
    mpm.add_sroa_pass()
    mpm.add_simplify_cfg_pass()
    mpm.add_lower_switch_pass()
    mpm.add_simplify_cfg_pass()
    mpm.add_global_dead_code_eliminate_pass()
    mpm.add_lcssa_pass()  # values of a loop used after it pass through its exit blocks (exits.py needs it)
    mpm.add_instruction_namer_pass()  # every value and block named: the MLIR names come from them
    mpm.run(module, builder)
    module.verify()
    return module
