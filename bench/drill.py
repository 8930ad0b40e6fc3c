"""Break users' files in each way they break, run the real command on them, and print what the user sees.

    python bench/drill.py [--group data|results ...] [--only CASE ...] [--work DIR] [--raw DIR] [--synthetic] [--list]

Group "data": a copy of every raw source and every built dataset, corrupted. Raw sources come from --raw (default
$LM_EVAL_XLING_RAW, else ../shared/data) or, with --synthetic or where that folder is absent, from the tests'
synthetic writers (tests/support). Each case copies one source (or one built dataset), breaks it, and runs
`lm-eval-xling data build --only NAME` (raw cases) or `lm-eval-xling run --model dummy --tasks TASK --limit 1` on
LM_EVAL_XLING_DATA=<the copy> (built-data cases).

Group "results" (bench/drill_results.py): the commands that read lm-eval output (report, submit, compare, score,
consistency compare|table, nsp-features, nsp-factors, data build) on copies of two real runs of the embedded model,
made once per work folder (about 3 minutes on 2 cores; --work DIR keeps them for the next drill run), broken or
carrying planted secrets in their model_args. After each command, its stdout, stderr and every file it wrote are
searched for the planted secrets and this machine's paths (the work folder, $HOME, /root, /work).

Prints one markdown table: case | command | exit | traceback | outcome | secrets | first line. Outcome: `clear
error` (exit 2, no traceback: what bad input must get), `ok` (exit 0 and the case's own check of the output
passed), `SILENT WRONG` (exit 0 where a refusal was expected, or the check failed), `TRACEBACK`, `REFUSED` (exit 2
where ok was expected), `OTHER EXIT`. Exits 1 when a case is neither `clear error` nor `ok` as expected, or a
secret or path was found.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from drill_results import (  # noqa: E402  (the script's own folder, put on the path above)
    BASE,
    DATA,
    ERROR,
    GEN_KWARGS_B,
    RESULTS_CASES,
    Base,
    Ran,
    ResultsCase,
    case_env,
    data_root,
    make_base,
    run_results_case,
)

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


# --- ways to break a file ---------------------------------------------------------------------------------------


def empty(path: Path) -> None:
    path.write_bytes(b"")


def bad_byte(line: int) -> Callable[[Path], None]:
    """Put a byte that is not UTF-8 (0xff) at the start of `line` (1-based)."""

    def corrupt(path: Path) -> None:
        lines = path.read_bytes().split(b"\n")
        lines[line - 1] = b"\xff" + lines[line - 1]
        path.write_bytes(b"\n".join(lines))

    return corrupt


def truncate_last_line(path: Path) -> None:
    """A write cut off mid-line: the last line loses its second half and the newline."""
    data = path.read_bytes().rstrip(b"\n")
    start = data.rfind(b"\n") + 1
    path.write_bytes(data[: start + (len(data) - start) // 2])


def truncate_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def replace(old: str, new: str) -> Callable[[Path], None]:
    """Replace the first `old` in the file by `new`."""

    def corrupt(path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        if old not in text:
            raise SystemExit(f"drill: {path} holds no {old!r} to corrupt")
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return corrupt


def first_field(value: str) -> Callable[[Path], None]:
    """Replace the first field of the first record (line 2) of a CSV file."""

    def corrupt(path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        start = text.index("\n") + 1
        path.write_text(text[:start] + value + text[text.index(",", start) :], encoding="utf-8")

    return corrupt


def header_only(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")


def edit_jsonl(line: int, edit: Callable[[dict], None]) -> Callable[[Path], None]:
    """Change the record on `line` (1-based) of a JSONL file."""

    def corrupt(path: Path) -> None:
        lines = path.read_text(encoding="utf-8").splitlines()
        record = json.loads(lines[line - 1])
        edit(record)
        lines[line - 1] = json.dumps(record, ensure_ascii=False)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    return corrupt


def edit_json_pair(edit: Callable[[dict], None]) -> Callable[[Path], None]:
    """Change the first pair of an X-PARADE JSON file."""

    def corrupt(path: Path) -> None:
        pairs = json.loads(path.read_text(encoding="utf-8"))
        edit(pairs[0])
        path.write_text(json.dumps(pairs, ensure_ascii=False), encoding="utf-8")

    return corrupt


def parquet_rows(keep: slice) -> Callable[[Path], None]:
    def corrupt(path: Path) -> None:
        pq.write_table(pq.read_table(path).slice(keep.start or 0, (keep.stop or 0) - (keep.start or 0)), path)

    return corrupt


def as_jsonl(then: Callable[[Path], None], rows: int | None = None) -> Callable[[Path], None]:
    """Replace a Parquet split by a JSONL one (`rows` records, repeating the split as needed), then corrupt that."""

    def corrupt(path: Path) -> None:
        records = pq.read_table(path).to_pylist()
        if rows is not None:
            records = [records[i % len(records)] for i in range(rows)]
        jsonl = path.with_suffix(".jsonl")
        jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        path.unlink()
        then(jsonl)

    return corrupt


def remove(path: Path) -> None:
    if path.is_dir():
        for child in path.iterdir():
            child.unlink()
    else:
        path.unlink()


def drop_key(key: str) -> Callable[[dict], None]:
    return lambda record: record.pop(key)


def set_key(key: str, value: object) -> Callable[[dict], None]:
    return lambda record: record.__setitem__(key, value)


# --- the cases --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    dataset: str  # the builder's folder name in hub_datasets/
    file: str  # raw cases: under the raw root; built cases: under the data root
    corrupt: Callable[[Path], None]
    task: str | None = None  # built cases: the task whose load reads the file


RAW_CASES = [
    Case("nsp: empty story file", "nsp", "nsp/stories/en.txt", empty),
    Case("nsp: non-UTF-8 byte in a story file", "nsp", "nsp/stories/sw.txt", bad_byte(3)),
    Case("nsp: 0-row 1000-question CSV", "nsp", "nsp/nsp_en_1000.csv", header_only),
    Case("nsp: non-UTF-8 byte in the CSV", "nsp", "nsp/nsp_ha_1000.csv", bad_byte(5)),
    Case("nsp: truncated CSV line", "nsp", "nsp/nsp_en_1000.csv", truncate_last_line),
    Case("nsp: text in an int column", "nsp", "nsp/nsp_en_1000.csv", first_field("zero")),
    Case("nsp: CSV column missing", "nsp", "nsp/nsp_sw_1000.csv", replace("label", "lable")),
    Case("nsp: missing story file", "nsp", "nsp/stories/ha.txt", remove),
    Case("quench: bad YAML", "quench", "quench/Data_Store/*.yml", replace("question:", "question: [unclosed")),
    Case("quench: empty YAML", "quench", "quench/Data_Store/*.yml", empty),
    Case("quench: non-UTF-8 byte", "quench", "quench/Data_Store/*.yml", bad_byte(2)),
    Case("quench: field missing", "quench", "quench/Data_Store/*.yml", replace("variables:", "varaibles:")),
    Case("quench: wrong type", "quench", "quench/Data_Store/*.yml", replace("question:", "question: [1, 2]\nq:")),
    Case("quench: bad Indic tag", "quench", "quench/isIndicAnnotations/*.yml", replace("indic:", "indic: maybe\nx:")),
    Case("quench: Indic file missing", "quench", "quench/isIndicAnnotations/*.yml", remove),
    Case("quench: no question files", "quench", "quench/Data_Store", remove),
    Case("xparade: truncated JSON", "xparade", "xparade/complete_data_es/en-es-adj-test.json", truncate_half),
    Case("xparade: empty file", "xparade", "xparade/complete_data_es/es-en-adj-dev.json", empty),
    Case("xparade: 0 pairs", "xparade", "xparade/complete_data_hi/en-hi-adj-test.json", lambda p: p.write_text("[]")),
    Case("xparade: non-UTF-8 byte", "xparade", "xparade/complete_data_zh/zh-en-adj-test.json", bad_byte(1)),
    Case(
        "xparade: field missing",
        "xparade",
        "xparade/complete_data_es/en-es-adj-dev.json",
        edit_json_pair(drop_key("tokens")),
    ),  # fmt: skip
    Case(
        "xparade: wrong type",
        "xparade",
        "xparade/complete_data_es/en-es-adj-dev.json",
        edit_json_pair(set_key("labels", {"same": ["x"], "new": [], "inf": []})),
    ),  # fmt: skip
    Case(
        "xparade: token label 1.5",
        "xparade",
        "xparade/complete_data_es/en-es-adj-dev.json",
        edit_json_pair(lambda pair: pair["labels"]["new"].append(1.5)),
    ),  # fmt: skip
    Case(
        "xparade: a token under two labels",
        "xparade",
        "xparade/complete_data_es/en-es-adj-dev.json",
        edit_json_pair(lambda pair: pair["labels"]["inf"].append(pair["labels"]["same"][0])),
    ),  # fmt: skip
    Case(
        "xparade: JSON nested too deeply",
        "xparade",
        "xparade/complete_data_es/en-es-adj-dev.json",
        lambda p: p.write_text("[" * 100_000 + "]" * 100_000),
    ),  # fmt: skip
    Case(
        "quench: a key written twice",
        "quench",
        "quench/Data_Store/*.yml",
        replace("question:", "question: a\nquestion:"),
    ),
    Case(
        "nsp_global: markdown story without its title",
        "nsp_global",
        "storybooks/global-asp/de/0001_*.md",
        replace("# ", ""),
    ),
    Case(
        "nsp_global: non-UTF-8 byte in a markdown story",
        "nsp_global",
        "storybooks/global-asp/de/0002_*.md",
        bad_byte(3),
    ),
    Case(
        "nsp_global: story page without its own-language text",
        "nsp_global",
        "storybooks/*/stories/sw/0001/index.html",
        replace("level2-txt def", "level2-txt"),
    ),
    Case("nsp_global: empty story page", "nsp_global", "storybooks/*/stories/sw/0002/index.html", empty),
    Case("pawsx: empty file", "pawsx", "pawsx/test-de.jsonl", empty),
    Case("pawsx: non-UTF-8 byte", "pawsx", "pawsx/test-en.jsonl", bad_byte(2)),
    Case("pawsx: truncated line", "pawsx", "pawsx/test-zh.jsonl", truncate_last_line),
    Case("pawsx: wrong type", "pawsx", "pawsx/test-en.jsonl", edit_jsonl(2, set_key("label", "1"))),
    Case("xnli: field missing", "xnli", "xnli/test-de.jsonl", edit_jsonl(3, drop_key("hypothesis"))),
    Case("xnli: float in an int field", "xnli", "xnli/test-en.jsonl", edit_jsonl(3, set_key("label", 1.5))),
]

NSP_HA = "lm-eval-xling/nsp/ha/test.parquet"
BUILT_CASES = [
    Case("nsp: 0-row Parquet split", "nsp", NSP_HA, parquet_rows(slice(0, 0)), "nsp_hausa"),
    Case("nsp: empty JSONL split", "nsp", NSP_HA, as_jsonl(empty), "nsp_hausa"),
    Case("nsp: not Parquet", "nsp", NSP_HA, lambda path: path.write_text("not parquet"), "nsp_hausa"),
    Case("nsp: non-UTF-8 byte on JSONL line 3001", "nsp", NSP_HA, as_jsonl(bad_byte(3001), rows=3500), "nsp_hausa"),
    Case(
        "nsp: float in an int column, line 3",
        "nsp",
        NSP_HA,
        as_jsonl(edit_jsonl(3, set_key("story_id", 2.5))),
        "nsp_hausa",
    ),  # fmt: skip
    Case("nsp: truncated JSONL line", "nsp", NSP_HA, as_jsonl(truncate_last_line), "nsp_hausa"),
    Case("nsp: field missing in JSONL", "nsp", NSP_HA, as_jsonl(edit_jsonl(2, drop_key("label"))), "nsp_hausa"),
    Case("nsp: label out of range", "nsp", NSP_HA, as_jsonl(edit_jsonl(4, set_key("label", "C"))), "nsp_hausa"),
    Case(
        "quench: 0-row split",
        "quench",
        "lm-eval-xling/quench/default/test.parquet",
        parquet_rows(slice(0, 0)),
        "quench",
    ),  # fmt: skip
    Case(
        "xparade: non-UTF-8 byte in JSONL",
        "xparade",
        "lm-eval-xling/xparade/en-es/test.parquet",
        as_jsonl(bad_byte(2)),
        "xparade_en_es",
    ),  # fmt: skip
    Case(
        "pawsx: split file missing",
        "pawsx",
        "google-research-datasets/paws-x/en/test.parquet",
        remove,
        "xsense_pawsx_en",
    ),  # fmt: skip
]


# --- running ----------------------------------------------------------------------------------------------------


def synthetic_raw(root: Path) -> Path:
    sys.path.insert(0, str(REPO / "tests"))
    from support.nsp_data import write_synthetic_raw
    from support.quench_data import write_synthetic_quench
    from support.storybooks_data import write_synthetic_storybooks
    from support.xparade_data import write_synthetic_xparade
    from support.xsense_data import write_synthetic_pawsx, write_synthetic_xnli

    root.mkdir(parents=True)
    write_synthetic_xparade(write_synthetic_quench(write_synthetic_raw(root)))
    write_synthetic_storybooks(root)
    return write_synthetic_xnli(write_synthetic_pawsx(root))


def _resolve(root: Path, pattern: str) -> Path:
    """`pattern` under `root`; a glob picks its first match (sorted)."""
    if "*" in pattern:
        return sorted(root.glob(pattern))[0]
    return root / pattern


def _message(stderr: str) -> str:
    """The first line of what the command said about the failure (lm-eval's log lines and warnings skipped)."""
    ours = [line for line in stderr.splitlines() if line.startswith(("failed ", "run: ", "data build: "))]
    lines = ours or [line for line in stderr.splitlines() if line.strip()]
    return (lines[0] if lines else "(nothing on stderr)")[:160]


def run_case(case: Case, raw: Path, built: Path, work: Path) -> tuple[str, int, bool, str]:
    """(command, exit code, traceback shown, first line of the message) of one corrupted copy."""
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    if case.task is None:
        case_raw = work / "raw"
        shutil.copytree(raw / case.file.split("/")[0], case_raw / case.file.split("/")[0])
        case.corrupt(_resolve(case_raw, case.file))
        out = work / "out"
        command = ["lm-eval-xling", "data", "build", "--raw", str(case_raw), "--out", str(out), "--only", case.dataset]
    else:
        data = work / "data"
        hub_folder = "/".join(case.file.split("/")[:2])
        shutil.copytree(built / hub_folder, data / hub_folder)
        case.corrupt(_resolve(data, case.file))
        env["LM_EVAL_XLING_DATA"] = str(data)
        command = ["lm-eval-xling", "run", "--model", "dummy", "--tasks", case.task, "--limit", "1"]
    proc = subprocess.run([str(BIN / command[0]), *command[1:]], capture_output=True, text=True, env=env, cwd=work)
    shown = " ".join(command).replace(str(work), "<copy>")
    return shown, proc.returncode, "Traceback" in proc.stderr, _message(proc.stderr.replace(str(work), "<copy>"))


# --- the table --------------------------------------------------------------------------------------------------

CLEAR, OK_, SILENT = "clear error", "ok", "SILENT WRONG"
TRACEBACK, OTHER, REFUSED = "TRACEBACK", "OTHER EXIT", "REFUSED"  # REFUSED: exit 2 where ok was expected
FAILURES = (SILENT, TRACEBACK, OTHER, REFUSED)


def outcome(expect: str, code: int, traceback: bool, problem: str | None = None) -> str:
    """What the user got, against what the case expects (ERROR: a refusal, exit 2; OK: exit 0 and a good output)."""
    if traceback:
        return TRACEBACK
    if expect == ERROR:
        return {2: CLEAR, 0: SILENT}.get(code, OTHER)
    if code == 0:
        return SILENT if problem else OK_
    return REFUSED if code == 2 else OTHER


def _cell(text: str, work: Path, model: str | None = None) -> str:
    """`text` for a table cell: the work folder and lm-eval's model folder name shortened, pipes escaped."""
    text = text.replace(str(work), "<work>")
    if model:
        text = text.replace(model, "<model>")
    return text.replace("|", "\\|")[:240]


def _label(args: list[str]) -> str:
    """The prefix the command puts before its error (`consistency compare`, `report`)."""
    return " ".join(args[:2]) if args[0] in ("consistency", "data") else args[0]


def _results_message(case: ResultsCase, ran: Ran, result: str, label: str, stamps: dict[str, str]) -> str:
    """The line that tells what happened: the error, the traceback's last line, or what the check found."""
    lines = [line for line in ran.stderr.splitlines() if line.strip()]
    if result == TRACEBACK:
        return lines[-1]
    if ran.code == 0:
        if ran.problem:
            return f"check: {ran.problem}"
        shown = [line for line in ran.stdout.splitlines() if line.strip()] or lines
        said = shown[0] if shown else "(no output)"
        return f"no refusal; printed: {said}" if case.expect == ERROR else said
    prefixes = (f"{label}: ", f"lm-eval-xling {label}: ", "drill: killed")
    start = next((i for i, line in enumerate(lines) if line.startswith(prefixes)), len(lines) - 1)
    more = [line.strip() for line in itertools.takewhile(lambda line: line[:1].isspace(), lines[start + 1 :])]
    message = " ".join([lines[start], *more]) if lines else "(nothing on stderr)"
    missing = [word.format(**stamps) for word in case.says if word.format(**stamps) not in ran.stderr]
    return message + (f" [does not name: {', '.join(missing)}]" if missing else "")


def _select(args: argparse.Namespace) -> tuple[list[Case], list[ResultsCase]]:
    groups = args.group or ["data", "results"]
    data = [c for c in RAW_CASES + BUILT_CASES if "data" in groups and (not args.only or c.name in args.only)]
    results = [c for c in RESULTS_CASES if "results" in groups and (not args.only or c.name in args.only)]
    unknown = set(args.only or ()) - {c.name for c in RAW_CASES + BUILT_CASES + RESULTS_CASES}
    if unknown:
        raise SystemExit(f"drill: no case named {', '.join(sorted(unknown))} (--list shows them)")
    return data, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_raw = Path(os.environ.get("LM_EVAL_XLING_RAW", REPO.parent / "shared" / "data"))
    parser.add_argument("--raw", type=Path, default=default_raw)
    parser.add_argument("--synthetic", action="store_true", help="use the tests' synthetic sources")
    parser.add_argument("--only", nargs="+", metavar="CASE", help="case names (as in the table)")
    parser.add_argument(
        "--group",
        nargs="+",
        choices=("data", "results"),
        help="data: corrupt raw sources and built datasets; results: the commands that read lm-eval output "
        "(default: both)",
    )
    parser.add_argument(
        "--work", type=Path, help="keep the base runs here between drill runs (default: a temporary folder)"
    )
    parser.add_argument("--list", action="store_true", help="print the case names and exit")
    args = parser.parse_args(argv)
    if args.list:
        for case in RAW_CASES + BUILT_CASES:
            print(f"data: {case.name}")
        for case in RESULTS_CASES:
            print(f"results: {case.name}")
        return 0
    data_cases, results_cases = _select(args)
    with tempfile.TemporaryDirectory(prefix="drill-") as tmp:
        work = (args.work or Path(tmp)).resolve()
        shutil.rmtree(work / "cases", ignore_errors=True)
        (work / "cases").mkdir(parents=True)

        def raw_sources() -> Path:
            if not args.synthetic and (args.raw / "nsp").is_dir():
                return args.raw
            if not (work / "raw").is_dir():
                synthetic_raw(work / "raw")
            return work / "raw"

        built = _prepare_data(data_cases, raw_sources(), work) if data_cases else None
        results = _prepare_results(results_cases, raw_sources, work) if results_cases else None
        print("| case | command | exit | traceback | outcome | secrets | first line |")
        print("|---|---|---:|---|---|---|---|", flush=True)
        rows = _data_rows(data_cases, raw_sources(), built, work) if built else []
        rows += _results_rows(results_cases, *results, work) if results else []
    return _summary(rows)


def _print_row(name: str, command: str, code: int, traceback: bool, result: str, leaks: str, message: str) -> None:
    tb = "yes" if traceback else "no"
    print(f"| {name} | `{command}` | {code} | {tb} | {result} | {leaks} | {message} |", flush=True)


def _prepare_data(cases: list[Case], raw: Path, work: Path) -> Path:
    """The built datasets the built-data cases copy; the folder."""
    from lm_eval_xling.data.builders import build

    built = work / "built"
    shutil.rmtree(built, ignore_errors=True)
    for name in sorted({c.dataset for c in cases if c.task}):
        build(name, raw, built)
    print(f"raw sources: {raw if raw.parent != work else 'synthetic (tests/support)'}")
    return built


def _data_rows(cases: list[Case], raw: Path, built: Path, work: Path) -> list[tuple[str, int]]:
    """The corrupt-data cases; their messages name the copies they were given, so no path search ("-")."""
    rows = []
    for i, case in enumerate(cases):
        case_work = work / "cases" / f"data{i}"
        case_work.mkdir()
        command, code, traceback, message = run_case(case, raw, built, case_work)
        result = outcome(ERROR, code, traceback)
        _print_row(case.name, command, code, traceback, result, "-", _cell(message, work))
        rows.append((result, 0))
    return rows


def _prepare_results(cases: list[ResultsCase], raw: Callable[[], Path], work: Path) -> tuple[Base | None, dict]:
    """The base runs, when a case needs them, and the environment every case runs in."""
    needs = {c.needs for c in cases}
    env = case_env(data_root(raw, work) if needs & {DATA, BASE} else None)
    base = make_base(work, env) if BASE in needs else None
    if base:
        print(f"base runs: {base.runs.relative_to(work)}/<model>: {base.stamp_a} and {base.stamp_b} "
              f"(--gen_kwargs {GEN_KWARGS_B}); <model> = {base.model}")  # fmt: skip
    print()
    return base, env


def _results_rows(cases: list[ResultsCase], base: Base | None, env: dict, work: Path) -> list[tuple[str, int]]:
    """The post-run cases, each in its own folder."""
    stamps = {"stamp_a": base.stamp_a, "stamp_b": base.stamp_b} if base else {}
    model = base.model if base else None
    rows = []
    for i, case in enumerate(cases):
        cwd = work / "cases" / f"results{i}"
        cwd.mkdir()
        ran = run_results_case(case, base, cwd, work, env)
        traceback = "Traceback (most recent call last)" in ran.stderr
        result = outcome(case.expect, ran.code, traceback, ran.problem)
        message = _results_message(case, ran, result, _label(ran.args), stamps)
        leaks = f"{len(ran.leaks)}: {', '.join(ran.leaks)}" if ran.leaks else "0"
        _print_row(case.name, _cell(ran.command, work, model), ran.code, traceback, result, _cell(leaks, work, model),
                   _cell(message, work, model))  # fmt: skip
        rows.append((result, len(ran.leaks)))
    return rows


def _summary(rows: list[tuple[str, int]]) -> int:
    count = {name: sum(result == name for result, _ in rows) for name in (CLEAR, OK_, *FAILURES)}
    secrets = sum(leaks for _, leaks in rows)
    print(
        f"\n{len(rows)} cases: {count[CLEAR]} clear errors, {count[OK_]} ok, {count[TRACEBACK]} tracebacks, "
        f"{count[SILENT]} silent wrong, {count[OTHER]} other exits, {count[REFUSED]} refused (ok expected), "
        f"{secrets} secrets found"
    )
    return 1 if secrets or any(count[name] for name in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
