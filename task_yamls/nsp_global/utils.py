# Hooks for these YAMLs, loaded by path by lm-eval; the code lives in the package (see the import). The prompts,
# filter and metrics are NSP's, through the templates' includes.
from lm_eval_xling.nsp_global.tasks import load  # noqa: F401
