"""Reader coverage where numbers are read: every generative choice task's share of replies read beside its reference
language's, flagged where the invalid rates differ by more than 5 points (and not at 5), in `report` and `compare`;
NSP Global's gap over the items answered in both languages, on a tiny example computed by hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from lm_eval_xling.cli import main
from lm_eval_xling.reports.compare import compare_runs
from lm_eval_xling.reports.contrasts import family_of
from lm_eval_xling.reports.coverage import READER_FLAG, flagged
from lm_eval_xling.reports.gap import _fmt_ci, write_report
from lm_eval_xling.stats import paired_difference

DATE = "2025-01-01T00-00-00.000000"
ITERS = 400


def write_run(root: Path, model: str, logs: dict[str, dict[str, list[tuple]]]) -> Path:
    """An lm_eval --log_samples folder: {task: {filter: [(item id, acc, invalid or None), ...] in logging order}};
    invalid None: the task logs no invalid (log-likelihood)."""
    folder = root / model
    folder.mkdir(parents=True)
    results, configs = {}, {}
    for task, by_filter in logs.items():
        lines, results[task] = [], {"alias": task}
        for filt, rows in by_filter.items():
            metrics = ["acc"] if rows[0][2] is None else ["acc", "invalid"]
            for doc_id, (item, acc, invalid) in enumerate(rows):
                sample = {"doc_id": doc_id, "doc": {"id": item}, "resps": [["A"]], "filter": filt, "metrics": metrics,
                          "acc": acc} | ({} if invalid is None else {"invalid": invalid})  # fmt: skip
                lines.append(json.dumps(sample))
            for m in metrics:
                results[task][f"{m},{filt}"] = float(np.mean([r[1 if m == "acc" else 2] for r in rows]))
        (folder / f"samples_{task}_{DATE}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        configs[task] = {"task": task, "metric_list": [{"metric": m, "aggregation": "mean"} for m in metrics]}
    data = {"results": results, "configs": configs, "model_name": model, "config": {}}
    (folder / f"results_{DATE}.json").write_text(json.dumps(data), encoding="utf-8")
    return root


def rates(n_invalid: int, n: int = 100, filt: str = "extract") -> dict[str, list[tuple]]:
    """A task's log with `n_invalid` invalid replies out of `n` (wrong), the rest right."""
    return {filt: [(i, int(i >= n_invalid), int(i < n_invalid)) for i in range(n)]}


# task -> invalid replies out of 100; reference: nsp_english (direct) and nsp_english_cot (CoT, native CoT)
NSP_INVALID = {
    "nsp_english": 10,
    "nsp_swahili": 15,  # +5.0 points (0.15 - 0.10 is 0.0499...): not flagged
    "nsp_hausa": 16,  # +6.0: flagged
    "nsp_english_cot": 15,
    "nsp_swahili_cot": 4,  # -11.0: flagged, fewer invalid than English counts too
    "nsp_hausa_cot": 10,  # -5.0: not flagged
    "nsp_hausa_cot_native": 20,  # +5.0 against nsp_english_cot (0.20 - 0.15 is 0.0500...02): not flagged
    "nsp_swahili_cot_native": 21,  # +6.0 against nsp_english_cot: flagged
}
FLAGGED = {"nsp_hausa", "nsp_swahili_cot", "nsp_swahili_cot_native"}
REFERENCE = {"nsp_swahili": "nsp_english", "nsp_hausa": "nsp_english", "nsp_swahili_cot": "nsp_english_cot",
             "nsp_hausa_cot": "nsp_english_cot", "nsp_hausa_cot_native": "nsp_english_cot",
             "nsp_swahili_cot_native": "nsp_english_cot"}  # fmt: skip


def nsp_logs() -> dict[str, dict[str, list[tuple]]]:
    logs = {task: rates(k) for task, k in NSP_INVALID.items()}
    # xsense: English is the declared reference, each filter against its own; the paper's prompt variant has its
    # own English task (shipped), which this run lacks: no reference, rather than another prompt's English
    logs["xsense_pawsx_en"] = rates(0, 50, "careful") | rates(0, 50, "standardize")
    logs["xsense_pawsx_de"] = rates(3, 50, "careful") | rates(2, 50, "standardize")  # +6.0 flagged, +4.0 not
    logs["xsense_pawsx_paper_de"] = rates(20, 50, "careful")
    return logs


