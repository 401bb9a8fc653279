# Codec63 tests (CPU). See tests/fate.mak.

C63_TEST = runlocal c63/fate/c63-test.sh
C63_VECTORS = tiny odd_height qcif_keyint cif_testsrc2 cif_noise mandel hd1080_testsrc2

# Decoder: every reference vector decodes to the reference decoder's md5.
FATE_C63_DEC = $(C63_VECTORS:%=fate-c63-dec-%)
$(FATE_C63_DEC): CMD = $(C63_TEST) dec $(@:fate-c63-dec-%=%)

# Decoder, slice threads: 1 (entropy decoding and reconstruction in turn),
# 2 and 3 (at once) give the same frames, the reference decoder's md5.
FATE_C63_DECT = $(C63_VECTORS:%=fate-c63-dec-threads-%)
$(FATE_C63_DECT): CMD = $(C63_TEST) dec-threads $(@:fate-c63-dec-threads-%=%)
FATE_C63_ALL += $(FATE_C63_DECT)

# Encoder: every vector's stored input encodes to the reference encoder's md5.
FATE_C63_ENC = $(C63_VECTORS:%=fate-c63-enc-%)
$(FATE_C63_ENC): CMD = $(C63_TEST) enc $(@:fate-c63-enc-%=%)

# framecrc of a decoded stream (key flags, timestamps, per-frame CRCs).
FATE_C63_ALL += fate-c63-framecrc-qcif
fate-c63-framecrc-qcif: CMD = framecrc -i $(C63_SAMPLES)/qcif_keyint.c63

# Remuxing round trips give back the identical .c63 bytes.
FATE_C63_REMUX = $(addprefix fate-c63-remux-,matroska avi nut)
$(FATE_C63_REMUX): CMD = $(C63_TEST) remux cif_testsrc2 $(@:fate-c63-remux-%=%)

# Probing.
FATE_C63_ALL += fate-c63-probe fate-c63-probe-odd fate-c63-probe-jpeg
fate-c63-probe:      CMD = $(C63_TEST) probe qcif_keyint
fate-c63-probe-odd:  CMD = $(C63_TEST) probe odd_height
fate-c63-probe-jpeg: CMD = $(C63_TEST) probe-jpeg

# Hostile input.
C63_BAD = truncated no-eoi garbled-sof zero-size missing-dqt repeated-sof \
          size-change no-reference mv-outside bad-ac-run \
          huge-size
FATE_C63_BAD = $(C63_BAD:%=fate-c63-bad-%)
$(FATE_C63_BAD): CMD = $(C63_TEST) bad $(@:fate-c63-bad-%=%)

# Mutated streams (a seeded fuzz run): errors are fine, crashes and hangs not.
FATE_C63_ALL += fate-c63-fuzz-tiny fate-c63-fuzz-odd_height
fate-c63-fuzz-tiny:       CMD = $(C63_TEST) fuzz tiny 300
fate-c63-fuzz-odd_height: CMD = $(C63_TEST) fuzz odd_height 100

# Encoder sizes, options, threads, quality.
C63_SIZES = 1x1 17x9 65x33 720x577
FATE_C63_SIZE = $(C63_SIZES:%=fate-c63-size-%)
$(FATE_C63_SIZE): CMD = $(C63_TEST) size $(@:fate-c63-size-%=%)

C63_CLIP = testsrc2=s=176x144:r=25,trim=end_frame=12
FATE_C63_OPT = fate-c63-quality-1 fate-c63-quality-50 fate-c63-gop-1 fate-c63-gop-5 \
               fate-c63-me-range-4 fate-c63-yuvj420p
fate-c63-quality-1:  CMD = $(C63_TEST) encopt $(C63_CLIP) -quality 1
fate-c63-quality-50: CMD = $(C63_TEST) encopt $(C63_CLIP) -quality 50
fate-c63-gop-1:      CMD = $(C63_TEST) encopt $(C63_CLIP) -g 1
fate-c63-gop-5:      CMD = $(C63_TEST) encopt $(C63_CLIP) -g 5
fate-c63-me-range-4: CMD = $(C63_TEST) encopt $(C63_CLIP) -me_range 4
fate-c63-yuvj420p:   CMD = $(C63_TEST) encopt $(C63_CLIP),format=yuvj420p

