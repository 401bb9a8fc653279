# framediff, framediffapply and cudadiff tests. Included from fate.mak;
# each test runs tests/fate/cudadiff.sh (see there), whose output is compared
# with tests/fate/ref/<test>.

CUDADIFF_SH = sh $(C63_FATE)/cudadiff.sh

# 10 frames with texture and temporal noise, so thresholds matter.
CUDADIFF_SRC     = testsrc2=s=96x64:r=10:d=1,noise=alls=20:allf=t
CUDADIFF_SRC_ODD = testsrc2=s=34x18:r=10:d=1,format=rgb24,crop=w=33:h=17:x=0:y=0,noise=alls=20:allf=t

# ---------------------------------------------------------------- CPU ---

fate-framediff-recon:     CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=yuv420p" "framediff"
fate-framediff-diff:      CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=yuv420p" "framediff=threshold=10:mode=diff"
fate-framediff-mask:      CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=rgb24" "framediff=mode=mask"
fate-framediff-thr0:      CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=yuv420p" "framediff=threshold=0"
fate-framediff-thr255:    CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=yuv420p" "framediff=threshold=255:mode=mask"
fate-framediff-refresh:   CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=nv12" "framediff=threshold=40:refresh=4:mode=diff"
fate-framediff-threads:   CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "$(CUDADIFF_SRC),format=yuv420p" "framediff=threshold=15" threads
fate-framediff-layout:    CMD = $(CUDADIFF_SH) frames $$(target_path ffmpeg) "testsrc2=s=8x4:r=5:d=0.6,format=rgb24,crop=w=7:h=3:x=0:y=0,noise=alls=30:allf=t,format=yuyv422" "framediff=threshold=25" entries
fate-framediff-receiver:  CMD = $(CUDADIFF_SH) receiver $$(target_path ffmpeg) "$(CUDADIFF_SRC_ODD)" "format=yuv420p" "threshold=15:refresh=6"
fate-framediff-receiver-packed: CMD = $(CUDADIFF_SH) receiver $$(target_path ffmpeg) "$(CUDADIFF_SRC_ODD)" "format=yuyv422" "threshold=30"
fate-framediff-sizechange: CMD = $(CUDADIFF_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "scale=w=64+8*trunc(n/2):h=48:eval=frame,format=yuv420p,framediff"
fate-framediffapply-nolist: CMD = $(CUDADIFF_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=yuv420p,framediffapply"
# a frame keeps its list through scale (the lists' side data type does not
# depend on the size): framediffapply refuses the list, naming both sizes
fate-framediffapply-scaled: CMD = $(CUDADIFF_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=yuv420p,framediff,scale=32:24,framediffapply"
# an H.264 stream of x264: its first frame also carries x264's own user
# data unregistered SEI, side data of the type the lists use
fate-framediff-receiver-x264: CMD = $(CUDADIFF_SH) receiver $$(target_path ffmpeg) "@SAMPLES@/x264-48x32.h264" "format=yuv420p" "threshold=15:refresh=4"

# The framediff codec (tests/fate/framediff-codec.sh): camera-like content
# (texture, motion, temporal noise) with a text overlay.
FRAMEDIFF_CODEC_SH = sh $(C63_FATE)/framediff-codec.sh
FRAMEDIFF_CAM  = testsrc2=s=$(1):r=25:d=$(2),noise=alls=6:allf=t
FRAMEDIFF_TEXT = drawtext=fontfile=@FONT@:text=%{n}:fontsize=18:fontcolor=white:box=1:boxcolor=black@0.5:x=4+n:y=6

fate-framediff-codec-nut:  CMD = $(FRAMEDIFF_CODEC_SH) codec $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,160x120,2)" "format=yuv420p,$(FRAMEDIFF_TEXT)" 20 10 nut
fate-framediff-codec-mkv:  CMD = $(FRAMEDIFF_CODEC_SH) codec $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,96x64,1)" "format=yuv444p,$(FRAMEDIFF_TEXT)" 10 7 matroska
fate-framediff-codec-avi:  CMD = $(FRAMEDIFF_CODEC_SH) codec $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,96x64,1)" "format=rgb24,$(FRAMEDIFF_TEXT)" 40 0 avi
fate-framediff-codec-list: CMD = $(FRAMEDIFF_CODEC_SH) codec $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,96x64,1)" "format=yuyv422" 15 6 nut list
fate-framediff-tcp:        CMD = $(FRAMEDIFF_CODEC_SH) socket $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,320x240,12)" "format=yuv420p,$(FRAMEDIFF_TEXT)" 20 50 tcp
fate-framediff-udp-drop:   CMD = $(FRAMEDIFF_CODEC_SH) socket $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,320x240,12)" "format=yuv420p,$(FRAMEDIFF_TEXT)" 20 50 udp "60 64"

