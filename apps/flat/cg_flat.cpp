// SPDX-License-Identifier: BSD-3-Clause
// cg_flat: the cg application (apps/cg_solver.hpp: conjugate gradients for the P1 operator
// K + M on the cube mesh of Quaranta & Maddegedara (2021), b = A 1, so x = 1) as a flat MPI
// code writes it, with no hympi library on its link line: the mesh is read, cut and assembled
// by the same code as cg's (hympi_mesh_core, hympi_p1: Gmsh and METIS, no MPI), every message
// goes through MPI's C API. Built once, it runs as it is or with libhympi_pmpi preloaded
// (docs/pmpi.md): an unstructured exchange, irregular counts, a distributed graph.
//
//   mpiexec -n 4 cg_flat [--size 0.03 | --mesh FILE] [--tolerance 1e-8] [--iterations 1000]
//                        [--repeat 1] [--exchange neighbor|persistent|isend] [--verify]
//   mpiexec -n 4 env LD_PRELOAD=libhympi_pmpi.so HYMPI_PMPI=all cg_flat ...
//
// METIS cuts the vertex graph into one part per rank (k-way, as `cg --levels 1`). Every rank
// holds the whole partition, so each works out its messages without asking: it receives from
// the owner of each of its ghosts, and sends each owned vertex to every other rank that owns
// a vertex sharing an edge with it (the graph is symmetric: both sides list the same
// vertices, in ascending global id). The neighbours form an MPI_Dist_graph_create_adjacent
// communicator, on which every matrix-vector product starts with the ghost update: one packed
// buffer through MPI_Neighbor_alltoallv (`neighbor`, the default), a persistent
// MPI_Neighbor_alltoallv_init request (`persistent`, MPI-4 and Open MPI 5), or MPI_Irecv /
// MPI_Isend per neighbour (`isend`, which the library leaves to MPI). The two dot products of
// an iteration are MPI_Allreduce on MPI_COMM_WORLD, the timing maxima MPI_Reduce. --repeat K
// solves K times from x = 0, as K time steps would (times summed; timing runs).
// --verify: rank 0 gathers x (MPI_Gatherv) and solves the whole mesh alone (the same code on
// MPI_COMM_SELF): every value within the tolerance of the serial one and the iteration counts
// within 2 (the sums run in another order), else exit code 1 on every rank. Bad input or a
// set-up that fails on any rank: a message from the first such rank, exit code 2 on every rank.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cube_mesh.hpp"
#include "hympi/types.hpp"  // hympi::Error, header-only
#include "local_mesh.hpp"
#include "p1_operator.hpp"

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define HAVE_PERSISTENT 1
#endif

namespace {

using hympi::apps::Csr;
namespace mesh = hympi::mesh;

enum class Exchange { neighbor, persistent, isend };

struct Options {
  double size = 0.03;
  std::string mesh_file;
  double tolerance = 1e-8;
  int iterations = 1000;
  int repeat = 1;
  Exchange exchange = Exchange::neighbor;
  std::string exchange_name = "neighbor";
  bool verify = false;
};

/// A vector's data, never null (an MPI may check a pointer even for an empty list).
template <class T>
T* data_of(std::vector<T>& v) {
  if (v.empty()) v.reserve(1);
  return v.data();
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t j = 1; j < counts.size(); ++j) displs[j] = displs[j - 1] + counts[j - 1];
  return displs;
}

/// One rank's ghost update: its neighbours (ascending ranks) and, per neighbour, the local ids
/// packed into or unpacked from the buffers, in buffer order.
struct Halo {
  Exchange exchange = Exchange::neighbor;
  MPI_Comm graph = MPI_COMM_NULL;
  std::vector<int> sources, recv_counts, recv_ids, destinations, send_counts, send_ids;
  std::vector<int> recv_displs, send_displs;
  std::vector<double> recv, send;
  MPI_Request request = MPI_REQUEST_NULL;  // persistent
};

