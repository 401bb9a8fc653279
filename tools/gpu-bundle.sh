#!/bin/sh
# Package the built binaries, the GPU tests and the benchmark into a
# self-contained folder (build/gpu by default) that runs the whole GPU suite
# and the benchmark on another machine, which needs neither the build tree
# nor this checkout:
#
#   make gpu-bundle [GPU_BUNDLE=gpu]            (here; the folder is build/gpu)
#       with C63_REFENC=PATH C63_REFDEC=PATH: also the course's reference
#       programs, for bench/bench-c63cpu.sh; with CUDADIFF_AGAINST=REV: also
#       REV's cudadiff kernel, timed beside today's by bench-cudadiff.sh
#   sh build/gpu/run.sh [--no-bench]            (there, from anywhere)
#   sh build/gpu/run.sh --faults [CUresult]     (CUDA fault injection only)
#   sh build/gpu/run.sh --sanitize [TOOL...]    (compute-sanitizer only)
#
# The tests are FATE's own: for each test of fate-c63-gpu-list, make -n
# gives the fate-run.sh command that FATE would run, with the build folder
# and the samples named by placeholders given on make's command line, so
# the commands do not depend on how the tree was configured. The bundle is
# refused unless it holds exactly the tests the tree defines, and run.sh
# counts a test that left no result as failed.
#
# The shared libraries ffmpeg needs beyond the C library and the driver
# (FreeType, HarfBuzz, fontconfig, FriBidi and theirs, as ldd lists them)
# go into lib/, which run.sh puts on LD_LIBRARY_PATH, and the font the
# drawtext tests name into fonts/ (DRAWTEXT_FONT), so that the bundle runs
# on a machine without those packages.
set -eu
BUILD=$1 OBJ=$2 G=$3
rm -rf "$G"
mkdir -p "$G/src/tests" "$G/tests/data/fate"
G=$(cd "$G" && pwd)
cp "$OBJ/ffmpeg" "$OBJ/ffprobe" "$G/"
for f in "$OBJ"/checkcuda "$OBJ"/checkdrawtext "$OBJ"/tests/checkc63; do
    [ -x "$f" ] && cp "$f" "$G/"
done
# tools the GPU tests run as tests/NAME of the build folder
mkdir -p "$G/tests"
# (tests/cpuscaling: bench/cpuscaling.cpp, built by the top-level Makefile)
make -s --no-print-directory -C "$OBJ" tests/mvdump tests/filterrun tests/cudahog tests/cudactx tests/encthreads tests/decthreads \
    tests/c63refdec tests/hdserial >/dev/null
cp "$OBJ"/tests/mvdump "$OBJ"/tests/filterrun "$OBJ"/tests/cudahog "$OBJ"/tests/cudactx "$OBJ"/tests/encthreads \
    "$OBJ"/tests/decthreads "$OBJ"/tests/cpuscaling "$OBJ"/tests/c63refdec "$OBJ"/tests/hdserial "$G/tests/"
cp "$OBJ"/cudatime.so "$G/"
for f in $(cd "$OBJ" && find . -name '*.ptx'); do
    mkdir -p "$G/obj/$(dirname "$f")" && cp "$OBJ/$f" "$G/obj/$f"
done
# the CUDA fault-injection library (tests/fault), built here
${CC:-cc} -shared -fPIC -O2 -o "$G/cudafault.so" "$(dirname "$0")/../tests/fault/cudafault.c" -ldl
# non-system shared libraries, and the test font
mkdir -p "$G/lib" "$G/fonts"
ldd "$OBJ/ffmpeg" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
while read -r name path; do
    case $name in
    libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libcuda.so*|linux-vdso*) ;;
    *) cp -L "$path" "$G/lib/$name" ;;
    esac
done
font=${DRAWTEXT_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}
cp "$font" "$G/fonts/DejaVuSans.ttf"
# the camera clip of the benchmarks (bench/camera-clip.sh), where fetched
if [ -r "$BUILD/clips/vtest.avi" ]; then
    mkdir -p "$G/clips" && cp "$BUILD/clips/vtest.avi" "$G/clips/"
