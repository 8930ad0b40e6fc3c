"""X-PARADE tasks: the built dataset, the reply parser, and scoring through lm-eval's own evaluate."""

from __future__ import annotations

import json

import pytest
from support.common import RAW

from lm_eval_xling.data.builders import builders
from lm_eval_xling.results.logs import doc_hash
from lm_eval_xling.results.replay import score_samples
from lm_eval_xling.xparade.spans import read_span_lists
from lm_eval_xling.xparade.tasks import gold_answer, gold_spans, load

needs_xparade = pytest.mark.skipif(not (RAW / "xparade").is_dir(), reason=f"X-PARADE raw data not found at {RAW}")

PAPER_COUNTS = {"en-es": (93, 93), "es-en": (93, 93), "en-hi": (95, 96), "hi-en": (95, 96), "en-zh": (100, 99),
                "zh-en": (100, 99)}  # fmt: skip


@needs_xparade
def test_real_dataset_has_the_papers_counts(tmp_path):
    counts = builders()["xparade"].build(RAW, tmp_path)
    assert counts == {
        f"{d}/{s}": n for d, (dev, test) in PAPER_COUNTS.items() for s, n in (("dev", dev), ("test", test))
    }


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("New:\n- the old city\n- in 1820\nInferable:\n- a king",
         {"new": ["the old city", "in 1820"], "inf": ["a king"]}),
        ("**New information:**\n1. \"the old city\"\n\n**Inferable:** none", {"new": ["the old city"], "inf": []}),
        ("Here are the spans.\nNew: in 1820\nInferable:\n* named after a king.",
         {"new": ["in 1820"], "inf": ["named after a king."]}),
        ("新:\n- 老城", {"new": ["老城"], "inf": []}),
        ("New:\nnone\nInferable:\nNone.", {"new": [], "inf": []}),
        ("", {"new": [], "inf": []}),
    ],
)  # fmt: skip
def test_read_span_lists(reply, expected):
    reading = read_span_lists(reply)  # each piece's first reading: the text as written
    assert {"new": [p[0][0] for p in reading.new], "inf": [p[0][0] for p in reading.inf]} == expected


def _log(tmp_path, task, docs, replies):
    path = tmp_path / f"samples_{task}_2026-01-01T00-00-00.000000.jsonl"
    lines = [json.dumps({"doc_id": i, "doc": d, "resps": [[r]], "doc_hash": doc_hash(d)}, ensure_ascii=False)
             for i, (d, r) in enumerate(zip(docs, replies, strict=True))]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("task", "direction"), [("xparade_es_en", "es-en"), ("xparade_en_zh", "en-zh")])
def test_gold_spans_score_perfectly_and_bogus_spans_are_counted(tmp_path, local_data, task, direction):
    docs = load(direction)["test"].to_list()
    perfect = score_samples(_log(tmp_path, task, docs, [gold_answer(d) for d in docs]))["results"][task]
    if direction == "es-en":
        assert perfect["macro_f1,spans"] == pytest.approx(1.0)
        assert perfect["unmatched_span_rate,spans"] == 0.0
    else:  # a gold span that is only "。" cannot be placed (unmatched) and a recurring one marks every occurrence
        assert 0.9 < perfect["new_f1,spans"] < 1.0
        assert perfect["unmatched_span_rate,spans"] == pytest.approx(2 / 8)  # 8 gold spans, two are "。"

    replies = [f"New:\n- {gold_spans(d, 'new')[0]}\n- text that is nowhere\nInferable:\nnone" for d in docs]
    partial = score_samples(_log(tmp_path, task, docs, replies))["results"][task]
    assert partial["new_precision,spans"] == pytest.approx(1.0)
    assert 0 < partial["new_recall,spans"] < 1
    assert partial["unmatched_span_rate,spans"] == pytest.approx(0.5)


def test_replies_without_lists_are_counted_not_read_as_all_same(tmp_path, local_data):
    """`unreadable` is the share of documents whose reply held no list; a JSON answer and a pasted paragraph with its
    new part in bold are read (the paragraph is not one span), and both score like the plain answer."""
    docs = [d for d in load("es-en")["test"].to_list() if gold_spans(d, "new")][:3]
    first = [gold_spans(d, "new")[0] for d in docs]
    replies = [
        "I'm sorry, but I can't help with comparing these paragraphs.",
        json.dumps({"new": [first[1]], "inferable": []}),
        "The new part is in bold:\n\n" + docs[2]["target"].replace(first[2], f"**{first[2]}**", 1),
    ]
    scored = score_samples(_log(tmp_path, "xparade_es_en", docs, replies))["results"]["xparade_es_en"]
    assert scored["unreadable,spans"] == pytest.approx(1 / 3)
    assert scored["new_precision,spans"] == pytest.approx(1.0)  # not the whole pasted paragraph


def test_baselines_json_names_a_skipped_baseline(local_data, monkeypatch, capsys):
    """A missing optional package (krippendorff) skips its number only; --json says so beside the JSON."""
    import sys

    from lm_eval_xling.cli import main

    monkeypatch.setitem(sys.modules, "krippendorff", None)
    assert main(["xparade-baselines", "--split", "dev", "--align_encoder", "none", "--json"]) == 0
    out, err = capsys.readouterr()
    assert set(json.loads(out)) == {"majority", "human", "human_3way", "human_inf"}
    assert "note: alignment skipped: no encoder asked for" in err
    assert "note: Krippendorff's alpha skipped: pip install krippendorff" in err
