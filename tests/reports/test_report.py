"""The cross-lingual gap report on synthetic lm-eval results folders (two models, NSP English/Hausa, Y-NQ)."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest

from lm_eval_xling.cli import main
from lm_eval_xling.redact import local_reference
from lm_eval_xling.reports.gap import ReportError, write_report

DATE = "2025-01-01T00-00-00.000000"
N = 20
# (model, task) -> number of correct answers out of N
CORRECT = {
    ("model-a", "nsp_english"): 16,
    ("model-a", "nsp_hausa"): 10,
    ("model-a", "ynq_english"): 14,
    ("model-a", "ynq_yoruba"): 8,
    ("model-b", "nsp_english"): 18,
    ("model-b", "nsp_hausa"): 6,
    ("model-b", "ynq_english"): 12,
    ("model-b", "ynq_yoruba"): 11,
}


def _write_model(root: Path, model: str, gen_kwargs: dict | None = None) -> None:
    folder = root / model
    folder.mkdir(parents=True)
    tasks = sorted(t for m, t in CORRECT if m == model)
    results, configs = {}, {}
    for task in tasks:
        correct = CORRECT[(model, task)]
        metrics = ["acc", "invalid"] if task.startswith("nsp") else ["acc"]
        lines = []
        for i in range(N):
            sample = {"doc_id": i, "doc": {"id": i}, "filter": "none", "metrics": metrics, "acc": int(i < correct)}
            if "invalid" in metrics:
                sample["invalid"] = int(i == N - 1)
            lines.append(json.dumps(sample))
        (folder / f"samples_{task}_{DATE}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        results[task] = {"alias": task, "acc,none": correct / N, "acc_stderr,none": 0.1}
        if "invalid" in metrics:
            results[task]["invalid,none"] = 1 / N
        configs[task] = {"task": task, "metric_list": [{"metric": m, "aggregation": "mean"} for m in metrics]}
    data = {"results": results, "configs": configs, "model_name": model, "config": {"gen_kwargs": gen_kwargs or {}}}
    (folder / f"results_{DATE}.json").write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("runs")
    for model in ("model-a", "model-b"):
        _write_model(root, model)
    return write_report([root], root / "report", iters=200)


HEADINGS = ("Cross-lingual gap report", "Runs", "NSP", "NSP: replies read", "Y-NQ", "Differences between runs",
            "High- vs low-resource deltas", "Invalid answers")  # fmt: skip


def test_markdown(report: tuple[Path, Path]) -> None:
    md = report[0].read_text(encoding="utf-8")
    assert md.startswith("# Cross-lingual gap report")
    for heading in HEADINGS[1:]:
        assert f"\n## {heading}\n" in md
    for (model, task), correct in CORRECT.items():
        assert re.search(rf"\| {model} \| {task} \| acc \| {correct / N:.4f} \|", md), (model, task)
    for model in ("model-a", "model-b"):
        planted = CORRECT[(model, "nsp_english")] / N - CORRECT[(model, "nsp_hausa")] / N
        row = re.search(
            rf"\| {model} \| English vs Hausa \| nsp_english \| nsp_hausa \| acc \| (\S+) \| \[(\S+), (\S+)\] \|", md
        )
        assert row and float(row[1]) == pytest.approx(planted, abs=1e-4)
        assert float(row[2]) <= float(row[1]) <= float(row[3])
    assert re.search(r"\| model-a \| English vs Yoruba \| ynq_english \| ynq_yoruba \| acc \| 0\.3000 \|", md)
    invalid = md.split("## Invalid answers", 1)[1]
    assert "| model-a | nsp_hausa | invalid | 0.0500 |" in invalid
    read = md.split("## NSP: replies read", 1)[1]  # every language reads 19 of 20: nothing flagged
    assert (
        "| model-a | nsp_hausa | none | 0.9500 | 0.0500 | 20 | nsp_english | 0.0500 | +0.0 | within 5 points |" in read
    )
    assert "could not read" not in md


def test_html_has_headings_and_png(report: tuple[Path, Path]) -> None:
    page = report[1].read_text(encoding="utf-8")
    for heading in HEADINGS:
        assert heading in page
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(images) >= 2
    assert base64.b64decode(images[0]).startswith(b"\x89PNG\r\n\x1a\n")


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write_model(tmp_path / "runs", "model-a")
    assert main(["report", str(tmp_path / "runs"), "--out", str(tmp_path / "out"), "--iters", "50"]) == 0
    assert (tmp_path / "out" / "report.md").is_file() and (tmp_path / "out" / "report.html").is_file()
    assert "report.html" in capsys.readouterr().out


CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not on PATH (.ci/setup installs it)")
def test_html_renders_in_chromium(report: tuple[Path, Path], tmp_path: Path) -> None:
    """Headless Chromium, driven by Playwright, lays out every heading and decodes every plot; the screenshot shows
    ink inside each heading's and each image's box."""
    import matplotlib.image
    from playwright.sync_api import sync_playwright

    shot = tmp_path / "report.png"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(report[1].resolve().as_uri())
        headings, images = page.locator("h1, h2"), page.locator("img")
        assert headings.all_inner_texts() == list(HEADINGS)
        assert images.count() >= 2
        assert all(page.evaluate("[...document.images].map(i => i.complete && i.naturalWidth > 0)"))
        boxes = [loc.bounding_box() for loc in [*headings.all(), *images.all()]]
        page.screenshot(path=shot, full_page=True)
        browser.close()
    pixels = matplotlib.image.imread(shot)[..., :3]
    for box in boxes:
        x, y, w, h = (round(box[k]) for k in ("x", "y", "width", "height"))
        crop = pixels[y : y + h, x : x + w]
        assert crop.size and crop.std() > 0.05, f"nothing drawn in the screenshot at {box}"


def test_report_of_a_real_lm_eval_run(tiny_model: Path, data_root: Path, tmp_path: Path) -> None:
    """On lm_eval's own output (NSP direct and log-likelihood, English and Hausa, random model): every number in
    results_*.json is in the report, with n = the documents logged, and the English-minus-Hausa deltas match."""
    from support.common import run_cli

    runs = tmp_path / "runs"
    run_cli("lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32", "--device", "cpu",
            "--tasks", "nsp_english,nsp_hausa,nsp_english_ll,nsp_hausa_ll", "--limit", "6",
            "--gen_kwargs", "max_gen_toks=4", "--log_samples", "--output_path", str(runs),
            env={"LM_EVAL_XLING_DATA": str(data_root)})  # fmt: skip
    raw = json.loads(next(runs.rglob("results_*.json")).read_text(encoding="utf-8"))
    md = run_cli("lm-eval-xling", "report", str(runs), "--out", str(tmp_path / "report"), "--iters", "200")
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "report.html" in md.stdout
    model = local_reference(raw["model_name"])  # the tiny model's folder: named without its path
    assert raw["model_name"] not in text
    checked = 0
    for task in ("nsp_english", "nsp_hausa", "nsp_english_ll", "nsp_hausa_ll"):
        for key, value in raw["results"][task].items():
            metric, _, filt = key.partition(",")
            if not isinstance(value, float) or "_stderr" in metric:
                continue
            label = metric if filt == "none" else f"{metric} ({filt})"
            assert f"| {model} | {task} | {label} | {value:.4f} | " in text, (task, key)
            row = re.search(rf"\| {re.escape(model)} \| {task} \| {re.escape(label)} \| \S+ \| (.+?) \| (\d+) \|", text)
            assert row and row[2] == "6", (task, key)
            checked += 1
    assert checked >= 8
    assert "sample_len" not in text  # lm-eval's bookkeeping in results, not a metric
    for suffix, metric in (("", "acc (extract)"), ("_ll", "acc")):
        key = "acc,extract" if not suffix else "acc,none"
        diff = raw["results"][f"nsp_english{suffix}"][key] - raw["results"][f"nsp_hausa{suffix}"][key]
        row = f"| {model} | English vs Hausa | nsp_english{suffix} | nsp_hausa{suffix} | {metric} | {diff:.4f} |"
        assert row in text


def test_consistency_runs_sit_beside_accuracy(tmp_path: Path) -> None:
    """A `consistency run` folder adds its row (accuracy, T/I/X/rerun with CIs, collapsed items); the lm-eval runs of
    its stages (all of one task) are not read as task runs."""
    run = tmp_path / "nsp-en-sw"
    stage = run / "T" / "model"
    stage.mkdir(parents=True)
    (stage / f"results_{DATE}.json").write_text(json.dumps({"results": {"nsp_english_1k": {"acc,extract": 0.1}}}))
    cell = {"all": 0.6, "ci": {"all": [0.4, 0.8]}}
    report = {"task": "nsp", "direction": "en-sw", "accuracy": {"original": 0.55, "T": 0.5},
              "consistency": {"T": cell, "I": cell | {"all": 0.7}, "X": {"all": None, "ci": None}, "rerun": cell},
              "translation": {}, "collapsed": {"n": 2}}  # fmt: skip
    (run / "consistency.json").write_text(json.dumps(report), encoding="utf-8")
    md, _ = write_report([run], tmp_path / "out", iters=50)
    text = md.read_text(encoding="utf-8")
    assert "## Self-translation consistency" in text
    row = "| nsp | en-sw | 0.5500 | 0.5000 | 0.6000 [0.4000, 0.8000] | 0.7000 [0.4000, 0.8000] | n/a (no item in both"
    assert row in text
    assert "nsp_english_1k" not in text  # the T stage's accuracy is in the row, not a task run of its own


def test_two_runs_of_one_model_are_two_labelled_rows_with_their_difference(tmp_path: Path) -> None:
    """The same model run twice with different generation settings: never merged into one row; the second run's
    difference from the first comes with a paired interval, and the runs' settings are listed."""
    _write_model(tmp_path / "greedy", "model-a", {"temperature": 0})
    _write_model(tmp_path / "sampled", "model-b", {"temperature": 0.7})
    for path in (tmp_path / "sampled" / "model-b").iterdir():  # model-b's numbers, as another run of model-a
        path.write_text(path.read_text(encoding="utf-8").replace("model-b", "model-a"), encoding="utf-8")
    md = write_report([tmp_path / "greedy", tmp_path / "sampled"], tmp_path / "out", iters=200)[0].read_text()
    greedy, sampled = "model-a [gen_kwargs temperature=0]", "model-a [gen_kwargs temperature=0.7]"
    assert f"| {greedy} | nsp_english | acc | {16 / N:.4f} |" in md
    assert f"| {sampled} | nsp_english | acc | {18 / N:.4f} |" in md
    assert f"| {greedy} | model-a | none | temperature=0 |" in md.split("## Runs", 1)[1]
    differences = md.split("## Differences between runs", 1)[1]
    assert f"A: {greedy}." in differences
    row = re.search(
        rf"\| {re.escape(sampled)} \| nsp_english \| acc \| 0.8000 \| 0.9000 \| 0.1000 \| \[(\S+), (\S+)\]", md
    )
    assert row and 0 <= float(row[1]) <= 0.1 <= float(row[2])  # two documents gained, none lost
    assert "base64," not in md and (tmp_path / "out" / "nsp.png").read_bytes().startswith(b"\x89PNG")


