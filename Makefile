# Codec63 and CUDA filters for FFmpeg: top-level build.
#
#   make                fetch, patch, configure and build the complete
#                       FFmpeg: build/ffmpeg, build/ffprobe, build/ffplay
#   make run            the above, then encode a built-in clip and report
#   make check          all CPU tests (FATE on the small test build), the
#                       CUDA code compiled, the complete build's installed
#                       libraries, user pipelines, ffplay, package and clients
#   make check-gpu      all GPU tests (skips, saying so, without a CUDA device)
#   make bench          the benchmark
#   make install PREFIX=DIR
#                       programs, shared libraries, headers, pkg-config files
#                       and manual pages into DIR (default /usr/local)
#   make deb            a Debian package of the complete build (build/*.deb)
#   make clean          remove objects, keep source and configuration
#   make distclean      remove everything under build/
#
#   CUDA_COMPILER=clang (default) builds the kernels with clang: a free build.
#   CUDA_COMPILER=nvcc  builds them with NVIDIA's nvcc, which FFmpeg allows
#                       only with --enable-nonfree: such binaries may not be
#                       redistributed.

FFMPEG_VERSION     := 9.0.2
FFMPEG_SHA256      := 8c3850283eb25fa026482078a04051e0be17347b09ef81a0849bec15a96e002e
FFMPEG_URL         := https://ffmpeg.org/releases/ffmpeg-$(FFMPEG_VERSION).tar.xz
NVHEADERS_VERSION  := 12.1.14.0
NVHEADERS_SHA256   := 0ca1a0c85b149646fa6ce4d600584507fdccf5a23d58e668d8701e89cee0c3fb

TOP    := $(abspath .)
BUILD  := $(TOP)/build
SRC    := $(BUILD)/ffmpeg-$(FFMPEG_VERSION)
OBJ    := $(BUILD)/obj
FULL   := $(BUILD)/full
DIST   := $(BUILD)/dist
PREFIX ?= /usr/local
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

FFMPEG_TARBALL_OUT    := $(BUILD)/ffmpeg_$(FFMPEG_VERSION).orig.tar.xz
NVHEADERS_TARBALL_OUT := $(BUILD)/nv-codec-headers_$(NVHEADERS_VERSION).orig.tar.xz

