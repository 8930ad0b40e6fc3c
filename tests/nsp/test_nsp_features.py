"""NSP option features: batched masked perplexity against the paper's per-row procedure, similarity, the CLI."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from support.common import run_cli

from lm_eval_xling.nsp import features as nf
from lm_eval_xling.nsp.factors import read_features
from lm_eval_xling.redact import public_name

PAIRS = [
    ("The child walked to the river. The goat sang.", "A small red house 0-3."),
    ("Mama alipata mbuzi.", "Mtoto alitembea sokoni kwa mama yake na mbuzi mdogo."),
    ("The mother found a tree. The market was small and the river was red and the goat walked.", "The end."),
]


@pytest.fixture(scope="module")
def lm(tiny_model):
    return nf.load_lm(tiny_model, device="cpu")


@pytest.fixture(scope="module")
def use():
    return nf.load_embedder("use")


def test_context_once_perplexity_matches_per_row_reference(lm):
    contexts = [c for c, _ in PAIRS]
    options = [(o, PAIRS[(i + 1) % len(PAIRS)][1]) for i, (_, o) in enumerate(PAIRS)]
    batched = nf.option_perplexities(lm, contexts, options)
    pairs = zip(contexts, options, strict=True)
    reference = [[nf.option_perplexity_reference(lm, c, o) for o in pair] for c, pair in pairs]
    assert np.asarray(batched) == pytest.approx(np.asarray(reference), rel=1e-4)
    assert all(p > 1 for pair in batched for p in pair)


def test_options_whose_encodings_differ_inside_the_context_match_the_reference(lm):
    class BoundaryMerging:  # as a tokenizer merging across the " " can: the pair's context tokens depend on the option
        pad_token_id = eos_token_id = None

        def __call__(self, text):
            ids = lm.tokenizer(text)["input_ids"]
            if "|" not in text:
                return {"input_ids": ids}
            last = len(lm.tokenizer(text.split(" |")[0])["input_ids"]) - 2  # inside the cached prefix
            return {"input_ids": [*ids[:last], len(text) % 50, *ids[last + 1 :]]}

    merging = nf.CausalLM(lm.model, BoundaryMerging(), lm.device)
    context, options = "The goat sang by the river.", ("|The end.", "|The child walked home.")
    [pair] = nf.option_perplexities(merging, [context], [options])
    assert pair == pytest.approx([nf.option_perplexity_reference(merging, context, o) for o in options], rel=1e-4)


def test_padding_does_not_change_a_rows_perplexity(lm):
    short = ("The goat sang.", ("The child walked.", "The market."))
    long = (" ".join(["The mother found a small red house by the river."] * 12), ("The market was small.", "Yes."))
    alone = nf.option_perplexities(lm, [short[0]], [short[1]])[0]
    padded = nf.option_perplexities(lm, [short[0], long[0]], [short[1], long[1]])[0]
    assert padded == pytest.approx(alone, rel=1e-4)


def test_similarity_of_a_sentence_to_itself_is_one(use):
    a = ["The goat walked to the river.", "Mtoto alitembea sokoni."]
    b = ["The goat walked to the river.", "The stock market closed lower on Friday."]
    sims = nf.cosine(use(a), use(b))
    assert sims[0] == pytest.approx(1.0, abs=1e-5)
    assert sims[1] < 0.9


def test_delta_signs_favour_option_a(lm):
    def encode(texts):  # context e0; option A equals the context's vector, option B is orthogonal
        n = len(texts) // 3
        return np.array([[1.0, 0.0]] * (2 * n) + [[0.0, 1.0]] * n)

    row = {"id": "x", "context": "The goat sang.", "context_length": 3, "distractor_distance": 2}
    row |= {"distractor_length": 4, "option_a": "The child walked.", "option_b": "The market", "label": "A"}
    [[record]] = list(nf.feature_batches([row], lm, encode))
    assert list(record) == list(nf.COLUMNS)
    assert (record["sim_a"], record["sim_b"]) == pytest.approx((1.0, 0.0))
    assert record["delta_semantic_similarity"] == pytest.approx(1.0)
    assert record["delta_perplexity"] == pytest.approx(record["ppl_b"] - record["ppl_a"])
    swapped = row | {"option_a": row["option_b"], "option_b": row["option_a"]}
    [[other]] = list(nf.feature_batches([swapped], lm, encode))
    assert other["delta_perplexity"] == pytest.approx(-record["delta_perplexity"], rel=1e-4)


def test_lm_settings_per_language_shared_and_default():
    def embedded():
        return "/embedded"

    assert nf.parse_lm_settings(["/m"], ["en", "sw"], embedded) == {"en": "/m", "sw": "/m"}
    assert nf.parse_lm_settings(["/m", "sw=/s"], ["en", "sw"], embedded) == {"en": "/m", "sw": "/s"}
    assert nf.parse_lm_settings(["en=/e"], ["en", "ha"], embedded) == {"en": "/e", "ha": "/embedded"}
    assert nf.parse_lm_settings([], ["ha"], embedded) == {"ha": "/embedded"}


def test_torn_last_line_is_cut_off(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b"}\n{"id": "c', encoding="utf-8")
    assert nf.done_ids(path) == {"a", "b"}
    assert path.read_text(encoding="utf-8") == '{"id": "a"}\n{"id": "b"}\n'


@pytest.mark.parametrize(
    "text, line",
    [('{"id": "a"}\n{"id": "b"}\n# a comment\n{"id": "c"}\n', 3), ('{"id": "a"}\nnot json\n', 2)],
)
def test_a_bad_line_inside_the_file_stops_the_run_and_keeps_every_row(tmp_path, text, line):
    path = tmp_path / "f.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(nf.FeaturesError, match=rf"f.jsonl: line {line}: not a feature row"):
        nf.done_ids(path)
    assert path.read_text(encoding="utf-8") == text


def test_blank_lines_are_no_rows_and_no_errors(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"id": "a"}\n\n{"id": "b"}\n', encoding="utf-8")
    assert nf.done_ids(path) == {"a", "b"}


def test_a_utf16_copy_stops_the_run_and_is_left_whole(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b"}\n', encoding="utf-16")
    size = path.stat().st_size
    with pytest.raises(nf.FeaturesError, match="line 1: not a feature row"):
        nf.done_ids(path)
    assert path.stat().st_size == size


def _features(lm_path, *extra):
    args = ["--subset", "sw", "--lm", f"sw={lm_path}", "--embedder", "use", "--batch-size", "2", *extra]
    return run_cli("lm-eval-xling", "nsp-features", *args).stdout


def test_cli_writes_next_to_the_dataset_and_resumes(local_data, tiny_model):
    path = local_data / "lm-eval-xling" / "nsp" / "sw" / "test.features.jsonl"
    path.unlink(missing_ok=True)
    try:
        out = _features(tiny_model, "--limit", "3")  # a run killed after its first rows
        assert "computed 3 rows" in out
        first = path.read_text(encoding="utf-8")
        out = _features(tiny_model, "--limit", "6")
        assert "computed 3 rows (3 done already, 6 in all)" in out
        text = path.read_text(encoding="utf-8")
        assert text.startswith(first)
        records = [json.loads(line) for line in text.splitlines()]
        assert [list(r) for r in records] == [list(nf.FILE_COLUMNS)] * 6
        assert {(r["lm"], r["embedder"]) for r in records} == {(public_name(str(tiny_model)), "use")}
        assert str(tiny_model.parent) not in text  # the features file is shared: it names no local path
        assert len({r["id"] for r in records}) == 6
        assert all(r["ppl_a"] > 1 and r["ppl_b"] > 1 and -1 <= r["sim_a"] <= 1 for r in records)
        out = _features(tiny_model, "--limit", "6")
        assert "nothing new to compute (6 done already" in out
        assert path.read_text(encoding="utf-8") == text
    finally:
        path.unlink(missing_ok=True)


def test_two_writers_of_one_file_write_each_id_once(tmp_path, monkeypatch, capsys):
    """The second run waits for the first, then finds everything done; nsp-factors accepts the file."""

    def slow_batches(rows, lm, encode, batch_size):
        for row in rows:
            time.sleep(0.02)  # long enough for both runs to have read the file before the first row is written
            yield [{column: 1.0 for column in nf.COLUMNS} | {"id": row["id"], "label": "A"}]

    monkeypatch.setattr(nf, "feature_batches", slow_batches)
    path = tmp_path / "sw" / "test.features.jsonl"
    rows = [{"id": f"sw-{i}"} for i in range(10)]
    source = {"lm": "m", "embedder": "use"}
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(nf.write_features, rows, path, dict, dict, source, progress=False) for _ in range(2)]
        results = sorted(run.result() for run in runs)
    assert results == [(0, 10), (10, 0)]
    assert "another nsp-features run is writing it; waiting" in capsys.readouterr().err
    ids = [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert sorted(ids) == sorted(r["id"] for r in rows)
    assert len(read_features([path])) == 10
