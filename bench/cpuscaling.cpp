/*
 * cpuscaling: how much faster the host runs THREADS copies of a loop that
 * shares nothing than one: the ceiling of any thread scaling measured on
 * it at that moment
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
 * Usage: cpuscaling [-t THREADS] [-r ROUNDS] [-n ITERATIONS]
 *
 * Each round times one thread running a loop of ITERATIONS (default 50
 * million) dependent floating-point steps, then THREADS threads (default
 * 2) each running the same loop at once. The loop touches no memory, so
 * nothing but the cores themselves (and whatever else the host runs on
 * them) decides how the THREADS copies compare with one: a program whose
 * threads share work, caches and memory cannot scale better than this on
 * the same host at the same time. Prints
 *   cpuscaling: T threads against 1, R rounds: median M.MMx (min A.AAx, max B.BBx)
 * where each round's figure is T times one thread's time over the T
 * threads' time.
 */

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

static volatile double sink;

static void loop(long n)
{
    double x = 1;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

static double seconds(int threads, long n)
{
    auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> t;
    for (int i = 1; i < threads; i++)
        t.emplace_back(loop, n);
    loop(n);
    for (std::thread &x : t)
        x.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char **argv)
{
    int threads = 2, rounds = 10;
    long n = 50000000;
    bool ok = true;
    for (int i = 1; i < argc && ok; i += 2) {
        ok = i + 1 < argc;
        if (!ok)                         break;
        else if (!strcmp(argv[i], "-t")) threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-r")) rounds  = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-n")) n       = atol(argv[i + 1]);
        else                             ok = false;
    }
    if (!ok || threads < 1 || rounds < 1 || n < 1) {
        fprintf(stderr, "usage: cpuscaling [-t THREADS] [-r ROUNDS] [-n ITERATIONS]\n");
        return 1;
    }
    std::vector<double> r;
    for (int i = 0; i < rounds; i++) {
        const double one = seconds(1, n), all = seconds(threads, n);
        r.push_back(threads * one / all);
    }
    std::sort(r.begin(), r.end());
    const size_t m = r.size();
    const double median = m & 1 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2;
    printf("cpuscaling: %d threads against 1, %d rounds: median %.2fx (min %.2fx, max %.2fx)\n",
           threads, rounds, median, r.front(), r.back());
    return 0;
}
