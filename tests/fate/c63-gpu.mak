# Codec63 CUDA encoder tests (need a CUDA device). See tests/fate.mak.
#
# Every test's output md5 must equal the CPU encoder's: the md5 tests reuse
# the c63-enc-NAME references of the CPU encoder (the reference encoder's
# output), for every input path and pipeline depth.

C63_GPU_TEST = runlocal c63/fate/c63-gpu-test.sh
C63_GPU_INPUTS = yuv420p nv12 cuda
C63_GPU_DEPTHS = 1 2 4

# fate-c63-cuda-INPUT-dDEPTH-NAME
define C63_GPU_MD5
FATE_C63_GPU_MD5 += fate-c63-cuda-$(1)-d$(2)-$(3)
fate-c63-cuda-$(1)-d$(2)-$(3): CMD = $$(C63_GPU_TEST) enc $(3) $(1) $(2)
fate-c63-cuda-$(1)-d$(2)-$(3): REF = $$(C63_FATE)/ref/c63-enc-$(3)
endef
$(foreach i,$(C63_GPU_INPUTS),$(foreach d,$(C63_GPU_DEPTHS),$(foreach v,$(C63_VECTORS),\
    $(eval $(call C63_GPU_MD5,$(i),$(d),$(v))))))

# NVDEC input: an mpeg4 clip decoded by NVDEC into CUDA frames encodes
# exactly as c63 encodes the same pictures downloaded to system memory
# (NVDEC's MPEG-4 IDCT differs from FFmpeg's, so the CPU decoder's pictures
# are not the reference). The script computes both md5s and prints
# "identical" and the md5.
C63_GPU_NVDEC = qcif_keyint cif_testsrc2 hd1080_testsrc2
define C63_GPU_NVDEC_TEST
FATE_C63_GPU_NVDEC += fate-c63-cuda-nvdec-d$(1)-$(2)
fate-c63-cuda-nvdec-d$(1)-$(2): CMD = $$(C63_GPU_TEST) nvdec $(2) $(1)
fate-c63-cuda-nvdec-d$(1)-$(2): CMP = null
endef
$(foreach d,$(C63_GPU_DEPTHS),$(foreach v,$(C63_GPU_NVDEC),\
    $(eval $(call C63_GPU_NVDEC_TEST,$(d),$(v)))))

# Options shared with c63 give the same output as with c63.
C63_GPU_OPT = quality-1 quality-50 gop-5 me-range-4 me-range-64 odd-size
FATE_C63_GPU_OPT = $(C63_GPU_OPT:%=fate-c63-cuda-opt-%)
$(FATE_C63_GPU_OPT): CMP = null
fate-c63-cuda-opt-quality-1:  CMD = $(C63_GPU_TEST) same testsrc2=s=176x144:r=25,trim=end_frame=12 -quality 1
fate-c63-cuda-opt-quality-50: CMD = $(C63_GPU_TEST) same testsrc2=s=176x144:r=25,trim=end_frame=12 -quality 50
fate-c63-cuda-opt-gop-5:      CMD = $(C63_GPU_TEST) same testsrc2=s=176x144:r=25,trim=end_frame=12 -g 5
fate-c63-cuda-opt-me-range-4: CMD = $(C63_GPU_TEST) same testsrc2=s=176x144:r=25,trim=end_frame=12 -me_range 4
fate-c63-cuda-opt-me-range-64: CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=6 -me_range 64
fate-c63-cuda-opt-odd-size:   CMD = $(C63_GPU_TEST) same testsrc2=s=65x33:r=25,trim=end_frame=8

