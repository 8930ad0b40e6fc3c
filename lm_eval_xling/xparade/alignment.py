"""Word alignment between two paragraphs, SimAlign's method (Jalili Sabet et al., 2020) re-implemented over a
contextual encoder's subword vectors: both texts are encoded separately, subword similarities are (cos + 1) / 2 at
layer `layer_of` (SimAlign: 8 of mBERT's 12), "argmax" links two subwords that are each other's best match
("itermax" repeats that among subwords not yet aligned on both sides), and two words are linked when one pair of
their subwords is. Each link carries SimAlign's null score: the smaller normalised entropy of its row and column of
the similarity matrix (a threshold on it is the null filter).

Used by the alignment baseline (`baselines`) and by the `xparade_en_*_t` tasks, which map spans found in an English
translation back to the target paragraph's tokens. Why not the `simalign` package: its API returns alignments
without the link entropies the paper's null threshold needs (that filter lives in its example scripts), and it is
GPL-3.0.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

SIMALIGN_MODEL = "bert-base-multilingual-cased"
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
Spans = Sequence[tuple[int, int]]


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of a paragraph's words: runs of letters, marks and digits, each Han character alone (no
    segmenter; SimAlign aligns subwords anyway), each other non-space character alone."""
    spans: list[tuple[int, int]] = []
    start = None
    for i, c in enumerate(f"{text} "):
        if unicodedata.category(c)[0] in "LMN" and not _HAN.match(c):
            start = i if start is None else start
            continue
        if start is not None:
            spans.append((start, i))
            start = None
        if not c.isspace():
            spans.append((i, i + 1))
    return spans


