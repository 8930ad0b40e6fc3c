"""`consistency run` on NSP Global: the human translations are the references, paired with the source questions by
their `id` (a language may lack some stories, so positions differ), and a question without one is counted."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from support.common import run_cli
from support.storybooks_data import write_synthetic_storybooks

from lm_eval_xling.errors import UserError
from lm_eval_xling.nsp_global.languages import LANGUAGES
from lm_eval_xling.xsense import pipeline, translation
from lm_eval_xling.xsense.declarations import DECLARATIONS, find
from lm_eval_xling.xsense.pipeline import Run

NSP_GLOBAL = DECLARATIONS["nsp_global"]


def _doc(qid: str, mark: str = "") -> dict:
    return {"id": qid, "context": f"{mark}The goat ran to the river.", "option_a": f"{mark}It drank.",
            "option_b": f"{mark}It flew.", "label": "A"}  # fmt: skip


def _plan(tmp_path: Path, monkeypatch, targets: list[dict], task: str = "nsp_global_en", target: str = "sw") -> Run:
    """A run whose target-language task holds `targets`."""
    plan = Run("hf", "pretrained=m", task, "en", target, tmp_path)
    expected = plan.declaration.task(target)

    def task_docs(name: str, include_path: list[str]) -> list[dict]:
        assert name == expected
        return targets

    monkeypatch.setattr(pipeline, "task_docs", task_docs)
    return plan


def test_every_language_task_finds_the_declaration():
    assert find("nsp_global_sw") == (NSP_GLOBAL, "sw")
    assert find("nsp_global") == (NSP_GLOBAL, None)
    assert NSP_GLOBAL.tasks == {language: f"nsp_global_{language}" for language in LANGUAGES}
    assert NSP_GLOBAL.parallel and NSP_GLOBAL.pair_field == "id"
    assert (
        NSP_GLOBAL.options == ("option_a", "option_b") and NSP_GLOBAL.sentences == ()
    )  # whole contexts: their human versions align by page
    assert set(NSP_GLOBAL.instruction("en")) == {"nsp_intro", "nsp_question", "nsp_answer"}
    plan = Run("hf", "pretrained=m", "nsp_global_en", "en", "sw", Path("out"))
    assert plan.declaration is NSP_GLOBAL and plan.source_task == "nsp_global_en"
    assert DECLARATIONS["xstorycloze"].pair_field is None  # by position, as before


def test_references_pair_by_id_not_by_position(tmp_path, monkeypatch, capsys):
    docs = {0: _doc("0001-00-03"), 1: _doc("0002-00-03"), 2: _doc("0003-01-04")}
    # the target lacks story 2 and lists story 3 first: by position, doc 0 would get story 3's question
    targets = [_doc("0003-01-04", "SW3 "), _doc("0001-00-03", "SW1 ")]
    plan = _plan(tmp_path, monkeypatch, targets)
    refs = pipeline.references(plan, docs)
    assert refs == {0: targets[1], 2: targets[0]}
    assert "1 of 3 documents have no id in nsp_global_sw" in capsys.readouterr().out

    requests = {r["key"]: r["reference"] for r in translation.requests(NSP_GLOBAL, docs, "en", "sw", refs)}
    assert requests["0/option_a"] == "SW1 It drank." and requests["2/option_b"] == "SW3 It flew."
    assert requests["1/option_a"] is None and requests["1/context"] is None
    texts = {key: f"MT[{key}]" for key in requests}
    inputs = translation.inputs(NSP_GLOBAL, docs, texts, "sw")
    items, language, reference = pipeline.quality_items(plan, docs, inputs, refs, texts, None)
    assert (language, reference) == ("sw", "human") and set(items) == {0, 2}  # no round trip for the missing one
    assert items[2] == [("MT[2/context]", "SW3 The goat ran to the river."), ("MT[2/option_a]", "SW3 It drank."),
                        ("MT[2/option_b]", "SW3 It flew.")]  # fmt: skip


def test_a_declaration_without_pair_field_pairs_by_position(tmp_path, monkeypatch):
    docs = {0: {"sentence1": "a"}, 1: {"sentence1": "b"}}
    targets = [{"sentence1": "A"}, {"sentence1": "B"}]
    plan = _plan(tmp_path, monkeypatch, targets, task="xsense_pawsx", target="de")
    assert pipeline.references(plan, docs) == {0: targets[0], 1: targets[1]}
    with pytest.raises(UserError, match="xsense_pawsx_de has 2 documents, no 2"):
        pipeline.references(plan, docs | {2: {"sentence1": "c"}})


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ([_doc("0001-00-03"), {"context": "x"}], "nsp_global_sw document 1: no field 'id'"),
        ([_doc("0001-00-03"), _doc("0001-00-03")], "nsp_global_sw document 1: id '0001-00-03' again"),
    ],
)
def test_target_documents_that_cannot_be_paired_are_refused(tmp_path, monkeypatch, targets, message):
    plan = _plan(tmp_path, monkeypatch, targets)
    with pytest.raises(UserError, match=message):
        pipeline.references(plan, {0: _doc("0001-00-03")})


@pytest.fixture(scope="module")
def storybooks(tmp_path_factory) -> Path:
    """NSP Global built from the synthetic storybooks: English 34 questions (stories 1 and 2), Swahili story 1's 28
    (its story 2 is misaligned)."""
    raw = write_synthetic_storybooks(tmp_path_factory.mktemp("raw"))
    out = tmp_path_factory.mktemp("data")
    run_cli("lm-eval-xling", "data", "build", "--raw", str(raw), "--out", str(out), "--only", "nsp_global")
    return out


@pytest.mark.slow
def test_consistency_run_scores_against_the_human_translation(tmp_path, storybooks):
    out = tmp_path / "run"
    proc = run_cli(
        "lm-eval-xling", "consistency", "run", "--model", "dummy", "--model_args", "", "--task", "nsp_global_en",
        "--src", "en", "--tgt", "sw", "--output_path", str(out),
        env={"LM_EVAL_XLING_DATA": str(storybooks)},
    )  # fmt: skip
    assert "| nsp_global | en-sw |" in proc.stdout
    report = json.loads((out / "consistency.json").read_text("utf-8"))
    assert report["task"] == "nsp_global" and report["direction"] == "en-sw"
    assert set(report["consistency"]) == {"rerun", "T", "I", "X"}  # no native Swahili instruction: no I_native
    english, swahili = (
        pq.read_table(storybooks / "lm-eval-xling" / "nsp_global" / language / "test.parquet").to_pylist()
        for language in ("en", "sw")
    )
    by_id = {doc["id"]: doc for doc in swahili}
    unpaired = [i for i, doc in enumerate(english) if doc["id"] not in by_id]
    assert len(english) == 34 and len(unpaired) == 6
    translation_ = report["translation"]
    assert translation_["reference"] == "human" and not (out / "round_trip").exists()
    assert translation_["no_reference"] == {"n": 6, "doc_ids": unpaired}
    assert translation_["sentences"] == 3 * 28  # each paired question's three inputs, whole
    requests = [json.loads(line) for line in (out / "translate" / "requests.jsonl").read_text("utf-8").splitlines()]
    for request in requests:
        doc_id, _, field = request["key"].partition("/")
        if doc_id != "instruction" and field in ("option_a", "option_b"):
            paired = by_id.get(english[int(doc_id)]["id"])
            assert request["reference"] == (paired[field] if paired else None), request["key"]


def test_every_nsp_global_language_has_an_english_translation_request():
    from lm_eval_xling.xsense.prompts import translation_prompt

    for language in LANGUAGES:
        if language != "en":
            translation.check_direction("en", language)
    assert (
        translation_prompt("Tall man.", "en", "am") == "Please translate the following text into Amharic: \nTall man."
    )
    with pytest.raises(UserError, match=r"unsupported direction am->en; .*en->adx, aeb, am"):
        translation.check_direction("am", "en")
