#!/usr/bin/env bash
# Compiles each CUDA source in SRC into OUT/<name>.fatbin: SASS for sm_80 and sm_90 and compute_90
# PTX kept for GPUs newer than the build knows. Without nvcc the build goes on with no kernels, and
# the server runs on the CPU backend (it says so once at start). ptxas's register and spill report
# goes to REPORT.
set -euo pipefail
src=${1:?usage: build-kernels.sh SRC OUT REPORT}
out=${2:?}
report=${3:?}
nvcc=${NVCC:-$(command -v nvcc || true)}
if [[ -z $nvcc ]]; then
  echo "[kernels] nvcc not found: building without GPU kernels (the CPU backend will run every query)"
  exit 0
fi
mkdir -p "$out" "$(dirname "$report")"
: >"$report"
for cu in "$src"/*.cu; do
  name=$(basename "$cu" .cu)
  target=$out/$name.fatbin
  # nvcc takes a few seconds per source: skip sources older than their output.
  newest=$(ls -t "$cu" "$src"/*.cuh 2>/dev/null | head -1)
  if [[ -f $target && $target -nt $newest ]]; then continue; fi
  "$nvcc" -fatbin -O3 -std=c++17 -I"$src" \
    -gencode arch=compute_80,code=sm_80 \
    -gencode arch=compute_90,code='[sm_90,compute_90]' \
    -Xptxas -v -o "$target.part" "$cu" 2>>"$report"
  mv "$target.part" "$target"
  echo "[kernels] $name.fatbin ($(stat -c %s "$target") bytes)"
done
