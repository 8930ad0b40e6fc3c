"""Stop each resumable command part way, run it again, and compare what it leaves with an uninterrupted run's (issue
38): nothing lost, nothing done twice, the same numbers.

    python bench/drill_interrupts.py [--work DIR] [--only COMMAND ...]

Commands, on the embedded model and locally built data: `consistency run` (seven lm_eval stages), `quench-chain`
(the entity stage, then the rationale stage that reads its log) and `nsp-features` (rows written as they are
computed). Each is first run once to its end (the reference). Each trial starts the command in a fresh folder and
stops it once it has kept a share of the reference's records (none, a quarter, half, three quarters; then two
seconds more, so the stop falls inside the next stage or batch) with SIGTERM (what Ctrl-C and a scheduler send: the
command stops its lm_eval child and exits) or SIGKILL (a crash, the OOM killer: no handler runs), then runs the same
command again to its end. Four moments x two signals x three commands: 24 trials.

What is compared with the reference: the documents of every sample log (each exactly once, none missing), every
metric of every results file that the resumed folder's newest results per task hold, consistency.json's figures, the
feature rows (each id once, the same values). Prints one markdown table: command | signal | stopped once kept |
stopped at (s) | stop exit | records kept (documents logged, once per filter, and feature rows) | resumed exit |
traceback | lost | duplicated | different | outcome; exits 1 when a trial is not ok.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
SHARES = (0.0, 0.25, 0.5, 0.75)  # of the reference's records kept before the stop: none, a quarter, half, three
AFTER = 2.0  # seconds after the records are there, so that the stop falls inside the next stage or batch
FIRST = 6.0  # seconds before the first stop (nothing kept yet: the command has started its first stage)
SIGNALS = (signal.SIGTERM, signal.SIGKILL)


def commands(model: str) -> dict[str, list[str]]:
    """Each resumable command as the drill runs it; OUT stands for the trial's folder."""
    model_args = f"pretrained={model},dtype=float32"
    return {
        "consistency run": ["consistency", "run", "--model_args", model_args, "--task", "xsense_pawsx", "--src", "en",
                            "--tgt", "de", "--limit", "2", "--device", "cpu", "--gen_kwargs", "max_gen_toks=16",
                            "--output_path", "OUT"],
        "quench-chain": ["quench-chain", "--model_args", model_args, "--task", "quench_indic", "--output_path", "OUT",
                         "--limit", "3", "--device", "cpu", "--gen_kwargs", "max_gen_toks=16"],
        "nsp-features": ["nsp-features", "--subset", "ha", "--limit", "24", "--embedder", "use", "--batch_size", "2",
                         "--out", "OUT"],
    }  # fmt: skip


def _run(args: list[str], out: Path, env: dict[str, str], keep: int | None = None, sig: int = 0):
    """(exit code, stderr, seconds until the stop) of the command writing into `out`, stopped with `sig` once it
    has kept `keep` records (and AFTER seconds more; FIRST seconds after its start for 0)."""
    argv = [str(BIN / "lm-eval-xling"), *(str(out) if a == "OUT" else a for a in args)]
    began = time.monotonic()
    with tempfile.TemporaryFile() as err:  # (a pipe left unread could fill and stall the command)
        proc = subprocess.Popen(argv, env=env, cwd=out.parent, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)  # fmt: skip
        stopped_at = _stop(proc, out, keep, sig) if keep is not None else None
        proc.wait()
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    if sig == signal.SIGKILL:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # a child the command left running
    return proc.returncode, stderr, None if stopped_at is None else stopped_at - began


def _stop(proc: subprocess.Popen, out: Path, keep: int, sig: int) -> float | None:
    """Send `sig` once `keep` records are in `out` (see `_run`); when, or None where the command ended first."""
    deadline = time.monotonic() + FIRST if keep == 0 else None
    while proc.poll() is None:
        if deadline is None and _count(state(out)) >= keep:
            deadline = time.monotonic() + AFTER
        if deadline is not None and time.monotonic() >= deadline:
            # SIGTERM to the command as a terminal's Ctrl-C reaches it; SIGKILL to the whole group, as the OOM
            # killer or a scheduler takes the children with it
            if sig == signal.SIGKILL:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
            return time.monotonic()
        time.sleep(0.2)
    return None


def _samples(folder: Path) -> dict[str, Counter]:
    """{sample log's path below `folder`, without its date stamp: Counter of doc_ids}."""
    out: dict[str, Counter] = {}
    for path in folder.rglob("samples_*.jsonl"):
        key = str(path.parent.relative_to(folder) / path.name.rsplit("_", 1)[0])
        ids = Counter(json.loads(line)["doc_id"] for line in path.read_text(encoding="utf-8").splitlines() if line)
        out[key] = out.get(key, Counter()) + ids
    return out


