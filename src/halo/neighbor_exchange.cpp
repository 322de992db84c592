// SPDX-License-Identifier: BSD-3-Clause
#include "halo/neighbor_exchange.hpp"

#include "mpi/support/internal_comm.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/requests.hpp"

namespace hympi::halo {
namespace {

class NeighborExchange final : public Exchange {
 public:
  NeighborExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : peers_(std::move(peers)), wait_(setup.wait), world_rank_(setup.topology.world_rank()), fields_(setup.fields) {
    // Every neighbour is both a source and a destination (a zero count where one direction
    // is empty), so one list serves both sides of the graph.
    std::vector<int> ranks;
    int s = 0, r = 0;
    for (const PeerPlan& p : peers_) {
      ranks.push_back(p.rank);
      send_counts_.push_back(int(p.send_bytes(fields_)));
      recv_counts_.push_back(int(p.recv_bytes(fields_)));
      send_displs_.push_back(s);
      recv_displs_.push_back(r);
      s += send_counts_.back();
      r += recv_counts_.back();
    }
    send_buffer_.resize(std::size_t(s));
    recv_buffer_.resize(std::size_t(r));
    const int degree = int(ranks.size());
    mpi::check(MPI_Dist_graph_create_adjacent(setup.comm, degree, ranks.data(), MPI_UNWEIGHTED, degree, ranks.data(),
                                              MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph_),
               "MPI_Dist_graph_create_adjacent (ghost update)");
    mpi::name_internal(graph_, "neighbourhood ghost update");
#if MPI_VERSION >= 4
    mpi::check(MPI_Neighbor_alltoallv_init(send_buffer_.data(), send_counts_.data(), send_displs_.data(), MPI_BYTE,
                                           recv_buffer_.data(), recv_counts_.data(), recv_displs_.data(), MPI_BYTE,
                                           graph_, MPI_INFO_NULL, &request_),
               "MPI_Neighbor_alltoallv_init (ghost update)");
#endif
  }

  ~NeighborExchange() override {
    if (in_flight_) {
      // A refused update: the collective never completes and MPI may still write its
      // buffers, and freeing it, or its communicator, is erroneous. Left to MPI_Finalize.
      (void)new std::vector<std::byte>(std::move(send_buffer_));  // leaked on purpose, once per broken Halo
      (void)new std::vector<std::byte>(std::move(recv_buffer_));
      return;
    }
#if MPI_VERSION >= 4
    MPI_Request_free(&request_);
#endif
    // After a refusal, data of a neighbour still in flight may wait here on the graph's
    // context, which a freed graph would hand to a later communicator (seen with MPICH
    // 4.0.2: a Context's leader check received a refused update's ghosts).
    if (!keep_graph_) MPI_Comm_free(&graph_);
  }

  void close(bool refused) override { keep_graph_ = refused; }

  HaloStats stats() const override { return peer_stats(peers_, fields_); }

  void begin(Arrays arrays) override {
    for (std::size_t i = 0; i < peers_.size(); ++i)
      peers_[i].pack_fields(arrays.send, send_buffer_.data() + send_displs_[i]);
#if MPI_VERSION >= 4
    mpi::check(MPI_Start(&request_), "MPI_Start (neighbour alltoallv)");
#else
    mpi::check(MPI_Ineighbor_alltoallv(send_buffer_.data(), send_counts_.data(), send_displs_.data(), MPI_BYTE,
                                       recv_buffer_.data(), recv_counts_.data(), recv_displs_.data(), MPI_BYTE,
                                       graph_, &request_),
               "MPI_Ineighbor_alltoallv (ghost update)");
#endif
    in_flight_ = true;
  }

  void end(Arrays arrays) override {
    mpi::wait_all({&request_, 1}, wait_, {"ghost update: MPI_Neighbor_alltoallv", world_rank_, core::kEveryRankPeer});
    in_flight_ = false;
    for (std::size_t i = 0; i < peers_.size(); ++i)
      peers_[i].unpack_fields(recv_buffer_.data() + recv_displs_[i], arrays.recv);
  }

 private:
  std::vector<PeerPlan> peers_;
  core::WaitConfig wait_;
  bool in_flight_ = false;  // between MPI_Start and the wait's completion
  bool keep_graph_ = false;  // close(): some rank saw a refusal
  int world_rank_, fields_;
  std::vector<int> send_counts_, recv_counts_, send_displs_, recv_displs_;
  std::vector<std::byte> send_buffer_, recv_buffer_;
  MPI_Comm graph_ = MPI_COMM_NULL;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace

std::unique_ptr<Exchange> make_neighbor_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return std::make_unique<NeighborExchange>(std::move(peers), setup);
}

}  // namespace hympi::halo
