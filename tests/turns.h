/*
 * Times per frame of two codec instances that take turns on the same
 * frames (tests/encthreads, tests/decthreads)
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

#ifndef TESTS_C63_TURNS_H
#define TESTS_C63_TURNS_H

#include <algorithm>
#include <cstdio>
#include <vector>

struct TurnTimes {
    std::vector<double> t[2];   ///< seconds, per frame of every round, per instance
    double total[2] = { 0, 0 };

    void add(int who, double s)
    {
        t[who].push_back(s);
        total[who] += s;
    }

    /** the median over the frames of the first instance's time over the second's */
    double median_ratio() const
    {
        std::vector<double> r;
        for (size_t n = 0; n < t[0].size() && n < t[1].size(); n++)
            r.push_back(t[0][n] / t[1][n]);
        if (r.empty())
            return 0;
        std::sort(r.begin(), r.end());
        const size_t m = r.size();
        return m & 1 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2;
    }

    /** the sum, over the per_round frames of a round, of each frame's
     *  shortest time over the rounds */
    double best(int who, size_t per_round) const
    {
        std::vector<double> b;
        for (size_t n = 0; n < t[who].size(); n++) {
            if (n < per_round)
                b.push_back(t[who][n]);
            else
                b[n % per_round] = std::min(b[n % per_round], t[who][n]);
        }
        double s = 0;
        for (double x : b)
            s += x;
        return s;
    }

    /**
     * Print, for frames frames (rounds of per_round):
     *   PROG: WHAT, F frames: A threads X ms a frame (P fps), B threads Y ms
     *   a frame (Q fps), R.RRx (median of the frames' ratios M.MMx), ITEMS
     *   identical|DIFFERENT
     * and with rounds > 1
     *   best of ROUNDS: A threads X ms a frame, B threads Y ms a frame, R.RRx
     */
    void print(const char *prog, const char *what, const int threads[2], int frames,
               int per_round, int rounds, const char *items, bool differ) const
    {
        printf("%s: %s, %d frames: %d threads %.3f ms a frame (%.1f fps), "
               "%d threads %.3f ms a frame (%.1f fps), %.2fx (median of the frames' ratios %.2fx), "
               "%s %s\n", prog, what, frames,
               threads[0], frames ? 1e3 * total[0] / frames : 0, total[0] > 0 ? frames / total[0] : 0,
               threads[1], frames ? 1e3 * total[1] / frames : 0, total[1] > 0 ? frames / total[1] : 0,
               total[1] > 0 ? total[0] / total[1] : 0, median_ratio(),
               items, differ ? "DIFFERENT" : "identical");
        if (rounds > 1 && per_round) {
            const double b0 = best(0, per_round), b1 = best(1, per_round);
            printf("best of %d: %d threads %.3f ms a frame, %d threads %.3f ms a frame, %.2fx\n",
                   rounds, threads[0], 1e3 * b0 / per_round, threads[1], 1e3 * b1 / per_round,
                   b0 / b1);
        }
    }
};

#endif /* TESTS_C63_TURNS_H */