# encthreads: the encoder in one process at two thread counts, in turns of
# a few frames (bench/bench-c63cpu.sh times thread scaling with it). Here:
# the packets of both are identical, and the first's are the reference
# encoder's stream.
tests/encthreads$(EXESUF): $(C63_HARNESS)/encthreads.cpp libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++17 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavcodec/libavcodec.a \
	    libavutil/libavutil.a $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -lz
FATE_C63_ENCT = fate-c63-encthreads-cif_noise fate-c63-encthreads-odd_height
fate-c63-encthreads-cif_noise:  CMD = $(C63_TEST) encthreads $$(target_path tests/encthreads$(EXESUF)) cif_noise 1 4
fate-c63-encthreads-odd_height: CMD = $(C63_TEST) encthreads $$(target_path tests/encthreads$(EXESUF)) odd_height 2 3
$(FATE_C63_ENCT): tests/encthreads$(EXESUF)
FATE_C63_ALL += $(FATE_C63_ENCT)

# encapi: the encoder through the API at one thread and at more: the
# packets' delay, timestamps, opaque data and key flags, a frame of the
# wrong size refused, a packet whose buffer is not given.
tests/encapi$(EXESUF): $(C63_HARNESS)/encapi.cpp libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++17 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavcodec/libavcodec.a \
	    libavutil/libavutil.a $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -lz
FATE_C63_ENCAPI = fate-c63-encapi-qcif_keyint fate-c63-encapi-odd_height
fate-c63-encapi-qcif_keyint: CMD = $(C63_TEST) encapi $$(target_path tests/encapi$(EXESUF)) qcif_keyint 2
fate-c63-encapi-odd_height:  CMD = $(C63_TEST) encapi $$(target_path tests/encapi$(EXESUF)) odd_height 5
$(FATE_C63_ENCAPI): tests/encapi$(EXESUF)
FATE_C63_ALL += $(FATE_C63_ENCAPI)

# decthreads: the decoder in one process at two thread counts, frame by
# frame in turn (bench/bench-c63cpu.sh times it with it). Here: the frames
# of both are identical, and the first's are the reference decoder's.
tests/decthreads$(EXESUF): $(C63_HARNESS)/decthreads.cpp libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++17 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavcodec/libavcodec.a \
	    libavutil/libavutil.a $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -lz
FATE_C63_DECTH = fate-c63-decthreads-cif_noise fate-c63-decthreads-qcif_keyint
fate-c63-decthreads-cif_noise:   CMD = $(C63_TEST) decthreads $$(target_path tests/decthreads$(EXESUF)) cif_noise 1 2
fate-c63-decthreads-qcif_keyint: CMD = $(C63_TEST) decthreads $$(target_path tests/decthreads$(EXESUF)) qcif_keyint 3 1
$(FATE_C63_DECTH): tests/decthreads$(EXESUF)
FATE_C63_ALL += $(FATE_C63_DECTH)

# hdserial: the CPU twin of the parallel entropy decoding (the CUDA
# hwaccel's stages run on the CPU) against the serial decoder: the same
# pictures, the same refusals with the same messages. Here on every
# vector and the hostile samples; c63-common.sh's refdec runs it on every
# stream an encoder test writes.
tests/hdserial$(EXESUF): $(C63_HARNESS)/hdserial.cpp libavformat/libavformat.a libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++17 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavformat/libavformat.a \
	    libavcodec/libavcodec.a libavutil/libavutil.a $(EXTRALIBS-avformat) $(EXTRALIBS-avcodec) \
	    $(EXTRALIBS-avutil) -lz
FATE_C63_HDSERIAL = $(C63_VECTORS:%=fate-c63-hdserial-%) fate-c63-hdserial-bad fate-c63-hdserial-chunk
$(filter-out fate-c63-hdserial-bad fate-c63-hdserial-chunk,$(FATE_C63_HDSERIAL)): CMD = $(C63_TEST) hdserial $$(target_path tests/hdserial$(EXESUF)) $(@:fate-c63-hdserial-%=%)
fate-c63-hdserial-bad: CMD = $(C63_TEST) hdserial $$(target_path tests/hdserial$(EXESUF)) bad
fate-c63-hdserial-chunk: CMD = $(C63_TEST) hdserial $$(target_path tests/hdserial$(EXESUF)) chunk
$(FATE_C63_HDSERIAL): tests/hdserial$(EXESUF)
FATE_C63_ALL += $(FATE_C63_HDSERIAL)

