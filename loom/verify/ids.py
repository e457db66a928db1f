"""Obligation IDs as values: one table of shapes gives the one printer and the one parser.

An ID such as ``len.L0.after_cond``, ``mem.A.order.st3<ld5`` or ``safe.load@12:7.oob`` names a *family* (what
kind of property), a *subject* (the loop, value, memory, table or op it is about), a source *location* and the
family's *parameters*. Checkers print IDs with ``str(ObligationId(...))``; the HDL monitors, the driver and the
mutation tools read them back with ``ObligationId.parse``, so no other module spells or matches an ID's text.
The printed strings are the report format (reports and the archived proofs name them): a shape here must never
print differently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

# per placeholder: the text it may match. ``subject`` is the least text that lets the rest of the shape match
_FIELD = {
    "subject": r".+?",
    "word": r"[A-Za-z_][A-Za-z0-9_]*",
    "int": r"[0-9]+",
    "name": r"[^.@|<>\[\]]+",
    "domain": r"[^|]+",  # a memory domain's name (a memref's, which may hold dots: ``a.1``) or ``*``
    "any": r".+",
}


@dataclass(frozen=True)
class Shape:
    """How one family prints: ``template`` with ``{subject}``, ``{location}`` and ``{p0}``, ``{p1}``, ... whose
    texts ``params`` restricts (a key of ``_FIELD`` each)."""

    family: str
    template: str
    params: tuple[str, ...] = ()

    @property
    def has_subject(self) -> bool:
        return "{subject}" in self.template

    @property
    def has_location(self) -> bool:
        return "{location}" in self.template

    def regex(self) -> re.Pattern:
        """The template as an anchored pattern (literal text escaped)."""
        out, rest = [], self.template
        for piece in re.split(r"(\{[a-z0-9]+\})", rest):
            if piece == "{subject}":
                out.append(f"(?P<subject>{_FIELD['subject']})")
            elif piece == "{location}":
                out.append(r"(?P<line>[0-9]+):(?P<col>[0-9]+)")
            elif re.fullmatch(r"\{p[0-9]+\}", piece):
                k = int(piece[2:-1])
                out.append(f"(?P<p{k}>{_FIELD[self.params[k]]})")
            else:
                out.append(re.escape(piece))
        return re.compile("".join(out))


# Parsing tries the shapes in this order and takes the first that matches the whole ID: a more specific shape
# comes before a more general one of the same prefix (``fsm.stream.pre.X`` before ``fsm.T.P``).
SHAPES: tuple[Shape, ...] = (
    Shape("internal", "internal.{subject}"),                                  # a checker that crashed or was skipped
    Shape("fsm.stream.pre", "fsm.stream.pre.{subject}"),                      # a stream op's precondition
    Shape("fsm", "fsm.{subject}.{p0}", ("word",)),                            # table family . lemma property
    Shape("len.raw", "len.{subject}.raw"),                                    # loop: raw condition length
    Shape("len.after_cond", "len.{subject}.after_cond"),                      # loop: gated stream lengths
    Shape("len.terminates", "len.{subject}.terminates"),                      # loop: a while loop ends
    Shape("class", "class.{subject}"),                                        # a value's clock class
    Shape("idiom.carry", "idiom.{subject}.carry"),                            # a primed select / loop header is a carry
    Shape("idiom.ring", "idiom.{subject}.ring"),                              # a function-level token ring
    Shape("balance", "balance.{subject}"),                                    # an op consumes what it is given
    Shape("mem.access", "mem.access.{subject}"),                              # an access's done answers a request
    Shape("mem.indep", "mem.indep.{subject}|{p0}", ("domain",)),              # two domains are independent
    Shape("mem.alias", "mem.alias.{subject}"),                                # memref arguments do not alias
    Shape("mem.order.batch", "mem.{subject}.order[{p0}<{p1}..{p2}<{p3}]", ("word",) * 4),
    Shape("mem.order.pair", "mem.{subject}.order.{p0}<{p1}", ("word", "word")),  # program order of two accesses
    Shape("mem.order", "mem.{subject}.order"),                                # a domain's order, all pairs
    Shape("done.postdom", "done.postdom"),                                    # done after every access
    Shape("bmc.deadlock", "bmc.K{p0}.deadlock", ("int",)),                    # bounded runs end, at bound K
    Shape("bmc.residual", "bmc.K{p0}.residual", ("int",)),                    # ... with no token left
    Shape("bmc.livelock", "bmc.K{p0}.livelock", ("int",)),                    # ... without firing forever
    Shape("refine", "refine"),                                                # refinement not checked
    Shape("refine.result", "refine.result{p0}", ("int",)),                    # the DFG's k-th result
    Shape("refine.loop", "refine.loop@{location}.{p0}", ("word",)),          # a loop's condition / activation
    Shape("refine.at", "refine.{subject}@{location}", ()),                    # loop / load / store at a source op
    Shape("safe", "safe.{subject}@{location}.{p0}", ("any",)),                # a source op's runtime-error check
    Shape("map.fifo", "map.fifo.{subject}"),                                  # a verify ID, on the fabric's routes
    Shape("map", "map.{subject}"),                                            # a mapping checker's verdict
)
_BY_FAMILY = {s.family: s for s in SHAPES}
# the shapes by the word an ID starts with (``mem``, ``len``, ...), in ``SHAPES`` order: a parse tries only those
_BY_HEAD: dict[str, list[tuple[Shape, re.Pattern]]] = {}
for _s in SHAPES:
    _BY_HEAD.setdefault(re.split(r"[.{]", _s.template, maxsplit=1)[0], []).append((_s, _s.regex()))


@dataclass(frozen=True)
class ObligationId:
    """One obligation's identity: ``family`` (a ``SHAPES`` entry), ``subject``, ``location`` (line, col) and
    ``params`` (the family's other fields, as text). ``str()`` prints the report form."""

    family: str
    subject: str = ""
    location: Optional[tuple[int, int]] = None
    params: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        shape = _BY_FAMILY.get(self.family)
        if shape is None:
            raise ValueError(f"unknown obligation family {self.family!r}")
        if shape.has_subject != bool(self.subject):
            raise ValueError(f"family {self.family!r} {'needs' if shape.has_subject else 'takes no'} subject")
        if shape.has_location != (self.location is not None):
            raise ValueError(f"family {self.family!r} {'needs' if shape.has_location else 'takes no'} location")
        if len(self.params) != len(shape.params):
            raise ValueError(f"family {self.family!r} takes {len(shape.params)} parameter(s), got {self.params!r}")
        if not all(isinstance(p, str) for p in self.params):
            object.__setattr__(self, "params", tuple(str(p) for p in self.params))

    def __str__(self) -> str:
        shape = _BY_FAMILY[self.family]
        fields = {f"p{k}": p for k, p in enumerate(self.params)}
        loc = f"{self.location[0]}:{self.location[1]}" if self.location is not None else ""
        return shape.template.format(subject=self.subject, location=loc, **fields)

    @property
    def text(self) -> str:
        """The printed form (``str(self)``)."""
        return str(self)

    @staticmethod
    def parse(text: str) -> "ObligationId":
        """The ID ``text`` prints from (``ValueError`` when no shape matches it)."""
        got = ObligationId.try_parse(text)
        if got is None:
            raise ValueError(f"not an obligation ID: {text!r}")
        return got

    @staticmethod
    def try_parse(text: str) -> Optional["ObligationId"]:
        """``parse``, or None when no shape matches ``text``."""
        for shape, pattern in _BY_HEAD.get(text.split(".", 1)[0], ()):
            m = pattern.fullmatch(text)
            if m is None:
                continue
            g = m.groupdict()
            loc = (int(g["line"]), int(g["col"])) if shape.has_location else None
            params = tuple(g[f"p{k}"] for k in range(len(shape.params)))
            return ObligationId(shape.family, g.get("subject") or "", loc, params)
        return None


def family_of(text: str) -> Optional[str]:
    """The family of the ID ``text``, or None when it is not one."""
    got = ObligationId.try_parse(text)
    return got.family if got is not None else None


def with_copy(text: str, copy: int) -> str:
    """The ID ``text`` of the ``copy``-th op (1, 2, ... in program order) of several that share a source position
    (an inlined call, a macro): ``#2``, ``#3`` ... from the second on, as the safety checker and its RTL monitors
    both print them."""
    return text if copy <= 1 else f"{text}#{copy}"


def numbered(ids: list[str]) -> list[str]:
    """``ids`` with each repeated ID numbered by ``with_copy`` in list order (the first keeps its text), so that
    obligations of ops that share a source position stay apart in reports, shards and merges."""
    seen: dict[str, int] = {}
    out = []
    for text in ids:
        seen[text] = seen.get(text, 0) + 1
        out.append(with_copy(text, seen[text]))
    return out


def oid(family: str, subject: str = "", location: Optional[tuple[int, int]] = None, *params: object) -> str:
    """The printed ID of ``ObligationId(family, subject, location, params)`` (what checkers put in reports)."""
    return str(ObligationId(family, subject, location, tuple(str(p) for p in params)))
