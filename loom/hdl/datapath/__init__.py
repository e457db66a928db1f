"""The datapath of the RTL: operator-table expressions as SystemVerilog, one typed wire per function application.

``expr`` translates the table vocabulary, ``scalar`` the integer ops (synthesizable, bit-exact), ``floats`` and
``float_conv`` the float simulation models, ``libm_c`` the C file for libm functions SV lacks; ``vectors`` is
the bench that checks them all against ``loom.semantics`` bit for bit.
"""