# hostile packets and the twin code (tests/harness/checkframediff.c)
fate-framediff-hostile:    CMD = run checkframediff

FATE_FRAMEDIFF_CODEC = fate-framediff-hostile fate-framediff-codec-nut fate-framediff-codec-mkv fate-framediff-codec-avi \
                       fate-framediff-codec-list fate-framediff-tcp fate-framediff-udp-drop
$(FATE_FRAMEDIFF_CODEC): $(C63_FATE)/framediff-codec.sh

FATE_CUDADIFF_CPU = $(FATE_FRAMEDIFF_CODEC) fate-framediff-recon fate-framediff-diff fate-framediff-mask \
                    fate-framediff-thr0 fate-framediff-thr255 fate-framediff-refresh \
                    fate-framediff-threads fate-framediff-layout \
                    fate-framediff-receiver fate-framediff-receiver-packed \
                    fate-framediff-receiver-x264 fate-framediff-sizechange \
                    fate-framediffapply-nolist fate-framediffapply-scaled

$(FATE_CUDADIFF_CPU): $(C63_FATE)/cudadiff.sh
FATE_C63_ALL += $(FATE_CUDADIFF_CPU)

# ---------------------------------------------------------------- GPU ---

# cudadiff must equal framediff on every format at several sizes, odd ones
# included (cut from a larger picture: testsrc2 makes even sizes only);
# tests/fate/cudadiff.sh compares frames, metadata and side data.
CUDADIFF_FORMATS = yuv420p yuva420p nv12 yuv444p 0rgb 0bgr rgb0 bgr0 \
                   yuyv422 uyvy422 rgb24 bgr24 gray
CUDADIFF_SIZES   = 33x17 321x241 1280x720

define CUDADIFF_GPU_TEST
fate-cudadiff-$(1)-$(2): CMD = $$(CUDADIFF_SH) gpu $$$$(target_path ffmpeg) "testsrc2=s=1280x720:r=10:d=0.5,format=rgb24,crop=w=$(word 1,$(subst x, ,$(2))):h=$(word 2,$(subst x, ,$(2))):x=0:y=0,noise=alls=20:allf=t" $(1) "threshold=20"
FATE_CUDADIFF_GPU += fate-cudadiff-$(1)-$(2)
endef
$(foreach f,$(CUDADIFF_FORMATS),$(foreach s,$(CUDADIFF_SIZES),$(eval $(call CUDADIFF_GPU_TEST,$(f),$(s)))))

fate-cudadiff-1080p:   CMD = $(CUDADIFF_SH) gpu $$(target_path ffmpeg) "testsrc2=s=1920x1080:r=10:d=0.3,noise=alls=20:allf=t" nv12 "threshold=20"
fate-cudadiff-diff:    CMD = $(CUDADIFF_SH) gpu $$(target_path ffmpeg) "$(CUDADIFF_SRC_ODD)" yuv420p "threshold=10:mode=diff"
fate-cudadiff-mask:    CMD = $(CUDADIFF_SH) gpu $$(target_path ffmpeg) "$(CUDADIFF_SRC_ODD)" rgb24 "mode=mask"
fate-cudadiff-thr0:    CMD = $(CUDADIFF_SH) gpu $$(target_path ffmpeg) "$(CUDADIFF_SRC_ODD)" yuyv422 "threshold=0"
fate-cudadiff-thr255:  CMD = $(CUDADIFF_SH) gpu $$(target_path ffmpeg) "$(CUDADIFF_SRC_ODD)" nv12 "threshold=255:mode=mask"
fate-cudadiff-refresh: CMD = $(CUDADIFF_SH) gpu $$(target_path ffmpeg) "$(CUDADIFF_SRC)" yuv444p "threshold=40:refresh=4:mode=diff"
fate-cudadiff-codec:   CMD = $(FRAMEDIFF_CODEC_SH) cuda $$(target_path ffmpeg) "$(call FRAMEDIFF_CAM,320x240,2)" "" nv12 20 10
fate-cudadiff-badformat: CMD = $(CUDADIFF_SH) error $$(target_path ffmpeg) "testsrc2=s=64x48:r=5:d=1" "format=p010le,hwupload_cuda,cudadiff"

FATE_CUDADIFF_GPU += fate-cudadiff-1080p fate-cudadiff-diff fate-cudadiff-mask \
                     fate-cudadiff-thr0 fate-cudadiff-thr255 fate-cudadiff-refresh \
                     fate-cudadiff-badformat fate-cudadiff-codec

$(FATE_CUDADIFF_GPU): $(C63_FATE)/cudadiff.sh $(C63_FATE)/framediff-codec.sh
FATE_C63_GPU += $(FATE_CUDADIFF_GPU)