def _rows(text: str, heading: str) -> dict[tuple[str, ...], list[str]]:
    """{(run, task[, filter]): cells} of the table under `## heading` in a Markdown text."""
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in section.splitlines() if line.startswith("| ")]
    return {(cells[0], cells[1], cells[2]): cells for cells in rows[1:]}


def test_threshold_is_more_than_five_points():
    assert not flagged(0.15, 0.10) and not flagged(0.20, 0.15) and not flagged(0.10, 0.15) and not flagged(0.0, 0.05)
    assert flagged(0.16, 0.10) and flagged(0.04, 0.15) and flagged(0.0501, 0.0)
    assert not flagged(None, 0.5) and not flagged(0.5, None)


def test_references_are_declared_by_the_family():
    tasks = set(NSP_INVALID) | {"xsense_pawsx_en", "xsense_pawsx_de", "xsense_pawsx_paper_de"}
    for task, reference in REFERENCE.items():
        assert family_of(task).reference_of(task, tasks) == reference, task
    assert family_of("nsp_english").reference_of("nsp_english", tasks) == "nsp_english"
    assert family_of("xsense_pawsx_de").reference_of("xsense_pawsx_de", tasks) == "xsense_pawsx_en"
    assert family_of("xsense_pawsx_paper_de").reference_of("xsense_pawsx_paper_de", tasks) is None
    assert family_of("nsp_hausa_1k").reference_of("nsp_hausa_1k", tasks) is None  # nsp_english_1k not run
    global_tasks = {"nsp_global_en", "nsp_global_sw_ll"}
    assert family_of("nsp_global_sw").reference_of("nsp_global_sw", global_tasks) == "nsp_global_en"
    assert family_of("nsp_global_sw_ll").reference_of("nsp_global_sw_ll", global_tasks) is None


@pytest.fixture(scope="module")
def nsp_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    root = write_run(tmp_path_factory.mktemp("runs"), "model-a", nsp_logs())
    md, page = write_report([root], root / "report", iters=ITERS)
    return md.read_text(encoding="utf-8"), page.read_text(encoding="utf-8")


def test_report_shows_replies_read_and_flags_over_five_points(nsp_report: tuple[str, str]):
    md = nsp_report[0]
    rows = _rows(md, "NSP: replies read")
    assert rows["model-a", "nsp_english", "extract"][3:] == ["0.9000", "0.1000", "100", "nsp_english", "-", "-",
                                                            "reference"]  # fmt: skip
    for task, reference in REFERENCE.items():
        cells = rows["model-a", task, "extract"]
        invalid, theirs = NSP_INVALID[task] / 100, NSP_INVALID[reference] / 100
        assert cells[3:9] == [f"{1 - invalid:.4f}", f"{invalid:.4f}", "100", reference, f"{theirs:.4f}",
                              f"{100 * (invalid - theirs):+.1f}"], task  # fmt: skip
        if task in FLAGGED:
            assert cells[9] == f"{READER_FLAG} ({invalid:.4f} against {theirs:.4f} in {reference}: " + (
                f"{100 * (invalid - theirs):+.1f} points)"
            )
        else:
            assert cells[9] == "within 5 points", task
    # right under the NSP table, where the languages' accuracies stand side by side: the flagged ones only
    under = md.split("## NSP\n", 1)[1].split("\n## ", 1)[0].split("![", 1)[0]
    assert {task for task in NSP_INVALID if f"model-a, {task} (extract): {READER_FLAG}" in under} == FLAGGED


