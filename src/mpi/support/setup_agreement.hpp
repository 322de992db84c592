// Arguments of a collective set-up (a Context, Pattern, Halo, CartesianGrid,
// SharedWindow, NodeShared, reordered_comm) that must be the same on every rank, checked
// in one MPI_Allgather that is the set-up's first collective call:
//  - fixed size on every rank (kValues integers, the first one naming the set-up), so
//    ranks inside different set-ups, or in the same one with other arguments, complete
//    the same MPI call and learn it, instead of pairing unrelated collectives and hanging;
//  - every rank sees every rank's values and builds the same message from them, so the
//    same hympi::Error is thrown on every rank at once, naming the ranks and what differs.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <initializer_list>
#include <string>

namespace hympi::mpi {

/// One argument: its name in messages, its value, and how to print a value.
struct SetupArgument {
  const char* name;
  int64_t value;
  std::string (*show)(int64_t) = nullptr;  // nullptr: the number itself
};

/// Collective over `comm`. `what` names the set-up ("Halo"); at most kValues - 1 arguments.
void agree_on_setup(MPI_Comm comm, const char* what, std::initializer_list<SetupArgument> arguments);

inline constexpr int kSetupValues = 12;

}  // namespace hympi::mpi
