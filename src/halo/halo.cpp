// SPDX-License-Identifier: BSD-3-Clause
// The public Halo: the parts of its strategy (halo/halo_parts.hpp, chosen by
// halo/automatic.hpp for `automatic`), its call sequence (halo/call_sequence.hpp) and its
// argument checks (halo/halo_checks.hpp), released at MPI_Finalize if still alive. A check
// that fails in an update, or a call out of order, refuses it (halo/refusal.hpp): this rank
// and every rank a refusal reaches keep the message in `broken`, and every later call throws it.
#include "hympi/halo.hpp"

#include <exception>
#include <functional>
#include <string>

#include "core/messages.hpp"
#include "halo/automatic.hpp"
#include "halo/call_sequence.hpp"
#include "halo/halo_checks.hpp"
#include "halo/halo_parts.hpp"
#include "halo/refusal.hpp"
#include "hympi/detail/finalize_guard.hpp"

namespace hympi {

using halo::HaloCall;

struct Halo::Impl {
  Pattern pattern;
  Strategy requested, strategy;  // strategy: what runs (automatic's choice)
  int fields;
  HaloMode mode;
  halo::CallSequence calls;
  halo::HaloParts parts;          // after the checks: its set-up is the first collective call after them
  std::vector<HaloTrial> trials;
  std::string broken;             // after a refused update (halo/refusal.hpp): what every call throws
  detail::FinalizeGuard guard;    // last: destroyed first

  Impl(const Pattern& p, Strategy s, int f, HaloMode m, std::function<void()> release)
      : pattern(p),
        requested(halo::check_setup(p.data(), s, f, m)),
        strategy(s),
        fields(f),
        mode(m),
        calls(m),
        parts(p.data(), f, m),
        guard(std::move(release)) {
    if (requested == Strategy::automatic) strategy = halo::choose_automatic(parts, trials);
    parts.build(strategy);
    if (mode == HaloMode::buffers) parts.defer_release();
  }

  /// `work` as `call`, unless the Halo is broken; a refusal that ends one of its waits
  /// breaks it. A call out of order refuses the update: the neighbours that wait for this
  /// rank's part of it (a begin it did not make, an end it made twice) fail with the error
  /// naming this rank instead of waiting for the watchdog.
  template <class Work>
  void guarded(HaloCall call, Work&& work) {
    checked([&] { calls.check(call); });
    try {
      calls.run(call, work);
    } catch (const halo::Refused& e) {
      broken = e.what();
      throw;
    }
  }

  /// begin or end, in one array (send == recv) or in two.
  void run(HaloCall call, halo::Arrays arrays) {
    const bool one_array = call == HaloCall::begin || call == HaloCall::end;
    const bool beginning = call == HaloCall::begin || call == HaloCall::begin_apart;
    guarded(call, [&] {
      checked([&] { halo::check_arrays(arrays, one_array, strategy, parts); });
      beginning ? parts.begin(arrays) : parts.end(arrays);
    });
  }

  /// `check()`; when it throws, this rank refuses the update before the error goes on.
  template <class Check>
  void checked(Check&& check) {
    if (!broken.empty()) throw Error(broken);
    try {
      check();
    } catch (const Error& e) {
      refuse(e.what());
      throw;
    }
  }

  void refuse(const std::string& reason) {
    if (!broken.empty()) return;
    broken = "hympi: Halo: rank " + std::to_string(pattern.data().context->topology().world_rank()) +
             " could not take part in a ghost update (" + reason +
             "); the update failed on every rank waiting for it, and the Halo cannot be used any more: "
             "free it on every rank and make a new one";
    parts.refuse(broken);
  }

  ~Impl() {
    if (calls.in_flight() && broken.empty() && std::uncaught_exceptions() == 0)
      core::emit_message("hympi: warning: rank " + std::to_string(pattern.data().context->topology().world_rank()) +
                         " destroys a Halo between begin() and end(); its neighbours may wait for this update "
                         "(destruction is collective: finish the update on every rank first)");
  }
};

Halo::Halo(const Pattern& pattern, Strategy strategy, int fields, HaloMode mode)
    : impl_(std::make_unique<Impl>(pattern, strategy, fields, mode, [this] { impl_.reset(); })) {}
Halo::~Halo() = default;

Strategy Halo::strategy() const { return impl_->strategy; }
Strategy Halo::requested_strategy() const { return impl_->requested; }
std::span<const HaloTrial> Halo::trials() const { return impl_->trials; }
int Halo::fields() const { return impl_->fields; }
const HaloStats& Halo::stats() const { return impl_->parts.stats(); }

void Halo::begin(std::span<void* const> vectors) { impl_->run(HaloCall::begin, {vectors, vectors}); }
void Halo::end(std::span<void* const> vectors) { impl_->run(HaloCall::end, {vectors, vectors}); }
void Halo::begin(std::span<const void* const> send, std::span<void* const> recv) {
  impl_->run(HaloCall::begin_apart, {send, recv});
}
void Halo::end(std::span<const void* const> send, std::span<void* const> recv) {
  impl_->run(HaloCall::end_apart, {send, recv});
}

void Halo::acquire() {
  impl_->guarded(HaloCall::acquire, [&] { impl_->parts.acquire(); });
}

void Halo::refuse(const std::string& reason) { impl_->refuse(reason); }

void Halo::begin_buffers() {
  impl_->guarded(HaloCall::begin_buffers, [&] { impl_->parts.begin({}); });
}

bool Halo::test_buffers() {
  bool in = false;
  impl_->guarded(HaloCall::test_buffers, [&] {
    if (impl_->strategy != Strategy::shm && impl_->strategy != Strategy::flat_mpi)  // this rank's mistake alone
      throw Error("hympi: Halo::test_buffers() is for the strategies shm and flat_mpi; end_buffers() completes the "
                  "others");
    in = impl_->parts.arrived();
  });
  return in;
}

void Halo::end_buffers() {
  impl_->guarded(HaloCall::end_buffers, [&] { impl_->parts.end({}); });
}

std::span<std::byte> Halo::buffer_bytes(int neighbor, bool send) {
  impl_->calls.check(send ? HaloCall::send_buffer : HaloCall::recv_buffer);
  halo::check_neighbor(neighbor, impl_->pattern.neighbors().size());
  if (auto b = impl_->parts.buffers(std::size_t(neighbor)))
    return send ? b->send : std::span<std::byte>(const_cast<std::byte*>(b->recv.data()), b->recv.size());
  throw Error("hympi: Halo: no part moves neighbour " + std::to_string(neighbor));
}

void Halo::check_type(Datatype type) const { halo::check_type(impl_->pattern.type(), type); }

void Halo::check_update_arrays(Datatype type, std::size_t count) {
  impl_->checked([&] {
    check_type(type);
    if (count > kMaxInline) throw Error("hympi: Halo: pass more than 8 fields as a span of void*");
  });
}

void* Halo::shared_field_bytes(int f) {
  halo::check_shared_field(impl_->strategy, f, impl_->fields);
  return impl_->parts.shared_field(std::size_t(f));
}

}  // namespace hympi
