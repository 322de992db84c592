// SPDX-License-Identifier: BSD-3-Clause
// A partition saved for machines without Gmsh or METIS (a lent node carries no Gmsh): the
// part of every vertex and each part's ghosts, which is all a part's LocalMesh holds, so a
// rank rebuilds exactly local_mesh(graph, part, me) from it without the mesh.
//
// Layout (this machine's byte order: x86-64 and Arm64 Linux both little-endian; hympi is
// little-endian only): the text line "hympi partition 1", a
// text line describing the partition (mesh, parts, levels), then int64 vertices, int32
// parts, int32 ranks_per_node (0: one level), int64 offsets[parts + 1] into the ghosts,
// uint16 part[vertices], int32 ghosts[offsets[parts]] (part p's ghosts, ascending, at
// [offsets[p], offsets[p + 1])).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "local_mesh.hpp"

namespace hympi::mesh {

struct PartitionHeader {
  std::string description;
  int parts = 0;
  int ranks_per_node = 0;  // two levels when > 0: part = node * ranks_per_node + rank in node
  int64_t vertices = 0;
};

struct SavedPart {
  PartitionHeader header;
  LocalMesh local;  // owners given as parts
};

/// Writes `part` (of `graph`, `parts` parts, up to 65,535) to `path`. Throws hympi::Error
/// naming the file when it cannot be written.
void write_partition_file(const std::string& path, const Graph& graph, const std::vector<int32_t>& part, int parts,
                          int ranks_per_node, const std::string& description);

/// The header of a file of write_partition_file. Throws hympi::Error naming the file when it
/// is missing, not such a file, or its header is truncated or inconsistent.
PartitionHeader read_partition_header(const std::string& path);

/// Part `me`'s view from a file of write_partition_file. Throws hympi::Error naming the file
/// as read_partition_header does, and when the rest is truncated or inconsistent or there
/// is no part `me`.
SavedPart read_partition_part(const std::string& path, int me);

}  // namespace hympi::mesh
