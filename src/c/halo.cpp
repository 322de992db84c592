// SPDX-License-Identifier: BSD-3-Clause
// The C API of hympi::Halo: the ghost update with vectors (begin / end / update, one array
// or separate send and receive arrays) or with its own buffers (zero copy), shm_direct's
// shared fields, and what the Halo reports. The C++ typed accessors are reached through
// the pattern's element type (visit_type).
#include <algorithm>
#include <span>

#include "c/c_api.hpp"

using hympi::c::guard;
using hympi::c::require;
using hympi::c::require_array;

namespace {

hympi_halo_s& halo_of(hympi_halo halo) { return require(halo, "halo"); }

/// The `count` arrays of one call, named `name` in errors (count >= 0; the Halo checks it
/// against its fields).
template <class Array>
std::span<Array const> arrays_of(int count, Array const* arrays, const char* name) {
  const auto n = std::size_t(hympi::c::checked_range(count, 0, INT32_MAX, "count", "the Halo's number of fields"));
  return {require_array(arrays, n, name), n};
}

/// One update call of `function`: when its own argument checks fail (a NULL array list, a
/// negative count), this rank refuses the update (hympi::Halo::refuse), as the Halo does
/// when its checks fail, so the ranks that wait for it get the error too.
template <class Call>
int update_call(const char* function, hympi_halo halo, Call call) {
  return guard(function, [&] {
    hympi::Halo& h = halo_of(halo).halo;  // NULL: no Halo to refuse, this rank's error alone
    try {
      call(h);
    } catch (const hympi::c::ArgumentError& e) {
      h.refuse(std::string(function) + ": " + e.what());
      throw;
    }
  });
}

/// Neighbour `neighbor`'s send or receive buffer: its address and its elements.
template <class Data>
void buffer(hympi_halo halo, int neighbor, bool send, Data** data, size_t* elements) {
  hympi_halo_s& h = halo_of(halo);
  Data*& address = require(data, "data");
  size_t& size = require(elements, "elements");
  hympi::c::visit_type(h.type, [&]<class T>(T*) {
    const auto b = send ? std::span<const T>(h.halo.send_buffer<T>(neighbor)) : h.halo.recv_buffer<T>(neighbor);
    address = const_cast<T*>(b.data());
    size = b.size();
  });
}

/// Collective: a new Halo of `pattern` with the strategy `strategy()` gives (it may throw
/// an ArgumentError). Without a pattern there is no communicator: that error is this
/// rank's alone; the others reach every rank of the pattern's context (check_collectively).
template <class StrategyOf>
int create(const char* function, hympi_pattern pattern, StrategyOf strategy, int fields, const hympi_halo_mode& mode,
           hympi_halo* halo) {
  return guard(function, [&] {
    if (halo) *halo = nullptr;
    const hympi::Pattern& p = require(pattern, "pattern").pattern;
    hympi::Strategy s{};
    hympi::HaloMode m{};
    hympi::c::check_collectively(function, p.context().topology().world(), "Halo", [&] {
      require(halo, "halo");
      s = strategy();
      m = hympi::c::to_mode(mode);
    });
    *halo = new hympi_halo_s{hympi::Halo(p, s, fields, m), p.type()};
  });
}

}  // namespace

