# mestimate_cuda tests. Included from fate.mak after the generic REF, as
# these tests set their own: every GPU test fate-mestimate-cuda-NAME is
# compared with the reference ref/mestimate-NAME that the CPU test
# fate-mestimate-NAME writes with mestimate alone, and must moreover equal
# mestimate's output of the same run byte for byte (tests/fate/mestimate.sh).

ME_SH     = sh $(C63_FATE)/mestimate.sh
ME_MVDUMP = $$$$(target_path tests/mvdump$(EXESUF))

# tests/mvdump: the motion vector side data of a graph's output, printed.
tests/mvdump$(EXESUF): $(C63_HARNESS)/mvdump.c libavfilter/libavfilter.a libswscale/libswscale.a \
                       libavcodec/libavcodec.a libavutil/libavutil.a
	$(CC) -O2 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavfilter/libavfilter.a libswscale/libswscale.a \
	    libavformat/libavformat.a libavcodec/libavcodec.a libswresample/libswresample.a \
	    libavutil/libavutil.a $(EXTRALIBS-avfilter) $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -ldl -lz

# tests/checkbm: the block matching of c63_me and mestimate_bmN
# (block_match.h) run on the CPU against ff_me_search_esa and the search of
# docs/c63-format.md section 7.3.
tests/checkbm$(EXESUF): $(C63_HARNESS)/checkbm.cpp libavfilter/libavfilter.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++11 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavfilter/libavfilter.a \
	    libavutil/libavutil.a $(EXTRALIBS-avfilter) $(EXTRALIBS-avutil)

# tests/checkme: the kernel's search code (me_search.h) against ff_me_search_*.
tests/checkme$(EXESUF): $(C63_HARNESS)/checkme.c libavfilter/libavfilter.a libavutil/libavutil.a
	$(CC) -O2 -I$(SRC_PATH) -I. $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< libavfilter/libavfilter.a libavutil/libavutil.a \
	    $(EXTRALIBS-avfilter) $(EXTRALIBS-avutil)

# 5 frames of 99x75 (not a multiple of any block size) with motion and noise
ME_SRC    = testsrc2=s=128x96:r=10:d=0.5,format=rgb24,crop=w=99:h=75:x=3:y=2,noise=alls=12:allf=t
# camera-like: a pan over a zooming fractal, with sensor-like noise
ME_CAMERA = mandelbrot=s=480x360:r=10:start_scale=2:end_scale=0.2:end_pts=40,trim=end_frame=6,crop=w=321:h=241:x='40+7*n':y='30+4*n',noise=alls=10:allf=t
ME_METHODS = esa tss tdls ntss fss ds hexbs

# fate-mestimate[-cuda]-NAME: NAME SRC FORMAT OPTS [all]
define ME_TEST
FATE_ME_CPU += fate-mestimate-$(1)
FATE_ME_GPU += fate-mestimate-cuda-$(1)
fate-mestimate-$(1):      CMD = $$(ME_SH) cpu $(ME_MVDUMP) "$(2)" $(3) "$(4)" $(5)
fate-mestimate-cuda-$(1): CMD = $$(ME_SH) gpu $(ME_MVDUMP) "$(2)" $(3) "$(4)" $(5)
fate-mestimate-$(1) fate-mestimate-cuda-$(1): REF = $$(C63_FATE)/ref/mestimate-$(1)
endef

# every method: mb_size 8, 16, 32 and 12 (rounded to 16) with search_param
# 7; search_param 4 and 32 with mb_size 16; camera-like content
$(foreach m,$(ME_METHODS),$(foreach b,8 12 16 32,\
    $(eval $(call ME_TEST,$(m)-mb$(b),$(ME_SRC),yuv420p,method=$(m):mb_size=$(b)))))
$(foreach m,$(ME_METHODS),$(foreach p,4 32,\
    $(eval $(call ME_TEST,$(m)-p$(p),$(ME_SRC),yuv420p,method=$(m):search_param=$(p)))))
$(foreach m,$(ME_METHODS),\
    $(eval $(call ME_TEST,$(m)-camera,$(ME_CAMERA),yuv420p,method=$(m))))
$(eval $(call ME_TEST,esa-camera-mb8-p32,$(ME_CAMERA),yuv420p,method=esa:mb_size=8:search_param=32))
$(eval $(call ME_TEST,ds-camera-mb32-p32,$(ME_CAMERA),yuv420p,method=ds:mb_size=32:search_param=32))
# every input format (the first plane is searched; mestimate gets nv12's
# luma through yuv420p)
$(foreach f,yuva420p nv12 yuv444p gray,\
    $(eval $(call ME_TEST,esa-$(f),$(ME_SRC),$(f),method=esa)))
