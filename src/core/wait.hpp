// SPDX-License-Identifier: BSD-3-Clause
// The one wait function of hympi. Every protocol that waits for a peer waits here.
//
// Policy (HYMPI_WAIT): spin with a CPU pause, then sched_yield, then sleep on a futex.
//  - adaptive (default): a short spin when the node is oversubscribed (more ranks than
//    cores: the peer we wait for needs our core), a longer one otherwise; then yield;
//    after `sleep_after` seconds of waiting, futex sleeps (a wake costs 60-90 us here,
//    so sleeping is for long waits only), except in a wait that stands in for an MPI
//    call's (`mpi_call`: every wait of the MPI layer), which yields on.
//  - spin: pause only (dedicated cores, lowest latency). yield: pause briefly, then yield.
//    sleep: futex sleeps after a brief spin.
// The futex is a raw SYS_futex on the low 32 bits of the sequence word, without
// FUTEX_PRIVATE, so it wakes waiters in other processes (libstdc++'s std::atomic::wait
// does not). Sleeps are bounded (1 ms), so a wake-up lost to the best-effort
// `sleepers` check costs at most that.
//
// Watchdog: after `timeout_s` seconds (HYMPI_TIMEOUT; 0 = never) the wait calls the
// watchdog handler with the operation, this rank, the peer, and the expected and
// observed sequence numbers. The default handler prints and aborts; the MPI layer
// installs one that calls MPI_Abort; thread tests install one that throws.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/channel.hpp"
#include "core/function_ref.hpp"

namespace hympi::core {

/// How a rank waits for a peer (the policy above).
enum class WaitPolicy { adaptive, spin, yield, sleep };

/// What a wait also checks where it reads the clock (every 1024 spins, then every round),
/// once it has waited 1 ms (never on the fast path), and which may end the wait by
/// throwing: e.g. a Halo's
/// refusals (halo/refusal.hpp), which end its neighbours' waits for a rank that cannot
/// take part in the update.
class WaitInterrupt {
 public:
  virtual void check() = 0;

 protected:
  ~WaitInterrupt() = default;
};

struct WaitConfig {
  WaitPolicy policy = WaitPolicy::adaptive;
  bool oversubscribed = false;  // more ranks than cores on this node: spin less
  double timeout_s = 600.0;     // watchdog; 0 disables it
  double sleep_after_s = 0.01;  // adaptive: start futex sleeps after this long
  WaitInterrupt* interrupt = nullptr;  // none: the wait ends only when ready (or the watchdog)
  /// Runs once per round after the spin phase (never on the fast path): the MPI layer's
  /// drives MPI's progress (core_config.cpp), so that while a rank waits here its pending
  /// MPI requests move on, as they would inside any MPI call; the peer waited for may itself
  /// wait for one of them (a rendezvous). None in the thread tests.
  void (*progress)() = nullptr;
  /// The wait stands in for an MPI call's (every wait of the MPI layer): `adaptive` then
  /// yields but never sleeps, as MPI's own blocking calls do not. A rank that sleeps between
  /// polls moves the MPI traffic it is the target or sender of at the rate of its naps: an
  /// MPICH 5 passive-target accumulate loop aimed at a rank in a served barrier took 296 s
  /// instead of 2.4 s (test pmpi.progress.rma). False in the thread tests.
  bool mpi_call = false;
};

/// Who waits for whom, for the watchdog's message.
struct WaitSite {
  const char* operation;  // e.g. "barrier: release from parent"
  int self;               // this rank (world numbering)
  int peer;               // the rank expected to publish (world numbering), or one of:
};
inline constexpr int kNodeLeaderPeer = -1;  // "another node's leader" (MPI among leaders)
inline constexpr int kEveryRankPeer = -2;   // "the other ranks" (a collective MPI call of all)

/// The WaitSite of a protocol whose participants are numbered on the node and named in
/// messages by their world ranks.
inline WaitSite node_site(const char* operation, const std::vector<int>& world_ranks, int self,
                          int peer) {
  return {operation, world_ranks[self], world_ranks[peer]};
}

using WatchdogHandler = void (*)(const std::string& message);

/// Replaces the watchdog handler (process-wide); returns the previous one. It may be
/// called from the WatchdogThread's helper thread.
WatchdogHandler set_watchdog_handler(WatchdogHandler handler);

/// Builds the watchdog's message and calls the handler; aborts if the handler returns.
[[noreturn]] void fire_watchdog(const WaitSite& site, const char* what_missing, double waited_s);

/// Blocks until `channel.seq >= target` and returns the value seen. The final load is an
/// acquire (or seq_cst with SeqCstOrders): data published before the peer's store is
/// visible after return.
template <class Orders>
uint64_t wait_at_least(Channel& channel, uint64_t target, const WaitConfig& config,
                       const WaitSite& site);

/// wait_at_least that also gives up when `elsewhere()` returns true: it returns whether
/// the channel reached the target (with the acquire above) or `elsewhere` ended it.
/// `elsewhere` runs only where the loop reads the clock (every 1024 spins, then every
/// round): a rare condition's check costs nothing on the fast path.
template <class Orders>
bool wait_at_least_or(Channel& channel, uint64_t target, const WaitConfig& config,
                      const WaitSite& site, FunctionRef<bool()> elsewhere);

/// Polls `ready()` under the same policy (naps instead of futex sleeps): for waits that
/// are not on a channel, e.g. an MPI request among node leaders. `what` tells the
/// watchdog what never completed.
void poll_until(FunctionRef<bool()> ready, const WaitConfig& config, const WaitSite& site,
                const char* what);

/// Stores `value` into the channel's sequence word with `Orders::publish` and wakes
/// sleeping waiters, if any.
template <class Orders>
void publish(Channel& channel, uint64_t value);

/// publish, as a read-modify-write (a locked xchg on x86) rather than a plain store, for
/// a writer that waits for an answer right after it: measured at 2 ranks, an 8-byte flat
/// allreduce 0.46 -> 0.38 us (64-256 B and the dissemination barrier within the spread;
/// BENCHMARKS.md, "A small allreduce in one transfer"), where a fence after the store gained nothing. Each one
/// takes its line before the next store may complete, so a writer with several channels
/// to publish uses it for the last only.
template <class Orders>
void publish_before_waiting(Channel& channel, uint64_t value);

/// Wakes the channel's sleeping waiters, if any (after an update other than `publish`).
template <class Orders>
void wake_sleepers(Channel& channel);

/// One CPU pause instruction (x86 `pause`, Arm `yield`).
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield" ::: "memory");
#else
  asm volatile("" ::: "memory");
#endif
}

}  // namespace hympi::core
