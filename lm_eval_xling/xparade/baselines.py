"""Reference rows of the X-PARADE paper (Rodriguez et al., 2023): majority, alignment, Human* and inter-annotator
agreement, scored with `lm_eval_xling.xparade.span_f1`, the metric code of the tasks (micro over every token of a
direction and split; F1 intervals are `bootstrap_ci` percentile intervals over paragraphs: `lm_eval_xling.stats`,
10,000 resamples, seed 0).

- majority: every target token NEW (binary new-information detection; precision = share of NEW tokens).
- alignment: SimAlign's method (`lm_eval_xling.xparade.alignment`): target tokens linked to the source paragraph's
  words, links filtered by SimAlign's null threshold: a link is dropped when its null score (the normalised
  entropy of its row or column of the similarity matrix, the smaller) is above the `p`-th percentile of the dev
  links' scores, `p` tuned per direction on dev for the best binary new-F1 (the lowest `p` on ties; dev scores are
  in-sample). Unaligned target tokens are NEW, the rest SAME (as in the paper: alignment cannot tell INF apart).
  The encoder is a setting: SimAlign's default `bert-base-multilingual-cased`; where it cannot be loaded (offline)
  the embedded SmolLM2-135M-Instruct stands in (English-centric: expect weak en-hi/en-zh rows) and is named in the
  output. If no encoder loads, the alignment row is skipped with a note.
- human (Human*, binary): every annotator against the majority vote of the other annotators, ties in favour of NEW
  (the paper, section 5.1). Of the two readings of "against", the vote of the others scored as the prediction
  with the annotator as the reference reproduces the paper's Appendix A rows best (see the task README); the other
  reading (`vote_is_prediction=False`) swaps precision and recall. Paragraphs with one annotator are skipped; all
  comparisons are pooled (micro over tokens), those of one paragraph forming one bootstrap unit.
- human_3way: the same with the others' labels adjudicated as the gold labels were (section 3.3): a token is INF
  when an annotator marked it inferable (or connotation), except when exactly one did and all others said SAME;
  else NEW/SAME by majority, ties NEW. Scored with the 3-way macro P/R/F1 (Table 9) and the INF class (Table 10).
- agreement (Table 2): token-level Krippendorff's alpha (nominal; the `krippendorff` package) over the annotators of
  a direction, and the token-level 3-way macro F1 averaged over ordered pairs of annotators (± population std),
  each on the paragraphs both annotated; connotation counts as inferable; both splits pooled, as in the paper.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.xparade.alignment import Aligner, load_encoder, word_spans
from lm_eval_xling.xparade.span_f1 import INF, LABELS, NEW, SAME, binary_new_prf, bootstrap_ci, three_way_prf

Record = Mapping[str, Any]
NO_ENCODER = "none"  # the encoder setting that skips the alignment baseline
PERCENTILES = np.arange(0, 101)  # the null-threshold grid searched on dev
_LABEL = {name: i for i, name in enumerate(LABELS)}


# --- data -----------------------------------------------------------------------------------------------------------


def load_records(split: str) -> dict[str, list[dict]]:
    """The records of one split of every direction, by direction ("<source>-<target>", the data's pair_type)."""
    from lm_eval_xling.data import load_dataset
    from lm_eval_xling.xparade.schema import XPARADE, XPARADE_DIRECTIONS

    return {d: load_dataset(XPARADE, d)[split].to_list() for d in XPARADE_DIRECTIONS}


def gold_labels(record: Record) -> list[int]:
    """The adjudicated label of every target token as SAME/NEW/INF integers."""
    return [_LABEL[label] for label in record["gold"]]


def majority(records: Sequence[Record]) -> list[list[int]]:
    """Every target token predicted NEW."""
    return [[NEW] * len(r["target_tokens"]) for r in records]


# --- Human* and agreement -------------------------------------------------------------------------------------------


def annotator_labels(record: Record) -> np.ndarray:
    """Per annotator, a label per target token, shape (annotators, tokens): NEW over INF (connotation counts as
    INF, as in the paper's adjudication) over SAME."""
    labels = np.full((len(record["annotator_ids"]), len(record["target_tokens"])), SAME, dtype=np.int64)
    conn = record.get("annotator_conn") or [[] for _ in record["annotator_ids"]]
    for a, (new, inf, con) in enumerate(zip(record["annotator_new"], record["annotator_inf"], conn, strict=True)):
        labels[a, [*inf, *con]] = INF
        labels[a, list(new)] = NEW
    return labels


def binary_vote(labels: np.ndarray) -> np.ndarray:
    """NEW where at least half of `labels` (annotators, tokens) say NEW (ties in favour of NEW), else SAME."""
    return np.where(2 * (labels == NEW).sum(axis=0) >= len(labels), NEW, SAME)


def adjudicate(labels: np.ndarray) -> np.ndarray:
    """The paper's adjudication (section 3.3) of `labels` (annotators, tokens): INF where anyone said INF, unless
    exactly one did and all others said SAME; elsewhere the NEW/SAME majority, ties NEW."""
    inf, same = (labels == INF).sum(axis=0), (labels == SAME).sum(axis=0)
    lone_inf = (inf == 1) & (same == len(labels) - 1) & (same > 0)
    return np.where((inf > 0) & ~lone_inf, INF, np.where(lone_inf, SAME, binary_vote(labels)))


def human_star(
    records: Sequence[Record], three_way: bool = False, vote_is_prediction: bool = True
) -> tuple[list[list[int]], list[list[int]]]:
    """(reference, prediction) per paragraph with two or more annotators: each annotator against the vote of the
    others (binary, or adjudicated when `three_way`), the comparisons of one paragraph concatenated."""
    gold, pred = [], []
    for record in records:
        labels = annotator_labels(record)
        if len(labels) < 2:
            continue
        own = labels if three_way else np.where(labels == NEW, NEW, SAME)
        vote = adjudicate if three_way else binary_vote
        others = np.stack([vote(np.delete(labels, a, axis=0)) for a in range(len(labels))])
        reference, prediction = (own, others) if vote_is_prediction else (others, own)
        gold.append(reference.ravel().tolist())
        pred.append(prediction.ravel().tolist())
    return gold, pred


def _by_annotator(records: Sequence[Record]) -> list[dict[int, np.ndarray]]:
    return [dict(zip(r["annotator_ids"], annotator_labels(r), strict=True)) for r in records]


def krippendorff_alpha(records: Sequence[Record]) -> float | None:
    """Token-level nominal Krippendorff's alpha over all annotators of `records`; None without the package."""
    try:
        import krippendorff
    except ImportError:
        return None
    labelled = _by_annotator(records)
    annotators = sorted({a for paragraph in labelled for a in paragraph})
    columns = []
    for record, paragraph in zip(records, labelled, strict=True):
        block = np.full((len(annotators), len(record["target_tokens"])), np.nan)
        for a, labels in paragraph.items():
            block[annotators.index(a)] = labels
        columns.append(block)
    return float(krippendorff.alpha(reliability_data=np.hstack(columns), level_of_measurement="nominal"))


def pairwise_macro_f1(records: Sequence[Record]) -> tuple[float, float]:
    """Mean and population std of the 3-way macro F1 over ordered annotator pairs (on the paragraphs both did)."""
    labelled = _by_annotator(records)
    annotators = sorted({a for paragraph in labelled for a in paragraph})
    scores = []
    for a, b in itertools.permutations(annotators, 2):
        shared = [p for p in labelled if a in p and b in p]
        if shared:
            scores.append(three_way_prf([p[a] for p in shared], [p[b] for p in shared])["macro_f1"])
    return (float(np.mean(scores)), float(np.std(scores))) if scores else (0.0, 0.0)


# --- alignment ------------------------------------------------------------------------------------------------------


def null_scores(aligner: Aligner, record: Record) -> np.ndarray:
    """Per target token, the lowest null score of its links to the source paragraph's words (np.inf where it has
    none): the token is aligned at null threshold t when this is <= t."""
    from lm_eval_xling.xparade.tasks import token_offsets

    out = np.full(len(record["target_tokens"]), np.inf)
    for t, _, score in aligner.links(record["target"], token_offsets(record), record["source"],
                                     word_spans(record["source"])):  # fmt: skip
        out[t] = min(out[t], score)
    return out


def predict(null_scores: np.ndarray, threshold: float) -> list[int]:
    """NEW where a target token has no link surviving `threshold`, else SAME."""
    return np.where(np.asarray(null_scores) <= threshold, SAME, NEW).tolist()


def tune_threshold(gold: Sequence[Sequence[int]], scores: Sequence[np.ndarray]) -> tuple[float, float]:
    """(percentile, threshold): the grid percentile of the finite dev scores with the best binary new-F1 (the
    lowest on ties) and the entropy threshold it stands for."""
    finite = np.concatenate([s[np.isfinite(s)] for s in scores] or [np.zeros(1)])
    thresholds = np.percentile(finite if finite.size else np.zeros(1), PERCENTILES)
    f1 = [binary_new_prf(gold, [predict(s, t) for s in scores])["f1"] for t in thresholds]
    best = int(np.argmax(f1))
    return float(PERCENTILES[best]), float(thresholds[best])


# --- all baselines --------------------------------------------------------------------------------------------------


@dataclass
class BaselineResults:
    """{baseline: {direction: {"precision", "recall", "f1"}}} (binary for majority/alignment/human; 3-way macro for
    human_3way; the INF class for human_inf), bootstrap 95% F1 intervals alike, the alignment's tuned null
    threshold {direction: percentile}, agreement {direction: {"alpha", "pairwise_macro_f1", "pairwise_std"}},
    and notes (which encoder aligned, which baseline was skipped and why)."""

    scores: dict[str, dict[str, dict[str, float]]]
    f1_ci: dict[str, dict[str, tuple[float, float]]]
    thresholds: dict[str, float]
    agreement: dict[str, dict[str, float | None]]
    notes: list[str]


def run_baselines(split: str, encoder: str | None = None, method: str = "argmax") -> BaselineResults:
    """Every baseline on every direction of `split` ("dev" or "test"); `encoder` of the alignment baseline (see
    `load_encoder`; NO_ENCODER skips it)."""
    if split not in ("dev", "test"):
        raise ValueError(f"unknown split {split!r}; expected 'dev' or 'test'")
    splits = {s: load_records(s) for s in ("dev", "test")}
    aligner_encoder, note = load_encoder(encoder) if encoder != NO_ENCODER else (None, "no encoder asked for")
    aligner = Aligner(aligner_encoder, method) if aligner_encoder is not None else None
    names = ["majority", *(["alignment"] if aligner else []), "human", "human_3way", "human_inf"]
    results = BaselineResults({n: {} for n in names}, {n: {} for n in names}, {}, {}, [])
    if aligner is None:
        results.notes.append(f"alignment skipped: {note}")
    else:
        encoder_name = Path(aligner_encoder.name).name  # a folder's name, not where it lies
        results.notes.append(f"alignment: SimAlign {method} over {encoder_name} layer {aligner_encoder.layer}"
                             + (f" ({note})" if note else ""))  # fmt: skip
    for direction, records in splits[split].items():
        gold = [gold_labels(r) for r in records]
        pairs = {"majority": (gold, majority(records)), "human": human_star(records)}
        three = human_star(records, three_way=True)
        if aligner:
            dev = splits["dev"][direction]
            dev_scores = [null_scores(aligner, r) for r in dev]
            percentile, threshold = tune_threshold([gold_labels(r) for r in dev], dev_scores)
            results.thresholds[direction] = percentile
            split_scores = dev_scores if split == "dev" else [null_scores(aligner, r) for r in records]
            pairs["alignment"] = (gold, [predict(s, threshold) for s in split_scores])
        for name, (g, p) in pairs.items():
            results.scores[name][direction] = binary_new_prf(g, p)
            results.f1_ci[name][direction] = bootstrap_ci(g, p, metric="new_f1")
        scores = three_way_prf(*three)
        for name, prefix in (("human_3way", "macro"), ("human_inf", "inf")):
            results.scores[name][direction] = {k: scores[f"{prefix}_{k}"] for k in ("precision", "recall", "f1")}
            results.f1_ci[name][direction] = bootstrap_ci(*three, metric=f"{prefix}_f1")
        both = splits["dev"][direction] + splits["test"][direction]
        mean, std = pairwise_macro_f1(both)
        results.agreement[direction] = {"alpha": krippendorff_alpha(both), "pairwise_macro_f1": mean,
                                        "pairwise_std": std}  # fmt: skip
    if any(a["alpha"] is None for a in results.agreement.values()):
        results.notes.append("Krippendorff's alpha skipped: pip install krippendorff")
    return results


# The paper's rows (percent; Table 7 and Appendix A for majority, alignment and Human*; Table 2 for agreement,
# computed on the whole dataset). Table 9/10's Human* cells did not survive in the text we have.
PAPER = {
    "test": {
        "majority": {"es-en": (44.6, 100.0, 61.7), "en-es": (39.8, 100.0, 57.0), "hi-en": (27.4, 100.0, 43.1),
                     "en-hi": (30.4, 100.0, 46.6), "zh-en": (48.6, 100.0, 65.4), "en-zh": (35.6, 100.0, 52.5)},
        "alignment": {"es-en": (62.3, 86.1, 72.3), "en-es": (55.4, 87.4, 67.8), "hi-en": (35.8, 81.8, 49.8),
                      "en-hi": (38.3, 86.5, 53.1), "zh-en": (59.1, 86.5, 70.2), "en-zh": (45.9, 79.9, 58.3)},
        "human": {"es-en": (86.8, 86.5, 86.6), "en-es": (85.7, 87.0, 86.3), "hi-en": (65.6, 85.8, 73.9),
                  "en-hi": (66.5, 86.4, 74.8), "zh-en": (90.7, 88.8, 89.4), "en-zh": (82.2, 81.7, 81.1)},
    },
    "dev": {
        "majority": {"es-en": (51.3, 100.0, 67.8), "en-es": (43.7, 100.0, 60.9), "hi-en": (35.9, 100.0, 52.9),
                     "en-hi": (34.9, 100.0, 51.7), "zh-en": (47.4, 100.0, 64.3), "en-zh": (33.2, 100.0, 49.8)},
        "alignment": {"es-en": (67.4, 87.6, 76.1), "en-es": (58.2, 87.7, 70.0), "hi-en": (45.9, 82.5, 59.0),
                      "en-hi": (42.7, 85.0, 56.8), "zh-en": (58.1, 86.2, 69.4), "en-zh": (44.2, 81.8, 57.4)},
        "human": {"es-en": (90.5, 90.8, 90.7), "en-es": (87.1, 88.1, 87.6), "hi-en": (64.5, 85.1, 72.6),
                  "en-hi": (66.3, 84.4, 73.5), "zh-en": (89.5, 88.1, 88.6), "en-zh": (83.0, 83.9, 82.9)},
    },
    "agreement": {"en-es": (0.657, 62.5, 2.9), "es-en": (0.693, 63.4, 3.4), "en-hi": (0.605, 64.9, 1.4),
                  "hi-en": (0.570, 60.4, 1.0), "en-zh": (0.589, 60.0, 3.4), "zh-en": (0.637, 61.3, 4.2)},
}  # fmt: skip
TITLES = {"majority": "majority (binary)", "alignment": "alignment (binary)", "human": "Human* (binary)",
          "human_3way": "Human* (3-way macro)", "human_inf": "Human* (inferable class)"}  # fmt: skip


def markdown_table(results: BaselineResults, split: str | None = None) -> str:
    """One row per baseline and direction: P / R / F1 [F1 95% CI] in percent, the paper's P / R / F1 beside it
    (when `split` is given and the paper has the row); then the agreement table and the notes."""
    paper = PAPER.get(split or "", {})
    lines = ["| baseline | direction | P | R | F1 [95% CI] | paper P / R / F1 |", "|---|---|---:|---:|---|---|"]
    for name, by_direction in results.scores.items():
        for direction, s in by_direction.items():
            low, high = results.f1_ci[name][direction]
            theirs = paper.get(name, {}).get(direction)
            label = TITLES[name] + (f", p{results.thresholds[direction]:.0f}" if name == "alignment" else "")
            lines.append(
                f"| {label} | {direction} | {100 * s['precision']:.1f} | {100 * s['recall']:.1f} | "
                f"{100 * s['f1']:.1f} [{100 * low:.1f}, {100 * high:.1f}] | "
                + (" / ".join(f"{v:.1f}" for v in theirs) if theirs else "-")
                + " |"
            )
    lines += ["", "| agreement (dev+test) | Krippendorff's alpha | paper | pairwise macro F1 | paper |"]
    lines.append("|---|---:|---:|---|---|")
    for direction, a in results.agreement.items():
        alpha, theirs = a["alpha"], PAPER["agreement"][direction]
        lines.append(
            f"| {direction} | {'-' if alpha is None else f'{alpha:.3f}'} | {theirs[0]:.3f} | "
            f"{100 * a['pairwise_macro_f1']:.1f} ± {100 * a['pairwise_std']:.1f} | {theirs[1]:.1f} ± {theirs[2]:.1f} |"
        )
    return "\n".join([*lines, "", *(f"note: {n}" for n in results.notes)])
