#!/bin/sh
# Install what the build needs from Debian/Ubuntu packages when running as
# root; otherwise print the exact apt-get line to run.
set -eu

need=""
command -v cc      >/dev/null 2>&1 || need="$need gcc"
command -v c++     >/dev/null 2>&1 || need="$need g++"
command -v nasm    >/dev/null 2>&1 || need="$need nasm"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v xz      >/dev/null 2>&1 || need="$need xz-utils"
command -v diff    >/dev/null 2>&1 || need="$need diffutils"
command -v patch   >/dev/null 2>&1 || need="$need patch"
pkg-config --exists 'ffnvcodec >= 11.1.5' 2>/dev/null || need="$need libffmpeg-nvenc-dev"
pkg-config --exists zlib 2>/dev/null || need="$need zlib1g-dev"

if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "deps: installing$need"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends $need
    else
        echo "error: missing build dependencies. Run:" >&2
        echo "  sudo apt-get install$need" >&2
        exit 1
    fi
fi

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "error: nvcc (the CUDA toolkit) was found neither on PATH nor in /usr/local/cuda/bin." >&2
    echo "  Install the CUDA toolkit (https://developer.nvidia.com/cuda-downloads) or," >&2
    echo "  on Debian with non-free enabled: sudo apt-get install nvidia-cuda-toolkit" >&2
    echo "  then run make again, or pass NVCC=/path/to/nvcc." >&2
    exit 1
fi
exit 0
