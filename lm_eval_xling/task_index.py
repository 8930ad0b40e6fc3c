"""lm-eval's index of its own tasks, kept on disk between runs.

Every `TaskManager()` parses all of lm-eval's ~14,000 task YAML files (about 6 s on one CPU core, before any task is
loaded), so every `lm_eval` run and every `lm-eval-xling` command that reads a task pays it. lm-eval has no cache
for it. `serve_builtin_index_from_cache` wraps `TaskIndex.build` so that the part of the index built from lm-eval's
own task folder is pickled once per installed lm-eval (its version, folder and the folder's modification time) under
the lm-eval-xling cache folder and read back after that (under a second); folders after it (ours, a user's
`--include_path`) are indexed as before and override it with lm-eval's own warning. An lm-eval that is not installed
in site-packages (an editable checkout whose YAML files may change) is not cached.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import pickle
from pathlib import Path
from types import ModuleType

log = logging.getLogger(__name__)


def serve_builtin_index_from_cache(manager: ModuleType) -> None:
    """Patch `manager.TaskIndex.build` (lm-eval 0.4.13's `lm_eval.tasks.manager`) once."""
    index_class = getattr(manager, "TaskIndex", None)
    builtin = Path(manager.__file__).parent
    if index_class is None or getattr(index_class, "_lm_eval_xling", False):
        return
    if not {"site-packages", "dist-packages"} & set(builtin.parts):
        return
    build = index_class.build

    @functools.wraps(build)
    def cached_build(paths, *, resolve_includes=True):
        paths = [Path(p) for p in paths]
        if not paths or paths[0] != builtin or not resolve_includes:
            return build(paths, resolve_includes=resolve_includes)
        index = _builtin_index(builtin, build)
        for name, entry in build(paths[1:]).items():
            if name in index:
                log.warning("Task '%s' from %s overrides existing task from %s", name, entry.yaml_path,
                            index[name].yaml_path)  # fmt: skip
            index[name] = entry
        return index

    index_class.build = staticmethod(cached_build)
    index_class._lm_eval_xling = True


def _builtin_index(builtin: Path, build) -> dict:
    from importlib.metadata import version

    from lm_eval_xling.config import cache_dir
    from lm_eval_xling.errors import UserError
    from lm_eval_xling.files import write_file

    stamp = f"{version('lm_eval')}|{builtin}|{builtin.stat().st_mtime_ns}"
    path = cache_dir() / "lm-eval-task-index" / f"{hashlib.sha1(stamp.encode()).hexdigest()}.pickle"
    try:
        with path.open("rb") as f:
            return pickle.load(f)
    except Exception:  # absent, or written by another lm-eval: build it again
        pass
    index = build([builtin])
    try:
        write_file(path, pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
    except UserError as err:  # a read-only cache folder costs the next run its 6 s, nothing else
        log.debug("lm-eval's task index not cached: %s", err)
    return index