# One input cut at its keyframes by the segment muxer, coded in parts and
# joined by the concat demuxer with -c copy: the single encode's bytes,
# with the default options and with the rate-distortion options without
# scene cuts (docs/c63.md "Past one GPU"; the GPU's: fate-c63-cuda-split).
FATE_C63_SPLIT = fate-c63-split fate-c63-split-rd
fate-c63-split:    CMD = $(C63_TEST) split
fate-c63-split-rd: CMD = $(C63_TEST) split -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 -sc_threshold 0
FATE_C63_ALL += $(FATE_C63_SPLIT)

FATE_C63_ALL += fate-c63-threads fate-c63-psnr
fate-c63-threads: CMD = $(C63_TEST) threads cif_noise
# the widest search: a row of the next frame waits for the rows of its
# reference four rows away (the md5 is the one-thread encoder's)
FATE_C63_ALL += fate-c63-threads-me-range-64
fate-c63-threads-me-range-64: CMD = $(C63_TEST) threads-opts qcif_keyint -me_range 64
fate-c63-psnr:    CMD = $(C63_TEST) psnr mandelbrot=s=320x240:r=25,trim=end_frame=10 30 45

C63_REFUSE = quality-0 quality-51 gop-0 me-range-65 size-65536 maxrate pass-1 q-1 q-and-b \
             quality-and-b qmax-256 qmin-alone trellis-3
FATE_C63_REFUSE = $(C63_REFUSE:%=fate-c63-refuse-%)
fate-c63-refuse-quality-0:   CMD = $(C63_TEST) refuse testsrc2=s=32x32 -quality 0
fate-c63-refuse-quality-51:  CMD = $(C63_TEST) refuse testsrc2=s=32x32 -quality 51
fate-c63-refuse-gop-0:       CMD = $(C63_TEST) refuse testsrc2=s=32x32 -g 0
fate-c63-refuse-me-range-65: CMD = $(C63_TEST) refuse testsrc2=s=32x32 -me_range 65
fate-c63-refuse-size-65536:  CMD = $(C63_TEST) refuse testsrc2=s=65536x2
# rate control: what does not go together
fate-c63-refuse-maxrate:     CMD = $(C63_TEST) refuse testsrc2=s=32x32 -b:v 500k -maxrate 1M
fate-c63-refuse-pass-1:      CMD = $(C63_TEST) refuse testsrc2=s=32x32 -pass 1 -passlogfile $(TARGET_PATH)/tests/data/fate/c63-refuse-pass-1
fate-c63-refuse-q-1:         CMD = $(C63_TEST) refuse testsrc2=s=32x32 -q:v 1
fate-c63-refuse-q-and-b:     CMD = $(C63_TEST) refuse testsrc2=s=32x32 -q:v 4 -b:v 500k
fate-c63-refuse-quality-and-b: CMD = $(C63_TEST) refuse testsrc2=s=32x32 -quality 30 -b:v 500k
fate-c63-refuse-qmax-256:    CMD = $(C63_TEST) refuse testsrc2=s=32x32 -b:v 500k -qmax 256
fate-c63-refuse-qmin-alone:  CMD = $(C63_TEST) refuse testsrc2=s=32x32 -qmin 4
fate-c63-refuse-trellis-3:   CMD = $(C63_TEST) refuse testsrc2=s=32x32 -trellis 3
# c63_cuda's -b:v needs the size of frame n - 2 before frame n is queued
FATE_C63_REFUSE += fate-c63-cuda-refuse-bitrate-depth-3
fate-c63-cuda-refuse-bitrate-depth-3: CMD = $(C63_TEST) refuse-cuda testsrc2=s=32x32 -b:v 500k -depth 3

