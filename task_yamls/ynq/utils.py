# Hooks for these YAMLs, loaded by path by lm-eval; the code lives in the package (see the imports).
from lm_eval_xling.ynq.tasks import YNQTask, load  # noqa: F401
