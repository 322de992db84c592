// SPDX-License-Identifier: BSD-3-Clause
// Message layouts pad each message to a cache line, so that no two writers share one.
#pragma once

#include <cstddef>

namespace hympi::halo {

inline constexpr std::size_t kCacheLine = 64;

/// Rounds up to a cache line.
inline std::size_t line_up(std::size_t bytes) { return (bytes + kCacheLine - 1) & ~(kCacheLine - 1); }

}  // namespace hympi::halo
