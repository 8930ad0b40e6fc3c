# Hooks for the Y-NQ YAMLs; the code lives in the package (this file is loaded by path).
from lm_eval_xling.ynq import YNQTask, load  # noqa: F401
