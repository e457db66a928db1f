// either: while (i < n || j < m) { i++; j++ } over index -- a disjunction. Ranked by
// max(n - i, m - j) under the inductive invariant i == j: proved.
module {
  func.func @either(%n: index, %m: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r:2 = scf.while (%i = %c0, %j = %c0) : (index, index) -> (index, index) {
      %a = arith.cmpi ult, %i, %n : index
      %b = arith.cmpi ult, %j, %m : index
      %go = arith.ori %a, %b : i1
      scf.condition(%go) %i, %j : index, index
    } do {
    ^bb0(%i: index, %j: index):
      %i1 = arith.addi %i, %c1 : index
      %j1 = arith.addi %j, %c1 : index
      scf.yield %i1, %j1 : index, index
    }
    return %r#0 : index
  }
}