# -b:v: within 2% of the target over 300 frames, on a still and a moving
# clip, with keyframes only, and at every thread count; in two passes
# within 1%, and a second pass longer than the first refused; -q:v; targets
# out of reach of -qmin/-qmax, with the warning; never a luma AC code of
# run 0, size 10 under rate control (tests/c63syms)
C63_RATE = fate-c63-rate-testsrc2 fate-c63-rate-mandelbrot fate-c63-rate-gop-1 \
           fate-c63-rate-qmax-255 fate-c63-threads-bitrate fate-c63-cq-3 \
           fate-c63-rate-floor fate-c63-rate-ceiling fate-c63-q3 \
           fate-c63-2pass-testsrc2 fate-c63-2pass-mandelbrot fate-c63-2pass-more
fate-c63-rate-testsrc2:   CMD = $(C63_TEST) rate testsrc2=s=176x144:r=25 300 600000 2
fate-c63-rate-mandelbrot: CMD = $(C63_TEST) rate mandelbrot=s=176x144:r=25 300 600000 2
fate-c63-rate-gop-1:      CMD = $(C63_TEST) rate testsrc2=s=176x144:r=25 300 800000 2 -g 1
fate-c63-rate-qmax-255:   CMD = $(C63_TEST) rate testsrc2=s=176x144:r=25 300 400000 2 -qmax 255
fate-c63-threads-bitrate: CMD = $(C63_TEST) threads-opts qcif_keyint -b:v 300k
fate-c63-cq-3:            CMD = $(C63_TEST) encopt $(C63_CLIP) -q:v 3
fate-c63-2pass-testsrc2:  CMD = $(C63_TEST) twopass testsrc2=s=176x144:r=25 300 600000 1
fate-c63-2pass-mandelbrot: CMD = $(C63_TEST) twopass mandelbrot=s=176x144:r=25 300 600000 1
fate-c63-2pass-more:      CMD = $(C63_TEST) twopass-more testsrc2=s=32x32:r=25
fate-c63-rate-floor:      CMD = $(C63_TEST) ratewarn testsrc2=s=176x144:r=25 50 -b:v 20k
fate-c63-rate-ceiling:    CMD = $(C63_TEST) ratewarn testsrc2=s=176x144:r=25 50 -b:v 50M
tests/c63syms$(EXESUF): $(C63_HARNESS)/c63syms.cpp libavcodec/libavcodec.a
	$(CXX) -O2 -std=c++17 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavcodec/libavcodec.a \
	    libavutil/libavutil.a $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -lz
fate-c63-q3: tests/c63syms$(EXESUF)
fate-c63-q3: CMD = $(C63_TEST) q3 $$(target_path tests/c63syms$(EXESUF))
FATE_C63_ALL += $(C63_RATE)

# c63refdec: a model of the reference decoder from docs/c63-format.md alone,
# quirks included, that says where the reference decoder would not decode a
# stream as intended (exit 2); nothing of FFmpeg or libavcodec_c63 in it
tests/c63refdec$(EXESUF): $(C63_HARNESS)/c63refdec.cpp
	$(CXX) -O2 -std=c++17 -ffp-contract=off -o $@ $<

# Rate-distortion options, alone and together, also under rate control:
# the stream's md5, size and PSNR on a moving and a noisy vector, with its
# blocks without a vector and its Q3 codes (none) from tests/c63syms
# (every stream decodes with the reference decoder to what ours decodes:
# bench/check-refdec.sh); the same bytes at every thread count. On the
# spliced vector without scene cuts, its cuts are inter frames, which
# -intra_rd codes mostly without vectors. What each option gains against
# the default at the same bytes has a floor in quality.mak.
C63_RD_OPT_flat    = -tables flat
C63_RD_OPT_ssim    = -tables ssim
C63_RD_OPT_trellis = -trellis 1
C63_RD_OPT_mvrd    = -mv_rd 1
C63_RD_OPT_intra   = -intra_rd 1
C63_RD_OPT_all     = -tables flat -trellis 1 -mv_rd 1 -intra_rd 1
C63_RD_OPT_all-q   = -tables flat -trellis 1 -mv_rd 1 -intra_rd 1 -q:v 6
C63_RD_OPT_ssim-all = -tables ssim -trellis 1 -mv_rd 1 -intra_rd 1
C63_RD_OPT_trellis2 = -trellis 2
C63_RD_OPT_all-trellis2 = -tables flat -trellis 2 -mv_rd 1 -intra_rd 1
define C63_RD_TEST
FATE_C63_RD += fate-c63-rd-$(1)-$(2)
fate-c63-rd-$(1)-$(2): tests/c63syms$(EXESUF)
fate-c63-rd-$(1)-$(2): CMD = $$(C63_TEST) rd $(2) $$$$(target_path tests/c63syms$(EXESUF)) $$(C63_RD_OPT_$(1))
endef
C63_RD_OPT_intra-cuts = -tables flat -sc_threshold 0 -intra_rd 1
C63_RD_OPT_cuts       = -tables flat -sc_threshold 0
$(foreach o,flat ssim trellis mvrd intra all all-q ssim-all trellis2 all-trellis2,$(foreach v,mandel cif_noise,$(eval $(call C63_RD_TEST,$(o),$(v)))))
$(foreach o,cuts intra-cuts,$(eval $(call C63_RD_TEST,$(o),splice)))
FATE_C63_RD += fate-c63-rd-all-bitrate fate-c63-rd-ssim-bitrate fate-c63-threads-rd \
               fate-c63-rd-trellis2-bitrate fate-c63-threads-rd-trellis2
