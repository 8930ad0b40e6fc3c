"""The drill's "results" cases: the commands that read lm-eval output (`report`, `submit`, `compare`, `score`,
`consistency compare|table`, `nsp-factors`, `nsp-features`, `data build`) on real runs, broken the ways users break
them, and each output searched for planted secrets and the machine's paths.

Base material, made once per work folder (bench/drill.py --work DIR keeps it between drill runs): two real runs of
the embedded model on nsp_hausa and quench_indic (--limit 8, --log_samples), the second with other --gen_kwargs,
into one --output_path; and nsp-features of the Hausa split's first 8 questions. Each case copies what it needs into
its own folder, breaks it, and runs one command there with relative paths (so a path printed or written in full is
the command's doing).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
TASKS = ("nsp_hausa", "quench_indic")
LIMIT = 8
GEN_KWARGS_B = "temperature=0,max_gen_toks=32"
ITERS = "200"  # bootstrap resamples in the cases: enough for a CI, fast on two cores
OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}

# What a user's model_args can hold (lm-eval copies them into the results file): none may reach what we write or print.
PLANTED = {
    "proxy": "user:pw@10.1.2.3:3128",
    "host": "10.1.2.3:8000",
    "aws_access_key_id": "AKIAABCDEFGHIJKLMNOP",
    "aws_secret_access_key": "abc/def",
    "hf_token": "hf_xxxxxxxxxxxxxxxxxxxxxxxx",
    "data_dir": "data/local/x",
}
SECRET_NEEDLES = {**PLANTED, "proxy": "user:pw", "host": "10.1.2.3"}  # the parts that say the most

ERROR, OK = "error", "ok"


class BaseFailed(SystemExit):
    """A base run failed: the drill cannot go on (its output is in the work folder)."""


# --- base material ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Base:
    """The real runs every case starts from."""

    runs: Path  # lm-eval's --output_path of both runs
    model: str  # the subfolder lm-eval named after the model
    stamp_a: str  # the first run (the model's own generation settings)
    stamp_b: str  # the second (GEN_KWARGS_B)
    features: Path  # nsp-features JSONL of nsp_hausa's first LIMIT questions

    def results(self, stamp: str) -> dict[str, Any]:
        return json.loads((self.runs / self.model / f"results_{stamp}.json").read_text(encoding="utf-8"))

    def metric(self, stamp: str, task: str, metric: str) -> float:
        return self.results(stamp)["results"][task][f"{metric},extract"]


def _base_command(args: list[str], cwd: Path, env: dict[str, str], log: Path) -> None:
    with log.open("w") as out:
        proc = subprocess.run([str(BIN / "lm-eval-xling"), *args], cwd=cwd, env=env, stdout=out, stderr=out)
    if proc.returncode:
        raise BaseFailed(f"drill: base command `lm-eval-xling {' '.join(args)}` exited {proc.returncode}; see {log}")


def make_base(work: Path, env: dict[str, str]) -> Base:
    """The base runs under `work`/base, made when absent (each step leaves a marker when it has finished)."""
    base = work / "base"
    base.mkdir(parents=True, exist_ok=True)
    steps = [
        ("run_a", ["run", "--tasks", ",".join(TASKS), "--limit", str(LIMIT), "--log_samples", "--output_path", "runs"]),
        (
            "run_b",
            [
                "run",
                "--tasks",
                ",".join(TASKS),
                "--limit",
                str(LIMIT),
                "--log_samples",
                "--output_path",
                "runs",
                "--gen_kwargs",
                GEN_KWARGS_B,
            ],
        ),
        (
            "features",
            [
                "nsp-features",
                "--subset",
                "ha",
                "--limit",
                str(LIMIT),
                "--embedder",
                "use",
                "--batch_size",
                "4",
                "--out",
                "features",
            ],
        ),
    ]
    for name, args in steps:
        if not (base / f"{name}.done").is_file():
            print(f"drill: base {name}: lm-eval-xling {' '.join(args)}", file=sys.stderr, flush=True)
            _base_command(args, base, env, base / f"{name}.log")
            (base / f"{name}.done").touch()
    [model] = [p.name for p in (base / "runs").iterdir() if p.is_dir()]
    stamps = sorted(p.stem.removeprefix("results_") for p in (base / "runs" / model).glob("results_*.json"))
    if len(stamps) != 2:
        raise BaseFailed(f"drill: {base / 'runs' / model} holds {len(stamps)} results files, expected 2")
    return Base(base / "runs", model, stamps[0], stamps[1], base / "features" / "ha" / "test.features.jsonl")


# --- laying out a case folder -----------------------------------------------------------------------------------


def copy_run(base: Base, stamp: str, dest: Path, samples: bool = True) -> Path:
    """Copy one run (its results file and, with `samples`, its sample logs) to `dest`/<model>/; that folder."""
    folder = dest / base.model
    folder.mkdir(parents=True, exist_ok=True)
    for path in (base.runs / base.model).glob(f"*_{stamp}.json*"):
        if samples or path.name.startswith("results_"):
            shutil.copy2(path, folder / path.name)
    return folder


def log_of(folder: Path, task: str) -> Path:
    [path] = folder.glob(f"samples_{task}_*.jsonl")
    return path


def results_of(folder: Path) -> Path:
    [path] = folder.glob("results_*.json")
    return path


def rel(path: Path, cwd: Path) -> str:
    return str(path.relative_to(cwd))


def edit_results(folder: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    path = results_of(folder)
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")  # NaN stays NaN, as Python's json writes it


def edit_lines(path: Path, edit: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]) -> None:
    samples = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    path.write_text("".join(json.dumps(s, ensure_ascii=False) + "\n" for s in edit(samples)), encoding="utf-8")


def set_metric(task: str, metric: str, value: float) -> Callable[[dict[str, Any]], None]:
    return lambda data: data["results"][task].__setitem__(f"{metric},extract", value)


def plant_secrets(data: dict[str, Any]) -> None:
    """Where lm-eval puts a run's model_args: the run's config and every task config's metadata."""
    data["config"]["model_args"].update(PLANTED)
    for config in data.get("configs", {}).values():
        config.setdefault("metadata", {}).update(PLANTED)


