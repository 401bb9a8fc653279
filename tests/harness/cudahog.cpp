/*
 * cudahog: run a command while almost all of the CUDA device's memory is
 * taken, so that the command's own allocations meet a real out-of-memory
 * error of the driver (not a simulated one)
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
 * Usage: cudahog LEAVE_MIB COMMAND [ARG...]
 *
 * Creates a context on CUDA device 0, allocates device memory until
 * between LEAVE_MIB and LEAVE_MIB + 1 MiB remain free, as cuMemGetInfo
 * reports (or the driver refuses even 1 MiB more), then runs COMMAND as a
 * child process and waits for it. The memory stays taken until the child has ended. Prints
 * "cudahog: N MiB taken, M MiB left free" to stderr. Exits with the
 * child's status (128 + the signal if a signal ended it), or with 125
 * and a message when there is no usable device or the memory could not be
 * taken (COMMAND is then not run).
 *
 * Test tool only (tests/oom.sh). Uses the driver API through dlopen, no
 * CUDA runtime and no headers of the CUDA toolkit.
 */

#include <vector>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned, CUdevice);
static CUresult (*cuMemGetInfo)(size_t *, size_t *);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);

static int fail(const char *what, CUresult r)
{
    fprintf(stderr, "cudahog: %s failed (CUresult %d); command not run\n", what, r);
    return 125;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: cudahog LEAVE_MIB COMMAND [ARG...]\n");
        return 125;
    }
    char *end;
    long leave_mib = strtol(argv[1], &end, 10);
    if (*end || leave_mib < 0) {
        fprintf(stderr, "cudahog: LEAVE_MIB must be a number of MiB, not '%s'\n", argv[1]);
        return 125;
    }
    const size_t MiB = 1 << 20, leave = (size_t)leave_mib * MiB;

    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "cudahog: cannot load the CUDA driver (libcuda.so.1); command not run\n");
        return 125;
    }
    *(void **)&cuInit       = dlsym(lib, "cuInit");
    *(void **)&cuDeviceGet  = dlsym(lib, "cuDeviceGet");
    *(void **)&cuCtxCreate  = dlsym(lib, "cuCtxCreate_v2");
    *(void **)&cuMemGetInfo = dlsym(lib, "cuMemGetInfo_v2");
    *(void **)&cuMemAlloc   = dlsym(lib, "cuMemAlloc_v2");
    if (!cuInit || !cuDeviceGet || !cuCtxCreate || !cuMemGetInfo || !cuMemAlloc) {
        fprintf(stderr, "cudahog: the CUDA driver lacks a function it needs; command not run\n");
        return 125;
    }

    CUresult r;
    CUdevice dev;
    CUcontext ctx;
    if ((r = cuInit(0)))
        return fail("cuInit", r);
    if ((r = cuDeviceGet(&dev, 0)))
        return fail("cuDeviceGet", r);
    if ((r = cuCtxCreate(&ctx, 0, dev)))
        return fail("cuCtxCreate", r);

    /* halve the chunk whenever it would leave less than asked for, down to
     * 1 MiB; an allocation the driver refuses halves it too */
    std::vector<CUdeviceptr> taken;
    size_t total_taken = 0, chunk = 1024 * MiB, free_b, total_b;
    for (;;) {
        if ((r = cuMemGetInfo(&free_b, &total_b)))
            return fail("cuMemGetInfo", r);
        if (free_b < leave + MiB)
            break;
        while (chunk > MiB && (chunk > free_b || free_b - chunk < leave))
            chunk /= 2;
        CUdeviceptr p;
        if ((r = cuMemAlloc(&p, chunk))) {
            if (chunk == MiB)
                break;
            chunk /= 2;
            continue;
        }
        taken.push_back(p);
        total_taken += chunk;
    }
    fprintf(stderr, "cudahog: %zu MiB taken, %zu MiB left free\n",
            total_taken / MiB, free_b / MiB);

    pid_t pid = fork();
    if (pid < 0) {
        perror("cudahog: fork");
        return 125;
    }
    if (!pid) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "cudahog: cannot run %s\n", argv[2]);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0) {
        perror("cudahog: waitpid");
        return 125;
    }
    /* the memory goes with this process */
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
