"""Two compound function units and a DFG in which both occur, shared by the compound and upstream-JSON map tests."""

from __future__ import annotations

from loom.map.adg.build import FUSpec



MAC = FUSpec("mac", ("i32", "i32", "i32"), ("i32",),
             "%m = arith.muli %i0, %i1 : i32\n%r0 = arith.addi %m, %i2 : i32")


CMPSEL = FUSpec("cmp_sel", ("i32", "i32"), ("i32", "i1"),
                "%r1 = arith.cmpi slt, %i0, %i1 : i32\n%r0 = arith.select %r1, %i0, %i1 : i32")


COMPOUND_DFG = """
handshake.func @k(%a: i32, %b: i32, %c: i32, %d: i32, ...) -> (i32, i32, i1) attributes {argNames = ["a", "b", "c", "d"], resNames = ["x", "y", "z"]} {
  %m = arith.muli %a, %b : i32
  %s = arith.addi %m, %c : i32
  %lt = arith.cmpi sgt, %s, %d : i32
  %mn = arith.select %lt, %s, %d : i32
  %m2 = arith.muli %mn, %mn : i32
  %t = arith.addi %m2, %m : i32
  handshake.return %t, %mn, %lt : i32, i32, i1
}
"""