def test_n_counts_the_documents_a_corpus_metric_was_computed_on(tmp_path: Path) -> None:
    """A corpus-level metric (BLEU's per-document tuples, aggregated once) has no per-document number, yet it was
    computed on every logged document: its n says so."""
    _write_model(tmp_path / "runs", "model-a")
    folder = tmp_path / "runs" / "model-a"
    samples = folder / f"samples_nsp_english_{DATE}.jsonl"
    lines = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    for sample in lines[:8]:
        sample["metrics"].append("bleu")
        sample["bleu"] = ["the reference", "the prediction"]
    samples.write_text("".join(json.dumps(sample) + "\n" for sample in lines), encoding="utf-8")
    results = folder / f"results_{DATE}.json"
    data = json.loads(results.read_text(encoding="utf-8"))
    data["results"]["nsp_english"]["bleu,none"] = 12.5
    data["configs"]["nsp_english"]["metric_list"].append({"metric": "bleu", "aggregation": "bleu"})
    results.write_text(json.dumps(data), encoding="utf-8")
    md, _ = write_report([tmp_path / "runs"], tmp_path / "report", iters=50)
    assert re.search(r"\| model-a \| nsp_english \| bleu \| 12\.5000 \| [^|]+ \| 8 \|", md.read_text(encoding="utf-8"))


