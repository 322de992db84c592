// SPDX-License-Identifier: BSD-3-Clause
#include "halo/refusal.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/memory_order.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi::halo {
namespace {

// The node's refusal: the claimed record of core/halo/claimed_record.hpp; its number is the
// node-wide calls each node rank makes before it throws.
using Record = core::ClaimedRecord<std::conditional_t<core::kForceSeqCst, core::SeqCstOrders, core::TunedOrders>>;

}  // namespace

std::vector<int> node_internode_neighbors(const Pattern::Data& pattern, const Topology& topology) {
  std::vector<int> mine;
  for (std::size_t i = 0; i < pattern.neighbors.size(); ++i)
    if (!pattern.intranode(i)) mine.push_back(pattern.neighbors[i].rank);
  const MPI_Comm node = topology.node();
  const int size = topology.node_size();
  int count = int(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), at(static_cast<std::size_t>(size), 0);
  mpi::check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, node), "MPI_Allgather (Halo refusals)");
  for (int r = 1; r < size; ++r) at[std::size_t(r)] = at[std::size_t(r - 1)] + counts[std::size_t(r - 1)];
  std::vector<int> all(std::size_t(at.back() + counts.back()));
  mpi::check(MPI_Allgatherv(mine.data(), count, MPI_INT, all.data(), counts.data(), at.data(), MPI_INT, node),
             "MPI_Allgatherv (Halo refusals)");
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

Refusals::Refusals(const Pattern::Data& pattern, std::vector<int> told, MPI_Comm comm, int tag,
                   mpi::ArenaLease& arena)
    : comm_(comm), tag_(tag), told_(std::move(told)) {
  // The arena zeroes what it allocates: state 0 before any rank learns where the record is.
  record_ = reinterpret_cast<core::RecordWords*>(arena.allocate(sizeof(core::RecordWords), 64).peers[0]);
  // Neighbours are mutual: only a rank with internode neighbours is ever told.
  for (std::size_t i = 0; i < pattern.neighbors.size(); ++i) probe_ = probe_ || !pattern.intranode(i);
}

Refusals::~Refusals() {
  int done = 1;
  if (!sends_.empty()) MPI_Testall(int(sends_.size()), sends_.data(), &done, MPI_STATUSES_IGNORE);
  if (done) return;
  for (MPI_Request& r : sends_)
    if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
  (void)text_.release();  // MPI may still read it: leaked, once per broken Halo
}

void Refusals::post(const std::string& message) {
  seen_ = true;
  Record record(*record_);
  if (!record.claim()) {
    // Another rank of the node claimed it: its `stop` is our next node-wide call too (none
    // without a NodeSync).
    if (!sync_) return;
    record.wait_posted();
    join_to_stop();
    return;
  }
  record.post(message, synced_ + (sync_ ? 1 : 0));
  const std::size_t n = std::strlen(record.text());
  text_ = std::make_unique<char[]>(n);
  std::memcpy(text_.get(), message.data(), n);
  for (int rank : told_) {
    sends_.emplace_back();
    mpi::check(MPI_Isend(text_.get(), int(n), MPI_CHAR, rank, tag_, comm_, &sends_.back()),
               "MPI_Isend (Halo refusal)");
  }
  join_to_stop();
}

void Refusals::join_to_stop() {
  const uint64_t stop = Record(*record_).stop();  // read after the record was seen posted
  for (; synced_ < stop; ++synced_) sync_->join();
}

void Refusals::synced() {
  ++synced_;
  check_node();
}

void Refusals::check_node() {
  Record record(*record_);
  if (!record.posted()) return;
  seen_ = true;
  join_to_stop();
  throw Refused(record.text());
}

void Refusals::check() {
  check_node();
  if (!probe_) return;
  int flag = 0;
  MPI_Status status;
  mpi::check(MPI_Iprobe(MPI_ANY_SOURCE, tag_, comm_, &flag, &status), "MPI_Iprobe (Halo refusal)");
  if (!flag) return;
  int n = 0;
  MPI_Get_count(&status, MPI_CHAR, &n);
  std::string text(std::size_t(n), '\0');
  mpi::check(MPI_Recv(text.data(), n, MPI_CHAR, status.MPI_SOURCE, tag_, comm_, MPI_STATUS_IGNORE),
             "MPI_Recv (Halo refusal)");
  post(text);  // this node's ranks, and the nodes they exchange with, learn it from here on
  throw Refused(text);
}

}  // namespace hympi::halo