/// Collective on `comm`, whose rank q owns part q of `part`.
Halo make_halo(MPI_Comm comm, const mesh::Graph& graph, const std::vector<int32_t>& part, const mesh::LocalMesh& local,
               Exchange exchange) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  std::map<int, std::vector<int>> from, to;
  for (std::size_t i = std::size_t(local.owned); i < local.global.size(); ++i) from[local.owner[i]].push_back(int(i));
  for (int i = 0; i < local.owned; ++i) {
    const auto v = std::size_t(local.global[std::size_t(i)]);
    std::vector<int> ranks;
    for (int32_t e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
      if (const int q = part[std::size_t(graph.neighbors[std::size_t(e)])]; q != me) ranks.push_back(q);
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (int q : ranks) to[q].push_back(i);
  }
  Halo h;
  h.exchange = exchange;
  auto list = [](const std::map<int, std::vector<int>>& by_rank, std::vector<int>& ranks, std::vector<int>& counts,
                 std::vector<int>& ids) {
    for (const auto& [q, local_ids] : by_rank) {
      ranks.push_back(q);
      counts.push_back(int(local_ids.size()));
      ids.insert(ids.end(), local_ids.begin(), local_ids.end());
    }
  };
  list(from, h.sources, h.recv_counts, h.recv_ids);
  list(to, h.destinations, h.send_counts, h.send_ids);
  h.recv_displs = displacements(h.recv_counts);
  h.send_displs = displacements(h.send_counts);
  h.recv.resize(h.recv_ids.size());
  h.send.resize(h.send_ids.size());
  MPI_Dist_graph_create_adjacent(comm, int(h.sources.size()), data_of(h.sources), MPI_UNWEIGHTED,
                                 int(h.destinations.size()), data_of(h.destinations), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &h.graph);
#ifdef HAVE_PERSISTENT
  if (exchange == Exchange::persistent)
    MPI_Neighbor_alltoallv_init(data_of(h.send), data_of(h.send_counts), data_of(h.send_displs), MPI_DOUBLE,
                                data_of(h.recv), data_of(h.recv_counts), data_of(h.recv_displs), MPI_DOUBLE, h.graph,
                                MPI_INFO_NULL, &h.request);
#endif
  return h;
}

void free_halo(Halo& h) {
  if (h.request != MPI_REQUEST_NULL) MPI_Request_free(&h.request);
  MPI_Comm_free(&h.graph);
}

void ghost_update(Halo& h, double* p) {
  for (std::size_t k = 0; k < h.send_ids.size(); ++k) h.send[k] = p[h.send_ids[k]];
  if (h.exchange == Exchange::neighbor) {
    MPI_Neighbor_alltoallv(data_of(h.send), data_of(h.send_counts), data_of(h.send_displs), MPI_DOUBLE, data_of(h.recv),
                           data_of(h.recv_counts), data_of(h.recv_displs), MPI_DOUBLE, h.graph);
  } else if (h.exchange == Exchange::persistent) {
    MPI_Start(&h.request);
    MPI_Wait(&h.request, MPI_STATUS_IGNORE);
  } else {
    std::vector<MPI_Request> requests;
    for (std::size_t j = 0; j < h.sources.size(); ++j)
      MPI_Irecv(h.recv.data() + h.recv_displs[j], h.recv_counts[j], MPI_DOUBLE, h.sources[j], 0, h.graph,
                &requests.emplace_back());
    for (std::size_t j = 0; j < h.destinations.size(); ++j)
      MPI_Isend(h.send.data() + h.send_displs[j], h.send_counts[j], MPI_DOUBLE, h.destinations[j], 0, h.graph,
                &requests.emplace_back());
    std::vector<MPI_Status> statuses(requests.size() + 1);
    MPI_Waitall(int(requests.size()), data_of(requests), statuses.data());
  }
  for (std::size_t k = 0; k < h.recv_ids.size(); ++k) p[h.recv_ids[k]] = h.recv[k];
}

/// Seconds per phase on this rank, and the owned values of x.
struct Result {
  int iterations = 0;
  double residual = 0, loop = 0, ghost = 0, reduce = 0;
  std::vector<double> x;
};

