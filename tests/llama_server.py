"""Start and stop llama-cpp-python's OpenAI-compatible server on loopback (the embedded GGUF as the model)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    def __init__(self, gguf: Path, port: int | None = None):
        self.gguf = gguf
        self.port = port or free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def chat_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1/chat/completions"

    def start(self, wait_s: float = 120) -> LlamaServer:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(self.gguf), "--host", "127.0.0.1",
             "--port", str(self.port), "--n_ctx", "2048", "--n_threads", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        return self.wait_ready(wait_s)

    def wait_ready(self, wait_s: float = 120) -> LlamaServer:
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/v1/models", timeout=2)
                return self
            except OSError:
                if self.proc is not None and self.proc.poll() is not None and self.proc.returncode > 0:
                    raise RuntimeError(f"llama_cpp.server exited with {self.proc.returncode}") from None
                time.sleep(0.3)
        raise TimeoutError(f"llama_cpp.server not ready on port {self.port} after {wait_s} s")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
