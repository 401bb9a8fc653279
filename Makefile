# Codec63 and CUDA filters for FFmpeg: top-level build.
#
#   make            fetch, patch, configure and build build/ffmpeg, build/ffprobe
#   make run        the above, then encode a built-in clip and report
#   make check      all CPU tests (FATE)
#   make check-gpu  all GPU tests (skips, saying so, without a CUDA device)
#   make bench      the benchmark
#   make clean      remove objects, keep source and configuration
#   make distclean  remove everything under build/

FFMPEG_VERSION     := 5.1.9
FFMPEG_SHA256      := d9b593bb2ba93d4b50f74177e0cdcd41747e708596367deed0c30348a71dd176
FFMPEG_DEB_VERSION := 7:5.1.9-0+deb12u1

TOP    := $(abspath .)
BUILD  := $(TOP)/build
SRC    := $(BUILD)/ffmpeg-$(FFMPEG_VERSION)
OBJ    := $(BUILD)/obj
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

NVCC ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
# CUDA 13 no longer accepts FFmpeg 5.1's default (sm_30); compute_75 PTX is
# the oldest it emits and is JIT-compiled by the driver for newer GPUs.
NVCCFLAGS ?= -gencode arch=compute_75,code=compute_75 -O2 -Wno-deprecated-gpu-targets

