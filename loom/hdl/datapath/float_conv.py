"""Float format conversions as SV functions: pure bit logic, no ``real`` (rounding to nearest even is exact).

narrow format <-> f64 (bf16, f16, f32 and back, with a tie-break input for the fused fma), unsigned integer ->
any format, f64 -> integer of any width (truncating, saturating). Each is a template over the format's
precision and exponent width, so the four float formats share one text. ``loom.hdl.datapath.floats`` calls them; they
sit outside ``YOSYS`` like every float model.
"""

from __future__ import annotations

from loom.semantics.layout import FLOAT_FORMATS

# read from the semantics' float-format table (loom.semantics.layout.FLOAT_FORMATS):
# (precision incl. the hidden bit, exponent bits) of the narrow formats, computed through f64
NARROW = {n: (f.precision, f.exp_bits) for n, f in FLOAT_FORMATS.items() if n != "f64"}
QNAN = {n: f.qnan for n, f in FLOAT_FORMATS.items()}  # the quiet NaN every NaN is encoded as
INF_MAG = {n: f.inf_mag for n, f in FLOAT_FORMATS.items()}  # infinity's magnitude


def to_f64_function(name: str) -> str:
    """``loom_<name>_to_f64``: a narrow format's bits -> f64 bits, exactly (subnormals normalised, NaN payload
    kept)."""
    p, e = NARROW[name]
    m, w, bias = p - 1, p + e, (1 << (e - 1)) - 1
    fn = f"loom_{name}_to_f64"
    return f"""`ifndef YOSYS
  // {name} bits -> f64 bits, exact (subnormals normalised; NaN payload kept)
  function automatic [63:0] {fn}(input [{w - 1}:0] x);
    reg [{m - 1}:0] m; reg [10:0] e; reg found; integer sh;
  begin
    m = x[{m - 1}:0];
    if (x[{w - 2}:{m}] == {e}'h{(1 << e) - 1:x}) {fn} = {{x[{w - 1}], 11'h7ff, m, {52 - m}'h0}};
    else if (x[{w - 2}:{m}] == {e}'h0) begin
      if (m == {m}'h0) {fn} = {{x[{w - 1}], 63'h0}};
      else begin
        sh = 0; found = 1'b0;
        for (int i = 0; i < {m}; i++) if (!found) begin if (m[{m - 1}]) found = 1'b1; else begin m = m << 1; sh = sh + 1; end end
        m = m << 1;
        e = 11'd{1023 - bias} - sh[10:0];
        {fn} = {{x[{w - 1}], e, m, {52 - m}'h0}};
      end
    end else begin
      e = {{{11 - e}'b0, x[{w - 2}:{m}]}} + 11'd{1023 - bias};
      {fn} = {{x[{w - 1}], e, m, {52 - m}'h0}};
    end
  end
  endfunction
`endif"""


# arith.truncf's rounding modes (loom.semantics.scalar.ROUNDING_MODES) -> (the function name's suffix, when the
# magnitude rounds up given the sign bit s, the remainder rem below the kept bits and half the last kept bit, and
# whether an overflow gives the largest finite magnitude instead of infinity)
MODES = {
    "to_nearest_even": ("", "(rem > half) || (rem == half && {on_tie})", "1'b0"),
    "to_nearest_away": ("_away", "(rem >= half)", "1'b0"),
    "toward_zero": ("_rz", "1'b0", "1'b1"),
    "upward": ("_ru", "(!x[63] && rem != 53'h0)", "x[63]"),
    "downward": ("_rd", "(x[63] && rem != 53'h0)", "!x[63]"),
}


