// A primed buffer with fewer initial values than slots: CIRCT rejects it.
module {
  handshake.func @countdown(%start: none, ...) -> (i32, none) attributes {argNames = ["start"], resNames = ["out0", "outCtrl"]} {
    %val = buffer [2] seq %again {initValues = [12]} : i32
    %ctrl = merge %start, %ctrl_again : none
    %limit = constant %ctrl {value = 12 : i32} : i32
    %more = arith.cmpi ne, %val, %limit : i32
    %again, %done = cond_br %more, %val : i32
    %ctrl_again, %ctrl_done = cond_br %more, %ctrl : none
    return %done, %ctrl_done : i32, none
  }
}
