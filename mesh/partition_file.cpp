// SPDX-License-Identifier: BSD-3-Clause
#include "partition_file.hpp"

#include <algorithm>
#include <fstream>

#include "hympi/types.hpp"

namespace hympi::mesh {

namespace {

constexpr const char* kMagic = "hympi partition 1";

template <class T>
void put(std::ofstream& out, const T* data, std::size_t n) {
  out.write(reinterpret_cast<const char*>(data), std::streamsize(n * sizeof(T)));
}

template <class T>
void get(std::ifstream& in, T* data, std::size_t n, const std::string& path) {
  if (!in.read(reinterpret_cast<char*>(data), std::streamsize(n * sizeof(T))))
    throw Error(path + ": truncated: not a whole partition file (write it again with hympi-mesh partition)");
}

/// Reads the header from `in`, left at the offsets.
PartitionHeader read_header(std::ifstream& in, const std::string& path) {
  if (!in) throw Error(path + ": no such partition file (make it with hympi-mesh partition)");
  std::string magic;
  PartitionHeader h;
  if (!std::getline(in, magic) || magic != kMagic || !std::getline(in, h.description))
    throw Error(path + ": not a partition file of hympi-mesh partition");
  int32_t fields[2];
  get(in, &h.vertices, 1, path);
  get(in, fields, 2, path);
  h.parts = fields[0];
  h.ranks_per_node = fields[1];
  if (h.vertices < 1 || h.vertices > INT32_MAX || h.parts < 1 || h.parts > 65535 || h.ranks_per_node < 0 ||
      (h.ranks_per_node > 0 && h.parts % h.ranks_per_node != 0))
    throw Error(path + ": inconsistent header (" + std::to_string(h.vertices) + " vertices, " +
                std::to_string(h.parts) + " parts, " + std::to_string(h.ranks_per_node) + " per node)");
  return h;
}

}  // namespace

void write_partition_file(const std::string& path, const Graph& graph, const std::vector<int32_t>& part, int parts,
                          int ranks_per_node, const std::string& description) {
  if (parts < 1 || parts > 65535) throw Error("a partition file holds 1 to 65535 parts, not " + std::to_string(parts));
  if (part.size() != std::size_t(graph.vertices()) ||
      std::any_of(part.begin(), part.end(), [&](int32_t p) { return p < 0 || p >= parts; }))
    throw Error("write_partition_file: the partition is not one part in 0.." + std::to_string(parts - 1) + " per vertex");
  // Each part's ghosts: the other-owned neighbours of its vertices (local_mesh's), in one pass.
  std::vector<std::vector<int32_t>> ghosts(static_cast<std::size_t>(parts));
  for (int v = 0; v < graph.vertices(); ++v)
    for (int32_t e = graph.offsets[std::size_t(v)]; e < graph.offsets[std::size_t(v) + 1]; ++e)
      if (const int32_t w = graph.neighbors[std::size_t(e)]; part[std::size_t(w)] != part[std::size_t(v)])
        ghosts[std::size_t(part[std::size_t(v)])].push_back(w);
  std::vector<int64_t> offsets{0};
  for (std::vector<int32_t>& g : ghosts) {
    std::sort(g.begin(), g.end());
    g.erase(std::unique(g.begin(), g.end()), g.end());
    offsets.push_back(offsets.back() + int64_t(g.size()));
  }
  std::vector<uint16_t> parts16(part.begin(), part.end());
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(path + ": cannot be written");
  out << kMagic << '\n' << description << '\n';
  const int64_t vertices = graph.vertices();
  const int32_t header[2] = {parts, ranks_per_node};
  put(out, &vertices, 1);
  put(out, header, 2);
  put(out, offsets.data(), offsets.size());
  put(out, parts16.data(), parts16.size());
  for (const std::vector<int32_t>& g : ghosts) put(out, g.data(), g.size());
  if (!out.flush()) throw Error(path + ": cannot be written");
}

PartitionHeader read_partition_header(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return read_header(in, path);
}

SavedPart read_partition_part(const std::string& path, int me) {
  std::ifstream in(path, std::ios::binary);
  SavedPart saved{read_header(in, path), {}};
  const PartitionHeader& h = saved.header;
  if (me < 0 || me >= h.parts) throw Error(path + " has " + std::to_string(h.parts) + " parts: no part " + std::to_string(me));
  std::vector<int64_t> offsets(std::size_t(h.parts) + 1);
  get(in, offsets.data(), offsets.size(), path);
  const int64_t first = offsets[std::size_t(me)], count = offsets[std::size_t(me) + 1] - first;
  if (offsets[0] != 0 || first < 0 || count < 0 || offsets.back() < first + count)
    throw Error(path + ": inconsistent ghost offsets");
  // What this part needs against the file's length, before anything is allocated from it.
  const std::streamoff at = in.tellg();
  in.seekg(0, std::ios::end);
  const int64_t left = int64_t(in.tellg() - at);
  in.seekg(at);
  if (first + count > left || h.vertices * int64_t(sizeof(uint16_t)) + (first + count) * int64_t(sizeof(int32_t)) > left)
    throw Error(path + ": truncated: not a whole partition file (write it again with hympi-mesh partition)");
  std::vector<uint16_t> part(static_cast<std::size_t>(h.vertices));
  get(in, part.data(), part.size(), path);
  std::vector<int32_t> ghosts(static_cast<std::size_t>(count));
  in.seekg(std::streamoff(first * int64_t(sizeof(int32_t))), std::ios::cur);
  get(in, ghosts.data(), ghosts.size(), path);
  LocalMesh& local = saved.local;
  for (int64_t v = 0; v < h.vertices; ++v)
    if (part[std::size_t(v)] == me) local.global.push_back(v), local.owner.push_back(me);
  local.owned = int(local.global.size());
  for (int32_t g : ghosts) {
    if (g < 0 || g >= h.vertices || part[std::size_t(g)] == me || part[std::size_t(g)] >= h.parts)
      throw Error(path + ": ghost " + std::to_string(g) + " of part " + std::to_string(me) + " is not another part's vertex");
    local.global.push_back(g);
    local.owner.push_back(part[std::size_t(g)]);
  }
  return saved;
}

}  // namespace hympi::mesh
