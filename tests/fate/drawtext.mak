# drawtext_cuda tests. Included from fate.mak; each test runs
# tests/fate/drawtext.sh (see there), whose output is compared with
# tests/fate/ref/<test>.
#
# Every GPU case fate-drawtext-cuda-X has a CPU twin fate-drawtext-X in
# make check: drawtext alone, whose frame checksums are the reference that
# both share. The GPU test runs drawtext and drawtext_cuda on the same
# frames and fails on any difference.

DRAWTEXT_SH = sh $(C63_FATE)/drawtext.sh
DRAWTEXT_FONT_OPT = fontfile=@FONT@

# Odd sizes are cut from a larger picture (testsrc2 makes even sizes only).
DRAWTEXT_SRC = testsrc2=s=1280x720:r=10:d=$(3),format=rgb24,crop=w=$(word 1,$(subst x, ,$(2))):h=$(word 2,$(subst x, ,$(2))):x=0:y=0

DRAWTEXT_FORMATS = yuv420p nv12 yuv444p 0rgb 0bgr rgb0 bgr0 yuyv422 uyvy422 rgb24 bgr24 gray
DRAWTEXT_SIZES   = 33x17 321x241 1280x720
# Packed 4:2:2 at even widths: the twin converts to yuv422p and back, and
# swscale drops the last pixel of an odd-width line when it packs.
DRAWTEXT_SIZES_yuyv422 = 34x17 322x241 1280x720
DRAWTEXT_SIZES_uyvy422 = $(DRAWTEXT_SIZES_yuyv422)
DRAWTEXT_CASE_SIZE = $(if $(filter yuyv422 uyvy422,$(1)),162x97,161x97)