# Rate control: c63_cuda chooses the same scale and tables for every frame
# as c63 and keeps the same AC levels, so the bytes are the same: -b:v on
# a still and a moving clip, with keyframes only, at the finest tables
# (noise), in two passes; -q:v, also on the clip whose AC levels the limit
# cuts.
C63_GPU_RATE = bv-testsrc2 bv-mandelbrot bv-gop-1 bv-noise-ceiling q-3 q-2-q3clip 2pass
FATE_C63_GPU_RATE = $(C63_GPU_RATE:%=fate-c63-cuda-rate-%)
$(FATE_C63_GPU_RATE): CMP = null
fate-c63-cuda-rate-bv-testsrc2:     CMD = $(C63_GPU_TEST) same testsrc2=s=176x144:r=25,trim=end_frame=60 -b:v 600k
fate-c63-cuda-rate-bv-mandelbrot:   CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=40 -b:v 1M
fate-c63-cuda-rate-bv-gop-1:        CMD = $(C63_GPU_TEST) samevec qcif_keyint -b:v 800k -g 1
fate-c63-cuda-rate-bv-noise-ceiling: CMD = $(C63_GPU_TEST) samevec cif_noise -b:v 50M
fate-c63-cuda-rate-q-3:             CMD = $(C63_GPU_TEST) samevec cif_testsrc2 -q:v 3
fate-c63-cuda-rate-q-2-q3clip:      CMD = $(C63_GPU_TEST) same q3clip -q:v 2 -me_range 1
fate-c63-cuda-rate-2pass:           CMD = $(C63_GPU_TEST) twopass mandelbrot=s=320x240:r=25,trim=end_frame=40 1M

# Buffer model: the same scales, so the same bytes (the activity and the
# scene cuts of the input from c63_activity and c63_sc_hist).
C63_GPU_VBV = fate-c63-cuda-rate-vbv-capped fate-c63-cuda-rate-vbv-constant fate-c63-cuda-rate-vbv-splice \
              fate-c63-cuda-rate-vbv-cudaframes fate-c63-cuda-rate-vbv-odd-nv12
FATE_C63_GPU_RATE += $(C63_GPU_VBV)
$(C63_GPU_VBV): CMP = null
fate-c63-cuda-rate-vbv-capped:   CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=100 -b:v 1M -maxrate 1500k -bufsize 500k
fate-c63-cuda-rate-vbv-constant: CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=100 -b:v 1M -maxrate 1M -bufsize 300k
fate-c63-cuda-rate-vbv-splice:   CMD = $(C63_GPU_TEST) samevec splice -b:v 2M -maxrate 3M -bufsize 1M $(C63_RD_OPT_all)
# an odd width, staged as NV12 (rows of the picture's width)
fate-c63-cuda-rate-vbv-odd-nv12: CMD = $(C63_GPU_TEST) same testsrc2=s=65x33:r=25,trim=end_frame=30 -b:v 300k -maxrate 450k -bufsize 150k -- -vf format=nv12
# CUDA frames
fate-c63-cuda-rate-vbv-cudaframes: CMD = $(C63_GPU_TEST) samevec splice -b:v 2M -maxrate 2M -bufsize 2M -- -init_hw_device cuda=gpu -filter_hw_device gpu -vf format=yuv420p,hwupload

# Rate-distortion options: c63_mv_rd chooses the vectors (and the blocks
# without one) and c63_encode_rd the levels that c63 chooses (with
# -trellis 2, c63_encode_rdq, c63_dc_chain and c63_recon), so the bytes
# are the same: each option alone (both tables of our own, both trellis
# modes) and all together on every vector, all together under -b:v (with
# either table, and with -trellis 2) and -q:v, and -intra_rd on the
# spliced vector without scene cuts.
define C63_GPU_RD_TEST
FATE_C63_GPU_RD += fate-c63-cuda-rd-$(1)-$(2)
fate-c63-cuda-rd-$(1)-$(2): CMD = $$(C63_GPU_TEST) samevec $(2) $$(C63_RD_OPT_$(1))
endef
$(foreach o,flat ssim trellis mvrd intra all trellis2 all-trellis2,$(foreach v,$(C63_VECTORS),$(eval $(call C63_GPU_RD_TEST,$(o),$(v)))))
FATE_C63_GPU_RD += fate-c63-cuda-rd-all-bitrate fate-c63-cuda-rd-ssim-bitrate fate-c63-cuda-rd-all-q \
                   fate-c63-cuda-rd-intra-cuts fate-c63-cuda-rd-trellis2-bitrate
fate-c63-cuda-rd-all-bitrate: CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=40 -b:v 1M $(C63_RD_OPT_all)
fate-c63-cuda-rd-ssim-bitrate: CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=40 -b:v 1M $(C63_RD_OPT_ssim-all)
fate-c63-cuda-rd-trellis2-bitrate: CMD = $(C63_GPU_TEST) same mandelbrot=s=320x240:r=25,trim=end_frame=40 -b:v 1M $(C63_RD_OPT_all-trellis2)
fate-c63-cuda-rd-all-q:       CMD = $(C63_GPU_TEST) samevec cif_testsrc2 $(C63_RD_OPT_all-q)
fate-c63-cuda-rd-intra-cuts:  CMD = $(C63_GPU_TEST) samevec splice $(C63_RD_OPT_intra-cuts)