def from_f64_function(name: str, tie_break: bool = False, mode: str = "to_nearest_even") -> str:
    """``loom_f64_to_<name>``: f64 bits -> a narrow format's bits, rounded in ``mode`` (``MODES``; round to nearest
    even by default), overflow to inf (or the largest finite value where the mode rounds toward zero), subnormal
    results, NaN -> the quiet NaN of the same sign. With ``tie_break`` (``loom_f64_to_<name>_tb``, nearest even
    only) a second input says where the exact value lies when x is a tie: 0 on it (to even), 1 beyond it
    (magnitude up), 2 short of it (magnitude down)."""
    p, e = NARROW[name]
    m, w, bias = p - 1, p + e, (1 << (e - 1)) - 1
    emin, cut = 1 - bias, 53 - p
    suffix, up_rule, to_max = MODES[mode]
    fn = f"loom_f64_to_{name}" + suffix + ("_tb" if tie_break else "")
    tb_in = ", input [1:0] tb" if tie_break else ""
    on_tie = "(tb == 2'd1 || (tb == 2'd0 && q[0]))" if tie_break else "q[0]"
    up = up_rule.format(on_tie=on_tie)
    # a nonzero magnitude below everything the format keeps: 0, or the least subnormal where the mode rounds up
    tiny = "1'b0" if mode.startswith("to_nearest") or mode == "toward_zero" else up_rule.replace("rem != 53'h0", "1'b1")
    zero = f"{{x[63], {w - 1}'h0}}" if tiny == "1'b0" else f"{{x[63], {w - 2}'h0, {tiny}}}"
    f64_sub = zero if tiny == "1'b0" else f"{{x[63], {w - 2}'h0, (x[51:0] != 52'h0) && {tiny}}}"
    inf = f"{w - 1}'h{INF_MAG[name]:x}"
    big = inf if to_max == "1'b0" else f"({to_max}) ? {w - 1}'h{INF_MAG[name] - 1:x} : {inf}"
    how = "round to nearest even, overflow to inf" if mode == "to_nearest_even" else f"rounded {mode.replace('_', ' ')}"
    return f"""`ifndef YOSYS
  // f64 bits -> {name} bits, {how}, subnormal results, quiet NaN {QNAN[name]:#x}
  function automatic [{w - 1}:0] {fn}(input [63:0] x{tb_in});
    reg [52:0] sig, q, rem, half; integer ex, sh; reg up;
  begin
    ex = $signed({{21'h0, x[62:52]}});
    if (x[62:52] == 11'h7ff) {fn} = (x[51:0] != 0) ? {{x[63], {w - 1}'h{QNAN[name]:x}}} : {{x[63], {w - 1}'h{INF_MAG[name]:x}}};
    else if (x[62:52] == 11'h0) {fn} = {f64_sub};
    else begin
      ex = ex - 1023;
      sig = {{1'b1, x[51:0]}};
      sh = (ex >= {emin}) ? {cut} : {cut} + ({emin} - ex);
      if (sh > 53) {fn} = {zero};  // below half the least subnormal (and 53'h1 << sh would wrap)
      else begin
        q = sig >> sh;
        rem = sig & ((53'h1 << sh) - 53'h1);
        half = 53'h1 << (sh - 1);
        up = {up};
        q = q + (up ? 53'h1 : 53'h0);
        if (ex >= {emin}) begin
          if (q[{p}]) begin q = q >> 1; ex = ex + 1; end
          if (ex > {bias}) {fn} = {{x[63], {big}}};
          else {fn} = {{x[63], {e}'(ex + {bias}), q[{m - 1}:0]}};
        end else {fn} = {{x[63], q[{w - 2}:0]}};
      end
    end
  end
  endfunction
`endif"""


def _cast(to: int, width: int, expr: str) -> str:
    """``expr`` (``width`` bits) sized to ``to`` bits; no cast when they agree (slang: a useless cast)."""
    return expr if to == width else f"{to}'({expr})"