# name, options (: separated, drawtext's syntax), duration
DRAWTEXT_CASE_line     = $(DRAWTEXT_FONT_OPT):text=Hello World!:fontsize=20:fontcolor=white:x=5:y=3
DRAWTEXT_CASE_lines    = $(DRAWTEXT_FONT_OPT):textfile=@SAMPLES@/drawtext-lines.txt:fontsize=15:line_spacing=4:text_align=C:fontcolor=yellow:x=4:y=2
DRAWTEXT_CASE_right    = $(DRAWTEXT_FONT_OPT):textfile=@SAMPLES@/drawtext-lines.txt:fontsize=13:line_spacing=-2:text_align=R+B:boxw=200:boxh=80:box=1:boxcolor=black@0.5:fontcolor=white:x=3:y=1
DRAWTEXT_CASE_box      = $(DRAWTEXT_FONT_OPT):text=Box:fontsize=24:box=1:boxcolor=blue@0.6:boxborderw=5|10|3|7:fontcolor=white:x=9:y=7
DRAWTEXT_CASE_border   = $(DRAWTEXT_FONT_OPT):text=Border:fontsize=22:borderw=2:bordercolor=red:fontcolor=white:x=3:y=3
DRAWTEXT_CASE_shadow   = $(DRAWTEXT_FONT_OPT):text=Shadow:fontsize=22:shadowx=3:shadowy=-2:shadowcolor=green@0.5:fontcolor=white:x=4:y=6
DRAWTEXT_CASE_alpha    = $(DRAWTEXT_FONT_OPT):text=Alpha:fontsize=26:alpha=0.4:box=1:boxcolor=red:borderw=1:fontcolor=white:x=2:y=1
DRAWTEXT_CASE_colors   = $(DRAWTEXT_FONT_OPT):text=Colours:fontsize=21:fontcolor=0xff8000@0.7:box=1:boxcolor=0x00ff00@0.3:borderw=1:bordercolor=0x2040ff@0.5:x=1:y=1
DRAWTEXT_CASE_movein   = $(DRAWTEXT_FONT_OPT):text=Moving text:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.4:boxborderw=3:x=n*53-80:y=n*29-30
DRAWTEXT_CASE_moveout  = $(DRAWTEXT_FONT_OPT):text=Moving text:fontsize=18:fontcolor=cyan:borderw=2:shadowx=2:shadowy=2:x=w-n*41:y=h-n*23
DRAWTEXT_CASE_expand   = $(DRAWTEXT_FONT_OPT):textfile=@SAMPLES@/drawtext-expand.txt:fontsize=12:fontcolor=white:box=1:boxcolor=black@0.5:x=1:y=1
DRAWTEXT_CASE_reload   = $(DRAWTEXT_FONT_OPT):textfile=@SAMPLES@/drawtext-lines.txt:reload=2:fontsize=12:fontcolor=white:x=0:y=0
DRAWTEXT_CASE_enable   = $(DRAWTEXT_FONT_OPT):text=On and off:fontsize=16:fontcolor=white:box=1:x=2:y=2:enable=(n-1)*(n-6)*(n-8)
DRAWTEXT_CASE_big      = $(DRAWTEXT_FONT_OPT):text=Big:fontsize=400:fontcolor=white@0.8:x=-20:y=-30
DRAWTEXT_CASE_fix      = $(DRAWTEXT_FONT_OPT):text=Fixed bounds:fontsize=20:fix_bounds=1:borderw=3:fontcolor=white:x=w-20:y=h-5
DRAWTEXT_CASE_empty    = $(DRAWTEXT_FONT_OPT):text=:box=1:boxw=10:boxh=6:boxcolor=red:x=3:y=3
DRAWTEXT_CASE_missing  = $(DRAWTEXT_FONT_OPT):text=ツ→☃ x:fontsize=20:fontcolor=white:x=3:y=3
DRAWTEXT_CASE_ybase    = $(DRAWTEXT_FONT_OPT):text=Baseline gy:fontsize=20:y_align=baseline:fontcolor=white:x=3:y=20
DRAWTEXT_CASE_long     = $(DRAWTEXT_FONT_OPT):text=Very long text 01 with words digits 0123456789 and symbols +-*/=. Very long text 02 with words digits 0123456789 and symbols +-*/=. Very long text 03 with words digits 0123456789 and symbols +-*/=. Very long text 04 with words digits 0123456789 and symbols +-*/=. Very long text 05 with words digits 0123456789 and symbols +-*/=. Very long text 06 with words digits 0123456789 and symbols +-*/=. Very long text 07 with words digits 0123456789 and symbols +-*/=. Very long text 08 with words digits 0123456789 and symbols +-*/=.:fontsize=11:fontcolor=white:box=1:boxcolor=black@0.3:borderw=1:x=2:y=40
# Lines that change from frame to frame at different places, among kerning
# pairs and ligatures (kern), and with hexadecimal letters among combining
# marks and right-to-left text, or that decide a line's script (reshape):
# the shared layout shapes only the changed parts of a line again, and must
# give what shaping the whole line gives (the references were made so).
DRAWTEXT_CASE_kern     = $(DRAWTEXT_FONT_OPT):textfile=@SAMPLES@/drawtext-kern.txt:fontsize=12:fontcolor=white:box=1:boxcolor=black@0.5:x=1:y=1
DRAWTEXT_CASE_reshape  = $(DRAWTEXT_FONT_OPT):textfile=@SAMPLES@/drawtext-reshape.txt:fontsize=10:fontcolor=white:box=1:boxcolor=black@0.5:x=1:y=1
# alpha changing from frame to frame (0 to 1 and back) with a box, a border
# and a shadow: drawtext keeps each drawing colour until it changes
DRAWTEXT_CASE_fade     = $(DRAWTEXT_FONT_OPT):text=Fade:fontsize=22:alpha=abs(n/4-1):box=1:boxcolor=blue@0.5:borderw=2:bordercolor=red@0.7:shadowx=2:shadowy=1:shadowcolor=green:fontcolor=white:x=3:y=2
DRAWTEXT_CASE_tc       = $(DRAWTEXT_FONT_OPT):timecode=01\\\:02\\\:03\\\:04:timecode_rate=25:fontsize=16:fontcolor=white:box=1:x=2:y=2:start_number=5

DRAWTEXT_CASES = line lines right box border shadow alpha colors movein moveout \
                 expand reload enable big fix empty missing ybase tc long fade

# (name, format, size, duration)
define DRAWTEXT_TEST
fate-drawtext-$(1)-$(2)-$(3):      CMD = $$(DRAWTEXT_SH) cpu $$$$(target_path ffmpeg) "$$(call DRAWTEXT_SRC,,$(3),$(4))" $(2) "$$(DRAWTEXT_CASE_$(1))"
fate-drawtext-cuda-$(1)-$(2)-$(3): CMD = $$(DRAWTEXT_SH) gpu $$$$(target_path ffmpeg) "$$(call DRAWTEXT_SRC,,$(3),$(4))" $(2) "$$(DRAWTEXT_CASE_$(1))"
fate-drawtext-cuda-$(1)-$(2)-$(3): REF = $$(C63_FATE)/ref/drawtext-$(1)-$(2)-$(3)
FATE_DRAWTEXT_CPU += fate-drawtext-$(1)-$(2)-$(3)
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-$(1)-$(2)-$(3)
endef