def _metrics(folder: Path) -> dict[str, float]:
    """{"subfolder: task: metric": value} of the newest results file per subfolder and task."""
    newest: dict[tuple[Path, str], tuple[str, dict]] = {}
    for path in folder.rglob("results_*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        for task, metrics in data.get("results", {}).items():
            key = (path.parent.relative_to(folder), task)
            if key not in newest or path.name > newest[key][0]:
                newest[key] = (path.name, metrics)
    return {
        f"{where}: {task}: {name}": value
        for (where, task), (_, metrics) in newest.items()
        for name, value in metrics.items()
        if isinstance(value, int | float) and "stderr" not in name
    }


def _features(folder: Path) -> tuple[Counter, dict[str, str]]:
    rows = [json.loads(line) for path in folder.rglob("*.features.jsonl") for line in path.read_text().splitlines()]
    ids = Counter(str(row.get("id")) for row in rows)
    return ids, {str(row.get("id")): json.dumps(row, sort_keys=True) for row in rows}


def _consistency(folder: Path) -> dict[str, float]:
    path = folder / "consistency.json"
    if not path.is_file():
        return {}
    report = json.loads(path.read_text(encoding="utf-8"))
    return {f"{name}: {k}": v for name, c in report.get("consistency", {}).items() for k, v in c.items()
            if isinstance(v, int | float)}  # fmt: skip


def state(folder: Path) -> dict:
    """What a run left in `folder`, as the drill compares it."""
    return {
        "samples": _samples(folder),
        "metrics": _metrics(folder) | _consistency(folder),
        "features": _features(folder),
    }


def _count(found: dict) -> int:
    """Records a run has kept: documents logged (once per filter) and feature rows."""
    return sum(sum(ids.values()) for ids in found["samples"].values()) + sum(found["features"][0].values())


def _same(a: float, b: float) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def compare(got: dict, want: dict) -> tuple[int, int, int]:
    """(lost, duplicated, different) of a resumed folder against the reference."""
    lost = duplicated = different = 0
    for log, ids in want["samples"].items():  # (a document is logged once per filter: counted against the reference)
        mine = got["samples"].get(log, Counter())
        lost += sum((ids - mine).values())
        duplicated += sum((mine - ids).values())
    different += sum(
        1 for k, v in want["metrics"].items() if k not in got["metrics"] or not _same(got["metrics"][k], v)
    )
    (want_ids, want_rows), (got_ids, got_rows) = want["features"], got["features"]
    lost += sum((want_ids - got_ids).values())
    duplicated += sum((got_ids - want_ids).values())
    different += sum(1 for i, row in want_rows.items() if i in got_rows and got_rows[i] != row)
    return lost, duplicated, different


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/drill-interrupts"))
    parser.add_argument("--only", nargs="+", help="commands to drill (default: all)")
    args = parser.parse_args(argv)
    env = {**os.environ, **OFFLINE}
    model = subprocess.run([str(BIN / "lm-eval-xling"), "embedded-model"], env=env, capture_output=True, text=True,
                           check=True).stdout.strip()  # fmt: skip
    print("| command | signal | stopped once kept | stopped at (s) | stop exit | records kept | resumed exit | "
          "traceback | lost | duplicated | different | outcome |",
          "|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|", sep="\n", flush=True)  # fmt: skip
    failed = 0
    for name, command in commands(model).items():
        if args.only and name not in args.only:
            continue
        slug = name.replace(" ", "_")
        reference = args.work / slug / "reference" / "out"
        reference.parent.mkdir(parents=True, exist_ok=True)
        code, stderr, _ = _run(command, reference, env)
        if code:
            print(f"drill: the reference {name} exited {code}: {stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return 1
        want = state(reference)
        total = _count(want)
        for share in SHARES:
            for sig in SIGNALS:
                out = args.work / slug / f"{sig.name}_{share}" / "out"
                out.parent.mkdir(parents=True, exist_ok=True)
                stopped, stop_err, at = _run(command, out, env, math.ceil(share * total), sig)
                kept = _count(state(out))
                resumed, resume_err, _ = _run(command, out, env)
                traceback = "Traceback" in resume_err or (sig == signal.SIGTERM and "Traceback" in stop_err)
                lost, duplicated, different = compare(state(out), want)
                ok = resumed == 0 and not traceback and not (lost or duplicated or different)
                failed += not ok
                outcome = "FAILED" if not ok else "ok" if at is not None else "ok (ended before the stop)"
                print(f"| {name} | {sig.name} | {share:.0%} of {total} | {'-' if at is None else f'{at:.0f}'} | "
                      f"{stopped} | {kept} | {resumed} | {'yes' if traceback else 'no'} | {lost} | {duplicated} | "
                      f"{different} | {outcome} |", flush=True)  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
