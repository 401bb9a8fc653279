# Codec63 and CUDA filter FATE tests. This folder is linked into the FFmpeg
# tree as tests/c63 and this file is included from tests/Makefile (the
# patch "Register Codec63" names tests/c63/fate.mak, so it stays here).
#
#   fate-c63-all   every test that runs without a GPU (make check)
#   fate-c63-gpu   every test that needs a CUDA device (make check-gpu)
#
# Each included file appends its tests to FATE_C63_ALL or FATE_C63_GPU.
#
# Layout of tests/:
#   fate/      the FATE makefiles included here, the shell drivers their
#              tests run, ref/ (references) and samples/; checked.sh, how
#              every driver judges the end of a program it runs (status,
#              signal, sanitizer report), and standins.sh, which checks
#              that each driver fails where a program misbehaves
#   harness/   the test programs' sources (checkc63, encthreads, filterrun,
#              ...) and their headers; the FATE rules build them as
#              tests/NAME in the build tree, the top-level Makefile
#              checkcuda, checkdrawtext and checkframediff
#   fuzz/, fault/, clients/   libFuzzer, CUDA fault injection, the complete
#              build's clients; check*.sh, summary.sh, valgrind.sh: the
#              drivers of the top-level make targets
# The benchmarks and their helper programs are in bench/, outside the tree.

C63_TESTS   = $(SRC_PATH)/tests/c63
C63_FATE    = $(C63_TESTS)/fate
C63_HARNESS = $(C63_TESTS)/harness
C63_SAMPLES = $(C63_FATE)/samples

# The test programs' dependencies, written by the compiler as FFmpeg's own
# objects' are: tests/NAME.d for the program (or PTX) tests/NAME built
# from harness/NAME.*, read back below.
C63_DEPFLAGS = -MMD -MP -MF $(basename $@).d -MT $@
-include $(wildcard $(patsubst $(C63_HARNESS)/%,tests/%.d,$(basename $(wildcard $(C63_HARNESS)/*.c*))))

include $(C63_FATE)/c63.mak
include $(C63_FATE)/quality.mak
include $(C63_FATE)/cudadiff.mak
include $(C63_FATE)/robustness.mak
include $(C63_FATE)/standins.mak

# References live in tests/c63/fate/ref/, not in FFmpeg's tests/ref/fate/.
$(FATE_C63_ALL) $(FATE_C63_GPU): REF = $(C63_FATE)/ref/$(@:fate-%=%)
# The C-only runs compare with the references of the SIMD runs.
$(FATE_C63_CPU0): REF = $(C63_FATE)/ref/c63-$(@:fate-c63-cpu0-%=%)
# Every thread count decodes to the single decoder reference.
$(FATE_C63_DECT): REF = $(C63_FATE)/ref/c63-dec-$(@:fate-c63-dec-threads-%=%)
# The GPU coder run serially at the default quality gives the reference encoder's stream.
$(FATE_C63_ECSERIAL_Q25): REF = $(C63_FATE)/ref/c63-enc-$(@:fate-c63-ecserial-q25-%=%)

# After the generic REF above: its tests set REF of their own.
include $(C63_FATE)/c63-gpu.mak
include $(C63_FATE)/drawtext.mak
include $(C63_FATE)/mestimate.mak
include $(C63_FATE)/pipelines-gpu.mak

# (fate-checkasm-c63dsp is already in FFmpeg's FATE_CHECKASM)
FATE_FFMPEG_FFPROBE += $(filter-out fate-checkasm-%,$(FATE_C63_ALL))
FATE_HW-yes += $(FATE_C63_GPU)
$(FATE_C63_GPU): ffmpeg$(PROGSSUF)$(EXESUF) ffprobe$(PROGSSUF)$(EXESUF)
# every stream an encoder test writes is decoded by the model of the
# reference decoder and the parallel decoding's CPU twin too (refdec in
# tests/fate/c63-common.sh)
$(FATE_C63_ALL) $(FATE_C63_GPU): tests/c63refdec$(EXESUF) tests/hdserial$(EXESUF)

fate-c63-all: $(FATE_C63_ALL)
fate-c63-gpu: $(FATE_C63_GPU)
fate-c63-list:
	@printf '%s\n' $(FATE_C63_ALL:fate-%=%)
fate-c63-gpu-list:
	@printf '%s\n' $(FATE_C63_GPU:fate-%=%)
