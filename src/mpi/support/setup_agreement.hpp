// SPDX-License-Identifier: BSD-3-Clause
// Arguments of a collective set-up (a Context, a Context's first collective call, Pattern,
// Halo, CartesianGrid, SharedWindow, NodeShared, reordered_comm) that must be the same on
// every rank, checked in one MPI_Iallgather that is the set-up's first collective call:
//  - fixed size on every rank (kSetupValues integers, the first one naming the set-up), so
//    ranks inside different set-ups, or in the same one with other arguments, complete
//    the same MPI call and learn it, instead of pairing unrelated collectives and hanging;
//  - every rank sees every rank's values and builds the same message from them, so the
//    same hympi::Error is thrown on every rank at once, naming the ranks and what differs;
//  - a rank whose own arguments are wrong before the set-up begins (the C API's checks of
//    what C passes: enum values, NULL pointers, names) takes part with refuse_setup: the
//    last value is its flag, and when any rank raised it every rank exchanges the reasons
//    and throws the same SetupRefused, before comparing anything else;
//  - waited for under the watchdog, as every hympi wait: a rank that never comes to the
//    set-up is named after HYMPI_TIMEOUT instead of a silent hang.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/wait.hpp"
#include "hympi/options.hpp"
#include "hympi/types.hpp"

namespace hympi::mpi {

/// One argument: its name in messages, its value, and how to print a value.
struct SetupArgument {
  const char* name;
  int64_t value;
  std::string (*show)(int64_t) = nullptr;  // nullptr: the number itself
};

/// Collective over `comm`. `what` names the set-up ("Halo"); at most kSetupValues - 2
/// arguments and `gathered` values together (the first value names the set-up, the last
/// is the refusal flag). `gathered`: values the ranks may differ in, exchanged beside the
/// arguments and not compared; returns every rank's, rank by rank (size x gathered.size()).
/// `wait`: the caller's wait settings, or none: setup_wait of the environment's options
/// (HYMPI_WAIT, HYMPI_TIMEOUT).
std::vector<int64_t> agree_on_setup(MPI_Comm comm, const char* what, std::initializer_list<SetupArgument> arguments,
                                    std::initializer_list<int64_t> gathered = {},
                                    const core::WaitConfig* wait = nullptr);

/// The wait of a set-up made before its node is known: `options`' wait policy and watchdog,
/// the short spin of an oversubscribed node.
core::WaitConfig setup_wait(const Options& options);

/// Every rank's error when some rank refused a set-up: "hympi: Halo set-up refused on rank
/// 3: <reason>", ranks with the same reason together, in rank order.
class SetupRefused : public Error {
 public:
  using Error::Error;
};

/// Collective over `comm`, on a rank whose arguments to the set-up `what` are wrong
/// (`reason` says how), in place of that set-up: meets the other ranks' agree_on_setup and
/// throws SetupRefused there and here.
[[noreturn]] void refuse_setup(MPI_Comm comm, const char* what, const std::string& reason);

inline constexpr int kSetupValues = 12;

}  // namespace hympi::mpi