def run_a(base: Base, cwd: Path) -> Path:
    return copy_run(base, base.stamp_a, cwd / "a")


def run_b(base: Base, cwd: Path) -> Path:
    return copy_run(base, base.stamp_b, cwd / "b")


def both_runs(base: Base, cwd: Path) -> Path:
    copy_run(base, base.stamp_a, cwd / "runs")
    return copy_run(base, base.stamp_b, cwd / "runs")


def secret_run(base: Base, cwd: Path) -> Path:
    folder = run_a(base, cwd)
    edit_results(folder, plant_secrets)
    return folder


# --- checking what an "ok" command wrote ------------------------------------------------------------------------

Check = Callable[[Base, Path, str], "str | None"]  # (base, case folder, stdout) -> what is wrong, or None


def _text(path: Path) -> str:
    if not path.is_file():
        raise _Wrong(f"{path.name} was not written")
    return path.read_text(encoding="utf-8", errors="replace")


class _Wrong(Exception):
    pass


def _checked(check: Callable[[Base, Path, str], None]) -> Check:
    def run(base: Base, cwd: Path, stdout: str) -> str | None:
        try:
            check(base, cwd, stdout)
        except _Wrong as err:
            return str(err)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
            return f"output not as documented ({type(err).__name__}: {err})"
        return None

    return run


def _shown(value: float, text: str) -> bool:
    """Whether `value` appears in `text` at one of the usual precisions."""
    forms = (f"{value:.4f}", f"{value:.3f}", f"{value:.2f}", f"{100 * value:.2f}", f"{100 * value:.1f}")
    return any(form in text for form in forms)


def _rows(text: str, task: str, metric: str) -> list[str]:
    return [
        line
        for line in text.splitlines()
        if line.startswith("|") and task in line and re.search(rf"(?<![\w_]){metric}(?![\w_])", line)
    ]


@_checked
def two_rows_per_metric(base: Base, cwd: Path, stdout: str) -> None:
    text = _text(cwd / "report" / "report.md")
    for task, metric in (("nsp_hausa", "acc"), ("quench_indic", "bleu")):
        rows = _rows(text, task, metric)
        if len(set(rows)) < 2:
            raise _Wrong(f"report.md: {len(set(rows))} distinct row(s) of {task} {metric}, expected one per run")
        for stamp in (base.stamp_a, base.stamp_b):
            value = base.metric(stamp, task, metric)
            if not _shown(value, "\n".join(rows)):
                raise _Wrong(f"report.md: run {stamp}'s {task} {metric} ({value:.4f}) is in no row")
    if not re.search(r"gen_kwargs|max_gen_toks|temperature", text):
        raise _Wrong("report.md does not say what differs between the two runs (their gen_kwargs)")


def _json_out(stdout: str) -> Any:
    try:
        return json.loads(stdout)
    except json.JSONDecodeError as err:
        raise _Wrong(f"stdout is not JSON ({err})") from None


@_checked
def both_numbers(base: Base, cwd: Path, stdout: str) -> None:
    entry = _json_out(stdout)["nsp_hausa"]["acc"]
    for side, stamp in (("a", base.stamp_a), ("b", base.stamp_b)):
        expected = base.metric(stamp, "nsp_hausa", "acc")
        if not isinstance(entry[side], (int, float)) or abs(entry[side] - expected) > 1e-9:
            raise _Wrong(f"nsp_hausa acc {side} is {entry[side]}, its results file says {expected}")


