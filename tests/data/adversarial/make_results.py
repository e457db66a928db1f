#!/usr/bin/env python3
"""Turn results.json (run_adversarial.py) into the tables of RESULTS.md.

    .venv/bin/python tests/data/adversarial/make_results.py > /tmp/tables.md
"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
R = json.loads((HERE / "results.json").read_text())


def short(s: str, n: int = 230) -> str:
    s = " ".join((s or "").split()).replace("|", "\\|")
    return s if len(s) <= n else s[: n - 3] + "..."


def replay_text(rp) -> str:
    if rp is None:
        return "no inputs to replay"
    st = rp.get("status")
    err = (rp.get("error") or "").split(" ")[0]
    res = rp.get("residual_tokens")
    tag = "FAILS" if rp.get("fails") else "DOES NOT FAIL"
    return f"sim: {st}{' ' + err if err else ''}{f', residual {res}' if res else ''} -> {tag}"


def row(e) -> str:
    c = e["counts"]
    np_ = []
    for o in e["nonproved"]:
        if o["status"] == "unchecked":
            continue
        t = f"`{o['id']}` **{o['status']}**: {short(o['detail'])}"
        if o["status"] == "refuted":
            t += f" [{replay_text(o.get('replay'))}]"
        np_.append(t)
    if e.get("crash"):
        np_.append(f"no report: {short(e['crash'])}")
    intended = "correct" if e["intended"] == "correct" else f"faulty: {e['fault']}"
    sim = e["sim"]
    simt = sim.get("status") + (f" {(sim.get('error') or '').split(' ')[0]}" if sim.get("error") else "") + (f", residual {sim['residual_tokens']}" if sim.get("residual_tokens") else "")
    right = "yes" if e["right"] else "**NO**"
    if e["right"] and e["intended"] == "correct" and (c["unknown"] or c["assumed"]):
        right = "yes (not green: unknown/assumed)" if c["unknown"] else "yes (assumed)"
    return (f"| {e['file']} | {intended} | {e['exit']} | {c['proved']}/{c['refuted']}/{c['unknown']}/{c['assumed']} | "
            f"{'<br>'.join(np_) or '-'} | {simt} | {right} |")


def main():
    print("| file | intended | exit | proved/refuted/unknown/assumed | non-proved obligations (id, status, detail; refutations replayed) | `loom sim` on the file's inputs | verdict right? |")
    print("|---|---|---|---|---|---|---|")
    order = sorted(R.values(), key=lambda e: (e["kind"] != "scf", e["intended"] != "correct", e["file"]))
    for e in order:
        print(row(e))
    print()
    def rate(es):
        u = sum(e["counts"]["unknown"] for e in es)
        t = sum(e["total"] for e in es)
        a = sum(e["counts"]["assumed"] for e in es)
        return u, t, a
    for label, es in [("all", list(R.values())),
                      ("correct", [e for e in R.values() if e["intended"] == "correct"]),
                      ("faulty", [e for e in R.values() if e["intended"] == "faulty"]),
                      ("SCF", [e for e in R.values() if e["kind"] == "scf"]),
                      ("DFG", [e for e in R.values() if e["kind"] == "dfg"])]:
        u, t, a = rate(es)
        files_u = sum(1 for e in es if e["counts"]["unknown"])
        print(f"* {label} ({len(es)} files): {u} unknown / {t} obligations = {100.0 * u / t:.2f}% "
              f"({files_u} file(s) with an unknown; {a} assumed)")


main()