/// CG on the owned rows of `a` (apps/cg_solver.cpp's loop): dot products over `comm`, the
/// ghost update through `h`; `points` counts owned vertices and ghosts.
Result solve(const Csr& a, Halo& h, MPI_Comm comm, std::size_t points, const Options& o) {
  const std::size_t n = std::size_t(a.rows());
  std::vector<double> x(n, 0.0), b(n), r(n), p(points, 1.0), q(n);
  Result s;
  auto dot = [&](const std::vector<double>& u, const std::vector<double>& w) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += u[i] * w[i];
    const double start = MPI_Wtime();
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    s.reduce += MPI_Wtime() - start;
    return sum;
  };
  hympi::apps::multiply_rows(a, p.data(), b.data(), 0, n);  // b = A 1: the solution is all ones
  r = b;
  std::copy(r.begin(), r.end(), p.begin());
  const double norm_b = std::sqrt(dot(b, b));
  double rr = dot(r, r);
  s.residual = std::sqrt(rr) / norm_b;
  s.reduce = 0;
  MPI_Barrier(comm);  // the loop's time starts together on every rank
  s.loop = MPI_Wtime();
  while (s.iterations < o.iterations && s.residual > o.tolerance) {
    const double start = MPI_Wtime();
    ghost_update(h, p.data());
    s.ghost += MPI_Wtime() - start;
    hympi::apps::multiply_rows(a, p.data(), q.data(), 0, n);
    const double alpha = rr / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i];
    const double rr_next = dot(r, r), beta = rr_next / rr;
    rr = rr_next;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    s.residual = std::sqrt(rr) / norm_b;
    ++s.iterations;
  }
  s.loop = MPI_Wtime() - s.loop;
  s.x = std::move(x);
  return s;
}

/// Rank 0 gathers x by global id and solves the whole mesh alone; its verdict reaches every rank.
bool verify(const mesh::TetMesh& m, const mesh::Graph& graph, const mesh::LocalMesh& local, const Options& o,
            const Result& r) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<long long> ids(local.global.begin(), local.global.begin() + local.owned);
  std::vector<double> x = r.x;
  std::vector<int> counts(std::size_t(rank == 0 ? ranks : 0));
  MPI_Gather(&local.owned, 1, MPI_INT, data_of(counts), 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::vector<int> displs = displacements(counts);
  const std::size_t total = rank == 0 ? std::size_t(displs.back() + counts.back()) : 0;
  std::vector<long long> all_ids(total);
  std::vector<double> all_x(total);
  MPI_Gatherv(data_of(ids), local.owned, MPI_LONG_LONG, data_of(all_ids), data_of(counts), displs.data(), MPI_LONG_LONG,
              0, MPI_COMM_WORLD);
  MPI_Gatherv(data_of(x), local.owned, MPI_DOUBLE, data_of(all_x), data_of(counts), displs.data(), MPI_DOUBLE, 0,
              MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) {
    const std::vector<int32_t> alone(std::size_t(graph.vertices()), 0);
    const mesh::LocalMesh whole = mesh::local_mesh(graph, alone, 0);  // local id = global id
    Halo none = make_halo(MPI_COMM_SELF, graph, alone, whole, o.exchange);
    const Result serial = solve(hympi::apps::assemble_p1(m, whole), none, MPI_COMM_SELF, whole.global.size(), o);
    free_halo(none);
    double worst = 0;
    for (std::size_t i = 0; i < total; ++i) worst = std::max(worst, std::abs(all_x[i] - serial.x[std::size_t(all_ids[i])]));
    ok = total == serial.x.size() && worst <= o.tolerance && std::abs(serial.iterations - r.iterations) <= 2;
    std::printf("verify: %zu values; serial run: %d iterations, largest difference %.3e: %s\n", total, serial.iterations,
                worst, ok ? "round-off" : "DIFFERENT");
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return ok != 0;
}

/// 0 to go on, else the exit code (the same on every rank: every rank parses the same line).
int parse(int argc, char** argv, int rank, Options& o) {
  CLI::App app{"cg_flat: the cg application as a flat MPI program (no hympi library)"};
  app.add_option("--size", o.size, "cube mesh element size (cached Gmsh mesh)")->check(CLI::PositiveNumber);
  app.add_option("--mesh", o.mesh_file, "a Gmsh MSH file of tetrahedra instead of the cube");
  app.add_option("--tolerance", o.tolerance, "relative residual to stop at")->check(CLI::PositiveNumber);
  app.add_option("--iterations", o.iterations, "at most this many iterations")->check(CLI::Range(1, 1000000));
  app.add_option("--repeat", o.repeat, "solve this many times (times summed)")->check(CLI::Range(1, 1000000));
  app.add_option("--exchange", o.exchange_name, "the ghost update's MPI calls")
      ->check(CLI::IsMember({"neighbor", "persistent", "isend"}));
  app.add_flag("--verify", o.verify, "compare with a serial solve on rank 0");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (rank == 0) app.exit(e);
    return e.get_exit_code() == 0 ? -1 : 2;
  }
  o.exchange = o.exchange_name == "persistent" ? Exchange::persistent
               : o.exchange_name == "isend"    ? Exchange::isend
                                               : Exchange::neighbor;
#ifndef HAVE_PERSISTENT
  if (o.exchange == Exchange::persistent) {
    if (rank == 0)
      std::fprintf(stderr, "cg_flat: --exchange persistent needs an MPI with MPI_Neighbor_alltoallv_init (MPI-4)\n");
    return 2;
  }
#endif
  return 0;
}

