// An external handshake.func (a declaration, no body): valid in CIRCT, nothing to run.
module {
  handshake.func private @outside(i32, none, ...) -> (i32, none)
}
