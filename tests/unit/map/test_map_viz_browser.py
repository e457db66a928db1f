"""viz.html in headless Chromium: it loads without script errors, draws every mapped PE and route, and a
click on an edge highlights that route and a click on a PE shows its op and source location.

The page is probed as written (no test hooks in the product): a copy gets an error listener first and a
probe script last, which clicks and writes what it saw into the DOM that ``--dump-dom`` prints.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.paths import ROOT

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=5000", "--dump-dom"]

_HEAD = "<script>window.__errors=[];window.addEventListener('error',e=>window.__errors.push(String(e.message)));</script>"
_PROBE = """<script>
(function(){
  const out = {errors: window.__errors.slice()};
  out.rects = document.querySelectorAll("svg rect").length;
  out.used = document.querySelectorAll("svg rect.used").length;
  out.routes = document.querySelectorAll("svg polyline.route").length;
  const li = document.querySelectorAll("#edges li");
  out.items = li.length;
  if (li.length) { li[0].click(); }
  out.hi_after_edge_click = document.querySelectorAll("svg polyline.route.hi").length;
  out.pes_used = document.querySelectorAll("svg rect.pe.used").length;
  const pe = document.querySelector("svg rect.pe.used");
  if (pe) { pe.dispatchEvent(new MouseEvent("click", {bubbles: true})); }
  out.info_after_pe_click = document.getElementById("info").textContent;
  const pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def _need_chromium() -> str:
    if CHROMIUM is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("chromium is not installed (.ci/run installs Debian's chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return CHROMIUM


def _probe(page: Path, tmp: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    probed = tmp / "probed.html"
    probed.write_text(text.replace("<head>", "<head>" + _HEAD, 1).replace("</body>", _PROBE + "</body>", 1),
                      encoding="utf-8")
    r = subprocess.run([_need_chromium(), *FLAGS, f"--user-data-dir={tmp / 'profile'}", probed.as_uri()],
                       capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="probe">(.*?)</pre>', r.stdout, re.S)
    assert m, f"the page did not run its probe: {r.stderr[-2000:]}"
    return json.loads(html.unescape(m.group(1)))


def test_viz_loads_draws_and_highlights(tmp_path):
    _need_chromium()
    loom = [sys.executable, "-m", "loom"]
    mesh = tmp_path / "mesh.fabric.mlir"
    assert subprocess.run([*loom, "adg", "mesh", "-o", str(mesh)], capture_output=True, cwd=ROOT).returncode == 0
    out = tmp_path / "out"
    r = subprocess.run([*loom, "map", str(ROOT / "examples" / "dot.scf.mlir"), "--adg", str(mesh), "-o", str(out),
                        "-q"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "dot.mesh.map.json").read_text())
    got = _probe(out / "dot.mesh.viz.html", tmp_path)
    assert got["errors"] == []
    pes = {n["target"]["pe"] for n in doc["nodes"] if n["target"]["kind"] == "fu"}
    assert got["pes_used"] == len(pes) > 0  # every PE the mapping uses is drawn as used, and no other
    assert got["rects"] > got["used"] >= got["pes_used"]
    assert got["routes"] == got["items"] == len(doc["edges"])  # every routed edge is drawn and listed
    assert got["hi_after_edge_click"] == 1
    assert re.search(r"^pe_\d+_\d+: .+ at dot\.scf\.mlir:\d+:\d+", got["info_after_pe_click"]), got
