// SPDX-License-Identifier: BSD-3-Clause
// The sequence of a Halo's calls on one rank, as a state machine. Vectors, in one array or
// in separate send and receive arrays (an update ends in the form it began):
//   idle -> begin(v) -> in_flight -> end(v) -> idle
//   idle -> begin(send, recv) -> in_flight_apart -> end(send, recv) -> idle
// Zero-copy buffers:
//   idle | received -> acquire() -> filling (send_buffer) -> begin_buffers() -> in_flight
//   -> end_buffers() -> received (recv_buffer) -> acquire() ...
//   (test_buffers() while in_flight, which it leaves as it is)
// A call out of order (or of the other mode) throws hympi::Error on the rank that made it,
// before anything is sent; the Halo (halo.cpp) then refuses the update, so that the ranks
// waiting for this one's part of it fail with the error too (halo/refusal.hpp).
#pragma once

#include <cstdint>

#include "hympi/halo.hpp"

namespace hympi::halo {

enum class HaloCall : uint8_t {
  begin, end, begin_apart, end_apart, acquire, begin_buffers, end_buffers, send_buffer, recv_buffer, test_buffers
};

class CallSequence {
 public:
  enum class Phase : uint8_t { idle, filling, in_flight, in_flight_apart, received };

  explicit CallSequence(HaloMode mode) : mode_(mode) {}

  /// Throws when `call` is not allowed now.
  void check(HaloCall call) const;
  /// `work` between the check and the move to the call's next phase; a throw leaves the phase as it was.
  template <class Work>
  void run(HaloCall call, Work&& work) {
    check(call);
    work();
    phase_ = next(call);
  }
  /// Between begin and end: the neighbours may be waiting for this rank's update.
  bool in_flight() const { return phase_ == Phase::in_flight || phase_ == Phase::in_flight_apart; }

 private:
  static Phase next(HaloCall call);

  HaloMode mode_;
  Phase phase_ = Phase::idle;
};

}  // namespace hympi::halo