# Scene cuts: c63_sc_hist and c63_sc_decide cut where c63 cuts, forced
# keyframes (-g) included, and under -b:v.
FATE_C63_GPU_RD += fate-c63-cuda-scenecut-flat fate-c63-cuda-scenecut-g fate-c63-cuda-scenecut-bitrate \
                   fate-c63-cuda-scenecut-all
fate-c63-cuda-scenecut-flat:    CMD = $(C63_GPU_TEST) samevec splice -tables flat
fate-c63-cuda-scenecut-g:       CMD = $(C63_GPU_TEST) samevec splice -sc_threshold 70 -g 20
fate-c63-cuda-scenecut-bitrate: CMD = $(C63_GPU_TEST) samevec splice -b:v 3M
fate-c63-cuda-scenecut-all:     CMD = $(C63_GPU_TEST) samevec splice $(C63_RD_OPT_all)
$(FATE_C63_GPU_RD): CMP = null

# The GPU entropy coder against the CPU writer: every vector at quality 1,
# 25 and 50 and with -g 1 gives the bytes of c63, at depth 1 and 3; so do
# sizes from 1x1 up, and quality 50 on noise at 1080p, whose frames are
# about 1.8 MB each.
define C63_GPU_EC_TEST
FATE_C63_GPU_EC += fate-c63-cuda-ec-$(2)-$(1)
fate-c63-cuda-ec-$(2)-$(1): CMD = $$(C63_GPU_TEST) samevec $(1) $$(C63_EC_OPT_$(2))
endef
$(foreach o,q1 q25 q50 g1,$(foreach v,$(C63_VECTORS),$(eval $(call C63_GPU_EC_TEST,$(v),$(o)))))
FATE_C63_GPU_EC += fate-c63-cuda-ec-noise-q50-1080p
fate-c63-cuda-ec-noise-q50-1080p: CMD = $(C63_GPU_TEST) same \
    testsrc2=s=1920x1080:r=25,noise=alls=100:allf=t+u,trim=end_frame=4 -quality 50
FATE_C63_GPU_EC_SIZE = $(C63_SIZES:%=fate-c63-cuda-ec-size-%)
$(FATE_C63_GPU_EC_SIZE): CMD = $(C63_GPU_TEST) same \
    testsrc2=s=176x144:r=25,scale=$(subst x,:,$(@:fate-c63-cuda-ec-size-%=%)),trim=end_frame=5 -quality 50
FATE_C63_GPU_EC += $(FATE_C63_GPU_EC_SIZE)
$(FATE_C63_GPU_EC): CMP = null

# Real out-of-device-memory: tests/cudahog takes the device's memory but a
# little, from 0 to 3 GiB left, while c63_cuda or cudadiff runs at 2160p.
tests/cudahog$(EXESUF): $(C63_HARNESS)/cudahog.cpp
	$(CXX) -O2 -std=c++11 -Wall $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< -ldl
FATE_C63_GPU_OOM = fate-c63-cuda-oom fate-cudadiff-oom
fate-c63-cuda-oom: CMD = $(C63_GPU_TEST) oom c63_cuda $$(target_path tests/cudahog$(EXESUF))
fate-cudadiff-oom: CMD = $(C63_GPU_TEST) oom cudadiff $$(target_path tests/cudahog$(EXESUF))
$(FATE_C63_GPU_OOM): tests/cudahog$(EXESUF)
$(FATE_C63_GPU_OOM): REF = $(C63_FATE)/ref/$(@:fate-%=%)

# Without a device, cudahog says so and does not run the command.
fate-cudahog-nodevice: CMD = runlocal c63/fate/c63-gpu-test.sh hognodevice $$(target_path tests/cudahog$(EXESUF))
fate-cudahog-nodevice: tests/cudahog$(EXESUF)
fate-cudahog-nodevice: REF = $(C63_FATE)/ref/cudahog-nodevice
FATE_C63_ALL += fate-cudahog-nodevice