@_checked
def quench_cis(base: Base, cwd: Path, stdout: str) -> None:
    task = _json_out(stdout).get("quench_indic")
    if not task:
        raise _Wrong("quench_indic not compared")
    for metric in ("bleu", "rouge_l", "bertscore"):
        ci = (task.get(metric) or {}).get("ci")
        if not (isinstance(ci, list) and len(ci) == 2 and all(isinstance(x, (int, float)) for x in ci)):
            raise _Wrong(f"quench_indic {metric}: no CI ({task.get(metric)!r:.80})")


def _keys(obj: Any, pattern: str) -> list[tuple[str, Any]]:
    """(key, value) of every key anywhere in `obj` that matches `pattern` (case-insensitive)."""
    found = []
    if isinstance(obj, dict):
        for key, value in obj.items():
            if re.search(pattern, str(key), re.IGNORECASE):
                found.append((key, value))
            found += _keys(value, pattern)
    elif isinstance(obj, list):
        for value in obj:
            found += _keys(value, pattern)
    return found


def _leaderboard(cwd: Path) -> tuple[str, Any]:
    text = _text(cwd / "lb.json")

    def refuse(token: str) -> None:
        raise _Wrong(f"lb.json holds {token} (not strict JSON)")

    return text, json.loads(text, parse_constant=refuse)


@_checked
def partial_recorded(base: Base, cwd: Path, stdout: str) -> None:
    _, data = _leaderboard(cwd)
    if not any(value for _, value in _keys(data, "partial")):
        raise _Wrong("lb.json does not say the results are partial")
    if not any(value == LIMIT for _, value in _keys(data, r"^limit$")):
        raise _Wrong(f"lb.json does not record limit {LIMIT}")
    counts = json.dumps(_keys(data, r"n.?samples"))
    if not all(task in counts for task in TASKS):
        raise _Wrong("lb.json does not record n-samples per task")


@_checked
def settings_recorded(base: Base, cwd: Path, stdout: str) -> None:
    text, _ = _leaderboard(cwd)
    wanted = ("gen_kwargs", "chat_template", "fewshot_as_multiturn", "system_instruction")
    missing = [key for key in wanted if key not in text]
    if not re.search(r"stand-in|minilm", text, re.IGNORECASE):
        missing.append("the BERTScore stand-in note")
    if missing:
        raise _Wrong(f"lb.json does not record {', '.join(missing)}")


@_checked
def nan_removed(base: Base, cwd: Path, stdout: str) -> None:
    _, data = _leaderboard(cwd)
    removed = _keys(data, r"^removed$")
    if not removed or "bleu" not in json.dumps(removed):
        raise _Wrong("lb.json lists no removed quench_indic bleu")
    if not re.search(r"nan|not a number|finite", json.dumps(removed), re.IGNORECASE):
        raise _Wrong("lb.json's removed entry gives no reason")


@_checked
def nan_as_na(base: Base, cwd: Path, stdout: str) -> None:
    text = _text(cwd / "report" / "report.md")
    shown = re.search(r".{0,40}(?<![\w/])[-+]?nan(?!\w).{0,20}", text)  # how Python formats a NaN; a reason may say NaN
    if shown:
        raise _Wrong(f"report.md shows nan: {shown[0]!r}")
    rows = _rows(text, "quench_indic", "bleu")
    if not rows or not all("n/a" in row for row in rows):
        raise _Wrong(f"report.md's quench_indic bleu row does not show n/a ({(rows or ['no row'])[0][:80]})")


@_checked
def images_beside(base: Base, cwd: Path, stdout: str) -> None:
    text = _text(cwd / "report" / "report.md")
    if "base64," in text:
        raise _Wrong("report.md inlines images as base64")
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", text)
    if not linked or not all((cwd / "report" / name).is_file() for name in linked):
        raise _Wrong(f"report.md links no PNG file beside it ({linked[:2]})")


def written(*names: str) -> Check:
    @_checked
    def check(base: Base, cwd: Path, stdout: str) -> None:
        for name in names:
            if not (cwd / name).is_file() or not (cwd / name).stat().st_size:
                raise _Wrong(f"{name} was not written")

    return check


@_checked
def consistency_json(base: Base, cwd: Path, stdout: str) -> None:
    data = _json_out(stdout)
    if data["n"] != LIMIT or "all" not in data:
        raise _Wrong(f"compared {data['n']} items, expected {LIMIT}")


