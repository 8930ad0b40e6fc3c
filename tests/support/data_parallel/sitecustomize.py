"""Interpreter start-up of the data-parallel tests' processes (their PYTHONPATH holds this folder): registers the
model `hf-cpu-dp` lazily (support.cpu_data_parallel), so `python -m lm_eval` under torchrun finds it."""

from lm_eval.api.registry import model_registry

model_registry.register("hf-cpu-dp", target="support.cpu_data_parallel:CPUDataParallelHFLM")
