// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/leader_check.hpp"

#include <cstring>

#include "core/coll/reduce_ops.hpp"
#include "mpi/coll/leader_agreement.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {
namespace {

constexpr std::size_t kHeaderBytes = sizeof(CheckHeader);

constexpr std::size_t kPacketBytes = kHeaderBytes + LeaderCheck::kFusedBytes;

// MPI_User_function over packets [CheckHeader | payload | unused tail].
void reduce_packets(void* in, void* inout, int* len, MPI_Datatype*) {
  const std::size_t bytes = kPacketBytes;
  auto* a = static_cast<std::byte*>(in);
  auto* b = static_cast<std::byte*>(inout);
  for (int k = 0; k < *len; ++k, a += bytes, b += bytes) {
    CheckHeader ha, hb;
    std::memcpy(&ha, a, kHeaderBytes);
    std::memcpy(&hb, b, kHeaderBytes);
    if (ha.agrees() && hb.agrees() && ha.words[1] == hb.words[1] && ha.words[2] == hb.words[2]) {
      const uint64_t desc_words[2] = {uint64_t(ha.words[1]), uint64_t(ha.words[2])};
      const auto desc = core::CallDesc::from_words(desc_words);
      // Headers agree; the packet holds data only for an allreduce that fits whole.
      if (desc.kind == core::CallKind::allreduce &&
          desc.count * size_of(desc.type) <= LeaderCheck::kFusedBytes)
        core::combine(b + kHeaderBytes, a + kHeaderBytes, b + kHeaderBytes, desc.count, desc.type, desc.op);
    }
    hb.max_with(ha);
    std::memcpy(b, &hb, kHeaderBytes);
  }
}

}  // namespace

LeaderCheck::LeaderCheck() : packet_(kPacketBytes) {
  check(MPI_Op_create(&reduce_packets, /*commute=*/1, &op_), "MPI_Op_create (leaders' allreduce)");
  check(MPI_Type_contiguous(int(kPacketBytes), MPI_BYTE, &packet_type_), "MPI_Type_contiguous (packet)");
  check(MPI_Type_commit(&packet_type_), "MPI_Type_commit (packet)");
}

LeaderCheck::~LeaderCheck() {
  MPI_Type_free(&packet_type_);
  MPI_Op_free(&op_);
}

bool LeaderCheck::run(const LeaderComm& leaders, const core::CallDesc& desc, core::Status& status,
                      std::byte* data, std::size_t count) {
  const std::size_t bytes = count * size_of(desc.type);
  // Leaders that agree on desc agree on this choice too (count is the sweep's, which
  // equals desc.count exactly when the call is one sweep).
  const bool fused = data && desc.kind == core::CallKind::allreduce && count == desc.count &&
                     bytes <= kFusedBytes;
  const CheckHeader mine = CheckHeader::of(desc, status);
  std::memcpy(packet_.data(), &mine, kHeaderBytes);
  std::memset(packet_.data() + kHeaderBytes, 0, kFusedBytes);
  if (fused) std::memcpy(packet_.data() + kHeaderBytes, data, bytes);
  const MPI_Comm comm = leaders.comm();
  leaders.run(
      "leaders' argument check (MPI_Allreduce)",
      [&] { return MPI_Allreduce(MPI_IN_PLACE, packet_.data(), 1, packet_type_, op_, comm); },
      [&](MPI_Request* r) { return MPI_Iallreduce(MPI_IN_PLACE, packet_.data(), 1, packet_type_, op_, comm, r); });
  CheckHeader all;
  std::memcpy(&all, packet_.data(), kHeaderBytes);
  if (!all.agrees()) {
    leaders_explain(leaders, desc, status);
    return false;
  }
  if (fused) std::memcpy(data, packet_.data() + kHeaderBytes, bytes);
  return fused;
}

}  // namespace hympi::mpi