# one line on every format at every size; every case on every format at
# an odd size; the moving cases at every size too
$(foreach f,$(DRAWTEXT_FORMATS),$(foreach s,$(or $(DRAWTEXT_SIZES_$(f)),$(DRAWTEXT_SIZES)),$(eval $(call DRAWTEXT_TEST,line,$(f),$(s),0.3))))
$(foreach c,$(filter-out line,$(DRAWTEXT_CASES)),$(foreach f,$(DRAWTEXT_FORMATS),$(eval $(call DRAWTEXT_TEST,$(c),$(f),$(call DRAWTEXT_CASE_SIZE,$(f)),1))))
$(foreach c,kern reshape,$(foreach f,$(DRAWTEXT_FORMATS),$(eval $(call DRAWTEXT_TEST,$(c),$(f),$(call DRAWTEXT_CASE_SIZE,$(f)),3))))
$(foreach c,movein moveout,$(foreach f,yuv420p nv12 uyvy422 rgb24,$(foreach s,$(firstword $(or $(DRAWTEXT_SIZES_$(f)),$(DRAWTEXT_SIZES))) 1280x720,$(eval $(call DRAWTEXT_TEST,$(c),$(f),$(s),1)))))

# Pipelines: a capture format through the text filter and the difference
# filter (and the other way round, printing the difference statistics).
DRAWTEXT_PIPE_SRC = testsrc2=s=322x242:r=10:d=1,noise=alls=20:allf=t,crop=w=322:h=241:x=0:y=0
fate-drawtext-pipe-yuyv422:      CMD = POST=1 $(DRAWTEXT_SH) cpu $$(target_path ffmpeg) "$(DRAWTEXT_PIPE_SRC)" yuyv422 "$(DRAWTEXT_CASE_moveout)" threshold=20
fate-drawtext-cuda-pipe-yuyv422: CMD = POST=1 $(DRAWTEXT_SH) gpu $$(target_path ffmpeg) "$(DRAWTEXT_PIPE_SRC)" yuyv422 "$(DRAWTEXT_CASE_moveout)" threshold=20
fate-drawtext-pipe-nv12:         CMD = POST=1 $(DRAWTEXT_SH) cpu $$(target_path ffmpeg) "$(DRAWTEXT_PIPE_SRC)" nv12 "$(DRAWTEXT_CASE_box)" threshold=10:mode=diff
fate-drawtext-cuda-pipe-nv12:    CMD = POST=1 $(DRAWTEXT_SH) gpu $$(target_path ffmpeg) "$(DRAWTEXT_PIPE_SRC)" nv12 "$(DRAWTEXT_CASE_box)" threshold=10:mode=diff
fate-drawtext-sentratio-yuv420p:      CMD = $(DRAWTEXT_SH) cpu $$(target_path ffmpeg) "$(DRAWTEXT_PIPE_SRC)" yuv420p "$(DRAWTEXT_CASE_expand)" threshold=20
fate-drawtext-cuda-sentratio-yuv420p: CMD = $(DRAWTEXT_SH) gpu $$(target_path ffmpeg) "$(DRAWTEXT_PIPE_SRC)" yuv420p "$(DRAWTEXT_CASE_expand)" threshold=20
fate-drawtext-cuda-pipe-yuyv422:      REF = $(C63_FATE)/ref/drawtext-pipe-yuyv422
fate-drawtext-cuda-pipe-nv12:         REF = $(C63_FATE)/ref/drawtext-pipe-nv12
fate-drawtext-cuda-sentratio-yuv420p: REF = $(C63_FATE)/ref/drawtext-sentratio-yuv420p
FATE_DRAWTEXT_CPU += fate-drawtext-pipe-yuyv422 fate-drawtext-pipe-nv12 fate-drawtext-sentratio-yuv420p
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-pipe-yuyv422 fate-drawtext-cuda-pipe-nv12 fate-drawtext-cuda-sentratio-yuv420p

