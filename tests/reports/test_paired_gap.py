"""Gaps to English on identical items (a family declaring `ParallelLanguages`): synthetic NSP Global runs whose
languages log the same questions in other orders, one question missing, so that only pairing by the question id
(not lm-eval's doc_id) gives the planted numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from scipy.stats import binomtest

from lm_eval_xling.cli import main
from lm_eval_xling.nsp import REPORT as NSP
from lm_eval_xling.nsp_global import REPORT as NSP_GLOBAL
from lm_eval_xling.reports.compare import compare_runs
from lm_eval_xling.reports.contrasts import family_of
from lm_eval_xling.reports.gap import ReportError, write_report

DATE = "2025-01-01T00-00-00.000000"
ITEMS = [f"0001-00-{i:02d}" for i in range(20)]
RIGHT_EN = set(range(14))  # items (by index in ITEMS) English answers right
# task -> (items right, items logged in their logging order, items with an invalid reply)
PLANTED = {
    "nsp_global_en": (RIGHT_EN, list(range(20)), set()),
    # Swahili lacks item 19 and logs the others backwards: 9 items right in English only (0-8, three of them
    # invalid replies), 1 in Swahili only (14)
    "nsp_global_sw": ((RIGHT_EN - set(range(9))) | {14}, list(range(18, -1, -1)), {0, 1, 2}),
    # German rotated by 7: 2 items right in English only (0, 1), 6 in German only (14-19)
    "nsp_global_de": ((RIGHT_EN - {0, 1}) | set(range(14, 20)), [(i + 7) % 20 for i in range(20)], set()),
    # log-likelihood: English right on even items; Swahili logs 0-18 shuffled, right on all but 0 and 2
    "nsp_global_en_ll": (set(range(0, 20, 2)), list(range(20)), set()),
    "nsp_global_sw_ll": (set(range(19)) - {0, 2}, [(i * 7) % 19 for i in range(19)], set()),
}
# task -> (paired n, right in English only, right in the language only)
EXPECTED = {"nsp_global_sw": (19, 9, 1), "nsp_global_de": (20, 2, 6), "nsp_global_sw_ll": (19, 2, 9)}


def _write_run(root: Path, model: str, planted: dict = PLANTED) -> Path:
    folder = root / model
    folder.mkdir(parents=True)
    results, configs = {}, {}
    for task, (right, order, invalid) in planted.items():
        generative = not task.endswith("_ll")
        metrics, filt = (["acc", "invalid"], "extract") if generative else (["acc", "acc_norm"], "none")
        lines, values = [], {m: [] for m in metrics}
        for doc_id, item in enumerate(order):
            sample = {"doc_id": doc_id, "doc": {"id": ITEMS[item], "story": 1}, "resps": [["A"]], "filter": filt}
            sample["metrics"] = metrics
            sample |= {"acc": int(item in right), metrics[1]: int(item in invalid if generative else item in right)}
            lines.append(json.dumps(sample))
            for m in metrics:
                values[m].append(sample[m])
        (folder / f"samples_{task}_{DATE}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        results[task] = {"alias": task} | {f"{m},{filt}": sum(v) / len(v) for m, v in values.items()}
        configs[task] = {"task": task, "metric_list": [{"metric": m, "aggregation": "mean"} for m in metrics]}
    data = {"results": results, "configs": configs, "model_name": model, "config": {}}
    (folder / f"results_{DATE}.json").write_text(json.dumps(data), encoding="utf-8")
    return root


def _gap_rows(text: str) -> dict[tuple[str, str], list[str]]:
    """{(run, task): cells} of the paired-gap table in a Markdown text."""
    section = text.split("## NSP Global: gap to en on identical items", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split(" | ") for line in section.splitlines() if line.startswith("| ")]
    return {(cells[0].strip(), cells[1]): [c.strip() for c in cells] for cells in rows[1:]}


def test_families_with_multi_part_prefixes():
    assert family_of("nsp_global_sw") == family_of("nsp_global_en_ll") == NSP_GLOBAL
    assert family_of("nsp_english_cot") == family_of("nsp") == NSP
    assert family_of("nspx_sw") is None
    assert not NSP.has("nsp_global_sw") and NSP.has("nsp_hausa_ll") and NSP_GLOBAL.has("nsp_global_yue_ll")
    assert NSP_GLOBAL.language("nsp_global_yue_ll") == ("yue", "ll")
    assert NSP_GLOBAL.language("nsp_global_am") == ("am", "")
    assert NSP_GLOBAL.reference_task("nsp_global_sw_ll") == "nsp_global_en_ll"
    assert NSP_GLOBAL.reference_task("nsp_global_sw") == "nsp_global_en"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    root = tmp_path_factory.mktemp("runs")
    _write_run(root, "model-a")
    # model-b: German as English (no gap), Swahili absent
    _write_run(root, "model-b", {t: PLANTED["nsp_global_en"] for t in ("nsp_global_en", "nsp_global_de")})
    md, page = write_report([root], root / "report", iters=500)
    return md, page, root / "report"


def test_paired_differences_by_question_id(report: tuple[Path, Path, Path]):
    rows = _gap_rows(report[0].read_text(encoding="utf-8"))
    for task, (n_paired, only_en, only_language) in EXPECTED.items():
        right, order, invalid = PLANTED[task]
        reference = PLANTED["nsp_global_en_ll" if task.endswith("_ll") else "nsp_global_en"][0]
        cells = rows["model-a", task]
        assert cells[3] == f"{len(right) / len(order):.4f}" and cells[5] == str(len(order)), task
        assert cells[6] == (f"{len(invalid) / len(order):.4f}" if not task.endswith("_ll") else "-")
        paired = set(order) & set(PLANTED["nsp_global_en_ll" if task.endswith("_ll") else "nsp_global_en"][1])
        english = f"{len(set(reference) & paired) / n_paired:.4f}"  # English's accuracy on the paired items
        assert cells[7:10] == [str(n_paired), english, f"{(only_language - only_en) / n_paired:+.4f}"], task
        low, high = map(float, re.fullmatch(r"\[(\S+), (\S+)\]", cells[10]).groups())
        assert low <= (only_language - only_en) / n_paired <= high
        assert cells[11:13] == [str(only_en), str(only_language)], task
        p = binomtest(only_en, only_en + only_language, 0.5).pvalue
        assert float(cells[13]) == pytest.approx(p, abs=5e-5), task
        # pairing by doc_id would have counted other discordant items
        docs = {doc_id: item in right for doc_id, item in enumerate(order)}
        by_doc_id = sum(1 for doc_id, r in docs.items() if doc_id in reference and not r)
        assert by_doc_id != only_en, task
    assert float(rows["model-a", "nsp_global_sw"][13]) == pytest.approx(0.021484375, abs=5e-5)
    assert rows["model-a", "nsp_global_sw"][10].startswith("[-")  # worse than English: the interval is below 0
    assert rows["model-a", "nsp_global_en"][7:] == ["-", "-", "reference", "-", "-", "-", "-", "-", "reference", "-",
                                                    "reference"]  # fmt: skip
    assert rows["model-a", "nsp_global_en_ll"][14:] == ["-"] * 4  # a log-likelihood task reads no reply
    english = rows["model-b", "nsp_global_en"][3]  # every item paired: English's accuracy on them is its accuracy
    assert rows["model-b", "nsp_global_de"][7:] == ["20", english, "+0.0000", "[0.0000, 0.0000]", "0", "0", "1.0000",
                                                    "20", "+0.0000", "[0.0000, 0.0000]", "-"]  # fmt: skip
    # answered in both: Swahili's invalid replies (items 0-2) out, items 3-18 left: English right on 3-13 (11),
    # Swahili on 9-14 (6); its invalid rate (3 of 19) is 15.8 points above English's (0)
    assert rows["model-a", "nsp_global_sw"][14:16] == ["16", f"{(6 - 11) / 16:+.4f}"]
    assert rows["model-a", "nsp_global_sw"][17].startswith("part of this gap may be replies the reader could not")
    assert rows["model-a", "nsp_global_de"][14:16] == ["20", "+0.2000"] and rows["model-a", "nsp_global_de"][17] == "-"
    assert rows["model-a", "nsp_global_sw_ll"][14:] == ["-"] * 4
    assert ("model-b", "nsp_global_sw") not in rows


def test_rows_are_grouped_by_run_and_variant_reference_first(report: tuple[Path, Path, Path]):
    assert list(_gap_rows(report[0].read_text(encoding="utf-8"))) == [
        ("model-a", "nsp_global_en"),
        ("model-a", "nsp_global_de"),
        ("model-a", "nsp_global_sw"),
        ("model-a", "nsp_global_en_ll"),
        ("model-a", "nsp_global_sw_ll"),
        ("model-b", "nsp_global_en"),
        ("model-b", "nsp_global_de"),
    ]


def test_nsp_does_not_claim_nsp_global_and_invalid_counts_as_wrong(report: tuple[Path, Path, Path]):
    md = report[0].read_text(encoding="utf-8")
    assert "\n## NSP Global\n" in md and "\n## NSP\n" not in md
    assert "No task pair with both sides present." in md  # NSP's English-vs-Swahili contrast does not apply
    assert "an invalid reply counts as wrong" in md
    assert "| model-a | nsp_global_sw | invalid (extract) | 0.1579 |" in md  # the invalid table too: 3 of 19


def test_a_plot_per_run_beside_the_report_and_in_the_page(report: tuple[Path, Path, Path]):
    md, page, out = (report[0].read_text(encoding="utf-8"), report[1].read_text(encoding="utf-8"), report[2])
    for i, model in enumerate(("model-a", "model-b"), 1):
        png = (out / f"nsp_global_gap_{i}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        alt = f"NSP Global: gap to en on identical items: {model}"
        assert f"![{alt}](nsp_global_gap_{i}.png)" in md
        images = re.findall(rf"<img alt='{re.escape(alt)}' src='data:image/png;base64,([A-Za-z0-9+/=]+)'>", page)
        assert len(images) == 1
    assert "NSP Global: gap to en on identical items</h2>" in page


def test_a_repeated_question_id_is_refused(tmp_path: Path):
    _write_run(tmp_path, "model-a")
    log = next((tmp_path / "model-a").glob("samples_nsp_global_de_*.jsonl"))
    log.write_text(log.read_text(encoding="utf-8").replace(ITEMS[3], ITEMS[4]), encoding="utf-8")
    with pytest.raises(ReportError, match=rf"{re.escape(str(log))}: doc field 'id' is '{ITEMS[4]}' in several"):
        write_report([tmp_path], tmp_path / "out", iters=50)


def test_compare_prints_each_runs_gaps(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    a, b = _write_run(tmp_path / "a", "model-a"), _write_run(tmp_path / "b", "model-b")
    assert len(compare_runs(a, b, iters=200).language_gaps) == 10
    assert main(["compare", str(a), str(b), "--iters", "200"]) == 0
    out = capsys.readouterr().out
    assert "| nsp_global_sw | acc | 0.3158 | 0.3158 | +0.0000 |" in out  # the usual A vs B table first
    rows = _gap_rows(out)
    for side in ("A", "B"):
        cells = rows[side, "nsp_global_sw"]
        assert (cells[7], cells[8], cells[9], cells[11], cells[12]) == ("19", "0.7368", f"{-8 / 19:+.4f}", "9", "1")
        assert cells[14:16] == ["16", f"{(6 - 11) / 16:+.4f}"]
        assert float(cells[13]) == pytest.approx(0.021484375, abs=5e-5)
    assert main(["compare", str(a), str(b), "--iters", "200", "--json"]) == 0
    assert "gap to en" not in capsys.readouterr().out
