// SPDX-License-Identifier: BSD-3-Clause
#include "halo/mpi_exchange.hpp"

#include <limits>
#include <string>

#include "mpi/support/mpi_check.hpp"
#include "mpi/support/requests.hpp"

namespace hympi::halo {
namespace {

class MpiExchange final : public Exchange {
 public:
  MpiExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : peers_(std::move(peers)), wait_(setup.wait), world_rank_(setup.topology.world_rank()), fields_(setup.fields) {
    // The watchdog names the operation with every peer (the first one as the rank).
    std::string from, to;
    for (const PeerPlan& p : peers_) {
      if (p.recv_bytes(fields_) > 0) from += (from.empty() ? " " : ", ") + std::to_string(p.rank);
      if (p.send_bytes(fields_) > 0) to += (to.empty() ? " " : ", ") + std::to_string(p.rank);
      if (p.recv_bytes(fields_) > 0 && first_from_ < 0) first_from_ = p.rank;
      if (p.send_bytes(fields_) > 0 && first_to_ < 0) first_to_ = p.rank;
    }
    receive_site_ = "ghost update: MPI receives from rank(s)" + from;
    send_site_ = "ghost update: MPI sends to rank(s)" + to;
    std::size_t send_total = 0, recv_total = 0;
    for (const PeerPlan& p : peers_) {
      send_total += line_up(p.send_bytes(fields_));
      recv_total += line_up(p.recv_bytes(fields_));
    }
    send_buffer_.resize(send_total);
    recv_buffer_.resize(recv_total);
    std::size_t s = 0, r = 0;
    for (const PeerPlan& p : peers_) {
      const std::size_t out = p.send_bytes(fields_), in = p.recv_bytes(fields_);
      if (out > std::size_t(std::numeric_limits<int>::max()) || in > std::size_t(std::numeric_limits<int>::max()))
        throw Error("hympi: Halo: a message to or from rank " + std::to_string(p.rank) +
                    " exceeds 2 GiB; use fewer fields per update");
      send_at_.push_back(s);
      recv_at_.push_back(r);
      if (in > 0) {
        recv_requests_.emplace_back();
        mpi::check(MPI_Recv_init(recv_buffer_.data() + r, int(in), MPI_BYTE, p.rank, setup.tag + Tag::data,
                                 setup.comm, &recv_requests_.back()),
                   "MPI_Recv_init (ghost update)");
      }
      if (out > 0) {
        send_requests_.emplace_back();
        mpi::check(MPI_Send_init(send_buffer_.data() + s, int(out), MPI_BYTE, p.rank, setup.tag + Tag::data,
                                 setup.comm, &send_requests_.back()),
                   "MPI_Send_init (ghost update)");
      }
      s += line_up(out);
      r += line_up(in);
    }
  }

  ~MpiExchange() override {
    for (MPI_Request& r : recv_requests_) MPI_Request_free(&r);
    for (MPI_Request& r : send_requests_) MPI_Request_free(&r);
  }

  void begin(Arrays arrays) override {
    if (!recv_requests_.empty())
      mpi::check(MPI_Startall(int(recv_requests_.size()), recv_requests_.data()), "MPI_Startall (receives)");
    for (std::size_t i = 0; i < peers_.size(); ++i) peers_[i].pack_fields(arrays.send, send_buffer_.data() + send_at_[i]);
    if (!send_requests_.empty())
      mpi::check(MPI_Startall(int(send_requests_.size()), send_requests_.data()), "MPI_Startall (sends)");
  }

  void end(Arrays arrays) override {
    mpi::wait_all(recv_requests_, wait_, {receive_site_.c_str(), world_rank_, first_from_});
    for (std::size_t i = 0; i < peers_.size(); ++i)
      peers_[i].unpack_fields(recv_buffer_.data() + recv_at_[i], arrays.recv);
    mpi::wait_all(send_requests_, wait_, {send_site_.c_str(), world_rank_, first_to_});
  }

  bool arrived() override {
    int in = 1, sent = 1;
    if (!recv_requests_.empty())
      mpi::check(MPI_Testall(int(recv_requests_.size()), recv_requests_.data(), &in, MPI_STATUSES_IGNORE),
                 "MPI_Testall (receives)");
    if (in && !send_requests_.empty())
      mpi::check(MPI_Testall(int(send_requests_.size()), send_requests_.data(), &sent, MPI_STATUSES_IGNORE),
                 "MPI_Testall (sends)");
    return in && sent;  // completed requests are inactive: end()'s waits return at once
  }

  HaloStats stats() const override { return peer_stats(peers_, fields_); }
  void cancel_receives() override { mpi::cancel_receives(recv_requests_); }

  // Zero-copy: the packed buffers. end() completed the sends; receives restart in begin().
  std::optional<MessageBuffers> buffers(std::size_t index) override {
    for (std::size_t i = 0; i < peers_.size(); ++i)
      if (peers_[i].index == index)
        return MessageBuffers{{send_buffer_.data() + send_at_[i], peers_[i].send_bytes(fields_)},
                              {recv_buffer_.data() + recv_at_[i], peers_[i].recv_bytes(fields_)}};
    return std::nullopt;
  }

 private:
  std::vector<PeerPlan> peers_;
  core::WaitConfig wait_;
  int world_rank_, fields_;
  std::string receive_site_, send_site_;
  int first_from_ = -1, first_to_ = -1;
  std::vector<std::byte> send_buffer_, recv_buffer_;
  std::vector<std::size_t> send_at_, recv_at_;
  std::vector<MPI_Request> recv_requests_, send_requests_;
};

}  // namespace

std::unique_ptr<Exchange> make_mpi_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return std::make_unique<MpiExchange>(std::move(peers), setup);
}

}  // namespace hympi::halo
