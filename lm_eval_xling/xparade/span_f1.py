"""X-PARADE span matching and token-level new-information metrics.

A model writes out the spans of the target paragraph that are new (NEW) and those that are inferable (INF); every
span is matched back to target tokens with `match_span`, which tries, in order, and stops at the first tier that
finds something:

1. exact: whitespace removed from span and tokens alike (and both NFKC-normalised, their quotes as one, as the reply
   reader reads the reply), the span equals a contiguous run of whole tokens;
2. tolerant, whole tokens: the same after NFKC, casefold and removing Unicode punctuation (category P*) and format
   characters (Cf: zero-width (non-)joiners); combining marks stay (Devanagari vowel signs are Mc/Mn);
3. folded, whole tokens: as 2, and the near-copies a model makes when it copies by ear are folded on both sides:
   Latin accents dropped ("educacion"), the Devanagari nukta dropped ("जमीन" for "ज़मीन"), every script's digits
   read as ASCII digits ("२०१२"), traditional Chinese read as simplified (OpenCC's t2s);
4. folded, partial: as 3, but a match may start or end inside a token and is extended to the whole tokens it
   touches (Chinese spans that split words, "epilep" for "epilepsy"), only where the span is a real word fragment:
   at least `MIN_FRAGMENT` characters (two for Han characters, each of which is a morpheme), not only digits (a
   bare "1" or "2012" must not mark "2012年"), and each hit touches a token edge or crosses one (a truncated word
   keeps one of its ends; "e" or "pil" inside "epilepsy" is no fragment of it).

A span with an ellipsis ("el gobierno ... en 2010", "…", "[...]") stands for a run with a gap: its parts are matched
in order (each tier in turn, all parts in the same tier) and the run covers every token from the first part's first
token to the last part's last one, the nearest following part taken each time.

Matching runs on the concatenation of the (normalised) tokens with a char -> token map, so scripts written without
spaces work; a match covers every token from its first to its last character, punctuation tokens between them
included. Every occurrence of the span within the winning tier is marked, overlapping ones included: a repeated
phrase cannot be told apart from its text alone. A span that is empty after tier-2 normalisation matches nothing.

Metrics are micro-averaged over all tokens of all documents, from one 3x3 confusion matrix (gold rows, predicted
columns). The per-class P/R/F1 of NEW equal the binary "new information detection" scores (NEW vs SAME+INF). A
zero denominator gives 0.0, also for F1; macro precision, recall and F1 are the plain means of the three classes'
scores (an absent class counts 0), the paper's three-way P/R/F1 (its Table 9).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from functools import cache, cached_property
from itertools import accumulate, chain

import numpy as np

from lm_eval_xling.replies import QUOTES, ascii_digits
from lm_eval_xling.stats import LEVEL, RESAMPLES, corpus_ci

SAME, NEW, INF = 0, 1, 2
LABELS = ("same", "new", "inf")
MIN_FRAGMENT = 3  # characters a span needs before a match inside a token counts (2 for Han, see the docstring)

Labels = Sequence[Sequence[int]]
# the scores `three_way_prf` returns, by name; `bootstrap_ci` takes one of them
METRICS = (
    *(f"{name}_{m}" for name in LABELS for m in ("precision", "recall", "f1")),
    *(f"macro_{m}" for m in ("precision", "recall", "f1")),
)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]+")
_ELLIPSIS = re.compile(r"\[\s*(?:\.{3}|…)\s*\]|\.{3,}|…+")


def _strip_ws(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).translate(QUOTES).split())


def _each_character(text: str) -> str:
    """`_strip_ws` character by character: what the tokens' index holds where each combining mark is a token."""
    return "".join(unicodedata.normalize("NFKC", c) for c in text if not c.isspace()).translate(QUOTES)


