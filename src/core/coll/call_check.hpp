// SPDX-License-Identifier: BSD-3-Clause
// What a collective call looked like on one rank, and the mismatch record that travels
// through the tree when two ranks disagree (docs/design.md, rule 7).
//
// Every up-channel carries the writer's CallDesc; the parent compares it with its own.
// The first disagreement found in a subtree is kept (a Status), passed up to the root,
// merged across nodes by the leaders, and sent down to every rank, which then throws
// hympi::Error with the same message. No rank touches another's data once a mismatch is
// known, so differing counts never read out of bounds.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "hympi/types.hpp"

namespace hympi::core {

enum class CallKind : uint8_t { barrier = 1, bcast, reduce, allreduce };

struct CallDesc {
  CallKind kind{};
  Datatype type{};
  Op op{};
  int64_t root = -1;  // world rank, -1 when the operation has none
  uint64_t count = 0;
  // The calling Context's number among those sharing its engine, mod 256
  // (mpi/coll/context_engine.hpp): calls of two Contexts never pair up.
  uint8_t context = 0;

  static constexpr int kWords = 2;
  void to_words(uint64_t* words) const;
  static CallDesc from_words(const uint64_t* words);
  bool operator==(const CallDesc&) const = default;
  std::string describe() const;  // e.g. "allreduce(count=10, double, sum)"
};

/// An argument a rank can get wrong on its own, whatever the others passed.
enum class Argument : uint8_t { type = 1, op, in, out, data };

struct Status {
  // 0: fine; kMismatch: ranks a and b called with different arguments; kInvalidRoot: rank a
  // named a root that is no rank (rank_b: the communicator's size); kLeaderError: the MPI
  // call among node leaders failed on leader a; kBroken: the node led by rank a stopped
  // its protocols half way at an earlier mismatch (call_board.hpp) and refuses call a;
  // kInvalidArgument: rank a passed an invalid Argument rank_b (a type or op outside its
  // enumeration, a null buffer with a nonzero count).
  static constexpr uint64_t kMismatch = 1, kInvalidRoot = 2, kLeaderError = 3, kBroken = 4,
                            kInvalidArgument = 5;
  uint64_t code = 0;
  int64_t rank_a = -1, rank_b = -1;  // world ranks
  CallDesc a{}, b{};

  static constexpr int kWords = 3 + 2 * CallDesc::kWords;
  bool failed() const { return code != 0; }
  /// Keeps the first failure: `other` is taken only if this one is fine.
  void merge(const Status& other) {
    if (!failed() && other.failed()) *this = other;
  }
  static Status mismatch(int64_t rank_a, const CallDesc& a, int64_t rank_b, const CallDesc& b) {
    return Status{kMismatch, rank_a, rank_b, a, b};
  }
  static Status invalid_root(int64_t rank, const CallDesc& call, int64_t size) {
    return Status{kInvalidRoot, rank, size, call, {}};
  }
  static Status leader_error(int64_t rank, const CallDesc& call) { return Status{kLeaderError, rank, -1, call, {}}; }
  static Status broken(int64_t leader, const CallDesc& call) { return Status{kBroken, leader, -1, call, {}}; }
  static Status invalid_argument(int64_t rank, const CallDesc& call, Argument which) {
    return Status{kInvalidArgument, rank, int64_t(which), call, {}};
  }
  void to_words(uint64_t* words) const;
  static Status from_words(const uint64_t* words);
  std::string message() const;
};

/// Metadata words travel beside a channel's sequence word: written before its release
/// store and read after the acquire load that saw it, so `Orders::hint` (relaxed) suffices.
template <class Orders, class T>
void store_words(const T& value, std::atomic<uint64_t>* words) {
  uint64_t plain[T::kWords];
  value.to_words(plain);
  for (int i = 0; i < T::kWords; ++i) words[i].store(plain[i], Orders::hint);  // seq release orders it
}

template <class Orders, class T>
T load_words(const std::atomic<uint64_t>* words) {
  uint64_t plain[T::kWords];
  for (int i = 0; i < T::kWords; ++i) plain[i] = words[i].load(Orders::hint);  // after the seq acquire
  return T::from_words(plain);
}

/// A Status costs one word on the fast path: the record only when it failed.
template <class Orders>
void store_status(const Status& status, std::atomic<uint64_t>* words) {
  if (status.failed()) store_words<Orders>(status, words);
  else words[0].store(0, Orders::hint);  // ordered by the seq release
}

template <class Orders>
Status load_status(const std::atomic<uint64_t>* words) {
  if (words[0].load(Orders::hint) == 0) return Status{};  // after the seq acquire
  return load_words<Orders, Status>(words);
}

}  // namespace hympi::core
