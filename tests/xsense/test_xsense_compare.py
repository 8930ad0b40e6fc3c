"""`consistency compare`: the paper's invalid-answer rule, refusing logs of other tasks or other documents, and
lm-eval's multiple-input tasks (xwinograd), whose correct/incorrect split needs the task's own metric."""

from __future__ import annotations

import json
import re

import pytest
from support.common import run_cli

from lm_eval_xling.nsp.tasks import load as load_nsp
from lm_eval_xling.quench.tasks import load_entities
from lm_eval_xling.results.logs import doc_hash
from lm_eval_xling.xsense.consistency import Answer, consistency, strict
from lm_eval_xling.xsense.tasks import load

STAMP = "2026-01-01T00-00-00.000000"


def _log(path, docs, replies):
    """A sample log of an xsense task as lm-eval writes it (filtered_resps stale: compare re-standardises)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        {
            "doc_id": i,
            "doc": doc,
            "target": doc["label"],
            "resps": [[reply]],
            "filtered_resps": ["0"],
            "filter": "standardize",
            "doc_hash": doc_hash(doc),
        }  # fmt: skip
        for i, (doc, reply) in enumerate(zip(docs, replies, strict=True))
    ]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def _compare(a, b, *flags, check=True):
    return run_cli("lm-eval-xling", "consistency", "compare", str(a), str(b), *flags, check=check)


# The 7-item example: A right on 0-2, wrong on 3-4, invalid on 5-6; B repeats A on 0, 1, 3, differs on 2 and 4,
# is invalid on 5 (with A) and answers 6. By hand: the paper's rule (invalid = invalid) counts item 5 as agreeing.
#   all: never 3/7 = 0.429, paper 4/7 = 0.571; correct (0-2): 2/3 both; incorrect (3-6): never 1/4, paper 2/4.
SEVEN = [("right", "same"), ("right", "same"), ("right", "other"), ("wrong", "same"), ("wrong", "other"),
         ("invalid", "invalid"), ("invalid", "right")]  # fmt: skip
HAND = {"paper": (4 / 7, 2 / 3, 2 / 4), "never": (3 / 7, 2 / 3, 1 / 4)}


def _seven_replies(docs):
    word = {1: "Yes.", 0: "No."}
    a, b = [], []
    for doc, (first, second) in zip(docs, SEVEN, strict=True):
        right, wrong = word[doc["label"]], word[1 - doc["label"]]
        reply_a = {"right": right, "wrong": wrong, "invalid": "I cannot tell."}[first]
        other = wrong if reply_a == right else right
        a.append(reply_a)
        b.append({"same": reply_a, "other": other, "invalid": "Maybe.", "right": right}[second])
    return a, b


def test_the_seven_item_example_under_both_invalid_rules_in_memory():
    def answers(values, correct):
        return {i: Answer(v, c, "", None, "") for i, (v, c) in enumerate(zip(values, correct, strict=True))}

    a = answers(["1", "0", "1", "0", "1", None, None], [True] * 3 + [False] * 4)
    b = answers(["1", "0", "0", "0", "0", None, "0"], [True] * 7)
    for rule, (all_, correct, incorrect) in HAND.items():
        result = consistency(a, b, invalid_rule=rule)
        assert (result.all, result.correct, result.incorrect) == pytest.approx((all_, correct, incorrect))
        assert (result.invalid_a, result.invalid_b) == (2, 1)
    with pytest.raises(ValueError, match="invalid_rule"):
        consistency(a, b, invalid_rule="sometimes")


def test_the_seven_item_example_on_logs(tmp_path, local_data):
    docs = load("pawsx", "en")["test"].to_list()[:7]
    replies_a, replies_b = _seven_replies(docs)
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs, replies_a)
    b = _log(tmp_path / "b" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs, replies_b)
    for rule, (all_, correct, incorrect) in HAND.items():
        out = json.loads(_compare(a, b, "--json", "--invalid-rule", rule).stdout)
        assert (out["all"], out["correct"], out["incorrect"]) == pytest.approx((all_, correct, incorrect))
        assert (out["invalid_a"], out["invalid_b"], out["invalid_rule"]) == (2, 1, rule)
    assert "| all | 0.571 |" in _compare(a, b).stdout  # the paper's rule is the default


def test_translations_that_are_not_a_translation_log_are_named(tmp_path, local_data):
    docs = load("pawsx", "en")["test"].to_list()[:7]
    replies_a, replies_b = _seven_replies(docs)
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs, replies_a)
    b = _log(tmp_path / "b" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs, replies_b)
    proc = _compare(a, b, "--translations", str(a), check=False)  # a task log, not an xsense_translate one
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"{a} doc_id 0: field 'doc.target_language' is missing; not an xsense_translate sample log" in proc.stderr


def test_refuses_a_pawsx_log_against_an_xnli_log(tmp_path, local_data):
    pawsx = load("pawsx", "en")["test"].to_list()[:4]
    xnli = load("xnli", "en")["test"].to_list()[:4]
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", pawsx, ["Yes"] * 4)
    b = _log(tmp_path / "b" / f"samples_xsense_xnli_en_{STAMP}.jsonl", xnli, ["A"] * 4)
    proc = _compare(a, b, "--json", check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "different tasks: xsense_pawsx_en (family xsense_pawsx) and xsense_xnli_en" in proc.stderr


def test_refuses_an_nsp_log_against_an_xsense_log_in_one_line(tmp_path, local_data):
    pawsx = load("pawsx", "en")["test"].to_list()[:4]
    nsp = load_nsp("en")["test"].to_list()[:4]
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", pawsx, ["Yes"] * 4)
    b = _log(tmp_path / "b" / f"samples_nsp_english_{STAMP}.jsonl", nsp, ["A"] * 4)
    proc = _compare(b, a, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "consistency compare: different tasks: nsp_english (family nsp) and xsense_pawsx_en (family xsense_pawsx); "
        "consistency compares the same items in two senses of one task\n"
    )


def test_refuses_logs_of_a_task_that_does_not_score_items_right_or_wrong(tmp_path, local_data):
    """QUENCH is scored by overlap and judges, not right or wrong per item: there is no consistency to split."""
    docs = load_entities()["test"].to_list()[:3]
    log = tmp_path / f"samples_quench_{STAMP}.jsonl"
    log.write_text("".join(json.dumps({"doc_id": i, "doc": d, "resps": [["<X Paris>"]]}) + "\n"
                           for i, d in enumerate(docs)))  # fmt: skip
    proc = _compare(log, log, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert re.fullmatch(
        rf"consistency compare: {re.escape(str(log))} doc_id 0: quench's metric '\w+' is a list, not 0 or 1; "
        r"consistency compares tasks that score each item right or wrong \(acc, acc_norm\)",
        proc.stderr.splitlines()[-1],
    )


def test_a_log_named_for_another_task_is_refused_until_its_task_is_given(tmp_path, local_data):
    docs = load("pawsx", "en")["test"].to_list()[:4]
    log = _log(tmp_path / f"samples_xsense_xnli_en_{STAMP}.jsonl", docs, ["Yes"] * 4)  # a PAWS-X log, misnamed
    proc = _compare(log, log, check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"consistency compare: {log}: its documents have no field 'premise' that task xsense_xnli_en reads; is this "
        "a log of xsense_xnli_en? (the task comes from the file name, or --task_a / --task_b)"
    )
    given = ("--task_a", "xsense_pawsx_en", "--task_b", "xsense_pawsx_en", "--json")
    assert json.loads(_compare(log, log, *given).stdout)["all"] == 1.0


def _report(**consistency) -> dict:
    return {"task": "pawsx", "direction": "en-de", "accuracy": {"original": 0.5},
            "translation": {"reference": "human", "bleu": 30.0}, "collapsed": {"n": 0},
            "consistency": {"rerun": {"all": 1.0}} | consistency}  # fmt: skip


def _table(run, text):
    run.mkdir(exist_ok=True)
    (run / "consistency.json").write_text(text, encoding="utf-8")
    return run_cli("lm-eval-xling", "consistency", "table", str(run), check=False)


def test_table_of_a_torn_or_foreign_report_names_the_file(tmp_path):
    run = tmp_path / "run"
    text = json.dumps(_report(T={"all": 0.5}))
    path = run / "consistency.json"
    for written, message in [
        (text[: len(text) // 2], f"{path}: not readable as JSON (Unterminated string starting at: line 1 "),
        ("[]", f"{path}: the report: expected an object, got []"),
        (json.dumps(_report() | {"consistency": None}), f"{path}: field 'consistency': expected an object, got None"),
        (json.dumps(_report(T=0.5)), f"{path}: field 'consistency.T': expected an object, got 0.5"),
    ]:
        proc = _table(run, written)
        assert proc.returncode == 2 and proc.stdout == "", written
        assert len(proc.stderr.splitlines()) == 1 and proc.stderr.startswith(f"consistency table: {message}")


def test_table_shows_an_undefined_number_as_n_a_with_its_reason(tmp_path):
    """null (every item collapsed), and NaN or Infinity as an older or edited report may hold them."""
    report = _report(T={"all": float("nan")}, I={"all": 0.25}, X={"all": None, "n": 0})
    report["translation"]["bleu"] = float("inf")
    proc = _table(tmp_path / "run", json.dumps(report))
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[-1] == (
        "| pawsx | en-de | 0.500 | n/a (no item in both runs) | 0.250 | n/a (no item in both runs) | 1.000 | "
        "n/a (no reference translations) | - | 0 |"
    )


def test_refuses_two_logs_of_different_documents(tmp_path, local_data):
    docs = load("pawsx", "en")["test"].to_list()
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs[:4], ["Yes"] * 4)
    b = _log(tmp_path / "b" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs[4:8], ["Yes"] * 4)
    proc = _compare(a, b, check=False)
    assert proc.returncode == 2
    assert "different documents: 4 of 4 shared doc_ids differ" in proc.stderr and "0 matched" in proc.stderr
    # one edited document is enough
    c = _log(tmp_path / "c" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs[:3] + docs[5:6], ["Yes"] * 4)
    proc = _compare(a, c, check=False)
    assert proc.returncode == 2 and "1 of 4 shared doc_ids differ" in proc.stderr and "3 matched" in proc.stderr


def test_a_translated_log_matches_by_the_dataset_id(tmp_path, local_data):
    en = load("pawsx", "en")["test"].to_list()[:4]
    de = load("pawsx", "de")["test"].to_list()[:4]
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", en, ["Yes", "No", "Yes", "No"])
    b = _log(tmp_path / "b" / f"samples_xsense_pawsx_de_{STAMP}.jsonl", de, ["Ja", "Nein", "Nein", "Nein"])
    out = json.loads(_compare(a, b, "--json").stdout)
    assert out["matched"] == {"doc_hash": 0, "id": 4, "gold": 0} and out["all"] == 0.75
    assert out["tasks"] == ["xsense_pawsx_en", "xsense_pawsx_de"]


def test_json_is_strict_where_a_share_is_undefined(tmp_path, local_data):
    docs = load("pawsx", "en")["test"].to_list()[:3]
    wrong = ["No." if d["label"] else "Yes." for d in docs]  # A gets every item wrong: no "correct" share
    a = _log(tmp_path / "a" / f"samples_xsense_pawsx_en_{STAMP}.jsonl", docs, wrong)
    out = _compare(a, a, "--json").stdout
    assert "NaN" not in out and json.loads(out)["correct"] is None
    text = _compare(a, a).stdout
    assert "| correct | n/a (A got no item right) | n/a |" in text and "nan" not in text
    assert strict({"x": [float("nan"), 1.0, float("inf")]}) == {"x": [None, 1.0, None]}


# xwinograd in lm-eval's layout (Muennighoff/xwinograd): our own Winograd-style items, English and French.
XWINOGRAD = {
    "en": [
        ("The trophy does not fit into the suitcase because _ is too big.", "the trophy", "the suitcase", "1"),
        (
            "The lawyer asked the witness a question, but _ was reluctant to answer it.",
            "the lawyer",
            "the witness",
            "2",
        ),
        ("The cat chased the mouse until _ was tired of running away.", "the cat", "the mouse", "2"),
        ("Anna thanked Maria because _ had helped her with the move.", "Anna", "Maria", "2"),
    ],
    "fr": [
        ("Le trophée ne rentre pas dans la valise car _ est trop grand.", "le trophée", "la valise", "1"),
        ("L'avocat a posé une question au témoin, mais _ hésitait à y répondre.", "l'avocat", "le témoin", "2"),
        ("Le chat a poursuivi la souris jusqu'à ce que _ soit fatiguée de fuir.", "le chat", "la souris", "2"),
        ("Anna a remercié Maria parce que _ l'avait aidée à déménager.", "Anna", "Maria", "2"),
    ],
}
_XWINOGRAD_OVERRIDE = """group: xwinograd_local_{lang}
task:
  - task: xwinograd_{lang}
    dataset_path: json
    dataset_name: null
    dataset_kwargs:
      data_files:
        test: {data}