fate-c63-rd-all-bitrate: CMD = $(C63_TEST) rate testsrc2=s=176x144:r=25 300 400000 2 $(C63_RD_OPT_all)
fate-c63-rd-ssim-bitrate: CMD = $(C63_TEST) rate testsrc2=s=176x144:r=25 300 400000 2 $(C63_RD_OPT_ssim-all)
fate-c63-threads-rd:     CMD = $(C63_TEST) threads-opts qcif_keyint $(C63_RD_OPT_all)
fate-c63-rd-trellis2-bitrate: CMD = $(C63_TEST) rate testsrc2=s=176x144:r=25 300 400000 2 $(C63_RD_OPT_all-trellis2)
fate-c63-threads-rd-trellis2: CMD = $(C63_TEST) threads-opts qcif_keyint $(C63_RD_OPT_all-trellis2)
FATE_C63_ALL += $(FATE_C63_RD)

# Scene cuts on a clip spliced from three vectors (cuts at frames 30 and
# 50): on by default with the encoder's own choices, off with
# -sc_threshold 0, on at the reference's tables with -sc_threshold; with
# -g, whose count restarts at each cut; under -b:v.
FATE_C63_SC = fate-c63-scenecut-flat fate-c63-scenecut-off fate-c63-scenecut-annexk \
              fate-c63-scenecut-g fate-c63-scenecut-bitrate
fate-c63-scenecut-flat:    CMD = $(C63_TEST) scenecut -tables flat
fate-c63-scenecut-off:     CMD = $(C63_TEST) scenecut -tables flat -sc_threshold 0
fate-c63-scenecut-annexk:  CMD = $(C63_TEST) scenecut -sc_threshold 70
fate-c63-scenecut-g:       CMD = $(C63_TEST) scenecut -tables flat -g 20
fate-c63-scenecut-bitrate: CMD = $(C63_TEST) scenecut -b:v 3M
FATE_C63_ALL += $(FATE_C63_SC)

