// SPDX-License-Identifier: BSD-3-Clause
// Stencils: their names (parsed from command lines), dimensions and neighbour offsets.
#include <string>

#include "core/name_table.hpp"
#include "hympi/block.hpp"

namespace hympi {
namespace {

constexpr auto kStencils = core::name_table<Stencil>({HYMPI_STENCILS(HYMPI_ROW)});

}  // namespace

const char* name_of(Stencil stencil) { return core::name_in(kStencils, stencil); }

Stencil stencil_from_name(std::string_view name) {
  std::string valid;
  for (const auto& [stencil, text] : kStencils) {
    const std::string points = std::to_string(offsets_of(stencil).size() + 1);
    if (name == text || name == points) return stencil;
    valid += (valid.empty() ? "" : ", ") + std::string(text) + " (" + points + ")";
  }
  throw Error("hympi: unknown stencil '" + std::string(name) + "'; valid: " + valid);
}

int dimensions_of(Stencil stencil) { return stencil == Stencil::star5 || stencil == Stencil::box9 ? 2 : 3; }

std::vector<Index3> offsets_of(Stencil stencil) {
  const int dims = dimensions_of(stencil);
  std::vector<Index3> offsets;
  for (int z = dims == 3 ? -1 : 0; z <= (dims == 3 ? 1 : 0); ++z)
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x) {
        const int nonzero = (x != 0) + (y != 0) + (z != 0);
        const bool star = stencil == Stencil::star5 || stencil == Stencil::star7;
        const int reach = star ? 1 : stencil == Stencil::star19 ? 2 : 3;
        if (nonzero > 0 && nonzero <= reach) offsets.push_back({x, y, z});
      }
  return offsets;
}

}  // namespace hympi
