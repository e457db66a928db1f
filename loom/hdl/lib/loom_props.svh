// loom property macros: one property description, two backends.
//   LOOM_SVA_FULL defined -> concurrent SVA (assert property, |=>, disable iff)
//   otherwise             -> the Yosys subset: immediate assert/assume in clocked always blocks, $past
// Properties are compiled only when LOOM_ASSERTIONS is defined (formal, Verilator --assert, pyslang);
// iverilog never sees them. Every module using the macros declares `clk`, `rst` and, for the
// Yosys backend, the register `loom_past_valid` (LOOM_PAST_VALID below). LOOM_ASSUME_RESET_ONCE (whole-run
// checks): the run starts in reset and reset never comes back (full: the tool's reset sequence starts it).
// LOOM_STICKY (Yosys backend, task dfg_ref): an always-property also fails at every later cycle once it failed.
// LOOM_SIM_MONITORS (co-simulation with the monitors live, loom/hdl/formal/replay.py; iverilog or Verilator): an
// always-property prints `LOOM assert <scope> <cycle>` the first cycle it fails (the testbench's tb.cycle); the testbench is the environment
// (assumptions compile to nothing), and the next-cycle forms (components, FIFO: proved by k-induction) are left out.
`ifndef LOOM_PROPS_SVH
`define LOOM_PROPS_SVH
`ifdef LOOM_SIM_MONITORS
`define LOOM_PAST_VALID
`define LOOM_ASSERT_ALWAYS(lbl, cond) always @(posedge clk) begin : lbl reg seen = 1'b0; if (!rst && !seen && !(cond)) begin seen = 1'b1; $display("LOOM assert %m %0d", tb.cycle); end end
`define LOOM_ASSUME_ALWAYS(lbl, cond)
`define LOOM_ASSERT_NEXT(lbl, ante, cons)
`define LOOM_ASSUME_NEXT(lbl, ante, cons)
`define LOOM_ASSUME_RESET_ONCE
`elsif LOOM_SVA_FULL
`define LOOM_PAST_VALID
`define LOOM_ASSERT_ALWAYS(lbl, cond) lbl: assert property (@(posedge clk) disable iff (rst) (cond));
`define LOOM_ASSUME_ALWAYS(lbl, cond) lbl: assume property (@(posedge clk) disable iff (rst) (cond));
`define LOOM_ASSERT_NEXT(lbl, ante, cons) lbl: assert property (@(posedge clk) disable iff (rst) (ante) |=> (cons));
`define LOOM_ASSUME_NEXT(lbl, ante, cons) lbl: assume property (@(posedge clk) disable iff (rst) (ante) |=> (cons));
`define LOOM_ASSUME_RESET_ONCE a_env_reset_once: assume property (@(posedge clk) !rst |=> !rst);
`else
`define LOOM_PAST_VALID reg loom_past_valid = 1'b0; always @(posedge clk) begin loom_past_valid <= 1'b1; if (!loom_past_valid) assume (rst); end
`ifdef LOOM_STICKY
// task dfg_ref checks its last step only (option skip): a sticky flag per property keeps every earlier cycle
`define LOOM_ASSERT_ALWAYS(lbl, cond) reg lbl``_held = 1'b1; always @(posedge clk) if (!rst && !(cond)) lbl``_held <= 1'b0; always @(posedge clk) if (!rst) lbl: assert (lbl``_held && (cond));
`else
`define LOOM_ASSERT_ALWAYS(lbl, cond) always @(posedge clk) if (!rst) lbl: assert (cond);
`endif
`define LOOM_ASSUME_ALWAYS(lbl, cond) always @(posedge clk) if (!rst) lbl: assume (cond);
`define LOOM_ASSERT_NEXT(lbl, ante, cons) always @(posedge clk) if (loom_past_valid && !rst && !$past(rst) && $past(ante)) lbl: assert (cons);
`define LOOM_ASSUME_NEXT(lbl, ante, cons) always @(posedge clk) if (loom_past_valid && !rst && !$past(rst) && $past(ante)) lbl: assume (cons);
`define LOOM_ASSUME_RESET_ONCE reg loom_reset_first = 1'b1; always @(posedge clk) begin loom_reset_first <= 1'b0; a_env_reset_once: assume (rst == loom_reset_first); end
`endif
`endif