# CUDA frames of another CUDA context (another device where there are two)
# than c63_cuda's: refused, and the frames of its own context still coded
# as c63 codes them (tests/cudactx; CUDACTX_DEVICE_B=1 puts the other
# context on a second GPU). Without a device, cudactx says so.
tests/cudactx$(EXESUF): $(C63_HARNESS)/cudactx.cpp libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++11 -Wall -I$(SRC_PATH) -I. $(filter -I%,$(CFLAGS)) $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< \
	    libavcodec/libavcodec.a libswresample/libswresample.a libavutil/libavutil.a \
	    $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -ldl -lz
fate-c63-cuda-sharedctx: CMD = $(C63_GPU_TEST) sharedctx
fate-c63-cuda-sharedctx: CMP = null
# the parts of fate-c63-split on the GPUs in turn (C63_SPLIT_GPUS, default
# 1; the bundle counts them), the same reference
fate-c63-cuda-split:    CMD = $(C63_GPU_TEST) split $${C63_SPLIT_GPUS:-1}
fate-c63-cuda-split-rd: CMD = $(C63_GPU_TEST) split $${C63_SPLIT_GPUS:-1} -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 -sc_threshold 0
fate-c63-cuda-split fate-c63-cuda-split-rd: REF = $(C63_FATE)/ref/$(@:fate-c63-cuda-%=c63-%)
fate-c63-cuda-othercontext: CMD = run tests/cudactx$(EXESUF) $${CUDACTX_DEVICE_B:-0}
fate-c63-cuda-othercontext: tests/cudactx$(EXESUF)
fate-c63-cuda-othercontext: REF = $(C63_FATE)/ref/c63-cuda-othercontext
# The GPU's primary context already taken with other flags (as a library
# of the process might take it): -primary_ctx auto codes on a context of
# its own with a warning, -primary_ctx 1 is refused with ENOTSUP and why.
fate-c63-cuda-primarybusy: CMD = run tests/cudactx$(EXESUF) --primary-busy
fate-c63-cuda-primarybusy: tests/cudactx$(EXESUF)
fate-c63-cuda-primarybusy: REF = $(C63_FATE)/ref/c63-cuda-primarybusy
fate-cudactx-nodevice: CMD = runlocal c63/fate/c63-gpu-test.sh ctxnodevice $$(target_path tests/cudactx$(EXESUF))
fate-cudactx-nodevice: tests/cudactx$(EXESUF)
fate-cudactx-nodevice: REF = $(C63_FATE)/ref/cudactx-nodevice
FATE_C63_ALL += fate-cudactx-nodevice

# The decoder's CUDA hwaccel: every vector into CUDA frames and into system
# memory to the CPU decoder's (the reference decoder's) md5; streams of
# every encoder mode, sizes that are not multiples of 16, the smallest and
# 2160p, decoded on the GPU as on the CPU; hostile input refused alike;
# pipelines from the GPU decoding into CUDA filters as from the CPU's.
define C63_GPU_HWDEC
FATE_C63_GPU_HWDEC += fate-c63-hwdec-$(1)-$(2)
fate-c63-hwdec-$(1)-$(2): CMD = $$(C63_GPU_TEST) hwdec $(2) $(1)
fate-c63-hwdec-$(1)-$(2): REF = $$(C63_FATE)/ref/c63-dec-$(2)
endef
$(foreach o,cuda sys,$(foreach v,$(C63_VECTORS),$(eval $(call C63_GPU_HWDEC,$(o),$(v)))))

# c63 in Matroska, NUT and AVI, as from the raw stream
FATE_C63_GPU_HWCONT = $(foreach f,matroska nut avi,fate-c63-hwcont-$(f))
$(FATE_C63_GPU_HWCONT): CMD = $(C63_GPU_TEST) hwcont $(@:fate-c63-hwcont-%=%) cif_noise
$(FATE_C63_GPU_HWCONT): REF = $(C63_FATE)/ref/c63-dec-cif_noise

C63_HW_SRC = testsrc2=s=352x288:r=25,noise=alls=12:allf=t,trim=end_frame=30
C63_GPU_HWSAME = default tables-flat tables-ssim trellis-2 mv_rd intra_rd rd-all bitrate vbv scenecut \
                 size-17x9 size-1x1 size-720x577 size-3840x2160