@_checked
def no_duplicate_ids(base: Base, cwd: Path, stdout: str) -> None:
    ids = [json.loads(line)["id"] for line in _text(cwd / "feats" / "ha" / "test.features.jsonl").splitlines()]
    if len(ids) != len(set(ids)):
        raise _Wrong(f"test.features.jsonl: {len(ids) - len(set(ids))} duplicate id(s) in {len(ids)} lines")
    if len(ids) != LIMIT:
        raise _Wrong(f"test.features.jsonl: {len(ids)} rows, expected {LIMIT}")


# --- the cases --------------------------------------------------------------------------------------------------

Prepare = Callable[[Base, Path], list[str]]  # lays out the case folder, returns the arguments of lm-eval-xling


@dataclass(frozen=True)
class ResultsCase:
    name: str
    prepare: Prepare
    expect: str = ERROR
    check: Check | None = None  # OK cases: the output's own check
    says: tuple[str, ...] = ()  # ERROR cases: what the message should name ({stamp_a}, {stamp_b} filled in)
    env: dict[str, str] = field(default_factory=dict)
    writers: int = 1  # copies of the command started at once
    timeout: int = 300  # seconds; a command still running then is killed (OTHER EXIT)
    needs: str = "base"  # "base": the base runs; "data": a data root (LM_EVAL_XLING_DATA); "none"


def _report(folder: Callable[[Base, Path], Path], *extra: str) -> Prepare:
    def prepare(base: Base, cwd: Path) -> list[str]:
        return ["report", rel(folder(base, cwd).parent, cwd), "--out", "report", "--iters", ITERS, *extra]

    return prepare


def _submit(folder: Callable[[Base, Path], Path], *extra: str) -> Prepare:
    return lambda base, cwd: ["submit", rel(folder(base, cwd).parent, cwd), "--out", "lb.json", *extra]


def _compare(a: Callable[[Base, Path], Path], b: Callable[[Base, Path], Path], *extra: str) -> Prepare:
    def prepare(base: Base, cwd: Path) -> list[str]:
        return ["compare", rel(a(base, cwd).parent, cwd), rel(b(base, cwd).parent, cwd), "--iters", ITERS, *extra]

    return prepare


def _broken(edit: Callable[[Path], None], target: Callable[[Path], Path]) -> Callable[[Base, Path], Path]:
    """Run A, with `edit` applied to the file `target` picks in its folder."""

    def folder(base: Base, cwd: Path) -> Path:
        run = run_a(base, cwd)
        edit(target(run))
        return run

    return folder


def _with_results(edit: Callable[[dict[str, Any]], None]) -> Callable[[Base, Path], Path]:
    def folder(base: Base, cwd: Path) -> Path:
        run = run_a(base, cwd)
        edit_results(run, edit)
        return run

    return folder


def _nsp_log(path: Path) -> Path:
    return log_of(path, "nsp_hausa")


def _broken_log(edit: Callable[[Path], None]) -> Callable[[Base, Path], Path]:
    """Run A's nsp_hausa log, with `edit` applied."""
    return lambda base, cwd: _nsp_log(_broken(edit, _nsp_log)(base, cwd))


def _not_json(path: Path) -> None:
    path.write_text("{not JSON", encoding="utf-8")


def _bad_byte(path: Path) -> None:
    lines = path.read_bytes().split(b"\n")
    lines[2] = b"\xff" + lines[2]
    path.write_bytes(b"\n".join(lines))


def _no_samples(base: Base, cwd: Path) -> Path:
    return copy_run(base, base.stamp_a, cwd / "a", samples=False)


def _score(log: Callable[[Base, Path], Path]) -> Prepare:
    return lambda base, cwd: ["score", rel(log(base, cwd), cwd), "--json"]


def _renamed_english(base: Base, cwd: Path) -> Path:
    source = _nsp_log(run_a(base, cwd))
    path = cwd / source.name.replace("nsp_hausa", "nsp_english")
    path.write_bytes(source.read_bytes())
    shutil.rmtree(cwd / "a")
    edit_lines(path, lambda samples: [{k: v for k, v in s.items() if k != "doc_hash"} for s in samples])
    return path


def _cut_to_5(base: Base, cwd: Path) -> Path:
    path = _nsp_log(run_a(base, cwd))
    edit_lines(path, lambda samples: samples[:5])
    return path


