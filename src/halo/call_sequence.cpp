// SPDX-License-Identifier: BSD-3-Clause
#include "halo/call_sequence.hpp"

#include <string>

namespace hympi::halo {
namespace {

using Phase = CallSequence::Phase;

constexpr unsigned bit(Phase phase) { return 1u << unsigned(phase); }

struct Rule {
  HaloCall call;
  const char* name;
  HaloMode mode;
  unsigned from;  // the phases it may be called in (bits)
  Phase to;
};

constexpr Rule kRules[] = {
    {HaloCall::begin, "begin(vectors)", HaloMode::vectors, bit(Phase::idle), Phase::in_flight},
    {HaloCall::end, "end(vectors)", HaloMode::vectors, bit(Phase::in_flight), Phase::idle},
    {HaloCall::begin_apart, "begin(send, recv)", HaloMode::vectors, bit(Phase::idle), Phase::in_flight_apart},
    {HaloCall::end_apart, "end(send, recv)", HaloMode::vectors, bit(Phase::in_flight_apart), Phase::idle},
    {HaloCall::acquire, "acquire()", HaloMode::buffers, bit(Phase::idle) | bit(Phase::received), Phase::filling},
    {HaloCall::begin_buffers, "begin_buffers()", HaloMode::buffers, bit(Phase::filling), Phase::in_flight},
    {HaloCall::end_buffers, "end_buffers()", HaloMode::buffers, bit(Phase::in_flight), Phase::received},
    {HaloCall::send_buffer, "send_buffer()", HaloMode::buffers, bit(Phase::filling), Phase::filling},
    {HaloCall::recv_buffer, "recv_buffer()", HaloMode::buffers, bit(Phase::received), Phase::received},
    {HaloCall::test_buffers, "test_buffers()", HaloMode::buffers, bit(Phase::in_flight), Phase::in_flight},
};

constexpr const Rule& rule(HaloCall call) { return kRules[std::size_t(call)]; }

constexpr bool rules_in_order() {
  for (std::size_t i = 0; i < std::size(kRules); ++i)
    if (std::size_t(kRules[i].call) != i) return false;
  return true;
}
static_assert(rules_in_order(), "kRules lists every HaloCall in declaration order");

}  // namespace

void CallSequence::check(HaloCall call) const {
  const Rule& r = rule(call);
  if (mode_ == r.mode && (r.from & bit(phase_))) return;  // every correct call: no string built
  const std::string what = std::string("hympi: Halo::") + r.name;
  if (mode_ != r.mode)
    throw Error(what + " is for a Halo in " +
                (r.mode == HaloMode::buffers ? "HaloMode::buffers (zero-copy)" : "HaloMode::vectors") +
                "; this one uses " +
                (mode_ == HaloMode::buffers ? "its buffers: call acquire, begin_buffers, end_buffers"
                                            : "vectors: call begin/end(v) or begin/end(send, recv)"));
  if (mode_ == HaloMode::buffers)
    throw Error(what + " out of order: one update is acquire(), writes to send_buffer, "
                "begin_buffers(), end_buffers(), reads of recv_buffer");
  const bool ending = call == HaloCall::end || call == HaloCall::end_apart;
  const char* form = call == HaloCall::begin || call == HaloCall::end ? "(v)" : "(send, recv)";
  const char* began = phase_ == Phase::in_flight ? "(v)" : "(send, recv)";
  if (phase_ == Phase::idle)
    throw Error(what + " out of order: no update is in flight: call begin" + form + " before end" + form);
  if (ending)
    throw Error(what + " out of order: the update in flight began with begin" + began + ": end it with end" + began);
  throw Error(what + " out of order: an update is in flight: call end" + began + " before the next begin" + form +
              " or update" + form);
}

CallSequence::Phase CallSequence::next(HaloCall call) { return rule(call).to; }

}  // namespace hympi::halo
