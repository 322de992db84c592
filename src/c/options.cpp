// SPDX-License-Identifier: BSD-3-Clause
// hympi_options (include/hympi.h) <-> hympi::Options: every field coming from C checked
// (an out-of-range value is an argument error naming the field), and the options functions.
#include <algorithm>
#include <cstring>
#include <string>

#include "c/c_api.hpp"

namespace hympi::c {

Options to_options(const hympi_options& o) {
  Options options;
  options.node_size = int(checked_range(o.node_size, 0, INT32_MAX, "options->node_size", "0: real nodes"));
  options.wait = WaitPolicy(checked_range(o.wait, HYMPI_WAIT_ADAPTIVE, HYMPI_WAIT_SLEEP, "options->wait",
                                          "HYMPI_WAIT_ADAPTIVE .. HYMPI_WAIT_SLEEP"));
  if (!(o.timeout_s >= 0))  // also NaN
    throw ArgumentError("argument 'options->timeout_s' is " + std::to_string(o.timeout_s) +
                        "; valid: seconds >= 0 (0 disables the watchdog)");
  options.timeout_s = o.timeout_s;
  options.tree = TreeShape(checked_range(o.tree, HYMPI_TREE_KARY, HYMPI_TREE_BINOMIAL, "options->tree",
                                         "HYMPI_TREE_KARY .. HYMPI_TREE_BINOMIAL"));
  options.tree_arity = int(checked_range(o.tree_arity, 1, 16, "options->tree_arity", "the K of HYMPI_TREE=kary:K"));
  options.topology_aware = checked_range(o.topology_aware, 0, 1, "options->topology_aware", "0 or 1") != 0;
  options.barrier = BarrierAlgorithm(checked_range(o.barrier, HYMPI_BARRIER_COMBINING, HYMPI_BARRIER_DISSEMINATION,
                                                   "options->barrier",
                                                   "HYMPI_BARRIER_COMBINING .. HYMPI_BARRIER_DISSEMINATION"));
  options.orders = MemoryOrders(checked_range(o.orders, HYMPI_ORDERS_TUNED, HYMPI_ORDERS_SEQ_CST, "options->orders",
                                              "HYMPI_ORDERS_TUNED .. HYMPI_ORDERS_SEQ_CST"));
  if (o.collective_buffer_bytes < 64)
    throw ArgumentError("argument 'options->collective_buffer_bytes' is " + std::to_string(o.collective_buffer_bytes) +
                        "; valid: bytes >= 64, as HYMPI_COLL_BUFFER");
  options.collective_buffer_bytes = o.collective_buffer_bytes;
  options.verify = checked_range(o.verify, 0, 1, "options->verify", "0 or 1") != 0;
  options.single_copy_bytes = o.single_copy_bytes;
  return options;
}

hympi_options from_options(const Options& o) {
  hympi_options options;
  options.node_size = o.node_size;
  options.wait = int(o.wait);
  options.timeout_s = o.timeout_s;
  options.tree = int(o.tree);
  options.tree_arity = o.tree_arity;
  options.topology_aware = o.topology_aware;
  options.barrier = int(o.barrier);
  options.orders = int(o.orders);
  options.collective_buffer_bytes = o.collective_buffer_bytes;
  options.verify = o.verify;
  options.single_copy_bytes = o.single_copy_bytes;
  return options;
}

// The C values are the C++ ones.
static_assert(HYMPI_WAIT_ADAPTIVE == int(WaitPolicy::adaptive) && HYMPI_WAIT_SPIN == int(WaitPolicy::spin) &&
              HYMPI_WAIT_YIELD == int(WaitPolicy::yield) && HYMPI_WAIT_SLEEP == int(WaitPolicy::sleep));
static_assert(HYMPI_TREE_KARY == int(TreeShape::kary) && HYMPI_TREE_BINOMIAL == int(TreeShape::binomial));
static_assert(HYMPI_BARRIER_COMBINING == int(BarrierAlgorithm::combining) &&
              HYMPI_BARRIER_COUNTER_TREE == int(BarrierAlgorithm::counter_tree) &&
              HYMPI_BARRIER_COUNTER_FLAT == int(BarrierAlgorithm::counter_flat) &&
              HYMPI_BARRIER_DISSEMINATION == int(BarrierAlgorithm::dissemination));
static_assert(HYMPI_ORDERS_TUNED == int(MemoryOrders::tuned) && HYMPI_ORDERS_SEQ_CST == int(MemoryOrders::seq_cst));

}  // namespace hympi::c

using hympi::c::guard;
using hympi::c::require;

extern "C" {

int hympi_options_default(hympi_options* options) {
  return guard(__func__, [&] { require(options, "options") = hympi::c::from_options(hympi::Options{}); });
}

int hympi_options_from_env(hympi_options* options) {
  return guard(__func__, [&] { require(options, "options") = hympi::c::from_options(hympi::Options::from_env()); });
}

int hympi_options_describe(const hympi_options* options, char* text, size_t size, size_t* length) {
  return guard(__func__, [&] {
    const std::string line = hympi::describe(hympi::c::to_options(require(options, "options")));
    hympi::c::require_array(text, size, "text");
    if (length) *length = line.size();
    if (size == 0) return;
    const std::size_t n = std::min(line.size(), size - 1);
    std::memcpy(text, line.data(), n);
    text[n] = '\0';
  });
}

}  // extern "C"
