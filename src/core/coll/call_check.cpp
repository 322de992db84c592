// SPDX-License-Identifier: BSD-3-Clause
#include "core/coll/call_check.hpp"

#include <cstdio>

namespace hympi::core {

void CallDesc::to_words(uint64_t* words) const {
  // kind, type, op: 8 bits each; root: 32 (any int); context: 8.
  words[0] = uint64_t(kind) | uint64_t(type) << 8 | uint64_t(op) << 16 | uint64_t(uint32_t(int32_t(root))) << 24 |
             uint64_t(context) << 56;
  words[1] = count;
}

CallDesc CallDesc::from_words(const uint64_t* words) {
  CallDesc d;
  d.kind = CallKind(words[0] & 0xff);
  d.type = Datatype((words[0] >> 8) & 0xff);
  d.op = Op((words[0] >> 16) & 0xff);
  d.root = int32_t(uint32_t(words[0] >> 24));
  d.context = uint8_t(words[0] >> 56);
  d.count = words[1];
  return d;
}

std::string CallDesc::describe() const {
  char text[160];
  switch (kind) {
    case CallKind::barrier:
      return "barrier()";
    case CallKind::bcast:
      std::snprintf(text, sizeof text, "bcast(count=%llu, %s, root=%lld)",
                    (unsigned long long)count, name_of(type), (long long)root);
      return text;
    case CallKind::reduce:
      std::snprintf(text, sizeof text, "reduce(count=%llu, %s, %s, root=%lld)",
                    (unsigned long long)count, name_of(type), name_of(op), (long long)root);
      return text;
    case CallKind::allreduce:
      std::snprintf(text, sizeof text, "allreduce(count=%llu, %s, %s)",
                    (unsigned long long)count, name_of(type), name_of(op));
      return text;
  }
  return "unknown collective";
}

void Status::to_words(uint64_t* words) const {
  words[0] = code;
  words[1] = uint64_t(rank_a);
  words[2] = uint64_t(rank_b);
  a.to_words(words + 3);
  b.to_words(words + 3 + CallDesc::kWords);
}

Status Status::from_words(const uint64_t* words) {
  Status s;
  s.code = words[0];
  s.rank_a = int64_t(words[1]);
  s.rank_b = int64_t(words[2]);
  s.a = CallDesc::from_words(words + 3);
  s.b = CallDesc::from_words(words + 3 + CallDesc::kWords);
  return s;
}

std::string Status::message() const {
  if (code == kInvalidRoot)
    return "hympi: root " + std::to_string(a.root) + " is not a rank of the communicator (size " +
           std::to_string(rank_b) + "): rank " + std::to_string(rank_a) + " called " + a.describe() + ".";
  if (code == kLeaderError)
    return "hympi: the MPI operation among node leaders failed on rank " + std::to_string(rank_a) + " during " +
           a.describe() + " (that rank printed the MPI error). Every rank of its node stopped the call.";
  if (code == kInvalidArgument) {
    const char* what = "an invalid argument";
    switch (Argument(rank_b)) {
      case Argument::type: what = "a type that is none of float64, float32, int32, int64"; break;
      case Argument::op: what = "an op that is none of sum, prod, min, max"; break;
      // A language binding that refuses an array passes it on as null (python/src/context.cpp).
      case Argument::in: what = "a null input buffer ('in') for a nonzero count (or one its binding refused)"; break;
      case Argument::out: what = "a null output buffer ('out') for a nonzero count (or one its binding refused)"; break;
      case Argument::data: what = "a null buffer ('data') for a nonzero count (or one its binding refused)"; break;
    }
    return "hympi: rank " + std::to_string(rank_a) + " called " + a.describe() + " with " + what +
           ". The call failed on every rank and moved no data.";
  }
  if (code == kBroken)
    return "hympi: " + a.describe() + " refused: the collectives of the node led by rank " + std::to_string(rank_a) +
           " stopped half way at an earlier mismatch between a counter barrier and another collective. "
           "That Context cannot be used any more: create a new Context.";
  CallDesc a_as_b = a;  // the same call but for the Context it was made on?
  a_as_b.context = b.context;
  if (code == kMismatch && a.context != b.context && a_as_b == b)
    return "hympi: ranks called collectives of different Contexts: rank " + std::to_string(rank_a) + " called " +
           a.describe() + " on Context #" + std::to_string(a.context) + " but rank " + std::to_string(rank_b) +
           " called " + b.describe() + " on Context #" + std::to_string(b.context) +
           " (numbered in the order they were made on communicators of this group, mod 256). Contexts on "
           "communicators with the same group share one engine: call their collectives in the same order on "
           "every rank, as MPI requires of collectives on different communicators.";
  return "hympi: ranks called a collective with different arguments: rank " +
         std::to_string(rank_a) + " called " + a.describe() + " but rank " +
         std::to_string(rank_b) + " called " + b.describe() +
         ". Every rank must call the same collectives in the same order with the same "
         "count, type, op and root.";
}

}  // namespace hympi::core
