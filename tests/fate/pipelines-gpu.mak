# The README's NVDEC pipelines against their CPU twins (need a CUDA device;
# tests/fate/pipelines-gpu.sh and tests/fate/framediff-codec.sh's nvdec-socket).
PIPELINES_GPU = runlocal c63/fate/pipelines-gpu.sh

FATE_PIPELINES_GPU = fate-pipeline-nvdec-drawtext-c63-d1 fate-pipeline-nvdec-drawtext-c63-d4 \
                     fate-pipeline-nvdec-cudadiff-tcp fate-pipeline-nvdec-nvenc
$(FATE_PIPELINES_GPU): CMP = null
fate-pipeline-nvdec-drawtext-c63-d1: CMD = $(PIPELINES_GPU) drawtext-c63 1
fate-pipeline-nvdec-drawtext-c63-d4: CMD = $(PIPELINES_GPU) drawtext-c63 4
fate-pipeline-nvdec-nvenc:           CMD = $(PIPELINES_GPU) nvenc
fate-pipeline-nvdec-cudadiff-tcp:    CMD = sh $(C63_FATE)/framediff-codec.sh nvdec-socket $$(target_path ffmpeg) \
                                           $(C63_SAMPLES)/h264.mp4 scale_cuda=160:120 20 25
$(FATE_PIPELINES_GPU): $(C63_FATE)/pipelines-gpu.sh $(C63_FATE)/framediff-codec.sh $(C63_SAMPLES)/h264.mp4

FATE_C63_GPU += $(FATE_PIPELINES_GPU)
