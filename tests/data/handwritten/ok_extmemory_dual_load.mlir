// ok_extmemory_dual_load: upstream LOOM's extmemory-dual-load unit test shape: two loads of one
// extmemory, each taking its ctrl token from its own function argument (ctrl0, ctrl1), their done
// tokens joined for the return. The access rule ("ctrl input comes from the ctrl-done network")
// must treat both loads alike: both ctrl arguments are entry tokens (it used to accept only the
// last none argument, so ld0 was refuted and ld1 proved).
// verify: proved
// sim: {"m": [1.5, 2.5, 4.0], "i0": 0, "i1": 2} => completed [1.5, 4.0]
module {
  handshake.func @dual(%m: memref<?xf32>, %i0: index, %i1: index, %ctrl0: none, %ctrl1: none, ...) -> (f32, f32, none) attributes {argNames = ["m", "i0", "i1", "ctrl0", "ctrl1"], resNames = ["a", "b", "done"]} {
    %d:4 = handshake.extmemory[ld = 2, st = 0] (%m : memref<?xf32>) (%a0, %a1) {id = 0 : i32} : (index, index) -> (f32, f32, none, none)
    %v0, %a0 = handshake.load [%i0] %d#0, %ctrl0 : index, f32
    %v1, %a1 = handshake.load [%i1] %d#1, %ctrl1 : index, f32
    %done = handshake.join %d#2, %d#3 : none, none
    handshake.return %v0, %v1, %done : f32, f32, none
  }
}
