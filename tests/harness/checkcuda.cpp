/*
 * checkcuda: the CUDA kernels against their CPU twins
 *
 * This file is part of FFmpeg.
 *
 * FFmpeg is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Lesser General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * FFmpeg is distributed in the hope that it will be useful,
 * but WITHOUT ANY WARRANTY; without even the implied warranty of
 * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
 * Lesser General Public License for more details.
 *
 * You should have received a copy of the GNU Lesser General Public
 * License along with FFmpeg; if not, write to the Free Software
 * Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA
 */

/*
 * Usage: checkcuda [--bench [--no-tests]] [--small] [--seed N] [--ptx FILE]
 *
 * Runs every kernel of cuda_kernels/c63_cuda_enc.cu and c63_cuda_rd.cu
 * (checkcuda_c63.cpp),
 * cuda_kernels/drawtext_cuda.cu (checkcuda_drawtext.cpp) and
 * cuda_kernels/mestimate_cuda.cu (checkcuda_mestimate.cpp: against
 * mestimate's own ff_me_search_*: every per-block method, block sizes,
 * search parameters, frame sizes that are not multiples of the block) on
 * random and edge-case inputs and compares the result with C code: the CPU
 * encoder's (ff_c63_motion_search, the DSP's add_pred/sub_pred), the
 * transcriptions of the reference transform in tests/harness/c63ref.h
 * (which checkc63 checks the encoder's against); for the entropy coder's
 * kernels c63_ec_*, the serial coder in tests/harness/c63ec_serial.h,
 * itself compared with the CPU writer, c63_write_frame()); drawtext_cuda's
 * with its CPU twin (tests/harness/dtc_draw_cpu.h). The first mismatch of
 * each test is printed with its plane size, block and values. The kernels
 * are the PTX embedded in the libraries (gzip-compressed when FFmpeg was
 * configured with PTX compression), or for c63_cuda's default encoder
 * module (c63_cuda_enc.cu, with the motion search) the file given by
 * --ptx.
 *
 * --small runs only the cases of at most 176x144 pixels (for
 * compute-sanitizer, under which the large ones take minutes).
 *
 * --bench also times the kernels with CUDA events (drawtext_cuda's on the
 * operation lists of the benchmark's two texts) and compares the motion
 * search's rate of byte absolute differences with the peak rate that a
 * tight __vsadu4 loop reaches on the same GPU (c63_peak_sad, of the PTX
 * of tests/harness/checkcuda_bench.cu that this program embeds; not in the
 * libraries). With --no-tests it runs only the benchmark (to compare
 * kernel variants given by --ptx).
 *
 * Without libcuda or a device it prints "checkcuda: SKIPPED: no CUDA
 * device" and exits 0.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <chrono>
#include <string>
#include <vector>

#include <zlib.h>

#include "tests/c63/harness/checkcuda.h"

extern "C" {
extern const unsigned char ff_checkcuda_bench_ptx_data[];
extern const unsigned int ff_checkcuda_bench_ptx_len;
}

CudaFunctions *cu;
tcuEventElapsedTime *event_elapsed;
tcuMemAllocHost *mem_alloc_host;
tcuMemFreeHost  *mem_free_host;
long max_area = 1L << 40;

static CUcontext ctx;
static CUmodule bench_module;
static CUfunction f_peak;
static int passed, failed;

/* ------------------------------------------------------------ helpers */

static uint32_t rng_state = 1;

uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

double now_us(void)
{
    return std::chrono::duration<double, std::micro>(
        std::chrono::steady_clock::now().time_since_epoch()).count();
}

void launch3(CUfunction f, int gx, int gy, int gz, int tx, int ty, unsigned shmem,
             void **args)
{
    CK(cu->cuLaunchKernel(f, gx, gy, gz, tx, ty, 1, shmem, NULL, args, NULL));
}

void launch(CUfunction f, int gx, int gy, int tx, int ty, unsigned shmem, void **args)
{
    launch3(f, gx, gy, 1, tx, ty, shmem, args);
}

void report(const char *name, bool ok, const std::string &detail)
{
    if (ok) {
        passed++;
        printf("  %-44s ok\n", name);
    } else {
        failed++;
        printf("  %-44s FAILED\n      %s\n", name, detail.c_str());
    }
    fflush(stdout);
}

void fill(std::vector<uint8_t> &v, int w, int h, Content c, int shift)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t s;
            switch (c) {
            case RANDOM:     s = rnd(); break;
            case FLAT:       s = 128; break;
            case SMOOTH:     s = ((x + shift) * 3 + y * 2 + (rnd() & 3)) & 255; break;
            case EDGES:      s = (x & 7) < 4 ? 0 : 255; break;
            default:         s = (rnd() & 1) * 255; break;
            }
            v[(size_t)y * w + x] = s;
        }
}

float time_ms(CUevent a, CUevent b)
{
    float ms = 0;
    if (event_elapsed)
        CK(event_elapsed(&ms, a, b));
    return ms;
}

double measure_peak_rate(CUevent e0, CUevent e1)
{
    int blocks = 4096, bthreads = 256, iters = 4096;
    DevBuf dout((size_t)blocks * bthreads * 4);
    {
        CUdeviceptr o = dout.p;
        unsigned seed = 1;
        void *args[] = { &o, &seed, &iters };
        launch(f_peak, blocks, 1, bthreads, 1, 0, args);
        CK(cu->cuEventRecord(e0, NULL));
        launch(f_peak, blocks, 1, bthreads, 1, 0, args);
        CK(cu->cuEventRecord(e1, NULL));
        CK(cu->cuEventSynchronize(e1));
    }
    float peak_ms = time_ms(e0, e1);
    return (double)blocks * bthreads * iters * 8 * 4 / (peak_ms * 1e-3);
}

/* Each component's benchmark in turn: c63_cuda's measures the peak rate of
 * byte absolute differences among its kernels, and mestimate_cuda's rates
 * are given against it too; then the entropy coder's and drawtext_cuda's. */
static void bench(void)
{
    CUevent e0, e1;
    double peak_rate;

    if (!event_elapsed) {
        printf("bench: cuEventElapsedTime not available\n");
        return;
    }
    CK(cu->cuEventCreate(&e0, 0));
    CK(cu->cuEventCreate(&e1, 0));
    peak_rate = checkcuda_c63_bench(e0, e1);
    checkcuda_mestimate_bench(e0, e1, peak_rate);
    checkcuda_c63_bench_entropy();
    checkcuda_drawtext_bench();
    cu->cuEventDestroy(e0);
    cu->cuEventDestroy(e1);
}

std::string load_ptx(const char *path, const unsigned char *d, unsigned len)
{
    std::string out;
    if (path) {
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "checkcuda: cannot open %s\n", path);
            exit(1);
        }
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
            out.append(buf, n);
        fclose(f);
        return out;
    }
    return inflate_ptx(d, len);
}

std::string inflate_ptx(const unsigned char *d, unsigned len)
{
    std::string out;
    if (len < 2 || d[0] != 0x1f || d[1] != 0x8b)
        return std::string((const char *)d, strnlen((const char *)d, len));

    z_stream s;
    memset(&s, 0, sizeof(s));
    if (inflateInit2(&s, 32 + 15) != Z_OK)
        exit(1);
    s.next_in  = (Bytef *)d;
    s.avail_in = len;
    int ret;
    do {
        char buf[65536];
        s.next_out  = (Bytef *)buf;
        s.avail_out = sizeof(buf);
        ret = inflate(&s, Z_NO_FLUSH);
        if (ret != Z_OK && ret != Z_STREAM_END) {
            fprintf(stderr, "checkcuda: cannot inflate the embedded PTX (%d)\n", ret);
            exit(1);
        }
        out.append(buf, sizeof(buf) - s.avail_out);
    } while (ret != Z_STREAM_END);
    inflateEnd(&s);
    return out;
}

int main(int argc, char **argv)
{
    bool do_bench = false, do_tests = true;
    const char *ptx_path = NULL;
    CUdevice dev;
    int count = 0;
    char devname[256] = "";

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bench"))
            do_bench = true;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            rng_state = strtoul(argv[++i], NULL, 0) | 1;
        else if (!strcmp(argv[i], "--ptx") && i + 1 < argc)
            ptx_path = argv[++i];
        else if (!strcmp(argv[i], "--no-tests"))
            do_tests = false;
        else if (!strcmp(argv[i], "--small"))
            max_area = 176 * 144;
        else {
            fprintf(stderr, "usage: %s [--bench [--no-tests]] [--small] [--seed N] [--ptx FILE]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!do_bench && !do_tests) {
        fprintf(stderr, "checkcuda: --no-tests without --bench runs nothing\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);

    if (cuda_load_functions(&cu, NULL) < 0 || cu->cuInit(0) != CUDA_SUCCESS ||
        cu->cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 1) {
        printf("checkcuda: SKIPPED: no CUDA device\n");
        return 0;
    }
    event_elapsed = (tcuEventElapsedTime *)FFNV_SYM_FUNC(cu->lib, "cuEventElapsedTime");
    mem_alloc_host = (tcuMemAllocHost *)FFNV_SYM_FUNC(cu->lib, "cuMemAllocHost_v2");
    mem_free_host  = (tcuMemFreeHost *)FFNV_SYM_FUNC(cu->lib, "cuMemFreeHost");
    if (!mem_alloc_host || !mem_free_host)
        mem_alloc_host = NULL, mem_free_host = NULL;
    CK(cu->cuDeviceGet(&dev, 0));
    CK(cu->cuDeviceGetName(devname, sizeof(devname), dev));
    CK(cu->cuCtxCreate(&ctx, 0, dev));

    if (checkcuda_c63_init(ptx_path) < 0)
        return 1;
    checkcuda_drawtext_init();
    checkcuda_mestimate_init();
    std::string bench_ptx = inflate_ptx(ff_checkcuda_bench_ptx_data, ff_checkcuda_bench_ptx_len);
    CK(cu->cuModuleLoadData(&bench_module, bench_ptx.c_str()));
    CK(cu->cuModuleGetFunction(&f_peak, bench_module, "c63_peak_sad"));

    printf("checkcuda: %s, seed %u\n", devname, rng_state);
    if (do_tests) {
        checkcuda_c63_test();
        checkcuda_drawtext_test();
        checkcuda_mestimate_test();
    }
    if (do_bench)
        bench();

    printf("%d passed, %d failed\n", passed, failed);
    checkcuda_c63_uninit();
    checkcuda_drawtext_uninit();
    checkcuda_mestimate_uninit();
    cu->cuModuleUnload(bench_module);
    cu->cuCtxDestroy(ctx);
    cuda_free_functions(&cu);
    return failed ? 1 : 0;
}