# Buffer model: -maxrate and -bufsize, checked by tests/fate/vbv-check.awk
# (a leaky bucket written apart from the encoder): capped at 1.5 x -b:v,
# constant (-maxrate = -b:v) on a clip whose detail grows, the same on the
# spliced clip with its scene cuts (and the rate-distortion options), and a
# nearly empty buffer at the start; the options that do not apply.
#
# The bitrate's tolerance (TOL of the vbv mode of c63-test.sh). A buffer of
# SIZE bits starting at INIT (three quarters of SIZE unless given), filled
# at MAX = -maxrate, that N frames over T = N / 25 seconds leave without
# underflow, gave at most INIT + (N - 1) x MAX / 25 bits; one at a
# constant bitrate (MAX = -b:v) that never overflows took at least
# MAX x T - (SIZE - INIT). Where those bounds are tight, TOL is bucket: the
# driver computes them from the buffer's figures (bucket_within), and a
# stream the bucket accepts meets them. A capped buffer bounds the bits
# only from above, at MAX: its bitrate against -b:v is one-pass -b:v's goal
# (within 2% over 300 frames, as fate-c63-rate-*), which the bucket does
# not stand in the way of: starting with at least a frame's share of -b:v
# (INIT >= -b:v / 25), a stream that takes exactly that share every frame
# never empties it; starting with less, it falls short of the share by at
# most -b:v / 25 - INIT bits, in the first frame.
#  capped:   300 frames, 1.5M x 12 s + 375k - 60k: at most +52.6%, no bound
#            below; 2 (the goal), with -qmax 255 as the target needs
#            scales above -qmax 31 (without it, like -b:v alone, the
#            stream ends 2.2% above it, with the encoder's warning)
#  constant: bucket: 1M x 12 s - 75k .. + 225k - 40k: -0.62% .. +1.54%
#  splice-capped: bucket: at most 3M x 2.32 s + 750k - 120k: +63.6%; no
#            bound below (58 frames, whose costliest come last, are too
#            few for the goal: -b:v alone ends 65% above the target)
#  splice-constant: bucket: 2M x 2.32 s - 500k .. + 1.5M - 80k: -10.8%
#            .. +30.6% (the start at three quarters of the buffer is most
#            of the span over so few frames)
#  init-low: 300 frames, starting 4000 bits below a frame's share of
#            600k: 2 + 100 x 4000 / 7.2M = 2.06 (the goal). Over its
#            first 100 frames the stream is 6.1% short: the first frames,
#            which the nearly empty buffer holds at the coarsest scale,
#            teach the model complexities far above the clip's, and it
#            takes the following frames at -qmax for a while
FATE_C63_VBV = fate-c63-vbv-capped fate-c63-vbv-constant fate-c63-vbv-splice-capped \
               fate-c63-vbv-splice-constant fate-c63-vbv-init-low
fate-c63-vbv-capped:          CMD = $(C63_TEST) vbv mandelbrot=s=320x240:r=25 300 1000000 1500000 500000 0 2 -qmax 255
fate-c63-vbv-constant:        CMD = $(C63_TEST) vbv mandelbrot=s=320x240:r=25 300 1000000 1000000 300000 0 bucket
fate-c63-vbv-splice-capped:   CMD = $(C63_TEST) vbv splice 58 2000000 3000000 1000000 0 bucket $(C63_RD_OPT_all)
fate-c63-vbv-splice-constant: CMD = $(C63_TEST) vbv splice 58 2000000 2000000 2000000 0 bucket
fate-c63-vbv-init-low:        CMD = $(C63_TEST) vbv testsrc2=s=176x144:r=25 300 600000 900000 600000 20000 2.06
FATE_C63_VBV += fate-c63-vbv-none
fate-c63-vbv-none:            CMD = $(C63_TEST) vbv-none 2000000 1000000
FATE_C63_VBV += fate-c63-refuse-vbv-below fate-c63-refuse-vbv-minrate \
                fate-c63-refuse-vbv-q fate-c63-refuse-vbv-init
fate-c63-refuse-vbv-below:    CMD = $(C63_TEST) refuse testsrc2=s=32x32 -b:v 1M -maxrate 500k -bufsize 1M
fate-c63-refuse-vbv-minrate:  CMD = $(C63_TEST) refuse testsrc2=s=32x32 -b:v 1M -minrate 500k -maxrate 2M -bufsize 1M
fate-c63-refuse-vbv-q:        CMD = $(C63_TEST) refuse testsrc2=s=32x32 -q:v 4 -maxrate 1M -bufsize 1M
fate-c63-refuse-vbv-init:     CMD = $(C63_TEST) refuse testsrc2=s=32x32 -b:v 1M -maxrate 2M -bufsize 1M -rc_init_occupancy 2M
FATE_C63_ALL += $(FATE_C63_VBV)

# ecserial: the GPU entropy coder's logic (kernels/c63_ec.h) run on the CPU
# (c63ec_serial.h) on the coefficients and vectors of the c63 encoder's row
# coding: every vector at quality 1, 25 and 50 and with -g 1, and odd
# sizes. Each packet must be the CPU writer's, and the stream's md5 the
# c63 encoder's (at quality 25 the reference encoder's, c63-enc-NAME:
# REF, see fate.mak).
tests/ecserial$(EXESUF): $(C63_HARNESS)/ecserial.cpp libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++17 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavcodec/libavcodec.a \
	    libavutil/libavutil.a $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -lz