PATCHES := $(sort $(wildcard $(TOP)/patches/*.patch))

# Our folders and where they appear in the FFmpeg tree.
LINKS := libavcodec/c63:libavcodec_c63 \
         libavformat/c63:libavformat_c63 \
         libavfilter/cudadiff:libavfilter_cudadiff \
         libavcodec/cuda_kernels:kernels \
         libavfilter/cuda_kernels:kernels \
         tests/c63:tests

COMPONENTS := \
    --enable-protocol=file,pipe \
    --enable-indev=lavfi \
    --enable-demuxer=c63,rawvideo,yuv4mpegpipe,matroska,nut,avi,mov,h264,hevc,m4v,mjpeg,image2,image2pipe \
    --enable-muxer=c63,rawvideo,yuv4mpegpipe,matroska,nut,avi,mov,mp4,h264,framecrc,framemd5,framehash,md5,hash,null,image2 \
    --enable-decoder=c63,rawvideo,h264,hevc,mpeg4,mjpeg,png,wrapped_avframe \
    --enable-decoder=h264_cuvid,hevc_cuvid,mpeg4_cuvid,mjpeg_cuvid \
    --enable-hwaccel=h264_nvdec,hevc_nvdec,mpeg4_nvdec,mjpeg_nvdec \
    --enable-encoder=c63,c63_cuda,rawvideo,wrapped_avframe,mpeg4,mjpeg,png \
    --enable-parser=c63,h264,hevc,mpeg4video,mjpeg,png \
    --enable-filter=scale,format,psnr,ssim,hwupload_cuda,hwupload,hwdownload,scale_cuda \
    --enable-filter=metadata,testsrc2,mandelbrot,noise,null,trim,setpts,fps,crop,pad,split,select \
    --enable-filter=cudadiff,framediff,framediffapply \
    --enable-filter=aformat,anull,atrim,aresample

CONFIGURE_FLAGS := \
    --disable-shared --enable-static --disable-autodetect --disable-everything \
    --disable-doc --disable-ffplay --enable-pthreads --enable-zlib --enable-gpl \
    --enable-nonfree --enable-ffnvcodec --enable-cuda --enable-cuda-nvcc \
    --enable-nvdec --enable-cuvid \
    --nvcc='$(NVCC)' --nvccflags='$(NVCCFLAGS)' \
    --samples=$(BUILD)/fate-suite \
    $(COMPONENTS)

.PHONY: all build deps fetch prepare configure run check check-gpu checkcuda gpu-bundle bench clean distclean FORCE

all: build

deps:
	@sh tools/install-deps.sh

# ---------------------------------------------------------------- source ---

# The source tree is prepared once per set of patches: unpacked from the
# pinned tarball (or copied from FFMPEG_SRC), patched, and our folders linked
# in. Re-preparing keeps the tarball's timestamps, so only patched files and
# what depends on them are rebuilt.
$(BUILD)/ffmpeg_$(FFMPEG_VERSION).orig.tar.xz:
	@BUILD=$(BUILD) FFMPEG_VERSION=$(FFMPEG_VERSION) FFMPEG_SHA256=$(FFMPEG_SHA256) \
	 FFMPEG_DEB_VERSION=$(FFMPEG_DEB_VERSION) FFMPEG_TARBALL='$(FFMPEG_TARBALL)' \
	 sh tools/fetch-ffmpeg.sh

fetch: $(if $(FFMPEG_SRC),,$(BUILD)/ffmpeg_$(FFMPEG_VERSION).orig.tar.xz)

$(BUILD)/.prepared: $(PATCHES) | fetch
	@sh tools/install-deps.sh
	rm -rf $(SRC).new && mkdir -p $(SRC).new
ifdef FFMPEG_SRC
	@grep -qx '$(FFMPEG_VERSION)' '$(FFMPEG_SRC)/RELEASE' || \
	    { echo "error: $(FFMPEG_SRC) is not FFmpeg $(FFMPEG_VERSION) (see its RELEASE file)"; exit 1; }
	cp -pR '$(FFMPEG_SRC)/.' $(SRC).new/
else
	tar -xJf $(BUILD)/ffmpeg_$(FFMPEG_VERSION).orig.tar.xz -C $(SRC).new --strip-components=1
endif
	@for p in $(PATCHES); do \
	    echo "patch: $$(basename $$p)"; \
	    patch -d $(SRC).new -p1 -s --no-backup-if-mismatch < $$p || exit 1; \
	done
	@if [ -d $(SRC) ]; then \
	    cd $(SRC).new && find . -type f | while read f; do \
	        cmp -s "$$f" "$(SRC)/$$f" && touch -r "$(SRC)/$$f" "$$f"; done; true; fi
	rm -rf $(SRC) && mv $(SRC).new $(SRC)
	@for l in $(LINKS); do ln -sfn $(TOP)/$${l#*:} $(SRC)/$${l%%:*}; done
	@touch $@

prepare: $(BUILD)/.prepared

# ------------------------------------------------------------- configure ---

CONFIG_STAMP := $(OBJ)/.configured
CONFIG_FLAGS_FILE := $(OBJ)/.configure-flags

$(CONFIG_FLAGS_FILE): FORCE
	@mkdir -p $(OBJ)
	@echo '$(CONFIGURE_FLAGS)' | cmp -s - $@ || echo '$(CONFIGURE_FLAGS)' > $@

$(CONFIG_STAMP): $(BUILD)/.prepared $(CONFIG_FLAGS_FILE)
	@mkdir -p $(OBJ)
	cd $(OBJ) && $(SRC)/configure $(CONFIGURE_FLAGS) > configure.log 2>&1 || \
	    { tail -n 30 $(OBJ)/configure.log; tail -n 40 $(OBJ)/ffbuild/config.log; exit 1; }
	@touch $@

configure: $(CONFIG_STAMP)

# ----------------------------------------------------------------- build ---

build: $(CONFIG_STAMP)
	+$(MAKE) -C $(OBJ) -j$(JOBS) ffmpeg ffprobe
	@for p in ffmpeg ffprobe; do cmp -s $(OBJ)/$$p $(BUILD)/$$p || \
	    { cp $(OBJ)/$$p $(BUILD)/$$p.tmp && mv -f $(BUILD)/$$p.tmp $(BUILD)/$$p; } || exit 1; done
	@echo "built: build/ffmpeg build/ffprobe"

# ------------------------------------------------------------------ tests ---

# Runs every CPU test, then prints each failure and "N passed, N failed".
check: build checkcuda
	@rm -f $(OBJ)/tests/data/fate/*.rep
	-+$(MAKE) -C $(OBJ) -j$(JOBS) -k fate-c63-all
	@sh tests/summary.sh $(OBJ) $$($(MAKE) -s --no-print-directory -C $(OBJ) fate-c63-list)

check-gpu: build checkcuda
	@sh tests/check-gpu.sh $(BUILD) $(OBJ) $(JOBS)

# build/gpu: binaries and GPU tests for a machine with a GPU but no build
# tree (see tools/gpu-bundle.sh); run there with sh build/gpu/run.sh.
gpu-bundle: build checkcuda
	@sh tools/gpu-bundle.sh $(BUILD) $(OBJ) $(SRC)

# checkcuda: the CUDA kernels against their C twins (tests/checkcuda.cpp).
# Built by make check too, so that it always compiles; it needs a GPU only
# to run.
CHECKCUDA_LIBS := $(OBJ)/libavcodec/libavcodec.a $(OBJ)/libavutil/libavutil.a

checkcuda: build
	+@$(MAKE) --no-print-directory $(BUILD)/checkcuda

$(BUILD)/checkcuda: tests/checkcuda.cpp $(CHECKCUDA_LIBS)
	$(CXX) -O2 -std=c++11 -Wall -I$(SRC) -I$(OBJ) -o $@ $< $(CHECKCUDA_LIBS) \
	    -lm -lpthread -ldl -lz -latomic

bench: build
	@sh tools/bench.sh $(BUILD)

run: build
	@sh tools/run.sh $(BUILD)

# ----------------------------------------------------------------- clean ---

clean:
	-[ -f $(OBJ)/Makefile ] && $(MAKE) -C $(OBJ) clean
	rm -f $(BUILD)/ffmpeg $(BUILD)/ffprobe $(BUILD)/checkcuda

distclean:
	rm -rf $(BUILD)

FORCE:
