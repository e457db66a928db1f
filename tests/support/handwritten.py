"""The expectations each hand-written DFG (tests/data/handwritten) states in its comment header, parsed."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Optional

from support.paths import DATA


HANDWRITTEN = DATA / "handwritten"


FILES = sorted(p.name for p in HANDWRITTEN.glob("*.mlir"))


# A family named in a header -> the obligation ids it covers.
FAMILY = {
    "bmc": r"bmc\.K\d+\.",
    "bmc.deadlock": r"bmc\.K\d+\.deadlock$",
    "bmc.residual": r"bmc\.K\d+\.residual$",
    "bmc.livelock": r"bmc\.K\d+\.livelock$",
    "mem.order": r"mem\.[^.]+\.order",
    "mem.indep": r"mem\.indep\.",
    "balance.return": r"balance\.return$",
}


def matches(family: str, oid: str) -> bool:
    pattern = FAMILY.get(family, re.escape(family) + r"(\.|$)")
    return re.match(pattern, oid) is not None


@dataclass
class SimCase:
    """One ``// sim:`` line: inputs and what the simulator must show."""

    inputs: dict
    status: str  # completed | deadlock | residual | error
    code: Optional[str] = None
    results: Optional[list] = None
    memrefs: dict = field(default_factory=dict)


@dataclass
class Spec:
    """The expectations of one hand-written DFG, read from its comment header."""

    verdict: str  # proved | unknown | refuted | error
    families: list[str]
    sims: list[SimCase]
    twin: Optional[str] = None
    where: Optional[str] = None
    budget: Optional[float] = None


def _sim_case(text: str) -> SimCase:
    inputs, _, want = text.partition("=>")
    words = want.split(None, 1)
    case = SimCase(json.loads(inputs), words[0])
    rest = words[1] if len(words) > 1 else ""
    if case.status == "error":
        case.code = rest.strip()
        return case
    if case.status == "completed":
        m = re.match(r"\s*(\[[^\]]*\])(.*)$", rest)
        assert m, f"completed needs [results]: {text}"
        case.results = json.loads(m.group(1))
        for name, value in re.findall(r"(\w+)=(\[[^\]]*\])", m.group(2)):
            case.memrefs[name] = json.loads(value)
    return case


@functools.lru_cache(maxsize=None)
def spec(name: str) -> Spec:
    verdict, families, sims, twin, where, budget = None, [], [], None, None, None
    for line in (HANDWRITTEN / name).read_text().splitlines():
        if not line.startswith("//"):
            break
        key, _, value = line[2:].strip().partition(":")
        if key == "verify":
            words = value.split()
            verdict, families = words[0], words[1:]
            if verdict == "error":
                families, where = words[1:2], words[2]
        elif key == "sim":
            sims.append(_sim_case(value))
        elif key == "twin":
            twin = value.strip()
        elif key == "budget":
            budget = float(value)
    assert verdict in ("proved", "unknown", "refuted", "error"), f"{name}: no '// verify:' line"
    return Spec(verdict, families, sims, twin, where, budget)