class Encoder:
    """A transformers model's hidden states at one layer (`layer_of`), per subword of a paragraph; each paragraph
    is encoded once per process (a pair's target is the source of the reverse direction's pair)."""

    def __init__(self, name: str) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer

        self.name, self.torch = name, torch
        self.tokenizer = AutoTokenizer.from_pretrained(name, local_files_only=True)
        self.model = AutoModel.from_pretrained(name, local_files_only=True, dtype=torch.float32).eval()
        self.layer = layer_of(self.model.config.num_hidden_layers)
        self.max_length = min(getattr(self.tokenizer, "model_max_length", 512), 2048)
        self._encoded: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def _encode(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        if text not in self._encoded:
            enc = self.tokenizer(text, return_offsets_mapping=True, return_tensors="pt", truncation=True,
                                 max_length=self.max_length)  # fmt: skip
            offsets = enc.pop("offset_mapping")[0].numpy()
            with self.torch.no_grad():
                states = self.model(**enc, output_hidden_states=True).hidden_states[self.layer][0].numpy()
            keep = [i for i, (s, e) in enumerate(offsets) if text[s:e].strip()]  # no special or space-only pieces
            vectors = states[keep] / np.maximum(np.linalg.norm(states[keep], axis=1, keepdims=True), 1e-12)
            self._encoded[text] = vectors, offsets[keep].reshape(-1, 2)
        return self._encoded[text]

    def __call__(self, text: str, spans: Spans) -> tuple[np.ndarray, np.ndarray]:
        """(unit vectors of the subwords inside `spans`, the index of the span each belongs to)."""
        vectors, offsets = self._encode(text)
        starts = np.array([s for s, _ in spans] or [0])
        ends = np.array([e for _, e in spans] or [0])
        last = offsets[:, 1] - 1
        owner = np.searchsorted(starts, last, side="right") - 1
        inside = (owner >= 0) & (last < ends[owner.clip(0)]) if spans else np.zeros(len(last), dtype=bool)
        return vectors[inside], owner[inside]


def layer_of(layers: int) -> int:
    """SimAlign's layer choice (8 of mBERT's 12) at the same relative depth of any model."""
    return round(layers * 8 / 12)


def _mutual_argmax(sim: np.ndarray) -> np.ndarray:
    forward = np.zeros_like(sim, dtype=bool)
    forward[np.arange(len(sim)), sim.argmax(axis=1)] = True
    backward = np.zeros_like(sim, dtype=bool)
    backward[sim.argmax(axis=0), np.arange(sim.shape[1])] = True
    return forward & backward


def link_entropies(sim: np.ndarray, method: str = "argmax") -> tuple[np.ndarray, np.ndarray]:
    """(links, entropy) for a similarity matrix (target subwords, source subwords) with values in [0, 1]: argmax
    links, or itermax (a second argmax round where a pair is not yet aligned on both sides), and per cell the
    smaller normalised entropy of its row and column (SimAlign's null filter)."""
    links = _mutual_argmax(sim)
    if method == "itermax":
        both = links.any(axis=1)[:, None] & links.any(axis=0)[None, :]
        links |= _mutual_argmax(np.where(both, -1.0, sim)) & ~both
    elif method != "argmax":
        raise ValueError(f"unknown alignment method {method!r}; expected 'argmax' or 'itermax'")
    rows = sim / np.maximum(sim.sum(axis=1, keepdims=True), 1e-12)
    cols = sim / np.maximum(sim.sum(axis=0, keepdims=True), 1e-12)
    h_rows = -(rows * np.log(np.clip(rows, 1e-12, None))).sum(axis=1) / np.log(max(sim.shape[1], 2))
    h_cols = -(cols * np.log(np.clip(cols, 1e-12, None))).sum(axis=0) / np.log(max(sim.shape[0], 2))
    return links, np.minimum(h_rows[:, None], h_cols[None, :])


@dataclass
class Aligner:
    """Word links between two paragraphs over `encoder`; `method` is "argmax" or "itermax". Each pair's links are
    kept on disk, one file per pair under `cache_folder` (per encoder, layer and method), so a machine encodes a
    pair once and a long first run that stops resumes where it was."""

    encoder: Any
    method: str = "argmax"

    @property
    def cache_folder(self) -> Path:
        from lm_eval_xling.config import cache_dir

        name = f"{Path(self.encoder.name).name}-layer{self.encoder.layer}-{self.method}"
        return cache_dir() / "xparade-alignment" / name

    def links(self, target: str, target_words: Spans, source: str, source_words: Spans) -> list[tuple[int, int, float]]:
        """(target word, source word, null score) for every linked pair of words (the lowest score of their
        subword links); words are given as (start, end) character spans."""
        pair = [target, [list(w) for w in target_words], source, [list(w) for w in source_words]]
        path = self.cache_folder / f"{hashlib.sha1(json.dumps(pair).encode()).hexdigest()}.json"
        if path.is_file():
            return [(int(t), int(s), float(h)) for t, s, h in json.loads(path.read_text(encoding="utf-8"))]
        from lm_eval_xling.files import write_file

        found = self._compute(target, target_words, source, source_words)
        write_file(path, json.dumps(found))
        return found

    def _compute(self, target: str, target_words: Spans, source: str, source_words: Spans) -> list:
        t_vectors, t_owner = self.encoder(target, target_words)
        s_vectors, s_owner = self.encoder(source, source_words)
        if not len(t_vectors) or not len(s_vectors):
            return []
        links, entropy = link_entropies((t_vectors @ s_vectors.T + 1) / 2, self.method)
        best: dict[tuple[int, int], float] = {}
        for i, j in zip(*np.nonzero(links), strict=True):
            key = (int(t_owner[i]), int(s_owner[j]))
            best[key] = min(best.get(key, np.inf), float(entropy[i, j]))
        return [(t, s, h) for (t, s), h in sorted(best.items())]


@cache
def load_encoder(name: str | None = None) -> tuple[Any, str]:
    """(encoder, note): `name`; by default SimAlign's model, else the embedded model (the note says why); (None,
    why) when none loads."""
    from lm_eval_xling.embedded import model_dir

    failed = []
    for candidate in [name] if name else [SIMALIGN_MODEL, "embedded"]:
        try:
            path = str(model_dir()) if candidate == "embedded" else candidate
            encoder = Encoder(path)
        except (OSError, ValueError, ImportError) as err:
            failed.append(f"{candidate} not available ({type(err).__name__})")
            continue
        return encoder, "; ".join(failed)
    return None, "; ".join(failed)
