"""Jury throughput against a local llama-cpp-python server: sequential vs concurrent requests vs the cache.

    python bench/jury.py [--items 32]

Starts the server on loopback with the embedded GGUF, judges the same QUENCH-style entity prompts with one
`local-chat-completions` judge at num_concurrent 1, 4 and 16 (fresh cache each), then once more from the cache,
and prints items/s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from llama_server import LlamaServer  # noqa: E402

from lm_eval_xling.embedded import gguf_path  # noqa: E402
from lm_eval_xling.metrics.jury import Judge, Jury, VerdictCache, parse_binary  # noqa: E402
from lm_eval_xling.quench import ENTITY_JUDGE_PROMPT  # noqa: E402

ANSWERS = ["Paris", "Lyon", "the Thames", "Rabindranath Tagore", "Diwali", "Michelangelo", "Pongal", "London"]


def prompts(n: int) -> list[str]:
    return [
        ENTITY_JUDGE_PROMPT.format(
            question=f"Quiz {i}: X is the city on the river Y.", gold=ANSWERS[i % 8], prediction=ANSWERS[(i * 3) % 8]
        )
        for i in range(n)
    ]


def judge(port: int, concurrency: int) -> Judge:
    args = f"model=bench,base_url=http://127.0.0.1:{port}/v1/chat/completions,num_concurrent={concurrency}"
    return Judge.from_spec({"model": "local-chat-completions", "model_args": args + ",tokenized_requests=False"})


def timed(jury: Jury, items: list[str]) -> float:
    start = time.perf_counter()
    units = jury.judge(items, parse_binary)
    elapsed = time.perf_counter() - start
    assert all(u["bench"].get("reply") is not None for u in units), "a judge request failed"
    return len(items) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=32)
    args = parser.parse_args()
    items = prompts(args.items)
    rows = []
    with LlamaServer(gguf_path()) as server, tempfile.TemporaryDirectory() as tmp:
        timed(Jury([judge(server.port, 1)], VerdictCache(Path(tmp) / "warmup.sqlite")), items[:2])
        for concurrency in (1, 4, 16):
            cache = VerdictCache(Path(tmp) / f"c{concurrency}.sqlite")
            rows.append((f"num_concurrent={concurrency}", timed(Jury([judge(server.port, concurrency)], cache), items)))
        cached = Jury([judge(server.port, 16)], VerdictCache(Path(tmp) / "c16.sqlite"))
        rows.append(("cached re-run", timed(cached, items)))
        assert cached.calls == 0
    print(f"\n{args.items} entity verdicts, SmolLM2-135M-Instruct GGUF via llama_cpp.server, 127.0.0.1\n")
    print("| judge requests | items/s |\n|---|---:|")
    for name, rate in rows:
        print(f"| {name} | {rate:,.1f} |")


if __name__ == "__main__":
    main()