$(eval $(call ME_TEST,hexbs-nv12,$(ME_SRC),nv12,method=hexbs))
# one block; one row of blocks and a cut-off rest; every vector printed
$(eval $(call ME_TEST,esa-one-block,testsrc2=s=8x8:r=10:d=0.4,yuv420p,method=esa:mb_size=8,all))
$(eval $(call ME_TEST,ds-mb8-p4,$(ME_SRC),yuv420p,method=ds:mb_size=8:search_param=4,all))
$(eval $(call ME_TEST,tss-34x18,testsrc2=s=34x18:r=10:d=0.4,yuv420p,method=tss:mb_size=8,all))
# 1080p, mestimate's defaults
$(eval $(call ME_TEST,esa-1080p,testsrc2=s=1920x1080:r=10:d=0.3,yuv420p,method=esa))

# drawn by codecview: identical pictures (GPU only)
FATE_ME_GPU += fate-mestimate-cuda-codecview
fate-mestimate-cuda-codecview: CMD = $(ME_SH) draw $$(target_path ffmpeg) "$(ME_SRC)" yuv420p "method=esa"
fate-mestimate-cuda-codecview: CMP = null

# errors: the methods not on the GPU, no device, no whole block
ME_ERR = fate-mestimate-cuda-epzs fate-mestimate-cuda-umh fate-mestimate-cuda-nodevice \
         fate-mestimate-cuda-nocuda
fate-mestimate-cuda-epzs:     CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "mestimate_cuda=method=epzs"
fate-mestimate-cuda-umh:      CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "mestimate_cuda=method=umh"
fate-mestimate-cuda-nodevice: CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "hwupload_cuda,mestimate_cuda" nodevice
fate-mestimate-cuda-nocuda:   CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=yuv420p,mestimate_cuda"
fate-mestimate-small:         CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=14x14:r=5:d=1" "format=yuv420p,mestimate=mb_size=12"
fate-mestimate-help:          CMD = $(ME_SH) help $$(target_path ffmpeg)
fate-mestimate-checkme:       CMD = run tests/checkme$(EXESUF)
fate-mestimate-checkme: tests/checkme$(EXESUF)
fate-mestimate-checkbm:       CMD = run tests/checkbm$(EXESUF)
fate-mestimate-checkbm: tests/checkbm$(EXESUF)
ME_CPU_OTHER = fate-mestimate-small fate-mestimate-help fate-mestimate-checkme fate-mestimate-checkbm $(ME_ERR)
$(ME_CPU_OTHER): REF = $(C63_FATE)/ref/$(@:fate-%=%)

# GPU errors: a format without 8-bit luma first, no whole block, a size
# change mid-stream (need a device; the ffmpeg command line reconfigures the
# graph on a size change, so tests/filterrun feeds 96x64 frames, then 80x48
# ones, to one graph)
ME_ERR_GPU = fate-mestimate-cuda-badformat fate-mestimate-cuda-small fate-mestimate-cuda-sizechange
fate-mestimate-cuda-badformat:  CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=p010le,hwupload_cuda,mestimate_cuda"
fate-mestimate-cuda-small:      CMD = $(ME_SH) error $$(target_path ffmpeg) "testsrc2=s=14x14:r=5:d=1" "format=yuv420p,hwupload_cuda,mestimate_cuda=mb_size=12"
fate-mestimate-cuda-sizechange: CMD = $(ME_SH) sizechange $$(target_path tests/filterrun$(EXESUF)) "testsrc2=s=96x64:r=10,format=yuv420p" "testsrc2=s=80x48:r=10,format=yuv420p" "method=esa:mb_size=16"
fate-mestimate-cuda-sizechange: tests/filterrun$(EXESUF)
$(ME_ERR_GPU): REF = $(C63_FATE)/ref/$(@:fate-%=%)

$(FATE_ME_CPU) $(FATE_ME_GPU): tests/mvdump$(EXESUF)
$(FATE_ME_CPU) $(FATE_ME_GPU) $(ME_CPU_OTHER) $(ME_ERR_GPU): $(C63_FATE)/mestimate.sh

FATE_C63_ALL += $(FATE_ME_CPU) $(ME_CPU_OTHER)
FATE_C63_GPU += $(FATE_ME_GPU) $(ME_ERR_GPU)