def test_report_flags_the_delta_row(nsp_report: tuple[str, str]):
    md = nsp_report[0]
    deltas = md.split("## High- vs low-resource deltas\n", 1)[1].split("\n## ", 1)[0]
    hausa = next(line for line in deltas.splitlines() if "| nsp_english | nsp_hausa | acc (extract) |" in line)
    assert hausa.endswith(f"| {READER_FLAG} (0.1600 against 0.1000 in nsp_english: +6.0 points) |")
    swahili = next(line for line in deltas.splitlines() if "| nsp_english | nsp_swahili | acc (extract) |" in line)
    assert swahili.endswith("| - |")
    cot = next(line for line in deltas.splitlines() if "| nsp_english_cot | nsp_swahili_cot | acc (extract) |" in line)
    assert READER_FLAG in cot


def test_each_filter_against_its_own_and_no_other_prompts_english(nsp_report: tuple[str, str]):
    md, page = nsp_report
    rows = _rows(md, "XSense: replies read")
    assert rows["model-a", "xsense_pawsx_de", "careful"][8:] == ["+6.0", f"{READER_FLAG} (0.0600 against 0.0000 in "
                                                                "xsense_pawsx_en: +6.0 points)"]  # fmt: skip
    assert rows["model-a", "xsense_pawsx_de", "standardize"][8:] == ["+4.0", "within 5 points"]
    assert rows["model-a", "xsense_pawsx_paper_de", "careful"][6:] == ["-", "-", "-", "no reference task in the run"]
    assert f"<td>{READER_FLAG} (0.0600 against 0.0000 in xsense_pawsx_en: +6.0 points)</td>" in page
    assert f"<li>model-a, nsp_hausa (extract): {READER_FLAG}" in page


# NSP Global by hand. Items q0-q5; English logs them all, Swahili q5..q1 backwards (q0 missing), German all.
#          q0  q1  q2  q3  q4  q5
# en acc    1   1   1   0   0   1    invalid on q4
# sw acc    -   0   0   0   1   1    invalid on q1, q3
# de acc    1   1   0   0   0   1    invalid on q4
# Paired with English: sw q1-q5, en 1 1 0 0 1 against sw 0 0 0 1 1: gap (2 - 3) / 5 = -0.2. Answered in both (no
# invalid in either): q2 and q5 (q1, q3: Swahili's invalid; q4: English's): en 1 1, sw 0 1, gap -1/2 over 2.
# Invalid: en 1/6, sw 2/5 (+23.3 points, flagged), de 1/6 (not). German answered in both: q0-q3, q5, gap -1/5.
GLOBAL = {
    "nsp_global_en": {"extract": [("q0", 1, 0), ("q1", 1, 0), ("q2", 1, 0), ("q3", 0, 0), ("q4", 0, 1), ("q5", 1, 0)]},
    "nsp_global_sw": {"extract": [("q5", 1, 0), ("q4", 1, 0), ("q3", 0, 1), ("q2", 0, 0), ("q1", 0, 1)]},
    "nsp_global_de": {"extract": [("q0", 1, 0), ("q1", 1, 0), ("q2", 0, 0), ("q3", 0, 0), ("q4", 0, 1), ("q5", 1, 0)]},
    "nsp_global_en_ll": {"none": [(f"q{i}", i % 2, None) for i in range(6)]},
    "nsp_global_sw_ll": {"none": [(f"q{i}", 1, None) for i in range(6)]},
}
SW_FLAG = f"{READER_FLAG} (0.4000 against 0.1667 in nsp_global_en: +23.3 points)"


