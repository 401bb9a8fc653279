/*
 * Codec63 parallel entropy decoding: the host's part
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

/**
 * @file
 * What the host does around the parallel entropy decoding of
 * cuda_kernels/c63_hdec.h, for the CUDA hwaccel and its CPU twin: the code
 * tables, the parameters of a frame, and the error a decoding's status
 * stands for, with the serial decoder's message.
 */

#ifndef AVCODEC_C63_C63HD_H
#define AVCODEC_C63_C63HD_H

#include "cuda_kernels/c63_hdec.h"
#include "c63.h"

/** The code tables of the four JPEG tables c63 uses. */
void ff_c63_hd_tables(C63HDTables *t);

/**
 * The sizes of a frame of geometry g with pkt_size bytes of stuffed
 * entropy-coded data into p (not the addresses).
 */
void ff_c63_hd_params(C63HDParams *p, const C63Geometry *g, int pkt_size, int keyframe);

/**
 * The outcome of a decoding: 0, or AVERROR_INVALIDDATA after logging the
 * serial decoder's message for the error st holds. pkt is the stuffed
 * data (for the marker's byte).
 */
int ff_c63_hd_status(void *logctx, const C63HDParams *p, const C63HDStatus *st,
                     const uint8_t *pkt);

#endif /* AVCODEC_C63_C63HD_H */
