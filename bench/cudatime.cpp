/*
 * cudatime: the GPU time of every CUDA kernel a program launches, from CUDA
 * events, for benchmarks on machines without a profiler. A library
 * preloaded into ffmpeg (or any program that loads libcuda with dlopen()
 * and takes its functions with dlsym(), as FFmpeg does):
 *
 *   LD_PRELOAD=./cudatime.so CUDATIME_LOG=file ffmpeg ...
 *
 * Each cuLaunchKernel() is wrapped in two events recorded on the launch's
 * stream; the time between them is the kernel's. Finished pairs are read
 * without waiting at the next launch, and all at once before the context
 * goes away. At exit, one line per kernel goes to CUDATIME_LOG (default
 * stderr):
 *
 *   cudatime: NAME launches N mean M us min A us max B us total T ms
 *
 * NAME is the name the kernel was looked up by (cuModuleGetFunction). The
 * events add a few microseconds of host work per launch and nothing to
 * the kernel itself. It is a measuring tool, not part of the libraries.
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

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

typedef int CUresult;
typedef void *CUfunction, *CUmodule, *CUstream, *CUevent, *CUcontext;
typedef int CUdevice;
enum { CUDA_ERROR_NOT_READY = 600 };

typedef void *(*dlsym_fn)(void *, const char *);
static dlsym_fn real_dlsym;

static CUresult (*r_launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, CUstream, void **, void **);
static CUresult (*r_getfunc)(CUfunction *, CUmodule, const char *);
static CUresult (*r_ctx_destroy)(CUcontext);
static CUresult (*r_primary_release)(CUdevice);
static CUresult (*r_ev_create)(CUevent *, unsigned);
static CUresult (*r_ev_destroy)(CUevent);
static CUresult (*r_ev_record)(CUevent, CUstream);
static CUresult (*r_ev_query)(CUevent);
static CUresult (*r_ev_sync)(CUevent);
static CUresult (*r_ev_elapsed)(float *, CUevent, CUevent);
static CUresult (*r_ctx_current)(CUcontext *);
static CUresult (*r_ctx_push)(CUcontext);
static CUresult (*r_ctx_pop)(CUcontext *);

struct Pending {
    std::string name;
    CUcontext ctx;
    CUevent a, b;
};
struct Stat {
    long n = 0;
    double total = 0, min = 1e30, max = 0;
};

static std::mutex mu;
static std::map<CUfunction, std::string> names;
static std::vector<Pending> pending;
static std::multimap<CUcontext, CUevent> spare;
static std::map<std::string, Stat> stats;

static void add(const Pending &p)
{
    float ms = 0;
    if (!r_ev_elapsed(&ms, p.a, p.b)) {
        Stat &s = stats[p.name];
        double us = ms * 1000.0;
        s.n++;
        s.total += us;
        if (us < s.min) s.min = us;
        if (us > s.max) s.max = us;
    }
    spare.insert({ p.ctx, p.a });
    spare.insert({ p.ctx, p.b });
}

/* read the finished pairs; with ctx set, wait for all of that context
 * (all contexts if ctx is the null context and all is set) */
static void harvest(bool wait, bool all, CUcontext ctx)
{
    std::vector<Pending> keep;
    for (const Pending &p : pending) {
        bool mine = all || p.ctx == ctx;
        if (wait && mine) {
            r_ctx_push(p.ctx);
            r_ev_sync(p.b);
            add(p);
            r_ctx_pop(nullptr);
        } else if (r_ev_query(p.b) != CUDA_ERROR_NOT_READY) {
            add(p);
        } else {
            keep.push_back(p);
        }
    }
    pending.swap(keep);
    if (wait) {
        for (auto it = spare.begin(); it != spare.end();) {
            if (all || it->first == ctx) {
                r_ctx_push(it->first);
                r_ev_destroy(it->second);
                r_ctx_pop(nullptr);
                it = spare.erase(it);
            } else {
                ++it;
            }
        }
    }
}

static CUevent get_event(CUcontext ctx)
{
    CUevent e = nullptr;
    auto it = spare.find(ctx);
    if (it != spare.end()) {
        e = it->second;
        spare.erase(it);
        return e;
    }
    return r_ev_create(&e, 0) ? nullptr : e;
}

