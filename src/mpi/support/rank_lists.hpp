// SPDX-License-Identifier: BSD-3-Clause
// Lists of different lengths between ranks: every rank's list to every rank (allgather),
// to one root (gather), or one list per destination (all-to-all). The counts go first,
// then the items at the prefix sums of the counts. Items are trivially copyable and move
// as bytes.
#pragma once

#include <mpi.h>

#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

/// Every rank's list, one after the other in rank order.
template <class T>
struct RankLists {
  std::vector<T> items;
  std::vector<int> starts;  // rank r's list: items[starts[r] .. starts[r + 1])

  std::span<const T> of(int rank) const {
    return std::span<const T>(items).subspan(std::size_t(starts[std::size_t(rank)]),
                                             std::size_t(starts[std::size_t(rank) + 1] - starts[std::size_t(rank)]));
  }
};

namespace detail {

/// Prefix sums of per-rank byte counts: rank r's items start at starts[r] (items).
template <class T>
RankLists<T> laid_out(const std::vector<int>& bytes, std::vector<int>& displs) {
  RankLists<T> lists;
  lists.starts.assign(bytes.size() + 1, 0);
  displs.assign(bytes.size(), 0);
  for (std::size_t r = 0; r < bytes.size(); ++r) {
    displs[r] = lists.starts[r] * int(sizeof(T));
    lists.starts[r + 1] = lists.starts[r] + bytes[r] / int(sizeof(T));
  }
  lists.items.resize(std::size_t(lists.starts.back()));
  return lists;
}

inline std::string call(const char* function, const char* what) { return std::string(function) + " (" + what + ")"; }

}  // namespace detail

/// Collective: every rank gets every rank's `mine`. `what` names the exchange in errors.
template <class T>
RankLists<T> allgather_lists(MPI_Comm comm, std::span<const T> mine, const char* what) {
  static_assert(std::is_trivially_copyable_v<T>);
  int size = 0;
  MPI_Comm_size(comm, &size);
  int count = int(mine.size_bytes());
  std::vector<int> bytes(static_cast<std::size_t>(size)), displs;
  check(MPI_Allgather(&count, 1, MPI_INT, bytes.data(), 1, MPI_INT, comm), detail::call("MPI_Allgather", what).c_str());
  RankLists<T> lists = detail::laid_out<T>(bytes, displs);
  check(MPI_Allgatherv(mine.data(), count, MPI_BYTE, lists.items.data(), bytes.data(), displs.data(), MPI_BYTE, comm),
        detail::call("MPI_Allgatherv", what).c_str());
  return lists;
}

/// Collective: `root` gets every rank's `mine` (the others get no items).
template <class T>
RankLists<T> gather_lists(MPI_Comm comm, std::span<const T> mine, int root, const char* what) {
  static_assert(std::is_trivially_copyable_v<T>);
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int count = int(mine.size_bytes());
  std::vector<int> bytes(static_cast<std::size_t>(size)), displs;
  check(MPI_Gather(&count, 1, MPI_INT, bytes.data(), 1, MPI_INT, root, comm), detail::call("MPI_Gather", what).c_str());
  RankLists<T> lists = rank == root ? detail::laid_out<T>(bytes, displs) : RankLists<T>{};
  check(MPI_Gatherv(mine.data(), count, MPI_BYTE, lists.items.data(), bytes.data(), displs.data(), MPI_BYTE, root,
                    comm),
        detail::call("MPI_Gatherv", what).c_str());
  return lists;
}

/// Collective: `to[r]` goes to rank r; the result holds what each rank sent me.
template <class T>
RankLists<T> alltoall_lists(MPI_Comm comm, const std::vector<std::vector<T>>& to, const char* what) {
  static_assert(std::is_trivially_copyable_v<T>);
  std::vector<int> send_bytes, received(to.size()), send_displs, recv_displs;
  std::vector<T> sent;
  for (const std::vector<T>& list : to) {
    send_displs.push_back(int(sent.size() * sizeof(T)));
    send_bytes.push_back(int(list.size() * sizeof(T)));
    sent.insert(sent.end(), list.begin(), list.end());
  }
  check(MPI_Alltoall(send_bytes.data(), 1, MPI_INT, received.data(), 1, MPI_INT, comm),
        detail::call("MPI_Alltoall", what).c_str());
  RankLists<T> lists = detail::laid_out<T>(received, recv_displs);
  check(MPI_Alltoallv(sent.data(), send_bytes.data(), send_displs.data(), MPI_BYTE, lists.items.data(),
                      received.data(), recv_displs.data(), MPI_BYTE, comm),
        detail::call("MPI_Alltoallv", what).c_str());
  return lists;
}

}  // namespace hympi::mpi
