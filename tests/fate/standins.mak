# The test drivers against stand-ins for their programs (tests/fate/
# standins.sh): for each mode of each driver that make check runs, a
# program that leaks, aborts or reports undefined behaviour after its
# output is complete, or that crashes or reports after the error a mode
# expects, must make the driver fail, and the driver with the programs
# themselves must pass. Included from fate.mak, before the generic REF.

C63_STANDINS = c63-test c63-gpu-test cudadiff drawtext framediff-codec mestimate options quality
FATE_C63_STANDINS = $(C63_STANDINS:%=fate-c63-standins-%)
$(FATE_C63_STANDINS): CMD = runlocal c63/fate/standins.sh $(@:fate-c63-standins-%=%)
$(FATE_C63_STANDINS): $(C63_FATE)/standins.sh $(C63_FATE)/checked.sh
fate-c63-standins-c63-test: $(C63_FATE)/c63-test.sh $(C63_FATE)/c63-common.sh \
    tests/c63syms$(EXESUF) tests/ecserial$(EXESUF) tests/encapi$(EXESUF) \
    tests/encthreads$(EXESUF) tests/decthreads$(EXESUF) tests/hdserial$(EXESUF)
fate-c63-standins-c63-gpu-test: $(C63_FATE)/c63-gpu-test.sh $(C63_FATE)/c63-common.sh \
    tests/cudahog$(EXESUF) tests/cudactx$(EXESUF)
fate-c63-standins-cudadiff: $(C63_FATE)/cudadiff.sh
fate-c63-standins-drawtext: $(C63_FATE)/drawtext.sh tests/filterrun$(EXESUF)
fate-c63-standins-framediff-codec: $(C63_FATE)/framediff-codec.sh $(C63_FATE)/listen.sh
fate-c63-standins-mestimate: $(C63_FATE)/mestimate.sh tests/mvdump$(EXESUF)
fate-c63-standins-options: $(C63_FATE)/options.sh
fate-c63-standins-quality: $(C63_FATE)/quality.sh $(C63_FATE)/c63-common.sh tests/yuvquality$(EXESUF)
FATE_C63_ALL += $(FATE_C63_STANDINS)
