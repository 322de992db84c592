// SPDX-License-Identifier: BSD-3-Clause
// The copies between a program's buffers and shared memory (the collectives' phases that
// move a vector in or out, the ghost update's packs and unpacks of contiguous runs, the
// neighbourhood slots of libhympi_pmpi).
//
// hympi cannot choose where a program's buffers lie, so a copy must not depend on it.
// glibc's memcpy copies more than `glibc.cpu.x86_rep_movsb_threshold` bytes (2-8 KiB by
// CPU) forwards, with `rep movsb` up to about the L2 size: when the destination lies
// 1-63 bytes after the source modulo 4 KiB, each load waits for a store to an address it
// aliases, and an AMD EPYC (2026-12-07, glibc 2.36) copied 64 KiB in 18.6 us at a distance
// of 1-15 bytes and 1.5 us at 16-63, against 1.0 us elsewhere. A copy at such a distance goes
// backwards, 64 bytes per step, where no load follows a store it aliases: 1.1 us at every
// distance (within 10 % of glibc's best from 64 KiB to 1 MiB). Below 2 KiB, at every
// other distance, and above 1 MiB (glibc's own loop for large copies handles the distance,
// measured at 1 MiB, and larger ones keep its non-temporal stores) memcpy is as fast
// wherever the buffers lie, and is used. Overlapping buffers (which no caller should pass)
// go to memmove, as glibc's memcpy would have taken them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace hympi::core {

/// Copies up to this many bytes are plain memcpy at every distance (below glibc's
/// `rep movsb` threshold; measured at par at 256 B - 2 KiB).
inline constexpr std::size_t kShortCopy = 2048;
/// Copies above this many bytes are plain memcpy at every distance (glibc's loop for large
/// copies: 20-22 us at 1 MiB at every distance, measured).
inline constexpr std::size_t kLongCopy = std::size_t(1) << 20;

/// memcpy(dst, src, n) for buffers that do not overlap, at the same speed wherever they lie.
inline void copy_bytes(void* dst, const void* src, std::size_t n) {
#if defined(__x86_64__)
  const auto d_at = reinterpret_cast<std::uintptr_t>(dst), s_at = reinterpret_cast<std::uintptr_t>(src);
  const auto distance = (d_at - s_at) % 4096;
  if (n > kShortCopy && n <= kLongCopy && distance != 0 && distance < 64) {
    if (d_at < s_at + n && s_at < d_at + n) return void(std::memmove(dst, src, n));
    auto* d = static_cast<std::byte*>(dst);
    const auto* s = static_cast<const std::byte*>(src);
    auto load = [&](std::size_t at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + at)); };
    auto store = [&](std::size_t at, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(d + at), v); };
    std::size_t i = n;
    for (; i >= 64; i -= 64) {  // the last 64 bytes first: loads below every store in flight
      const __m128i a = load(i - 16), b = load(i - 32), c = load(i - 48), e = load(i - 64);
      store(i - 16, a), store(i - 32, b), store(i - 48, c), store(i - 64, e);
    }
    std::memcpy(d, s, i);  // the first n % 64 bytes
    return;
  }
#endif
  std::memcpy(dst, src, n);
}

}  // namespace hympi::core
