// loom_fifo: the channel between two DFG ops, an order-preserving valid/ready FIFO of DEPTH slots.
// BYPASS = 0 (registered, opaque): in_ready depends only on the occupancy register and out_valid only
// on the occupancy (plus the optional stall injector), so the FIFO cuts both the valid and the ready
// path, and a token waits at least one cycle in it.
// BYPASS = 1 (transparent): when empty, a token offered at the input is offered at the output in the
// same cycle (out_valid and out_data pass through combinationally); a token not taken is kept, as in
// the registered FIFO. in_ready still depends only on the occupancy, so the FIFO cuts the ready path
// but not the valid path: loom.hdl.buffers puts a registered FIFO on every cycle of the netlist, so no
// combinational loop can arise. A token that passes through is pushed and popped in the same cycle
// (count, pointers and pushes count it as every other token). With LOOM_STALL defined, a per-FIFO LFSR seeded from STALL_SEED inserts
// valid gaps (never withdrawing a presented token) and ready stalls (never starting without a push);
// co-simulation only;
// `LOOM_STALL is the run's seed.
`include "loom_props.svh"
module loom_fifo #(
  parameter int WIDTH = 1,
  parameter logic [31:0] DEPTH = 2,
  parameter bit BYPASS = 1'b0  // 1: transparent (see above)
`ifdef LOOM_STALL
  , parameter int STALL_SEED = 0  // co-simulation only: the top passes it only with LOOM_STALL
`endif
) (
  input  logic             clk,
  input  logic             rst,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [WIDTH-1:0] in_data,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [WIDTH-1:0] out_data
);
  localparam int AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  logic [WIDTH-1:0] slots [0:DEPTH-1];
  logic [AW-1:0] rptr, wptr;
  logic [AW:0] count;
  logic stall_in, stall_out;
  wire push = in_valid && in_ready;
  wire pop = out_valid && out_ready;
`ifdef LOOM_STALL
  logic [31:0] lfsr;
  logic presented, busy;
  // ready stalls start only when a token is taken (as a filling FIFO's ready falls) and end at random:
  // in_ready never falls without a push, so a lazy fork into several FIFOs never withdraws the valid
  // it offers one of them (their a_in_valid_stays holds under stalls too)
  always @(posedge clk) begin
    if (rst) begin lfsr <= (32'(STALL_SEED) ^ 32'(`LOOM_STALL)) | 32'h1; presented <= 1'b0; busy <= 1'b0; end
    else begin
      lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};
      presented <= out_valid && !out_ready;
      if (push) busy <= lfsr[3];
      else if (busy) busy <= !(lfsr[9] & lfsr[17]);
    end
  end
  assign stall_in = busy;
  assign stall_out = lfsr[5] & lfsr[11] & !presented;
`else
  assign stall_in = 1'b0;
  assign stall_out = 1'b0;
`endif
  assign in_ready = (count != DEPTH[AW:0]) && !stall_in;
  // transparent and empty: the offered token passes through (only when it can also be pushed, so a token
  // not taken this cycle is the FIFO's head next cycle)
  wire through = BYPASS && count == 0;
  assign out_valid = (count != 0 || (through && in_valid && in_ready)) && !stall_out;
  assign out_data = through ? in_data : slots[rptr];
  always @(posedge clk) begin
    if (rst) begin
      rptr <= '0; wptr <= '0; count <= '0;
    end else begin
      if (push) begin
        slots[wptr] <= in_data;
        wptr <= (wptr == AW'(DEPTH - 1)) ? '0 : wptr + 1'b1;
      end
      if (pop) rptr <= (rptr == AW'(DEPTH - 1)) ? '0 : rptr + 1'b1;
      count <= count + {{AW{1'b0}}, push} - {{AW{1'b0}}, pop};
    end
  end
`ifndef SYNTHESIS
  // tokens that entered this channel (the simulator's per-channel count)
  logic [31:0] pushes;
  always @(posedge clk) if (rst) pushes <= 0; else if (push) pushes <= pushes + 1;
`endif
`ifdef LOOM_ASSERTIONS
  localparam logic [31:0] D = DEPTH;  // 32 bits, unsigned, for the property arithmetic
  `LOOM_PAST_VALID
  // environment: the producer keeps a token valid and stable until it is taken
  `LOOM_ASSUME_NEXT(a_in_valid_stays, in_valid && !in_ready, in_valid)
  `LOOM_ASSUME_NEXT(a_in_data_stable, in_valid && !in_ready, $stable(in_data))
  // hs.valid_stays / hs.data_stable: the FIFO keeps its head valid and stable until taken
  `LOOM_ASSERT_NEXT(p_out_valid_stays, out_valid && !out_ready, out_valid)
  `LOOM_ASSERT_NEXT(p_out_data_stable, out_valid && !out_ready, $stable(out_data))
  // fifo.bounded: occupancy never exceeds DEPTH and the pointers agree with it (induction helpers)
  `LOOM_ASSERT_ALWAYS(p_count_bounded, 32'(count) <= D)
  `LOOM_ASSERT_ALWAYS(p_ptrs_consistent, ((32'(wptr) + D - 32'(rptr)) % D) == (32'(count) % D))
  `LOOM_ASSERT_ALWAYS(p_ptrs_in_range, 32'(wptr) < D && 32'(rptr) < D)
`endif
endmodule
