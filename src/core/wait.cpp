// SPDX-License-Identifier: BSD-3-Clause
#include "core/wait.hpp"

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "core/memory_order.hpp"
#include "core/messages.hpp"

namespace hympi::core {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the futex waits on the low half of a 64-bit sequence word");

void default_watchdog(const std::string& message) {
  emit_message(message);
  std::abort();
}

// Process-wide; written at setup only, before any wait (hint order is enough).
std::atomic<WatchdogHandler> g_watchdog{&default_watchdog};

uint32_t* low_half(Channel& channel) {
  return reinterpret_cast<uint32_t*>(&channel.seq);
}

void futex_wait(Channel& channel, uint32_t expected, long timeout_ns) {
  timespec timeout{0, timeout_ns};
  syscall(SYS_futex, low_half(channel), FUTEX_WAIT, expected, &timeout, nullptr, 0);
}

void futex_wake_all(Channel& channel) {
  syscall(SYS_futex, low_half(channel), FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}

// A wait checks its interrupt only once it has lasted this long: the waits of updates that
// nobody refuses, short even when oversubscribed, never pay for the check.
constexpr double kInterruptAfterS = 1e-3;

struct Phases {
  uint32_t spins;          // pause iterations before the first yield
  bool may_sleep;          // futex sleeps allowed at all
  double sleep_after_s;    // and after how long
};

Phases phases_for(const WaitConfig& config) {
  switch (config.policy) {
    case WaitPolicy::spin: return {UINT32_MAX, false, 0.0};
    case WaitPolicy::yield: return {64, false, 0.0};
    case WaitPolicy::sleep: return {64, true, 0.0};
    case WaitPolicy::adaptive: break;
  }
  return {config.oversubscribed ? 64u : 16384u, !config.mpi_call, config.sleep_after_s};
}

/// The policy's loop: `ready()` polls, `nap()` blocks briefly in the sleep phase,
/// `missing()` describes what never came for the watchdog, `config.progress` (if any) runs
/// once per round after the spin phase, `elsewhere()` (if any) ends the loop where the
/// clock is read, and so may `config.interrupt` by throwing (after kInterruptAfterS).
/// Returns true when `ready()` ended it.
template <class Ready, class Nap, class Missing>
bool wait_loop(const WaitConfig& config, const WaitSite& site, Ready ready, Nap nap, Missing missing,
               FunctionRef<bool()> elsewhere = {}) {
  const Phases phases = phases_for(config);
  using Clock = std::chrono::steady_clock;
  Clock::time_point start{};  // read at the first clock check: a short wait never reads the clock
  for (uint64_t round = 1;; ++round) {
    if (round <= phases.spins) {
      cpu_relax();
      if ((round & 1023) != 0) {
        if (ready()) return true;
        continue;  // read the clock only every 1024 spins
      }
    }
    if (ready()) return true;
    if (elsewhere && elsewhere()) return false;
    const auto now = Clock::now();
    if (start == Clock::time_point{}) start = now;  // waits are timed from here, at most 1024 spins late
    const double waited = std::chrono::duration<double>(now - start).count();
    if (config.interrupt && waited >= kInterruptAfterS) config.interrupt->check();  // may throw: wait abandoned
    if (config.timeout_s > 0 && waited > config.timeout_s) fire_watchdog(site, missing().c_str(), waited);
    if (round <= phases.spins) continue;
    if (config.progress) config.progress();
    if (phases.may_sleep && waited >= phases.sleep_after_s) nap();
    else sched_yield();
  }
}

}  // namespace

[[noreturn]] void fire_watchdog(const WaitSite& site, const char* what_missing, double waited_s) {
  const std::string peer = site.peer >= 0                  ? "rank " + std::to_string(site.peer)
                           : site.peer == kEveryRankPeer ? std::string("the other ranks")
                                                         : std::string("another node's leader");
  char text[640];
  std::snprintf(text, sizeof text,
                "hympi watchdog: rank %d waited %.0f s in %s for %s: %s. Check that every rank "
                "calls the same hympi operations in the same order, or raise HYMPI_TIMEOUT "
                "(seconds, 0 = never).",
                site.self, waited_s, site.operation, peer.c_str(), what_missing);
  g_watchdog.load(std::memory_order_relaxed)(text);
  std::abort();  // a handler that returns must not let the protocol run on garbage
}

WatchdogHandler set_watchdog_handler(WatchdogHandler handler) {
  return g_watchdog.exchange(handler ? handler : &default_watchdog,
                             std::memory_order_relaxed);  // setup-time only
}

namespace {

/// The channel wait behind wait_at_least and wait_at_least_or: returns whether the
/// target was reached; `seen` gets the last value observed.
template <class Orders>
bool wait_channel(Channel& channel, uint64_t target, const WaitConfig& config, const WaitSite& site,
                  FunctionRef<bool()> elsewhere, uint64_t& seen) {
  // Acquire on every load that may end the wait: the caller reads the peer's data next.
  seen = channel.seq.load(Orders::observe);
  if (seen >= target) return true;
  auto ready = [&] { return (seen = channel.seq.load(Orders::observe)) >= target; };  // acquire, as above
  auto nap = [&] {
    channel.sleepers.fetch_add(1, Orders::hint);  // a hint for the publisher; naps are bounded
    if (!ready()) futex_wait(channel, static_cast<uint32_t>(seen), 1'000'000);
    channel.sleepers.fetch_sub(1, Orders::hint);  // hint only, as above
  };
  auto missing = [&] {
    return "expected sequence >= " + std::to_string(target) + ", observed " + std::to_string(seen);
  };
  return wait_loop(config, site, ready, nap, missing, elsewhere);
}

}  // namespace

template <class Orders>
uint64_t wait_at_least(Channel& channel, uint64_t target, const WaitConfig& config,
                       const WaitSite& site) {
  uint64_t seen = 0;
  wait_channel<Orders>(channel, target, config, site, {}, seen);
  return seen;
}

template <class Orders>
bool wait_at_least_or(Channel& channel, uint64_t target, const WaitConfig& config,
                      const WaitSite& site, FunctionRef<bool()> elsewhere) {
  uint64_t seen = 0;
  return wait_channel<Orders>(channel, target, config, site, elsewhere, seen);
}

void poll_until(FunctionRef<bool()> ready, const WaitConfig& config, const WaitSite& site,
                const char* what) {
  auto nap = [] {
    timespec pause{0, 50'000};
    nanosleep(&pause, nullptr);
  };
  wait_loop(config, site, ready, nap, [what] { return std::string(what); });
}

template <class Orders>
void publish(Channel& channel, uint64_t value) {
  channel.seq.store(value, Orders::publish);  // release: hands over all data written before
  wake_sleepers<Orders>(channel);
}

template <class Orders>
void publish_before_waiting(Channel& channel, uint64_t value) {
  channel.seq.exchange(value, Orders::publish);  // release, as publish: an RMW only for its speed (wait.hpp)
  wake_sleepers<Orders>(channel);
}

template <class Orders>
void wake_sleepers(Channel& channel) {
  if (channel.sleepers.load(Orders::hint) != 0)  // hint: a missed sleeper wakes by timeout
    futex_wake_all(channel);
}

template uint64_t wait_at_least<TunedOrders>(Channel&, uint64_t, const WaitConfig&, const WaitSite&);
template uint64_t wait_at_least<SeqCstOrders>(Channel&, uint64_t, const WaitConfig&, const WaitSite&);
template bool wait_at_least_or<TunedOrders>(Channel&, uint64_t, const WaitConfig&, const WaitSite&,
                                            FunctionRef<bool()>);
template bool wait_at_least_or<SeqCstOrders>(Channel&, uint64_t, const WaitConfig&, const WaitSite&,
                                             FunctionRef<bool()>);
template void publish<TunedOrders>(Channel&, uint64_t);
template void publish<SeqCstOrders>(Channel&, uint64_t);
template void publish_before_waiting<TunedOrders>(Channel&, uint64_t);
template void publish_before_waiting<SeqCstOrders>(Channel&, uint64_t);
template void wake_sleepers<TunedOrders>(Channel&);
template void wake_sleepers<SeqCstOrders>(Channel&);

}  // namespace hympi::core
