// SPDX-License-Identifier: BSD-3-Clause
#include "p1_operator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace hympi::apps {

Csr assemble_p1(const mesh::TetMeshView& m, const mesh::LocalMesh& local) {
  std::unordered_map<int64_t, int> local_id;
  for (std::size_t i = 0; i < local.global.size(); ++i) local_id.emplace(local.global[i], int(i));
  auto owned = [&](int32_t v) {
    const auto it = local_id.find(v);
    return it != local_id.end() && it->second < local.owned ? it->second : -1;
  };
  std::vector<std::unordered_map<int, double>> rows(std::size_t(local.owned));
  for (std::size_t t = 0; t < m.tets.size(); t += 4) {
    const int32_t* v = &m.tets[t];
    if (owned(v[0]) < 0 && owned(v[1]) < 0 && owned(v[2]) < 0 && owned(v[3]) < 0) continue;
    // Gradients of the barycentric functions: rows of the inverse of the edge matrix.
    auto x = [&](int a, int d) { return m.xyz[3 * std::size_t(v[a]) + std::size_t(d)]; };
    double e[3][3];
    for (int r = 0; r < 3; ++r)
      for (int d = 0; d < 3; ++d) e[r][d] = x(r + 1, d) - x(0, d);
    const double det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                       e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    const double volume = std::abs(det) / 6;
    std::array<std::array<double, 3>, 4> grad{};
    for (int r = 0; r < 3; ++r)  // grad lambda_{r+1}: row r of inverse(e)^T, by cofactors
      for (int d = 0; d < 3; ++d) {
        const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, d1 = (d + 1) % 3, d2 = (d + 2) % 3;
        grad[std::size_t(r) + 1][std::size_t(d)] = (e[r1][d1] * e[r2][d2] - e[r1][d2] * e[r2][d1]) / det;
      }
    for (int d = 0; d < 3; ++d) grad[0][std::size_t(d)] = -grad[1][std::size_t(d)] - grad[2][std::size_t(d)] - grad[3][std::size_t(d)];
    for (int a = 0; a < 4; ++a) {
      const int row = owned(v[a]);
      if (row < 0) continue;
      rows[std::size_t(row)][row] += volume / 4;  // lumped mass
      for (int b = 0; b < 4; ++b) {
        const double k = volume * (grad[std::size_t(a)][0] * grad[std::size_t(b)][0] + grad[std::size_t(a)][1] * grad[std::size_t(b)][1] +
                                   grad[std::size_t(a)][2] * grad[std::size_t(b)][2]);
        rows[std::size_t(row)][local_id.at(v[b])] += k;
      }
    }
  }
  Csr a;
  for (auto& row : rows) {
    std::vector<std::pair<int, double>> sorted(row.begin(), row.end());
    std::sort(sorted.begin(), sorted.end());  // same summation order everywhere
    for (auto [c, value] : sorted) a.columns.push_back(c), a.values.push_back(value);
    a.offsets.push_back(int(a.columns.size()));
  }
  return a;
}

void multiply_rows(const Csr& a, const double* x, double* y, std::size_t first, std::size_t last) {
  for (std::size_t r = first; r < last; ++r) {
    double sum = 0;
    for (int e = a.offsets[r]; e < a.offsets[r + 1]; ++e) sum += a.values[std::size_t(e)] * x[a.columns[std::size_t(e)]];
    y[r] = sum;
  }
}

}  // namespace hympi::apps
