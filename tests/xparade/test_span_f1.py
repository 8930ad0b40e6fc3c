"""X-PARADE span matching and token-level metrics (lm_eval_xling.xparade.span_f1) on hand-written cases."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lm_eval_xling.xparade import span_f1
from lm_eval_xling.xparade.span_f1 import (
    INF,
    NEW,
    SAME,
    binary_new_prf,
    bootstrap_ci,
    match_span,
    three_way_prf,
    token_labels,
)
from lm_eval_xling.xparade.spans import resolve

EN = ["In", "women", "of", "childbearing", "age", ",", "use", "of", "AEDs", ",", "such", "as", "valproate", "."]
ES = ["En", "mujeres", "en", "edad", "fértil", ",", "el", "uso", "de", "FAE", "requiere", "cuidado", "."]
HI = ["मिर्गी", "एक", "दीर्घकालिक", "रोग", "है", "।", "इसका", "इलाज", "संभव", "है", "।"]
ZH = ["癫痫", "是", "一种", "慢性", "疾病", "。", "癫痫", "可以", "治疗", "。"]


# --- matching -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "span", "expected"),
    [
        # exact: whitespace between tokens does not matter, punctuation tokens are part of the run
        (EN, "use of AEDs,", [6, 7, 8, 9]),
        (EN, "childbearing age , use", [3, 4, 5, 6]),
        # tolerant: case and punctuation differ, punctuation tokens inside the span are covered
        (["use", "of", "AEDs", ","], "Use of AEDs", [0, 1, 2]),
        (EN, "Childbearing age use of AEDs.", [3, 4, 5, 6, 7, 8]),
        (ES, "EDAD FÉRTIL el uso", [3, 4, 5, 6, 7]),
        (ES, "edad fe\u0301rtil", [3, 4]),  # decomposed accent (NFKC)
        (ES, "«el  uso\nde FAE»", [6, 7, 8, 9]),
        # Devanagari: the danda written with or without a space before it
        (HI, "दीर्घकालिक रोग है।", [2, 3, 4, 5]),
        (HI, "रोग है । इसका", [3, 4, 5, 6]),
        (HI, "इलाज संभव है", [7, 8, 9]),
        # Chinese: no spaces, whole-token and partial matches
        (ZH, "是一种慢性疾病。", [1, 2, 3, 4, 5]),
        (ZH, "一种慢性疾病.", [2, 3, 4]),  # ASCII full stop for 。: tolerant tier
        (ZH, "痫是一", [0, 1, 2]),  # starts inside 癫痫, ends inside 一种: extended to whole tokens
        (ZH, "性疾", [3, 4]),  # across a token boundary, inside both tokens
        (ZH, "可以治", [7, 8]),
    ],
)
def test_match_span(tokens, span, expected):
    assert match_span(tokens, span) == expected


def test_combining_marks_are_kept():
    # Devanagari vowel signs (Mc/Mn) are letters of the word: "रग" is not "रोग"
    assert match_span(HI, "रग") == []
    assert match_span(HI, "रोग") == [3]
    assert match_span(["रोगी", "है"], "रोग") == [0]  # a word's first three letters: extended to the whole word
    assert match_span(["रोग", "है"], "रो") == []  # two characters are no word fragment


def test_combining_marks_in_tokens_of_their_own_are_matched_in_their_order():
    """Combining marks each in a token of its own, out of Unicode's order: NFKC of the whole span reorders them."""
    tokens = ["0", "0", "\u0301", "\u093c", "x"]
    assert match_span(tokens, "00\u0301\u093c") == [0, 1, 2, 3]  # the target's text: NFKC puts the nukta first
    assert token_labels(tokens, ["0\u0301\u093c"], [])[0].tolist() == [SAME, NEW, NEW, NEW, SAME]


def test_tiers_in_order():
    tokens = ["The", "cat", "saw", "the", "dog", "in", "winter"]
    assert match_span(tokens, "the") == [3]  # exact match wins over the case-insensitive one
    assert match_span(tokens, "THE") == [0, 3]  # tolerant: every occurrence
    assert match_span(tokens, "IN") == [5]  # a whole token is preferred over "in" inside "winter"
    assert match_span(tokens, "wint") == [6]  # partial, extended to the whole token
    assert match_span(tokens, "inte") == []  # strictly inside a token, touching neither of its ends


def test_repeated_span_marks_every_occurrence():
    assert match_span(ZH, "癫痫") == [0, 6]
    assert match_span(["a", "b", "a", "b", "a"], "a b a") == [0, 1, 2, 3, 4]  # overlapping occurrences too