_DROPPED = {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Cf"}  # the categories `loose` removes: punctuation, format


def loose(text: str) -> str:
    """The tier-2 form: NFKC, casefolded, without whitespace, punctuation and format characters."""
    kept = (c for c in unicodedata.normalize("NFKC", text) if not c.isspace())
    return "".join(c for c in kept if unicodedata.category(c) not in _DROPPED).casefold()  # casefold is per character


def _has_content(text: str) -> bool:
    """Whether `loose(text)` is not empty, found at the first character it keeps."""
    return any(not c.isspace() and unicodedata.category(c) not in _DROPPED for c in unicodedata.normalize("NFKC", text))


_ACCENTS = re.compile("[\u0300-\u036f\u093c]")  # combining Latin diacritics and the Devanagari nukta


@cache
def _simplified():
    import opencc

    return opencc.OpenCC("t2s")


def _folded(text: str) -> str:
    """The tier-3 form: `loose`, then accents and nukta dropped, digits as ASCII, traditional Chinese simplified."""
    plain = _ACCENTS.sub("", unicodedata.normalize("NFD", loose(text)))
    digits = ascii_digits(plain)
    if _HAN.search(digits):
        digits = _simplified().convert(digits)
    return unicodedata.normalize("NFC", digits)


class _Index:
    """Normalised concatenation of the tokens, where each token starts in it, and the offsets where tokens meet."""

    def __init__(self, tokens: Sequence[str], norm) -> None:
        pieces = [norm(token) if isinstance(token, str) else "" for token in tokens]
        self.text = "".join(pieces)
        self.starts = list(accumulate(map(len, pieces), initial=0))[:-1]
        self.bounds = {*self.starts, len(self.text)}

    def _owner(self, offset: int) -> int:
        """The token holding character `offset` (a token normalised to nothing holds none)."""
        return bisect_right(self.starts, offset) - 1

    def find(self, needle: str, whole_tokens: bool) -> Iterator[range]:
        """Token ranges of the occurrences of `needle`: on token edges at both ends, or (partial) touching or
        crossing at least one token edge."""
        start = self.text.find(needle) if needle else -1
        while start >= 0:
            end = start + len(needle)
            first, last = self._owner(start), self._owner(end - 1)
            edges = (start in self.bounds) + (end in self.bounds)
            if edges == 2 or (not whole_tokens and (edges or first != last)):
                yield range(first, last + 1)
            start = self.text.find(needle, start + 1)


def is_fragment(needle: str) -> bool:
    """Whether a normalised span may match inside a token: long enough (see MIN_FRAGMENT) and not only digits."""
    if needle.isdigit():
        return False
    return len(needle) >= (2 if _HAN.fullmatch(needle) else MIN_FRAGMENT)


class SpanMatcher:
    """`match_span` against one token sequence: build one per document, so that its normalised indexes are built
    once (the tolerant ones only when a span needs them) and each distinct span is matched once."""

    def __init__(self, tokens: Sequence[str]) -> None:
        self.tokens, self.exact = tokens, _Index(tokens, _strip_ws)
        self._hits: dict[str, list[int]] = {}

    @cached_property
    def loose(self) -> _Index:
        """Built only for a span that has no exact match (most have one): normalising every token is the cost."""
        return _Index(self.tokens, loose)

    @cached_property
    def folded(self) -> _Index:
        return _Index(self.tokens, _folded)

    def __call__(self, span: object) -> list[int]:
        if not isinstance(span, str):
            return []
        if span not in self._hits:
            self._hits[span] = self._match(span)
        return self._hits[span]

    def as_written(self, span: object) -> bool:
        """Whether `span` is the target's text as it stands (spaces aside), not only once normalised."""
        if not isinstance(span, str) or not _has_content(span):
            return False
        return next(iter(self.exact.find(_strip_ws(span), True)), None) is not None

    def _match(self, span: str) -> list[int]:
        if not _has_content(span):
            return []
        parts = [p for p in _ELLIPSIS.split(span) if _has_content(p)]
        readings = [[span]] + ([parts] if len(parts) > 1 else [])  # the span as written first: "…" may be text
        for index, norm, whole_tokens in self._tiers(span, parts):  # the tolerant indexes are built on first use
            for pieces in readings:
                found = [list(getattr(self, index).find(norm(p), whole_tokens)) for p in pieces]
                if covered := {i for hit in _runs(found) for i in hit}:
                    return sorted(covered)
        return []

    @staticmethod
    def _tiers(span: str, parts: list[str]) -> Iterator[tuple[str, Callable[[str], str], bool]]:
        """(index, normaliser, whole tokens only) of each tier in turn; whether the partial tier applies is only
        worked out where the others found nothing."""
        yield "exact", _strip_ws, True
        yield "exact", _each_character, True  # marks in tokens of their own, in an order NFKC would change
        yield "loose", loose, True
        yield "folded", _folded, True
        if len(parts) == 1 and is_fragment(_folded(span)):
            yield "folded", _folded, False

    def labels(self, new_spans: Sequence[str], inf_spans: Sequence[str]) -> tuple[np.ndarray, list[str]]:
        """`token_labels` on this matcher's tokens."""
        new_spans, inf_spans = _strings(new_spans), _strings(inf_spans)
        labels = np.full(len(self.tokens), SAME, dtype=np.int8)
        labels[[i for span in inf_spans for i in self(span)]] = INF
        labels[[i for span in new_spans for i in self(span)]] = NEW
        return labels, [span for span in (*new_spans, *inf_spans) if not self(span)]


def _runs(found: list[list[range]]) -> Iterator[range]:
    """The runs of a span matched in parts: from each hit of the first part through the nearest following hit of
    each next part (a span of one part: its hits)."""
    for first in found[0]:
        end = first
        for hits in found[1:]:
            end = next((hit for hit in hits if hit.start >= end.stop), None)
            if end is None:
                break
        else:
            yield range(first.start, end.stop)


def _strings(items: object) -> list[str]:
    """The strings of a list or tuple (a parser's output read from a log may hold anything)."""
    return [item for item in items if isinstance(item, str)] if isinstance(items, list | tuple) else []


def match_span(tokens: Sequence[str], span: str) -> list[int]:
    """Indices of the tokens `span` covers (all occurrences, see the module docstring), [] if it matches nothing
    (also for a span that is not a string)."""
    return SpanMatcher(tokens if isinstance(tokens, list | tuple) else [])(span)


def token_labels(
    tokens: Sequence[str], new_spans: Sequence[str], inf_spans: Sequence[str]
) -> tuple[np.ndarray, list[str]]:
    """Predicted label per token (SAME unless covered by a span; NEW wins over INF where they overlap) and the spans
    that matched nothing (new spans first); entries that are not strings are ignored."""
    return SpanMatcher(tokens).labels(new_spans, inf_spans)


def _doc_confusions(gold: Labels, pred: Labels) -> np.ndarray:
    """Per-document confusion counts, shape (documents, 3, 3), gold rows and predicted columns."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold documents but {len(pred)} predicted")
    for i, (g, p) in enumerate(zip(gold, pred, strict=True)):
        if len(g) != len(p):
            raise ValueError(f"document {i}: {len(g)} gold labels but {len(p)} predicted")
    lengths = np.fromiter(map(len, gold), dtype=np.int64, count=len(gold))
    g = np.fromiter(chain.from_iterable(gold), dtype=np.int64, count=lengths.sum())
    p = np.fromiter(chain.from_iterable(pred), dtype=np.int64, count=lengths.sum())
    if g.size and (min(g.min(), p.min()) < 0 or max(g.max(), p.max()) > 2):
        raise ValueError(f"labels must be {SAME} ({LABELS[0]}), {NEW} ({LABELS[1]}) or {INF} ({LABELS[2]})")
    doc = np.repeat(np.arange(len(gold)), lengths)
    return np.bincount(doc * 9 + g * 3 + p, minlength=9 * len(gold)).reshape(len(gold), 3, 3)


def _div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    return np.divide(num, den, out=np.zeros(np.shape(den)), where=den > 0)


def _scores(conf: np.ndarray) -> dict[str, np.ndarray]:
    """Every score of `three_way_prf` from confusion matrices of shape (..., 3, 3), vectorised over the leading axes."""
    tp = np.diagonal(conf, axis1=-2, axis2=-1)
    n_pred, n_gold = conf.sum(axis=-2), conf.sum(axis=-1)
    precision, recall, f1 = _div(tp, n_pred), _div(tp, n_gold), _div(2 * tp, n_pred + n_gold)
    out = {}
    for k, name in enumerate(LABELS):
        out[f"{name}_precision"], out[f"{name}_recall"], out[f"{name}_f1"] = (
            precision[..., k],
            recall[..., k],
            f1[..., k],
        )
    out["macro_precision"], out["macro_recall"], out["macro_f1"] = (
        precision.mean(axis=-1),
        recall.mean(axis=-1),
        f1.mean(axis=-1),
    )
    return out


def confusion(gold: Labels, pred: Labels) -> np.ndarray:
    """Token counts, shape (3, 3): row = gold label, column = predicted label, in LABELS order."""
    return _doc_confusions(gold, pred).sum(axis=0)


def three_way_prf(gold: Labels, pred: Labels) -> dict[str, float]:
    """{same,new,inf}_{precision,recall,f1} and macro_{precision,recall,f1} (means over the three classes), micro
    over all tokens."""
    return {k: float(v) for k, v in _scores(confusion(gold, pred)).items()}


def binary_new_prf(gold: Labels, pred: Labels) -> dict[str, float]:
    """New information detection, NEW against SAME+INF: {"precision", "recall", "f1"}."""
    scores = three_way_prf(gold, pred)
    return {k: scores[f"new_{k}"] for k in ("precision", "recall", "f1")}


def bootstrap_ci(
    gold: Labels, pred: Labels, metric: str = "new_f1", n: int = RESAMPLES, seed: int = 0, level: float = LEVEL
) -> tuple[float, float]:
    """Percentile confidence interval of `metric` (a key of `three_way_prf`, see METRICS), resampling documents with
    replacement `n` times; each resample's scores come from its documents' summed confusion counts."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; expected one of {', '.join(METRICS)}")
    return corpus_ci(_doc_confusions(gold, pred), lambda conf: _scores(conf)[metric], n, seed, level)


# lm-eval aggregations: each item is the (gold_labels, pred_labels) pair one document's process_results returned.
def _aggregate(items: Sequence[tuple[Sequence[int], Sequence[int]]], metric: str) -> float:
    return three_way_prf([g for g, _ in items], [p for _, p in items])[metric]


def new_precision(items) -> float:
    return _aggregate(items, "new_precision")


def new_recall(items) -> float:
    return _aggregate(items, "new_recall")


def new_f1(items) -> float:
    return _aggregate(items, "new_f1")


def inf_precision(items) -> float:
    return _aggregate(items, "inf_precision")


def inf_recall(items) -> float:
    return _aggregate(items, "inf_recall")


def inf_f1(items) -> float:
    return _aggregate(items, "inf_f1")


def same_precision(items) -> float:
    return _aggregate(items, "same_precision")


def same_recall(items) -> float:
    return _aggregate(items, "same_recall")


def same_f1(items) -> float:
    return _aggregate(items, "same_f1")


def macro_precision(items) -> float:
    return _aggregate(items, "macro_precision")


def macro_recall(items) -> float:
    return _aggregate(items, "macro_recall")


def macro_f1(items) -> float:
    return _aggregate(items, "macro_f1")