/// True on every rank when every rank got here with `error` empty; else the first failing
/// rank prints its error.
bool all_ready(const std::string& error, int rank, int ranks) {
  int first = error.empty() ? ranks : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == rank) std::fprintf(stderr, "cg_flat: rank %d: %s\n", rank, error.c_str());
  return first == ranks;
}

int run(int argc, char** argv) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  Options o;
  if (const int status = parse(argc, argv, rank, o)) return status < 0 ? 0 : status;
  std::string error;
  if (rank == 0 && o.mesh_file.empty()) try {
      mesh::cube_mesh_file(o.size, false);  // made once, by rank 0
    } catch (const hympi::Error& e) {
      error = e.what();
    }
  if (!all_ready(error, rank, ranks)) return 2;
  mesh::TetMesh m;
  mesh::Graph graph;
  std::vector<int32_t> part;
  mesh::LocalMesh local;
  try {
    m = mesh::read_mesh(o.mesh_file.empty() ? mesh::cube_mesh_file(o.size, false) : o.mesh_file);
    graph = mesh::vertex_graph(m);
    part = mesh::partition(graph, ranks);
    local = mesh::local_mesh(graph, part, rank);
  } catch (const hympi::Error& e) {
    error = e.what();
  }
  if (!all_ready(error, rank, ranks)) return 2;
  Halo h = make_halo(MPI_COMM_WORLD, graph, part, local, o.exchange);
  const Csr a = hympi::apps::assemble_p1(m, local);
  Result r;
  double times[3] = {0, 0, 0}, worst[3] = {0, 0, 0};
  for (int k = 0; k < o.repeat; ++k) {
    r = solve(a, h, MPI_COMM_WORLD, local.global.size(), o);
    times[0] += r.loop, times[1] += r.ghost, times[2] += r.reduce;
  }
  int most[2] = {int(h.sources.size()), int(local.global.size()) - local.owned}, largest[2] = {0, 0};
  free_halo(h);
  MPI_Reduce(times, worst, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(most, largest, 2, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  char cube[32];
  std::snprintf(cube, sizeof cube, "cube %g", o.size);
  if (rank == 0)
    std::printf("cg_flat: mesh %s: %d points on %d ranks (at most %d neighbours, %d ghosts per rank), exchange %s: "
                "%d solves of %d iterations, relative residual %.3e\ntime, max over ranks: loop %.6f s, ghost update %.6f s, "
                "reductions %.6f s\n",
                o.mesh_file.empty() ? cube : o.mesh_file.c_str(),
                graph.vertices(), ranks, largest[0], largest[1], o.exchange_name.c_str(), o.repeat, r.iterations, r.residual,
                worst[0], worst[1], worst[2]);
  return !o.verify || verify(m, graph, local, o, r) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = run(argc, argv);
  MPI_Finalize();
  return status;
}
