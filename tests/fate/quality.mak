# Quality floors of c63's rate-distortion options, which the md5s of the
# rd tests (c63.mak) do not guard: a reference regenerated after a change
# that loses part of an option's gain still passes those, not these.
# Included from fate.mak after c63.mak (whose C63_RD_OPT_* these use).
#
# tests/yuvquality: PSNR and SSIM of two raw yuv420p files, from their
# samples alone (nothing of FFmpeg or of the codec).
tests/yuvquality$(EXESUF): $(C63_HARNESS)/yuvquality.cpp
	$(CXX) -O2 -std=c++17 -ffp-contract=off $(C63_DEPFLAGS) -o $@ $<

# fate-c63-quality-SET-CLIP (tests/fate/quality.sh): on a FATE vector, the
# default (the reference encoder's choices at -quality 25) gives the bytes
# B0 and the quality Q0 of its decoding; the options SET, coded at the
# -quality points that bracket B0, interpolated at B0 (quality against
# log bytes), must beat Q0 by the floor. PSNR over all planes, or SSIM
# over all planes in dB (-10 log10(1 - SSIM)) for the tables for SSIM.
# Where even -quality 50 of SET stays under B0 bytes (ssim-all on every
# clip where it gains; also all on cif_testsrc2 and all-trellis2 on mandel
# and cif_testsrc2, left out for that), the comparison is at the bytes of
# SET's -quality 50, against the default interpolated there: the gain at
# the highest rate both reach.
#
# The floors: 85% of the gain measured today, rounded down to 0.01 dB. The
# encoders and tests/yuvquality are deterministic and bit-exact on every
# machine, so the measured gain is exact, not a sample: the margin is only
# how much of an option's gain a change may give away (a retuned lambda,
# another rounding of the tables, a faster search) before its floor must
# be revisited; a change that loses a fifth or more of any gain fails.
# Each option is judged on the two vectors where its gain is real
# (the others, with today's gains in dB, are left out as named):
#
#   set       metric  clip          gain    floor   left out
#   flat      psnr    mandel        +3.552  3.01    (every clip gains 2.7 to 4.0)
#             psnr    cif_noise     +3.761  3.19
#   ssim      ssim    cif_testsrc2  +1.030  0.87    mandel -0.286, cif_noise -3.790
#             ssim    qcif_keyint   +1.217  1.03    (splice +0.373)
#   trellis   psnr    mandel        +1.499  1.27    cif_noise +0.225
#             psnr    qcif_keyint   +1.409  1.19
#   trellis2  psnr    mandel        +1.527  1.29    cif_noise +0.226
#             psnr    qcif_keyint   +1.412  1.20
#   mvrd      psnr    mandel        +1.581  1.34    cif_noise -0.000 (noise:
#             psnr    cif_testsrc2  +3.581  3.04    no vector helps)
#   intra     psnr    cif_noise     +0.831  0.70    mandel +0.002, cif_testsrc2
#             psnr    splice        +0.976  0.82    +0.051 (prediction works)
#   all       psnr    mandel        +7.242  6.15
#             psnr    cif_noise     +4.749  4.03
#   all-trellis2 psnr cif_noise     +4.751  4.03
#             psnr    qcif_keyint   +8.136  6.91
#   ssim-all  ssim    cif_testsrc2  +3.760  3.19    cif_noise -2.345
#             ssim    qcif_keyint   +3.765  3.20
#
# intra is -intra_rd 1 -sc_threshold 0: without scene cuts (which
# -intra_rd 1 alone turns on) the spliced vector's cuts are inter frames,
# where coding blocks without a vector pays; on cif_noise, prediction of
# noise fails everywhere. The tables for SSIM lose SSIM on cif_noise and
# on mandel at the default's bytes. ssim-all is compared at the bytes of
# its -quality 50 on both of its vectors.
C63_QUALITY = runlocal c63/fate/quality.sh
C63_QUALITY_OPT_flat         = $(C63_RD_OPT_flat)
C63_QUALITY_OPT_ssim         = $(C63_RD_OPT_ssim)
C63_QUALITY_OPT_trellis      = $(C63_RD_OPT_trellis)
C63_QUALITY_OPT_trellis2     = $(C63_RD_OPT_trellis2)
C63_QUALITY_OPT_mvrd         = $(C63_RD_OPT_mvrd)
C63_QUALITY_OPT_intra        = $(C63_RD_OPT_intra) -sc_threshold 0
C63_QUALITY_OPT_all          = $(C63_RD_OPT_all)
C63_QUALITY_OPT_all-trellis2 = $(C63_RD_OPT_all-trellis2)
C63_QUALITY_OPT_ssim-all     = $(C63_RD_OPT_ssim-all)
# C63_QUALITY_TEST SET METRIC CLIP FLOOR
define C63_QUALITY_TEST
FATE_C63_QUALITY += fate-c63-quality-$(1)-$(3)
fate-c63-quality-$(1)-$(3): CMD = $$(C63_QUALITY) $(2) $(3) $$$$(target_path tests/yuvquality$$(EXESUF)) $(4) $$(C63_QUALITY_OPT_$(1))
endef
$(eval $(call C63_QUALITY_TEST,flat,psnr,mandel,3.01))
$(eval $(call C63_QUALITY_TEST,flat,psnr,cif_noise,3.19))
$(eval $(call C63_QUALITY_TEST,ssim,ssim,cif_testsrc2,0.87))
$(eval $(call C63_QUALITY_TEST,ssim,ssim,qcif_keyint,1.03))
$(eval $(call C63_QUALITY_TEST,trellis,psnr,mandel,1.27))
$(eval $(call C63_QUALITY_TEST,trellis,psnr,qcif_keyint,1.19))
$(eval $(call C63_QUALITY_TEST,trellis2,psnr,mandel,1.29))
$(eval $(call C63_QUALITY_TEST,trellis2,psnr,qcif_keyint,1.20))
$(eval $(call C63_QUALITY_TEST,mvrd,psnr,mandel,1.34))
$(eval $(call C63_QUALITY_TEST,mvrd,psnr,cif_testsrc2,3.04))
$(eval $(call C63_QUALITY_TEST,intra,psnr,cif_noise,0.70))
$(eval $(call C63_QUALITY_TEST,intra,psnr,splice,0.82))
$(eval $(call C63_QUALITY_TEST,all,psnr,mandel,6.15))
$(eval $(call C63_QUALITY_TEST,all,psnr,cif_noise,4.03))
$(eval $(call C63_QUALITY_TEST,all-trellis2,psnr,cif_noise,4.03))
$(eval $(call C63_QUALITY_TEST,all-trellis2,psnr,qcif_keyint,6.91))
$(eval $(call C63_QUALITY_TEST,ssim-all,ssim,cif_testsrc2,3.19))
$(eval $(call C63_QUALITY_TEST,ssim-all,ssim,qcif_keyint,3.20))
$(FATE_C63_QUALITY): tests/yuvquality$(EXESUF)

# -b:v with each option alone within one-pass -b:v's goal, 2% over 300
# frames (fate-c63-rd-*-bitrate has all of them together, with either
# trellis and either table), at the rate of fate-c63-rate-testsrc2: at
# 400k, the rate of those, the default and the tables alone need scales
# above -qmax 31 (+3.2%, +8.6% and +2.5%, with the encoder's warning).
C63_QUALITY_RATE = flat ssim trellis trellis2 mvrd intra
FATE_C63_QUALITY += $(C63_QUALITY_RATE:%=fate-c63-quality-bitrate-%)
$(foreach o,$(C63_QUALITY_RATE),$(eval fate-c63-quality-bitrate-$(o): CMD = $$(C63_TEST) rate testsrc2=s=176x144:r=25 300 600000 2 $$(C63_RD_OPT_$(o))))

FATE_C63_ALL += $(FATE_C63_QUALITY)