# tests/filterrun: a graph run frame by frame on CPU or CUDA frames, timed
# (the benchmark) or with the checksum of every output frame.
tests/filterrun$(EXESUF): $(C63_HARNESS)/filterrun.cpp libavfilter/libavfilter.a libswscale/libswscale.a \
                          libavformat/libavformat.a libavcodec/libavcodec.a libavutil/libavutil.a
	$(CXX) -O2 -std=c++11 -Wall -I$(SRC_PATH) -I. $(filter -I%,$(CFLAGS)) $(C63_DEPFLAGS) $(LDFLAGS) -o $@ $< \
	    libavfilter/libavfilter.a libswscale/libswscale.a libavformat/libavformat.a \
	    libavcodec/libavcodec.a libswresample/libswresample.a libavutil/libavutil.a \
	    $(EXTRALIBS-avfilter) $(EXTRALIBS-avcodec) $(EXTRALIBS-avutil) -ldl -lz

# Random texts changing from frame to frame (tools/make-drawtext-texts.py
# wrote tests/fate/samples/drawtext-texts.txt): the frames, drawn from the
# last layout with only the changed parts shaped again, must equal those
# laid out anew on every frame (drawtext.sh texts).
DRAWTEXT_TEXTS_OPTS = $(DRAWTEXT_FONT_OPT):textfile=@TEXTFILE@:reload=1:fontsize=20:fontcolor=white:borderw=1:x=2:y=2
fate-drawtext-texts-yuv420p:      CMD = $(DRAWTEXT_SH) texts cpu $$(target_path tests/filterrun$(EXESUF)) "testsrc2=s=320x64:r=25" yuv420p "$(DRAWTEXT_TEXTS_OPTS)" @SAMPLES@/drawtext-texts.txt
fate-drawtext-cuda-texts-yuv420p: CMD = $(DRAWTEXT_SH) texts gpu $$(target_path tests/filterrun$(EXESUF)) "testsrc2=s=320x64:r=25" yuv420p "$(DRAWTEXT_TEXTS_OPTS)" @SAMPLES@/drawtext-texts.txt
fate-drawtext-cuda-texts-yuv420p: REF = $(C63_FATE)/ref/drawtext-texts-yuv420p
FATE_DRAWTEXT_CPU += fate-drawtext-texts-yuv420p
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-texts-yuv420p

# textfile with reload: the file changes between frames (filterrun writes
# it before frames 0, 3 and 6, and feeds the frames one by one, so that
# the reload happens at a known frame); and the runner itself, timed.
DRAWTEXT_RELOAD_SRC = testsrc2=s=161x97:r=10
DRAWTEXT_RELOAD_OPTS = $(DRAWTEXT_FONT_OPT):textfile=@TEXTFILE@:reload=1:fontsize=14:fontcolor=white:box=1:boxcolor=black@0.5:x=2:y=2
define DRAWTEXT_RELOAD_TEST
fate-drawtext-textreload-$(1):      CMD = $$(DRAWTEXT_SH) reload cpu $$$$(target_path tests/filterrun$(EXESUF)) "$$(DRAWTEXT_RELOAD_SRC)" $(1) "$$(DRAWTEXT_RELOAD_OPTS)"
fate-drawtext-cuda-textreload-$(1): CMD = $$(DRAWTEXT_SH) reload gpu $$$$(target_path tests/filterrun$(EXESUF)) "$$(DRAWTEXT_RELOAD_SRC)" $(1) "$$(DRAWTEXT_RELOAD_OPTS)"
fate-drawtext-cuda-textreload-$(1): REF = $$(C63_FATE)/ref/drawtext-textreload-$(1)
FATE_DRAWTEXT_CPU += fate-drawtext-textreload-$(1)
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-textreload-$(1)
endef
$(foreach f,yuv420p nv12 rgb0 yuyv422,$(eval $(call DRAWTEXT_RELOAD_TEST,$(f))))

# Runtime commands that change the layout of a text that stays the same
# (filterrun sends them before frame 3): from there on, the frames must be
# those of a graph given the new values from the start.
DRAWTEXT_CMD_OPTS = $(DRAWTEXT_FONT_OPT):textfile=@TEXTFILE@:fontsize=14:fontcolor=white:box=1:boxcolor=black@0.5:x=2:y=2
DRAWTEXT_CMD_NEW  = line_spacing=9:tabsize=8:y_align=font
define DRAWTEXT_CMD_TEST
fate-drawtext-command-$(1):      CMD = $$(DRAWTEXT_SH) command cpu $$$$(target_path tests/filterrun$(EXESUF)) "$$(DRAWTEXT_RELOAD_SRC)" $(1) "$$(DRAWTEXT_CMD_OPTS)" "$$(DRAWTEXT_CMD_NEW)"
fate-drawtext-cuda-command-$(1): CMD = $$(DRAWTEXT_SH) command gpu $$$$(target_path tests/filterrun$(EXESUF)) "$$(DRAWTEXT_RELOAD_SRC)" $(1) "$$(DRAWTEXT_CMD_OPTS)" "$$(DRAWTEXT_CMD_NEW)"
fate-drawtext-cuda-command-$(1): REF = $$(C63_FATE)/ref/drawtext-command-$(1)
FATE_DRAWTEXT_CPU += fate-drawtext-command-$(1)
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-command-$(1)
endef
$(foreach f,yuv420p nv12 rgb0 yuyv422,$(eval $(call DRAWTEXT_CMD_TEST,$(f))))

