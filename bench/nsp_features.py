"""NSP masked perplexity: the paper's per-row procedure vs batched extraction, context per option vs context once.

    python bench/nsp_features.py [--rows 64] [--batch_size 16] [--lm PATH] [--subset en] [--split test]

Rows come from the real NSP split when LM_EVAL_XLING_DATA is set, else from a synthetic NSP-shaped split (3-10
sentence contexts). The LM defaults to the embedded SmolLM2-135M folder. Both methods score both options of every
row. "context per option" is the earlier batched path (rows sorted by length, both options' context + option
sequences left-padded in one batch, so every context runs twice); "context once" is `nsp-features`' own path (each
row's context runs once into a key/value cache that both options continue). The embedder is left out of the timing.
Prints one markdown table with rows/s and the ratio to the per-row procedure, and the largest relative difference
of each batched method's perplexities from the per-row ones.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import numpy as np
import torch

from lm_eval_xling.config import local_root
from lm_eval_xling.data import load_dataset
from lm_eval_xling.nsp import features as nf
from lm_eval_xling.nsp.schema import NSP

WORDS = ("the", "child", "goat", "river", "market", "mother", "sang", "walked", "found", "a", "small", "red", "house")


def synthetic_rows(n: int, seed: int = 0) -> list[dict]:
    """NSP-shaped questions: a 3-10 sentence context and two 4-14 word options."""
    rng = random.Random(seed)

    def sentence() -> str:
        return " ".join(rng.choices(WORDS, k=rng.randint(4, 14))).capitalize() + "."

    rows = []
    for i in range(n):
        k = rng.randint(3, 10)
        rows.append({"id": f"syn-{i}", "context": " ".join(sentence() for _ in range(k)), "context_length": k})
        rows[-1] |= {"distractor_distance": 1, "distractor_length": 1, "label": "A"}
        rows[-1] |= {"option_a": sentence(), "option_b": sentence()}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--lm", help="causal LM folder (default: the embedded SmolLM2-135M-Instruct)")
    parser.add_argument("--subset", default="en", choices=NSP.subsets)
    parser.add_argument("--split", default="test", choices=NSP.splits)
    args = parser.parse_args()

    if local_root() is not None:
        split = load_dataset(NSP, args.subset)[args.split]
        rows, source = (
            split.select(range(min(args.rows, len(split)))).to_list(),
            f"{NSP.hub_id} {args.subset}/{args.split}",
        )
    else:
        rows, source = synthetic_rows(args.rows), "synthetic"
    if args.lm is None:
        from lm_eval_xling.embedded import model_dir

        args.lm = str(model_dir())
    lm = nf.load_lm(args.lm)
    nf.option_perplexities(lm, [rows[0]["context"]], [[rows[0]["option_a"], rows[0]["option_b"]]])  # warm-up

    def no_embedding(texts: list[str]) -> np.ndarray:  # the embedder is the same for both methods: not timed
        return np.ones((len(texts), 1))

    def context_per_option() -> list[float]:
        ordered = sorted(rows, key=lambda r: len(r["context"]) + max(len(r["option_a"]), len(r["option_b"])))
        ppl = {}
        for start in range(0, len(ordered), args.batch_size):
            batch = ordered[start : start + args.batch_size]
            pairs = [(r["id"], k, r["context"], r[k]) for k in ("option_a", "option_b") for r in batch]
            scored = nf.option_perplexities(lm, [c for *_, c, _ in pairs], [[o] for *_, o in pairs])
            ppl |= {(i, k): p for (i, k, _, _), [p] in zip(pairs, scored, strict=True)}
        return [ppl[r["id"], k] for r in rows for k in ("option_a", "option_b")]

    def context_once() -> list[float]:
        out = {r["id"]: r for batch in nf.feature_batches(rows, lm, no_embedding, args.batch_size) for r in batch}
        return [out[r["id"]][k] for r in rows for k in ("ppl_a", "ppl_b")]

    def per_row() -> list[float]:
        return [nf.option_perplexity_reference(lm, r["context"], r[k]) for r in rows for k in ("option_a", "option_b")]

    timings = {}
    for name, method in (
        ("per-row reference (Algorithm 2)", per_row),
        (f"batched ({args.batch_size}), context per option", context_per_option),
        (f"batched ({args.batch_size}), context once", context_once),
    ):
        start = time.perf_counter()
        timings[name] = (method(), time.perf_counter() - start)
    reference, reference_s = timings["per-row reference (Algorithm 2)"]

    n = len(rows)
    threads = torch.get_num_threads()
    print(f"{n} rows of {source}, LM {Path(args.lm).name}, batch size {args.batch_size}, {threads} threads\n")
    print("| method | device | rows | seconds | rows/s | ratio | max rel. ppl diff |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, (ppl, seconds) in timings.items():
        diff = max(abs(p - r) / r for p, r in zip(ppl, reference, strict=True))
        rates = f"{seconds:.2f} | {n / seconds:.2f} | {reference_s / seconds:.2f}"
        print(f"| {name} | {lm.device} | {n} | {rates} | {diff:.1e} |")
    print(f"\nceiling of 'context once' where time follows tokens (a CPU): {ceiling(lm, rows):.2f}")


def ceiling(lm: nf.CausalLM, rows: list[dict]) -> float:
    """Tokens the per-row procedure runs (context + option, twice) over those of 'context once' (context once, then
    both options): the most sharing the context can save when time is proportional to tokens (a CPU)."""
    per_row = once = 0
    for row in rows:
        lengths = [nf._encode_pair(lm.tokenizer, row["context"], row[k]) for k in ("option_a", "option_b")]
        context = min(n for _, n in lengths)
        per_row += sum(len(ids) for ids, _ in lengths)
        once += context + sum(len(ids) - context for ids, _ in lengths)
    return per_row / once


if __name__ == "__main__":
    main()