@pytest.mark.parametrize("span", ["", "   ", " , . ", "。", "।", "\u200b"])
def test_empty_span_matches_nothing(span):
    assert match_span(ZH + HI + EN, span) == []


def test_span_not_in_text():
    assert match_span(EN, "carbamazepine") == []
    assert match_span(ZH, "癫痫病") == []
    assert match_span([], "anything") == []


def test_token_labels_new_wins_and_unmatched():
    labels, unmatched = token_labels(
        ZH, new_spans=["慢性疾病", "不存在"], inf_spans=["一种慢性", "可以治疗", "", "癫痫"]
    )
    assert labels.tolist() == [INF, SAME, INF, NEW, NEW, SAME, INF, INF, INF, SAME]
    assert unmatched == ["不存在", ""]


def test_token_labels_no_spans():
    labels, unmatched = token_labels(EN, [], [])
    assert labels.tolist() == [SAME] * len(EN) and unmatched == []


# --- metrics --------------------------------------------------------------------------------------------------------


def test_single_document_by_hand():
    gold, pred = [[1, 1, 0, 2]], [[1, 0, 1, 2]]
    # NEW: tp 1, predicted 2, gold 2; SAME: tp 0; INF: tp 1 of 1
    assert binary_new_prf(gold, pred) == pytest.approx({"precision": 0.5, "recall": 0.5, "f1": 0.5})
    scores = three_way_prf(gold, pred)
    assert scores == pytest.approx(
        {
            "same_precision": 0.0,
            "same_recall": 0.0,
            "same_f1": 0.0,
            "new_precision": 0.5,
            "new_recall": 0.5,
            "new_f1": 0.5,
            "inf_precision": 1.0,
            "inf_recall": 1.0,
            "inf_f1": 1.0,
            "macro_precision": 0.5,
            "macro_recall": 0.5,
            "macro_f1": 0.5,
        }
    )


def test_micro_over_documents_by_hand():
    gold = [[0, 0, 1, 1, 1], [2, 2, 0]]
    pred = [[0, 1, 1, 1, 0], [1, 2, 0]]
    # pooled pairs: (0,0) (0,1) (1,1) (1,1) (1,0) (2,1) (2,2) (0,0)
    # NEW: tp 2, predicted 4, gold 3; SAME: tp 2, predicted 3, gold 3; INF: tp 1, predicted 1, gold 2
    scores = three_way_prf(gold, pred)
    assert scores["new_precision"] == pytest.approx(2 / 4)
    assert scores["new_recall"] == pytest.approx(2 / 3)
    assert scores["new_f1"] == pytest.approx(4 / 7)
    assert scores["same_f1"] == pytest.approx(2 / 3)
    assert scores["inf_precision"] == pytest.approx(1.0)
    assert scores["inf_recall"] == pytest.approx(1 / 2)
    assert scores["inf_f1"] == pytest.approx(2 / 3)
    assert scores["macro_f1"] == pytest.approx((2 / 3 + 4 / 7 + 2 / 3) / 3)
    assert scores["macro_precision"] == pytest.approx((2 / 3 + 2 / 4 + 1) / 3)
    assert scores["macro_recall"] == pytest.approx((2 / 3 + 2 / 3 + 1 / 2) / 3)
    assert span_f1.confusion(gold, pred).tolist() == [[2, 1, 0], [1, 2, 0], [0, 1, 1]]
    # the binary view merges INF into the negatives: same P/R/F1 as the NEW class
    assert binary_new_prf(gold, pred) == pytest.approx({"precision": 0.5, "recall": 2 / 3, "f1": 4 / 7})


