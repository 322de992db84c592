// SPDX-License-Identifier: BSD-3-Clause
// hympi.Pattern: a hympi_pattern handle, made from a Context (Pattern.from_lists,
// Pattern.from_lists_apart, Pattern.from_owners, order_local_ids, CartesianGrid.pattern). A pattern holds no MPI
// resource; it is freed when Python drops it or when its Context closes.
#pragma once

#include <cstddef>
#include <utility>

#include "context.hpp"

namespace hympy {

class Pattern : public Child {
 public:
  /// Adopts `handle`.
  Pattern(Context& context, hympi_pattern handle) : Child(context), handle_(handle) {}
  ~Pattern() override { free_quietly("Pattern"); }

  /// The handle; hympi.Error once closed (by its Context's close()).
  hympi_pattern handle() const;
  hympi_datatype type() const;
  /// Points of the send and of the receive array (both local_points for one array).
  std::pair<int, int> array_points() const;
  /// points * chunk of the send and of the receive array.
  std::pair<std::size_t, std::size_t> array_elements() const;
  /// Built by from_lists_apart: separate send and receive arrays.
  bool apart() const;

 private:
  void free_handle() override { check(hympi_pattern_free(&handle_)); }
  hympi_pattern handle_;
};

}  // namespace hympy
