// SPDX-License-Identifier: BSD-3-Clause
// The applications' compute threads: the MPI+OpenMP baseline (Hager & Wellein (2010),
// chapter 11; MASHM's "competitive with OpenMP", Jamroz & Dennis (2016)). With --threads K
// every rank runs its loops on K OpenMP threads; one rank per (emulated) node with K threads
// is the hybrid code that hympi's K ranks per node are compared against.
//
// Invariants:
//  - Only the master thread calls MPI or hympi (MPI_THREAD_FUNNELED, asked by app_main);
//    ghost updates and reductions run between parallel loops (vector mode), or on thread 0
//    of a region whose other threads compute what needs no ghost (task mode, overlapped()).
//  - Every loop over a rank's points splits it the same way (static: thread t of T gets
//    [n t / T, n (t + 1) / T)), the arrays' first touch included (Arrays), so each thread
//    works on the pages it placed (Hager & Wellein (2010), 8.1.1).
//  - Sums are combined in thread order (in_thread_order), never by OpenMP's reduction clause
//    (unspecified order): for a given thread count the bits are the same on every run, and
//    with one thread they are the serial loop's.
#pragma once

#include <array>
#include <cstddef>
#include <exception>
#include <utility>

#ifdef _OPENMP
#include <omp.h>
#define HYMPI_PRAGMA(x) _Pragma(#x)
#define HYMPI_OMP(x) HYMPI_PRAGMA(omp x)
#else
#define HYMPI_OMP(x)
#endif

namespace hympi::apps {

inline constexpr int kMaxThreads = 256;

/// The compute loops' threads from now on (1: serial). Throws hympi::Error for more than
/// one thread in a build without OpenMP, or more than kMaxThreads.
void use_threads(int threads);

/// One thread while it lives (the serial references of --verify), then the count before.
class SerialSection {
 public:
  SerialSection();
  ~SerialSection();
  SerialSection(const SerialSection&) = delete;
  SerialSection& operator=(const SerialSection&) = delete;

 private:
  int previous_ = 1;
};

/// This thread's share of [0, n): the static split every loop uses.
inline std::pair<std::size_t, std::size_t> my_share(std::size_t n) {
#ifdef _OPENMP
  const auto t = std::size_t(omp_get_thread_num()), size = std::size_t(omp_get_num_threads());
  return {n * t / size, n * (t + 1) / size};
#else
  return {0, n};
#endif
}

/// body(first, last) on every thread's share of [0, n), in parallel; the results combined
/// from `init` in thread order: combine(...combine(combine(init, r0), r1)..., r(T-1)).
template <class R, class Body, class Combine>
R in_thread_order(std::size_t n, R init, Body&& body, Combine&& combine) {
  std::array<R, kMaxThreads> partial;
  int threads = 1;
  HYMPI_OMP(parallel) {
    const auto [first, last] = my_share(n);
#ifdef _OPENMP
    const int t = omp_get_thread_num();
    if (t == 0) threads = omp_get_num_threads();
#else
    const int t = 0;
#endif
    partial[std::size_t(t)] = body(first, last);
  }
  R result = init;
  for (int t = 0; t < threads; ++t) result = combine(result, partial[std::size_t(t)]);
  return result;
}

/// Task mode (Hager & Wellein (2010), 11.1.2), in one parallel region of T >= 2 threads:
/// thread 0 runs `communicate()` while threads 1..T-1 share [0, inner_n) through `inner`;
/// after a barrier all T share [0, outer_n) through `outer`. The results are combined from
/// `init` in a fixed order: inner of threads 1..T-1, then outer of 0..T-1. What
/// `communicate` throws is rethrown after the region (nothing leaves an OpenMP region).
template <class R, class Communicate, class Inner, class Outer, class Combine>
R overlapped(Communicate&& communicate, std::size_t inner_n, Inner&& inner, std::size_t outer_n, Outer&& outer, R init,
             Combine&& combine) {
  std::array<R, kMaxThreads> in_part, out_part;
  int threads = 1;
  std::exception_ptr failure;
  HYMPI_OMP(parallel) {
#ifdef _OPENMP
    const int t = omp_get_thread_num(), size = omp_get_num_threads();
#else
    const int t = 0, size = 1;
#endif
    if (t == 0) {
      threads = size;
      try {
        communicate();
      } catch (...) {
        failure = std::current_exception();
      }
    } else {
      const auto helpers = std::size_t(size - 1), h = std::size_t(t - 1);
      in_part[std::size_t(t)] = inner(inner_n * h / helpers, inner_n * (h + 1) / helpers);
    }
    HYMPI_OMP(barrier)
    const auto [first, last] = my_share(outer_n);
    out_part[std::size_t(t)] = outer(first, last);
  }
  if (failure) std::rethrow_exception(failure);
  R result = init;
  for (int t = 1; t < threads; ++t) result = combine(result, in_part[std::size_t(t)]);
  for (int t = 0; t < threads; ++t) result = combine(result, out_part[std::size_t(t)]);
  return result;
}

/// body(first, last) on every thread's share of [0, n), in parallel.
template <class Body>
void in_parallel(std::size_t n, Body&& body) {
  HYMPI_OMP(parallel) {
    const auto [first, last] = my_share(n);
    body(first, last);
  }
}

}  // namespace hympi::apps