def test_a_nan_metric_is_shown_as_na_with_its_reason(tmp_path: Path) -> None:
    _write_model(tmp_path, "model-a")
    results = next((tmp_path / "model-a").glob("results_*.json"))
    data = json.loads(results.read_text(encoding="utf-8"))
    data["results"]["ynq_english"]["rouge,none"] = float("nan")
    results.write_text(json.dumps(data), encoding="utf-8")
    md = write_report([tmp_path], tmp_path / "out", iters=50)[0].read_text(encoding="utf-8")
    assert "| model-a | ynq_english | rouge | n/a (NaN: nothing to average) | n/a | 0 |" in md
    assert "nan |" not in md.lower().replace("n/a (nan", "")


def test_a_share_outside_zero_one_is_refused_naming_the_file(tmp_path: Path) -> None:
    _write_model(tmp_path, "model-a")
    results = next((tmp_path / "model-a").glob("results_*.json"))
    data = json.loads(results.read_text(encoding="utf-8"))
    data["results"]["nsp_hausa"]["acc,none"] = 7.5
    results.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ReportError, match=rf"{re.escape(str(results))}: nsp_hausa: metric acc,none is 7.5, outside"):
        write_report([tmp_path], tmp_path / "out", iters=50)


def test_a_figure_the_task_reports_with_its_interval_is_shown_with_it() -> None:
    """QUENCH's jury corrected with human labels is a corpus-level figure with its own interval: the report's row and
    the gap the task computes carry that interval, never a bare number."""
    from lm_eval_xling.reports.gap import TaskRun, deltas, metric_rows

    results = {"jury_lee,extract": 61.0, "jury_lee_ci_low,extract": 48.5, "jury_lee_ci_high,extract": 72.0}
    results |= {"jury_lee_delta,extract": -9.0, "jury_lee_delta_ci_low,extract": -30.0}
    results |= {"jury_lee_delta_ci_high,extract": 12.0}
    run = TaskRun("m", "quench", results, scored={key: 40 for key in results})
    rows, _ = metric_rows([run])
    assert [(r.metric, r.value, r.ci) for r in rows] == [("jury_lee (extract)", 61.0, (48.5, 72.0))]
    (gap,) = deltas([run])
    assert (gap.value, gap.ci) == (-9.0, (-30.0, 12.0))
