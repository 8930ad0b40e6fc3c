"""lm-eval's `hf` model with its GPU data parallelism on CPU processes, for the tests' scale-out checks.

HFLM splits the documents among `accelerate launch` processes only when there are several GPUs (`gpus > 1` in its
constructor); on CPU processes every one runs every document. This subclass takes rank and world size from the
accelerator HFLM has already made, as HFLM does on GPUs, so the evaluator's data-parallel path (requests split by
rank, padded, gathered; metrics aggregated on rank 0) runs here as it runs on a GPU node."""

import sys

import lm_eval.models  # noqa: F401  (registers lm-eval's own models: a lazy registration leaves them out)
from lm_eval.models.huggingface import HFLM


class CPUDataParallelHFLM(HFLM):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        accelerator = getattr(self, "accelerator", None)
        if accelerator is not None and accelerator.num_processes > 1:
            self._rank, self._world_size = accelerator.local_process_index, accelerator.num_processes
            print(f"hf-cpu-dp: rank {self._rank} of {self._world_size}", file=sys.stderr, flush=True)