C63_EC_OPT_q1  = -quality 1
C63_EC_OPT_q25 = -quality 25
C63_EC_OPT_q50 = -quality 50
C63_EC_OPT_g1  = -g 1
define C63_ECSERIAL_TEST
FATE_C63_ECSERIAL += fate-c63-ecserial-$(2)-$(1)
fate-c63-ecserial-$(2)-$(1): CMD = $$(C63_TEST) ecserial $$$$(target_path tests/ecserial$$(EXESUF)) $(1) $$(C63_EC_OPT_$(2))
endef
$(foreach o,q1 q25 q50 g1,$(foreach v,$(C63_VECTORS),$(eval $(call C63_ECSERIAL_TEST,$(v),$(o)))))
FATE_C63_ECSERIAL_Q25 = $(C63_VECTORS:%=fate-c63-ecserial-q25-%)
# and odd sizes
FATE_C63_ECSERIAL_SIZE = $(C63_SIZES:%=fate-c63-ecserial-size-%)
$(FATE_C63_ECSERIAL_SIZE): CMD = $(C63_TEST) ecserial $$(target_path tests/ecserial$(EXESUF)) \
    testsrc2=s=176x144:r=25,scale=$(subst x,:,$(@:fate-c63-ecserial-size-%=%)),trim=end_frame=5 \
    $(@:fate-c63-ecserial-size-%=%) -quality 50
FATE_C63_ECSERIAL += $(FATE_C63_ECSERIAL_SIZE)
$(FATE_C63_ECSERIAL): tests/ecserial$(EXESUF)

FATE_C63_ALL += $(FATE_C63_DEC) $(FATE_C63_ENC) $(FATE_C63_ECSERIAL) $(FATE_C63_REMUX) $(FATE_C63_BAD) \
                $(FATE_C63_SIZE) $(FATE_C63_OPT) $(FATE_C63_REFUSE)

# The same with the SIMD routines off (-cpuflags 0): the C code must give
# the references' md5s too (REF: see fate.mak).
FATE_C63_CPU0 = $(C63_VECTORS:%=fate-c63-cpu0-dec-%) $(C63_VECTORS:%=fate-c63-cpu0-enc-%) \
                fate-c63-cpu0-threads fate-c63-cpu0-me-range-4 fate-c63-cpu0-quality-50
$(C63_VECTORS:%=fate-c63-cpu0-dec-%): CMD = $(C63_TEST) dec-cpu0 $(@:fate-c63-cpu0-dec-%=%)
$(C63_VECTORS:%=fate-c63-cpu0-enc-%): CMD = $(C63_TEST) enc-cpu0 $(@:fate-c63-cpu0-enc-%=%)
fate-c63-cpu0-threads:     CMD = $(C63_TEST) threads-cpu0 cif_noise
fate-c63-cpu0-me-range-4:  CMD = $(C63_TEST) encopt-cpu0 $(C63_CLIP) -me_range 4
fate-c63-cpu0-quality-50:  CMD = $(C63_TEST) encopt-cpu0 $(C63_CLIP) -quality 50
FATE_C63_ALL += $(FATE_C63_CPU0)

# checkasm --test=c63dsp (tests/checkasm/c63dsp.c): each SIMD version of the
# DSP functions against the C one, with checkasm's register and stack checks
FATE_C63_ALL += fate-checkasm-c63dsp

# checkc63: the C routines against the reference's transcriptions on random
# input (c63ref.h: the reference's float chain, so no multiply-add is fused),
# the encoders' open checks, the GPU coder's stages run serially, the
# trellis and the DC chain against brute force, the activity through me_cmp against its
# definition.
tests/checkc63$(EXESUF): $(C63_HARNESS)/checkc63.cpp libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++17 -ffp-contract=off -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavcodec/libavcodec.a \
	    libavutil/libavutil.a $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -lz
FATE_C63_ALL += fate-c63-checkc63
fate-c63-checkc63: tests/checkc63$(EXESUF)
fate-c63-checkc63: CMD = run tests/checkc63$(EXESUF)