FATE_C63_GPU_HWSAME = $(C63_GPU_HWSAME:%=fate-c63-hwsame-%)
$(FATE_C63_GPU_HWSAME): CMP = null
fate-c63-hwsame-default:     CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC)
fate-c63-hwsame-tables-flat: CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -tables flat
fate-c63-hwsame-tables-ssim: CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -tables ssim
fate-c63-hwsame-trellis-2:   CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -trellis 2
fate-c63-hwsame-mv_rd:       CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -mv_rd 1
fate-c63-hwsame-intra_rd:    CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -intra_rd 1
fate-c63-hwsame-rd-all:      CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -tables flat -trellis 2 -mv_rd 1 -intra_rd 1 -quality 50
fate-c63-hwsame-bitrate:     CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -b:v 2M
fate-c63-hwsame-vbv:         CMD = $(C63_GPU_TEST) hwsame $(C63_HW_SRC) -b:v 2M -maxrate 2M -bufsize 1M
fate-c63-hwsame-scenecut:    CMD = $(C63_GPU_TEST) hwsame splice -tables flat
fate-c63-hwsame-size-17x9:   CMD = $(C63_GPU_TEST) hwsame testsrc2=s=17x9:r=25,trim=end_frame=10
fate-c63-hwsame-size-1x1:    CMD = $(C63_GPU_TEST) hwsame testsrc2=s=32x32:r=25,scale=1:1,trim=end_frame=10
fate-c63-hwsame-size-720x577: CMD = $(C63_GPU_TEST) hwsame testsrc2=s=720x577:r=25,trim=end_frame=10
fate-c63-hwsame-size-3840x2160: CMD = $(C63_GPU_TEST) hwsame $(subst 352x288,3840x2160,$(C63_HW_SRC)),trim=end_frame=8

C63_GPU_HWBAD = truncated no-eoi mv-outside bad-ac-run size-change no-reference \
                garbage-800 garbage-5000 garbage-20000 garbage-60000
FATE_C63_GPU_HWBAD = $(C63_GPU_HWBAD:%=fate-c63-hwbad-%)
$(FATE_C63_GPU_HWBAD): CMD = $(C63_GPU_TEST) hwbad $(@:fate-c63-hwbad-%=%)
$(FATE_C63_GPU_HWBAD): CMP = null

fate-c63-hwchunk: CMD = $(C63_GPU_TEST) hwchunk
fate-c63-hwchunk: CMP = null

FATE_C63_GPU_HWPIPE = $(addprefix fate-c63-hwpipe-,scale_cuda drawtext_cuda cudadiff)
$(FATE_C63_GPU_HWPIPE): CMD = $(C63_GPU_TEST) hwpipe $(@:fate-c63-hwpipe-%=%)
$(FATE_C63_GPU_HWPIPE): CMP = null

FATE_C63_GPU += $(FATE_C63_GPU_HWDEC) $(FATE_C63_GPU_HWCONT) $(FATE_C63_GPU_HWSAME) fate-c63-hwchunk \
                $(FATE_C63_GPU_HWBAD) $(FATE_C63_GPU_HWPIPE)

FATE_C63_GPU += fate-c63-cuda-othercontext fate-c63-cuda-primarybusy fate-c63-cuda-sharedctx fate-c63-cuda-split fate-c63-cuda-split-rd $(FATE_C63_GPU_MD5) $(FATE_C63_GPU_NVDEC) $(FATE_C63_GPU_OPT) $(FATE_C63_GPU_RATE) $(FATE_C63_GPU_RD) \
                $(FATE_C63_GPU_EC) $(FATE_C63_GPU_OOM)

# checkcuda's benchmark kernels (checkcuda_bench.cu) in a PTX of their own,
# which checkcuda embeds (the top-level Makefile links this object), so
# that libavcodec's PTX holds only the encoder's kernels.
tests/checkcuda_bench.ptx: $(C63_HARNESS)/checkcuda_bench.cu $(SRC_PATH)/compat/cuda/cuda_runtime.h
	$(COMPILE_NVCC)
tests/checkcuda_bench.ptx: NVCCFLAGS += -I$(SRC_PATH)/cuda_kernels
tests/checkcuda_bench.ptx: NVCC_DEPFLAGS = $(C63_DEPFLAGS)