extern "C" {

int hympi_halo_create(hympi_pattern pattern, hympi_strategy strategy, int fields, hympi_halo_mode mode,
                      hympi_halo* halo) {
  return create(__func__, pattern, [&] { return hympi::c::to_strategy(strategy); }, fields, mode, halo);
}

int hympi_halo_create_named(hympi_pattern pattern, const char* strategy, int fields, hympi_halo_mode mode,
                            hympi_halo* halo) {
  return create(__func__, pattern, [&] {
    return hympi::c::from_name(hympi::strategy_from_name, strategy, "strategy");
  }, fields, mode, halo);
}

int hympi_halo_free(hympi_halo* halo) {
  return guard(__func__, [&] { hympi::c::free_handle(halo, "halo"); });
}

int hympi_halo_strategy(hympi_halo halo, hympi_strategy* running, hympi_strategy* requested) {
  return guard(__func__, [&] {
    const hympi::Halo& h = halo_of(halo).halo;
    hympi_strategy& now = require(running, "running");
    require(requested, "requested") = hympi_strategy(h.requested_strategy());
    now = hympi_strategy(h.strategy());
  });
}

int hympi_halo_fields(hympi_halo halo, int* fields) {
  return guard(__func__, [&] { require(fields, "fields") = halo_of(halo).halo.fields(); });
}

int hympi_halo_stats_get(hympi_halo halo, hympi_halo_stats* stats) {
  return guard(__func__, [&] {
    const hympi::HaloStats& s = halo_of(halo).halo.stats();
    require(stats, "stats") = {s.internode_messages, s.internode_bytes, s.intranode_messages, s.intranode_bytes,
                                  s.single_copy_messages};
  });
}

int hympi_halo_trials(hympi_halo halo, int capacity, hympi_strategy* strategies, double* seconds, int* count) {
  return guard(__func__, [&] {
    const auto trials = halo_of(halo).halo.trials();
    const auto room = std::size_t(hympi::c::checked_range(capacity, 0, INT32_MAX, "capacity", "entries >= 0"));
    require_array(strategies, room, "strategies");
    require_array(seconds, room, "seconds");
    int& total = require(count, "count");
    for (std::size_t i = 0; i < std::min(room, trials.size()); ++i) {
      strategies[i] = hympi_strategy(trials[i].strategy);
      seconds[i] = trials[i].seconds;
    }
    total = int(trials.size());
  });
}

int hympi_halo_begin(hympi_halo halo, int count, void* const* vectors) {
  return update_call(__func__, halo, [&](hympi::Halo& h) { h.begin(arrays_of(count, vectors, "vectors")); });
}

int hympi_halo_end(hympi_halo halo, int count, void* const* vectors) {
  return update_call(__func__, halo, [&](hympi::Halo& h) { h.end(arrays_of(count, vectors, "vectors")); });
}

int hympi_halo_update(hympi_halo halo, int count, void* const* vectors) {
  return update_call(__func__, halo, [&](hympi::Halo& h) { h.update(arrays_of(count, vectors, "vectors")); });
}

int hympi_halo_begin_apart(hympi_halo halo, int count, const void* const* send, void* const* recv) {
  return update_call(__func__, halo, [&](hympi::Halo& h) { h.begin(arrays_of(count, send, "send"), arrays_of(count, recv, "recv")); });
}

int hympi_halo_end_apart(hympi_halo halo, int count, const void* const* send, void* const* recv) {
  return update_call(__func__, halo, [&](hympi::Halo& h) { h.end(arrays_of(count, send, "send"), arrays_of(count, recv, "recv")); });
}

int hympi_halo_update_apart(hympi_halo halo, int count, const void* const* send, void* const* recv) {
  return update_call(__func__, halo, [&](hympi::Halo& h) { h.update(arrays_of(count, send, "send"), arrays_of(count, recv, "recv")); });
}

int hympi_halo_refuse(hympi_halo halo, const char* reason) {
  return guard(__func__, [&] {
    hympi::Halo& h = halo_of(halo).halo;
    require(reason, "reason");  // the first character: a NULL reason is this rank's error
    h.refuse(reason);
  });
}

int hympi_halo_acquire(hympi_halo halo) {
  return guard(__func__, [&] { halo_of(halo).halo.acquire(); });
}

int hympi_halo_begin_buffers(hympi_halo halo) {
  return guard(__func__, [&] { halo_of(halo).halo.begin_buffers(); });
}

int hympi_halo_end_buffers(hympi_halo halo) {
  return guard(__func__, [&] { halo_of(halo).halo.end_buffers(); });
}

int hympi_halo_send_buffer(hympi_halo halo, int neighbor, void** data, size_t* elements) {
  return guard(__func__, [&] { buffer(halo, neighbor, true, data, elements); });
}

int hympi_halo_recv_buffer(hympi_halo halo, int neighbor, const void** data, size_t* elements) {
  return guard(__func__, [&] { buffer(halo, neighbor, false, data, elements); });
}

int hympi_halo_shared_field(hympi_halo halo, int field, void** data) {
  return guard(__func__, [&] {
    hympi_halo_s& h = halo_of(halo);
    void*& address = require(data, "data");
    address = hympi::c::visit_type(h.type, [&]<class T>(T*) -> void* { return h.halo.shared_field<T>(field); });
  });
}

}  // extern "C"
