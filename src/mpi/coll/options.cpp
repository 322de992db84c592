// SPDX-License-Identifier: BSD-3-Clause
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/name_table.hpp"
#include "hympi/options.hpp"
#include "hympi/types.hpp"

namespace hympi {
namespace {

[[noreturn]] void bad_value(const char* variable, const char* value, const char* accepted) {
  throw Error(std::string("hympi: environment variable ") + variable + "='" + value +
              "' is not valid: it takes " + accepted + " (or unset it for the default)");
}

const char* env(const char* variable) {
  const char* value = std::getenv(variable);
  return value && *value ? value : nullptr;
}

long parse_integer(const char* variable, const char* value, long min, const char* accepted) {
  char* end = nullptr;
  errno = 0;
  long parsed = std::strtol(value, &end, 10);
  if (errno != 0 || *end != '\0' || parsed < min) bad_value(variable, value, accepted);
  return parsed;
}

double parse_seconds(const char* variable, const char* value) {
  char* end = nullptr;
  errno = 0;
  double parsed = std::strtod(value, &end);
  if (errno != 0 || *end != '\0' || !(parsed >= 0))
    bad_value(variable, value, "a number of seconds >= 0 (0 disables the watchdog)");
  return parsed;
}

constexpr auto kWaitPolicies = core::name_table<WaitPolicy>({HYMPI_WAIT_POLICIES(HYMPI_ROW)});
constexpr auto kBarriers = core::name_table<BarrierAlgorithm>({HYMPI_BARRIER_ALGORITHMS(HYMPI_ROW)});
constexpr auto kOrders = core::name_table<MemoryOrders>({HYMPI_MEMORY_ORDERS(HYMPI_ROW)});
constexpr core::Named<bool> kFlags[] = {{true, "1"},  {true, "on"},   {true, "true"},
                                        {false, "0"}, {false, "off"}, {false, "false"}};
constexpr const char* kFlagValues = "1/on/true or 0/off/false";

/// The value of `table` that `value` names; anything else is an error listing the names
/// (or saying `accepted`).
template <class Table>
auto parse_name(const Table& table, const char* variable, const char* value, const char* accepted = nullptr) {
  if (auto parsed = core::value_in(table, value)) return *parsed;
  bad_value(variable, value, accepted ? accepted : core::names_in(table, " or ").c_str());
}

}  // namespace

Options Options::from_env() {
  Options o;
  if (const char* v = env("HYMPI_NODE_SIZE"))
    o.node_size = int(parse_integer("HYMPI_NODE_SIZE", v, 1,
                                    "a positive number of ranks per emulated node, e.g. 2"));
  if (const char* v = env("HYMPI_WAIT")) o.wait = parse_name(kWaitPolicies, "HYMPI_WAIT", v);
  if (const char* v = env("HYMPI_TIMEOUT")) o.timeout_s = parse_seconds("HYMPI_TIMEOUT", v);
  if (const char* v = env("HYMPI_TREE")) {
    if (!std::strcmp(v, "binomial")) {
      o.tree = TreeShape::binomial;
    } else if (!std::strncmp(v, "kary:", 5)) {
      o.tree = TreeShape::kary;
      o.tree_arity = int(parse_integer("HYMPI_TREE", v + 5, 1, "binomial or kary:K with K in 1..16"));
      if (o.tree_arity > 16) bad_value("HYMPI_TREE", v, "binomial or kary:K with K in 1..16");
    } else {
      bad_value("HYMPI_TREE", v, "binomial or kary:K with K in 1..16");
    }
  }
  if (const char* v = env("HYMPI_TOPO_AWARE")) o.topology_aware = parse_name(kFlags, "HYMPI_TOPO_AWARE", v, kFlagValues);
  if (const char* v = env("HYMPI_BARRIER")) o.barrier = parse_name(kBarriers, "HYMPI_BARRIER", v);
  if (const char* v = env("HYMPI_ORDERS")) o.orders = parse_name(kOrders, "HYMPI_ORDERS", v);
  if (const char* v = env("HYMPI_COLL_BUFFER"))
    o.collective_buffer_bytes = std::size_t(parse_integer(
        "HYMPI_COLL_BUFFER", v, 64, "a buffer size in bytes >= 64, e.g. 1048576"));
  if (const char* v = env("HYMPI_VERIFY")) o.verify = parse_name(kFlags, "HYMPI_VERIFY", v, kFlagValues);
  if (const char* v = env("HYMPI_SINGLE_COPY"))
    o.single_copy_bytes = std::size_t(parse_integer(
        "HYMPI_SINGLE_COPY", v, 0, "the smallest message in bytes read with one copy, e.g. 262144; 0: never"));
  return o;
}

const char* name_of(WaitPolicy policy) { return core::name_in(kWaitPolicies, policy); }
const char* name_of(BarrierAlgorithm algorithm) { return core::name_in(kBarriers, algorithm); }
const char* name_of(MemoryOrders orders) { return core::name_in(kOrders, orders); }

std::string describe(const Options& o) {
  std::string tree = o.tree == TreeShape::binomial ? "binomial" : "kary:" + std::to_string(o.tree_arity);
  return "node_size=" + (o.node_size ? std::to_string(o.node_size) : std::string("physical")) +
         " wait=" + name_of(o.wait) + " timeout=" + std::to_string(int(o.timeout_s)) +
         "s tree=" + tree + " barrier=" + name_of(o.barrier) + " orders=" + name_of(o.orders) +
         " coll_buffer=" + std::to_string(o.collective_buffer_bytes) +
         " verify=" + (o.verify ? "on" : "off") +
         " single_copy=" + (o.single_copy_bytes ? std::to_string(o.single_copy_bytes) : std::string("off"));
}

}  // namespace hympi