def int_to_float_function(width: int, name: str) -> str:
    """``loom_u<width>_to_<name>``: an unsigned integer -> the float format's magnitude bits (all but the sign),
    rounded once (to nearest
    even, overflow to inf) straight from the integer, as the semantics rounds the exact value. (Through f64
    first would round twice: an i64 just past a tie of f32 lands on the tie in f64, then rounds to even.)"""
    p, e = NARROW.get(name, (53, 11))
    w, bias = p + e, (1 << (e - 1)) - 1
    fn = f"loom_u{width}_to_{name}"
    return f"""`ifndef YOSYS
  // unsigned i{width} -> {name} magnitude bits, rounded once to nearest even, overflow to inf
  function automatic [{w - 2}:0] {fn}(input [{width - 1}:0] x);
    reg [{width - 1}:0] rest, half; reg [{p}:0] sig; integer lead, i, sh;
  begin
    lead = -1;
    for (i = 0; i < {width}; i = i + 1) if (x[i]) lead = i;
    if (lead < 0) {fn} = {w - 1}'h0;
    else if (lead < {p}) begin  // exact
      sig = {_cast(p + 1, width, "x")} << ({p - 1} - lead);
      {fn} = {{{e}'(lead + {bias}), sig[{p - 2}:0]}};
    end else begin
      sh = lead - {p - 1};
      sig = {_cast(p + 1, width, "(x >> sh)") if width > p + 1 else _cast(p + 1, width, "x") + " >> sh"};
      rest = x & (({width}'h1 << sh) - {width}'h1);
      half = {width}'h1 << (sh - 1);
      if (rest > half || (rest == half && sig[0])) sig = sig + {p + 1}'h1;
      if (sig[{p}]) begin sig = sig >> 1; lead = lead + 1; end
      if (lead > {bias}) {fn} = {w - 1}'h{INF_MAG[name]:x};
      else {fn} = {{{e}'(lead + {bias}), sig[{p - 2}:0]}};
    end
  end
  endfunction
`endif"""


def fptoi_function(width: int, signed: bool) -> str:
    """``loom_f64_to_<s|u><width>``: f64 bits -> an integer of ``width`` bits, truncated toward zero, saturated to
    the range, NaN -> 0 (LLVM's fpto*i.sat, as the semantics). Bit logic on the significand for any width: a
    finite nonzero |x| is sig * 2^k (sig 53 bits), so trunc(|x|) is sig shifted by k, and |x| >= 2^L exactly when
    its leading bit 52 + k >= L."""
    fn = f"loom_f64_to_{'s' if signed else 'u'}{width}"
    mw = max(width, 53)
    lim = width - 1 if signed else width  # |trunc(x)| >= 2^lim is out of range (for a negative signed: the min)
    top = f"{width}'h{((1 << (width - 1)) - 1) if signed else ((1 << width) - 1):x}"
    low = f"{width}'h{(1 << (width - 1)) if signed else 0:x}"
    below = "1'b0" if signed else "x[63]"  # a negative value below the unsigned range (0 after saturation)
    return f"""`ifndef YOSYS
  // f64 bits -> {'signed' if signed else 'unsigned'} i{width}: truncate toward zero, saturate, NaN -> 0
  function automatic [{width - 1}:0] {fn}(input [63:0] x);
    reg [{mw - 1}:0] m; integer k;
  begin
    k = $signed({{21'h0, x[62:52]}}) - 1075;  // a normal |x| = {{1, mantissa}} * 2^k
    if (x[62:52] == 11'h7ff && x[51:0] != 52'h0) {fn} = {width}'h0;  // NaN
    else if (x[62:52] == 11'h0) {fn} = {width}'h0;  // zero or subnormal: |x| < 1
    else if (x[62:52] == 11'h7ff || 52 + k >= {lim}) {fn} = x[63] ? {low} : {top};
    else if ({below}) {fn} = {width}'h0;
    else begin
      m = {_cast(mw, 53, "{1'b1, x[51:0]}")};
      m = (k >= 0) ? (m << k) : (k <= -53) ? {mw}'h0 : (m >> (-k));
      {fn} = x[63] ? -m[{width - 1}:0] : m[{width - 1}:0];
    end
  end
  endfunction
`endif"""
