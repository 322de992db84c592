// SPDX-License-Identifier: BSD-3-Clause
// use_threads (threads.hpp): the thread count of the applications' loops.
#include "threads.hpp"

#include <mpi.h>

#include <string>

#include "hympi/hympi.hpp"

namespace hympi::apps {

void use_threads(int threads) {
  if (threads < 1 || threads > kMaxThreads)
    throw Error("hympi: --threads " + std::to_string(threads) + " is outside 1.." + std::to_string(kMaxThreads));
#ifdef _OPENMP
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (threads > 1 && level < MPI_THREAD_FUNNELED)
    throw Error("hympi: --threads " + std::to_string(threads) +
                " needs MPI_THREAD_FUNNELED, and this MPI provides less; run with --threads 1");
  omp_set_dynamic(0);  // exactly `threads` in every parallel loop: the static split is the arrays' placement
  omp_set_num_threads(threads);
#else
  if (threads > 1)
    throw Error("hympi: --threads " + std::to_string(threads) +
                " needs OpenMP, and these applications were built without it (install a compiler with OpenMP "
                "and configure again)");
#endif
}

SerialSection::SerialSection() {
#ifdef _OPENMP
  previous_ = omp_get_max_threads();
  omp_set_num_threads(1);
#endif
}

SerialSection::~SerialSection() {
#ifdef _OPENMP
  omp_set_num_threads(previous_);
#endif
}

}  // namespace hympi::apps