fi
# the libFuzzer targets of make fuzz, where built (xz-compressed; run.sh
# --fuzz unpacks them)
if [ -x "$BUILD/fuzz/target_dec_c63_fuzzer" ]; then
    mkdir -p "$G/fuzz"
    for f in "$BUILD"/fuzz/target_*_fuzzer; do
        t=$(basename "$f")
        strip --strip-debug -o "$G/fuzz/$t" "$f" && xz -6 "$G/fuzz/$t"
    done
fi
# the course's reference programs for bench/bench-c63cpu.sh, where given
# (built beside the project, never part of it)
rm -rf "$G/peers"
if [ -n "${C63_REFENC:-}" ] && [ -n "${C63_REFDEC:-}" ]; then
    mkdir -p "$G/peers" && cp "$C63_REFENC" "$G/peers/c63enc" && cp "$C63_REFDEC" "$G/peers/c63dec"
fi
# the cudadiff kernel benchmark, built here; with CUDADIFF_AGAINST=REV also
# REV's kernel and benchmark, timed beside today's (bench-cudadiff.sh)
sh "$(dirname "$0")/../bench/bench-cudadiff.sh" "$BUILD" --build-only >/dev/null 2>&1 &&
    cp "$BUILD/bench-cudadiff" "$BUILD/bench-cudadiff.ptx" "$G/" || true
rm -f "$G/bench-cudadiff-old" "$G/cudadiff-old.ptx" "$G/cudadiff-old.rev"
if [ -n "${CUDADIFF_AGAINST:-}" ]; then
    AGAINST=$CUDADIFF_AGAINST sh "$(dirname "$0")/../bench/bench-cudadiff.sh" "$BUILD" --build-only &&
        cp "$BUILD/bench-cudadiff-old" "$BUILD/cudadiff-old.ptx" "$BUILD/cudadiff-old.rev" "$G/"
fi
# SRC_PATH as the build's make sees it (absolute after a first configure,
# ./src after a later one) and the folder it names
SRC_PATH=$(sed -n 's/^SRC_PATH=//p' "$OBJ/ffbuild/config.mak" | head -n 1)
SRC=$(cd "$OBJ" && cd "$SRC_PATH" && pwd)
cp "$SRC/tests/fate-run.sh" "$SRC/tests/md5.sh" "$G/src/tests/"
strip --strip-debug "$G"/ffmpeg "$G"/ffprobe "$G"/check* "$G"/tests/mvdump "$G"/tests/filterrun "$G"/tests/cudahog "$G"/tests/cudactx "$G"/tests/encthreads "$G"/tests/decthreads "$G"/tests/cpuscaling 2>/dev/null || true
# the tests (FATE's drivers, samples and references in tests/fate), the
# benchmark scripts (bench/) and the tools
top=$(cd "$(dirname "$0")/.." && pwd)
cp -R "$top/tests" "$G/src/tests/c63"
cp -R "$top/bench" "$G/bench"
cp -R "$top/tools" "$G/tools"

tests=$(make -s --no-print-directory -C "$OBJ" fate-c63-gpu-list)
n=$(echo "$tests" | wc -w)
# The commands: "@TARGET@" stands for the build folder; the source tree's
# tests/ folder (whatever SRC_PATH looks like) becomes the bundle's src/tests.
make -s -n --no-print-directory -C "$OBJ" TARGET_PATH=@TARGET@ TARGET_SAMPLES= \
        $(echo "$tests" | sed 's/^/fate-/') > "$G/make-n.txt" 2>/dev/null
awk -v src="$SRC_PATH/tests/" '
    $2 ~ /^fate-/ && $1 ~ /tests\/fate-run\.sh$/ {
        rest = substr($0, index($0, " "))
        out = "src/tests/fate-run.sh"
        while ((i = index(rest, src)) > 0) {
            out = out substr(rest, 1, i - 1) "src/tests/"
            rest = substr(rest, i + length(src))
        }
        out = out rest
        gsub(/"@TARGET@"/, "\"$G\"", out)
        print "echo \"TEST    " substr($2, 6) "\"; " out
    }' "$G/make-n.txt" > "$G/tests.sh"
