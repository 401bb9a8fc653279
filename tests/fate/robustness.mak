# Bad parameters everywhere (tests/fate/options.sh): every option of each
# encoder and filter at and past each end of its range, and the smallest,
# odd and too large sizes; each is accepted and works, or is refused with a
# message. See tests/fate.mak.

C63_OPTIONS_ENC    = c63 c63_cuda
C63_OPTIONS_FILTER = framediff framediffapply cudadiff
FATE_C63_OPTIONS   = $(C63_OPTIONS_ENC:%=fate-c63-options-%) $(C63_OPTIONS_FILTER:%=fate-c63-options-%) \
                     fate-c63-options-framediff-encoder

$(C63_OPTIONS_ENC:%=fate-c63-options-%): CMD = runlocal c63/fate/options.sh ./ffmpeg encoder $(@:fate-c63-options-%=%)
$(C63_OPTIONS_FILTER:%=fate-c63-options-%): CMD = runlocal c63/fate/options.sh ./ffmpeg filter $(@:fate-c63-options-%=%)
# the framediff encoder (its name is the filter's)
fate-c63-options-framediff-encoder: CMD = runlocal c63/fate/options.sh ./ffmpeg encoder framediff

FATE_C63_ALL += $(FATE_C63_OPTIONS)
