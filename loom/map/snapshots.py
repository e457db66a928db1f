"""Periodic mapper snapshots (``--mapper-snapshot-interval-rounds`` / ``-seconds``, spec-mapper-output).

A round is one placement-and-routing attempt of ``map_dfg``; at the end of each, the mapper offers its checkpoint
here. Every N rounds (or at the first checkpoint after every X wall-clock seconds, which the user asked for by
giving that option) the checkpoint becomes ``mapper-snapshots/<base>.snapshot-<seq>.route.mapper-<ordinal>``
``.map.json`` and ``.viz.html``: the full map.json and page when the attempt routed everything, else the partial
result (what was placed and routed). The files are kept in memory and written with the final artifacts, so an
interrupted run leaves nothing half-written."""

from __future__ import annotations

import html
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

TRIGGER = "route"  # the mapper stage that offers checkpoints: the end of a place-and-route round


@dataclass
class Snapshots:
    """The snapshot policy of one run and the files it produced so far."""

    out: Path
    base: str
    dfg_file: str
    adg_file: str
    every_rounds: int = -1
    every_seconds: float = -1
    files: list[tuple[Path, str]] = field(default_factory=list)
    _last: float = 0.0  # when the last seconds-mode snapshot fired (the run's start at first)

    def __post_init__(self) -> None:
        self._last = time.monotonic()

    def due(self, round_no: int) -> bool:
        """Whether the checkpoint of round ``round_no`` (from 1) is a snapshot."""
        if self.every_rounds > 0:
            return round_no % self.every_rounds == 0
        if self.every_seconds > 0 and time.monotonic() - self._last >= self.every_seconds:
            self._last = time.monotonic()
            return True
        return False

    def offer(self, round_no: int, mapping: Any, partial: Optional[dict]) -> None:
        """Record round ``round_no``'s checkpoint when it is due: a complete ``mapping`` or a ``partial`` result."""
        if not self.due(round_no):
            return
        seq = len(self.files) // 2
        stem = self.out / "mapper-snapshots" / f"{self.base}.snapshot-{seq}.{TRIGGER}.mapper-{seq}"
        if mapping is not None:
            from loom.map.artifacts import dumps, map_json

            doc = map_json(mapping, self.dfg_file, self.adg_file)
            doc["snapshot"] = {"seq": seq, "trigger": TRIGGER, "round": round_no, "complete": True}
            try:
                from loom.map.viz import viz_html

                page = viz_html(mapping, doc)
            except ImportError:
                page = _page(doc)
            self.files += [(Path(f"{stem}.map.json"), dumps(doc)), (Path(f"{stem}.viz.html"), page)]
            return
        doc = {"snapshot": {"seq": seq, "trigger": TRIGGER, "round": round_no, "complete": False},
               "partial": partial or {}}
        self.files += [(Path(f"{stem}.map.json"), json.dumps(doc, indent=1, sort_keys=True) + "\n"),
                       (Path(f"{stem}.viz.html"), _page(doc))]


def _page(doc: dict) -> str:
    """A plain page for a partial checkpoint (the full viz needs a complete mapping)."""
    body = html.escape(json.dumps(doc, indent=1, sort_keys=True))
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>loom mapper snapshot</title></head>"
            f"<body><h1>mapper snapshot {doc['snapshot']['seq']} (round {doc['snapshot']['round']}, partial)</h1>"
            f"<pre>{body}</pre></body></html>\n")