rm -f "$G/make-n.txt"
got=$(grep -c 'fate-run.sh' "$G/tests.sh" || true)
missing=$(for t in $tests; do grep -q "fate-run.sh fate-$t " "$G/tests.sh" || echo "$t"; done)
if [ "$got" -ne "$n" ] || [ -n "$missing" ]; then
    echo "gpu-bundle: error: the tree defines $n GPU tests, the bundle got $got commands" >&2
    [ -n "$missing" ] && echo "gpu-bundle: missing: $(echo $missing)" >&2
    exit 1
fi

{
    echo '#!/bin/sh'
    echo '# Generated by tools/gpu-bundle.sh: every GPU test, then the benchmark.'
    echo 'cd "$(dirname "$0")" || exit 1'
    echo 'G=$(pwd)'
    echo 'export PATH="$G:$PATH"'
    echo 'export LD_LIBRARY_PATH="$G/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"'
    echo 'export DRAWTEXT_FONT="$G/fonts/DejaVuSans.ttf"'
    echo '# --faults: only the CUDA fault injection (tests/fault/run-faults.sh)'
    echo 'if [ "${1:-}" = --faults ]; then'
    echo '    sh src/tests/c63/fault/run-faults.sh "$G/ffmpeg" "$G/cudafault.so" "${2:-2}"; exit'
    echo 'fi'
    echo '# --fuzz [SECONDS [PROCESSES]]: only the libFuzzer targets, at the same time (tests/fuzz/run-fuzz.sh)'
    echo 'if [ "${1:-}" = --fuzz ]; then'
    echo '    for f in fuzz/*.xz; do [ -f "$f" ] && xz -dkf "$f"; done'
    echo '    ls fuzz/target_* >/dev/null 2>&1 || { echo "run.sh: no fuzz targets in the bundle (make fuzz first)"; exit 1; }'
    echo '    FUZZ_PARALLEL=1 FUZZ_FORK=${3:-4} sh src/tests/c63/fuzz/run-fuzz.sh "$G/fuzz" "${2:-60}" \'
    echo '        $(cd fuzz && ls target_* | grep -v "\." ); exit'
    echo 'fi'
    echo '# --sanitize: only compute-sanitizer over checkcuda and ffmpeg (tests/fault/run-sanitizer.sh)'
    echo 'if [ "${1:-}" = --sanitize ]; then'
    echo '    shift; sh src/tests/c63/fault/run-sanitizer.sh "$G" "$@"; exit'
    echo 'fi'
    echo 'rm -f tests/data/fate/*.rep'
    echo '# the tests in GPU_JOBS shards at once (default 4; 1: one after the other),'
    echo '# then alone those that take the whole device memory (NAME-oom)'
    echo 'jobs=${GPU_JOBS:-4}'
    echo 'grep -v -e "-oom\"; " tests.sh > tests-shared.sh'
    echo 'grep -e "-oom\"; " tests.sh > tests-alone.sh'
    echo 'i=0'
    echo 'while [ $i -lt $jobs ]; do'
    echo '    awk -v n=$jobs -v i=$i "NR % n == i" tests-shared.sh > tests-shard$i.sh'
    echo '    (. ./tests-shard$i.sh) &'
    echo '    i=$((i + 1))'
    echo 'done'
    echo 'wait'
    echo '. ./tests-alone.sh'
    echo "# every test the tree defines ($n): one that left no result counts as failed"
    echo "sh src/tests/c63/summary.sh . $(echo $tests); status=\$?"
    echo 'for t in ./checkcuda; do [ -x "$t" ] && { "$t" || status=1; }; done'
    echo '[ "${1:-}" = --no-bench ] || { sh bench/bench.sh . || status=1; }'
    echo 'exit $status'
} > "$G/run.sh"
chmod +x "$G/run.sh"
echo "gpu-bundle: $n tests in $G ($(du -sh "$G" | cut -f1))"