def _resps_edited(base: Base, cwd: Path) -> Path:
    """The first document's reply changed to the other letter than the one its logged acc was scored from."""

    def edit(samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
        first = samples[0]
        other = {"A": "B", "B": "A"}
        letter = first["target"] if first["acc"] == 0 else other[first["target"]]
        first["resps"] = [[f"The answer is {letter}."]]
        return samples

    path = _nsp_log(run_a(base, cwd))
    edit_lines(path, edit)
    return path


def _logs(task_a: str, task_b: str, rename_b: str | None = None) -> Prepare:
    """consistency compare on run A's log of `task_a` and run B's of `task_b` (renamed as `rename_b`'s log)."""

    def prepare(base: Base, cwd: Path) -> list[str]:
        a, b = log_of(run_a(base, cwd), task_a), log_of(run_b(base, cwd), task_b)
        if rename_b:
            b = b.rename(b.with_name(b.name.replace(task_b, rename_b)))
        return ["consistency", "compare", rel(a, cwd), rel(b, cwd), "--json"]

    return prepare


def _torn_consistency(base: Base, cwd: Path) -> list[str]:
    report = {
        "task": "xsense_pawsx",
        "direction": "en-de",
        "accuracy": {"original": 0.61},
        "consistency": {name: {"all": 0.7, "correct": 0.8, "incorrect": 0.5} for name in ("T", "I", "X", "rerun")},
        "translation": {"bleu": 31.2},
        "collapsed": {"n": 0},
    }
    text = json.dumps(report, indent=2)
    (cwd / "run").mkdir()
    (cwd / "run" / "consistency.json").write_text(text[: len(text) // 2], encoding="utf-8")
    return ["consistency", "table", "run"]


def _features(base: Base, cwd: Path, edit: Callable[[Path], None] | None = None) -> Path:
    path = cwd / "test.features.jsonl"
    shutil.copy2(base.features, path)
    if edit:
        edit(path)
    return path


def _torn_line(path: Path) -> None:
    data = path.read_bytes().rstrip(b"\n")
    start = data.rfind(b"\n") + 1
    path.write_bytes(data[: start + (len(data) - start) // 2])


def _factors(task: str, features: Callable[[Base, Path], Path]) -> Prepare:
    def prepare(base: Base, cwd: Path) -> list[str]:
        log = log_of(run_a(base, cwd), task)
        return ["nsp-factors", rel(log, cwd), "--features", rel(features(base, cwd), cwd), "--out", "factors"]

    return prepare


def _args(*args: str) -> Prepare:
    return lambda base, cwd: list(args)


def _file_then(name: str, then: list[str]) -> Prepare:
    def prepare(base: Base, cwd: Path) -> list[str]:
        (cwd / name).write_text("a file, not a folder", encoding="utf-8")
        return then

    return prepare


def _empty(name: str, then: list[str]) -> Prepare:
    def prepare(base: Base, cwd: Path) -> list[str]:
        (cwd / name).mkdir()
        return then

    return prepare


def _empty_log(base: Base, cwd: Path) -> Path:
    path = _nsp_log(run_a(base, cwd))
    path.write_bytes(b"")
    return path


FEATURES = ["nsp-features", "--subset", "ha", "--limit", str(LIMIT), "--embedder", "use", "--batch_size", "4"]
DUMMY_RUN = ["run", "--model", "dummy", "--tasks", "nsp_hausa", "--output_path", "out", "--log_samples"]
NONE, DATA, BASE = "none", "data", "base"  # what a case needs: nothing, a data root, or the base runs
GAP_RUNS = ("{stamp_a}", "{stamp_b}")
ACC_75 = _with_results(set_metric("nsp_hausa", "acc", 7.5))
ACC_75_NAMES = ("nsp_hausa", "acc", "results_")
JURY_FAILURES_NEGATIVE = _with_results(set_metric("quench_indic", "jury_failures", -3))
ACC_NAN = _with_results(set_metric("nsp_hausa", "acc", math.nan))


def _written_log(name: str, text: str) -> Prepare:
    """A sample log written here (`text`, UTF-8), then scored (`score`) or measured (`ynq-lengths`)."""

    def prepare(base: Base, cwd: Path) -> list[str]:
        (cwd / name).write_text(text, encoding="utf-8")
        return ["ynq-lengths" if "_ynq_" in name else "score", name]

    return prepare


def _judged(judges: str, cache: str | None = None) -> Prepare:
    """`score --judges` on run A's QUENCH log; `cache`: a judge cache file written here first with these bytes."""

    def prepare(base: Base, cwd: Path) -> list[str]:
        if cache is not None:
            (cwd / "judges.sqlite").write_text(cache, encoding="utf-8")
        return ["score", rel(log_of(run_a(base, cwd), "quench_indic"), cwd), "--judges", judges]

    return prepare


_SAMPLE = '{"doc_id": 0, "doc": {"context": "Labari \\ud800"}, "resps": [["A"]], "filtered_resps": ["A"]}\n'
_YNQ_SAMPLE = '{"doc_id": 0, "doc": {"question": "q"}, "resps": [["a"]], "filtered_resps": ["a"]}\n'
_LOG = "samples_nsp_hausa_2026-01-01T00-00-00.000000.jsonl"
BLEU_NAN = _with_results(set_metric("quench_indic", "bleu", math.nan))

RESULTS_CASES = [
    # two runs of one model
    ResultsCase("report: two runs differing in gen_kwargs", _report(both_runs), OK, two_rows_per_metric),
    ResultsCase("compare: two runs differing in gen_kwargs", _compare(run_a, run_b, "--json"), OK, both_numbers),
    ResultsCase("compare: folder holding two runs as A", _compare(both_runs, run_b), says=GAP_RUNS),
    ResultsCase("submit: folder holding two runs", _submit(both_runs, "--allow_partial"), says=GAP_RUNS),
    # partial runs and what a submission records
    ResultsCase("submit: a --limit run", _submit(run_a), says=("allow_partial",)),
    ResultsCase("submit --allow_partial: partial recorded", _submit(run_a, "--allow_partial"), OK, partial_recorded),
    ResultsCase(
        "submit --allow_partial: run settings recorded", _submit(run_a, "--allow_partial"), OK, settings_recorded
    ),
    # metric values out of bounds
    ResultsCase("submit --allow_partial: NaN metric", _submit(BLEU_NAN, "--allow_partial"), OK, nan_removed),
    ResultsCase("submit --allow_partial: acc 7.5", _submit(ACC_75, "--allow_partial"), says=ACC_75_NAMES),
    ResultsCase("report: acc 7.5", _report(ACC_75), says=ACC_75_NAMES),
    ResultsCase("report: NaN metric shown as n/a", _report(BLEU_NAN), OK, nan_as_na),
    ResultsCase("report: images beside report.md", _report(run_a), OK, images_beside),
    # sample logs that are not what they say
    ResultsCase(
        "score: Hausa log renamed English, doc_hash removed", _score(_renamed_english), says=("samples_nsp_english",)
    ),
    ResultsCase("score: log cut to 5 of 8 lines", _score(_cut_to_5), says=("samples_nsp_hausa",)),
    ResultsCase("score: resps edited", _score(_resps_edited), says=("samples_nsp_hausa",)),
    ResultsCase("compare: QUENCH logs", _compare(run_a, run_b, "--json"), OK, quench_cis),
    ResultsCase(
        "score: a log nested too deeply",
        _written_log(_LOG, "[" * 100_000 + "]" * 100_000 + "\n"),
        says=("nested too deeply",),
        needs=NONE,
    ),
    ResultsCase("score: a lone surrogate in a logged document", _written_log(_LOG, _SAMPLE), says=(":1:",), needs=NONE),
    ResultsCase(
        "score: results say NaN, the log gives a number",
        _score(lambda b, c: _nsp_log(ACC_NAN(b, c))),
        says=("samples_nsp_hausa", "results_"),
    ),
    ResultsCase("score --judges: a judge that is no object", _judged('["x"]'), says=("no judge",)),
    ResultsCase(
        "score --judges: an unknown model", _judged('[{"model": "nope", "model_args": ""}]'), says=("judge nope",)
    ),
    ResultsCase(
        "score --judges: a judge cache that is no database",
        _judged('[{"model": "dummy", "model_args": ""}]', cache="notes\n" * 50),
        says=("judges.sqlite",),
        env={"LM_EVAL_XLING_JUDGE_CACHE": "judges.sqlite"},
    ),
    ResultsCase(
        "ynq-lengths: a log without word counts",
        _written_log("samples_ynq_english_2026-01-01T00-00-00.000000.jsonl", _YNQ_SAMPLE),
        says=("english_words",),
        needs=NONE,
    ),
    ResultsCase(
        "submit --allow_partial: jury_failures -3",
        _submit(JURY_FAILURES_NEGATIVE, "--allow_partial"),
        says=("jury_failures", "not a count"),
    ),
    # planted secrets
    ResultsCase(
        "submit --allow_partial: planted secrets", _submit(secret_run, "--allow_partial"), OK, written("lb.json")
    ),
    ResultsCase("report: planted secrets", _report(secret_run), OK, written("report/report.md")),
    ResultsCase("compare --json: planted secrets", _compare(secret_run, run_b, "--json"), OK, both_numbers),
    ResultsCase(
        "compare --plot: planted secrets", _compare(secret_run, run_b, "--plot", "diff.png"), OK, written("diff.png")
    ),
    # consistency
    ResultsCase("consistency compare: NSP logs of two runs", _logs("nsp_hausa", "nsp_hausa"), OK, consistency_json),
    ResultsCase("consistency compare: NSP log vs QUENCH log", _logs("nsp_hausa", "quench_indic")),
    ResultsCase("consistency compare: QUENCH logs", _logs("quench_indic", "quench_indic")),
    ResultsCase(
        "consistency compare: log named for the wrong task", _logs("nsp_hausa", "nsp_hausa", "xsense_pawsx_en")
    ),
    ResultsCase("consistency table: torn consistency.json", _torn_consistency, says=("consistency.json",), needs=NONE),
    ResultsCase(
        "consistency table: missing folder", _args("consistency", "table", "nothere"), says=("nothere",), needs=NONE
    ),
    # NSP analyses
    ResultsCase(
        "nsp-features: two writers on one folder", _args(*FEATURES, "--out", "feats"), OK, no_duplicate_ids, writers=2
    ),
    ResultsCase(
        "nsp-features: --limit 0",
        _args(*FEATURES[:3], "--limit", "0", "--embedder", "use", "--out", "feats"),
        says=("limit",),
        needs=DATA,
        timeout=60,  # a --limit 0 taken as "no limit" computes the whole split
    ),
    ResultsCase(
        "nsp-factors: an NSP log and its features", _factors("nsp_hausa", _features), OK, written("factors/factors.md")
    ),
    ResultsCase(
        "nsp-factors: features file missing",
        _factors("nsp_hausa", lambda base, cwd: cwd / "none.jsonl"),
        says=("none.jsonl",),
    ),
    ResultsCase(
        "nsp-factors: torn features file",
        _factors("nsp_hausa", lambda b, c: _features(b, c, _torn_line)),
        says=("test.features.jsonl",),
    ),
    ResultsCase("nsp-factors: a QUENCH log", _factors("quench_indic", _features)),
    # plain bad input
    ResultsCase("report: --iters -5", _empty("runs", ["report", "runs", "--iters", "-5"]), says=("iters",), needs=NONE),
    ResultsCase("report: missing folder", _args("report", "nothere"), says=("nothere",), needs=NONE),
    ResultsCase("report: empty folder", _empty("runs", ["report", "runs"]), says=("runs",), needs=NONE),
    ResultsCase("compare: missing folder", _args("compare", "nothere", "nothere2"), says=("nothere",), needs=NONE),
    ResultsCase(
        "submit: results file not JSON", _submit(_broken(_not_json, results_of), "--allow_partial"), says=("results_",)
    ),
    ResultsCase("compare: results file not JSON", _compare(_broken(_not_json, results_of), run_b), says=("results_",)),
    ResultsCase("score: non-UTF-8 byte in a samples file", _score(_broken_log(_bad_byte)), says=("samples_nsp_hausa",)),
    ResultsCase(
        "compare: non-UTF-8 byte in a samples file",
        _compare(_broken(_bad_byte, _nsp_log), run_b),
        says=("samples_nsp_hausa",),
    ),
    ResultsCase("score: empty samples file", _score(_empty_log), says=("samples_nsp_hausa",)),
    ResultsCase("submit: results but no samples", _submit(_no_samples, "--allow_partial"), says=("samples",)),
    ResultsCase("compare: results but no samples", _compare(_no_samples, run_b), says=("samples",)),
    ResultsCase("run: --limit 0", _args(*DUMMY_RUN, "--limit", "0"), says=("limit",), needs=DATA),
    # issue 38, second round: arguments accepted silently or ending in a traceback
    ResultsCase("run: --limit nan", _args(*DUMMY_RUN, "--limit", "nan"), says=("limit",), needs=DATA),
    ResultsCase("run: an unknown task", _args(*DUMMY_RUN[:3], "--tasks", "nope_task"), says=("nope_task",), needs=DATA),
    ResultsCase("run: --tasks ''", _args(*DUMMY_RUN[:3], "--tasks", ""), says=("tasks",), needs=DATA),
    ResultsCase("run: --batch_size abc", _args(*DUMMY_RUN, "--batch_size", "abc"), says=("batch_size",), needs=DATA),
    ResultsCase(
        "run: --output_path under a file",
        _file_then("taken", [*DUMMY_RUN[:5], "--model_args", "", "--limit", "1", "--output_path", "taken/out"]),
        says=("taken/out",),
        needs=DATA,
    ),  # fmt: skip
    ResultsCase(
        "report: --iters 2000000000", _args("report", "runs", "--iters", "2000000000"), says=("iters",), needs=NONE
    ),
    ResultsCase("compare: --seed -1", _args("compare", "a", "b", "--seed", "-1"), says=("seed",), needs=NONE),
    ResultsCase(
        "ynq-lengths: --buckets 0", _args("ynq-lengths", "x.jsonl", "--buckets", "0"), says=("buckets",), needs=NONE
    ),
    ResultsCase(
        "ynq-lengths: falling --edges",
        _args("ynq-lengths", "x.jsonl", "--edges", "900,300"),
        says=("edges",),
        needs=NONE,
    ),
    ResultsCase(
        "nsp-features: --batch_size 0", _args("nsp-features", "--batch_size", "0"), says=("batch_size",), needs=NONE
    ),
    ResultsCase(
        "consistency run: --limit -3",
        _args(
            "consistency",
            "run",
            "--model_args",
            "",
            "--task",
            "xsense_pawsx",
            "--src",
            "en",
            "--tgt",
            "de",
            "--output_path",
            "cr",
            "--limit",
            "-3",
        ),
        says=("limit",),
        needs=NONE,
    ),  # fmt: skip
    ResultsCase(
        "data build: missing raw folder",
        _args("data", "build", "--out", "built"),
        says=("/nonexistent",),
        env={"LM_EVAL_XLING_RAW": "/nonexistent"},
        needs=NONE,
    ),
]


# --- running one case -------------------------------------------------------------------------------------------


def _snapshot(root: Path) -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def machine_paths(work: Path) -> set[str]:
    return {str(work.resolve()), str(work), str(Path.home()), "/root", "/work"}


def scan(texts: dict[str, bytes], work: Path) -> list[str]:
    """'label in where' for each planted secret found in any of `texts` ({where: content}), and each of this
    machine's paths found in a written file or stdout (also in the form lm-eval gives them in folder names, `/` as
    `__`, in files). stderr may name the user's own files: an error must say which file is wrong."""
    hits = []
    for label, needle in SECRET_NEEDLES.items():
        hits += [f"{label} in {where}" for where, content in texts.items() if needle.encode() in content]
    for path in machine_paths(work):
        forms = [path.encode(), path.replace("/", "__").encode()]
        for where, content in texts.items():
            if where == "stderr":
                continue
            if any(form in content for form in (forms[:1] if where == "stdout" else forms)):
                hits.append(f"{path} in {where}")
    return hits


@dataclass(frozen=True)
class Ran:
    args: list[str]  # after lm-eval-xling
    command: str
    code: int
    stdout: str
    stderr: str
    leaks: list[str]
    problem: str | None  # OK cases: what the check found wrong


def run_results_case(case: ResultsCase, base: Base | None, cwd: Path, work: Path, env: dict[str, str]) -> Ran:
    args = case.prepare(base, cwd)  # type: ignore[arg-type]  # base is None only for needs=NONE cases
    before = _snapshot(cwd)
    argv = [str(BIN / "lm-eval-xling"), *args]
    full_env = {**env, **case.env}
    procs = [
        subprocess.Popen(argv, cwd=cwd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(case.writers)
    ]
    outs = []
    for proc in procs:
        try:
            outs.append((*proc.communicate(timeout=case.timeout), proc.returncode))
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
            outs.append((stdout, stderr + f"\ndrill: killed after {case.timeout} s\n".encode(), -9))
    stdout = b"".join(o[0] for o in outs)
    stderr = b"".join(o[1] for o in outs)
    code = next((o[2] for o in outs if o[2] != 0), 0)
    after = _snapshot(cwd)
    changed = {str(p.relative_to(cwd)): p.read_bytes() for p, stamp in after.items() if before.get(p) != stamp}
    leaks = scan({"stdout": stdout, "stderr": stderr, **changed}, work)
    out_text = stdout.decode("utf-8", errors="replace")
    problem = case.check(base, cwd, out_text) if case.expect == OK and case.check and code == 0 else None  # type: ignore[arg-type]
    command = " ".join(["lm-eval-xling", *args])
    if case.env:
        command = " ".join(f"{k}={v}" for k, v in case.env.items()) + " " + command
    if case.writers > 1:
        command += f" (x{case.writers} at once)"
    return Ran(args, command, code, out_text, stderr.decode("utf-8", errors="replace"), leaks, problem)


def data_root(raw_fallback: Callable[[], Path], work: Path) -> Path:
    """Where the base runs read their data: LM_EVAL_XLING_DATA, else the package's cache when it holds NSP and
    QUENCH, else NSP and QUENCH built from the raw sources into `work`/data."""
    from lm_eval_xling.config import cache_dir, local_root
    from lm_eval_xling.data.builders import build, builders

    root = local_root() or cache_dir() / "data"
    wanted = {name: builders()[name].SPEC.hub_id for name in ("nsp", "quench")}
    if all((root / hub_id / "README.md").is_file() for hub_id in wanted.values()):
        return root
    root = work / "data"
    for name, hub_id in wanted.items():
        if not (root / hub_id / "README.md").is_file():
            build(name, raw_fallback(), root)
    return root


def case_env(data: Path | None) -> dict[str, str]:
    env = {**os.environ, **OFFLINE}
    if data is not None:
        env["LM_EVAL_XLING_DATA"] = str(data)
    return env