def _gap_rows(text: str) -> dict[tuple[str, str], list[str]]:
    section = text.split("## NSP Global: gap to en on identical items\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in section.splitlines() if line.startswith("| ")]
    assert rows[0][14:] == ["Answered in both n", "Gap to en, answered in both", "Answered gap 95% CI", "Reader"]
    return {(cells[0], cells[1]): cells for cells in rows[1:]}


def _check_answered_in_both(rows: dict[tuple[str, str], list[str]], run: str) -> None:
    sw, de = rows[run, "nsp_global_sw"], rows[run, "nsp_global_de"]
    assert sw[6:10] == [
        "0.4000",
        "5",
        "0.6000",
        "-0.2000",
    ]  # every paired item (English right on 3 of 5), invalid wrong
    ci = _fmt_ci(paired_difference(np.array([1, 1]), np.array([0, 1]), ITERS)[0])
    assert sw[14:] == ["2", "-0.5000", ci, SW_FLAG]
    assert ci == "[-1.0000, 0.0000]"  # two items: the resampled means are -1, -1/2 and 0
    de_ci = _fmt_ci(paired_difference(np.array([1, 1, 1, 0, 1]), np.array([1, 1, 0, 0, 1]), ITERS)[0])
    assert de[14:] == ["5", "-0.2000", de_ci, "-"]
    assert rows[run, "nsp_global_en"][14:] == ["-", "reference", "-", "reference"]
    assert (
        rows[run, "nsp_global_sw_ll"][7:10] == ["6", "0.5000", "+0.5000"]
        and rows[run, "nsp_global_sw_ll"][14:] == ["-"] * 4
    )


def test_report_gap_over_items_answered_in_both(tmp_path: Path):
    root = write_run(tmp_path, "model-a", GLOBAL)
    md = write_report([root], tmp_path / "report", iters=ITERS)[0].read_text(encoding="utf-8")
    _check_answered_in_both(_gap_rows(md), "model-a")
    rows = _rows(md, "NSP Global: replies read")
    assert rows["model-a", "nsp_global_sw", "extract"][3:] == ["0.6000", "0.4000", "5", "nsp_global_en", "0.1667",
                                                              "+23.3", SW_FLAG]  # fmt: skip
    assert rows["model-a", "nsp_global_de", "extract"][9] == "within 5 points"
    assert not any(key[1].endswith("_ll") for key in rows)  # a log-likelihood task reads no reply


def test_compare_prints_coverage_flags_and_the_answered_gap(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    a = write_run(tmp_path / "a", "model-a", GLOBAL | nsp_logs())
    b = write_run(tmp_path / "b", "model-b", GLOBAL | {"nsp_english": rates(10), "nsp_hausa": rates(10)})
    comparison = compare_runs(a, b, iters=ITERS)
    assert {(c.model, c.task) for c in comparison.reader_coverage if c.flagged} == {
        ("A", task) for task in FLAGGED | {"nsp_global_sw", "xsense_pawsx_de"}
    } | {("B", "nsp_global_sw")}
    assert main(["compare", str(a), str(b), "--iters", str(ITERS)]) == 0
    out = capsys.readouterr().out
    assert "| nsp_hausa | acc | 0.8400 | 0.9000 | +0.0600 |" in out  # the A vs B table first
    coverage = _rows(out, "Replies read")
    assert (
        coverage["A", "nsp_hausa", "extract"][9] == f"{READER_FLAG} (0.1600 against 0.1000 in nsp_english: +6.0 points)"
    )
    assert coverage["B", "nsp_hausa", "extract"][9] == "within 5 points"
    assert coverage["A", "nsp_swahili", "extract"][9] == "within 5 points"
    assert coverage["B", "nsp_global_sw", "extract"][9] == SW_FLAG
    gaps = _gap_rows(out)
    for side in ("A", "B"):
        _check_answered_in_both(gaps, side)
    assert out.index("## Replies read") < out.index("## NSP Global: gap to en")
    assert main(["compare", str(a), str(b), "--iters", str(ITERS), "--json"]) == 0
    assert READER_FLAG not in capsys.readouterr().out  # --json keeps its {task: {metric: ...}} shape


def test_a_flag_is_shown_only_where_a_reference_was_run(tmp_path: Path):
    root = write_run(tmp_path, "model-a", {"nsp_hausa": rates(40), "nsp_global_sw": GLOBAL["nsp_global_sw"]})
    md = write_report([root], tmp_path / "report", iters=50)[0].read_text(encoding="utf-8")
    assert READER_FLAG not in md
    hausa = _rows(md, "NSP: replies read")["model-a", "nsp_hausa", "extract"]
    assert hausa[6:] == ["-", "-", "-", "no reference task in the run"]
    assert re.search(r"\| model-a \| nsp_global_sw \| extract \| 0\.6000 \| 0\.4000 \| 5 \| - \|", md)
