// SPDX-License-Identifier: BSD-3-Clause
// hympi_options (include/hympi.h) <-> hympi::Options: every field coming from C checked
// (an out-of-range value is an argument error naming the field), and the options functions.
// The fields: HYMPI_OPTIONS in hympi/names.h.
#include <algorithm>
#include <cstring>
#include <string>

#include "c/c_api.hpp"

namespace hympi::c {
namespace {

constexpr const char* kWaitPolicies[] = {HYMPI_WAIT_POLICIES(HYMPI_C_CONSTANT)};
constexpr const char* kTreeShapes[] = {HYMPI_TREE_SHAPES(HYMPI_C_CONSTANT)};
constexpr const char* kBarriers[] = {HYMPI_BARRIER_ALGORITHMS(HYMPI_C_CONSTANT)};
constexpr const char* kOrders[] = {HYMPI_MEMORY_ORDERS(HYMPI_C_CONSTANT)};

}  // namespace

Options to_options(const hympi_options& o) {
  Options options;
  options.node_size = int(checked_range(o.node_size, 0, INT32_MAX, "options->node_size", "0: real nodes"));
  options.wait = checked_enum<WaitPolicy>(o.wait, kWaitPolicies, "options->wait");
  if (!(o.timeout_s >= 0))  // also NaN
    throw ArgumentError("argument 'options->timeout_s' is " + std::to_string(o.timeout_s) +
                        "; valid: seconds >= 0 (0 disables the watchdog)");
  options.timeout_s = o.timeout_s;
  options.tree = checked_enum<TreeShape>(o.tree, kTreeShapes, "options->tree");
  options.tree_arity = int(checked_range(o.tree_arity, 1, 16, "options->tree_arity", "the K of HYMPI_TREE=kary:K"));
  options.topology_aware = checked_range(o.topology_aware, 0, 1, "options->topology_aware", "0 or 1") != 0;
  options.barrier = checked_enum<BarrierAlgorithm>(o.barrier, kBarriers, "options->barrier");
  options.orders = checked_enum<MemoryOrders>(o.orders, kOrders, "options->orders");
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
#define HYMPI_FROM_OPTION(field, c_type, type, doc) options.field = c_type(o.field);
  HYMPI_OPTIONS(HYMPI_FROM_OPTION)
#undef HYMPI_FROM_OPTION
  return options;
}

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