def test_inf_counts_as_negative_for_binary_new():
    # gold INF predicted NEW is a false positive; no gold NEW at all: recall has a zero denominator
    assert binary_new_prf([[2, 0]], [[1, 0]]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    # gold NEW predicted INF is a false negative
    assert binary_new_prf([[1, 1]], [[2, 1]]) == pytest.approx({"precision": 1.0, "recall": 0.5, "f1": 2 / 3})


def test_zero_denominators():
    scores = three_way_prf([[0, 0, 0]], [[0, 0, 0]])
    assert scores["same_f1"] == 1.0
    assert scores["new_precision"] == scores["new_recall"] == scores["new_f1"] == 0.0
    assert scores["inf_f1"] == 0.0
    assert scores["macro_f1"] == pytest.approx(1 / 3)
    assert three_way_prf([], []) == dict.fromkeys(span_f1.METRICS, 0.0)
    assert three_way_prf([[]], [[]])["new_f1"] == 0.0


def test_length_mismatch_names_the_document():
    with pytest.raises(ValueError, match=r"document 1: 3 gold labels but 2 predicted"):
        three_way_prf([[0], [0, 1, 2]], [[0], [0, 1]])
    with pytest.raises(ValueError, match="2 gold documents but 1 predicted"):
        binary_new_prf([[0], [1]], [[0]])
    with pytest.raises(ValueError, match="labels must be"):
        three_way_prf([[0, 3]], [[0, 1]])


def test_aggregations_match_three_way():
    gold = [[0, 0, 1, 1, 1], [2, 2, 0], [1, 2]]
    pred = [[0, 1, 1, 1, 0], [1, 2, 0], [2, 2]]
    items = list(zip(gold, pred, strict=True))
    scores = three_way_prf(gold, pred)
    for name in ("new_precision", "new_recall", "new_f1", "inf_precision", "inf_recall", "inf_f1", "same_f1"):
        assert getattr(span_f1, name)(items) == pytest.approx(scores[name])
    for name in ("macro_precision", "macro_recall", "macro_f1"):
        assert getattr(span_f1, name)(items) == pytest.approx(scores[name])
    # process_results may hand back numpy arrays or tuples as well as lists
    assert span_f1.new_f1([(np.array(g), tuple(p)) for g, p in items]) == pytest.approx(scores["new_f1"])
    assert span_f1.new_f1([]) == 0.0


# --- bootstrap ------------------------------------------------------------------------------------------------------


def _random_corpus(docs: int = 60, seed: int = 1):
    rng = np.random.default_rng(seed)
    gold = [rng.integers(0, 3, size=rng.integers(5, 40)).tolist() for _ in range(docs)]
    # predictions agree with gold 60 % of the time
    pred = [[g if rng.random() < 0.6 else int(rng.integers(0, 3)) for g in doc] for doc in gold]
    return gold, pred


@pytest.mark.parametrize("metric", ["new_f1", "new_precision", "new_recall", "macro_f1", "inf_f1"])
def test_bootstrap_contains_point_estimate(metric):
    gold, pred = _random_corpus()
    low, high = bootstrap_ci(gold, pred, metric, n=500)
    assert low < three_way_prf(gold, pred)[metric] < high
    assert 0.0 <= low < high <= 1.0


def test_bootstrap_is_deterministic_per_seed():
    gold, pred = _random_corpus()
    assert bootstrap_ci(gold, pred, "new_f1", seed=3) == bootstrap_ci(gold, pred, "new_f1", seed=3)
    assert bootstrap_ci(gold, pred, "new_f1", seed=3) != bootstrap_ci(gold, pred, "new_f1", seed=4)
    narrow, wide = bootstrap_ci(gold, pred, level=0.5), bootstrap_ci(gold, pred, level=0.99)
    assert wide[0] <= narrow[0] <= narrow[1] <= wide[1]


def test_bootstrap_collapses_on_identical_documents():
    gold, pred = [[1, 1, 0, 2, 0]] * 30, [[1, 0, 0, 1, 2]] * 30
    point = three_way_prf(gold, pred)["new_f1"]
    assert bootstrap_ci(gold, pred, "new_f1") == pytest.approx((point, point))


def test_bootstrap_rejects_bad_arguments():
    with pytest.raises(ValueError, match="unknown metric 'accuracy'"):
        bootstrap_ci([[0]], [[0]], "accuracy")
    with pytest.raises(ValueError, match="no documents"):
        bootstrap_ci([], [])
    with pytest.raises(ValueError, match="level"):
        bootstrap_ci([[0]], [[0]], level=1.5)


# --- fuzz -----------------------------------------------------------------------------------------------------------

LETTERS = "aAbBzZéÉßİ09" + "癫痫是一种慢性疾病可以治疗" + "मिर्गीएकरोगहैक़ॉ" + "\u0301"
PUNCT = ".,;:!?-()\"'«»।॥，。、《》“”…"
TOKEN = st.text(alphabet=LETTERS + PUNCT, min_size=1, max_size=6)
NOISE = st.text(alphabet=LETTERS + PUNCT + " \t\n\u00a0\u200b", max_size=15)


@st.composite
def tokens_and_span(draw):
    tokens = draw(st.lists(TOKEN, max_size=30))
    text = "".join(tokens)
    kind = draw(st.sampled_from(["run", "substring", "noise"]))
    run = None
    if kind == "run" and tokens:
        i = draw(st.integers(0, len(tokens) - 1))
        j = draw(st.integers(i + 1, len(tokens)))
        run, span = (i, j), draw(st.sampled_from(["", " ", "  \n"])).join(tokens[i:j])
    elif kind == "substring" and text:
        i = draw(st.integers(0, len(text) - 1))
        span = text[i : draw(st.integers(i, len(text)))]
    else:
        span = draw(NOISE)
    return tokens, span, run


@settings(max_examples=1000, deadline=None)
@given(tokens_and_span(), st.lists(NOISE, max_size=3), st.lists(NOISE, max_size=3))
def test_fuzz_token_labels(case, new_noise, inf_noise):
    tokens, span, run = case
    labels, unmatched = token_labels(tokens, [span, *new_noise], inf_noise)
    assert len(labels) == len(tokens)
    assert set(labels.tolist()) <= {SAME, NEW, INF}
    assert set(unmatched) <= {span, *new_noise, *inf_noise}
    if run is not None and any(unicodedata.category(c)[0] in "LMN" for c in span):
        assert span not in unmatched
        assert (labels[run[0] : run[1]] == NEW).all()
        assert set(range(*run)) <= set(match_span(tokens, span))


# --- the folds of the tolerant tiers, one near-copy each (span_f1 module docstring, tier 3 and the ellipsis)
FOLDS = [
    ("accents dropped", ["La", "educación", "pública", "creció", "."], "educacion publica", [1, 2]),
    ("Hindi nukta dropped", ["किसानों", "की", "ज़मीन", "बिक", "गई"], "की जमीन", [1, 2]),
    ("precomposed nukta letter", ["फ़िल्म", "बनी"], "फिल्म", [0]),
    ("Devanagari digits", ["साल", "2012", "में"], "साल २०१२", [0, 1]),
    ("ASCII digits for Devanagari", ["४००", "लोग"], "400 लोग", [0, 1]),
    ("traditional Chinese", ["经济", "发展", "很", "快"], "經濟發展", [0, 1]),
    ("full-width forms", ["ＡＢＣ", "公司"], "ABC公司", [0, 1]),
    (
        "an ellipsis as a gap",
        ["el", "gobierno", "anunció", "ayer", "en", "2010", "la", "ley"],
        "el gobierno ... en 2010",
        [0, 1, 2, 3, 4, 5],
    ),
    ("a one-character ellipsis", ["By", "up", "to", "twenty", "percent"], "By … percent", [0, 1, 2, 3, 4]),
]


@pytest.mark.parametrize(("fold", "tokens", "span", "covered"), FOLDS, ids=[f[0] for f in FOLDS])
def test_near_copies_match_through_their_fold(fold, tokens, span, covered):
    assert match_span(tokens, span) == covered


def test_an_exact_match_wins_over_a_folded_one():
    # "si" and "sí" fold together; a span copied exactly marks only its own word
    assert match_span(["si", "vienes", ",", "sí"], "si") == [0]
    assert match_span(["si", "vienes", ",", "sí"], "sí") == [3]


def test_an_ellipsis_gap_needs_its_parts_in_order():
    assert match_span(["en", "2010", "el", "gobierno"], "el gobierno ... en 2010") == []


# --- one matcher per document: the same answers as a fresh match per span
@settings(max_examples=300, deadline=None)
@given(st.lists(TOKEN, max_size=30), st.lists(NOISE | TOKEN, max_size=6))
def test_a_documents_matcher_answers_as_match_span(tokens, spans):
    matcher = span_f1.SpanMatcher(tokens)
    assert [matcher(s) for s in [*spans, *reversed(spans)]] == [
        match_span(tokens, s) for s in [*spans, *reversed(spans)]
    ]
    pieces = [((s,), (s, *spans)) for s in spans]
    assert resolve(pieces, matcher) == resolve(pieces, tokens)


@settings(max_examples=300, deadline=None)
@given(st.lists(TOKEN | st.sampled_from(["", " ", "\u200b", "…"]), max_size=20))
def test_index_owner_is_the_token_holding_the_character(tokens):
    for norm in (span_f1._strip_ws, span_f1.loose, span_f1._folded):
        index = span_f1._Index(tokens, norm)
        holders = [i for i, token in enumerate(tokens) for _ in norm(token)]
        assert [index._owner(offset) for offset in range(len(index.text))] == holders


@given(st.text(alphabet=LETTERS + PUNCT + " \t\n\u00a0\u200b\u200c\u00ad", max_size=12))
def test_has_content_is_a_nonempty_loose_form(text):
    assert span_f1._has_content(text) == bool(span_f1.loose(text))