fate-drawtext-filterrun:      CMD = $(DRAWTEXT_SH) time cpu $$(target_path tests/filterrun$(EXESUF)) "testsrc2=s=320x240:r=25,format=nv12" "$(DRAWTEXT_CASE_box)"
fate-drawtext-cuda-filterrun: CMD = $(DRAWTEXT_SH) time gpu $$(target_path tests/filterrun$(EXESUF)) "testsrc2=s=320x240:r=25,format=nv12" "$(DRAWTEXT_CASE_box)"
fate-drawtext-cuda-filterrun: REF = $(C63_FATE)/ref/drawtext-filterrun
FATE_DRAWTEXT_CPU += fate-drawtext-filterrun
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-filterrun
# the runner's --input (the benchmarks' camera footage): a c63 vector's
# pictures, decoded by libavcodec, one checksum each
fate-drawtext-filterrun-input: CMD = run tests/filterrun$(EXESUF) --md5 --input $(C63_SAMPLES)/qcif_keyint.c63 -k 5 -w 0 -n 5 "format=yuv420p" "null"
FATE_DRAWTEXT_CPU += fate-drawtext-filterrun-input

# Without a GPU (make check): registered, options listed, clean failures.
fate-drawtext-cuda-help:      CMD = $(DRAWTEXT_SH) help $$(target_path ffmpeg)
fate-drawtext-cuda-swframes:  CMD = $(DRAWTEXT_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=yuv420p,drawtext_cuda=$(DRAWTEXT_FONT_OPT):text=x"
fate-drawtext-cuda-badexpr-cpu: CMD = $(DRAWTEXT_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "drawtext_cuda=$(DRAWTEXT_FONT_OPT):text=x:fontsize=12+*"
fate-drawtext-cuda-kernelcpu: CMD = run checkdrawtext
FATE_DRAWTEXT_CPU += fate-drawtext-cuda-help fate-drawtext-cuda-swframes \
                     fate-drawtext-cuda-badexpr-cpu \
                     fate-drawtext-cuda-kernelcpu

# With a GPU only: errors found when the filter is configured.
fate-drawtext-cuda-badformat: CMD = $(DRAWTEXT_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=p010le,hwupload_cuda,drawtext_cuda=$(DRAWTEXT_FONT_OPT):text=x"
fate-drawtext-cuda-badexpr:   CMD = $(DRAWTEXT_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=nv12,hwupload_cuda,drawtext_cuda=$(DRAWTEXT_FONT_OPT):text=x:x=w+*2"
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-badformat fate-drawtext-cuda-badexpr

# With a GPU only: a size change mid-stream (filterrun feeds 160x96 frames,
# then 128x80 ones to the same graph) is refused.
fate-drawtext-cuda-sizechange: CMD = $(DRAWTEXT_SH) sizechange $$(target_path tests/filterrun$(EXESUF)) "testsrc2=s=160x96:r=10,format=nv12" "testsrc2=s=128x80:r=10,format=nv12" "$(DRAWTEXT_CASE_line)"
FATE_DRAWTEXT_GPU += fate-drawtext-cuda-sizechange

# Included after fate.mak's generic REF: every CPU test and the GPU error
# tests have a reference of their own name, each GPU twin its CPU twin's.
$(FATE_DRAWTEXT_CPU) fate-drawtext-cuda-badformat fate-drawtext-cuda-badexpr fate-drawtext-cuda-sizechange: REF = $(C63_FATE)/ref/$(@:fate-%=%)

$(FATE_DRAWTEXT_CPU) $(FATE_DRAWTEXT_GPU): $(C63_FATE)/drawtext.sh tests/filterrun$(EXESUF)
FATE_C63_ALL += $(FATE_DRAWTEXT_CPU)
FATE_C63_GPU += $(FATE_DRAWTEXT_GPU)
