// SPDX-License-Identifier: BSD-3-Clause
#include <hympi/hympi.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  {
    hympi::Context ctx(MPI_COMM_WORLD);
    int total = ctx.allreduce(ctx.topology().world_rank() + 1, hympi::Op::sum);
    if (ctx.topology().world_rank() == 0)
      std::printf("consumer: %d ranks, allreduce %d", ctx.topology().world_size(), total);
  }
  MPI_Finalize();
}