static CUresult w_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                         unsigned by, unsigned bz, unsigned shmem, CUstream st, void **params,
                         void **extra)
{
    std::lock_guard<std::mutex> lock(mu);
    CUcontext ctx = nullptr;
    CUevent a, b;
    CUresult r;

    harvest(false, false, nullptr);
    r_ctx_current(&ctx);
    a = get_event(ctx);
    b = get_event(ctx);
    if (!a || !b || r_ev_record(a, st))
        return r_launch(f, gx, gy, gz, bx, by, bz, shmem, st, params, extra);
    r = r_launch(f, gx, gy, gz, bx, by, bz, shmem, st, params, extra);
    if (r || r_ev_record(b, st)) {
        spare.insert({ ctx, a });
        spare.insert({ ctx, b });
        return r;
    }
    auto it = names.find(f);
    pending.push_back({ it != names.end() ? it->second : std::string("?"), ctx, a, b });
    return r;
}

static CUresult w_getfunc(CUfunction *f, CUmodule m, const char *name)
{
    CUresult r = r_getfunc(f, m, name);
    if (!r) {
        std::lock_guard<std::mutex> lock(mu);
        names[*f] = name;
    }
    return r;
}

static CUresult w_ctx_destroy(CUcontext ctx)
{
    {
        std::lock_guard<std::mutex> lock(mu);
        harvest(true, false, ctx);
    }
    return r_ctx_destroy(ctx);
}

static CUresult w_primary_release(CUdevice dev)
{
    {
        std::lock_guard<std::mutex> lock(mu);
        harvest(true, true, nullptr);
    }
    return r_primary_release(dev);
}

template <typename T> static void resolve(void *h, T &fn, const char *name)
{
    if (!fn)
        fn = (T)real_dlsym(h, name);
}

extern "C" void *dlsym(void *handle, const char *name)
{
    void *p;

    if (!real_dlsym) {
        real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
        if (!real_dlsym)
            real_dlsym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
        if (!real_dlsym)
            abort();
    }
    p = real_dlsym(handle, name);
    if (!p || strncmp(name, "cu", 2))
        return p;
    if (!strcmp(name, "cuLaunchKernel") || !strcmp(name, "cuModuleGetFunction") ||
        !strcmp(name, "cuCtxDestroy_v2") || !strcmp(name, "cuDevicePrimaryCtxRelease")) {
        resolve(handle, r_ev_create, "cuEventCreate");
        resolve(handle, r_ev_destroy, "cuEventDestroy_v2");
        resolve(handle, r_ev_record, "cuEventRecord");
        resolve(handle, r_ev_query, "cuEventQuery");
        resolve(handle, r_ev_sync, "cuEventSynchronize");
        resolve(handle, r_ev_elapsed, "cuEventElapsedTime");
        resolve(handle, r_ctx_current, "cuCtxGetCurrent");
        resolve(handle, r_ctx_push, "cuCtxPushCurrent_v2");
        resolve(handle, r_ctx_pop, "cuCtxPopCurrent_v2");
        if (!r_ev_create || !r_ev_destroy || !r_ev_record || !r_ev_query || !r_ev_sync ||
            !r_ev_elapsed || !r_ctx_current || !r_ctx_push || !r_ctx_pop)
            return p;
    }
    if (!strcmp(name, "cuLaunchKernel")) {
        r_launch = (decltype(r_launch))p;
        return (void *)w_launch;
    }
    if (!strcmp(name, "cuModuleGetFunction")) {
        r_getfunc = (decltype(r_getfunc))p;
        return (void *)w_getfunc;
    }
    if (!strcmp(name, "cuCtxDestroy_v2")) {
        r_ctx_destroy = (decltype(r_ctx_destroy))p;
        return (void *)w_ctx_destroy;
    }
    if (!strcmp(name, "cuDevicePrimaryCtxRelease")) {
        r_primary_release = (decltype(r_primary_release))p;
        return (void *)w_primary_release;
    }
    return p;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("CUDATIME_LOG");
    FILE *f = path ? fopen(path, "w") : stderr;

    if (!f)
        return;
    for (const auto &kv : stats) {
        const Stat &s = kv.second;
        fprintf(f, "cudatime: %s launches %ld mean %.2f us min %.2f us max %.2f us total %.3f ms\n",
                kv.first.c_str(), s.n, s.total / s.n, s.min, s.max, s.total / 1000.0);
    }
    if (f != stderr)
        fclose(f);
}