"""


@pytest.mark.slow
def test_compare_works_on_xwinograd(tmp_path, tiny_model):
    """lm-eval's own xwinograd_en / xwinograd_fr (multiple inputs: the gold answer is a context index)."""
    logs = {}
    for lang, items in XWINOGRAD.items():
        data = tmp_path / f"xwinograd_{lang}.jsonl"
        keys = ("sentence", "option1", "option2", "answer")
        data.write_text("".join(json.dumps(dict(zip(keys, item, strict=True))) + "\n" for item in items))
        spec = tmp_path / f"xwinograd_{lang}.yaml"
        spec.write_text(_XWINOGRAD_OVERRIDE.format(lang=lang, data=data))
        out = tmp_path / lang
        run_cli("lm_eval", "--model", "hf", "--model_args", f"pretrained={tiny_model},dtype=float32", "--device",
                "cpu", "--tasks", str(spec), "--log_samples", "--output_path", str(out))  # fmt: skip
        logs[lang] = next(out.rglob(f"samples_xwinograd_{lang}_*.jsonl"))

    def rows(path):
        return {r["doc_id"]: r for r in map(json.loads, path.read_text().splitlines())}

    en, fr = rows(logs["en"]), rows(logs["fr"])
    pick = {lang: {i: max(range(2), key=lambda k: float(r["resps"][k][0][0])) for i, r in log.items()}
            for lang, log in (("en", en), ("fr", fr))}  # fmt: skip
    same = [pick["en"][i] == pick["fr"][i] for i in range(4)]
    right = [en[i]["acc"] == 1.0 for i in range(4)]
    out = json.loads(_compare(logs["en"], logs["fr"], "--json").stdout)
    assert out["n"] == 4 and out["metric"] == "acc" and out["matched"] == {"doc_hash": 0, "id": 0, "gold": 4}

    def share(items):
        return sum(items) / len(items) if items else None

    assert out["all"] == pytest.approx(share(same))
    assert out["correct"] == pytest.approx(share([s for s, r in zip(same, right, strict=True) if r]))
    assert out["incorrect"] == pytest.approx(share([s for s, r in zip(same, right, strict=True) if not r]))