# What the build needs from the distribution's packages is checked (and,
# as root, installed) before anything else, so that the tools found below
# are the ones the build will use.
NODEPS_GOALS := clean distclean deps
ifneq ($(filter-out $(NODEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
DEPS_STATUS := $(shell CUDA_COMPILER=$(CUDA_COMPILER) BUILD=$(BUILD) GOALS="$(MAKECMDGOALS)" sh tools/install-deps.sh >&2; echo $$?)
ifneq ($(DEPS_STATUS),0)
$(error missing build dependencies (see above))
endif
endif

# ------------------------------------------------------------ CUDA kernels ---

# Kernels are built to PTX for compute capability 7.5 and compiled for the
# actual GPU by the driver. Floating-point contraction is off: the c63
# transform must round each product and sum separately (docs/c63-format.md
# section 6.8).
CLANG ?= $(shell for c in clang clang-21 clang-20 clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do \
             command -v $$c 2>/dev/null && break; done)
CUDA_COMPILER ?= clang
ifeq ($(CUDA_COMPILER),nvcc)
NVCC      ?= $(shell command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)
NVCCFLAGS ?= -gencode arch=compute_75,code=compute_75 -O2 -fmad=false -Wno-deprecated-gpu-targets
CUDA_FLAGS := --enable-cuda-nvcc --enable-nonfree
else ifeq ($(CUDA_COMPILER),clang)
NVCC      ?= $(CLANG)
NVCCFLAGS ?= --cuda-gpu-arch=sm_75 -O2 -ffp-contract=off -Wno-unknown-cuda-version
CUDA_FLAGS := --enable-cuda-llvm
else
$(error CUDA_COMPILER must be clang or nvcc, not $(CUDA_COMPILER))
endif

# ------------------------------------------------------- nv-codec-headers ---

# FFmpeg 9.0 needs nv-codec-headers 12.1.14.0 (or 12.0.16.1+, 11.1.5.3+).
# The system's copy is used when it is new enough; otherwise the pinned
# headers are installed into build/nv-codec-headers and found through
# PKG_CONFIG_PATH. The system's copy is never touched.
NVHEADERS_OK := $(shell pkg-config --exists 'ffnvcodec >= 12.1.14.0' 2>/dev/null && echo system)
ifeq ($(NVHEADERS_OK),system)
NVHEADERS_STAMP :=
CONFIGURE_ENV   :=
else
NVHEADERS_DIR   := $(BUILD)/nv-codec-headers
NVHEADERS_STAMP := $(NVHEADERS_DIR)/.installed
CONFIGURE_ENV   := PKG_CONFIG_PATH=$(NVHEADERS_DIR)/lib/pkgconfig$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}
endif

# The changes to FFmpeg's own files, in git format-patch form, applied in
# order; tools/patches.sh turns them into a git branch and back, and
# docs/rebasing.md says how to move them to the next release.
PATCHES := $(sort $(wildcard $(TOP)/patches/*.patch))

# Our folders (and single files) and where they appear in the FFmpeg tree.
# The kernels appear once, as the tree's cuda_kernels: each library builds
# the PTX it needs from there into a folder of its own, and C code includes
# the headers that host and device share as "cuda_kernels/NAME.h".
LINKS := libavcodec/c63:libavcodec_c63 \
         libavformat/c63:libavformat_c63 \
         libavcodec/framediff:libavcodec_framediff \
         libavfilter/cudadiff:libavfilter_cudadiff \
         libavfilter/cudainput:libavfilter_cudainput \
         libavfilter/drawtext_cuda:libavfilter_drawtext_cuda \
         libavfilter/mestimate_cuda:libavfilter_mestimate \
         cuda_kernels:kernels \
         libavutil/framediff.h:libavutil_framediff/framediff.h \
         tests/c63:tests \
         tests/checkasm/c63dsp.c:tests/checkasm/c63dsp.c

COMPONENTS := \
    --enable-protocol=file,pipe,fd,tcp,udp \
    --enable-indev=lavfi \
    --enable-demuxer=c63,rawvideo,yuv4mpegpipe,matroska,nut,avi,mov,h264,hevc,m4v,mjpeg,image2,image2pipe,concat \
    --enable-muxer=c63,rawvideo,yuv4mpegpipe,matroska,nut,avi,mov,mp4,h264,framecrc,framemd5,framehash,md5,hash,null,image2,segment \
    --enable-decoder=c63,framediff,rawvideo,h264,hevc,mpeg4,msmpeg4v3,mjpeg,png,wrapped_avframe \
    --enable-decoder=h264_cuvid,hevc_cuvid,mpeg4_cuvid,mjpeg_cuvid \
    --enable-hwaccel=h264_nvdec,hevc_nvdec,mpeg4_nvdec,mjpeg_nvdec,c63_cuda \
    --enable-encoder=c63,c63_cuda,framediff,rawvideo,wrapped_avframe,mpeg4,mjpeg,png \
    --enable-encoder=h264_nvenc,hevc_nvenc,av1_nvenc \
    --enable-parser=c63,h264,hevc,mpeg4video,mjpeg,png \
    --enable-filter=scale,format,psnr,ssim,hwupload_cuda,hwupload,hwdownload,scale_cuda \
    --enable-filter=metadata,testsrc2,drawbox,mandelbrot,noise,null,trim,setpts,fps,crop,pad,split,select \
    --enable-filter=cudadiff,framediff,framediffapply \
    --enable-filter=drawtext,drawtext_cuda \
    --enable-filter=mestimate,mestimate_cuda,codecview \
    --enable-filter=aformat,anull,atrim,aresample \
    --enable-bsf=noise

COMMON_FLAGS := \
    --enable-pthreads --enable-zlib --enable-gpl \
    --enable-libfreetype --enable-libharfbuzz --enable-libfontconfig --enable-libfribidi \
    --enable-ffnvcodec --enable-cuda --enable-nvdec --enable-cuvid --enable-nvenc \
    $(CUDA_FLAGS) --nvcc='$(NVCC)' --nvccflags='$(NVCCFLAGS)'

# build/obj: a small static build of only what the tests need, for the
# FATE tests, the sanitizer builds, the GPU bundle and the benchmark.
CONFIGURE_FLAGS := --disable-autodetect --disable-everything $(COMMON_FLAGS) $(COMPONENTS) \
    --disable-shared --enable-static --disable-doc --disable-ffplay \
    --samples=$(BUILD)/fate-suite

# build/full: the complete FFmpeg that users get (make, make install, make
# deb): every native component, ours, the hardware APIs configure detects
# (NVENC, NVDEC, CUVID, VAAPI, VDPAU, Vulkan, OpenCL, v4l2) and the external
# libraries below where this machine has them in a version FFmpeg accepts
# (tools/configure-full.sh decides and says why one is left out). The list
# is the union of the switches of Debian's own ffmpeg packages (ffmpeg
# -buildconf of bookworm's 5.1 and trixie's 7.1); tools/install-deps.sh
# installs the distribution's build dependencies of its ffmpeg. The shared
# libraries only; the programs find them through RUNPATH $ORIGIN/../lib, so
# the installed tree works under any prefix (tools/install-full.sh).
EXTERNAL_LIBS := chromaprint frei0r gnutls ladspa libaom libass libbluray libbs2b libcaca \
    libcdio libcodec2 libdav1d libdc1394 libdrm libdvdnav libdvdread libflite libfontconfig \
    libfreetype libfribidi libglslang libgme libgsm libharfbuzz libiec61883 libjack libjxl \
    libmfx libmp3lame libmysofa libopenjpeg libopenmpt libopus libplacebo libpulse \
    librabbitmq librav1e librist librsvg librubberband libshine libsnappy libsoxr libspeex \
    libsrt libssh libsvtav1 libtheora libtwolame libvidstab libvorbis libvpl libvpx libwebp \
    libx264 libx265 libxml2 libxvid libzimg libzmq libzvbi lv2 omx openal opencl opengl \
    pocketsphinx sdl2
FULL_FLAGS := $(COMMON_FLAGS) --disable-sndio \
    --enable-shared --disable-static --prefix=/usr/local

.PHONY: all build obj deps fetch prepare configure run check check-gpu checkcuda checkdrawtext checkframediff \
        check-asan check-tsan check-valgrind check-clients fuzz install deb gpu-bundle bench clean distclean FORCE

all: build

deps:
	@CUDA_COMPILER=$(CUDA_COMPILER) BUILD=$(BUILD) GOALS="$(MAKECMDGOALS)" sh tools/install-deps.sh

# ---------------------------------------------------------------- source ---

$(FFMPEG_TARBALL_OUT):
	@TARBALL='$(FFMPEG_TARBALL)' sh tools/fetch-source.sh $@ $(FFMPEG_SHA256) \
	    ffmpeg $(FFMPEG_VERSION) $(FFMPEG_URL)

# nv-codec-headers publishes no checksummed release tarball of its own, so
# only a given file, an earlier fetch or Debian's .orig tarball are used.
$(NVHEADERS_TARBALL_OUT):
	@TARBALL='$(NVHEADERS_TARBALL)' sh tools/fetch-source.sh $@ $(NVHEADERS_SHA256) \
	    nv-codec-headers $(NVHEADERS_VERSION)

$(NVHEADERS_DIR)/.installed: $(NVHEADERS_TARBALL_OUT)
	rm -rf $(NVHEADERS_DIR) $(BUILD)/nv-codec-headers-src
	mkdir -p $(BUILD)/nv-codec-headers-src
	tar -xJf $< -C $(BUILD)/nv-codec-headers-src --strip-components=1
	$(MAKE) -s -C $(BUILD)/nv-codec-headers-src PREFIX=$(NVHEADERS_DIR) install
	rm -rf $(BUILD)/nv-codec-headers-src
	@touch $@

fetch: $(if $(FFMPEG_SRC),,$(FFMPEG_TARBALL_OUT)) $(NVHEADERS_STAMP)

# The source tree is prepared once per set of patches: unpacked from the
# pinned tarball (or copied from FFMPEG_SRC), patched, and our folders linked
# in. Re-preparing keeps the timestamps of the files that did not change and
# makes the changed ones new (among them those a patch no longer changes,
# which are back to the tarball's old time), so only they and what depends
# on them are rebuilt.
$(BUILD)/.prepared: $(PATCHES) $(BUILD)/.links | fetch
	rm -rf $(SRC).new && mkdir -p $(SRC).new
ifdef FFMPEG_SRC
	@grep -qx '$(FFMPEG_VERSION)' '$(FFMPEG_SRC)/RELEASE' || \
	    { echo "error: $(FFMPEG_SRC) is not FFmpeg $(FFMPEG_VERSION) (see its RELEASE file)"; exit 1; }
	cp -pR '$(FFMPEG_SRC)/.' $(SRC).new/
else
	tar -xJf $(FFMPEG_TARBALL_OUT) -C $(SRC).new --strip-components=1
endif
	@for p in $(PATCHES); do \
	    echo "patch: $$(basename $$p)"; \
	    patch -d $(SRC).new -p1 -s --no-backup-if-mismatch < $$p || exit 1; \
	done
	@if [ -d $(SRC) ]; then \
	    cd $(SRC).new && find . -type f | while read f; do \
	        if cmp -s "$$f" "$(SRC)/$$f"; then touch -r "$(SRC)/$$f" "$$f"; else touch "$$f"; fi; \
	        done; fi
	rm -rf $(SRC) && mv $(SRC).new $(SRC)
	@for l in $(LINKS); do ln -sfn $(TOP)/$${l#*:} $(SRC)/$${l%%:*}; done
	@touch $@

# A change to LINKS prepares the tree again, so that no link is left over.
$(BUILD)/.links: FORCE
	@mkdir -p $(@D)
	@echo '$(LINKS)' | cmp -s - $@ || echo '$(LINKS)' > $@

prepare: $(BUILD)/.prepared

# ------------------------------------------------------------- configure ---

$(OBJ)/.configure-flags $(FULL)/.configure-flags: FORCE
	@mkdir -p $(@D)
	@echo '$(if $(filter $(OBJ)/%,$@),$(CONFIGURE_FLAGS),$(FULL_FLAGS) $(EXTERNAL_LIBS)) $(CONFIGURE_ENV)' | \
	    cmp -s - $@ || echo '$(if $(filter $(OBJ)/%,$@),$(CONFIGURE_FLAGS),$(FULL_FLAGS) $(EXTERNAL_LIBS)) $(CONFIGURE_ENV)' > $@

$(OBJ)/.configured: $(BUILD)/.prepared $(NVHEADERS_STAMP) $(OBJ)/.configure-flags
	@mkdir -p $(OBJ)
	cd $(OBJ) && $(CONFIGURE_ENV) $(SRC)/configure $(CONFIGURE_FLAGS) > configure.log 2>&1 || \
	    { tail -n 30 $(OBJ)/configure.log; tail -n 40 $(OBJ)/ffbuild/config.log; exit 1; }
	@touch $@

$(FULL)/.configured: $(BUILD)/.prepared $(NVHEADERS_STAMP) $(FULL)/.configure-flags tools/configure-full.sh
	$(CONFIGURE_ENV) sh tools/configure-full.sh $(SRC) $(FULL) '$(EXTERNAL_LIBS)' $(FULL_FLAGS)
	@touch $@

configure: $(FULL)/.configured

# ----------------------------------------------------------------- build ---

# The complete build, installed into build/dist (bin, lib, include, share),
# which build/ffmpeg, build/ffprobe and build/ffplay point into.
build: $(FULL)/.configured
	+$(MAKE) -C $(FULL) -j$(JOBS)
	@sh tools/install-full.sh $(FULL) $(DIST)
	@for p in ffmpeg ffprobe ffplay; do rm -f $(BUILD)/$$p; \
	    [ ! -x $(DIST)/bin/$$p ] || ln -s dist/bin/$$p $(BUILD)/$$p; done
	@echo "built: build/ffmpeg build/ffprobe$$([ -x $(DIST)/bin/ffplay ] && echo ' build/ffplay') (the tree: build/dist)"

# The small static build of the tests.
obj: $(OBJ)/.configured
	+$(MAKE) -C $(OBJ) -j$(JOBS) ffmpeg ffprobe

# make install: the complete build under PREFIX.
install: build
	@sh tools/install-full.sh $(FULL) $(PREFIX)
	@echo "installed into $(PREFIX)"

# make deb: a Debian package of the complete build, under /usr/lib/c63-ffmpeg
# (tools/make-deb.sh).
deb: build
	@sh tools/make-deb.sh $(FULL) $(BUILD)

# ------------------------------------------------------------------ tests ---

# Runs every CPU test: the FATE tests on the small build (and builds the
# benchmark's tests/cpuscaling), the patches applied to a git tree of the
# release with git am -3 (tools/patches.sh), then, on the complete build, installed into
# build/inst and packaged: the installed libraries through the API example,
# the user pipelines, the component lists against the distribution's
# ffmpeg, ffplay under Xvfb, the package in a fresh root file system and
# PyAV (tests/check.sh); prints each failure and "N passed, N failed".
LICENSE := $(if $(filter nvcc,$(CUDA_COMPILER)),nonfree,free)

check: build obj checkcuda checkdrawtext checkframediff deb
	+@$(MAKE) --no-print-directory $(OBJ)/tests/cpuscaling
	@rm -f $(OBJ)/tests/data/fate/*.rep
	-+$(MAKE) -C $(OBJ) -j$(JOBS) -k fate-c63-all
	@echo "check: installing the complete build into build/inst"
	@rm -rf $(BUILD)/inst && sh tools/install-full.sh $(FULL) $(BUILD)/inst
	@FFMPEG_SOURCE=$(or $(FFMPEG_SRC),$(FFMPEG_TARBALL_OUT)) \
	    sh tests/check.sh $(OBJ) $(BUILD) $(BUILD)/inst $(LICENSE) \
	    $$($(MAKE) -s --no-print-directory -C $(OBJ) fate-c63-list)

# The clients of the complete build alone: the package in a fresh root file
# system and PyAV built against the installed libraries.
check-clients: build deb
	@rm -rf $(BUILD)/inst && sh tools/install-full.sh $(FULL) $(BUILD)/inst
	@sh tests/check.sh --clients $(OBJ) $(BUILD) $(BUILD)/inst $(LICENSE)

check-gpu: obj checkcuda
	@sh tests/check-gpu.sh $(BUILD) $(OBJ) $(JOBS)

# build/gpu: binaries and GPU tests for a machine with a GPU but no build
# tree (see tools/gpu-bundle.sh); run there with sh build/gpu/run.sh.
# GPU_BUNDLE names another folder under build/, e.g. for an nvcc build.
GPU_BUNDLE ?= gpu

gpu-bundle: obj checkcuda
	+@$(MAKE) --no-print-directory $(OBJ)/tests/cpuscaling
	@sh tools/gpu-bundle.sh $(BUILD) $(OBJ) $(BUILD)/$(GPU_BUNDLE)

# checkcuda: the CUDA kernels against their CPU twins: tests/harness/checkcuda.cpp
# (main and what the components share) and a file for each component's
# kernels, checkcuda_NAME.cpp. Built by make check too, so that it always
# compiles; it needs a GPU only to run.
CHECKCUDA_LIBS := $(OBJ)/libavfilter/libavfilter.a $(OBJ)/libavcodec/libavcodec.a $(OBJ)/libavutil/libavutil.a
CHECKCUDA_OBJS := $(patsubst %,$(OBJ)/tests/checkcuda/%.o,checkcuda checkcuda_c63 checkcuda_drawtext \
                                                          checkcuda_mestimate)

# The harnesses built here (checkcuda's objects, checkdrawtext,
# checkframediff) write their dependencies as the FFmpeg build's objects
# do, the compiler listing the headers each includes (NAME.d beside it),
# read back here.
HARNESS_DEPFLAGS = -MMD -MP -MF $@.d -MT $@
-include $(wildcard $(CHECKCUDA_OBJS:=.d) $(OBJ)/checkdrawtext.d $(OBJ)/checkframediff.d)

# Its benchmark kernels are a PTX of their own (tests/harness/checkcuda_bench.cu,
# built by the FATE rules of tests/fate/c63-gpu.mak), linked in here.
CHECKCUDA_PTX := $(OBJ)/tests/checkcuda_bench.ptx.o

checkcuda: obj
	+@$(MAKE) --no-print-directory -C $(OBJ) tests/checkcuda_bench.ptx.o
	+@$(MAKE) --no-print-directory $(OBJ)/checkcuda $(OBJ)/cudatime.so
	@cmp -s $(OBJ)/checkcuda $(BUILD)/checkcuda || cp $(OBJ)/checkcuda $(BUILD)/checkcuda

$(OBJ)/tests/checkcuda/%.o: tests/harness/%.cpp
	@mkdir -p $(@D)
	$(CXX) -O2 -std=c++11 -ffp-contract=off -Wall -I$(SRC) -I$(OBJ) $(if $(NVHEADERS_DIR),-I$(NVHEADERS_DIR)/include) \
	    $(HARNESS_DEPFLAGS) -c -o $@ $<

$(OBJ)/checkcuda: $(CHECKCUDA_OBJS) $(CHECKCUDA_PTX) $(CHECKCUDA_LIBS)
	$(CXX) -o $@ $(CHECKCUDA_OBJS) $(CHECKCUDA_PTX) $(CHECKCUDA_LIBS) -lm -lpthread -ldl -lz -latomic

# cudatime.so: kernel times from CUDA events for the benchmarks
# (bench/cudatime.cpp, preloaded); built here so that it always compiles.
$(OBJ)/cudatime.so: bench/cudatime.cpp
	$(CXX) -shared -fPIC -O2 -std=c++11 -Wall -o $@ $< -ldl

# tests/cpuscaling: the host's own scaling of a loop that shares nothing,
# beside the thread scaling that bench/bench-c63cpu.sh measures (not a
# test). Built here, bench/ being no part of the FFmpeg tree, into the
# small build's tests/, where the benchmark and the GPU bundle look for it.
$(OBJ)/tests/cpuscaling: bench/cpuscaling.cpp
	@mkdir -p $(@D)
	$(CXX) -O2 -std=c++17 -o $@ $< -lpthread

# checkdrawtext: drawtext_cuda's kernel code (kernels/drawtext_cuda.h) run
# on the CPU against drawutils; a FATE test of make check runs it.
CHECKDRAWTEXT_LIBS := $(OBJ)/libavfilter/libavfilter.a $(OBJ)/libavutil/libavutil.a

checkdrawtext: obj
	+@$(MAKE) --no-print-directory $(OBJ)/checkdrawtext

$(OBJ)/checkdrawtext: tests/harness/checkdrawtext.c $(CHECKDRAWTEXT_LIBS)
	$(CC) -O2 -std=c11 -Wall -I$(SRC) -I$(OBJ) $(HARNESS_DEPFLAGS) -o $@ $< $(CHECKDRAWTEXT_LIBS) -lm -lpthread

# checkframediff: the framediff decoder against hostile packets, and the
# lists' software code (the CUDA kernel's CPU twin) against a model of the
# layout; a FATE test of make check runs it.
CHECKFRAMEDIFF_LIBS := $(OBJ)/libavcodec/libavcodec.a $(OBJ)/libavutil/libavutil.a

checkframediff: obj
	+@$(MAKE) --no-print-directory $(OBJ)/checkframediff

$(OBJ)/checkframediff: tests/harness/checkframediff.c $(CHECKFRAMEDIFF_LIBS)
	$(CC) -O2 -std=c11 -Wall -I$(SRC) -I$(OBJ) $(HARNESS_DEPFLAGS) -o $@ $< $(CHECKFRAMEDIFF_LIBS) \
	    -lz -lm -lpthread -ldl -latomic

# ------------------------------------------------------ sanitizers, fuzzing ---

# make check-asan: the whole CPU FATE suite (checkc63 included) built with
# AddressSanitizer and UndefinedBehaviorSanitizer (clang) in build/asan;
# any report fails the test it occurs in.
ASAN := $(BUILD)/asan
ASAN_FLAGS := $(CONFIGURE_FLAGS) --cc=$(CLANG) --cxx=$(subst clang,clang++,$(CLANG)) \
    --toolchain=clang-asan-ubsan --disable-stripping
export ASAN_OPTIONS  ?= detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1

# A sanitizer build's configuration: $(1) its folder, $(2) its flags; it
# is configured again when they change.
define SANITIZER_BUILD
$(1)/.configure-flags: FORCE
	@mkdir -p $$(@D)
	@echo '$(2) $$(CONFIGURE_ENV)' | cmp -s - $$@ || echo '$(2) $$(CONFIGURE_ENV)' > $$@

$(1)/.configured: $$(BUILD)/.prepared $$(NVHEADERS_STAMP) $(1)/.configure-flags
	cd $(1) && $$(CONFIGURE_ENV) $$(SRC)/configure $(2) > configure.log 2>&1 || \
	    { tail -n 30 $(1)/configure.log; tail -n 40 $(1)/ffbuild/config.log; exit 1; }
	@touch $$@
endef
$(eval $(call SANITIZER_BUILD,$(ASAN),$(ASAN_FLAGS)))

# the drawtext_cuda kernel-on-the-CPU harness, as in build/obj but instrumented
$(ASAN)/checkdrawtext: tests/harness/checkdrawtext.c FORCE
	+$(MAKE) -C $(ASAN) -j$(JOBS) libavfilter/libavfilter.a libavutil/libavutil.a
	$(CLANG) -O1 -g -fsanitize=address,undefined -std=c11 -Wall -I$(SRC) -I$(ASAN) -o $@ $< \
	    $(ASAN)/libavfilter/libavfilter.a $(ASAN)/libavutil/libavutil.a -lm -lpthread

# and the framediff decoder's harness
$(ASAN)/checkframediff: tests/harness/checkframediff.c FORCE
	+$(MAKE) -C $(ASAN) -j$(JOBS) libavcodec/libavcodec.a libavutil/libavutil.a
	$(CLANG) -O1 -g -fsanitize=address,undefined -std=c11 -Wall -I$(SRC) -I$(ASAN) -o $@ $< \
	    $(ASAN)/libavcodec/libavcodec.a $(ASAN)/libavutil/libavutil.a -lz -lm -lpthread -ldl

check-asan: $(ASAN)/.configured
	+$(MAKE) -C $(ASAN) -j$(JOBS) ffmpeg ffprobe
	+$(MAKE) $(ASAN)/checkdrawtext $(ASAN)/checkframediff
	@rm -f $(ASAN)/tests/data/fate/*.rep
	-+$(MAKE) -C $(ASAN) -j$(JOBS) -k fate-c63-all
	@echo "check-asan: the CPU FATE suite under AddressSanitizer and UndefinedBehaviorSanitizer"
	@sh tests/summary.sh $(ASAN) $$($(MAKE) -s --no-print-directory -C $(ASAN) fate-c63-list)

# make check-tsan: the FATE tests that run the codecs on two or more
# threads (thread counts, encthreads, decthreads, encapi) built with
# ThreadSanitizer (clang) in build/tsan; any report fails the test it
# occurs in.
TSAN := $(BUILD)/tsan
TSAN_FLAGS := $(CONFIGURE_FLAGS) --cc=$(CLANG) --cxx=$(subst clang,clang++,$(CLANG)) \
    --toolchain=clang-tsan --disable-stripping
export TSAN_OPTIONS ?= halt_on_error=1
TSAN_LIST = $(MAKE) -s --no-print-directory -C $(TSAN) fate-c63-list | tr ' ' '\n' | grep -E 'thread|encapi'

$(eval $(call SANITIZER_BUILD,$(TSAN),$(TSAN_FLAGS)))

check-tsan: $(TSAN)/.configured
	+$(MAKE) -C $(TSAN) -j$(JOBS) ffmpeg ffprobe
	@rm -f $(TSAN)/tests/data/fate/*.rep
	-+$(MAKE) -C $(TSAN) -j$(JOBS) -k $$($(TSAN_LIST) | sed 's/^/fate-/')
	@echo "check-tsan: the threaded FATE tests under ThreadSanitizer"
	@sh tests/summary.sh $(TSAN) $$($(TSAN_LIST))

# make check-valgrind: a representative subset (decode, encode, each
# filter, each error path) under valgrind memcheck (tests/valgrind.sh).
check-valgrind: obj checkframediff
	+@$(MAKE) --no-print-directory -C $(OBJ) tests/encapi tests/ecserial
	@sh tests/valgrind.sh $(BUILD)

# make fuzz: libFuzzer targets built with clang and
# -fsanitize=fuzzer,address,undefined in build/fuzz: FFmpeg's own
# tools/target_dec_fuzzer.c for the c63 decoder (and the parser through
# it) and the framediff decoder, tools/target_dem_fuzzer.c for the c63
# demuxer, and
# tests/fuzz/target_framediffapply_fuzzer.c for hostile difference lists,
# tests/fuzz/target_c63hd_fuzzer.cpp for the CPU twin of the GPU decoder's
# parallel entropy decoding against the serial decoder;
# each runs FUZZ_SECONDS on inputs of at most FUZZ_MAX_LEN bytes (default
# 8192; tests/fuzz/run-fuzz.sh). The patches "tools/target_dec_fuzzer"
# and "tools/target_dem_fuzzer" bound what an input of FFmpeg's two targets
# may cost (docs/ROBUSTNESS.md).
FUZZ := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := target_dec_c63_fuzzer target_dem_c63_fuzzer target_framediffapply_fuzzer \
                target_dec_framediff_fuzzer target_c63hd_fuzzer
FUZZ_FLAGS := --cc=$(CLANG) --cxx=$(subst clang,clang++,$(CLANG)) \
    --toolchain=clang-asan-ubsan-fuzz --enable-ossfuzz --disable-stripping \
    --disable-autodetect --disable-everything --disable-programs --disable-doc \
    --enable-pthreads --enable-zlib --enable-gpl \
    --enable-decoder=c63,framediff --enable-parser=c63 --enable-demuxer=c63 --enable-protocol=file \
    --enable-filter=framediffapply,buffer,buffersink,format,null

$(FUZZ)/.configure-flags: FORCE
	@mkdir -p $(@D)
	@echo '$(FUZZ_FLAGS)' | cmp -s - $@ || echo '$(FUZZ_FLAGS)' > $@

$(FUZZ)/.configured: $(BUILD)/.prepared $(FUZZ)/.configure-flags
	cd $(FUZZ) && $(SRC)/configure $(FUZZ_FLAGS) > configure.log 2>&1 || \
	    { tail -n 30 $(FUZZ)/configure.log; tail -n 40 $(FUZZ)/ffbuild/config.log; exit 1; }
	@touch $@

FUZZ_LIBS = $(FUZZ)/libavfilter/libavfilter.a $(FUZZ)/libavformat/libavformat.a \
            $(FUZZ)/libavcodec/libavcodec.a $(FUZZ)/libswscale/libswscale.a \
            $(FUZZ)/libswresample/libswresample.a $(FUZZ)/libavutil/libavutil.a

$(FUZZ)/target_framediffapply_fuzzer: tests/fuzz/target_framediffapply_fuzzer.c $(FUZZ)/.built
	$(CLANG) -O1 -g -fsanitize=fuzzer,address,undefined -I$(SRC) -I$(FUZZ) -o $@ $< \
	    $(FUZZ_LIBS) -lm -lz -lpthread

$(FUZZ)/target_c63hd_fuzzer: tests/fuzz/target_c63hd_fuzzer.cpp tests/harness/hdcompare.h \
    tests/harness/c63hd_serial.h kernels/c63_hdec.h $(FUZZ)/.built
	$(subst clang,clang++,$(CLANG)) -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined \
	    -I$(SRC) -I$(FUZZ) -o $@ $< $(FUZZ_LIBS) -lm -lz -lpthread

$(FUZZ)/.built: $(FUZZ)/.configured FORCE
	@mkdir -p $(FUZZ)/tools
	+$(MAKE) -C $(FUZZ) -j$(JOBS) tools/target_dec_c63_fuzzer tools/target_dem_c63_fuzzer \
	    tools/target_dec_framediff_fuzzer $(subst $(FUZZ)/,,$(FUZZ_LIBS))
	@cp $(FUZZ)/tools/target_dec_c63_fuzzer $(FUZZ)/tools/target_dem_c63_fuzzer \
	    $(FUZZ)/tools/target_dec_framediff_fuzzer $(FUZZ)/
	@touch $@

fuzz: $(FUZZ)/.built $(FUZZ)/target_framediffapply_fuzzer $(FUZZ)/target_c63hd_fuzzer
	@sh tests/fuzz/run-fuzz.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

bench: build obj
	+@$(MAKE) --no-print-directory -C $(OBJ) tests/encthreads tests/decthreads
	+@$(MAKE) --no-print-directory $(OBJ)/tests/cpuscaling
	@sh bench/bench.sh $(BUILD)

run: build
	@sh tools/run.sh $(BUILD)

# ----------------------------------------------------------------- clean ---

clean:
	-[ -f $(OBJ)/Makefile ] && $(MAKE) -C $(OBJ) clean
	-[ -f $(FULL)/Makefile ] && $(MAKE) -C $(FULL) clean
	rm -f $(BUILD)/ffmpeg $(BUILD)/ffprobe $(BUILD)/ffplay $(BUILD)/checkcuda

distclean:
	rm -rf $(BUILD)

FORCE:
