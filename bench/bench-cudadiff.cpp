/*
 * cudadiff kernel benchmark: kernel time per frame at 1080p and 2160p,
 * achieved bandwidth, and the device's cuMemcpyDtoD bandwidth. Also checks
 * the kernels' sent lists against a CPU reference.
 *
 *   bench-cudadiff PTX [frames] [noise] [FORMAT:HEIGHT[,FORMAT:HEIGHT...]]
 *
 * The pictures are a moving pattern plus uniform noise of +-noise (default
 * 24, which with threshold 20 sends about 37% of the bytes; a still webcam
 * scene sends far fewer). The kernel runs in recon mode as the filter runs
 * it: R is the previous frame's output.
 *
 * Each case is timed two ways: frames launched back to back with an event
 * between them (what the filter sees, launch gaps included), and the same
 * frames replayed from a CUDA graph (the kernels' own throughput). A copy
 * (cuMemcpyDtoD) that moves as many bytes as a frame is timed both ways too,
 * as the peer for that size.
 *
 * PTX is the filter's kernel (build/obj/libavfilter/cudadiff/cudadiff.ptx).
 * Uses the CUDA driver API through ffnvcodec's loader; no CUDA runtime.
 */

#include <type_traits>
#include <vector>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ffnvcodec/dynlink_loader.h>

#include "cudadiff.h"

typedef CUresult CUDAAPI tcuEventElapsedTime(float *ms, CUevent start, CUevent end);
/* CUDA graphs, from the driver directly: ffnvcodec's loader has none */
typedef void *Graph, *GraphExec;
typedef CUresult CUDAAPI tcuStreamBeginCapture(CUstream st, int mode);
typedef CUresult CUDAAPI tcuStreamEndCapture(CUstream st, Graph *g);
typedef CUresult CUDAAPI tcuGraphInstantiate(GraphExec *e, Graph g, unsigned long long flags);
typedef CUresult CUDAAPI tcuGraphLaunch(GraphExec e, CUstream st);
typedef CUresult CUDAAPI tcuGraphExecDestroy(GraphExec e);
typedef CUresult CUDAAPI tcuGraphDestroy(Graph g);
#define CAPTURE_MODE_RELAXED 2

static struct {
    tcuStreamBeginCapture *begin;
    tcuStreamEndCapture   *end;
    tcuGraphInstantiate   *instantiate;
    tcuGraphLaunch        *launch;
    tcuGraphExecDestroy   *exec_destroy;
    tcuGraphDestroy       *destroy;
} gr;

static CudaFunctions *cu;
static int noise = 24;
static const char *only;       /* "FORMAT:HEIGHT": bench that case alone */
static tcuEventElapsedTime *event_elapsed;

#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) {              \
        const char *s_ = NULL; cu->cuGetErrorName(r_, &s_);                  \
        fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);       \
        exit(1); } } while (0)

#define ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

typedef struct Format {
    const char *name;
    int nb_planes;
    int wnum[4], wden[4];   /* bytes per line = ceil(w * wnum / wden) */
    int hden[4];            /* lines = ceil(h / hden) */
} Format;

static const Format formats[] = {
    { "yuv420p", 3, { 1, 1, 1 }, { 1, 2, 2 }, { 1, 2, 2 } },
    { "nv12",    2, { 1, 2 },    { 1, 2 },    { 1, 2 } },
    { "rgb0",    1, { 4 },       { 1 },       { 1 } },
    { "yuyv422", 1, { 2 },       { 1 },       { 1 } },
};

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* CPU reference over a packed picture of nb_planes planes (plane i at
 * off[i], its bitmap at boff[i]): the bitmap (cleared here) and the values,
 * with the kernel's placement of the bits; returns the number sent. */
static uint32_t ref_diff(const uint8_t *c, uint8_t *r, int nb_planes,
                         const uint32_t *off, const uint32_t *boff, int thr,
                         uint8_t *bitmap, uint8_t *values)
{
    uint32_t n = 0;
    memset(bitmap, 0, boff[nb_planes]);
    for (int p = 0; p < nb_planes; p++) {
        for (uint32_t i = off[p]; i < off[p + 1]; i++) {
            int d = c[i] - r[i];
            if (abs(d) > thr) {
                r[i] = c[i];
                cudadiff_bitmap_or(bitmap, boff[p], i - off[p], 1);
                values[n++] = c[i];
            }
        }
    }
    return n;
}

/* Milliseconds of one replay of what record() queues, captured as a graph. */
template <typename F>
static float graph_ms(CUstream st, F record)
{
    Graph g;
    GraphExec e;
    CUevent e0, e1;
    float ms;

    CK(gr.begin(st, CAPTURE_MODE_RELAXED));
    record();
    CK(gr.end(st, &g));
    CK(gr.instantiate(&e, g, 0));
    CK(cu->cuEventCreate(&e0, 0));
    CK(cu->cuEventCreate(&e1, 0));
    CK(gr.launch(e, st));                   /* warm-up */
    CK(cu->cuEventRecord(e0, st));
    CK(gr.launch(e, st));
    CK(cu->cuEventRecord(e1, st));
    CK(cu->cuStreamSynchronize(st));
    CK(event_elapsed(&ms, e0, e1));
    CK(cu->cuEventDestroy(e0));
    CK(cu->cuEventDestroy(e1));
    CK(gr.exec_destroy(e));
    CK(gr.destroy(g));
    return ms;
}

/*
 * Device copies of n bytes (cuMemcpyDtoD): microseconds per copy with an
 * event between copies, and per copy replayed from a graph.
 */
static void time_copy(CUstream st, size_t n, double *launch_us, double *graph_us)
{
    enum { REPS = 20 };
    CUdeviceptr a, b;
    CUevent ev[REPS + 1];
    float ms;
    int i;

    CK(cu->cuMemAlloc(&a, n));
    CK(cu->cuMemAlloc(&b, n));
    CK(cu->cuMemsetD8Async(a, 3, n, st));
    for (i = 0; i <= REPS; i++)
        CK(cu->cuEventCreate(&ev[i], 0));
    for (i = 0; i < 3; i++)
        CK(cu->cuMemcpyDtoDAsync(b, a, n, st));
    for (i = 0; i < REPS; i++) {
        CK(cu->cuEventRecord(ev[i], st));
        CK(cu->cuMemcpyDtoDAsync(b, a, n, st));
    }
    CK(cu->cuEventRecord(ev[REPS], st));
    CK(cu->cuStreamSynchronize(st));
    CK(event_elapsed(&ms, ev[0], ev[REPS]));
    *launch_us = ms * 1e3 / REPS;
    *graph_us  = graph_ms(st, [&] {
        for (int k = 0; k < REPS; k++)
            CK(cu->cuMemcpyDtoDAsync(b, a, n, st));
    }) * 1e3 / REPS;
    for (i = 0; i <= REPS; i++)
        CK(cu->cuEventDestroy(ev[i]));
    CK(cu->cuMemFree(a));
    CK(cu->cuMemFree(b));
}

static void bench(CUfunction fa, CUfunction fu, CUstream st, const Format *f,
                  int w, int h, int nb_frames, double copy_gbs)
{
    enum { NB_SRC = 4, WARM = 3 };
    const int total = nb_frames + WARM;
    CudaDiffParams p;
    int width[4], height[4], pitch[4];
    size_t plane_off[4], pitched = 0;
    uint32_t size = 0, nb_vecs = 0, off[5], boff[5] = { 0 };
    size_t bitmap_alloc;
    CUdeviceptr src[NB_SRC], dst[2], recv, status, dcount, list;
    uint8_t *host[NB_SRC], *pk, *ref_r;
    uint8_t *ref_bm, *gpu_bm, *ref_val, *gpu_val;
    uint32_t count;
    std::vector<uint32_t> counts(total);
    std::vector<CUevent> ev(nb_frames + 1);
    double sum_ms = 0, min_ms = 1e9, frame_bytes = 0, all_bytes = 0;
    double mean_ms, gbs, graph_frame_ms, graph_gbs, peer_bytes, peer_launch_us, peer_graph_us;
    uint32_t seed = 1234, total_sent = 0;
    int i, k, fr;

    if (only) {
        char want[64];
        snprintf(want, sizeof(want), "%s:%d", f->name, h);
        if (!strstr(only, want))
            return;
    }
    for (i = 0; i < f->nb_planes; i++) {
        width[i]  = (int)(((int64_t)w * f->wnum[i] + f->wden[i] - 1) / f->wden[i]);
        height[i] = (h + f->hden[i] - 1) / f->hden[i];
        pitch[i]  = ALIGN(width[i], 512);
        plane_off[i] = pitched;
        pitched  += (size_t)pitch[i] * height[i];
        off[i]    = size;
        size     += (uint32_t)width[i] * height[i];
        boff[i + 1] = boff[i] + CUDADIFF_BITMAP_BYTES((uint32_t)width[i] * height[i]);
    }
    off[f->nb_planes] = size;
    bitmap_alloc = ALIGN((size_t)boff[f->nb_planes], 4);

    /* Pictures: a ramp that moves by one pixel a frame, plus noise of +-noise. */
    for (k = 0; k < NB_SRC; k++) {
        host[k] = (std::remove_reference<decltype(host[k])>::type)malloc(pitched);
        for (i = 0; i < f->nb_planes; i++)
            for (int y = 0; y < height[i]; y++)
                for (int x = 0; x < width[i]; x++) {
                    int v = ((x + k) * 3 + y * 2) & 0xff;
                    v += (int)(lcg(&seed) % (2 * noise + 1)) - noise;
                    host[k][plane_off[i] + (size_t)y * pitch[i] + x] = v < 0 ? 0 : v > 255 ? 255 : v;
                }
        CK(cu->cuMemAlloc(&src[k], pitched));
        CK(cu->cuMemcpyHtoD(src[k], host[k], pitched));
    }
    CK(cu->cuMemAlloc(&dst[0], pitched));
    CK(cu->cuMemAlloc(&dst[1], pitched));
    CK(cu->cuMemAlloc(&recv, pitched));
    CK(cu->cuMemsetD8Async(recv, 0, pitched, st));
    memset(&p, 0, sizeof(p));
    for (i = 0; i < f->nb_planes; i++) {
        CudaDiffPlane *pl = &p.plane[i];
        pl->src_pitch = pl->dst_pitch = pl->recv_pitch = pitch[i];
        pl->width = width[i];
        pl->height = height[i];
        pl->vecs_per_line = (width[i] + CUDADIFF_VEC - 1) / CUDADIFF_VEC;
        pl->vec_start = nb_vecs;
        pl->pos_start = off[i];
        pl->bitmap_start = boff[i];
        nb_vecs += pl->vecs_per_line * height[i];
    }
    p.nb_planes    = f->nb_planes;
    p.bitmap_store = cudadiff_bitmap_store(width, f->nb_planes);
    p.nb_vecs      = nb_vecs;
    p.nb_tiles  = (nb_vecs + CUDADIFF_TILE_VECS - 1) / CUDADIFF_TILE_VECS;
    p.threshold = 20;
    CK(cu->cuMemAlloc(&status, (size_t)p.nb_tiles * 8));
    CK(cu->cuMemsetD8Async(status, 0, (size_t)p.nb_tiles * 8, st));
    CK(cu->cuMemAlloc(&dcount, 4));
    CK(cu->cuMemAlloc(&list, ALIGN(bitmap_alloc, 256) + size));
    p.tile_status = status;
    p.count       = dcount;
    p.bitmap      = list;
    p.values      = list + ALIGN(bitmap_alloc, 256);

    pk      = (uint8_t *)malloc(size);
    ref_r   = (uint8_t *)calloc(size, 1);
    ref_bm  = (uint8_t *)malloc(bitmap_alloc);
    gpu_bm  = (uint8_t *)malloc(bitmap_alloc);
    ref_val = (uint8_t *)malloc(size);
    gpu_val = (uint8_t *)malloc(size);

    /* Frame fr of a sequence: source fr % NB_SRC, output into dst[fr & 1],
     * R the previous output (all zero before the first frame), as the
     * filter runs recon mode. */
    auto launch = [&](CUfunction fn, int fr, uint32_t epoch) {
        void *args[] = { &p };
        for (i = 0; i < f->nb_planes; i++) {
            p.plane[i].src  = src[fr % NB_SRC] + plane_off[i];
            p.plane[i].dst  = dst[fr & 1] + plane_off[i];
            p.plane[i].recv = (fr ? dst[(fr - 1) & 1] : recv) + plane_off[i];
        }
        p.epoch = epoch;
        /* as the filter: the bitmap is cleared, then ORed into, unless
         * the kernel stores every word of it */
        if (!p.bitmap_store)
            CK(cu->cuMemsetD8Async(p.bitmap, 0, bitmap_alloc, st));
        CK(cu->cuLaunchKernel(fn, p.nb_tiles, 1, 1, CUDADIFF_BLOCK, 1, 1, 0, st, args, NULL));
    };

    /* Both kernels, 3 frames each, against the CPU reference; a bitmap
     * that is stored, not cleared, starts out as garbage. */
    for (int kern = 0; kern < 2; kern++) {
        memset(ref_r, 0, size);
        if (p.bitmap_store)
            CK(cu->cuMemsetD8Async(p.bitmap, 0xa5, bitmap_alloc, st));
        for (fr = 0; fr < 3; fr++) {
            uint32_t n;
            launch(kern ? fu : fa, fr, 100 * kern + fr + 1);
            CK(cu->cuMemcpyDtoHAsync(&count, dcount, 4, st));
            CK(cu->cuStreamSynchronize(st));
            for (i = 0; i < f->nb_planes; i++)
                for (int y = 0; y < height[i]; y++)
                    memcpy(pk + off[i] + (size_t)y * width[i],
                           host[fr % NB_SRC] + plane_off[i] + (size_t)y * pitch[i], width[i]);
            n = ref_diff(pk, ref_r, f->nb_planes, off, boff, p.threshold, ref_bm, ref_val);
            if (n != count) {
                printf("MISMATCH %s %dx%d %s kernel frame %d: %u vs %u entries\n",
                       f->name, w, h, kern ? "unaligned" : "aligned", fr, count, n);
                exit(1);
            }
            CK(cu->cuMemcpyDtoH(gpu_bm, p.bitmap, boff[f->nb_planes]));
            if (count)
                CK(cu->cuMemcpyDtoH(gpu_val, p.values, count));
            if (memcmp(ref_bm, gpu_bm, boff[f->nb_planes]) ||
                memcmp(ref_val, gpu_val, n)) {
                printf("MISMATCH %s %dx%d %s kernel frame %d: lists differ\n",
                       f->name, w, h, kern ? "unaligned" : "aligned", fr);
                exit(1);
            }
        }
    }

    /* The sent counts of the sequence, frame by frame. Bytes that must move:
     * C and R read, the output (which is the new R) and the list (the
     * bitmap, cleared and then written unless it is stored whole, and a
     * byte per byte sent) written. */
    for (fr = 0; fr < total; fr++) {
        launch(fa, fr, 1000 + fr);
        CK(cu->cuMemcpyDtoHAsync(&counts[fr], dcount, 4, st));
        CK(cu->cuStreamSynchronize(st));
        all_bytes += 3.0 * size + (p.bitmap_store ? 1.0 : 2.0) * boff[f->nb_planes] + counts[fr];
        if (fr >= WARM) {   /* the first frame sends nearly everything */
            frame_bytes += 3.0 * size + (p.bitmap_store ? 1.0 : 2.0) * boff[f->nb_planes] + counts[fr];
            total_sent  += counts[fr];
        }
    }

    /* Launched back to back, an event between frames: per-frame times. */
    for (auto &e : ev)
        CK(cu->cuEventCreate(&e, 0));
    for (fr = 0; fr < total; fr++) {
        if (fr >= WARM)
            CK(cu->cuEventRecord(ev[fr - WARM], st));
        launch(fa, fr, 2000 + fr);
    }
    CK(cu->cuEventRecord(ev[nb_frames], st));
    CK(cu->cuStreamSynchronize(st));
    for (fr = 0; fr < nb_frames; fr++) {
        float ms;
        CK(event_elapsed(&ms, ev[fr], ev[fr + 1]));
        sum_ms += ms;
        if (ms < min_ms)
            min_ms = ms;
    }
    for (auto &e : ev)
        CK(cu->cuEventDestroy(e));

    /* The whole sequence from a graph (epochs differ from frame to frame,
     * also from the last frame of one replay to the first of the next). */
    graph_frame_ms = graph_ms(st, [&] {
        for (int q = 0; q < total; q++)
            launch(fa, q, 3000 + q);
    }) / total;

    CK(cu->cuMemcpyDtoHAsync(&count, dcount, 4, st));
    CK(cu->cuStreamSynchronize(st));
    if (count != counts[total - 1]) {
        printf("MISMATCH %s %dx%d: the graph's last frame sent %u, not %u\n",
               f->name, w, h, count, counts[total - 1]);
        exit(1);
    }

    mean_ms   = sum_ms / nb_frames;
    gbs       = frame_bytes / (sum_ms * 1e-3) / 1e9;
    graph_gbs = all_bytes / (graph_frame_ms * total * 1e-3) / 1e9;
    /* the peer: a copy moving as many bytes (read + written) as a frame */
    peer_bytes = 2.0 * ALIGN((size_t)(frame_bytes / nb_frames / 2), 256);
    time_copy(st, (size_t)peer_bytes / 2, &peer_launch_us, &peer_graph_us);
    printf("%-8s %5dx%-5d %9u B  sent %5.1f%%  launched: %6.1f us (min %6.1f) %7.1f GB/s %5.1f%%"
           "  graph: %6.1f us %7.1f GB/s %5.1f%%  same-bytes copy: %6.1f us %5.1f%%, graph %6.1f us %5.1f%%\n",
           f->name, w, h, size, 100.0 * total_sent / nb_frames / size,
           mean_ms * 1e3, min_ms * 1e3, gbs, 100.0 * gbs / copy_gbs,
           graph_frame_ms * 1e3, graph_gbs, 100.0 * graph_gbs / copy_gbs,
           peer_launch_us, 100.0 * peer_bytes / (peer_launch_us * 1e3) / copy_gbs,
           peer_graph_us, 100.0 * peer_bytes / (peer_graph_us * 1e3) / copy_gbs);

    for (k = 0; k < NB_SRC; k++) {
        CK(cu->cuMemFree(src[k]));
        free(host[k]);
    }
    CK(cu->cuMemFree(dst[0]));
    CK(cu->cuMemFree(dst[1]));
    CK(cu->cuMemFree(recv));
    CK(cu->cuMemFree(status));
    CK(cu->cuMemFree(dcount));
    CK(cu->cuMemFree(list));
    free(pk); free(ref_r); free(ref_bm); free(gpu_bm); free(ref_val); free(gpu_val);
}

/* GB/s of a copy of bytes, counting bytes read plus bytes written. */
static double copy_bandwidth(CUstream st, size_t bytes)
{
    double launch_us, graph_us;
    time_copy(st, bytes, &launch_us, &graph_us);
    return 2.0 * bytes / (launch_us * 1e3);
}

int main(int argc, char **argv)
{
    static const int sizes[][2] = { { 1920, 1080 }, { 3840, 2160 } };
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fa, fu;
    CUstream st;
    char name[256];
    FILE *fp;
    char *ptx;
    long len;
    int nb_frames = argc > 2 ? atoi(argv[2]) : 100;
    double copy_gbs;
    void *lib;

    if (argc < 2) {
        fprintf(stderr, "usage: %s cudadiff.ptx [frames] [noise] [format:height[,...]]\n", argv[0]);
        return 2;
    }
    if (argc > 3)
        noise = atoi(argv[3]);
    if (argc > 4)
        only = argv[4];
    if (nb_frames < 1 || noise < 0 || noise > 255) {
        fprintf(stderr, "bad frames or noise\n");
        return 2;
    }
    fp = fopen(argv[1], "rb");
    if (!fp) {
        perror(argv[1]);
        return 1;
    }
    fseek(fp, 0, SEEK_END);
    len = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    ptx = (std::remove_reference<decltype(ptx)>::type)calloc(len + 1, 1);
    if (fread(ptx, 1, len, fp) != (size_t)len)
        return 1;
    fclose(fp);

    if (cuda_load_functions(&cu, NULL) < 0) {
        fprintf(stderr, "cannot load the CUDA driver\n");
        return 1;
    }
    lib = dlopen("libcuda.so.1", RTLD_NOW);
    event_elapsed = lib ? (tcuEventElapsedTime *)dlsym(lib, "cuEventElapsedTime") : NULL;
    if (!event_elapsed) {
        fprintf(stderr, "cuEventElapsedTime not found\n");
        return 1;
    }
    gr.begin        = (tcuStreamBeginCapture *)dlsym(lib, "cuStreamBeginCapture_v2");
    gr.end          = (tcuStreamEndCapture *)dlsym(lib, "cuStreamEndCapture");
    gr.instantiate  = (tcuGraphInstantiate *)dlsym(lib, "cuGraphInstantiateWithFlags");
    gr.launch       = (tcuGraphLaunch *)dlsym(lib, "cuGraphLaunch");
    gr.exec_destroy = (tcuGraphExecDestroy *)dlsym(lib, "cuGraphExecDestroy");
    gr.destroy      = (tcuGraphDestroy *)dlsym(lib, "cuGraphDestroy");
    if (!gr.begin || !gr.end || !gr.instantiate || !gr.launch ||
        !gr.exec_destroy || !gr.destroy) {
        fprintf(stderr, "the driver has no CUDA graph functions\n");
        return 1;
    }
    CK(cu->cuInit(0));
    CK(cu->cuDeviceGet(&dev, 0));
    CK(cu->cuDeviceGetName(name, sizeof(name), dev));
    CK(cu->cuCtxCreate(&ctx, 0, dev));
    CK(cu->cuModuleLoadData(&mod, ptx));
    CK(cu->cuModuleGetFunction(&fa, mod, "cudadiff_aligned_recon"));
    CK(cu->cuModuleGetFunction(&fu, mod, "cudadiff_unaligned_recon"));
    CK(cu->cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));

    copy_gbs = copy_bandwidth(st, (size_t)256 << 20);
    printf("device: %s\n", name);
    printf("cuMemcpyDtoD, 256 MiB: %.1f GB/s (bytes read + written)\n", copy_gbs);
    printf("threshold 20, noise +-%d, mode recon, %d timed frames; GB/s counts C and R "
           "read, the output (the new R) and the list (bitmap and a byte per byte sent) written; %% of the "
           "256 MiB copy\n", noise, nb_frames);
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++)
            bench(fa, fu, st, &formats[f], sizes[s][0], sizes[s][1], nb_frames, copy_gbs);
    /* An odd size, to check the line tails. */
    bench(fa, fu, st, &formats[0], 1921, 1081, 10, copy_gbs);
    bench(fa, fu, st, &formats[3], 1921, 1081, 10, copy_gbs);

    CK(cu->cuStreamDestroy(st));
    CK(cu->cuModuleUnload(mod));
    CK(cu->cuCtxDestroy(ctx));
    cuda_free_functions(&cu);
    return 0;
}
