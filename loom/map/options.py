"""Upstream's mapper options for ``loom map``: a base YAML config, the promoted ``--mapper-*`` flags, and their merge.

spec-mapper-config's order: built-in defaults, then the base YAML (``--mapper-base-config``), then the CLI; a CLI
value that differs from the YAML's wins with a warning. The config is validated before mapping starts, and a
contradiction (both snapshot modes, a range a field may not leave, a seed given twice) is one located line with
``CPL_MAP_CONFIG`` (in the YAML) or ``CPL_MAP_OPTIONS`` (on the command line). loom uses the fields listed in
``USED``; every other upstream field is read, range-checked where the spec says so, and has no effect."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from loom.diagnostics import LoomError
from loom.ir.location import Location
from loom.map.yaml_subset import CONFIG, Entry, parse_yaml

OPTIONS = "CPL_MAP_OPTIONS"


@dataclass
class MapperOptions:
    """What loom's mapper takes from upstream's options (defaults: loom's own behaviour)."""

    seed: int = 0
    budget: Optional[float] = None
    routing_heuristic_weight: float = 1.0  # A*'s heuristic multiplier (1: exact hop distances, optimal paths)
    snapshot_interval_seconds: float = -1
    snapshot_interval_rounds: int = -1
    bufferization: bool = False  # post-route FIFO buffering (loom/map/bufferize.py)
    bufferization_max_iterations: int = 1
    min_throughput_improvement: float = 0.0
    combinational_node_delay: float = 1.0
    routing_hop_delay: float = 1.0
    warnings: list[str] = field(default_factory=list)

    @property
    def snapshots(self) -> bool:
        return self.snapshot_interval_rounds > 0 or self.snapshot_interval_seconds > 0


# (YAML path under ``mapper``, CLI flag or None, MapperOptions field or None, type, range check or None)
def _pos(x: float) -> bool:
    return x > 0


def _nonneg(x: float) -> bool:
    return x >= 0


def _unit(x: float) -> bool:
    return 0 <= x <= 1


def _ge1(x: float) -> bool:
    return x >= 1


def _off_or_pos(x: float) -> bool:
    return x == -1 or x > 0


_RANGE_TEXT = {_pos: "positive", _nonneg: "non-negative", _unit: "within [0, 1]", _ge1: "at least 1",
               _off_or_pos: "-1 (off) or positive"}

FIELDS: list[tuple[str, Optional[str], Optional[str], type, Optional[Callable[[float], bool]]]] = [
    ("seed", "--mapper-seed", "seed", int, _nonneg),
    ("budget", "--mapper-budget", "budget", float, _pos),
    ("routing_heuristic_weight", "--mapper-routing-heuristic-weight", "routing_heuristic_weight", float, _pos),
    ("snapshot_interval_seconds", "--mapper-snapshot-interval-seconds", "snapshot_interval_seconds", float, _off_or_pos),
    ("snapshot_interval_rounds", "--mapper-snapshot-interval-rounds", "snapshot_interval_rounds", int, _off_or_pos),
    ("enable_route_aware_sa", "--mapper-enable-route-aware-sa", None, bool, None),
    ("refinement.target_acceptance_low", None, None, float, _unit),
    ("refinement.target_acceptance_high", None, None, float, _unit),
    ("refinement.cold_acceptance_reheat_multiplier", None, None, float, _ge1),
    ("refinement.plateau_reheat_multiplier", None, None, float, _ge1),
    ("refinement.max_temperature_scale", None, None, float, _ge1),
    ("refinement.hot_acceptance_cooling_multiplier", None, None, float, _unit),
    ("refinement.min_temperature", None, None, float, _pos),
    ("refinement.adaptive_window", None, None, float, _pos),
    ("timing.recurrence_edge_weight_multiplier", None, None, float, _pos),
    ("timing.combinational_node_delay", None, "combinational_node_delay", float, _pos),
    ("timing.routing_hop_delay", None, "routing_hop_delay", float, _pos),
    ("timing.recurrence_node_latency_weight", None, None, float, _nonneg),
    ("timing.recurrence_node_interval_weight", None, None, float, _nonneg),
    ("bufferization.enabled", None, "bufferization", bool, None),
    ("bufferization.max_iterations", None, "bufferization_max_iterations", int, _pos),
    ("bufferization.outer_joint_iterations", None, None, int, _pos),
    ("bufferization.min_throughput_improvement", None, "min_throughput_improvement", float, _nonneg),
    ("bufferization.clock_tie_break_improvement", None, None, float, _nonneg),
    ("tech_feedback.max_retries", None, None, int, _pos),
    ("tech_feedback.max_targets_per_retry", None, None, int, _pos),
]
USED = [f for f in FIELDS if f[2] is not None]


def _bool(text: str) -> bool:
    t = text.strip().lower()
    if t in ("true", "1", "yes", "on"):
        return True
    if t in ("false", "0", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, found {text!r}")


def add_mapper_flags(p: argparse.ArgumentParser, action: Optional[type] = None) -> None:
    """Upstream's promoted mapper flags that loom map accepts (spec-cli 'Mapper Controls'); ``action`` (the CLI's
    given-noting store) lets the CLI refuse them where they would be ignored (``--check-only``)."""

    def add(*a: Any, **k: Any) -> None:
        p.add_argument(*a, **k, **({"action": action} if action is not None else {}))

    add("--mapper-base-config", metavar="PATH",
        help="upstream's mapper base YAML (version: 1, mapper: ...); CLI flags override it with a warning")
    add("--mapper-seed", type=int, metavar="N", help="the same as --seed")
    add("--mapper-budget", type=float, metavar="SECONDS", help="the same as --budget")
    add("--mapper-routing-heuristic-weight", type=float, metavar="X",
        help="A*'s heuristic multiplier in routing (default 1: exact distances; above 1 searches less)")
    add("--mapper-snapshot-interval-seconds", type=float, metavar="X",
        help="write a mapper snapshot (OUTDIR/mapper-snapshots) at the first checkpoint after every X "
             "wall-clock seconds; -1: off")
    add("--mapper-snapshot-interval-rounds", type=int, metavar="N",
        help="write a mapper snapshot every N placement rounds; -1: off (not with the seconds mode)")
    add("--mapper-enable-route-aware-sa", type=_bool, metavar="BOOL",
        help="false only: loom's annealer is not route-aware")


def _where(flag: str, argv: list[str]) -> Location:
    """``<command line>:1:C``, C the column of ``flag`` in the command line as typed (1 when not found)."""
    col = 1
    for a in argv:
        if a == flag or a.startswith(flag + "="):
            return Location("<command line>", 1, col)
        col += len(a) + 1
    return Location("<command line>", 1, 1)


def _given(flag: str, argv: list[str]) -> bool:
    return any(a == flag or a.startswith(flag + "=") for a in argv)


def _lookup(tree: dict[str, Entry], path: str) -> Optional[Entry]:
    node: Any = tree
    entry = None
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        entry = node[part]
        node = entry.value
    return entry


def _typed(value: Any, kind: type, what: str, loc: Location, code: str) -> Any:
    if kind is bool:
        if isinstance(value, bool):
            return value
    elif kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise LoomError(f"{what} must be {'a boolean' if kind is bool else 'an integer' if kind is int else 'a number'} "
                    f"(found {value!r})", loc, code)


def load_base_config(path: Path) -> dict[str, Entry]:
    """The base YAML's ``mapper`` map, after the schema checks (``version: 1``, known top-level keys)."""
    here = Location(str(path), 1, 1)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise LoomError(f"cannot read the mapper base config: {getattr(e, 'strerror', None) or e}", here, CONFIG) from None
    tree = parse_yaml(text, str(path))
    for key, entry in tree.items():
        if key not in ("version", "mapper"):
            raise LoomError(f"unknown top-level key '{key}' (a mapper config has version and mapper)", entry.loc, CONFIG)
    version = tree.get("version")
    if version is None:
        raise LoomError("the mapper base config needs 'version: 1'", here, CONFIG)
    if version.value != 1:
        raise LoomError(f"mapper config version {version.value!r} is not supported (only 1)", version.loc, CONFIG)
    mapper = tree.get("mapper")
    if mapper is not None and not isinstance(mapper.value, dict):
        raise LoomError("'mapper' must be a map", mapper.loc, CONFIG)
    return mapper.value if mapper is not None else {}  # type: ignore[return-value]


def resolve(args: argparse.Namespace, argv: Optional[list[str]] = None) -> MapperOptions:
    """The effective options: defaults, then the base YAML, then the CLI (warning where the CLI overrides)."""
    argv = list(argv if argv is not None else getattr(args, "argv", None) or sys.argv[1:])
    opts = MapperOptions(seed=getattr(args, "seed", 0) or 0, budget=getattr(args, "budget", None))
    base = getattr(args, "mapper_base_config", None)
    tree = load_base_config(Path(base)) if base else {}
    yaml_vals: dict[str, tuple[Any, Location]] = {}
    for path, _flag, _attr, kind, ok in FIELDS:
        e = _lookup(tree, path)
        if e is None:
            continue
        v = _typed(e.value, kind, f"mapper.{path}", e.loc, CONFIG)
        if ok is not None and not ok(v):
            raise LoomError(f"mapper.{path} must be {_RANGE_TEXT[ok]} (found {v})", e.loc, CONFIG)
        yaml_vals[path] = (v, e.loc)
    low, high = yaml_vals.get("refinement.target_acceptance_low"), yaml_vals.get("refinement.target_acceptance_high")
    if low and high and low[0] > high[0]:
        raise LoomError(f"mapper.refinement.target_acceptance_low ({low[0]}) exceeds target_acceptance_high "
                        f"({high[0]})", low[1], CONFIG)
    for path, flag, attr, kind, ok in FIELDS:
        cli = getattr(args, flag[2:].replace("-", "_"), None) if flag else None
        if cli is None and path in ("seed", "budget") and _given(f"--{path}", argv):
            cli = getattr(args, path, None)  # loom's own --seed/--budget name the same value
        if cli is not None and ok is not None and not ok(cli):
            raise LoomError(f"{flag} must be {_RANGE_TEXT[ok]} (found {cli})", _where(flag, argv), OPTIONS)
        if path in yaml_vals and cli is not None and cli != yaml_vals[path][0]:
            opts.warnings.append(f"CLI option {flag} overrides mapper base config value {yaml_vals[path][0]} "
                                 f"with {cli}")
        value = cli if cli is not None else yaml_vals[path][0] if path in yaml_vals else None
        if value is not None and attr is not None:
            setattr(opts, attr, value)
        if path == "enable_route_aware_sa" and value:
            where = _where(flag, argv) if cli is not None else yaml_vals[path][1]  # type: ignore[arg-type]
            raise LoomError("loom's annealer is not route-aware: only --mapper-enable-route-aware-sa=false is "
                            "accepted", where, OPTIONS if cli is not None else CONFIG)
    _same(args, argv, "seed", "--seed", "--mapper-seed")
    _same(args, argv, "budget", "--budget", "--mapper-budget")
    if opts.snapshot_interval_rounds > 0 and opts.snapshot_interval_seconds > 0:
        sec_cli = getattr(args, "mapper_snapshot_interval_seconds", None) is not None
        rnd_cli = getattr(args, "mapper_snapshot_interval_rounds", None) is not None
        msg = ("snapshot_interval_seconds and snapshot_interval_rounds cannot both be enabled: give "
               "--mapper-snapshot-interval-seconds or --mapper-snapshot-interval-rounds, not both")
        if sec_cli or rnd_cli:
            later = max(("--mapper-snapshot-interval-seconds", "--mapper-snapshot-interval-rounds"),
                        key=lambda f: _where(f, argv).col)
            raise LoomError(msg, _where(later, argv), OPTIONS)
        raise LoomError("snapshot_interval_seconds and snapshot_interval_rounds cannot both be enabled in the mapper "
                        "base config", yaml_vals["snapshot_interval_rounds"][1], CONFIG)
    return opts


def _same(args: argparse.Namespace, argv: list[str], attr: str, flag: str, upstream: str) -> None:
    """``--seed`` and ``--mapper-seed`` (or the budgets) name one value: both given and different is refused."""
    mine, theirs = getattr(args, attr, None), getattr(args, upstream[2:].replace("-", "_"), None)
    if theirs is not None and _given(flag, argv) and mine != theirs:
        raise LoomError(f"{flag} {mine} and {upstream} {theirs} contradict each other", _where(upstream, argv), OPTIONS)
